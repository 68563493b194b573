"""What the map picture shows, taken from a game state: a small, JSON-friendly :class:`MapScene`.

The scene is pure and quick to make (no drawing), so the announcer can put it in an outbox row
inside an order's transaction, and the picture (:mod:`caedes_bot.ui.mapimage`) can be drawn
later, off the event loop, from the scene alone: the same scene always gives the same PNG, so
a retried delivery uploads the same picture, and :meth:`MapScene.digest` keys the cache.

A scene holds: the owner of each owned province (R-OWN-*), one counter per faction per space
(the number of units, and how many are Towers, ships carrying units, Heroes), the spaces with
a battle pending or being fought (R-COMBAT-01), the contested provinces (units of a side other
than the owner's stand there), the round, the faction whose turn it is and its step
(R-TURN-02), and the view asked for: a province to zoom on, a faction to highlight.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from caedes_bot.gamedata.model import Attribute, BaseType, Ruleset
from caedes_bot.rules.state import GameState

__all__ = ["Counter", "MapScene", "map_caption", "map_scene", "turn_map_caption"]


@dataclass(frozen=True, slots=True)
class Counter:
    """One faction's units in one space: ``units`` in all, of which ``towers`` Towers,
    ``laden_ships`` ships with units aboard (R-MOVE-14) and ``heroes`` Heroes."""

    faction: str
    units: int
    towers: int = 0
    ships: int = 0
    laden_ships: int = 0
    heroes: int = 0

    def marks(self) -> str:
        """``"T1 S2+ H"``: the marks drawn after the count (the legend explains them)."""
        out = []
        if self.towers:
            out.append(f"T{self.towers}")
        if self.ships:
            out.append(f"S{self.ships}" + ("+" if self.laden_ships else ""))
        if self.heroes:
            out.append("H" if self.heroes == 1 else f"H{self.heroes}")
        return " ".join(out)


@dataclass(frozen=True, slots=True)
class MapScene:
    """Everything one map picture shows. Built by :func:`map_scene`; see the module docstring.

    ``owners``: province id -> faction code (unowned provinces are absent). ``counters``: space
    id -> counters in turn order. ``battles`` and ``contested``: sorted space ids. ``factions``:
    the codes in play, in turn order (for the legend). ``step``: like ``"6 Move"``.
    """

    round: int
    active: str | None
    step: str
    factions: tuple[str, ...]
    owners: Mapping[str, str]
    counters: Mapping[str, tuple[Counter, ...]]
    battles: tuple[str, ...] = ()
    contested: tuple[str, ...] = ()
    focus: str | None = None
    highlight: str | None = None
    finished: bool = False
    _digest: list[str] = field(default_factory=list, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """A JSON-friendly dict (for an outbox payload); :meth:`from_json` reads it back."""
        data = asdict(self)
        data.pop("_digest")
        data["counters"] = {s: [asdict(c) for c in cs] for s, cs in self.counters.items()}
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MapScene:
        """The scene of :meth:`to_json`'s dict.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not such a dict.
        """
        return cls(
            round=int(data["round"]),
            active=data.get("active"),
            step=str(data["step"]),
            factions=tuple(data["factions"]),
            owners=dict(data["owners"]),
            counters={
                s: tuple(Counter(**c) for c in cs) for s, cs in dict(data["counters"]).items()
            },
            battles=tuple(data.get("battles", ())),
            contested=tuple(data.get("contested", ())),
            focus=data.get("focus"),
            highlight=data.get("highlight"),
            finished=bool(data.get("finished", False)),
        )

    def digest(self) -> str:
        """A short hash of everything drawn: equal scenes, equal digests (the cache key)."""
        if not self._digest:
            text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
            self._digest.append(hashlib.sha256(text.encode()).hexdigest()[:24])
        return self._digest[0]


def map_scene(
    state: GameState,
    ruleset: Ruleset,
    *,
    focus: str | None = None,
    highlight: str | None = None,
) -> MapScene:
    """The scene of ``state``: owners, counters, battles, contested provinces, turn and step.

    Args:
        state: read only.
        ruleset: for unit kinds (Towers, ships, Heroes) and the map.
        focus: a province id to zoom on (with its neighbours), or ``None``.
        highlight: a faction code whose holdings stand out, or ``None``.
    """
    tallies: dict[str, dict[str, dict[str, int]]] = {}
    laden: set[int] = {u.aboard for u in state.peek_units() if u.aboard is not None}
    for unit in state.peek_units():
        kind = _kind(ruleset, unit.kind)
        tally = tallies.setdefault(unit.location, {}).setdefault(
            unit.owner, {"units": 0, "towers": 0, "ships": 0, "laden_ships": 0, "heroes": 0}
        )
        tally["units"] += 1
        if kind is None:
            continue
        if kind.base_type is BaseType.TOWER:
            tally["towers"] += 1
        if kind.base_type is BaseType.SHIP:
            tally["ships"] += 1
            if unit.id in laden:
                tally["laden_ships"] += 1
        if kind.hero or kind.has(Attribute.HERO):
            tally["heroes"] += 1
    order = {code: i for i, code in enumerate(ruleset.turn_order)}
    counters = {
        space: tuple(
            Counter(faction=f, **t)
            for f, t in sorted(by.items(), key=lambda i: order.get(i[0], 99))
        )
        for space, by in sorted(tallies.items())
    }
    battles = set(state.battles_due)
    if state.battle is not None:
        battles.add(state.battle.space)
    contested = []
    for space, by in tallies.items():
        if space not in ruleset.map.provinces:
            continue
        owner = state.owner(space)
        sides = [f for f in by if owner is None or not state.are_partners(f, owner)]
        if (owner is not None and sides) or (owner is None and len(by) > 1):
            contested.append(space)
    return MapScene(
        round=state.round,
        active=state.active,
        step=state.step.label,
        factions=tuple(c for c in ruleset.turn_order if c in state.in_play) or tuple(state.in_play),
        owners={p: f for p, f in sorted(state.owners.items()) if p in ruleset.map.provinces},
        counters=counters,
        battles=tuple(sorted(battles)),
        contested=tuple(sorted(contested)),
        focus=focus,
        highlight=highlight,
        finished=state.finished,
    )


def _kind(ruleset: Ruleset, kind_id: str) -> Any:
    try:
        return ruleset.kind(kind_id)
    except KeyError:
        return None


def _faction(ruleset: Ruleset, code: str) -> str:
    try:
        faction = ruleset.faction(code)
    except KeyError:
        return code
    return f"{faction.emoji} {faction.name} ({faction.code})"


def turn_map_caption(ruleset: Ruleset, faction: str, round_no: int) -> str:
    """The text of the map posted after a turn (R-TURN-01)."""
    return f"The map after the turn of {_faction(ruleset, faction)} in game round {round_no}."


def map_caption(ruleset: Ruleset, scene: MapScene) -> str:
    """The text of the answer to ``/map``: what the picture shows."""
    if scene.finished:
        head = "The map at the end of the campaign"
    elif scene.active is None:
        head = "The map before the first turn"
    else:
        head = (
            f"The map in game round {scene.round}, turn of {_faction(ruleset, scene.active)},"
            f" step {scene.step}"
        )
    extra = []
    if scene.focus is not None:
        extra.append(f"around {ruleset.map.space_name(scene.focus)} and its neighbours")
    if scene.highlight is not None:
        extra.append(f"with the holdings of {_faction(ruleset, scene.highlight)} picked out")
    return head + (f", {' and '.join(extra)}" if extra else "") + "."
