"""Counts and lists in words: the one helper every message uses."""

from __future__ import annotations

from catalogctl.words import count, listed, noun


def test_a_count_agrees_with_its_number() -> None:
    assert [count(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]
    assert count(1, "entry", "entries") == "1 entry"
    assert count(3, "entry", "entries") == "3 entries"
    assert count(14640, "byte", grouped=True) == "14,640 bytes"
    assert count(1, "byte", grouped=True) == "1 byte"


def test_a_verb_agrees_too() -> None:
    assert [noun(n, "uses", "use") for n in (1, 2)] == ["uses", "use"]


def test_a_list_reads_as_a_sentence() -> None:
    assert [listed(items) for items in ([], ["A"], ["A", "B"], ["A", "B", "C"])] == ["", "A", "A and B", "A, B and C"]
