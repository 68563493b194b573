"""Which order ``/summon`` gives (caedes_bot/cogs/summon.py, R-MAGIC-SUMM-01)."""

from __future__ import annotations

from caedes_bot.cogs.summon import summons_order_for
from caedes_bot.rules.combat.orders import FightBattle
from caedes_bot.rules.combat.summon_answer import AnswerSummons
from caedes_bot.rules.dice import ScriptedDice
from caedes_bot.rules.engine import apply
from caedes_bot.rules.summons import SummonUnits
from tests.rules.test_summons import _attacked


def test_r_magic_summ_01_a_province_other_than_the_battles_is_not_taken_for_the_offer() -> None:
    """R-MAGIC-SUMM-01: with an offer open for the battle at f, ``/summon`` with no province or
    with f answers the offer; naming g is a summons into g (which the rules judge), never a
    summons into the battle at f the member did not ask for."""
    rs, st = _attacked(1)
    st = apply(st, FightBattle("LIZ", "f"), rs, ScriptedDice([])).state
    (offer,) = st.pending
    fire = rs.kind("WF")
    for province in (None, "f"):
        order = summons_order_for(st, "WEL", fire, 2, province)
        assert order == AnswerSummons("WEL", offer.id, (("WF", 2),))
    assert summons_order_for(st, "WEL", fire, 2, "g") == SummonUnits("WEL", "WF", 2, "g")
