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
    python corpus/fit.py --only intent.cross_tool:kept-from-user ...

``--only`` fits just the named weights, holding every other at its committed
value: a new feature gets a weight from data without a refit moving the
rest (and with it tier decisions already made).

Sealed folders (``corpus/sealed/``) are never read: the fit would learn
their answers.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from mcpscan._config import Config
from mcpscan._eval import load_corpus
from mcpscan._instruction import ToolScope, analyze, tool_scope
from mcpscan._model import Tool
from mcpscan._snapshot import Snapshot
from mcpscan._walk import LocatedString, view_tool
from mcpscan.checks import _intent_rules, _string_intents
from mcpscan.checks._intent_rules import IntentHit

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
            for hit in _hits(located, scope):
                features = frozenset(hit.features)
                if len(features) > len(fired.get(hit.rule_id, frozenset())):
                    fired[hit.rule_id] = features
        label = int(entry.label == "malicious")
        for rule_id, features in sorted(fired.items()):
            per_rule[rule_id].append((features, label))
    return per_rule


def _hits(located: LocatedString, scope: ToolScope) -> Iterator[IntentHit]:
    """The clause rules' hits on one string, then the judgements over its
    clauses (``_string_intents``; not for a property name, which orders
    nothing), as the scan reads them."""
    clauses = analyze(located.raw, scope)
    for clause in clauses:
        yield from _intent_rules.evaluate_clause(clause, scope)
    if not located.is_key:
        yield from _string_intents.string_hits(located.raw, clauses, scope, located.key)


def _fit(
    samples: Sequence[Sample],
    prior: Mapping[str, float],
    start: Mapping[str, float] | None = None,
    free: Collection[str] | None = None,
) -> dict[str, float]:
    """Weights from ``start`` (the priors by default); only the ``free``
    ones (all by default) move, each pulled towards its prior."""
    names = sorted({"bias", *prior, *(f for features, _ in samples for f in features)})
    begin = prior if start is None else {**prior, **start}
    weights = {name: float(begin.get(name, 0.0)) for name in names}
    moving = [name for name in names if free is None or name in free]
    for _ in range(_ROUNDS):
        gradient = {name: _PULL * (weights[name] - prior.get(name, 0.0)) for name in names}
        for features, label in samples:
            score = weights["bias"] + sum(weights[f] for f in features)
            error = 1.0 / (1.0 + math.exp(-score)) - label
            gradient["bias"] += error / len(samples)
            for feature in features:
                gradient[feature] += error / len(samples)
        for name in moving:
            weights[name] -= _STEP * gradient[name]
    return {name: round(value, 3) for name, value in weights.items()}


def fit(roots: Iterable[Path], prior_path: Path, only: Collection[str] = ()) -> dict[str, object]:
    """Fit every rule's weights, or with ``only`` ("rule:feature" names)
    just those, every other weight held at its committed value: a new
    feature joins the fitted model without moving the rest."""
    roots = [r for r in roots if r.exists()]
    prior = json.loads(prior_path.read_text(encoding="utf-8"))
    priors: Mapping[str, Mapping[str, float]] = prior.get("priors") or prior["rules"]
    committed: Mapping[str, Mapping[str, float]] = prior["rules"]
    per_rule = _samples(roots)
    fitted: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, int]] = {}
    for rule_id in sorted(priors):
        samples = per_rule.get(rule_id, [])
        free = {name.split(":", 1)[1] for name in only if name.startswith(rule_id + ":")}
        if only and not free:
            fitted[rule_id] = dict(committed.get(rule_id, priors[rule_id]))
        elif only:
            fitted[rule_id] = _fit(samples, priors[rule_id], committed.get(rule_id), free)
        else:
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
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="RULE:FEATURE",
        help="fit only this weight (repeatable), holding the others at their committed values",
    )
    args = parser.parse_args(argv)
    out = Path(args.out)
    result = fit([Path(p) for p in args.corpus], Path(args.priors), args.only)
    out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(result["fitted_on"], indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
