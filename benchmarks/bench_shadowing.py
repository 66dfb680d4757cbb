"""Benchmark: scanning a registry-sized snapshot versus an empty one.

Builds a synthetic snapshot of 10,000 tools on 500 servers (tool bodies
borrowed from ../shared/corpora/real-benign.jsonl when it is present, names
drawn from realistic verb_noun combinations and from that file), then times
``mcpscan.scan`` over every tool twice: with the snapshot, and with an empty
snapshot. The snapshot is rebuilt for every round, so the one-off index
build of the shadowing check is part of the measured time.

The issue's budget: the ratio (with snapshot / empty) stays at or below 2.

    python benchmarks/bench_shadowing.py            # all built-in checks and shadowing alone
    python benchmarks/bench_shadowing.py --rounds 5 --tools 10000 --servers 500

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import mcpscan
from mcpscan import Snapshot
from mcpscan.checks.shadowing import CHECK


def _words(text: str) -> list[str]:
    return text.split()


REAL = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "real-benign.jsonl"

VERBS = _words(
    "get list create update delete search find read write fetch add remove run start stop "
    "send post upload download sync export import archive restore query describe set"
)
NOUNS = _words(
    "user users file files issue issues repo repos branch commit message messages channel "
    "email emails event events invoice invoices payment order orders customer customers "
    "ticket tickets project projects task tasks note notes page pages document documents "
    "table tables record records report reports dashboard metric metrics alert alerts "
    "pod pods node nodes cluster deployment secret secrets bucket object objects image "
    "video playlist calendar contact contacts comment comments label labels release "
    "pipeline job jobs workflow webhook token session log logs trace spreadsheet sheet"
)
QUALIFIERS = ("", "", "", "by_id", "details", "status", "history", "summary", "v2", "batch")
VENDORS = _words(
    "acme nimbus orbit quartz vertex helix lumen atlas boreal cobalt delta ember fjord "
    "granite harbor indigo juniper kepler lattice meridian nova onyx pioneer quill "
    "redwood summit tundra umber vector willow xenon yarrow zephyr"
)
PRODUCTS = _words(
    "mail crm tickets git docs drive chat calendar billing storage metrics search "
    "deploy notes wiki forms maps shop hr vault"
)


def load_real() -> list[dict[str, Any]]:
    if not REAL.exists():
        return [
            {
                "name": "placeholder",
                "description": "Return the requested record with its metadata.",
                "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
            }
        ]
    return [json.loads(line)["tool"] for line in REAL.open(encoding="utf-8")]


def synthetic_servers(tools: int, servers: int, seed: int = 7) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(seed)
    real = load_real()
    real_names = [t["name"] for t in real]
    ids: list[str] = []
    while len(ids) < servers:
        candidate = f"{rng.choice(VENDORS)}-{rng.choice(PRODUCTS)}"
        if rng.random() < 0.2:
            candidate += f"-{rng.randint(1, 9)}"
        if candidate not in ids:
            ids.append(candidate)
    out: dict[str, list[dict[str, Any]]] = {server: [] for server in ids}
    per_server = tools // servers
    for server in ids:
        names: set[str] = set()
        while len(names) < per_server:
            if rng.random() < 0.25:
                name = rng.choice(real_names)
            else:
                parts = [rng.choice(VERBS), rng.choice(NOUNS), rng.choice(QUALIFIERS)]
                name = "_".join(p for p in parts if p)
            names.add(name)
        for name in sorted(names):
            body = dict(rng.choice(real))
            body["name"] = name
            out[server].append(body)
    return out


def time_scans(
    items: Sequence[tuple[str, dict[str, Any]]],
    snapshot: Snapshot,
    checks: Iterable[object] | None,
) -> float:
    checks = list(checks) if checks is not None else None
    started = time.perf_counter()
    for server, tool in items:
        mcpscan.scan(tool, snapshot, server=server, checks=checks)
    return time.perf_counter() - started


def measure(
    label: str,
    servers: dict[str, list[dict[str, Any]]],
    checks: Iterable[object] | None,
    rounds: int,
) -> None:
    items = [(server, tool) for server, tools in servers.items() for tool in tools]
    with_snapshot: list[float] = []
    empty: list[float] = []
    for _ in range(rounds):
        # A fresh Snapshot each round: its indexes are built during the timed scans.
        snapshot = Snapshot.from_servers(servers)
        with_snapshot.append(time_scans(items, snapshot, checks))
        empty.append(time_scans(items, Snapshot(), checks))
    full, base = statistics.median(with_snapshot), statistics.median(empty)
    print(
        f"{label}: {len(items)} tools, median {full:.2f}s with the snapshot, "
        f"{base:.2f}s with an empty snapshot, ratio {full / base:.2f} "
        f"(per tool {full / len(items) * 1e6:.0f}us vs {base / len(items) * 1e6:.0f}us)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--servers", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("all", "shadowing", "both"), default="both")
    args = parser.parse_args()
    servers = synthetic_servers(args.tools, args.servers)
    snapshot = Snapshot.from_servers(servers)
    started = time.perf_counter()
    snapshot.index(
        "shadowing.v1", __import__("mcpscan.checks.shadowing", fromlist=["x"]).build_index
    )
    print(f"shadowing index build alone: {time.perf_counter() - started:.3f}s")
    if args.only in ("all", "both"):
        measure("all built-in checks", servers, None, args.rounds)
    if args.only in ("shadowing", "both"):
        measure("shadowing alone", servers, [CHECK], args.rounds)


if __name__ == "__main__":
    main()
