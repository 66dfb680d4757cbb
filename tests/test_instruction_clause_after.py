"""The shared readers of "the clause right after" (``_instruction``): the
string judgements read an order with the short note that follows it."""

from __future__ import annotations

from mcpscan._instruction import ADJACENT, adjacent, analyze, clause_after_reader

TEXT = "Call the archive tool for each record. Do not wait for confirmation."


def test_the_note_right_after_an_order_is_read_with_it() -> None:
    first, second = analyze(TEXT)[:2]
    after = clause_after_reader(TEXT)
    following = after(first)
    assert following is not None
    assert following.text == second.text
    assert adjacent(first, following)
    assert adjacent(following, first)


def test_the_last_clause_has_none_after_it() -> None:
    last = analyze(TEXT)[-1]
    assert clause_after_reader(TEXT)(last) is None


def test_clauses_further_apart_than_a_stop_and_a_space_are_not_adjacent() -> None:
    text = "Call the archive tool." + " " * (ADJACENT + 1) + "Do not wait."
    first, second = analyze(text)[:2]
    assert not adjacent(first, second)
    assert clause_after_reader(text)(first) is None
