"""Benchmark: the one-off index build of a registry-sized Snapshot.

Builds a synthetic snapshot (default 50,000 tools on 2,000 servers: tool
bodies borrowed from ../shared/corpora/real-benign.jsonl when present, names
drawn from realistic verb_noun combinations and from that file, see
``bench_shadowing.synthetic_servers``; about two tools in five then carry
their server's product as a prefix or are written in camelCase, as real
registries do, so most names are distinct), then, on a fresh Snapshot each
round:

* ``first scan``: ``mcpscan.scan`` of one tool, which builds every
  per-snapshot index the checks use (the index build);
* ``warm scan``: ``mcpscan.scan`` of a second tool with the same Snapshot,
  which reuses them;
* each index builder alone, on its own fresh Snapshot, to show where the
  first scan's time goes.

Each round collects garbage after building the Snapshot and before the
timed scans (``gc after Snapshot``): the full collection that 50,000 new
Tools make due is a cost of building the Snapshot, not of its index.

Figures are process CPU seconds (the machine is shared: wall time is noise),
medians over ``--rounds``. Issue 15's budget: a warm Snapshot index build
at 50,000 tools in <= 1 s.

    python benchmarks/bench_snapshot_index.py
    python benchmarks/bench_snapshot_index.py --tools 10000 --servers 500 --rounds 5
    python benchmarks/bench_snapshot_index.py --all-distinct   # every name distinct

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_shadowing import synthetic_servers

import mcpscan
from mcpscan import Snapshot
from mcpscan._instruction import _snapshot_names
from mcpscan.checks.shadowing import build_index

#: The per-snapshot indexes the built-in checks build, by builder.
BUILDERS: dict[str, Callable[[Snapshot], Any]] = {
    "shadowing.build_index": build_index,
    "instruction._snapshot_names": _snapshot_names,
}


def registry_servers(
    tools: int, servers: int, *, all_distinct: bool = False, seed: int = 11
) -> dict[str, list[dict[str, Any]]]:
    """``synthetic_servers`` with names restyled the way registries write them.

    ``all_distinct``: every name gets the tool's position as a suffix
    (``send_email_4711``), as ``bench_registry.py`` names them: the worst
    case for the index, which is built per distinct name.
    """
    rng = random.Random(seed)
    out = synthetic_servers(tools, servers)
    position = 0
    for server, bodies in out.items():
        product = server.split("-")[1]
        for body in bodies:
            name = body["name"]
            roll = rng.random()
            if roll < 0.25:
                name = f"{product}_{name}"
            elif roll < 0.4:
                first, *rest = name.split("_")
                name = first + "".join(word.title() for word in rest)
            if all_distinct:
                name = f"{name}_{position}"
            body["name"] = name
            position += 1
    return out


def _cpu(run: Callable[..., object], *args: Any, **kwargs: Any) -> float:
    started = time.process_time()
    run(*args, **kwargs)
    return time.process_time() - started


def measure(servers: dict[str, list[dict[str, Any]]], rounds: int) -> dict[str, float]:
    (first_server, first_tools), (second_server, second_tools) = list(servers.items())[:2]
    samples: dict[str, list[float]] = {"gc after Snapshot": [], "first scan": [], "warm scan": []}
    samples.update({label: [] for label in BUILDERS})
    for _ in range(rounds):
        snapshot = Snapshot.from_servers(servers)
        # Building 50,000 Tools leaves the garbage collector a full pass to
        # make (about 2 s here) at whatever allocation comes next: it is
        # done and timed on its own, so the rows time the index alone.
        samples["gc after Snapshot"].append(_cpu(gc.collect))
        samples["first scan"].append(
            _cpu(mcpscan.scan, first_tools[0], snapshot, server=first_server)
        )
        samples["warm scan"].append(
            _cpu(mcpscan.scan, second_tools[0], snapshot, server=second_server)
        )
        for label, build in BUILDERS.items():
            fresh = Snapshot.from_servers(servers)
            gc.collect()
            samples[label].append(_cpu(build, fresh))
    return {label: round(statistics.median(values), 3) for label, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=50_000)
    parser.add_argument("--servers", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--all-distinct", action="store_true")
    args = parser.parse_args()
    servers = registry_servers(args.tools, args.servers, all_distinct=args.all_distinct)
    snapshot = Snapshot.from_servers(servers)
    # Warm the library's own lazy tables so the rounds time only the index.
    mcpscan.scan(next(iter(servers.values()))[0])
    figures = measure(servers, args.rounds)
    print(
        json.dumps(
            {
                "tools": len(snapshot),
                "servers": len(snapshot.servers),
                "distinct_names": len(snapshot.by_name),
                "rounds": args.rounds,
                "cpu_seconds_median": figures,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
