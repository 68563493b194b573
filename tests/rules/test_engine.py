"""The engine's dispatch: who may give each order, as the rules declare it (R-TURN-03,
R-PBP-UMP-01)."""

from caedes_bot.rules import engine, trade, turn, umpire
from caedes_bot.rules.buy import BuyUnits
from caedes_bot.rules.combat import orders as combat_orders
from caedes_bot.rules.orders import Order
from caedes_bot.rules.steps import Giver


def test_r_pbp_ump_01_umpire_orders_are_declared_by_the_rules() -> None:
    """R-PBP-UMP-01: starting, advancing, forfeiting and the overrides are the umpire's."""
    for cls in (
        turn.StartCampaign,
        turn.UmpireAdvance,
        turn.ForfeitTurn,
        umpire.SetRP,
        umpire.SetCommodity,
        umpire.SetOwner,
    ):
        assert engine.giver_of(cls) is Giver.UMPIRE, cls.__name__


def test_r_turn_03_reactions_and_the_active_factions_orders() -> None:
    """R-TURN-03: a trade answer and a casualty choice are reactions by the party asked; the
    rest belong to the faction whose turn it is."""
    for cls in (trade.AcceptTrade, trade.DeclineTrade, combat_orders.AssignCasualties):
        assert engine.giver_of(cls) is Giver.REACTION, cls.__name__
    for cls in (turn.EndStep, BuyUnits, trade.ProposeTrade, combat_orders.FightBattle):
        assert engine.giver_of(cls) is Giver.ACTIVE, cls.__name__


def test_an_order_the_rules_do_not_know_has_no_giver() -> None:
    assert engine.giver_of(Order) is None
