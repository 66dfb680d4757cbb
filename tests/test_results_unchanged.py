"""Every check's results on the whole corpus are the recorded ones.

Speed work must not change what any check finds (issue 15): this test scans
every entry of ``corpus/`` (the labelled classes, the holdout, every
completed sealed round and the captured real tools), loaded and scanned as
``mcpscan eval`` does, and compares a digest of each report's findings
(verdict, every signal with its check, rule, tier, confidence, evidence,
location and span, and every cap and degraded check) with
``tests/data/results-golden.json``.

A detection change alters some of these on purpose. Then regenerate the
file and record the change under "Accuracy" in CHANGELOG.md:

    python tests/test_results_unchanged.py --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from mcpscan._eval import CorpusEntry, load_corpus, scan_entry

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "data" / "results-golden.json"


def _findings(entry: CorpusEntry) -> dict[str, Any]:
    report = scan_entry(entry)
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
    """Entry id -> digest of its findings, for the whole corpus."""
    # A sealed round is read only when named (``mcpscan eval`` skips them).
    rounds = sorted(path for path in (ROOT / "corpus" / "sealed").iterdir() if path.is_dir())
    entries = load_corpus([ROOT / "corpus", *rounds])
    return {entry.id: _digest(_findings(entry)) for entry in entries}


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
