"""Baselines: findings a team has reviewed and accepted.

A baseline is a JSON file listing finding fingerprints, each with the reason
it was accepted::

    {"format": "mcpscan-baseline", "version": 1,
     "suppressions": [{"fingerprint": "mcpscan-f1:...", "reason": "...",
                       "tool": "server/name", "rule_ids": ["..."]}]}

Applying it never drops a finding: a suppressed finding stays in the report
with ``Finding.suppressed`` set to the reason, and only the verdict and
severity are computed from the findings that still count. A finding's
fingerprint changes when its signals change, so a tool that gains a new
problem after it was baselined is reported again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from ._evidence import shown_value
from ._model import Report, ScanError, Tier, Verdict

__all__ = ["Baseline"]

_FORMAT = "mcpscan-baseline"
_VERSION = 1


def _verdict(report: Report) -> tuple[Verdict, Any]:
    counting = [f for f in report.findings if f.suppressed is None]
    if any(f.tier is Tier.HARD for f in counting):
        verdict = Verdict.QUARANTINE
    elif counting:
        verdict = Verdict.REVIEW
    else:
        verdict = Verdict.PASS
    return verdict, max((f.severity for f in counting), default=None)


@attrs.frozen
class Baseline:
    """Accepted finding fingerprints and why each was accepted."""

    reasons: Mapping[str, str] = attrs.field(factory=dict)
    entries: tuple[Mapping[str, Any], ...] = ()

    @classmethod
    def from_reports(
        cls, reports: Iterable[Report], reason: str = "accepted when the baseline was written"
    ) -> Baseline:
        """A baseline accepting every finding of ``reports``."""
        entries: list[dict[str, Any]] = []
        for report in reports:
            for finding in report.findings:
                entries.append(
                    {
                        "fingerprint": finding.fingerprint,
                        "reason": reason,
                        "tool": f"{report.tool.server}/{report.tool.name}",
                        "rule_ids": sorted({s.rule_id for s in finding.signals}),
                    }
                )
        entries.sort(key=lambda e: (e["tool"], e["fingerprint"]))
        return cls(reasons={e["fingerprint"]: e["reason"] for e in entries}, entries=tuple(entries))

    @classmethod
    def from_mapping(cls, value: object) -> Baseline:
        if not isinstance(value, Mapping) or value.get("format") != _FORMAT:
            raise ScanError("baseline", f"not an {_FORMAT} file")
        if value.get("version") != _VERSION:
            raise ScanError(
                "baseline.version", f"unsupported version {shown_value(value.get('version'))}"
            )
        suppressions = value.get("suppressions")
        if not isinstance(suppressions, list):
            raise ScanError("baseline.suppressions", "expected a list")
        reasons: dict[str, str] = {}
        for index, entry in enumerate(suppressions):
            where = f"baseline.suppressions[{index}]"
            if not isinstance(entry, Mapping):
                raise ScanError(where, "expected an object")
            fingerprint, reason = entry.get("fingerprint"), entry.get("reason")
            if not isinstance(fingerprint, str) or not fingerprint:
                raise ScanError(f"{where}.fingerprint", "expected a non-empty string")
            if not isinstance(reason, str) or not reason.strip():
                raise ScanError(f"{where}.reason", "every suppression needs a reason")
            reasons[fingerprint] = reason
        return cls(reasons=reasons, entries=tuple(dict(e) for e in suppressions))

    @classmethod
    def load(cls, path: str | Path) -> Baseline:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise ScanError("baseline", f"cannot read {path}: {error.strerror or error}") from None
        try:
            value = json.loads(text)
        except ValueError as error:
            raise ScanError("baseline", f"{path} is not valid JSON: {error}") from None
        return cls.from_mapping(value)

    def to_json(self) -> str:
        payload = {"format": _FORMAT, "version": _VERSION, "suppressions": list(self.entries)}
        return json.dumps(payload, sort_keys=True, indent=2, ensure_ascii=True) + "\n"

    def apply(self, report: Report) -> Report:
        """The report with baselined findings marked suppressed (never removed)."""
        if not any(f.fingerprint in self.reasons for f in report.findings):
            return report
        findings = tuple(
            attrs.evolve(f, suppressed=self.reasons[f.fingerprint])
            if f.fingerprint in self.reasons
            else f
            for f in report.findings
        )
        marked = attrs.evolve(report, findings=findings)
        verdict, severity = _verdict(marked)
        return attrs.evolve(marked, verdict=verdict, severity=severity)
