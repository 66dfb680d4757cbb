"""Corpus evaluation: recall per attack class and false alarms per label.

A corpus is a folder of JSONL files (searched recursively, so a
``holdout/`` folder inside it counts too), one labelled entry a line::

    {"id": "...", "label": "malicious" | "benign" | "hard_negative",
     "class": "...", "server": "...", "tool": {...}, "others": {...},
     "expect": "quarantine" | "review" | "pass", "provenance": "...", "notes": "..."}

A malicious entry is caught when its verdict reaches its ``expect``; a
non-malicious entry is a false alarm when its verdict is not ``pass``.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from ._config import Config
from ._model import Report, ScanError, Verdict
from ._scan import scan

__all__ = ["CorpusEntry", "EvalResult", "Thresholds", "evaluate", "load_corpus"]

_LABELS = ("malicious", "benign", "hard_negative")


@attrs.frozen
class CorpusEntry:
    id: str
    label: str
    cls: str
    server: str
    tool: Mapping[str, Any]
    others: Mapping[str, Any]
    expect: Verdict
    provenance: str
    source: str
    #: The attack kind within the class (``cross-tool-hijack`` ...); the class when not given.
    kind: str = ""


def _entry(raw: object, source: str) -> CorpusEntry:
    if not isinstance(raw, Mapping):
        raise ScanError(source, "a corpus line must be a JSON object")
    for key in ("id", "label", "class", "server", "expect", "provenance"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise ScanError(f"{source}.{key}", "expected a non-empty string")
    if raw["label"] not in _LABELS:
        raise ScanError(f"{source}.label", f"expected one of {list(_LABELS)}")
    try:
        expect = Verdict(raw["expect"])
    except ValueError:
        raise ScanError(f"{source}.expect", "expected quarantine, review or pass") from None
    if not isinstance(raw.get("tool"), Mapping):
        raise ScanError(f"{source}.tool", "expected a tool object")
    others = raw.get("others", {})
    if not isinstance(others, Mapping):
        raise ScanError(f"{source}.others", "expected an object of server id to tools")
    kind = raw.get("kind", raw["class"])
    if not isinstance(kind, str) or not kind:
        raise ScanError(f"{source}.kind", "expected a non-empty string")
    return CorpusEntry(
        id=raw["id"],
        label=raw["label"],
        cls=raw["class"],
        server=raw["server"],
        tool=raw["tool"],
        others=others,
        expect=expect,
        provenance=raw["provenance"],
        source=source,
        kind=kind,
    )


#: Folders of sealed sets: measured only when named directly, never as part
#: of a larger corpus, so that nobody tunes on them by running the gate.
SEALED = "sealed"


def _files(root: Path) -> list[Path]:
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise ScanError(str(root), "no such corpus file or folder")
    inside_sealed = SEALED in root.resolve().parts
    return sorted(
        path
        for path in root.rglob("*.jsonl")
        if inside_sealed or SEALED not in path.relative_to(root).parts
    )


def load_corpus(roots: Iterable[Path]) -> list[CorpusEntry]:
    """Read every entry of every JSONL file under ``roots``; ids must be unique."""
    entries: list[CorpusEntry] = []
    seen: dict[str, str] = {}
    for root in roots:
        for path in _files(root):
            with path.open(encoding="utf-8") as handle:
                for number, line in enumerate(handle, start=1):
                    if not line.strip():
                        continue
                    source = f"{path}:{number}"
                    try:
                        raw = json.loads(line)
                    except ValueError as error:
                        raise ScanError(source, f"not valid JSON: {error}") from None
                    entry = _entry(raw, source)
                    if entry.id in seen:
                        raise ScanError(f"{source}.id", f"duplicate id, first at {seen[entry.id]}")
                    seen[entry.id] = source
                    entries.append(entry)
    return entries


def scan_entry(entry: CorpusEntry, config: Config | None = None) -> Report:
    """Scan one entry with its own server and its ``others`` as the snapshot."""
    snapshot = {**entry.others, entry.server: [entry.tool]}
    return scan(entry.tool, snapshot, server=entry.server, config=config)


@attrs.frozen
class Thresholds:
    min_recall: float = 0.90
    max_fp: float = 0.05
    max_benign_fp: float | None = None
    min_class_recall: Mapping[str, float] = attrs.field(factory=dict)
    max_quarantine: int = 0
    #: Recall floors per attack kind (``"*"``: every kind).
    min_kind_recall: Mapping[str, float] = attrs.field(factory=dict)
    #: A corpus without malicious entries measures no recall: it fails
    #: unless this is False (``--benign-only``).
    require_malicious: bool = True
    #: A corpus without benign or hard-negative entries measures no false
    #: alarms: it fails unless this is False (``--malicious-only``).
    require_non_malicious: bool = True


@attrs.frozen
class Outcome:
    entry: CorpusEntry
    verdict: Verdict
    rule_ids: tuple[str, ...]

    @property
    def caught(self) -> bool:
        return self.verdict.rank >= self.entry.expect.rank

    @property
    def false_alarm(self) -> bool:
        return self.verdict is not Verdict.PASS


def _rate(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0


@attrs.frozen
class EvalResult:
    outcomes: tuple[Outcome, ...]
    thresholds: Thresholds

    def _of(self, label: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.entry.label == label]

    def recall_by_class(self) -> dict[str, tuple[int, int]]:
        return self._recall_by(lambda entry: entry.cls)

    def recall_by_kind(self) -> dict[str, tuple[int, int]]:
        """Recall per attack kind; only kinds that differ from their class."""
        return self._recall_by(lambda entry: entry.kind, only_distinct=True)

    def _recall_by(
        self, key: Callable[[CorpusEntry], str], *, only_distinct: bool = False
    ) -> dict[str, tuple[int, int]]:
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for outcome in self._of("malicious"):
            if only_distinct and outcome.entry.kind == outcome.entry.cls:
                continue
            totals[key(outcome.entry)][1] += 1
            totals[key(outcome.entry)][0] += int(outcome.caught)
        return {name: (caught, total) for name, (caught, total) in sorted(totals.items())}

    def false_positives_by_kind(self) -> dict[str, tuple[int, int]]:
        """Look-alikes raised per kind; only kinds that differ from their class."""
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for outcome in self.outcomes:
            entry = outcome.entry
            if entry.label == "malicious" or entry.kind == entry.cls:
                continue
            totals[entry.kind][1] += 1
            totals[entry.kind][0] += int(outcome.false_alarm)
        return {name: (fp, total) for name, (fp, total) in sorted(totals.items())}

    def overall_recall(self) -> tuple[int, int]:
        malicious = self._of("malicious")
        return sum(o.caught for o in malicious), len(malicious)

    def false_positives(self, label: str) -> tuple[int, int]:
        entries = self._of(label)
        return sum(o.false_alarm for o in entries), len(entries)

    def quarantined_non_malicious(self) -> int:
        return sum(
            o.verdict is Verdict.QUARANTINE for o in self.outcomes if o.entry.label != "malicious"
        )

    def misses(self) -> list[Outcome]:
        return [o for o in self._of("malicious") if not o.caught]

    def false_alarms(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.entry.label != "malicious" and o.false_alarm]

    def failures(self) -> list[str]:
        """Why the gate fails; empty when every threshold holds."""
        t = self.thresholds
        reasons = self._one_sided()
        caught, total = self.overall_recall()
        if total and _rate(caught, total) < t.min_recall:
            reasons.append(f"overall recall {_rate(caught, total):.3f} < {t.min_recall:.3f}")
        for cls, (c, n) in self.recall_by_class().items():
            floor = t.min_class_recall.get(cls, t.min_class_recall.get("*"))
            if floor is not None and _rate(c, n) < floor:
                reasons.append(f"recall of class {cls} {_rate(c, n):.3f} < {floor:.3f}")
        for kind, (c, n) in self.recall_by_kind().items():
            floor = t.min_kind_recall.get(kind, t.min_kind_recall.get("*"))
            if floor is not None and _rate(c, n) < floor:
                reasons.append(f"recall of kind {kind} {_rate(c, n):.3f} < {floor:.3f}")
        benign_limit = t.max_fp if t.max_benign_fp is None else t.max_benign_fp
        for label, limit in (("hard_negative", t.max_fp), ("benign", benign_limit)):
            fp, n = self.false_positives(label)
            if n and _rate(fp, n) > limit:
                reasons.append(f"false-positive rate on {label} {_rate(fp, n):.3f} > {limit:.3f}")
        quarantined = self.quarantined_non_malicious()
        if quarantined > t.max_quarantine:
            reasons.append(f"{quarantined} non-malicious entries quarantined > {t.max_quarantine}")
        return reasons

    def _one_sided(self) -> list[str]:
        # A gate that measured nothing must not pass: "recall 0/0" is not a
        # recall, and a corpus of attacks alone says nothing of false alarms.
        if not self.outcomes:
            return ["the corpus has no entries"]
        reasons: list[str] = []
        if self.thresholds.require_malicious and not self._of("malicious"):
            reasons.append(
                "no malicious entries, so recall cannot be measured "
                "(--benign-only measures false alarms alone)"
            )
        if self.thresholds.require_non_malicious and len(self._of("malicious")) == len(
            self.outcomes
        ):
            reasons.append(
                "no benign or hard_negative entries, so false alarms cannot be measured "
                "(--malicious-only measures recall alone)"
            )
        return reasons

    def to_dict(self) -> dict[str, Any]:
        caught, total = self.overall_recall()
        return {
            "entries": dict(Counter(o.entry.label for o in self.outcomes)),
            "recall_by_class": {
                cls: {"caught": c, "total": n, "recall": round(_rate(c, n), 4)}
                for cls, (c, n) in self.recall_by_class().items()
            },
            "recall_by_kind": {
                kind: {"caught": c, "total": n, "recall": round(_rate(c, n), 4)}
                for kind, (c, n) in self.recall_by_kind().items()
            },
            "false_positives_by_kind": {
                kind: {"flagged": fp, "total": n, "rate": round(_rate(fp, n), 4)}
                for kind, (fp, n) in self.false_positives_by_kind().items()
            },
            "recall": {"caught": caught, "total": total, "recall": round(_rate(caught, total), 4)},
            "false_positives": {
                label: {"flagged": fp, "total": n, "rate": round(_rate(fp, n), 4)}
                for label in ("benign", "hard_negative")
                for fp, n in [self.false_positives(label)]
            },
            "quarantined_non_malicious": self.quarantined_non_malicious(),
            "misses": [_describe(o) for o in self.misses()],
            "false_alarms": [_describe(o) for o in self.false_alarms()],
            "failures": self.failures(),
        }

    def render(self, *, summary: bool = False) -> Iterator[str]:
        """The report as lines; ``summary`` leaves out the entries missed
        and raised (for sealed sets, whose misses nobody may read)."""
        counts = Counter(o.entry.label for o in self.outcomes)
        yield "entries: " + ", ".join(f"{counts[label]} {label}" for label in _LABELS)
        yield "recall by class (caught/total):"
        for cls, (c, n) in self.recall_by_class().items():
            yield f"  {cls:<28} {c:>5}/{n:<5} {_rate(c, n):.3f}"
        by_kind = self.recall_by_kind()
        if by_kind:
            yield "recall by kind (caught/total):"
            for kind, (c, n) in by_kind.items():
                yield f"  {kind:<28} {c:>5}/{n:<5} {_rate(c, n):.3f}"
        fp_by_kind = self.false_positives_by_kind()
        if fp_by_kind:
            yield "look-alikes raised by kind (not pass / total):"
            for kind, (fp, n) in fp_by_kind.items():
                yield f"  {kind:<28} {fp:>5}/{n:<5} {_rate(fp, n):.3f}"
        caught, total = self.overall_recall()
        yield f"overall recall                 {caught:>5}/{total:<5} {_rate(caught, total):.3f}"
        yield "false positives (not pass / total):"
        for label in ("benign", "hard_negative"):
            fp, n = self.false_positives(label)
            yield f"  {label:<28} {fp:>5}/{n:<5} {_rate(fp, n):.3f}"
        yield f"quarantined non-malicious entries: {self.quarantined_non_malicious()}"
        listed = (
            () if summary else (("misses", self.misses()), ("false alarms", self.false_alarms()))
        )
        for title, rows in listed:
            if rows:
                yield f"{title}:"
                for outcome in rows:
                    yield "  " + _describe_line(outcome)
        failures = self.failures()
        yield "result: " + ("PASS" if not failures else "FAIL: " + "; ".join(failures))


def _describe_line(outcome: Outcome) -> str:
    entry = outcome.entry
    rules = " ".join(sorted(set(outcome.rule_ids)))
    return (
        f"{entry.id}  ({entry.label}/{entry.kind}, expected {entry.expect.value}, "
        f"got {outcome.verdict.value}) {rules}"
    ).rstrip()


def _describe(outcome: Outcome) -> dict[str, Any]:
    entry = outcome.entry
    return {
        "id": entry.id,
        "label": entry.label,
        "class": entry.cls,
        "kind": entry.kind,
        "expect": entry.expect.value,
        "verdict": outcome.verdict.value,
        "rule_ids": list(outcome.rule_ids),
    }


def evaluate(
    entries: Iterable[CorpusEntry],
    thresholds: Thresholds,
    config: Config | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EvalResult:
    entries = list(entries)
    outcomes = []
    for entry in entries:
        try:
            report = scan_entry(entry, config)
        except ScanError as error:
            raise ScanError(f"{entry.source}.{error.field}", error.problem) from None
        rule_ids = tuple(sorted({s.rule_id for s in report.signals}))
        outcomes.append(Outcome(entry=entry, verdict=report.verdict, rule_ids=rule_ids))
        if progress is not None:
            progress(len(outcomes), len(entries))
    return EvalResult(outcomes=tuple(outcomes), thresholds=thresholds)
