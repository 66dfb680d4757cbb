"""Core properties: scan is total and deterministic; the normalizer is idempotent;
evidence is render-safe; reports round-trip through JSON."""

from __future__ import annotations

import json

import pytest
import regex
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import hostile_text, json_values, tools

import mcpscan
from mcpscan import ScanError

pytestmark = pytest.mark.property

UNSAFE = regex.compile(
    r"[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]"
)


@given(json_values)
@example({"name": "x", "inputSchema": {"a": float("nan")}})
def test_scan_is_total_over_json(value: object) -> None:
    try:
        report = mcpscan.scan(value)
    except ScanError:
        return
    assert isinstance(report, mcpscan.Report)


@given(tools)
def test_scan_is_deterministic_and_round_trips(tool: dict[str, object]) -> None:
    first = mcpscan.scan(tool, server="s")
    second = mcpscan.scan(tool, server="s")
    assert first.to_json() == second.to_json()
    assert json.loads(first.to_json()) == first.to_dict()


@given(tools)
def test_evidence_and_locations_are_render_safe(tool: dict[str, object]) -> None:
    report = mcpscan.scan(tool, server="s")
    for signal in report.signals:
        assert not UNSAFE.search(signal.evidence)
        assert not UNSAFE.search(signal.location)
    for entry in report.coverage.degraded:
        assert not UNSAFE.search(entry.message)


@given(st.text())
@example("ǅ\u0345")
@example("0\u2018R\u0415")
def test_normalizer_is_idempotent(text: str) -> None:
    once = mcpscan.normalize(text)
    assert mcpscan.normalize(once) == once


@given(hostile_text)
def test_normalized_text_has_no_invisible_characters(text: str) -> None:
    assert not regex.search(r"[\p{Cf}\p{Default_Ignorable_Code_Point}]", mcpscan.normalize(text))
