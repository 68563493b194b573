"""The units' copy-on-write table keeps its promise through every ``dict`` method
(decision 0012): what a clone shares is never changed through it, and every write is counted
(the readers that keep what they worked out from the table rely on it, decision 0013). Not a
rule of the game: the contract of ``rules.engine.apply`` (issue 9), that an order never changes
the state it is given."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from caedes_bot.rules.sharing import CowTable


@dataclass
class Piece:
    hits: int = 0
    tags: list[str] = field(default_factory=list)


def _shared() -> tuple[CowTable[Piece], CowTable[Piece]]:
    """A table of two pieces and the table shared from it."""
    source: CowTable[Piece] = CowTable({"a": Piece(1), "b": Piece(2)})
    return source, source.share()


def test_setdefault_hands_out_an_own_copy_of_a_shared_piece() -> None:
    source, table = _shared()
    got = table.setdefault("a", Piece(9))
    got.hits = 5
    got.tags.append("x")
    assert source.peek("a") == Piece(1)
    assert table.peek("a") is got
    assert "a" in table.written_keys() and table.writes == 1


def test_setdefault_sets_a_missing_key_as_a_write() -> None:
    _source, table = _shared()
    new = Piece(7)
    assert table.setdefault("c", new) is new
    assert table.peek("c") is new and "c" in table.written_keys() and table.writes == 1


def test_popitem_removes_the_last_piece_and_hands_out_an_own_copy() -> None:
    source, table = _shared()
    key, piece = table.popitem()
    assert key == "b" and piece == Piece(2)
    piece.hits = 0
    assert source.peek("b") == Piece(2)
    assert "b" not in table and list(table) == ["a"]
    assert table.writes >= 1


def test_popitem_of_an_empty_table_raises_key_error() -> None:
    with pytest.raises(KeyError):
        CowTable[Piece]().popitem()


def test_update_sets_each_piece_as_the_tables_own_and_counts_the_writes() -> None:
    source, table = _shared()
    c, d, e = Piece(3), Piece(4), Piece(5)
    table.update({"c": c}, d=d)
    table.update([("e", e)])
    assert table.peek("c") is c and table.peek("d") is d and table.peek("e") is e
    assert set(table.written_keys()) == {"c", "d", "e"}
    assert table.writes == 3
    assert list(source) == ["a", "b"]


def test_in_place_union_is_update() -> None:
    _source, table = _shared()
    c = Piece(3)
    table |= {"c": c}
    assert isinstance(table, CowTable)
    assert table.peek("c") is c and "c" in table.written_keys() and table.writes == 1


def test_union_gives_a_plain_dict_of_own_copies() -> None:
    source, table = _shared()
    for merged in (table | {"c": Piece(3)}, {"c": Piece(3)} | table):
        assert type(merged) is dict and set(merged) == {"a", "b", "c"}
        merged["a"].hits = 9
        merged["b"].tags.append("x")
    assert source.peek("a") == Piece(1) and source.peek("b") == Piece(2)


def test_clear_empties_the_table_as_a_write_and_leaves_the_source() -> None:
    source, table = _shared()
    table["c"] = Piece(3)
    before = table.writes
    table.clear()
    assert len(table) == 0 and list(table.written_keys()) == []
    assert table.writes == before + 1
    assert list(source) == ["a", "b"] and source.peek("a") == Piece(1)
