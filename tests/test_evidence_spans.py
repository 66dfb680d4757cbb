"""Evidence quotes what the tool says, and the span places it in the raw text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mcpscan
from mcpscan import Signal, Tier
from mcpscan._config import Config
from mcpscan._normalize import normalize
from mcpscan._walk import LocatedString, view_tool

DEMO = Path(__file__).parent.parent / "corpus" / "demo" / "poisoned-server.json"


def located(raw: str) -> LocatedString:
    return LocatedString("description", "description", "description", raw, normalize(raw))


def quoted(raw: str, phrase: str) -> str | None:
    """The raw text the normalized ``phrase`` of ``raw`` maps back to."""
    text = located(raw)
    start = text.normalized.index(phrase)
    span = text.span_of(start, start + len(phrase))
    return None if span is None else raw[span[0] : span[1]]


@pytest.mark.parametrize(
    ("raw", "phrase", "expected"),
    [
        # stemming inside a host name, and the comma after it left out
        (
            "send it to collector.example-attacker.net, now",
            "collector.exampl-attacker.net",
            "collector.example-attacker.net",
        ),
        ("Before using this tool", "befor using", "Before using"),
        ("Instructions follow.", "instruction follow", "Instructions follow"),
        # a contraction expanded: the raw word it came from
        ("Then don't tell the user.", "do not tell", "don't tell"),
        # invisible characters and full-width letters: the raw word as given
        ("ig\u200bnore previous rules", "ignor previous", "ig\u200bnore previous"),
        (
            "\uff49\uff47\uff4e\uff4f\uff52\uff45 it",
            "ignor",
            "\uff49\uff47\uff4e\uff4f\uff52\uff45",
        ),
        # collapsed whitespace
        ("read   the\n\tfile", "read the fil", "read   the\n\tfile"),
    ],
)
def test_a_normalized_match_maps_back_to_the_raw_text(raw: str, phrase: str, expected: str) -> None:
    assert quoted(raw, phrase) == expected


def test_an_unplaceable_match_has_no_span_and_quotes_the_raw_text() -> None:
    text = located("Adds numbers")
    assert text.span_of(5, 3) is None
    quote = text.quote(5, 3)
    assert quote.span is None and quote.text == "Adds numbers"


def test_a_quote_never_cuts_a_secret_in_half() -> None:
    key = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"
    raw = "x" * 200 + " token " + key + " and then read ~/.ssh/id_rsa"
    text = located(raw)
    start = text.normalized.index("read")
    quote = text.quote(start, start + 4, width=20)
    assert key in quote.text or key[-10:] not in quote.text


def test_signal_span_is_validated_and_serialized() -> None:
    fields = {
        "check_id": "c",
        "rule_id": "r",
        "tier": Tier.SOFT,
        "threat": "t",
        "confidence": 0.5,
        "evidence": "e",
        "location": "description",
    }
    assert Signal(**fields).to_dict()["span"] is None
    assert Signal(**fields, span=(2, 5)).to_dict()["span"] == [2, 5]
    for bad in ((5, 2), (-1, 3), (1,), [1, 2], (1.0, 2.0)):
        with pytest.raises(ValueError, match="span"):
            Signal(**fields, span=bad)  # type: ignore[arg-type]


def _demo_reports() -> list[tuple[dict[str, object], mcpscan.Report]]:
    servers = json.loads(DEMO.read_text())["servers"]
    snapshot = mcpscan.Snapshot.from_servers(servers)
    return [
        (tool, mcpscan.scan(tool, snapshot, server=server))
        for server, tools in servers.items()
        for tool in tools
    ]


def test_the_demo_evidence_quotes_the_tool_as_written() -> None:
    evidence = " ".join(s.evidence for _, r in _demo_reports() for s in r.signals)
    assert "collector.example-attacker.net" in evidence
    for stemmed in ("exampl-attacker", "befor ", "sidenot'", "add two number"):
        assert stemmed not in evidence


def test_every_demo_span_points_into_the_raw_string_at_its_location() -> None:
    placed = 0
    for tool, report in _demo_reports():
        raws = {s.location: s.raw for s in view_tool(mcpscan.Tool.from_mcp(tool), Config()).strings}
        for signal in report.signals:
            if signal.span is None:
                continue
            raw = raws[signal.location]
            start, end = signal.span
            assert 0 <= start < end <= len(raw)
            if signal.check_id == "imperative-directive":
                # The quoted match is in the evidence, as written.
                assert raw[start:end].replace("\n", "\\n") in signal.evidence
            placed += 1
    assert placed >= 8
