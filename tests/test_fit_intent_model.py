"""``corpus/fit_intent_model.py``: the folds its validation holds out and
the variants it compares (rounds fitted, reading triples)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "corpus"))

import fit_intent_model as fit

ROUNDS = [f"r{i}" for i in range(1, 8)]


def _entry(group: str, *clauses: tuple[str, ...]) -> fit.Entry:
    return fit.Entry(
        group=group,
        name=f"{group}-1",
        label=1,
        usable=True,
        expect=1,
        rules_rank=0,
        kind="priority-claim",
        clauses=clauses,
        ruled=(False,) * len(clauses),
    )


def test_leave_one_out_holds_out_each_round_alone() -> None:
    assert fit._folds(ROUNDS, 0) == [[r] for r in ROUNDS]


def test_blocks_hold_out_runs_of_consecutive_rounds_covering_each_once() -> None:
    folds = fit._folds(ROUNDS, 3)
    assert folds == [["r1", "r2", "r3"], ["r4", "r5", "r6"], ["r7"]]
    assert sorted(r for fold in folds for r in fold) == sorted(ROUNDS)


def test_a_held_out_block_is_never_trained_on() -> None:
    entries = [_entry("base", ("c:x",)), _entry("r1", ("c:y",)), _entry("r2", ("c:z",))]
    trained = fit._trained_on(entries, ["r1", "r2"], rounds=("r1", "r2"))
    assert [e.group for e in trained] == ["base"]
    # A round outside those fitted is never trained on either.
    assert [e.group for e in fit._trained_on(entries, (), rounds=("r1",))] == ["base", "r1"]


def test_without_readings_leaves_the_features_the_committed_model_reads() -> None:
    entry = _entry("r1", ("a:transmit&every", "c:transmit", "r:agent&transmit&out", "w17"))
    (plain,) = fit._without_readings([entry])
    assert plain.clauses == (("a:transmit&every", "c:transmit", "w17"),)
