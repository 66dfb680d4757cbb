"""Tiny checks whose behaviour the core tests control."""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from mcpscan import Config, Report, Signal, Tier, Verdict
from mcpscan.mcp import UnsafeToolWarning


class FixedCheck:
    """Yields the signals it was built with, re-stamped with its own id."""

    version = "1"

    def __init__(self, check_id: str, *specs: tuple[Tier, float], escalate: bool = False) -> None:
        self.id = check_id
        self.specs = specs
        self.escalate = escalate

    def run(self, tool: object, context: object) -> Iterator[Signal]:
        for index, (tier, confidence) in enumerate(self.specs):
            yield Signal(
                check_id=self.id,
                rule_id=f"{self.id}.rule{index}",
                tier=tier,
                threat="test",
                confidence=confidence,
                evidence=f"evidence {index}",
                location="description",
                escalate=self.escalate,
            )


def soft(check_id: str, confidence: float = 0.6) -> FixedCheck:
    return FixedCheck(check_id, (Tier.SOFT, confidence))


def hard(check_id: str, confidence: float = 0.8, *, escalate: bool = False) -> FixedCheck:
    return FixedCheck(check_id, (Tier.HARD, confidence), escalate=escalate)


def run_docs_page(page: str) -> None:
    """Run every ```python block of ``docs/<page>`` in order, as a reader would.

    Call it from a test that has chdir-ed to a temporary folder: the examples
    may write files.
    """
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / page).read_text(encoding="utf-8")
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        exec(compile(block, f"docs/{page}", "exec"), {})


def assert_doctests_pass(module: object) -> None:
    """The module's docstring examples exist and all pass."""
    import doctest

    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def count_decodings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A one-item list counting the blobs decode-then-confirm decodes:
    counted work that a test can assert where time would flake."""
    from mcpscan.checks import decode_then_confirm

    count = [0]
    original = decode_then_confirm._candidate_decodings

    def counting(candidate: Any) -> Any:
        count[0] += 1
        return original(candidate)

    monkeypatch.setattr(decode_then_confirm, "_candidate_decodings", counting)
    return count


# A user rule that makes the demo server's word_count reviewable: a REVIEW
# verdict that does not depend on how the built-in wording checks evolve.
WORDS_NEED_REVIEW = Config(custom_patterns=[{"name": "needs-review", "regex": "words"}])


class KeepAndRecord:
    """An ``on_review`` callback that keeps every REVIEW tool and records the reports."""

    def __init__(self) -> None:
        self.asked: list[Report] = []

    def __call__(self, report: Report) -> bool:
        self.asked.append(report)
        return True


def review_policies(ask: KeepAndRecord) -> list[dict[str, Any]]:
    """A framework adapter's options for: the default, then word_count hidden, warned, asked."""
    return [
        {},
        {"config": WORDS_NEED_REVIEW},
        {"config": WORDS_NEED_REVIEW, "on_review": "warn"},
        {"config": WORDS_NEED_REVIEW, "on_review": ask},
    ]


@contextlib.contextmanager
def adapter_notices(
    caplog: pytest.LogCaptureFixture,
) -> Iterator[list[warnings.WarningMessage]]:
    """Every warning raised inside, and the adapters' log lines at WARNING in ``caplog``."""
    with (
        caplog.at_level(logging.WARNING, logger="mcpscan"),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        yield caught


def assert_policies_applied(
    offered: list[list[str]],
    ask: KeepAndRecord,
    caught: list[warnings.WarningMessage],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What an agent was offered from the demo server under each of ``review_policies``."""
    default, hidden, warned, by_callback = offered
    # The poisoned tool is QUARANTINE: never offered, whatever the policy.
    assert default == ["add", "word_count"]
    # A REVIEW tool: hidden by default, kept with a warning, or kept when the callback says so.
    assert hidden == ["add"]
    assert warned == by_callback == ["add", "word_count"]
    review_warnings = [w for w in caught if issubclass(w.category, UnsafeToolWarning)]
    assert review_warnings
    assert all("word_count" in str(w.message) for w in review_warnings)
    # The callback is asked about REVIEW tools only; quarantine is never negotiable.
    assert {(r.tool.name, r.tool.server, r.verdict) for r in ask.asked} == {
        ("word_count", "demo", Verdict.REVIEW)
    }
    # Every tool held back is logged: name, verdict and rule ids, never the attacker's text.
    held = [record.getMessage() for record in caplog.records if record.name == "mcpscan"]
    assert any('"sync_settings" held back: quarantine' in line for line in held)
    assert any('"word_count" held back: review' in line for line in held)
    assert not any("mcp.json" in line for line in held)


def described_tool(name: str, description: str, **params: str) -> dict[str, Any]:
    """A tool definition with a description and string parameters, each
    keyword argument a parameter with that description."""
    properties = {key: {"type": "string", "description": text} for key, text in params.items()}
    return {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": properties},
    }


def string_param(description: str | None = None, **extra: Any) -> dict[str, Any]:
    """A JSON-schema string parameter, with its description when given."""
    out: dict[str, Any] = {"type": "string", **extra}
    if description is not None:
        out["description"] = description
    return out


def schema_tool(
    name: str,
    description: str,
    properties: dict[str, Any],
    required: tuple[str, ...] = (),
    **schema: Any,
) -> dict[str, Any]:
    """An MCP tool whose input schema has these properties (and any other
    schema keys given)."""
    return {
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": properties,
            "required": list(required),
            **schema,
        },
    }


_STRING = {"type": "string"}


def scan_described(
    description: str, name: str, params: Mapping[str, object] | None = None
) -> Report:
    """Scan one tool, alone on server "me", with a description and string
    parameters (``city`` when none are given)."""
    import mcpscan

    tool = {
        "name": name,
        "description": description,
        "inputSchema": {
            "type": "object",
            "properties": dict(params or {"city": {"type": "string"}}),
        },
    }
    return mcpscan.scan(tool, {"me": [tool]}, server="me")


def scan_alone(tool: Mapping[str, Any]) -> Report:
    """Scan one tool definition alone on server "svc"."""
    import mcpscan

    return mcpscan.scan(tool, {"svc": [tool]}, server="svc")


def intent_rules(report: Report, tier: Tier | None = None) -> set[str]:
    """The ``intent.*`` rule ids of a report, of one tier when given."""
    return {
        s.rule_id
        for s in report.signals
        if s.rule_id.startswith("intent.") and (tier is None or s.tier is tier)
    }


def declared_signals(tool: Mapping[str, Any]) -> list[Signal]:
    """The ``intent.declared_malicious`` signals of one tool scanned alone
    with an empty snapshot."""
    import mcpscan
    from mcpscan.checks._intent_rules import DECLARED_MALICIOUS

    report = mcpscan.scan(tool, {})
    return [s for s in report.signals if s.rule_id == DECLARED_MALICIOUS]


def rule_tiers(report: Report, rule_id: str) -> set[Tier]:
    """The tiers of the signals one rule gave in a report."""
    return {s.tier for s in report.signals if s.rule_id == rule_id}


def assert_raised(report: Report, rule: str) -> None:
    """An attack's verdict: ``rule`` among the report's intent rules, and
    not a pass."""
    assert rule in intent_rules(report)
    assert report.verdict is not Verdict.PASS


def assert_quarantined(report: Report, rule: str) -> None:
    """A complete attack's verdict: ``rule`` HARD, and quarantined."""
    assert rule in intent_rules(report, Tier.HARD)
    assert report.verdict is Verdict.QUARANTINE


def assert_quiet(report: Report, rules: set[str]) -> None:
    """A look-alike's verdict: none of ``rules`` raised, and not quarantined."""
    assert not intent_rules(report) & rules
    assert report.verdict is not Verdict.QUARANTINE


def reviewable_rules(report: Report, prefix: str = "", *, check_id: str | None = None) -> set[str]:
    """The rule ids of the signals a person would be asked to review: at
    least ``Config.review_min_confidence`` (below it a signal is a discounted
    mention), whose id starts with ``prefix``, of ``check_id`` when given."""
    floor = Config().review_min_confidence
    return {
        s.rule_id
        for s in report.signals
        if s.confidence >= floor and s.rule_id.startswith(prefix) and check_id in (None, s.check_id)
    }
