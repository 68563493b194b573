"""A small world for the economy tests (collect, upkeep and buy): R-COLL, R-UPK, R-BUY.

Map (RP and commodities chosen so sums are easy by hand):

    a plains RP 3, grain grain salt  -  b plains RP 2, iron  -  c hills RP 1, livestock
"""

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.state import GameState, Step
from tests.rules.builders import kind, ruleset, state, with_options

NO_DICE = ScriptedDice([])

KINDS = [
    kind("DI", "DAW", name="Dawnian Infantry"),
    kind("DK", "DAW", "cavalry", cost=6, name="Knights"),
    kind("DT", "DAW", "tower", name="Dawnian Tower"),
    kind("DS", "DAW", "ship"),
    kind("DH", "DAW", "cavalry", hero=True, name="Sir Bor"),
    kind("DU", "DAW", attributes=["undead"], race="undead"),
    kind("DN", "DAW", attributes=["necromancer"], cost=18),
    kind("DO", "DAW", race="summoned", cost=1),
    kind("OT", "ORC"),
]


def world(**options: object) -> Ruleset:
    rs = ruleset(
        provinces={"a": ("plains",), "b": ("plains",), "c": ("hills",)},
        borders=[("a", "b"), ("b", "c")],
        coasts=[("a", "bay")],
        rp={"a": 3, "b": 2, "c": 1},
        commodities={"a": ("grain", "grain", "salt"), "b": ("iron",), "c": ("livestock",)},
        kinds=KINDS,
    )
    return with_options(rs, **options) if options else rs


def dawnians(
    rs: Ruleset,
    units: list[tuple[str, str]],
    *,
    rp: int = 0,
    step: Step = Step.COLLECT,
    owners: dict[str, str] | None = None,
    orc: tuple[str, ...] = (),
) -> GameState:
    """Dawnian ``units`` as (kind, space), Orc Troopers at ``orc``; DAW owns a and b, ORC c."""
    return state(
        rs,
        units=[(k, "DAW", space) for k, space in units] + [("OT", "ORC", s) for s in orc],
        owners=owners if owners is not None else {"a": "DAW", "b": "DAW", "c": "ORC"},
        rp={"DAW": rp},
        step=step,
    )
