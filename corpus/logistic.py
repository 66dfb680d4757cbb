"""Logistic regression by stochastic gradient descent, shared by the fitters
of the learned scorers (``fit_tool_model.py`` for ``intent.tool_model``,
``fit_intent_model.py`` for ``intent.model``).

One algorithm, written once: both scripts fitted the same SGD with their own
copy, which an audit cannot tell apart from two algorithms and which drifts.
What differs between the two uses is a setting, passed in by the caller:

* the number of epochs, the initial step (the step of epoch ``e`` is
  ``step / (1 + e)``) and the L2 penalty applied at every update: each
  script's own constants, where their source (leave-one-round-out
  validation) is written down;
* each sample's weight: the whole-tool scorer balances its two classes
  (``balanced``), the clause scorer gives each sample its own weight (a
  malicious entry's share of one positive);
* how a sample's feature weights are added up: ``math.fsum`` (exact) for the
  whole-tool scorer, the built-in ``sum`` (left to right) for the clause
  scorer. The two differ in the last bits of a float, and the committed
  weights of each model were fitted with its own, so each caller keeps the
  arithmetic it was fitted with: refitting reproduces the committed weights
  byte for byte.

Deterministic: samples in the caller's order, shuffled each epoch by a
``random.Random`` of a fixed seed. The feature ``bias`` is always present.

Plain Python: no training dependency beyond the standard library.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence

#: One training sample: its features, its label (1 attack, 0 honest), its
#: weight in the loss.
Sample = tuple[Sequence[str], int, float]
#: How a sample's feature weights are added up (``math.fsum`` or ``sum``).
Total = Callable[[Iterable[float]], float]


def sigmoid(z: float) -> float:
    """The logistic function, its argument clipped to +-60 (no overflow)."""
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def balanced(samples: Sequence[tuple[Sequence[str], int]]) -> list[Sample]:
    """Each (features, label) sample weighted so that both classes weigh
    the same in total: ``n / (2 * count of its class)``."""
    positives = sum(label for _features, label in samples)
    weight_of = {
        1: len(samples) / (2.0 * max(1, positives)),
        0: len(samples) / (2.0 * max(1, len(samples) - positives)),
    }
    return [(features, label, weight_of[label]) for features, label in samples]


def sgd(
    samples: Sequence[Sample],
    *,
    epochs: int,
    step: float,
    l2: float,
    seed: int,
    total: Total = sum,
) -> dict[str, float]:
    """Logistic-regression weights (unrounded; ``bias`` is a feature) by SGD:
    per epoch, the samples in a seeded shuffled order, each moving its
    features' weights (and the bias) by ``step / (1 + epoch)`` times its
    weighted error plus the L2 penalty on the weight."""
    weights: dict[str, float] = {}
    order = list(range(len(samples)))
    rng = random.Random(seed)
    for epoch in range(epochs):
        rng.shuffle(order)
        rate = step / (1.0 + epoch)
        for index in order:
            features, label, weight = samples[index]
            z = weights.get("bias", 0.0) + total(weights.get(f, 0.0) for f in features)
            error = (sigmoid(z) - label) * weight
            for feature in ("bias", *features):
                w = weights.get(feature, 0.0)
                weights[feature] = w - rate * (error + l2 * w)
    return weights
