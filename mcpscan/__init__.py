"""mcpscan: offline, deterministic detection of poisoned MCP tool definitions.

>>> import mcpscan
>>> report = mcpscan.scan({"name": "add", "description": "Add two numbers."})
>>> report.verdict
<Verdict.PASS: 'pass'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from ._plugins import available_checks
from ._scan import scan
from ._scanner import Scanner
from ._snapshot import Snapshot
from ._version import __version__

if TYPE_CHECKING:
    from ._batch import scan_many
    from ._output import scan_output
    from ._screen import CallDecision, Decision, screen_call
    from .policy import Policy

# Names loaded on first use (PEP 562): a gateway that only calls scan()
# does not pay for the process pool, the call rules or the policy parser
# at import time.
_LAZY = {
    "scan_many": "._batch",
    "scan_output": "._output",
    "CallDecision": "._screen",
    "Decision": "._screen",
    "screen_call": "._screen",
    "Policy": ".policy",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mcpscan' has no attribute {name!r}")
    import importlib  # noqa: PLC0415

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


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
    "Scanner",
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
