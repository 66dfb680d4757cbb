"""``corpus/fit.py --only``: a new feature gets its weight from data while
every other weight stays at its committed value."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "corpus"))

import fit

SAMPLES = [
    (frozenset({"old", "new"}), 1),
    (frozenset({"old", "new"}), 1),
    (frozenset({"old"}), 0),
]
PRIOR = {"bias": -0.5, "old": 0.5, "new": 0.2}
COMMITTED = {"bias": -0.3, "old": 0.7}


def test_only_the_free_weight_moves_from_the_committed_model() -> None:
    weights = fit._fit(SAMPLES, PRIOR, COMMITTED, {"new"})
    assert weights["bias"] == COMMITTED["bias"]
    assert weights["old"] == COMMITTED["old"]
    # Two positives with the new feature pull it up from its prior.
    assert weights["new"] > PRIOR["new"]


def test_a_full_fit_moves_every_weight() -> None:
    weights = fit._fit(SAMPLES, PRIOR)
    assert weights["bias"] != PRIOR["bias"]
    assert weights["old"] != PRIOR["old"]
