"""Hostile input: every case completes within the limits, every cut is
recorded, memory stays bounded, and nothing but a Report or a ScanError
comes out. All registered checks run."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable

import pytest

import mcpscan
from mcpscan import Report

pytestmark = pytest.mark.slow

_MB = 1024 * 1024


def _measure(build: Callable[[], object]) -> tuple[Report, float, int]:
    tool = build()
    tracemalloc.start()
    started = time.perf_counter()
    report = mcpscan.scan(tool, server="hostile")
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return report, elapsed, peak


def _limits(report: Report) -> set[str]:
    return {cap.limit for cap in report.coverage.capped}


def test_ten_megabyte_description() -> None:
    text = ("Fetch the page and return its text. " * 300_000)[: 10 * _MB]
    report, elapsed, peak = _measure(lambda: {"name": "big", "description": text})
    assert "max_string_chars" in _limits(report)
    assert report.coverage.degraded == ()
    assert elapsed < 30
    assert peak < 400 * _MB


def test_schema_nested_100000_levels() -> None:
    def build() -> dict[str, object]:
        schema: dict[str, object] = {"type": "string", "description": "leaf"}
        for _ in range(100_000):
            schema = {"type": "object", "properties": {"x": schema}}
        return {"name": "deep", "inputSchema": schema}

    report, elapsed, _ = _measure(build)
    assert "max_depth" in _limits(report)
    assert elapsed < 10


def test_a_million_tiny_strings() -> None:
    report, elapsed, peak = _measure(
        lambda: {"name": "wide", "inputSchema": {"enum": ["a"] * 1_000_000}}
    )
    assert "max_strings" in _limits(report)
    assert elapsed < 30
    assert peak < 400 * _MB


def test_object_graph_with_cycles() -> None:
    def build() -> dict[str, object]:
        node: dict[str, object] = {"description": "loop"}
        node["properties"] = {"self": node, "again": node}
        return {"name": "cyclic", "inputSchema": node}

    report, elapsed, _ = _measure(build)
    assert "cycle" in _limits(report)
    assert elapsed < 5


def test_odd_values() -> None:
    def build() -> dict[str, object]:
        return {
            "name": "odd\ud800",
            "description": "lone \udfff surrogate, NaN and infinities",
            "inputSchema": {
                1: "int key",
                (2, 3): "tuple key",
                # NaN and infinities are a ScanError (test_walk.py), as in pins.
                "huge": 10**10_000,
                "bytes": b"\xff\xfe",
            },
        }

    report, _, _ = _measure(build)
    assert json.loads(report.to_json())["tool"]["name"] == "odd\ud800"


def test_many_candidate_blobs_are_bounded() -> None:
    blob = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo= " * 20_000
    report, elapsed, _ = _measure(lambda: {"name": "blobs", "description": blob})
    assert elapsed < 30
    assert report.coverage.degraded == ()


@pytest.mark.parametrize(
    "payload",
    [b"\xff\xfe\xfd", b'{"name": "x", "description": "\xc3\x28"}', b"\x00" * 10],
)
def test_invalid_utf8_through_the_cli(payload: bytes) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcpscan", "scan", "-"],
        input=payload,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.decode().startswith("mcpscan: error:")
    assert b"Traceback" not in done.stderr


def test_ten_thousand_digit_number_through_the_cli() -> None:
    payload = (
        b'{"name": "n", "inputSchema": {"default": '
        + b"7" * 10_000
        + b', "x": -'
        + b"1" * 10_000
        + b"}}"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mcpscan", "scan", "-", "--format", "json"],
        input=payload,
        capture_output=True,
        check=False,
    )
    # Refused in one line (pins refuse such numbers too), never a traceback.
    assert done.returncode == 2, done.stderr
    assert b"more than 4000 digits" in done.stderr
    assert b"Traceback" not in done.stderr
