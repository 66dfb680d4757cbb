"""What the language files cost per tool.

Run directly:

    python benchmarks/bench_lexicons.py [--rounds N] [--json results.json]

Every real tool of ``../shared/corpora/real-benign.jsonl`` (and the corpus,
when the shared tools are absent) is scanned with the English vocabulary
only and with every language file installed, alternating the two in the
same run so that both see the same machine load. Reported: median and p99
microseconds per tool of the whole scan, and of the instruction analysis
alone (``analyze`` over every string of the tool), for both, and the
difference. All languages share one automaton, so the added cost is what
the larger automaton and the per-hit boundary tests add, not a pass per
language.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import mcpscan
from mcpscan import _instruction as instruction

ROOT = Path(__file__).resolve().parent.parent
# The shared real tools stand beside the repository (or beside the folder
# of worktrees that holds it).
SHARED = next(
    (
        folder / "shared" / "corpora" / "real-benign.jsonl"
        for folder in (ROOT.parent, ROOT.parent.parent)
        if (folder / "shared" / "corpora" / "real-benign.jsonl").exists()
    ),
    ROOT.parent / "shared" / "corpora" / "real-benign.jsonl",
)
CORPUS = ROOT / "corpus"


def _tools() -> list[dict[str, Any]]:
    paths = [SHARED] if SHARED.exists() else sorted(CORPUS.glob("*.jsonl"))
    rows = []
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            rows.extend(json.loads(line) for line in handle if line.strip())
    return [row for row in rows if isinstance(row.get("tool"), dict)]


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _use(english_only: bool) -> None:
    every_file = _EVERY_FILE
    if english_only:
        instruction._lexicon_files = lambda: (  # type: ignore[assignment]
            item for item in every_file() if item[0] == "en.json"
        )
    else:
        instruction._lexicon_files = every_file  # type: ignore[assignment]
    instruction._lexicon.cache_clear()
    instruction._clause_start.cache_clear()
    instruction.name_words.cache_clear()
    # Build now, so the build is not timed with the first tool.
    instruction.analyze("warm up: send the file.")


_EVERY_FILE = instruction._lexicon_files


def _time_scan(tool: dict[str, Any], server: str) -> float:
    started = time.perf_counter()
    mcpscan.scan(tool, {server: [tool]}, server=server)
    return time.perf_counter() - started


def _time_analysis(texts: list[str]) -> float:
    started = time.perf_counter()
    for text in texts:
        instruction.analyze(text)
    return time.perf_counter() - started


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    rows = _tools()
    strings = [sorted(set(_strings(row["tool"]))) for row in rows]
    samples: dict[str, list[list[float]]] = {
        f"{what}/{lexicon}": [[] for _ in rows]
        for what in ("scan", "analysis")
        for lexicon in ("english", "all")
    }
    for _ in range(args.rounds):
        for lexicon in ("english", "all"):
            _use(english_only=lexicon == "english")
            for index, row in enumerate(rows):
                scan = _time_scan(row["tool"], str(row.get("server", "s")))
                samples[f"scan/{lexicon}"][index].append(scan)
                analysis = _time_analysis(strings[index])
                samples[f"analysis/{lexicon}"][index].append(analysis)
    _use(english_only=False)
    results: dict[str, Any] = {"tools": len(rows), "rounds": args.rounds}
    for name, per_tool in samples.items():
        medians = [statistics.median(values) * 1e6 for values in per_tool]
        results[name] = {
            "median_us": round(statistics.median(medians), 1),
            "p99_us": round(_percentile(medians, 0.99), 1),
        }
    for what in ("scan", "analysis"):
        results[f"{what}/added_median_us"] = round(
            results[f"{what}/all"]["median_us"] - results[f"{what}/english"]["median_us"], 1
        )
    text = json.dumps(results, indent=1, sort_keys=True)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
