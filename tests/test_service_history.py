"""``/history`` after ``/umpire rollback`` (R-PBP-UMP-01, R-GEN-07; decision 0023): the turn's
events leave out those of the orders the rollback voided, through the service on the shipped
default scenario with the campaign's own seeded dice."""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence import repository as repo
from caedes_bot.persistence.db import Database
from caedes_bot.rules.buy import BuyUnits, UnitsBought
from caedes_bot.rules.replay import CampaignContinued, RollBack, RolledBack
from caedes_bot.rules.state import Step
from caedes_bot.rules.turn import EndStep, TurnBegan, TurnEnded
from caedes_bot.service import Actor, RulesService
from caedes_bot.ui.announcer import RichAnnouncer
from tests.persistence.fixtures import db, db_template, db_url
from tests.test_service_export import _played, rules, service
from tests.test_service_game import PLAYER_DAW, UMPIRE

__all__ = ["db", "db_template", "db_url", "rules", "service"]


async def test_a_turns_history_leaves_out_a_purchase_rolled_back(service: RulesService) -> None:
    cid = await _played(service)
    daw = Actor(PLAYER_DAW)
    while (await service.get_state(cid)).step is not Step.BUY:
        await service.submit(cid, daw, EndStep("DAW"))
    await service.submit(cid, daw, BuyUnits("DAW", "U-DAW-01", 1))
    bought = await service.turn_events(cid, 2, "DAW")
    assert [e for e in bought if isinstance(e, UnitsBought)]
    point = (await service.rollback_points(cid))[-1]
    await service.submit(cid, Actor(UMPIRE), RollBack("UMPIRE", to_seq=point.seq))
    await service.submit(cid, daw, BuyUnits("DAW", "U-DAW-01", 2))

    history = await service.turn_events(cid, 2, "DAW")
    purchases = [e for e in history if isinstance(e, UnitsBought)]
    assert [e.count for e in purchases] == [2]  # the one bought after the rollback
    assert len([e for e in history if isinstance(e, RolledBack)]) == 1
    first = next(i for i, e in enumerate(bought) if isinstance(e, UnitsBought))
    assert history[:first] == bought[:first]  # everything before the purchase stays


async def test_a_continued_campaign_has_the_history_of_the_turn_it_continues(
    service: RulesService,
) -> None:
    """Decision 0023: an unfinished export imported carries on the Dawnians' turn of round 2;
    ``/history`` of that turn starts at the import instead of saying the turn never began."""
    cid = await _played(service)
    _, data = await service.export_campaign(cid, by=UMPIRE)
    info, _ = await service.import_campaign(1, "Carried on", data, UMPIRE)
    state = await service.get_state(info.id)
    assert (state.round, state.active) == (2, "DAW")
    history = await service.turn_events(info.id, 2, "DAW")
    assert [type(e) for e in history] == [CampaignContinued]


async def test_a_rollback_to_an_earlier_turn_lets_it_end_again_with_its_history(
    db: Database, rules: Ruleset
) -> None:
    """R-PBP-UMP-01 (decision 0023): the Dawnians end their turn of round 2 and the next turn
    begins; the umpire rolls back into the Dawnians' turn, and they end it again. Their panel,
    the map after their turn and the next turn's panel are posted again (before, the outbox's
    unique keys refused them and the turn could not end); /history of the Dawnians' turn runs
    on past the rollback to its one end, and the next turn starts afresh."""
    service = RulesService(db, rules, announcer=RichAnnouncer())
    cid = await _played(service)
    daw = Actor(PLAYER_DAW)
    while (await service.get_state(cid)).active == "DAW":
        await service.submit(cid, daw, EndStep("DAW"))
    after = (await service.get_state(cid)).active
    point = [p for p in await service.rollback_points(cid) if p.faction == "DAW"][1]
    await service.submit(cid, Actor(UMPIRE), RollBack("UMPIRE", to_seq=point.seq))
    assert (await service.get_state(cid)).active == "DAW"
    while (await service.get_state(cid)).active == "DAW":
        await service.submit(cid, daw, EndStep("DAW"))
    assert (await service.get_state(cid)).active == after

    rows = await service.db.read(lambda conn: repo.outbox_rows(conn, cid))
    again = [r.payload["replaces"] for r in rows if "replaces" in r.payload]
    assert f"panel:2:{after}" in again and "map:2:DAW" in again
    history = [type(e) for e in await service.turn_events(cid, 2, "DAW")]
    assert history.count(TurnEnded) == 1 and history.count(RolledBack) == 1
    assert history[-1] is TurnEnded
    following = [type(e) for e in await service.turn_events(cid, 2, after)]
    assert following[0] is TurnBegan and RolledBack not in following
