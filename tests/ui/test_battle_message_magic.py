"""The battle message of a long battle with every special action (issue 12; R-COMBAT-16,
R-ATTR-BREATH-01, R-MAGIC-ABJ-01, R-MAGIC-INV-01, R-MAGIC-ENCH-01, R-MAGIC-ENCH-03,
R-MAGIC-ILL-01, R-COMBAT-12).

Twenty rounds, each with the same dice: an Engineer breathes 2, 7, 10 (target 4: the 2 hits the
enemy, the 10 its own side), a Shaman invokes five dice 1, 2, 3, 9, 9 (target 2: two hits), an
Illusionist forced the Shaman's 1 to be rerolled into a 6, and the Druid's enchant die shows 4
(target 4: it takes a unit). In round 20 the Cleric's shield cancelled a hit. Notes: the
declaration of round 1, an Orc Trooper enchanted in round 19 and freed in round 20. The early
rounds fold into one summary line; the latest rounds show every die with its unit and target;
the message stays within Discord's limits, which the fake Discord checks as Discord does.
"""

from __future__ import annotations

import re

from caedes_bot.gamedata.loader import load_ruleset
from caedes_bot.rules.state import (
    BattleAction,
    BattleDie,
    BattleNote,
    BattleStepRecord,
    CombatStep,
    DiePurpose,
    NoteKind,
    Side,
    StandingOrder,
)
from caedes_bot.ui.battle_embeds import BattleHistory, battle_message
from tests.fakediscord.limits import check_message_body
from tests.ui.skirmish import started

ENGINEER, SHAMAN, TROOPER = 3, 20, 7
CLERIC, DRUID, ILLUSIONIST = 5, 21, 22
KINDS = {
    ENGINEER: "U-DWA-06",
    SHAMAN: "U-ORC-08",
    TROOPER: "U-ORC-02",
    CLERIC: "U-DAW-05",
    DRUID: "U-WEL-05",
    ILLUSIONIST: "U-HEL-04",
}


def _round(n: int) -> BattleStepRecord:
    a, d = Side.ATTACKER, Side.DEFENDER
    breath = [
        BattleDie(ENGINEER, KINDS[ENGINEER], a, 4, v, v <= 4, DiePurpose.BREATH, own_side=v == 10)
        for v in (2, 7, 10)
    ]
    invoke = [
        BattleDie(SHAMAN, KINDS[SHAMAN], a, 2, v, v <= 2, DiePurpose.INVOKE)
        for v in (1, 2, 3, 9, 9)
    ]
    invoke[0] = BattleDie(SHAMAN, KINDS[SHAMAN], a, 2, 1, True, DiePurpose.INVOKE, rerolled=True)
    enchant = [BattleDie(DRUID, KINDS[DRUID], d, 4, 4, True, DiePurpose.ENCHANT)]
    dice = [*breath, *invoke, *enchant]
    dice.append(
        BattleDie(SHAMAN, KINDS[SHAMAN], a, 2, 6, False, DiePurpose.INVOKE, replaces=len(breath))
    )
    return BattleStepRecord(
        n,
        CombatStep.MELEE,
        dice,
        hits_on_attacker=1,
        hits_on_defender=2,
        absorbed=[CLERIC] if n == 20 else [],
    )


def _history() -> BattleHistory:
    orders = (StandingOrder("ORC", KINDS[SHAMAN], BattleAction.INVOKE, 1),)
    return BattleHistory(
        id=4,
        space="wolfsgate",
        attacker="ORC",
        defenders=("WEL",),
        records=[_round(n) for n in range(1, 21)],
        kinds=dict(KINDS),
        round=20,
        notes=[
            BattleNote(1, NoteKind.DECLARED, "ORC", orders=orders),
            BattleNote(19, NoteKind.ENCHANTED, "ORC", units=(TROOPER,), enchanters=(DRUID,)),
            BattleNote(20, NoteKind.REVERTED, "ORC", units=(TROOPER,)),
        ],
        standing=list(orders),
    )


def test_a_long_magic_battle_shows_its_dice_folds_early_rounds_and_fits_discord() -> None:
    """As the module docstring says."""
    rs = load_ruleset()
    embed, rows = battle_message(1, started()[0], rs, _history())
    body = embed.to_dict()
    check_message_body({"embeds": [body], "components": rows})
    text = body.get("description") or ""
    assert text.startswith("*Rounds 1–"), text[:80]
    folded = re.match(
        r"\*Rounds 1–(\d+): (\d+) hits on the defender, (\d+) on the attacker; 0 units lost\.\*",
        text,
    )
    assert folded is not None, text[:120]
    last_folded = int(folded.group(1))
    assert 1 < last_folded < 18  # the latest rounds stay whole
    assert (int(folded.group(2)), int(folded.group(3))) == (2 * last_folded, last_folded)
    assert f"__Round {last_folded + 1}, melee step__" in text
    assert "__Round 1, melee step__" not in text
    last = text[text.index("__Round 20, melee step__") :]
    assert "Dwarven Military Engineer #3: 🔥**2** 🔥7 🔥**10** (own side) vs 4" in last
    assert "Orc Shaman #20: ✨~~1~~→✨6 ✨**2** ✨3 ✨9 ✨9 vs 2" in last
    assert "Wood Elven Druid #21: 🌀**4** (enchants) vs 4" in last
    assert "Hit cancelled by (R-MAGIC-ABJ-01): Dawnian Cleric #5." in last
    taken = text[text.index("__Round 18, melee step__") : text.index("__Round 19, melee step__")]
    assert "🌀 Orc Troopers #7 of 👹 Orcs (ORC) enchanted by Wood Elven Druid #21" in taken
    back = text[text.index("__Round 19, melee step__") : text.index("__Round 20, melee step__")]
    assert "🌀 Orc Troopers #7 of 👹 Orcs (ORC) freed: its Enchanter fell" in back
    fields = {f["name"]: f["value"] for f in body.get("fields") or []}
    assert fields["Standing declarations (R-COMBAT-12)"] == (
        "👹 Orcs (ORC): 1 Orc Shaman invoke every round"
    ), fields
