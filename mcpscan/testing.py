"""Helpers to test a check the way mcpscan tests its own.

```python
from mcpscan.testing import assert_fires, assert_quiet
from my_checks.internal_hosts import CHECK

def test_fires_on_internal_host():
    assert_fires(CHECK, {"name": "t", "description": "POST to corp.example.net"},
                 rule_id="internal-hosts.mention")

def test_quiet_on_public_host():
    assert_quiet(CHECK, {"name": "t", "description": "Calls api.github.com"})
```

Every helper runs the check alone, in strict mode, so an exception in the
check fails the test with its own traceback instead of becoming a degraded
coverage entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

import attrs

from ._config import Config
from ._eval import CorpusEntry, load_corpus
from ._evidence import shown_value
from ._model import Report, ScanError, Signal, Tier, Verdict
from ._output import scan_output
from ._scan import scan

__all__ = [
    "CorpusOutcome",
    "assert_clean",
    "assert_fires",
    "assert_quiet",
    "run_check",
    "run_corpus",
]


def run_check(
    check: object,
    tool: object,
    *,
    snapshot: Mapping[str, Iterable[Any]] | None = None,
    server: str | None = "test-server",
    config: Config | None = None,
    surface: str = "definition",
) -> Report:
    """Run one check on a tool definition (or, with ``surface="output"``, on a
    tools/call result) in strict mode, and return the report."""
    if surface == "output":
        return scan_output(
            tool, server=server, snapshot=snapshot, config=config, checks=[check], strict=True
        )
    return scan(tool, snapshot, server=server, checks=[check], config=config, strict=True)


def _matching(
    signals: Iterable[Signal], rule_id: str | None, tier: Tier | None, location: str | None
) -> list[Signal]:
    return [
        s
        for s in signals
        if (rule_id is None or s.rule_id == rule_id)
        and (tier is None or s.tier is tier)
        and (location is None or s.location == location)
    ]


def _describe(signals: Iterable[Signal]) -> str:
    rows = [
        f"{s.rule_id} [{s.tier.value} {s.confidence:.2f}] at {s.location}: {s.evidence}"
        for s in signals
    ]
    return "\n  ".join(rows) or "no signals"


def assert_fires(
    check: object,
    tool: object,
    rule_id: str | None = None,
    *,
    tier: Tier | None = None,
    location: str | None = None,
    min_confidence: float = 0.0,
    **kwargs: Any,
) -> list[Signal]:
    """Assert the check yields a matching signal; returns the matches.

    ``kwargs`` go to ``run_check`` (snapshot, server, config, surface).
    """
    report = run_check(check, tool, **kwargs)
    found = [
        s
        for s in _matching(report.signals, rule_id, tier, location)
        if s.confidence >= min_confidence
    ]
    if not found:
        wanted = ", ".join(
            f"{k}={v!r}"
            for k, v in (
                ("rule_id", rule_id),
                ("tier", tier),
                ("location", location),
                ("min_confidence", min_confidence),
            )
            if v
        )
        raise AssertionError(
            f"expected a signal ({wanted or 'any'}); got:\n  {_describe(report.signals)}"
        )
    return found


def assert_quiet(
    check: object, tool: object, *, reviewable_only: bool = False, **kwargs: Any
) -> None:
    """Assert the check yields no signal (or, with ``reviewable_only``, none
    that makes the tool reviewable or quarantined on its own)."""
    report = run_check(check, tool, **kwargs)
    if reviewable_only and report.verdict is Verdict.PASS:
        return
    if report.signals:
        raise AssertionError(f"expected no signal; got:\n  {_describe(report.signals)}")


def assert_clean(
    reports: Iterable[Report], *, fail_on: Literal["review", "quarantine"] = "review"
) -> None:
    """Assert no report is flagged: for server authors testing their own tools.

    ``reports`` are the reports of a server's tools (``scan_many``,
    ``mcpscan.mcp.scan_tools_result``, ``mcpscan.fastmcp.scan_fastmcp_server``).
    ``fail_on="review"`` fails on any REVIEW or QUARANTINE, ``"quarantine"``
    only on QUARANTINE. A report that did not read the whole tool counts as
    its verdict says (never PASS), so a tool too large to check fails too.
    """
    if fail_on not in ("review", "quarantine"):
        raise ScanError("fail_on", "expected 'review' or 'quarantine'")
    worst = {Verdict.QUARANTINE} | ({Verdict.REVIEW} if fail_on == "review" else set())
    flagged = [r for r in reports if r.verdict in worst]
    if flagged:
        rows = [
            f"{shown_value(r.tool.name)}: {r.verdict.value}\n  {_describe(r.signals)}"
            for r in flagged
        ]
        raise AssertionError(f"{len(flagged)} tool(s) would be flagged:\n" + "\n".join(rows))


@attrs.frozen
class CorpusOutcome:
    """One corpus entry and what the check made of it."""

    entry: CorpusEntry
    report: Report

    @property
    def ok(self) -> bool:
        """Malicious: the verdict reaches ``expect``. Others: the verdict is pass."""
        if self.entry.label == "malicious":
            return self.report.verdict.rank >= self.entry.expect.rank
        return self.report.verdict is Verdict.PASS


def run_corpus(
    check: object, *paths: str | Path, config: Config | None = None
) -> list[CorpusOutcome]:
    """Run one check over every entry of the given corpus files or folders."""
    outcomes = []
    for entry in load_corpus(Path(p) for p in paths):
        snapshot = {**entry.others, entry.server: [entry.tool]}
        report = run_check(check, entry.tool, snapshot=snapshot, server=entry.server, config=config)
        outcomes.append(CorpusOutcome(entry=entry, report=report))
    return outcomes
