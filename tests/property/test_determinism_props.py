"""Report bytes are the same across processes, hash seeds, thread counts and
scan orders: nothing in a default report depends on the clock or the run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.property

ROOT = Path(__file__).resolve().parents[2]

# Scans every 7th corpus entry (its snapshot included) with THREADS threads,
# in an order shuffled by ORDER_SEED, and prints the sha256 of the reports'
# JSON in corpus order.
_SCRIPT = r"""
import hashlib, json, os, pathlib, random, sys
from concurrent.futures import ThreadPoolExecutor
import mcpscan
rows = []
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.jsonl")):
    rows += [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
rows = rows[::7]
order = list(range(len(rows)))
random.Random(int(os.environ["ORDER_SEED"])).shuffle(order)
def one(index):
    row = rows[index]
    snapshot = {**row.get("others", {}), row["server"]: [row["tool"]]}
    return index, mcpscan.scan(row["tool"], snapshot, server=row["server"]).to_json()
with ThreadPoolExecutor(int(os.environ["THREADS"])) as pool:
    done = dict(pool.map(one, order))
digest = hashlib.sha256("\n".join(done[i] for i in range(len(rows))).encode())
print(len(rows), digest.hexdigest())
"""


def _run(hash_seed: str, threads: int, order_seed: int) -> str:
    env = {
        **os.environ,
        "PYTHONHASHSEED": hash_seed,
        "THREADS": str(threads),
        "ORDER_SEED": str(order_seed),
    }
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(ROOT / "corpus")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return done.stdout.strip()


def test_report_bytes_are_identical_across_processes_seeds_threads_and_orders() -> None:
    runs = {
        _run(hash_seed, threads, order_seed)
        for hash_seed, threads, order_seed in (("0", 1, 0), ("1", 2, 1), ("2", 4, 2), ("3", 3, 3))
    }
    assert len(runs) == 1, runs
    (only,) = runs
    assert int(only.split()[0]) > 100
