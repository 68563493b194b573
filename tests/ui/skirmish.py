"""A skirmish campaign driven through the pure rules, for tests of the Discord edge's pure parts
(announcer, embeds, name resolution): no bot, no database.

Unit ids of the skirmish scenario (in its order): Dawnians 1 Tower, 2 Infantry, 3 Knights at
Brightholm; 4, 5 Infantry and 6 Yeomen at Harrowgate; 7 Infantry at Corndale. Orcs 8 Tower,
9 Troopers, 10 Heavy Infantry, 11 Irregulars at Melvek Tor; 12 Troopers, 13 Wolfriders at
Wolfsgate. Acherousians 14 Tower, 15 Phalanx, 16 Necromancer, 17 Undead Infantry at Archursia;
18 Phalanx, 19 Cavalry at Kestrel Downs; 20 Archers at Sarnath Fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import UTC, datetime
from functools import cache

from caedes_bot.domain.records import CampaignInfo, CampaignStatus, CampaignView
from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules import engine
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep, StartCampaign

ALICE, BOB, UMPIRE = 101, 102, 900
NOW = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


@cache
def ruleset() -> Ruleset:
    return load_ruleset()


def campaign(
    *, players: dict[str, int] | None = None, deadlines: dict[str, datetime] | None = None
) -> CampaignView:
    """Campaign 7: the Dawnians are Alice's, the Orcs Bob's, the Acherousians the umpire's."""
    info = CampaignInfo(
        id=7,
        guild_id=1,
        name="Test",
        scenario="skirmish",
        status=CampaignStatus.ACTIVE,
        version=1,
        created_by=1,
        umpire_user_id=UMPIRE,
        category_id=None,
        created_at=NOW,
        updated_at=NOW,
    )
    return CampaignView(
        info, players if players is not None else {"DAW": ALICE, "ORC": BOB}, deadlines or {}
    )


def apply(
    state: GameState, order: Order, dice: Iterable[int] = ()
) -> tuple[GameState, tuple[Event, ...]]:
    """Apply ``order`` with exactly the dice given (all must be rolled)."""
    scripted = ScriptedDice(dice)
    outcome = engine.apply(state, order, ruleset(), scripted)
    scripted.assert_exhausted()
    return outcome.state, outcome.events


def started() -> tuple[GameState, tuple[Event, ...]]:
    """Game round 1 has begun: the Dawnians at step 1."""
    return apply(new_game(ruleset(), "skirmish", "seed"), StartCampaign(faction="UMPIRE"))


def at_step(step: Step, **options: object) -> GameState:
    """The Dawnians' first turn at ``step`` (each step ended as a pass), with the campaign
    ``options`` changed (``upkeep_waits=True`` to rest in step 4)."""
    state, _ = started()
    if options:
        state.options = dataclasses.replace(state.options, **options)  # type: ignore[arg-type]
    while state.step < step:
        state, _ = apply(state, EndStep("DAW"))
    assert state.active == "DAW" and state.step is step
    return state
