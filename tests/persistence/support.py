"""Helpers for storage and service tests: migrated SQLite files and stand-in orders.

A real SQLite file migrated by Alembic is made once per test session and copied for each test
(design.md section 6: persistence tests run on a real migrated file). The stand-in orders are
tiny, always-legal (or always-refused) orders with a stand-in ``apply``, used where a test is
about storage and not about a rule.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.persistence.db import migrate_to_head
from caedes_bot.persistence.stateparts import PartChanges, load_parts, split_state
from caedes_bot.rules import engine
from caedes_bot.rules.dice import Dice
from caedes_bot.rules.errors import NotEnoughRP
from caedes_bot.rules.events import Event
from caedes_bot.rules.orders import Order
from caedes_bot.rules.state import FactionState, GameState
from tests.rules.builders import kind, ruleset


def sqlite_url(path: Path) -> str:
    """The async SQLAlchemy URL of a SQLite file."""
    return f"sqlite+aiosqlite:///{path}"


def migrated_copy(template: Path, target: Path) -> str:
    """Copy the migrated template database to ``target``; returns its URL."""
    shutil.copyfile(template, target)
    return sqlite_url(target)


def make_template(folder: Path) -> Path:
    """A SQLite file upgraded to head by Alembic."""
    path = folder / "template.db"
    migrate_to_head(sqlite_url(path))
    return path


def small_ruleset() -> Ruleset:
    """Two provinces and two factions in play (DAW, ORC): enough for storage tests."""
    return ruleset(
        provinces={"a": ("plains",), "b": ("hills",)},
        borders=[("a", "b")],
        kinds=[kind("INF", "DAW"), kind("ORC-INF", "ORC")],
        factions=("DAW", "ORC"),
    )


def stand_in_new_game(rs: Ruleset, scenario_id: str, seed: str) -> GameState:
    """A started game: DAW active, each faction with 10 RP."""
    in_play = [f.code for f in rs.factions]
    return GameState(
        scenario=scenario_id,
        dice_seed=seed,
        options=rs.scenarios[scenario_id].options,
        round=1,
        active=in_play[0],
        in_play=in_play,
        factions={code: FactionState(code=code, rp=10) for code in in_play},
    )


@dataclass(frozen=True, slots=True)
class StandInBump(Order):
    """Add ``amount`` RP to ``faction``, rolling ``rolls`` d10 first; refused if RP would go
    below 0 (as R-BUY-02 refuses)."""

    amount: int = 1
    rolls: int = 0


@dataclass(frozen=True, slots=True)
class StandInBumped(Event):
    """``faction`` now has ``rp``; ``dice`` were rolled on the way."""

    faction: str
    rp: int
    dice: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StandInSecret(Event):
    """A private event for ``faction`` (R-GEN-07)."""

    private = True
    faction: str
    rp: int


def stand_in_apply(state: GameState, order: Order, rs: Ruleset, dice: Dice) -> engine.Outcome:
    """``apply`` for :class:`StandInBump`; every other order goes to the real engine."""
    if not isinstance(order, StandInBump):
        return engine.apply(state, order, rs, dice)
    rp = state.factions[order.faction].rp + order.amount
    if rp < 0:
        raise NotEnoughRP(
            f"{order.faction} has {state.factions[order.faction].rp} RP.",
            allowed="a smaller amount",
        )
    new = state.clone()
    before = dice.count
    values = dice.roll(10, order.rolls, reason="stand-in") if order.rolls else ()
    new.factions[order.faction].rp = rp
    new.dice_rolls += dice.count - before
    return engine.Outcome(
        new, (StandInBumped(order.faction, rp, values), StandInSecret(order.faction, rp))
    )


class PartStore:
    """What ``campaign_state_parts`` holds for one campaign: key -> (ord, JSON text)."""

    def __init__(self, state: GameState) -> None:
        self.rows = {p.key: (p.ord, p.doc) for p in split_state(state)}

    def write(self, changes: PartChanges) -> None:
        for key in changes.deletes:
            del self.rows[key]
        for key, doc in changes.updates:
            self.rows[key] = (self.rows[key][0], doc)
        for key, place in changes.reorders:
            self.rows[key] = (place, self.rows[key][1])
        for part in changes.inserts:
            assert part.key not in self.rows
            self.rows[part.key] = (part.ord, part.doc)

    def load(self) -> GameState:
        ordered = sorted(self.rows.items(), key=lambda row: row[1][0])
        return load_parts([(key, doc) for key, (_, doc) in ordered])
