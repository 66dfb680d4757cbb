"""Fit the learned intent scorer (rule ``intent.model``).

Reads every labelled entry of the training corpus (``corpus/*.jsonl``,
``corpus/holdout``, ``corpus/captured.jsonl`` and the completed sealed
rounds of ``ROUNDS``, ``corpus/sealed/r1`` .. ``r7``), takes the clauses the intent gate
yields for each of its strings (the clauses ``imperative-directive`` reads
at scan time, mentioned ones left out), and fits a logistic regression over
each clause's features (``mcpscan.checks._intent_model.features``).

Labels are per entry, not per clause: a malicious description holds one
attacking clause among honest ones. The fit is multiple-instance: a first
pass gives every clause of a malicious entry an equal share of one positive;
the second pass keeps, per malicious entry, only its highest-scoring clause
as the positive. Every clause of a benign or hard-negative entry is a
negative. Malicious entries of classes whose attack is not an instruction
(hidden characters, encoded payloads, embedded secrets) are not read.

Deterministic: entries in file order, a fixed seed for the SGD order, a
fixed number of epochs and steps, weights rounded to three decimals.

    python corpus/fit_intent_model.py                 # fit and write the model
    python corpus/fit_intent_model.py --validate ../shared/corpora
        # leave-one-round-out: per held-out round (every completed round
        # under corpus/sealed), attacks the rules miss that the model
        # raises, look-alikes it raises, (with a benign folder given) real
        # tools it raises, the newest round per kind, and the real tools the
        # final fit raises by name. The benign folder is only measured,
        # never trained on.

    python corpus/fit_intent_model.py --validate ../shared/corpora \
        --hold-back r18 --cache /tmp/entries.pkl --blocks 3 \
        --rounds r1,...,r17 --readings --threshold 0.985
        # a variant: a test round neither read nor fitted (--hold-back),
        # the read corpus kept for the next variant (--cache), three blocks
        # of consecutive rounds held out in turn instead of one round each
        # (--blocks: four fits, not eighteen), other rounds fitted
        # (--rounds), the reading triples (--readings), one more threshold.

Fitting takes about 1.5 minutes on an idle core (3.5 on the loaded shared
machine); validation about 10.

Plain Python: no runtime or training dependency beyond mcpscan.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from pathlib import Path

import attrs
import logistic

from mcpscan._config import Config
from mcpscan._eval import CorpusEntry, load_corpus, scan_entry
from mcpscan._instruction import distinct_clauses, may_instruct, tool_scope
from mcpscan._model import Tool, Verdict
from mcpscan._snapshot import Snapshot
from mcpscan._walk import view_tool
from mcpscan.checks import _intent_model, _intent_rules
from mcpscan.checks.imperative_directive import _IDENTIFIER_BREAK, _mentioned

#: The completed sealed rounds the model is trained on (validation holds
#: out every completed round). Adding r8 and r9 was measured by
#: leave-one-round-out validation over r1..r9 and not kept: at 0.98 it
#: catches 22 of the 168 held-out attacks the rules pass, as r1..r7 at 0.97
#: does, with the r9 fold at 5/81 either way, and its final fit loses a
#: tested declared-behaviour catch (docs/rules/intent-model.md). Note:
#: refitted on today's corpus, this setting raises one more real tool of
#: /work/shared/corpora than the committed weights; check the names that
#: ``--validate`` prints before committing a refit. Fitting on r1..r17 (at
#: 0.99, the one variant that validated over three blocks of r1..r17) lost
#: an attack and raised a look-alike more on the held-out r18, so it was not
#: kept either (docs/rules/intent-model.md, "Round 18 experiment").
ROUNDS = ("r1", "r2", "r3", "r4", "r5", "r6", "r7")
BUCKETS = 4096
#: Whether the fit adds the reading triples (``_intent_model._reading_features``).
#: Validated over three blocks of r1..r17 and not kept: a catch or two more
#: for more look-alikes each (docs/rules/intent-model.md).
READINGS = False
#: The SGD settings (``logistic.sgd``): the seed of the sample order, the
#: epochs and the initial step (``STEP / (1 + epoch)`` in epoch ``epoch``)
#: were set when the scorer was introduced (commit c303adb); validation
#: tried 20 epochs and did not keep them (docs/rules/intent-model.md), and
#: chose L2 and the threshold with these held fixed.
SEED = 7
EPOCHS = 12
STEP = 0.1
#: Chosen by leave-one-round-out validation over r1..r7 (threshold 0.97,
#: totals of the seven held-out rounds): 1e-4 catches 13 held-out attacks
#: the rules pass for 3 more look-alikes and up to 4 more real tools in a
#: fold; 1e-3 catches 13 for 2 and up to 4; 3e-3 catches 11 for 1 and up
#: to 2. The stronger penalty keeps single words (a real tool's "ignore
#: robots.txt rules for this request") from reaching the threshold alone.
L2 = 3e-3
#: How far below the lowest record part of a firing training clause the
#: scan-time gate stands. Leave-one-round-out validation lost no held-out
#: catch at 0 (14 caught at 0, 0.5 and 1.0), and 0 skips the words of 55%
#: of real tools' gated clauses (32% at 1.0).
FLOOR_MARGIN = 0.0
#: Weight of a positive against a negative clause (there are many more
#: negative clauses than attacking ones).
POSITIVE_WEIGHT = 1.0
#: Classes whose malicious entries carry no instruction to learn from.
NOT_INSTRUCTIONS = frozenset({"hidden-unicode", "decode-then-confirm", "embedded-secret"})
#: Thresholds printed by validation beside the chosen one.
THRESHOLDS = (0.95, 0.97, 0.98, 0.99)
_RANK = {Verdict.PASS: 0, Verdict.REVIEW: 1, Verdict.QUARANTINE: 2}


@attrs.frozen
class Entry:
    """What the fit needs of one corpus entry."""

    group: str  # "base", a round name, or "benign-measure"
    name: str  # the entry's id
    label: int  # 1 malicious, 0 benign or hard negative
    usable: bool  # a malicious entry of an instruction class, or any negative
    expect: int  # rank of the expected verdict
    rules_rank: int  # rank of today's verdict without the model
    kind: str
    clauses: tuple[tuple[str, ...], ...]
    #: Per clause, whether an intent rule fired on it (the model is silent there).
    ruled: tuple[bool, ...]


def _clause_features(entry: CorpusEntry, config: Config) -> Iterator[tuple[tuple[str, ...], bool]]:
    """The features of every clause the intent loop of imperative-directive reads."""
    snapshot = Snapshot.from_servers({**entry.others, entry.server: [entry.tool]})
    tool = Tool.from_mcp(entry.tool, server=entry.server)
    tool_wide = tool_scope(tool, snapshot)
    for located in view_tool(tool, config).strings:
        if located.field == "name" or not may_instruct(located.normalized):
            continue
        # As at scan time: the scope of the string's own parameter, which
        # the rules read (a clause about another parameter of this tool).
        scope = tool_wide.reading(located.location)
        raw = _IDENTIFIER_BREAK.sub(" ", located.raw) if located.is_key else located.raw
        for clause in distinct_clauses(raw, scope):
            if _mentioned(clause, located):
                continue
            ruled = next(_intent_rules.evaluate_clause(clause, scope), None) is not None
            yield _intent_model.features(clause, scope, BUCKETS, readings=True), ruled


def _read(roots: Sequence[tuple[str, Path]]) -> list[Entry]:
    config = Config()
    # Today's verdict without the model: a threshold it can never reach.
    _intent_model._model.cache_clear()
    silent = _intent_model._Model(
        bias=-60.0, threshold=2.0, buckets=BUCKETS, record_floor=math.inf, weights={}
    )
    real_model = _intent_model._model
    _intent_model._model = lambda: silent  # type: ignore[assignment]
    try:
        entries = []
        for group, root in roots:
            for item in load_corpus([root]):
                label = int(item.label == "malicious")
                clauses = tuple(_clause_features(item, config))
                entries.append(
                    Entry(
                        group=group,
                        name=item.id,
                        label=label,
                        usable=not label or item.cls not in NOT_INSTRUCTIONS,
                        expect=_RANK[item.expect],
                        rules_rank=_RANK[scan_entry(item, config).verdict],
                        kind=item.kind or item.cls,
                        clauses=tuple(features for features, _ruled in clauses),
                        ruled=tuple(ruled for _features, ruled in clauses),
                    )
                )
    finally:
        _intent_model._model = real_model  # type: ignore[assignment]
    return entries


def _sgd(samples: Sequence[logistic.Sample]) -> dict[str, float]:
    """One pass of logistic regression (``logistic.sgd``) with this fit's
    settings and the built-in ``sum`` the committed weights were fitted with."""
    return logistic.sgd(samples, epochs=EPOCHS, step=STEP, l2=L2, seed=SEED, total=sum)


def _entry_score(weights: Mapping[str, float], entry: Entry, floor: float = -math.inf) -> float:
    """The most any clause the model may speak on scores (as at scan time:
    no rule fired on it and its record part reaches the floor)."""
    pairs = zip(entry.clauses, entry.ruled, strict=True)
    scores = (
        _clause_score(weights, c)
        for c, ruled in pairs
        if not ruled and _record_part(weights, c) >= floor
    )
    return max(scores, default=0.0)


def _is_word(feature: str) -> bool:
    return feature[0] == "w" and feature[1:].isdigit()


def _record_part(weights: Mapping[str, float], features: tuple[str, ...]) -> float:
    return weights.get("bias", 0.0) + sum(weights.get(f, 0.0) for f in features if not _is_word(f))


def record_floor(weights: Mapping[str, float], entries: Sequence[Entry], threshold: float) -> float:
    """The scan-time gate: the lowest record part (bias plus the named
    features, words left out) of any training clause that reaches the
    threshold, less ``FLOOR_MARGIN``. A clause below it is not read further
    (its words are not hashed), which skips most clauses of real tools."""
    parts = [
        _record_part(weights, c)
        for e in entries
        for c, ruled in zip(e.clauses, e.ruled, strict=True)
        if not ruled and _clause_score(weights, c) >= threshold
    ]
    return round(min(parts, default=weights.get("bias", 0.0)) - FLOOR_MARGIN, 3)


def _clause_score(weights: Mapping[str, float], features: tuple[str, ...]) -> float:
    return logistic.sigmoid(weights.get("bias", 0.0) + sum(weights.get(f, 0.0) for f in features))


def train(entries: Sequence[Entry]) -> dict[str, float]:
    """Two multiple-instance passes (see the module docstring)."""
    usable = [e for e in entries if e.usable and e.clauses]
    first: list[logistic.Sample] = []
    for entry in usable:
        share = POSITIVE_WEIGHT / len(entry.clauses) if entry.label else 1.0
        first.extend((c, entry.label, share) for c in entry.clauses)
    weights = _sgd(first)
    second: list[logistic.Sample] = []
    for entry in usable:
        if entry.label:
            best = max(entry.clauses, key=lambda c: _clause_score(weights, c))
            second.append((best, 1, POSITIVE_WEIGHT))
        else:
            second.extend((c, 0, 1.0) for c in entry.clauses)
    weights = _sgd(second)
    return {k: round(v, 3) for k, v in sorted(weights.items()) if abs(round(v, 3)) >= 0.001}


def _figures(
    weights: Mapping[str, float],
    train_set: Sequence[Entry],
    held: Sequence[Entry],
    threshold: float,
) -> str:
    """What the model adds on a held-out round at one threshold."""
    floor = record_floor(weights, train_set, threshold)
    fires = {id(e): _entry_score(weights, e, floor) >= threshold for e in held}
    silent = [e for e in held if e.label and e.rules_rank == 0]
    catchable = [e for e in silent if e.expect == 1]
    caught = sum(fires[id(e)] for e in catchable)
    raised = sum(fires[id(e)] for e in silent)
    looks = [e for e in held if not e.label]
    looks_rules = sum(e.rules_rank > 0 for e in looks)
    looks_model = sum(e.rules_rank == 0 and fires[id(e)] for e in looks)
    return (
        f"attacks the rules leave at pass {len(silent)} (expecting review {len(catchable)}): "
        f"model catches {caught}, raises {raised}; "
        f"look-alikes raised {looks_rules} -> {looks_rules + looks_model} of {len(looks)}"
    )


def _benign_figures(
    weights: Mapping[str, float], floor: float, benign: Sequence[Entry], t: float
) -> str:
    rules = sum(e.rules_rank > 0 for e in benign)
    model = sum(e.rules_rank == 0 and _entry_score(weights, e, floor) >= t for e in benign)
    return f"real tools raised {rules} -> {rules + model} of {len(benign)}"


def _per_kind(weights: Mapping[str, float], floor: float, held: Sequence[Entry], t: float) -> str:
    """Per attack kind of a held-out round: caught by the model of those the
    rules leave at pass and that expect review."""
    counts: dict[str, list[int]] = {}
    for e in held:
        if e.label and e.rules_rank == 0 and e.expect == 1:
            caught = _entry_score(weights, e, floor) >= t
            counts.setdefault(e.kind, [0, 0])[0] += caught
            counts[e.kind][1] += 1
    return ", ".join(f"{kind} {c}/{n}" for kind, (c, n) in sorted(counts.items()))


def _trained_on(
    entries: Sequence[Entry], left_out: Collection[str] = (), rounds: Sequence[str] = ROUNDS
) -> list[Entry]:
    """The base corpus and the rounds fitted on (``ROUNDS``), less those held out."""
    return [
        e for e in entries if e.group not in left_out and (e.group == "base" or e.group in rounds)
    ]


def _folds(rounds: Sequence[str], blocks: int) -> list[list[str]]:
    """The held-out folds: one round each, or (``blocks``) that many runs of
    consecutive rounds, so a variant fitted on every round costs a few fits,
    not one per round."""
    if not blocks:
        return [[r] for r in rounds]
    size = -(-len(rounds) // blocks)
    return [list(rounds[i : i + size]) for i in range(0, len(rounds), size)]


def validate(
    entries: Sequence[Entry],
    benign: Sequence[Entry],
    thresholds: Sequence[float],
    fitted_rounds: Sequence[str] = ROUNDS,
    blocks: int = 0,
) -> None:
    """Leave one round (or block of rounds) out: for each, train on the
    base corpus and the other rounds of ``fitted_rounds``, print each
    held-out round's figures per threshold (the newest round's per kind
    too) and the real tools the fold raises; then the real tools the final
    fit raises, by name."""
    rounds = sorted({e.group for e in entries} - {"base"}, key=lambda r: int(r[1:]))
    # A round outside the fitted ones leaves the same training set: one fit.
    fits: dict[frozenset[str], dict[str, float]] = {}
    for fold in _folds(rounds, blocks):
        train_set = _trained_on(entries, fold, fitted_rounds)
        groups = frozenset(e.group for e in train_set)
        weights = fits[groups] if groups in fits else fits.setdefault(groups, train(train_set))
        for t in thresholds:
            floor = record_floor(weights, train_set, t)
            for held_out in fold:
                held = [e for e in entries if e.group == held_out]
                line = f"{held_out} t={t}: {_figures(weights, train_set, held, t)}"
                if benign and held_out == fold[0]:
                    line += f"; {_benign_figures(weights, floor, benign, t)}"
                if held_out == rounds[-1]:
                    line += f"\n    per kind: {_per_kind(weights, floor, held, t)}"
                print(line, flush=True)
    train_set = _trained_on(entries, rounds=fitted_rounds)
    groups = frozenset(e.group for e in train_set)
    weights = fits[groups] if groups in fits else train(train_set)
    for t in thresholds:
        floor = record_floor(weights, train_set, t)
        raised = [
            e.name for e in benign if e.rules_rank == 0 and _entry_score(weights, e, floor) >= t
        ]
        print(f"final fit t={t}: real tools the model raises: {len(raised)} {raised}")


def _roots(corpus: Path, held_back: Sequence[str] = ()) -> list[tuple[str, Path]]:
    """The base corpus and every completed sealed round but those held back
    (validation holds out each; the fit trains on those of ``ROUNDS``)."""
    sealed = corpus / "sealed"
    rounds = sorted(
        (
            p.name
            for p in sealed.glob("r*")
            if p.is_dir() and p.name[1:].isdigit() and p.name not in held_back
        ),
        key=lambda r: int(r[1:]),
    )
    return [("base", corpus)] + [(r, sealed / r) for r in rounds]


def _without_readings(entries: Sequence[Entry]) -> list[Entry]:
    """The entries with the reading triples (``r:`` features) left out: the
    clause features the committed model was fitted with before them."""
    return [
        attrs.evolve(e, clauses=tuple(tuple(f for f in c if f[:2] != "r:") for c in e.clauses))
        for e in entries
    ]


def _load(
    corpus: Path, held_back: Sequence[str], benign_folder: str, cache: str
) -> tuple[list[Entry], list[Entry]]:
    """The read corpus and benign folder; with ``cache``, read once and kept
    in that file (reading is most of a validation's time; variants of the
    fit then share one read)."""
    if cache and Path(cache).exists():
        with Path(cache).open("rb") as handle:
            loaded: tuple[list[Entry], list[Entry]] = pickle.load(handle)
        return loaded
    entries = _read(_roots(corpus, held_back))
    benign = _read([("benign-measure", Path(benign_folder))]) if benign_folder else []
    if cache:
        with Path(cache).open("wb") as handle:
            pickle.dump((entries, benign), handle)
    return entries, benign


def _result(
    weights: Mapping[str, float], trained: Sequence[Entry], threshold: float, readings: bool
) -> dict[str, object]:
    """The data file of a fit at one threshold."""
    named = dict(weights)
    return {
        "note": "Fitted by corpus/fit_intent_model.py; do not edit by hand.",
        "record_floor": record_floor(weights, trained, threshold),
        "bias": named.pop("bias", 0.0),
        "buckets": BUCKETS,
        "readings": readings,
        "threshold": threshold,
        "weights": named,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="corpus")
    parser.add_argument("--out", default="mcpscan/lexicon/weights_intent_model.json")
    # Chosen by leave-one-round-out validation (docs/rules/intent-model.md).
    # Given more than once: validation prints each; a fit writes ``--out``
    # at the first and ``<out>.t<threshold>`` at each other (the weights are
    # the same, the record floor depends on the threshold).
    parser.add_argument("--threshold", type=float, action="append")
    parser.add_argument("--validate", metavar="BENIGN_FOLDER", nargs="?", const="")
    parser.add_argument(
        "--hold-back",
        action="append",
        default=[],
        metavar="ROUND",
        help="a sealed round neither read, validated on nor fitted (a test round)",
    )
    parser.add_argument(
        "--rounds", help="comma-separated rounds to fit on instead of ROUNDS (a variant)"
    )
    parser.add_argument(
        "--readings",
        action=argparse.BooleanOptionalAction,
        default=READINGS,
        help="fit with the reading triples (r: features)",
    )
    parser.add_argument(
        "--blocks", type=int, default=0, help="validate on this many blocks of rounds"
    )
    parser.add_argument("--cache", default="", help="a file keeping the read corpus")
    args = parser.parse_args(argv)
    rounds = tuple(args.rounds.split(",")) if args.rounds else ROUNDS
    thresholds = args.threshold or [0.97]
    corpus = Path(args.corpus)
    benign_folder = args.validate or ""
    entries, benign = _load(corpus, args.hold_back, benign_folder, args.cache)
    if not args.readings:
        entries, benign = _without_readings(entries), _without_readings(benign)
    if args.validate is not None:
        validate(entries, benign, sorted({*THRESHOLDS, *thresholds}), rounds, args.blocks)
        return 0
    trained = _trained_on(entries, rounds=rounds)
    weights = train(trained)
    for number, threshold in enumerate(thresholds):
        out = Path(args.out if not number else f"{args.out}.t{threshold}")
        result = _result(weights, trained, threshold, args.readings)
        result["fitted_on"] = {
            "corpora": [
                root.as_posix()
                for group, root in _roots(corpus, args.hold_back)
                if group == "base" or group in rounds
            ],
            "clauses": sum(len(e.clauses) for e in trained if e.usable),
            "seed": SEED,
        }
        out.write_text(json.dumps(result, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
