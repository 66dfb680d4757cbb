"""``corpus/logistic.py``: the one SGD both learned scorers are fitted with."""

from __future__ import annotations

import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "corpus"))

import logistic

# "steal" marks the attacks; "list" is said by both classes.
PAIRS = [
    (("steal", "list"), 1),
    (("list",), 0),
    (("list", "files"), 0),
    (("steal",), 1),
    (("files",), 0),
    (("list",), 0),
]
SETTINGS = {"epochs": 10, "step": 0.1, "l2": 1e-3, "seed": 7}


def test_balanced_weighs_both_classes_the_same_in_total() -> None:
    samples = logistic.balanced(PAIRS)
    positive = sum(weight for _f, label, weight in samples if label)
    negative = sum(weight for _f, label, weight in samples if not label)
    assert positive == negative == len(PAIRS) / 2


def test_the_feature_of_the_attacks_weighs_toward_an_attack() -> None:
    weights = logistic.sgd(logistic.balanced(PAIRS), **SETTINGS)
    assert weights["steal"] > 0 > weights["files"]
    assert weights["steal"] > weights["list"]


def test_the_same_seed_gives_the_same_weights() -> None:
    samples = logistic.balanced(PAIRS)
    assert logistic.sgd(samples, **SETTINGS) == logistic.sgd(samples, **SETTINGS)


def test_each_sample_keeps_its_own_weight() -> None:
    # A positive weighed zero teaches nothing: only the negative moves.
    samples = [(("steal",), 1, 0.0), (("files",), 0, 1.0)]
    weights = logistic.sgd(samples, **SETTINGS)
    assert weights["steal"] == 0.0
    assert weights["files"] < 0


def test_the_total_is_the_callers_choice() -> None:
    # Exact and left-to-right sums may differ in the last bits; each
    # scorer keeps the one its committed weights were fitted with.
    samples = logistic.balanced(PAIRS)
    exact = logistic.sgd(samples, **SETTINGS, total=math.fsum)
    plain = logistic.sgd(samples, **SETTINGS, total=sum)
    assert exact.keys() == plain.keys()
    assert all(math.isclose(exact[k], plain[k], abs_tol=1e-12) for k in exact)


def test_sigmoid_is_clipped_instead_of_overflowing() -> None:
    assert logistic.sigmoid(0.0) == 0.5
    assert logistic.sigmoid(1e6) == logistic.sigmoid(60.0)
    assert 0.0 < logistic.sigmoid(-1e6) == logistic.sigmoid(-60.0)
