"""Render-safe and redacted evidence, applied to every check's signals."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import mcpscan
from mcpscan import Signal, Tier
from mcpscan._evidence import escape_unsafe, redact, safe_evidence


@pytest.mark.parametrize(
    ("raw", "escaped"),
    [
        ("a\u200bb", "a\\u200bb"),
        ("x\u202ey", "x\\u202ey"),
        ("\U000e0041", "\\U000e0041"),
        ("a\ufe0fb", "a\\ufe0fb"),
        ("line\nbreak\ttab\x1b[31m", "line\\nbreak\\ttab\\u001b[31m"),
        ("\ue000", "\\ue000"),
        ("back\\slash", "back\\\\slash"),
        ("plain text, ünïcode, 中文", "plain text, ünïcode, 中文"),
    ],
)
def test_escape_unsafe(raw: str, escaped: str) -> None:
    assert escape_unsafe(raw) == escaped


def test_redact_shape() -> None:
    assert (
        redact("AKIAABCDEFGHIJKLMNOP", "aws_access_key") == "[REDACTED_AWS_ACCESS_KEY:last4=MNOP]"
    )
    assert redact("short", "x") == "[REDACTED_X]"


def test_safe_evidence_caps_length_without_cutting_escapes() -> None:
    text = "a" * 195 + "\u200b" * 10
    out = safe_evidence(text, 200)
    assert out.startswith("a" * 195)
    assert "...[+" in out
    assert "\\u200" not in out.split("...")[0][195:] or out.split("...")[0].endswith("\\u200b")


def test_safe_evidence_redacts_secrets() -> None:
    out = safe_evidence("key AKIAABCDEFGHIJKLMNOP here")
    assert "AKIAABCDEFGHIJKLMNOP" not in out
    assert "[REDACTED_AWS_ACCESS_KEY:last4=MNOP]" in out


class Leaky:
    id = "leaky"
    version = "1"

    def run(self, tool: object, context: object) -> Iterator[Signal]:
        yield Signal(
            "leaky",
            "leaky.x",
            Tier.SOFT,
            "t",
            0.6,
            "found \u202eAKIAABCDEFGHIJKLMNOP\u200b " + "x" * 1000,
            'inputSchema.properties["a\u202eb"]',
        )


def test_orchestrator_makes_every_check_evidence_safe() -> None:
    report = mcpscan.scan({"name": "t"}, checks=[Leaky()])
    (signal,) = report.signals
    assert "AKIAABCDEFGHIJKLMNOP" not in report.to_json()
    assert "AKIAABCDEFGHIJKLMNOP" not in repr(report)
    assert "\u202e" not in signal.evidence and "\u200b" not in signal.evidence
    assert "\u202e" not in signal.location
    assert len(signal.evidence) <= 200 + len("...[+0000 chars]")
