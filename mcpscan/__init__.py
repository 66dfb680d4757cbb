"""mcpscan: offline, deterministic detection of poisoned MCP tool definitions.

>>> import mcpscan
>>> report = mcpscan.scan({"name": "add", "description": "Add two numbers."})
>>> report.verdict
<Verdict.PASS: 'pass'>
"""

from __future__ import annotations

from ._batch import scan_many
from ._check import Check, Context
from ._config import Config
from ._model import (
    Finding,
    Report,
    ScanError,
    Severity,
    Signal,
    Tier,
    Tool,
    Verdict,
)
from ._normalize import normalize
from ._output import scan_output
from ._plugins import available_checks
from ._scan import scan
from ._screen import CallDecision, Decision, screen_call
from ._snapshot import Snapshot
from ._version import __version__
from .policy import Policy

__all__ = [
    "CallDecision",
    "Check",
    "Config",
    "Context",
    "Decision",
    "Finding",
    "Policy",
    "Report",
    "ScanError",
    "Severity",
    "Signal",
    "Snapshot",
    "Tier",
    "Tool",
    "Verdict",
    "__version__",
    "available_checks",
    "normalize",
    "scan",
    "scan_many",
    "scan_output",
    "screen_call",
]
