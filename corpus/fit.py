"""Fit the intent rules' weights on the labelled corpus (``nox -s fit``).

Each ``intent.*`` rule is a gate: it fires on a combination of what a clause
asks for and names the features that made it fire. How confident a firing
is comes from data: for every rule, a logistic regression over its features,
fitted on every corpus entry where the rule fired (malicious entries are
positives, benign and hard-negative entries negatives), with an L2 pull
towards the prior weights so that a feature seen a handful of times cannot
swing far. The result is written to ``mcpscan/lexicon/weights.json``.

Deterministic: entries are read in sorted order, the optimizer is plain
full-batch gradient descent with a fixed step and a fixed number of rounds,
and weights are rounded to three decimals.

    python corpus/fit.py [CORPUS ...] [--out mcpscan/lexicon/weights.json]

Sealed folders (``corpus/sealed/``) are never read: the fit would learn
their answers.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from mcpscan._config import Config
from mcpscan._eval import load_corpus
from mcpscan._instruction import analyze, tool_scope
from mcpscan._model import Tool
from mcpscan._snapshot import Snapshot
from mcpscan._walk import view_tool
from mcpscan.checks import _intent_rules

_ROUNDS = 400
_STEP = 0.5
_PULL = 0.5  # L2 strength towards the prior weights

Sample = tuple[frozenset[str], int]


def _samples(roots: Sequence[Path]) -> dict[str, list[Sample]]:
    """Per rule, (features, label) of the best clause of every entry it fired on."""
    per_rule: dict[str, list[Sample]] = defaultdict(list)
    config = Config()
    for entry in load_corpus(roots):
        snapshot = Snapshot.from_servers({**entry.others, entry.server: [entry.tool]})
        tool = Tool.from_mcp(entry.tool, server=entry.server)
        scope = tool_scope(tool, snapshot)
        fired: dict[str, frozenset[str]] = {}
        for located in view_tool(tool, config).strings:
            if located.field == "name":
                continue
            for clause in analyze(located.raw, scope):
                for hit in _intent_rules.evaluate_clause(clause, scope):
                    features = frozenset(hit.features)
                    if len(features) > len(fired.get(hit.rule_id, frozenset())):
                        fired[hit.rule_id] = features
        label = int(entry.label == "malicious")
        for rule_id, features in sorted(fired.items()):
            per_rule[rule_id].append((features, label))
    return per_rule


def _fit(samples: Sequence[Sample], prior: Mapping[str, float]) -> dict[str, float]:
    names = sorted({"bias", *prior, *(f for features, _ in samples for f in features)})
    weights = {name: float(prior.get(name, 0.0)) for name in names}
    for _ in range(_ROUNDS):
        gradient = {name: _PULL * (weights[name] - prior.get(name, 0.0)) for name in names}
        for features, label in samples:
            score = weights["bias"] + sum(weights[f] for f in features)
            error = 1.0 / (1.0 + math.exp(-score)) - label
            gradient["bias"] += error / len(samples)
            for feature in features:
                gradient[feature] += error / len(samples)
        for name in names:
            weights[name] -= _STEP * gradient[name]
    return {name: round(value, 3) for name, value in weights.items()}


def fit(roots: Iterable[Path], prior_path: Path) -> dict[str, object]:
    roots = [r for r in roots if r.exists()]
    prior = json.loads(prior_path.read_text(encoding="utf-8"))
    priors: Mapping[str, Mapping[str, float]] = prior.get("priors") or prior["rules"]
    per_rule = _samples(roots)
    fitted: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, int]] = {}
    for rule_id in sorted(priors):
        samples = per_rule.get(rule_id, [])
        fitted[rule_id] = _fit(samples, priors[rule_id]) if samples else dict(priors[rule_id])
        counts[rule_id] = {
            "positives": sum(label for _, label in samples),
            "negatives": sum(1 - label for _, label in samples),
        }
    return {
        "note": "Fitted by corpus/fit.py (nox -s fit); do not edit by hand. "
        "'priors' are the starting weights the fit is pulled towards.",
        "fitted_on": {"corpora": [r.as_posix() for r in roots], "samples": counts},
        "priors": {rule: dict(table) for rule, table in sorted(priors.items())},
        "rules": fitted,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="*", default=["corpus", "../shared/corpora"])
    parser.add_argument("--priors", default="mcpscan/lexicon/weights.json")
    parser.add_argument("--out", default="mcpscan/lexicon/weights.json")
    args = parser.parse_args(argv)
    out = Path(args.out)
    result = fit([Path(p) for p in args.corpus], Path(args.priors))
    out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(result["fitted_on"], indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
