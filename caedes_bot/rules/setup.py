"""Setting up a campaign from a scenario (R-SETUP-01, R-SETUP-03, R-SETUP-04, R-TURN-01).

:func:`new_game` builds the state a campaign starts from: round 0, nobody active. The first
game round begins with the ``StartCampaign`` order (:mod:`caedes_bot.rules.turn`).
"""

from __future__ import annotations

from caedes_bot.gamedata.model import BaseType, Ruleset
from caedes_bot.rules.state import FactionState, GameState, Step, Unit

#: Room a ship has, and room each land unit type takes, so that a ship carries one cavalry
#: unit or up to two infantry units (R-MOVE-14).
_SHIP_ROOM = 2
_CARGO_ROOM = {BaseType.INFANTRY: 1, BaseType.CAVALRY: 2}


def new_game(ruleset: Ruleset, scenario_id: str, seed: str) -> GameState:
    """The state of a new campaign of scenario ``scenario_id`` before its first game round.

    * ``in_play``: the scenario's factions in the fixed turn order (R-TURN-01);
    * each faction's RP and commodities from the scenario, ``turns_taken`` 0 (R-TURN-06);
    * province owners from the scenario; other provinces are unowned (R-SETUP-03);
    * units placed in the scenario's order, each with the next ``muster_seq`` (the R-UPK-03
      tie-break); the owner is the faction of the unit's kind. A land unit listed in a sea zone
      or on a river edge is put aboard a ship of its faction there with room for it (R-MOVE-14);
    * options, turn limit, alliances and fealty from the scenario (R-SETUP-01, R-SETUP-04);
    * round 0, no active faction, the dice seed ``seed`` with no dice rolled yet.

    Args:
        ruleset: the static game data.
        scenario_id: a key of ``ruleset.scenarios``.
        seed: the campaign's dice seed (R-GEN-01).

    Raises:
        KeyError: no such scenario, or a unit kind the ruleset does not know.
        ValueError: the scenario puts a land unit on the water with no ship of its faction
            there that has room for it.
    """
    scenario = ruleset.scenarios[scenario_id]
    listed = set(scenario.faction_codes)
    in_play = [code for code in ruleset.turn_order if code in listed]
    state = GameState(
        scenario=scenario_id,
        dice_seed=seed,
        options=scenario.options,
        round=0,
        active=None,
        step=Step.TRADE,
        in_play=in_play,
        owners=dict(scenario.owners),
        turn_limit=scenario.turn_limit,
        alliances=[sorted(group) for group in scenario.alliances],
        fealty=dict(scenario.fealty),
    )
    for code in in_play:
        start = scenario.faction(code)
        state.factions[code] = FactionState(
            code=code,
            rp=start.rp,
            commodities={str(c): n for c, n in start.commodities.items() if n},
        )
    game_map = ruleset.map
    for entry in scenario.units:
        kind = ruleset.kind(entry.kind)
        for _ in range(entry.count):
            uid = state.new_id()
            state.mustered_seq += 1
            unit = Unit(
                id=uid,
                kind=kind.id,
                owner=kind.faction,
                location=entry.location,
                muster_seq=state.mustered_seq,
            )
            on_water = not game_map.is_province(entry.location)
            if on_water and kind.base_type in _CARGO_ROOM:
                unit.aboard = _ship_with_room(
                    state, ruleset, kind.faction, entry.location, kind.base_type
                )
            state.units[str(uid)] = unit
    return state


def _ship_with_room(
    state: GameState, ruleset: Ruleset, faction: str, space: str, cargo: BaseType
) -> int:
    """Id of the first ship of ``faction`` in ``space`` that can still take a ``cargo`` unit."""
    for ship in state.units_at(space):
        if ship.owner != faction or ruleset.kind(ship.kind).base_type is not BaseType.SHIP:
            continue
        used = sum(
            _CARGO_ROOM[ruleset.kind(u.kind).base_type]
            for u in state.units.values()
            if u.aboard == ship.id
        )
        if used + _CARGO_ROOM[cargo] <= _SHIP_ROOM:
            return ship.id
    raise ValueError(
        f"scenario places a {cargo} unit of {faction} at {space} with no ship there to carry it"
    )
