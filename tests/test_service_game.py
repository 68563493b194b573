"""The service with the real rules and the shipped default scenario: a whole game round
played through ``RulesService.submit`` with the campaign's seeded dice, then replayed exactly
from the order log (R-GEN-01, R-TURN-01, R-TURN-02, R-PBP-DEAD-04)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest

from caedes_bot.domain.records import ActingAs, CampaignStatus, CampaignView, OutboxMessage
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import Database
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.errors import NotEnoughRP
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep, TurnEnded, UmpireAdvance
from caedes_bot.rules.victory import factions_of_player, players_in_game
from caedes_bot.service import Actor, NotAuthorised, RulesService
from tests.persistence.fixtures import db, db_template, db_url

__all__ = ["db", "db_template", "db_url"]

UMPIRE = 900
PLAYER_DAW = 101


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return load_ruleset()


@pytest.fixture
async def service(db: Database, rules: Ruleset) -> AsyncIterator[RulesService]:
    yield RulesService(db, rules)


async def play_first_round(
    service: RulesService,
    campaign_id: int,
    *,
    daw: Actor | None = None,
    umpire: Actor | None = None,
) -> int:
    """Dawnians buy 3 Infantry and send both Knights into Sarnath Fields (held by the
    Acherousians); every decision is answered by its default through the umpire; everyone
    else passes. ``daw`` and ``umpire`` give the orders (by default the members ``PLAYER_DAW``
    and ``UMPIRE``). Returns the number of orders given."""
    given = 0

    async def give(actor: Actor, order: Order) -> None:
        nonlocal given
        await service.submit(campaign_id, actor, order, interaction_id=f"o{given}")
        given += 1

    daw = daw or Actor(PLAYER_DAW)
    umpire = umpire or Actor(UMPIRE)
    state = await service.get_state(campaign_id)
    bought = moved = False
    for _ in range(500):
        state = await service.get_state(campaign_id)
        if state.round != 1:
            break
        active = state.active
        assert active is not None
        if state.pending:
            await give(umpire, UmpireAdvance(active))
        elif active == "DAW" and state.step is Step.BUY and not bought:
            await give(daw, BuyUnits("DAW", "U-DAW-01", 3))
            bought = True
        elif active == "DAW" and state.step is Step.MOVE and not moved:
            await give(daw, MoveUnits("DAW", (5,), "sarnath-fields"))
            await give(daw, MoveUnits("DAW", (10,), "sarnath-fields"))
            moved = True
        elif state.step is Step.COMBAT and state.battles_due:
            await give(
                daw if active == "DAW" else umpire, FightBattle(active, state.battles_due[0])
            )
        else:
            await give(daw if active == "DAW" else umpire, EndStep(active))
    assert state.round == 2 and bought and moved
    return given


async def test_a_whole_game_round_replays_exactly(service: RulesService, db: Database) -> None:
    info = await service.create_campaign(
        1, "Real", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    start = await service.start(info.id, Actor(UMPIRE))
    assert start.acting_as is ActingAs.UMPIRE
    assert (start.state.round, start.state.active, start.state.step) == (1, "DAW", Step.TRADE)
    assert (await service.get_campaign(info.id)).status is CampaignStatus.ACTIVE

    given = await play_first_round(service, info.id)
    state = await service.get_state(info.id)
    assert (state.round, state.active) == (2, "DAW")
    assert state.dice_rolls > 0  # the battle rolled the campaign's seeded dice
    # + SetPlayers (who plays what, R-VIC-01) and StartCampaign
    assert (await service.get_campaign(info.id)).version == given + 2

    service.forget()
    assert await service.get_state(info.id) == state
    assert await service.replay(info.id) == state


async def test_only_the_umpire_starts_a_campaign(service: RulesService) -> None:
    info = await service.create_campaign(
        1, "Real", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    with pytest.raises(NotAuthorised) as err:
        await service.start(info.id, Actor(PLAYER_DAW))
    assert err.value.rule == "R-PBP-UMP-01"
    result = await service.start(info.id, Actor(555, is_admin=True))
    assert result.acting_as is ActingAs.ADMIN


async def test_refused_real_order_changes_nothing(service: RulesService, db: Database) -> None:
    """R-BUY-02: RP can never be negative. The Dawnians reach step 5 of their first turn with
    12 RP + 16 collected - 3 upkeep = 25 RP (see tests/rules/test_scenario_round.py):
    9 Infantry at 3 RP (27) are refused and nothing is written; 8 (24) leave 1 RP."""
    info = await service.create_campaign(
        1, "Real", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.start(info.id, Actor(UMPIRE))
    daw = Actor(PLAYER_DAW)
    while (await service.get_state(info.id)).step is not Step.BUY:
        await service.submit(info.id, daw, EndStep("DAW"))
    before = await service.get_campaign(info.id)
    events_before = len(await service.events(info.id))
    assert (await service.get_state(info.id)).factions["DAW"].rp == 25
    with pytest.raises(NotEnoughRP) as err:
        await service.submit(info.id, daw, BuyUnits("DAW", "U-DAW-01", 9), interaction_id="buy-9")
    assert err.value.rule == "R-BUY-02"
    after = await service.get_campaign(info.id)
    assert after.version == before.version
    assert len(await service.events(info.id)) == events_before
    service.forget()
    assert (await service.get_state(info.id)).factions["DAW"].rp == 25
    result = await service.submit(
        info.id, daw, BuyUnits("DAW", "U-DAW-01", 8), interaction_id="buy-8"
    )
    assert result.state.factions["DAW"].rp == 1


class RecordingAnnouncer:
    """Keeps every campaign view and event batch the service announces; posts nothing."""

    def __init__(self) -> None:
        self.calls: list[tuple[CampaignView, tuple[Event, ...]]] = []

    def announce(
        self,
        campaign: CampaignView,
        events: Sequence[Event],
        state: GameState,
        ruleset: Ruleset,
        *,
        before: GameState | None = None,
    ) -> list[OutboxMessage]:
        self.calls.append((campaign, tuple(events)))
        return []

    def status_changed(
        self, campaign: CampaignView, state: GameState, ruleset: Ruleset
    ) -> list[OutboxMessage]:
        return []


async def test_the_order_ending_a_turn_is_announced_with_the_whole_turn(
    db: Database, rules: Ruleset
) -> None:
    """R-GEN-07: the turn summary may speak of the whole turn, so the order that ends a turn
    reaches the announcer with the events earlier orders of that turn stored: the Dawnians'
    TurnBegan and income (step 3, from the start order) and their purchase (step 5)."""
    announcer = RecordingAnnouncer()
    service = RulesService(db, rules, announcer=announcer)
    info = await service.create_campaign(
        1, "Whole turn", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.start(info.id, Actor(UMPIRE))
    daw = Actor(PLAYER_DAW)
    for _ in range(20):
        state = await service.get_state(info.id)
        if state.active != "DAW":
            break
        if state.step is Step.BUY and not state.factions["DAW"].purchases:
            await service.submit(info.id, daw, BuyUnits("DAW", "U-DAW-01", 1))
        else:
            await service.submit(info.id, daw, EndStep("DAW"))
    ending = [
        (view, events)
        for view, events in announcer.calls
        if any(isinstance(e, TurnEnded) and e.faction == "DAW" for e in events)
    ]
    assert len(ending) == 1
    view, _ = ending[0]
    kinds = [type(e).__name__ for e in view.turn_events]
    assert kinds[0] == "TurnBegan" and view.turn_events[0].faction == "DAW"  # type: ignore[attr-defined]
    assert "IncomeCollected" in kinds and "UnitsBought" in kinds
    # orders that do not end a turn carry no earlier events
    assert all(not v.turn_events for v, evs in announcer.calls if (v, evs) not in ending)


async def test_a_player_given_two_factions_is_one_player_for_victory(
    service: RulesService,
) -> None:
    """R-SETUP-02, R-VIC-01: a member assigned both the Dawnians and the Orcs is told to the
    rules as one player at the start (``SetPlayers``), so victory counts the two factions
    together; the others, run by the umpire, are each a player of their own."""
    info = await service.create_campaign(
        1, "Real", "default", created_by=UMPIRE, umpire_user_id=UMPIRE
    )
    await service.assign(info.id, PLAYER_DAW, "DAW")
    await service.assign(info.id, PLAYER_DAW, "ORC")
    await service.start(info.id, Actor(UMPIRE))
    state = await service.get_state(info.id)
    assert state.players == {"DAW": str(PLAYER_DAW), "ORC": str(PLAYER_DAW)}
    assert factions_of_player(state, str(PLAYER_DAW)) == ("DAW", "ORC")
    others = [p for p in players_in_game(state) if p != str(PLAYER_DAW)]
    assert others == [f"umpire:{f}" for f in state.in_play if f not in ("DAW", "ORC")]
    assert len(players_in_game(state)) == len(state.in_play) - 1
