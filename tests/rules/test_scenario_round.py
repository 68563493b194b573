"""A whole game round of the shipped default scenario, "The Crumbling Empire", played through
``engine.apply`` alone with scripted dice (R-TURN-01..06, R-COLL-02, R-COLL-04, R-UPK-01,
R-BUY-01, R-MUSTER-01, R-ATTR-FORT-04, R-PBP-DEAD-03, R-COMBAT-04..06, R-COMBAT-11).

What happens, and the values worked out by hand from ``config/caedes`` (map RP and
commodities, scenario units and treasuries) and the catalogue:

Dawnians (12 RP, 2 grain; 13 units; unit ids 1-13). First turn, so every owned province with a
Dawnian unit pays (R-COLL-04, R-TURN-06): Brightholm 5 (grain, grain) + Lanternfield 3 (grain) +
Harrowgate 3 (livestock) + Corndale 3 (grain) + Vigil of Bor 2 (timber) = 16 RP; upkeep
ceil(13/6) = 3 (R-UPK-01): 12 + 16 - 3 = 25. They buy 3 Dawnian Infantry at 3 RP: 25 - 9 = 16 RP
(R-BUY-01). Stock: grain 2 + 4 = 6, livestock 1, timber 1.
Their Knights (ids 5 from Brightholm, 10 from Harrowgate) attack Sarnath Fields, held by the
Acherousian Phalanx (95), Archers (96) and Cavalry (97):

* round 1, missile step: the Archers shoot at defense 3: die 9, miss (R-COMBAT-04);
  melee: the Knights attack at 5: dice 2 and 4, two hits; the Phalanx and Cavalry defend at 3:
  dice 8 and 7, no hit (R-COMBAT-05). The Acherousians choose to lose the Phalanx and the
  Archers (R-COMBAT-06); the Dawnians press on (R-COMBAT-08);
* round 2, no Missile unit is left; melee: Knights 1 (hit) and 9, Cavalry 6 (miss): the Cavalry
  falls, the Dawnians win and take Sarnath Fields (R-COMBAT-11, R-COLL-02).

In step 8 they place two Infantry in Brightholm, where their Tower lifts the one-unit limit
(R-ATTR-FORT-04); the third is left to the bot, which puts it in the first legal province by
name: Brightholm again (R-PBP-DEAD-03). Brightholm: 6 units - 1 Knight + 3 Infantry = 8.
Their income record for next turn is every province they own with a unit in it: the five they
started with and Sarnath Fields (R-COLL-04).

Orcs (10 RP; livestock 1, iron 1; 18 units): Melvek Tor 4 (livestock x2) + Boarback Hills 2
(livestock) + Grimscar Crags 2 (iron) + Gormak Tor 4 (livestock, iron) + Ironjaw Peaks 2 (iron)
+ Bonegrinder Hills 2 (livestock, salt) = 16 RP; upkeep ceil(18/6) = 3; one Troopers bought
(3 RP) and mustered in Melvek Tor (hills, Orc infantry there, R-RACE-ORC-01):
10 + 16 - 3 - 3 = 20 RP; livestock 6, iron 4, salt 1; 19 units.

Acherousians (15 RP; grain, livestock, iron 1 each; 19 units, 2 of them Undead) play last, after
losing Sarnath Fields: Archursia 7 (grain, livestock) + Cindermarch 3 (livestock) + Tombwold 2
(timber) + Ashen Downs 2 (livestock, salt) + Crown of Ambitrax 3 (iron, iron) = 17 RP; upkeep
on 16 - 2 Undead = 14 units: ceil(14/6) = 3 (R-ATTR-UNDEAD-02): 15 + 17 - 3 = 29 RP;
grain 2, livestock 4, iron 3, timber 1, salt 1.

The other factions end each step at once. Then game round 2 begins with the Dawnians' second
turn, waiting in step 1.
"""

from __future__ import annotations

import pytest

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.collect import IncomeCollected
from caedes_bot.rules.combat.arithmetic import BattleResult
from caedes_bot.rules.combat.events import BattleEnded
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle, PressOn
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.events import Event
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.muster import MusterUnits, UnitsMustered
from caedes_bot.rules.orders import Order
from caedes_bot.rules.ownership import ProvinceCaptured
from caedes_bot.rules.setup import new_game
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep, GameRoundBegan, StartCampaign, TurnBegan

DAW_INFANTRY = "U-DAW-01"
ORC_TROOPERS = "U-ORC-02"


@pytest.fixture(scope="module")
def ruleset() -> Ruleset:
    return load_ruleset()


class _Game:
    """Feeds orders to ``engine.apply`` and keeps every event."""

    def __init__(self, rs: Ruleset, dice: ScriptedDice) -> None:
        self.rs = rs
        self.dice = dice
        self.state: GameState = new_game(rs, "default", "round-test")
        self.events: list[Event] = []

    def give(self, order: Order) -> tuple[Event, ...]:
        out = apply(self.state, order, self.rs, self.dice)
        self.state = out.state
        self.events += out.events
        return out.events

    def end_steps_until(self, faction: str, step: Step) -> None:
        while self.state.active == faction and self.state.step is not step:
            self.give(EndStep(faction))
        assert (self.state.active, self.state.step) == (faction, step)

    def pass_turn(self, faction: str) -> None:
        while self.state.active == faction:
            self.give(EndStep(faction))


def _units_at(state: GameState, space: str) -> list[tuple[str, str]]:
    return sorted((u.owner, u.kind) for u in state.units_at(space))


def test_default_scenario_whole_first_round(ruleset: Ruleset) -> None:
    dice = ScriptedDice([9, 2, 4, 8, 7, 1, 9, 6])
    game = _Game(ruleset, dice)
    start = game.state
    assert _units_at(start, "sarnath-fields") == [
        ("ACH", "U-ACH-01"),
        ("ACH", "U-ACH-03"),
        ("ACH", "U-ACH-04"),
    ]
    assert [start.unit(i).kind for i in (5, 10, 95, 96, 97)] == [
        "U-DAW-04",
        "U-DAW-04",
        "U-ACH-01",
        "U-ACH-03",
        "U-ACH-04",
    ]

    game.give(StartCampaign("umpire"))
    assert (game.state.round, game.state.active, game.state.step) == (1, "DAW", Step.TRADE)

    # --- Dawnians
    game.end_steps_until("DAW", Step.BUY)
    assert game.state.factions["DAW"].rp == 25
    game.give(BuyUnits("DAW", DAW_INFANTRY, 3))
    game.give(EndStep("DAW"))
    game.give(MoveUnits("DAW", (5,), "sarnath-fields"))
    game.give(MoveUnits("DAW", (10,), "sarnath-fields"))
    game.give(EndStep("DAW"))
    assert (game.state.step, game.state.battles_due) == (Step.COMBAT, ["sarnath-fields"])
    game.give(FightBattle("DAW", "sarnath-fields"))
    (casualties,) = game.state.pending
    assert (casualties.faction, casualties.kind) == ("ACH", "casualties")
    game.give(AssignCasualties("ACH", (95, 96)))
    (press,) = game.state.pending
    assert (press.faction, press.kind) == ("DAW", "press_or_withdraw")
    won = game.give(PressOn("DAW"))
    (result,) = [e for e in won if isinstance(e, BattleEnded)]
    assert result.result is BattleResult.ATTACKER_WON
    assert any(isinstance(e, ProvinceCaptured) for e in won)
    assert game.state.owners["sarnath-fields"] == "DAW"
    game.give(EndStep("DAW"))
    assert game.state.step is Step.MUSTER
    game.give(MusterUnits("DAW", ((DAW_INFANTRY, "brightholm"), (DAW_INFANTRY, "brightholm"))))
    by_bot = game.give(EndStep("DAW"))
    (placed,) = [e for e in by_bot if isinstance(e, UnitsMustered)]
    assert placed.by_bot and [(k, p) for _, k, p in placed.units] == [(DAW_INFANTRY, "brightholm")]

    # --- Orcs
    assert game.state.active == "ORC"
    game.end_steps_until("ORC", Step.BUY)
    game.give(BuyUnits("ORC", ORC_TROOPERS, 1))
    game.end_steps_until("ORC", Step.MUSTER)
    game.give(MusterUnits("ORC", ((ORC_TROOPERS, "melvek-tor"),)))
    game.give(EndStep("ORC"))

    # --- everyone else passes
    for faction in ("WEL", "LIZ", "DWA", "HEL", "ACH"):
        assert game.state.active == faction
        game.pass_turn(faction)

    dice.assert_exhausted()
    st = game.state

    # the round is over; round 2 begins with the Dawnians (R-TURN-01)
    assert (st.round, st.active, st.step) == (2, "DAW", Step.TRADE)
    assert GameRoundBegan(2) in game.events
    assert [e.faction for e in game.events if isinstance(e, TurnBegan)] == [
        "DAW",
        "ORC",
        "WEL",
        "LIZ",
        "DWA",
        "HEL",
        "ACH",
        "DAW",
    ]

    daw, orc, ach = st.factions["DAW"], st.factions["ORC"], st.factions["ACH"]
    assert daw.rp == 16
    assert daw.commodities == {"grain": 6, "livestock": 1, "timber": 1}
    assert len(st.units_of("DAW")) == 16
    assert len(st.units_at("brightholm")) == 8
    assert _units_at(st, "sarnath-fields") == [("DAW", "U-DAW-04"), ("DAW", "U-DAW-04")]
    assert daw.income_basis == [
        "brightholm",
        "corndale",
        "harrowgate",
        "lanternfield",
        "sarnath-fields",
        "vigil-of-bor",
    ]
    assert daw.purchases == []

    assert orc.rp == 20
    assert orc.commodities == {"livestock": 6, "iron": 4, "salt": 1}
    assert len(st.units_of("ORC")) == 19
    assert _units_at(st, "melvek-tor").count(("ORC", ORC_TROOPERS)) == 3

    assert ach.rp == 29
    assert ach.commodities == {"grain": 2, "livestock": 4, "iron": 3, "timber": 1, "salt": 1}
    assert len(st.units_of("ACH")) == 16
    (ach_income,) = [
        e for e in game.events if isinstance(e, IncomeCollected) and e.faction == "ACH"
    ]
    assert ach_income.rp_gained == 17 and "sarnath-fields" not in ach_income.provinces

    assert all(st.factions[f].turns_taken == 1 for f in st.in_play if f != "DAW")
    assert daw.turns_taken == 2
    assert not any(fs.eliminated for fs in st.factions.values())
    assert not st.finished
