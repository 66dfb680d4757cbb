"""Every check's results on the whole corpus are the recorded ones.

Speed work must not change what any check finds (issue 15): this test scans
every entry of ``corpus/`` (the labelled classes, the holdout, every
completed sealed round and the captured real tools) and compares a digest
of each report's findings (verdict, every signal with its check, rule,
tier, confidence, evidence, location and span, and every cap and degraded
check) with ``tests/data/results-golden.json``.

A detection change alters some of these on purpose. Then regenerate the
file and record the change under "Accuracy" in CHANGELOG.md:

    python tests/test_results_unchanged.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcpscan

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "results-golden.json"
_FOLDERS = ("corpus", "corpus/holdout", "corpus/sealed/*")


def _entries() -> Iterator[tuple[str, dict[str, Any]]]:
    for folder in _FOLDERS:
        for directory in sorted(ROOT.glob(folder)):
            for path in sorted(directory.glob("*.jsonl")):
                name = path.relative_to(ROOT).as_posix()
                with path.open(encoding="utf-8") as handle:
                    for number, line in enumerate(handle, start=1):
                        if line.strip():
                            yield f"{name}:{number}", json.loads(line)


def _findings(entry: dict[str, Any]) -> dict[str, Any]:
    server = entry.get("server") or "server"
    snapshot = {**entry.get("others", {}), server: [entry["tool"]]}
    report = mcpscan.scan(entry["tool"], snapshot, server=server)
    coverage = report.to_dict()["coverage"]
    return {
        "verdict": report.verdict.value,
        "signals": [signal.to_dict() for signal in report.signals],
        "capped": coverage.get("capped"),
        "degraded": coverage.get("degraded"),
    }


def _digest(findings: dict[str, Any]) -> str:
    text = json.dumps(findings, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:20]


def current() -> dict[str, str]:
    """Entry (file:line) -> digest of its findings, for the whole corpus."""
    return {key: _digest(_findings(entry)) for key, entry in _entries()}


def test_every_checks_results_are_the_recorded_ones() -> None:
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = current()
    assert len(now) > 3000
    keys = now.keys() | recorded.keys()
    changed = sorted(key for key in keys if now.get(key) != recorded.get(key))
    assert not changed, (
        f"{len(changed)} corpus entries give other findings than recorded, e.g. {changed[:8]}; "
        "if the change is intended, run `python tests/test_results_unchanged.py --write`"
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        raise SystemExit("usage: python tests/test_results_unchanged.py --write")
    GOLDEN.write_text(json.dumps(current(), indent=0, sort_keys=True) + "\n", encoding="utf-8")
