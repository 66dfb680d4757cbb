"""Speed and memory benchmarks of mcpscan, and the peer comparison.

Run with ``nox -s bench`` (which installs the peer) or directly:

    python benchmarks/bench_scan.py [--quick] [--json results.json]

Workloads: the shared real tools, the whole corpus, synthetic snapshots of
100 / 1,000 / 10,000 tools over up to 500 servers, descriptions of 1 KB to
1 MB, import plus discovery, and scan_many. The peer is Cisco's
``cisco-ai-mcp-scanner`` YARA analyzer, run the way its scanner runs it:
the description, then the JSON of the rest of the tool. Every figure is a
median (and p99 where it says so) measured in this one run, so ratios
compare like with like on a noisy machine.
"""

from __future__ import annotations

import argparse
import copy
import json
import logging
import platform
import random
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import mcpscan

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "corpora" / "real-benign.jsonl"
CORPUS = ROOT / "corpus"


def _load_jsonl(paths: Iterable[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        with path.open(encoding="utf-8") as handle:
            rows.extend(json.loads(line) for line in handle if line.strip())
    return rows


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def _per_item(items: Sequence[Any], run: Callable[[Any], object], rounds: int) -> list[float]:
    """Per-item seconds: the median over ``rounds`` passes for each item."""
    for item in items:  # warm caches and lazy indexes
        run(item)
    samples: list[list[float]] = [[] for _ in items]
    for _ in range(rounds):
        for index, item in enumerate(items):
            started = time.perf_counter()
            run(item)
            samples[index].append(time.perf_counter() - started)
    return [statistics.median(s) for s in samples]


def _summary(seconds: Sequence[float]) -> dict[str, float]:
    return {
        "median_us": round(statistics.median(seconds) * 1e6, 1),
        "p99_us": round(_percentile(seconds, 0.99) * 1e6, 1),
        "total_ms": round(sum(seconds) * 1e3, 1),
    }


# --- the peer ----------------------------------------------------------------


def _peer() -> Callable[[dict[str, Any]], object] | None:
    try:
        from mcpscanner.core.analyzers.yara_analyzer import YaraAnalyzer
    except ImportError:
        return None
    logging.disable(logging.CRITICAL)
    analyzer = YaraAnalyzer()

    def drive(coroutine: Any) -> object:
        # The analyzer's coroutine never awaits: drive it without an event
        # loop so the peer is not charged for asyncio.
        try:
            coroutine.send(None)
        except StopIteration as stop:
            return stop.value
        raise RuntimeError("the YARA analyzer awaited")

    def scan(tool: dict[str, Any]) -> object:
        data = copy.deepcopy(tool)
        description = data.pop("description", "") or ""
        context = {"tool_name": data.get("name"), "content_type": "description"}
        findings = drive(analyzer.analyze(description, context))
        context = {"tool_name": data.get("name"), "content_type": "parameters"}
        return (findings, drive(analyzer.analyze(json.dumps(data), context)))

    return scan


# --- workloads ---------------------------------------------------------------


def bench_real_tools(rows: list[dict[str, Any]], rounds: int) -> dict[str, Any]:
    items = [(row["server"], row["tool"]) for row in rows]
    empty = mcpscan.Snapshot()
    ours = _per_item(items, lambda item: mcpscan.scan(item[1], empty, server=item[0]), rounds)
    result: dict[str, Any] = {"tools": len(items), "mcpscan": _summary(ours)}
    peer = _peer()
    if peer is not None:
        theirs = _per_item([tool for _, tool in items], peer, rounds)
        result["peer"] = _summary(theirs)
        result["ratio_median"] = round(statistics.median(ours) / statistics.median(theirs), 3)
        result["ratio_p99"] = round(_percentile(ours, 0.99) / _percentile(theirs, 0.99), 3)
    else:
        result["peer"] = "cisco-ai-mcp-scanner is not installed"
    return result


def bench_corpus(rounds: int) -> dict[str, Any]:
    rows = _load_jsonl(sorted(CORPUS.rglob("*.jsonl")))
    items = [({**row.get("others", {}), row["server"]: [row["tool"]]}, row) for row in rows]
    ours = _per_item(
        items, lambda i: mcpscan.scan(i[1]["tool"], i[0], server=i[1]["server"]), rounds
    )
    return {"entries": len(items), "mcpscan": _summary(ours)}


_VERBS = (
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "send",
    "read",
    "write",
    "fetch",
    "run",
    "sync",
)
_NOUNS = (
    "file",
    "issue",
    "user",
    "email",
    "page",
    "record",
    "table",
    "event",
    "ticket",
    "order",
    "message",
    "repo",
)


def synthetic_snapshot(tools: int, servers: int, seed: int = 7) -> dict[str, list[dict[str, Any]]]:
    """A deterministic registry: realistic names, some shared across servers."""
    rng = random.Random(seed)
    real = _load_jsonl([SHARED]) if SHARED.exists() else []
    out: dict[str, list[dict[str, Any]]] = {f"server-{i:03d}": [] for i in range(servers)}
    for index in range(tools):
        server = f"server-{index % servers:03d}"
        if real and index % 3 == 0:
            template = copy.deepcopy(rng.choice(real)["tool"])
            template["name"] = f"{template['name']}_{index}"
        else:
            name = f"{rng.choice(_VERBS)}_{rng.choice(_NOUNS)}_{index}"
            template = {
                "name": name,
                "description": f"{name.replace('_', ' ').capitalize()} in the workspace.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "Identifier of the item"}
                    },
                },
            }
        out[server].append(template)
    return out


def bench_snapshots(sizes: Sequence[int], rounds: int) -> list[dict[str, Any]]:
    results = []
    for size in sizes:
        servers = min(500, max(1, size // 20))
        mapping = synthetic_snapshot(size, servers)
        items = [(server, tool) for server, tools in mapping.items() for tool in tools]
        started = time.perf_counter()
        snapshot = mcpscan.Snapshot.from_servers(mapping)
        build = time.perf_counter() - started
        empty = mcpscan.Snapshot()

        def with_snapshot(
            item: tuple[str, dict[str, Any]], snap: mcpscan.Snapshot = snapshot
        ) -> object:
            return mcpscan.scan(item[1], snap, server=item[0])

        def without(item: tuple[str, dict[str, Any]], snap: mcpscan.Snapshot = empty) -> object:
            return mcpscan.scan(item[1], snap, server=item[0])

        full = _per_item(items, with_snapshot, rounds)
        alone = _per_item(items, without, rounds)
        results.append(
            {
                "tools": size,
                "servers": servers,
                "snapshot_build_ms": round(build * 1e3, 1),
                "with_snapshot": _summary(full),
                "empty_snapshot": _summary(alone),
                "ratio_total": round(sum(full) / sum(alone), 3),
            }
        )
    return results


def bench_peak_memory(size: int) -> dict[str, Any]:
    mapping = synthetic_snapshot(size, min(500, size // 20))
    tracemalloc.start()
    snapshot = mcpscan.Snapshot.from_servers(mapping)
    for server, tools in mapping.items():
        for tool in tools:
            mcpscan.scan(tool, snapshot, server=server)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    here, servers = str(Path(__file__).parent), min(500, size // 20)
    # VmHWM (the peak resident set) of a fresh interpreter: ru_maxrss would
    # include the parent's memory from before exec.
    code = (
        f"import sys; sys.path.insert(0, {here!r}); import bench_scan, mcpscan;"
        f"m = bench_scan.synthetic_snapshot({size}, {servers});"
        "s = mcpscan.Snapshot.from_servers(m);"
        "[mcpscan.scan(t, s, server=k) for k, ts in m.items() for t in ts];"
        "status = open('/proc/self/status').read().splitlines();"
        "print([line.split()[1] for line in status if line.startswith('VmHWM')][0])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    rss_kb = int(done.stdout)
    return {
        "tools": size,
        "tracemalloc_peak_mb": round(peak / 2**20, 1),
        "process_max_rss_mb": round(rss_kb / 1024, 1),
    }


def bench_description_sizes(sizes: Sequence[int], rounds: int) -> list[dict[str, Any]]:
    sentence = (
        "Returns the weather forecast for a city, with temperatures in Celsius and wind in km/h. "
    )
    results = []
    for size in sizes:
        text = (sentence * (size // len(sentence) + 1))[:size]
        tool = {"name": "forecast", "description": text}
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            mcpscan.scan(tool, server="weather")
            times.append(time.perf_counter() - started)
        seconds = statistics.median(times)
        results.append(
            {
                "bytes": size,
                "median_ms": round(seconds * 1e3, 2),
                "ms_per_mb": round(seconds * 1e3 * 2**20 / size, 1),
            }
        )
    return results


def bench_import(rounds: int) -> dict[str, Any]:
    code = (
        "import time; t = time.perf_counter(); import mcpscan; mcpscan.available_checks();"
        "print(time.perf_counter() - t)"
    )
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(rounds)
    ]
    return {"median_ms": round(statistics.median(times) * 1e3, 1)}


def bench_scan_many(size: int) -> dict[str, Any]:
    mapping = synthetic_snapshot(size, min(500, size // 20))
    items = [(server, tool) for server, tools in mapping.items() for tool in tools]
    snapshot = mcpscan.Snapshot.from_servers(mapping)
    timings = {}
    for workers in (1, 2):
        started = time.perf_counter()
        mcpscan.scan_many(items, snapshot, workers=workers)
        timings[workers] = time.perf_counter() - started
    return {
        "tools": size,
        "one_process_s": round(timings[1], 2),
        "two_processes_s": round(timings[2], 2),
        "speedup": round(timings[1] / timings[2], 2),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and smaller workloads")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    rounds = 3 if args.quick else 7
    sizes = (100, 1_000) if args.quick else (100, 1_000, 10_000)
    rows = _load_jsonl([SHARED]) if SHARED.exists() else []
    results: dict[str, Any] = {
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "processor": platform.processor() or platform.machine(),
            "cpus": __import__("os").cpu_count(),
        },
        "real_tools": bench_real_tools(rows, rounds) if rows else "shared corpus not found",
        "corpus": bench_corpus(rounds),
        "snapshots": bench_snapshots(sizes, 1),
        "description_sizes": bench_description_sizes((1024, 10 * 1024, 100 * 1024, 1024 * 1024), 3),
        "import_and_discovery": bench_import(5 if args.quick else 11),
        "peak_memory": bench_peak_memory(sizes[-1]),
        "scan_many": bench_scan_many(sizes[-1]),
    }
    text = json.dumps(results, indent=2, sort_keys=True)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
