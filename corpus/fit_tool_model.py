"""Fit the learned whole-tool scorer (rule ``intent.tool_model``).

Reads every labelled entry of the training corpus (``corpus/*.jsonl``,
``corpus/holdout``), the completed sealed rounds of ``ROUNDS`` and the real
tools captured from live servers (``REAL``, negatives only), takes each
tool's words (``mcpscan.checks._tool_model.tokens`` over the normalized
strings the scan reads) and fits a logistic regression over them.

The scan spares the words that stand only in clauses the shared analysis
reads as no attack (the user's choice, a restraint, an act refused, a
mention: ``_tool_model.discounted`` with
``imperative_directive.no_attack_reading``): they count only toward an
honest tool. Validation scores each held-out tool exactly so. The fit
itself reads every word: sparing can then only lower a score. Fitting on
the spared words too was measured (leave one round out over r1..r12, see
docs/rules/intent-tool-model.md) and let the words of a consent or a
threat list grow heavier toward an attack wherever they stand outside one:
held-out real tools newly raised 11 -> 28, look-alikes 22 -> 27, for no
more held-out attacks raised (60 -> 60).

The vocabulary is the words (and word pairs) that attacks of at least
``MIN_AUTHORS`` different author groups used (an author group: a sealed
round's author tag, or a corpus file's id prefix). A word only one or two
authors wrote cannot weigh in: the scorer must carry to authors who never
wrote our corpus. Malicious entries of classes whose attack is not an
instruction (hidden characters, encoded payloads, secrets, borrowed
names, schema requests) are not read; every benign or look-alike entry is
a negative. Classes are balanced by weight.

Deterministic: entries in file order, a fixed seed for the SGD order, a
fixed number of epochs and steps, weights rounded to three decimals.

    python corpus/fit_tool_model.py                 # fit and write the weights
    python corpus/fit_tool_model.py --validate ../shared/corpora
        # leave-one-round-out: per held-out sealed round, the held-out attacks
        # today's rules pass that the scorer raises, the look-alikes it newly
        # raises, and the held-out half of the captured real tools (by
        # server) it newly raises; then the final fit on the benign folder,
        # which is only measured, never trained on.

Plain Python: no training dependency beyond mcpscan.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import zlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs
import logistic

from mcpscan._config import Config
from mcpscan._eval import load_corpus, scan_entry
from mcpscan._model import Tool, Verdict
from mcpscan._walk import view_tool
from mcpscan.checks import _tool_model
from mcpscan.checks.imperative_directive import no_attack_reading

ROOT = Path(__file__).resolve().parent
ROUNDS = tuple(f"r{n}" for n in range(1, 19))
REAL = "captured-2026-11-24.jsonl"
MIN_AUTHORS = 3
#: The SGD settings (``logistic.sgd``): the seed of the sample order, the
#: epochs and the initial step (``STEP / (1 + epoch)`` in epoch ``epoch``)
#: were set when the scorer was introduced (commit 454f39b) and have not been
#: tuned; leave-one-round-out validation chose L2 and the threshold with them
#: held fixed. They are this scorer's own, not the clause scorer's
#: (``fit_intent_model.py``): the two fit different samples.
SEED = 7
EPOCHS = 15
STEP = 0.05
#: L2 penalty per update. Chosen by leave-one-round-out validation (see
#: docs/rules/intent-tool-model.md): weaker penalties let a few words of one
#: round's register decide; stronger ones catch fewer held-out attacks.
L2 = 1e-3
#: The scorer reports a tool at this probability or above.
THRESHOLD = 0.9
#: Thresholds printed by validation beside the chosen one.
THRESHOLDS = (0.8, 0.85, 0.9, 0.95)
NOT_INSTRUCTIONS = frozenset(
    {
        "hidden-unicode",
        "encoded-payload",
        "decode-then-confirm",
        "embedded-secret",
        "shadowing",
        "capability-mismatch",
    }
)
_RANK = {Verdict.PASS: 0, Verdict.REVIEW: 1, Verdict.QUARANTINE: 2}


@attrs.frozen
class Entry:
    group: str  # "base", a round name, REAL or "measure"
    author: str
    server: str
    label: int
    usable: bool
    expect: int
    rules_rank: int  # today's verdict without this scorer
    words: frozenset[str]
    #: Words of clauses read as no attack only (``_tool_model.discounted``).
    spared: frozenset[str]


def _read(roots: Sequence[tuple[str, Path]]) -> list[Entry]:
    config = Config()
    silent = _tool_model._Model(bias=-60.0, threshold=2.0, weights={})
    real_model = _tool_model._model
    _tool_model._model = lambda: silent  # type: ignore[assignment]
    try:
        entries = []
        for group, root in roots:
            for item in load_corpus([root]):
                tool = Tool.from_mcp(item.tool, server=item.server)
                strings = view_tool(tool, config).strings
                kind = item.kind or item.cls
                label = int(item.label == "malicious")
                entries.append(
                    Entry(
                        group=group,
                        author=f"{group}:{root.name}:{item.id.split('-')[0]}",
                        server=item.server,
                        label=label,
                        usable=not label
                        or (kind not in NOT_INSTRUCTIONS and item.cls not in NOT_INSTRUCTIONS),
                        expect=_RANK[item.expect],
                        rules_rank=_RANK[scan_entry(item, config).verdict],
                        words=frozenset(_tool_model.tokens(s.normalized for s in strings)),
                        spared=_tool_model.discounted(strings, no_attack_reading),
                    )
                )
    finally:
        _tool_model._model = real_model  # type: ignore[assignment]
    return entries


def _vocabulary(train: Sequence[Entry]) -> frozenset[str]:
    authors: dict[str, set[str]] = defaultdict(set)
    for entry in train:
        if entry.label and entry.usable:
            for word in entry.words:
                authors[word].add(entry.author)
    return frozenset(w for w, who in authors.items() if len(who) >= MIN_AUTHORS)


def fit(train: Sequence[Entry]) -> dict[str, float]:
    """Logistic regression (``logistic.sgd``, classes balanced by weight, exact
    ``math.fsum`` totals as the committed weights were fitted with)."""
    vocabulary = _vocabulary(train)
    samples = [(tuple(sorted(e.words & vocabulary)), e.label) for e in train if e.usable]
    weights = logistic.sgd(
        logistic.balanced(samples), epochs=EPOCHS, step=STEP, l2=L2, seed=SEED, total=math.fsum
    )
    return {k: round(v, 3) for k, v in sorted(weights.items()) if round(v, 3) != 0.0}


def _probability(weights: Mapping[str, float], entry: Entry) -> float:
    """The scan's probability (``_tool_model._probability``) of an entry."""
    model = _tool_model._Model(bias=weights.get("bias", 0.0), threshold=THRESHOLD, weights=weights)
    return _tool_model._probability(model, set(entry.words - {"bias"}), entry.spared)


def _roots() -> list[tuple[str, Path]]:
    roots = [("base", path) for path in sorted(ROOT.glob("*.jsonl")) if path.name != REAL]
    roots.append(("base", ROOT / "holdout"))
    roots += [(name, ROOT / "sealed" / name) for name in ROUNDS]
    roots.append((REAL, ROOT / REAL))
    return roots


def _held_out_real(entry: Entry) -> bool:
    return entry.group == REAL and zlib.crc32(entry.server.encode()) % 2 == 1


def validate(entries: Sequence[Entry], measure: Sequence[Entry]) -> None:
    totals: dict[str, list[int]] = defaultdict(lambda: [0] * len(THRESHOLDS))
    for held in ROUNDS:
        train = [e for e in entries if e.group != held and not _held_out_real(e)]
        weights = fit(train)
        attacks = [
            e for e in entries if e.group == held and e.label and e.usable and e.rules_rank == 0
        ]
        lookalikes = [e for e in entries if e.group == held and not e.label and e.rules_rank == 0]
        real = [e for e in entries if _held_out_real(e) and e.rules_rank == 0]
        for i, threshold in enumerate(THRESHOLDS):
            raised = [e for e in attacks if _probability(weights, e) >= threshold]
            totals["attacks the rules pass"][i] += len(attacks)
            totals["raised"][i] += len(raised)
            totals["raised where review was expected"][i] += sum(e.expect == 1 for e in raised)
            totals["look-alikes newly raised"][i] += sum(
                _probability(weights, e) >= threshold for e in lookalikes
            )
            totals["held-out real tools newly raised"][i] += sum(
                _probability(weights, e) >= threshold for e in real
            )
        print(held, {k: v[THRESHOLDS.index(THRESHOLD)] for k, v in totals.items()}, file=sys.stderr)
    weights = fit(entries)
    for i, threshold in enumerate(THRESHOLDS):
        newly = sum(e.rules_rank == 0 and _probability(weights, e) >= threshold for e in measure)
        figures = {k: v[i] for k, v in totals.items()}
        print(
            f"threshold {threshold}: {figures}; measured benign newly raised {newly}/{len(measure)}"
        )


def _cached(cache: Path | None, benign: Path | None) -> tuple[list[Entry], list[Entry]]:
    """The training entries and the measured benign ones, read once."""
    if cache is not None and cache.exists():
        entries, measure = pickle.loads(cache.read_bytes())
        return entries, measure
    entries = _read(_roots())
    measure = _read([("measure", benign)]) if benign is not None else []
    if cache is not None:
        cache.write_bytes(pickle.dumps((entries, measure)))
    return entries, measure


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--validate", type=Path, metavar="BENIGN", help="leave-one-round-out figures"
    )
    parser.add_argument(
        "--out", type=Path, default=ROOT.parent / "mcpscan" / "lexicon" / "weights_tool_model.json"
    )
    parser.add_argument(
        "--cache", type=Path, help="keep the read entries in this pickle (the read takes minutes)"
    )
    args = parser.parse_args(argv)
    entries, measure = _cached(args.cache, args.validate)
    if args.validate is not None:
        validate(entries, measure)
        return 0
    weights = fit(entries)
    bias = weights.pop("bias", 0.0)
    data = {
        "rule": _tool_model.RULE,
        "fitted_by": "corpus/fit_tool_model.py",
        "threshold": THRESHOLD,
        "bias": bias,
        "weights": weights,
    }
    args.out.write_text(
        json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(f"wrote {args.out}: {len(weights)} words, threshold {THRESHOLD}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
