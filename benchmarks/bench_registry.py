"""Registry-scale throughput: scan_many and Dask on the same 100,000 tools.

    python benchmarks/bench_registry.py [--tools 100000] [--json out.json]

The tools are real descriptions (the shared real-tool corpus and our
captured tools), cycled and renamed to fill the count, spread over servers
of 20 tools; every run scans the same list. Reported per configuration:
wall seconds, tools per second, and tools per second per core used. One
run, one machine: compare the rows with each other, not with other runs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import mcpscan

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    ROOT.parent / "shared" / "corpora" / "real-benign.jsonl",
    ROOT / "corpus" / "captured.jsonl",
]


def _real_tools() -> list[dict[str, Any]]:
    tools = []
    for path in SOURCES:
        if path.exists():
            with path.open(encoding="utf-8") as handle:
                tools.extend(json.loads(line)["tool"] for line in handle if line.strip())
    if not tools:
        sys.exit("no real tools found: need ../shared/corpora or corpus/captured.jsonl")
    return tools


def _registry(count: int) -> dict[str, list[dict[str, Any]]]:
    real = _real_tools()
    servers: dict[str, list[dict[str, Any]]] = {}
    for i in range(count):
        tool = dict(real[i % len(real)])
        tool["name"] = f"{tool.get('name', 'tool')}_{i}"
        servers.setdefault(f"server-{i // 20}", []).append(tool)
    return servers


def _timed(label: str, cores: int, count: int, run: Any) -> dict[str, Any]:
    start = time.perf_counter()
    reports = run()
    seconds = time.perf_counter() - start
    assert len(reports) == count
    row = {
        "configuration": label,
        "cores": cores,
        "seconds": round(seconds, 2),
        "tools_per_second": round(count / seconds),
        "tools_per_second_per_core": round(count / seconds / cores),
    }
    print(json.dumps(row), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tools", type=int, default=100_000)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    servers = _registry(args.tools)
    snapshot = mcpscan.Snapshot.from_servers(servers)
    items = [(server, tool) for server, tools in servers.items() for tool in tools]
    rows = [
        _timed(
            "scan_many workers=1",
            1,
            len(items),
            lambda: mcpscan.scan_many(items, snapshot, workers=1),
        ),
        _timed(
            f"scan_many workers={cores}",
            cores,
            len(items),
            lambda: mcpscan.scan_many(items, snapshot, workers=cores),
        ),
    ]
    from dask.distributed import Client, LocalCluster

    from mcpscan.dask import scan_registry

    with (
        LocalCluster(
            n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        rows.append(
            _timed(
                f"dask LocalCluster {cores} workers",
                cores,
                len(items),
                lambda: scan_registry(items, snapshot, client=client),
            )
        )
    result = {
        "machine": (
            f"{platform.machine()}, {cores} cores,"
            f" Python {platform.python_version()}, {platform.system()}"
        ),
        "tools": len(items),
        "rows": rows,
    }
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
