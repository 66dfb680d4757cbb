"""Hostile input: every case completes within the limits, every cut is
recorded, memory stays bounded, and nothing but a Report or a ScanError
comes out. All registered checks run."""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable

import pytest
from helpers import count_decodings

import mcpscan
from mcpscan import Report

pytestmark = pytest.mark.slow

_MB = 1024 * 1024


def _measure(build: Callable[[], object]) -> tuple[Report, int]:
    """The report and the peak traced memory of one scan.

    No wall-clock figure: time on a shared machine says nothing about the
    code (speed is measured in ``benchmarks/``); the limits hit and the
    memory used are what these tests assert.
    """
    tool = build()
    tracemalloc.start()
    report = mcpscan.scan(tool, server="hostile")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return report, peak


def _limits(report: Report) -> set[str]:
    return {cap.limit for cap in report.coverage.capped}


def test_ten_megabyte_description() -> None:
    text = ("Fetch the page and return its text. " * 300_000)[: 10 * _MB]
    report, peak = _measure(lambda: {"name": "big", "description": text})
    assert "max_string_chars" in _limits(report)
    assert report.coverage.degraded == ()
    assert peak < 400 * _MB


def test_schema_nested_100000_levels() -> None:
    def build() -> dict[str, object]:
        schema: dict[str, object] = {"type": "string", "description": "leaf"}
        for _ in range(100_000):
            schema = {"type": "object", "properties": {"x": schema}}
        return {"name": "deep", "inputSchema": schema}

    report, _ = _measure(build)
    assert "max_depth" in _limits(report)


def test_a_million_tiny_strings() -> None:
    report, peak = _measure(lambda: {"name": "wide", "inputSchema": {"enum": ["a"] * 1_000_000}})
    assert "max_strings" in _limits(report)
    assert peak < 400 * _MB


def test_object_graph_with_cycles() -> None:
    def build() -> dict[str, object]:
        node: dict[str, object] = {"description": "loop"}
        node["properties"] = {"self": node, "again": node}
        return {"name": "cyclic", "inputSchema": node}

    report, _ = _measure(build)
    assert "cycle" in _limits(report)


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

    report, _ = _measure(build)
    assert json.loads(report.to_json())["tool"]["name"] == "odd\ud800"


def test_many_candidate_blobs_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted work, not time: 20,000 copies of one blob are decoded once.
    decoded = count_decodings(monkeypatch)
    blob = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo= " * 20_000
    report, _ = _measure(lambda: {"name": "blobs", "description": blob})
    assert report.coverage.degraded == ()
    assert report.coverage.capped == ()
    # The blob, and the alphabet it decodes to (itself a base64-like run).
    assert decoded == [2]


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
