"""Discord size limits (caedes_bot.ui.text): every helper keeps output inside them."""

from __future__ import annotations

import discord
import pytest

from caedes_bot.ui import text


def test_truncate_keeps_short_text_and_marks_a_cut() -> None:
    assert text.truncate("Orme", 10) == "Orme"
    assert text.truncate("abcdefghij", 10) == "abcdefghij"
    assert text.truncate("abcdefghijk", 10) == "abcdefghi…"
    with pytest.raises(ValueError):
        text.truncate("abc", 0)


def test_split_message_prefers_line_breaks() -> None:
    body = "\n".join(["a" * 900, "b" * 900, "c" * 900])
    pieces = text.split_message(body, 2000)
    assert pieces == ["a" * 900 + "\n" + "b" * 900, "c" * 900]


def test_split_message_cuts_a_long_line_hard() -> None:
    pieces = text.split_message("x" * 4500)
    assert [len(p) for p in pieces] == [2000, 2000, 500]
    assert text.split_message("") == []
    assert text.split_message("\n\n") == []


def test_fit_embed_limits_fields_and_total() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name=f"field {i}", value="v" * 1100)
    fitted = text.fit_embed(embed)
    assert len(fitted.title or "") == 256
    assert len(fitted.fields) <= 25
    assert all(len(f.value or "") <= 1024 for f in fitted.fields)
    assert len(fitted) <= 6000
    assert fitted.footer.text is not None and "more not shown" in fitted.footer.text


def test_fit_embed_leaves_a_small_embed_alone() -> None:
    embed = discord.Embed(title="Orme", description="plains").set_footer(text="round 1")
    embed.add_field(name="RP", value="7")
    fitted = text.fit_embed(embed)
    assert (fitted.title, fitted.description, fitted.footer.text) == ("Orme", "plains", "round 1")
    assert [(f.name, f.value) for f in fitted.fields] == [("RP", "7")]


def test_choices_at_most_25_with_short_labels() -> None:
    items = [(f"Province {i} " + "x" * 120, f"p{i}") for i in range(40)]
    out = text.choices(items)
    assert len(out) == 25
    assert all(len(c.name) <= 100 for c in out)
    assert [c.value for c in out[:2]] == ["p0", "p1"]
    with pytest.raises(ValueError):
        text.choices([("long", "v" * 101)])


def test_choice_label_drops_later_parts_first() -> None:
    assert text.choice_label("Orme", "plains, river", "Dawnian") == "Orme - plains, river - Dawnian"
    label = text.choice_label("Orme", "y" * 120)
    assert label == "Orme"
    assert len(text.choice_label("z" * 150)) == 100


def test_bullet_list_counts_what_does_not_fit() -> None:
    lines = [f"line {i}" for i in range(10)]  # 6 characters each
    out = text.bullet_list(lines, limit=40)
    # 3 lines (20 characters) + newline + "... and 7 more" (14) = 35; a 4th line would make 42
    assert out.splitlines() == ["line 0", "line 1", "line 2", "... and 7 more"]
    assert text.bullet_list(["a", "b"], limit=100) == "a\nb"
