"""The rich announcer (caedes_bot/ui/announcer.py): where each order's events go.

ux.md: public events to #announcements, private ones to the faction's orders thread
(R-GEN-07), one message per battle posted then edited with every die (R-COMBAT-16,
R-GEN-08), one turn panel per turn posted with a ping then edited, and pings only for whoever
owes something.
"""

from __future__ import annotations

from datetime import timedelta

from caedes_bot.domain.records import OutboxKind, OutboxMessage
from caedes_bot.rules.combat.orders import AssignCasualties, FightBattle, PressOn, Withdraw
from caedes_bot.rules.movement import MoveUnits
from caedes_bot.rules.state import GameState, Step
from caedes_bot.rules.turn import EndStep
from caedes_bot.ui.announcer import RichAnnouncer
from tests.ui.skirmish import ALICE, BOB, NOW, UMPIRE, apply, at_step, campaign, ruleset, started


def announce(
    events: tuple[object, ...], state: GameState, before: GameState | None = None, **kwargs: object
) -> list[OutboxMessage]:
    return RichAnnouncer().announce(
        campaign(**kwargs),  # type: ignore[arg-type]
        events,  # type: ignore[arg-type]
        state,
        ruleset(),
        before=before,
    )


def by_key(rows: list[OutboxMessage], key: str) -> list[OutboxMessage]:
    return [r for r in rows if r.channel_key == key]


def text_of(rows: list[OutboxMessage]) -> str:
    parts = []
    for row in rows:
        parts.append(str(row.payload.get("content") or ""))
        for embed in row.payload.get("embeds") or []:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
    return "\n".join(parts)


def custom_ids(row: OutboxMessage) -> list[str]:
    return [c["custom_id"] for r in row.payload.get("components") or [] for c in r["components"]]


def test_campaign_start_posts_the_first_turn_panel_and_pings_its_player() -> None:
    """R-TURN-01: the Dawnians play first; their panel is posted in their thread, pinging
    Alice only, with the turn deadline as a Discord timestamp."""
    state, events = started()
    due = NOW + timedelta(hours=1)
    rows = announce(events, state, deadlines={"turn:1:DAW": due})
    public = by_key(rows, "announcements")
    assert len(public) == 1 and "**Game round 1 begins.**" in text_of(public)
    (panel,) = by_key(rows, "orders:DAW")
    assert panel.kind is OutboxKind.POST and panel.dedupe_key == "panel:1:DAW"
    assert panel.payload["mention_user_ids"] == [ALICE]
    unix = int(due.timestamp())
    assert f"<t:{unix}:R>" in panel.payload["content"]
    assert "**Step 1 Trade**" in text_of([panel])
    assert custom_ids(panel) == [
        "caedes:7:panel.DAW.1.1:disband",
        "caedes:7:panel.DAW.1.1:done",
        "caedes:7:panel.DAW.1.1:status",
        "caedes:7:panel.DAW.1.1:help",
    ]
    assert all(r.payload.get("mention_user_ids") in (None, [ALICE]) for r in rows)


def test_a_faction_nobody_holds_pings_the_umpire() -> None:
    """R-PBP-UMP-02: factions nobody holds are the umpire's."""
    state, events = started()
    rows = announce(events, state, players={})
    (panel,) = by_key(rows, "orders:DAW")
    assert panel.payload["mention_user_ids"] == [UMPIRE]


def test_r_gen_07_private_events_go_to_the_factions_thread_only() -> None:
    """R-GEN-07, R-PBP-NEG-06: Income and upkeep are the Dawnians' secrets: their thread, never
    #announcements. The panel of the turn under way is edited, not posted again.
    """
    state, _ = started()
    after, events = apply(state, EndStep("DAW"))
    rows = announce(events, after, before=state)
    assert "Collected 11 RP" not in text_of(by_key(rows, "announcements"))
    mine = by_key(rows, "orders:DAW")
    posts = [r for r in mine if r.kind is OutboxKind.POST]
    assert len(posts) == 1 and "Collected 11 RP and 3 Grain, 1 Livestock" in text_of(posts)
    (edit,) = [r for r in mine if r.kind is OutboxKind.EDIT]
    assert edit.payload["message_key"] == "panel:1:DAW"
    assert "**Step 5 Buy**" in text_of([edit])  # upkeep paid by itself (R-TURN-02)
    assert "Upkeep: " in text_of(posts)
    assert "mention_user_ids" not in edit.payload
    assert by_key(rows, "orders:ORC") == [] and by_key(rows, "orders:ACH") == []


def test_r_turn_01_the_end_of_a_turn_closes_its_panel_and_opens_the_next() -> None:
    """R-TURN-01: when the Dawnians' turn ends their panel is closed, and the Orcs', next in turn
    order, is posted with a ping to Bob.
    """
    before = at_step(Step.MOVE)
    after, events = apply(before, EndStep("DAW"))  # no battle, nothing bought: the turn ends
    assert after.active == "ORC"
    rows = announce(events, after, before=before)
    (closing,) = by_key(rows, "orders:DAW")
    assert closing.kind is OutboxKind.EDIT and closing.payload["message_key"] == "panel:1:DAW"
    assert closing.payload["components"] == [] and "This turn is over." in text_of([closing])
    (opening,) = by_key(rows, "orders:ORC")
    assert opening.kind is OutboxKind.POST and opening.dedupe_key == "panel:1:ORC"
    assert opening.payload["mention_user_ids"] == [BOB]
    assert "👹 Orcs (ORC) begins its turn (game round 1)." in text_of(by_key(rows, "announcements"))


def _battle_at_wolfsgate() -> tuple[GameState, GameState, tuple[object, ...]]:
    """The Dawnians attack Wolfsgate with Infantry 5 and Yeomen 6, then fight there: in the
    missile step the Yeomen (attack 2) rolls a 2, a hit; the Orcs (Troopers 12, Wolfriders
    13) must choose their casualty."""
    state = at_step(Step.MOVE)
    state, _ = apply(state, MoveUnits("DAW", (5, 6), "wolfsgate"))
    state, _ = apply(state, EndStep("DAW"))
    after, events = apply(state, FightBattle("DAW", "wolfsgate"), dice=[2])
    return state, after, events


def test_r_combat_16_a_battle_is_posted_once_with_every_die_and_the_choice_owed() -> None:
    """R-COMBAT-16: R-GEN-08: the die shows its unit and target, the hit in bold; R-COMBAT-06: the
    Orcs' casualty select (default: the cheaper Troopers) and a "Use default" button; Bob, who
    owes it during another faction's turn, is pinged in his own thread.
    """
    before, after, events = _battle_at_wolfsgate()
    (decision,) = after.pending
    due = NOW + timedelta(minutes=30)
    rows = announce(events, after, before=before, deadlines={f"decision:{decision.id}": due})
    (post,) = by_key(rows, "battles")
    assert post.kind is OutboxKind.POST and post.dedupe_key == f"battle:{after.battle.id}"  # type: ignore[union-attr]
    text = text_of([post])
    assert "Battle at Wolfsgate (hills)" in text
    assert "Dawnian Yeomen #6: **2** vs 2" in text
    assert "Hits: 1 on the defender, 0 on the attacker." in text
    assert f"<t:{int(due.timestamp())}:R>" in text
    ids = custom_ids(post)
    assert ids == [f"caedes:7:dec.{decision.id}:pick", f"caedes:7:dec.{decision.id}:default"]
    select = post.payload["components"][0]["components"][0]
    assert [(o["value"], o.get("default", False)) for o in select["options"]] == [
        ("u12", True),
        ("u13", False),
    ]
    (ping,) = by_key(rows, "orders:ORC")
    assert ping.payload["mention_user_ids"] == [BOB]
    assert "choose 1 casualty in the battle at Wolfsgate" in ping.payload["content"]
    assert post.payload.get("mention_user_ids") is None  # the battle message itself pings nobody


def test_r_combat_11_the_end_of_a_battle_edits_its_message_with_the_result() -> None:
    """R-COMBAT-11, R-COMBAT-16: The Orcs lose the Wolfriders; in melee the Infantry hits (1 against
    2) and the Troopers miss (7 against 3): the last Orc goes, Wolfsgate passes to the Dawnians.
    """
    _, state, _ = _battle_at_wolfsgate()
    after, events = apply(state, AssignCasualties("ORC", (13,)), dice=[1, 7])
    rows = announce(events, after, before=state)
    (edit,) = by_key(rows, "battles")
    assert (
        edit.kind is OutboxKind.EDIT and edit.payload["message_key"] == f"battle:{state.battle.id}"
    )  # type: ignore[union-attr]
    text = text_of([edit])
    assert "Dawnian Yeomen #6: **2** vs 2" in text  # the round fought in the earlier order
    assert "Dawnian Infantry #5: **1** vs 2" in text and "Orc Troopers #12: 7 vs 3" in text
    assert "**The attacker won.** Wolfsgate is held by 🌅 Dawnians (DAW)." in text
    assert edit.payload["components"] == []
    assert "**🌅 Dawnians (DAW) takes Wolfsgate** from 👹 Orcs (ORC)." in text_of(
        by_key(rows, "announcements")
    )


def test_r_combat_08_press_on_and_withdraw_buttons_then_the_withdrawal() -> None:
    """R-COMBAT-08, R-COMBAT-16: One Infantry (attack 2) against the Phalanx and Cavalry of Kestrel
    Downs (defense 3): two hitless rounds, the attacker's buttons after each, then it withdraws
    to Harrowgate. The attacker is playing, so it is not pinged (ux.md "Pings").
    """
    state = at_step(Step.MOVE)
    state, _ = apply(state, MoveUnits("DAW", (4,), "kestrel-downs"))
    state, _ = apply(state, EndStep("DAW"))
    one, events = apply(state, FightBattle("DAW", "kestrel-downs"), dice=[9, 8, 7])
    rows = announce(events, one, before=state)
    (post,) = by_key(rows, "battles")
    (decision,) = one.pending
    assert custom_ids(post) == [
        f"caedes:7:dec.{decision.id}:press",
        f"caedes:7:dec.{decision.id}:withdraw",
    ]
    assert by_key(rows, "orders:DAW") and all(
        r.kind is OutboxKind.EDIT for r in by_key(rows, "orders:DAW")
    )
    two, events = apply(one, PressOn("DAW"), dice=[10, 9, 8])
    three, events = apply(two, Withdraw("DAW"))
    rows = announce(events, three, before=two)
    (edit,) = by_key(rows, "battles")
    text = text_of([edit])
    assert "Round 1, melee step" in text and "Round 2, melee step" in text
    assert "Dawnian Infantry #4: 10 vs 2" in text
    assert "**The attacker withdrew.**" in text and "Dawnian Infantry #4 to Harrowgate" in text
    assert edit.payload["components"] == []


def test_r_trade_02_an_offer_waits_in_the_counterpartys_thread_with_its_buttons() -> None:
    """R-TRADE-02: The Orcs, asked, get the offer with Accept and Decline and a ping; when they
    accept, the offer message is edited without buttons and the public learns only that two
    factions traded (option ``public_trade_log`` ``parties_only``).
    """
    from caedes_bot.rules.trade import AcceptTrade, ProposeTrade

    state = at_step(Step.TRADE)
    offered, events = apply(state, ProposeTrade("DAW", "ORC", give_rp=3))
    rows = announce(events, offered, before=state)
    (offer,) = [r for r in by_key(rows, "orders:ORC") if r.kind is OutboxKind.POST]
    trade_id = offered.trades[0].id
    assert offer.dedupe_key == f"trade:{trade_id}"
    assert offer.payload["mention_user_ids"] == [BOB]
    assert custom_ids(offer) == [
        f"caedes:7:trade.{trade_id}:accept",
        f"caedes:7:trade.{trade_id}:decline",
    ]
    assert "Dawnians (DAW) give 3 RP; 👹 Orcs (ORC) give nothing" in offer.payload["content"]
    assert "Trade offer" in text_of(by_key(rows, "orders:DAW"))
    assert by_key(rows, "announcements") == [] and by_key(rows, "orders:ACH") == []
    done, events = apply(offered, AcceptTrade("ORC", trade_id))
    rows = announce(events, done, before=offered)
    (edit,) = [r for r in by_key(rows, "orders:ORC") if r.kind is OutboxKind.EDIT]
    assert edit.payload["message_key"] == f"trade:{trade_id}" and edit.payload["components"] == []
    assert f"Trade #{trade_id} done" in edit.payload["content"]
    assert text_of(by_key(rows, "announcements")) == "🌅 Dawnians (DAW) and 👹 Orcs (ORC) traded."


def _dawnian_turn() -> tuple[object, ...]:
    """A Dawnian turn told by its events (figures chosen by hand): income 11 RP with 3 Grain and
    1 Livestock, upkeep 2 RP, 2 Knights bought for 12 RP, 1 Infantry bought for 3 RP then
    cancelled (3 RP back), Wolfsgate taken from the Orcs, the 2 Knights mustered at Orme."""
    from caedes_bot.rules.buy import PurchaseCancelled, UnitsBought
    from caedes_bot.rules.collect import IncomeCollected
    from caedes_bot.rules.muster import UnitsMustered
    from caedes_bot.rules.ownership import ProvinceCaptured
    from caedes_bot.rules.turn import TurnBegan, TurnEnded
    from caedes_bot.rules.upkeep import UpkeepPaid

    return (
        IncomeCollected("ORC", 0, 99, 0, 99, (("iron", 9),), (), ()),  # not this turn's
        TurnBegan("DAW", 1, 1),
        IncomeCollected("DAW", 1, 11, 8, 19, (("grain", 3), ("livestock", 1)), ("orme",), ()),
        UpkeepPaid("DAW", 1, 9, 2, 0, 2, 19, 17),
        UnitsBought("DAW", "U-DAW-04", "Dawnian Knights", 2, 12, 17, 5),
        UnitsBought("DAW", "U-DAW-01", "Dawnian Infantry", 1, 3, 5, 2),
        PurchaseCancelled("DAW", "U-DAW-01", 1, 3, 2, 5),
        ProvinceCaptured("wolfsgate", "DAW", "ORC"),
        UnitsMustered("DAW", 1, ((50, "U-DAW-04", "orme"), (51, "U-DAW-04", "orme"))),
        TurnEnded("DAW", 1),
    )


def _after_turn(public_treasuries: bool) -> GameState:
    from dataclasses import replace

    state = at_step(Step.MOVE)
    state.options = replace(state.options, public_treasuries=public_treasuries)
    state.factions["DAW"].rp = 5
    return state


def test_r_gen_07_turn_summary_without_public_treasuries_shows_only_the_board() -> None:
    """R-GEN-07 (option ``public_treasuries`` off, the default): the turn-end line in
    #announcements names the capture and the muster (the board is public) and no RP, commodity
    or purchase figure; those stay in the Dawnians' thread."""
    rows = announce(_dawnian_turn(), _after_turn(False))
    public = text_of(by_key(rows, "announcements"))
    assert "🌅 Dawnians (DAW) ends its turn: took Wolfsgate; mustered 2 Dawnian Knights." in public
    for secret in ("RP", "Grain", "Livestock", "Iron", "ought", "Treasury", "11", "12", "5 "):
        assert secret not in public
    assert "Bought 2 Dawnian Knights for 12 RP" in text_of(by_key(rows, "orders:DAW"))


def test_r_gen_07_turn_summary_with_public_treasuries_gives_the_turns_figures() -> None:
    """R-GEN-07 (option ``public_treasuries`` on): the turn-end line adds the turn's income
    (11 RP, 3 Grain, 1 Livestock), upkeep paid (2 RP), purchases net of the cancelled Infantry
    (2 Knights for 12 RP) and the RP left (5); the Orcs' earlier income is not counted.
    Events from the turn's earlier orders come from the campaign view's ``turn_events``."""
    from dataclasses import dataclass, field

    events = _dawnian_turn()
    base = campaign()

    @dataclass
    class WithTurn:
        info: object = base.info
        players: object = field(default_factory=lambda: base.players)
        deadlines: object = field(default_factory=dict)
        turn_events: tuple[object, ...] = events[:5]

    rows = RichAnnouncer().announce(
        WithTurn(),  # type: ignore[arg-type]
        events[5:],  # type: ignore[arg-type]
        _after_turn(True),
        ruleset(),
    )
    (line,) = [
        row for row in text_of(by_key(rows, "announcements")).splitlines() if "ends its turn" in row
    ]
    assert line == (
        "🌅 Dawnians (DAW) ends its turn: took Wolfsgate; mustered 2 Dawnian Knights. "
        "Treasury (public, R-GEN-07): income 11 RP and 3 Grain, 1 Livestock; upkeep paid 2 RP; "
        "bought 2 Dawnian Knights for 12 RP; 5 RP left."
    )


def test_r_gen_07_turn_summary_without_the_turns_start_tells_only_the_rp_left() -> None:
    """R-GEN-07 (option on): when the announcer sees only the order that ends the turn (no
    TurnBegan, no earlier events), it does not make up income or purchases: the line gives the
    capture, the muster and the 5 RP the state holds."""
    rows = announce(_dawnian_turn()[7:], _after_turn(True))
    public = text_of(by_key(rows, "announcements"))
    assert (
        "🌅 Dawnians (DAW) ends its turn: took Wolfsgate; mustered 2 Dawnian Knights. "
        "Treasury (public, R-GEN-07): 5 RP left." in public
    )
    assert "income" not in public and "bought" not in public
