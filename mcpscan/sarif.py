"""SARIF 2.1.0 output, for CI code scanning (GitHub, GitLab, Azure DevOps).

One SARIF rule per mcpscan rule id, with its check's docs page as
``helpUri``; one result per signal, with the level from its finding's
severity, the finding fingerprint in ``partialFingerprints``, the tool and
JSON path as a logical location and the (render-safe, redacted) evidence as
message; given the scanned file's text, the evidence's line and column in
that file as the physical location's ``region``. A finding suppressed by a
baseline keeps its results, marked with an external suppression and the
reason.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ._json_positions import SourceMap
from ._model import Finding, Report, Severity, Signal
from ._version import __version__

__all__ = ["DOCS_BASE", "to_sarif"]

#: Where the per-check docs pages are published; each rule's ``helpUri``.
DOCS_BASE = "https://mcpscan.readthedocs.io/en/latest/checks/"
_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# A report's source positions and the JSON path of its tool in that file.
_Where = tuple[SourceMap, str]
_LEVELS = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
}


def _rule(signal: Signal, docs_base: str) -> dict[str, Any]:
    return {
        "id": signal.rule_id,
        "name": signal.rule_id.replace(".", "_"),
        "shortDescription": {"text": f"{signal.rule_id} ({signal.check_id}: {signal.threat})"},
        "helpUri": f"{docs_base}{signal.check_id}/",
        "properties": {"check_id": signal.check_id, "tier": signal.tier.value},
    }


def _finding_of(report: Report, signal: Signal) -> Finding | None:
    for finding in report.findings:
        if signal in finding.signals:
            return finding
    return None


def _location(
    report: Report, signal: Signal, artifact_uri: str | None, where: _Where | None
) -> dict[str, Any]:
    server = report.tool.server or "-"
    location: dict[str, Any] = {
        "logicalLocations": [
            {
                "name": signal.location or report.tool.name,
                "fullyQualifiedName": f"{server}/{report.tool.name}:{signal.location}",
                "kind": "member",
            }
        ]
    }
    if artifact_uri is not None:
        physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri}}
        if where is not None:
            source, tool_path = where
            region = source.region(tool_path, signal.location, signal.span, signal.evidence)
            if region is not None:
                physical["region"] = region.to_sarif()
        location["physicalLocation"] = physical
    return location


def _result(
    report: Report,
    signal: Signal,
    rule_index: int,
    artifact_uri: str | None,
    where: _Where | None,
) -> dict[str, Any]:
    finding = _finding_of(report, signal)
    # A discounted soft signal outside any finding is informational.
    level = _LEVELS[finding.severity] if finding is not None else "none"
    result: dict[str, Any] = {
        "ruleId": signal.rule_id,
        "ruleIndex": rule_index,
        "level": level,
        "message": {"text": signal.evidence or signal.rule_id},
        "locations": [_location(report, signal, artifact_uri, where)],
        "partialFingerprints": {
            "mcpscanFinding/v1": finding.fingerprint if finding is not None else "",
            "mcpscanTool/v1": report.tool.fingerprint,
        },
        "properties": {
            "server": report.tool.server,
            "tool": report.tool.name,
            "verdict": report.verdict.value,
            "confidence": signal.confidence,
            "tier": signal.tier.value,
            "threat": signal.threat,
            # Where the quoted text sits in the string at the logical location.
            "span": None if signal.span is None else list(signal.span),
        },
    }
    if finding is not None and finding.suppressed is not None:
        result["suppressions"] = [{"kind": "external", "justification": finding.suppressed}]
    return result


def _shown_signals(report: Report) -> list[Signal]:
    """The report's signals, then those only a finding holds (the gaps of an
    incomplete scan), so code scanning shows what was not checked."""
    listed = set(report.signals)
    extra = [s for f in report.findings for s in f.signals if s not in listed]
    return [*report.signals, *extra]


def _wheres(reports: Sequence[Report], source_text: str | None) -> list[_Where | None]:
    """Per report, the file's positions and its tool's JSON path there."""
    if source_text is None:
        return [None] * len(reports)
    source = SourceMap(source_text)
    paths = source.tool_paths([(r.tool.server, r.tool.name) for r in reports])
    return [None if path is None else (source, path) for path in paths]


def to_sarif(
    reports: Iterable[Report],
    *,
    artifact_uri: str | None = None,
    docs_base: str = DOCS_BASE,
    source_text: str | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log (a JSON-ready dict) for ``reports``.

    ``artifact_uri`` names the scanned file (code scanning services need a
    physical location to show a result); ``docs_base`` is where the
    per-check pages are published. ``source_text`` is the text of that
    file, the reports being its tools in the file's order: each result then
    gets a ``region`` (1-based lines, columns in Unicode code points) on the
    characters of its evidence in the file, or none where they cannot be
    placed.
    """
    reports = list(reports)
    wheres = _wheres(reports, source_text if artifact_uri is not None else None)
    rules: dict[str, dict[str, Any]] = {}
    for report in reports:
        for signal in _shown_signals(report):
            rules.setdefault(signal.rule_id, _rule(signal, docs_base))
    rule_ids = sorted(rules)
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    results = [
        _result(report, signal, index[signal.rule_id], artifact_uri, where)
        for report, where in zip(reports, wheres, strict=True)
        for signal in _shown_signals(report)
    ]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "mcpscan",
                "version": __version__,
                "informationUri": "https://pypi.org/project/mcpscan/",
                "rules": [rules[rule_id] for rule_id in rule_ids],
            }
        },
        "results": results,
        "columnKind": "unicodeCodePoints",
    }
    if artifact_uri is not None:
        run["artifacts"] = [{"location": {"uri": artifact_uri}}]
    return {"$schema": _SCHEMA, "version": "2.1.0", "runs": [run]}
