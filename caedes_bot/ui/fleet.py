"""Words for ships and what they carry (R-MOVE-14, R-MOVE-18): the ``/status`` and ``/province``
lines, and the labels the ship commands offer while typing. Pure and Discord-free."""

from __future__ import annotations

from caedes_bot.gamedata.model import Ruleset
from caedes_bot.gamedata.water import province_waters
from caedes_bot.rules.ships import cargo_of, is_ship, ship_remaining
from caedes_bot.rules.state import GameState, Unit
from caedes_bot.ui.describe import faction_name, kind_counts, space_name, unit_label

__all__ = ["cargo_text", "ship_label", "ships_near_text", "ships_text"]


def cargo_text(state: GameState, ruleset: Ruleset, ship: Unit) -> str:
    """``"carrying 2 High Elven Spearmen (#3, #4)"`` or ``"empty"`` (R-MOVE-14)."""
    cargo = cargo_of(state, ship.id)
    if not cargo:
        return "empty"
    ids = ", ".join(f"#{u.id}" for u in cargo)
    return f"carrying {kind_counts(ruleset, [u.kind for u in cargo])} ({ids})"


def ship_label(state: GameState, ruleset: Ruleset, ship: Unit) -> str:
    """``"High Elven Ship #12 on Pearl Sea, 2 moves left, carrying ..."`` (R-MOVE-18)."""
    left = ship_remaining(ship, ruleset.kind(ship.kind))
    moves = "attacking" if ship.attacking else f"{left} move{'s' if left != 1 else ''} left"
    return (
        f"{unit_label(ruleset, ship.id, ship.kind, ship.location)}, {moves}, "
        f"{cargo_text(state, ruleset, ship)}"
    )


def ships_text(state: GameState, ruleset: Ruleset, faction: str) -> str:
    """One line per ship of ``faction``: where, movement left this turn, and what it carries;
    ``""`` when it has none."""
    ships = [u for u in state.peek_units_of(faction) if is_ship(ruleset, u)]
    return "\n".join(ship_label(state, ruleset, s) for s in ships)


def ships_near_text(state: GameState, ruleset: Ruleset, province: str) -> str:
    """The ships on the water a province touches (its coast and navigable river edges), one
    line each with owner and cargo; ``""`` when there are none (R-MOVE-13, R-MOVE-14)."""
    lines = []
    for space in province_waters(ruleset.map, province):
        for ship in state.units_at(space):
            if is_ship(ruleset, ship):
                lines.append(
                    f"{space_name(ruleset, space)}: {faction_name(ruleset, ship.owner)} "
                    f"{ruleset.kind(ship.kind).display_name} #{ship.id}, "
                    f"{cargo_text(state, ruleset, ship)}"
                )
    return "\n".join(lines)
