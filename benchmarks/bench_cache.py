"""Benchmark: a repeat scan of an unchanged tool through ``mcpscan.Scanner``.

Reads the real tools of ../shared/corpora/real-benign.jsonl and times, per
tool (the median over ``--rounds`` passes), then as the median and p99
over all tools, in one run:

* ``scan()``: the module-level function, uncached;
* ``first``: ``Scanner.scan`` with the cache off (``cache_size=0``): a
  first scan, key computation included;
* ``repeat``: ``Scanner.scan`` of a tool already in the cache (the issue's
  target: median <= 10 us).

Each is measured with an empty snapshot and with one ``Snapshot`` of every
server's tools (what a gateway holds), whose digest is computed once.

    python benchmarks/bench_cache.py [--rounds 5] [--limit N] [--json out.json]

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench_scan import _per_item, _summary  # the same timing as the main benchmark

import mcpscan
from mcpscan._scanner import _snapshot_digest

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout; a worktree one level deeper finds it too.
SHARED = next(
    (
        base / "shared" / "corpora" / "real-benign.jsonl"
        for base in (ROOT.parent, ROOT.parent.parent)
        if (base / "shared" / "corpora" / "real-benign.jsonl").exists()
    ),
    ROOT.parent / "shared" / "corpora" / "real-benign.jsonl",
)
Item = tuple[str, dict[str, Any]]


def _tools(limit: int | None) -> list[Item]:
    with SHARED.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [(row["server"], row["tool"]) for row in rows][:limit]


def _workload(items: Sequence[Item], snapshot: mcpscan.Snapshot, rounds: int) -> dict[str, Any]:
    uncached = mcpscan.Scanner(cache_size=0)
    cached = mcpscan.Scanner(cache_size=len(items) * 2)
    return {
        "scan()": _summary(
            _per_item(items, lambda i: mcpscan.scan(i[1], snapshot, server=i[0]), rounds)
        ),
        "first": _summary(
            _per_item(items, lambda i: uncached.scan(i[1], snapshot, server=i[0]), rounds)
        ),
        "repeat": _summary(
            _per_item(items, lambda i: cached.scan(i[1], snapshot, server=i[0]), rounds)
        ),
        "cached_reports": cached.cached,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--limit", type=int, default=None, help="only the first N tools")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    if not SHARED.exists():
        print(f"{SHARED} not found: nothing to measure", file=sys.stderr)
        return 1
    items = _tools(args.limit)
    servers: dict[str, list[dict[str, Any]]] = {}
    for server, tool in items:
        servers.setdefault(server, []).append(tool)
    started = time.perf_counter()
    whole = mcpscan.Snapshot.from_servers(servers)
    built = time.perf_counter() - started
    started = time.perf_counter()
    _snapshot_digest(whole)  # what the first Scanner.scan with this Snapshot adds, once
    digest = time.perf_counter() - started
    results = {
        "tools": len(items),
        "servers": len(servers),
        "rounds": args.rounds,
        "python": sys.version.split()[0],
        "empty snapshot": _workload(items, mcpscan.Snapshot(), args.rounds),
        "whole snapshot": _workload(items, whole, args.rounds),
        "snapshot_build_ms": round(built * 1e3, 1),
        "snapshot_digest_ms": round(digest * 1e3, 1),
    }
    print(json.dumps(results, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
