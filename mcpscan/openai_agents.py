"""Keep poisoned MCP tools away from OpenAI Agents SDK agents (``mcpscan[openai-agents]``).

``ScanFilter`` is a ``tool_filter`` for the SDK's MCP servers
(``MCPServerStdio``, ``MCPServerSse``, ``MCPServerStreamableHttp``): the SDK
asks it about every tool the server lists, and only the tools it keeps are
turned into function tools for the agent::

    from agents import Agent
    from agents.mcp import MCPServerStdio
    from mcpscan.openai_agents import ScanFilter

    notes = MCPServerStdio({"command": "notes-server"}, name="notes", tool_filter=ScanFilter())
    agent = Agent(name="assistant", mcp_servers=[notes])

A QUARANTINE tool is never kept; a REVIEW tool follows ``on_review``
(``"hide"``, ``"warn"`` or a callable given the report), the same policy as
``mcpscan.mcp.guard``. A tool held back is logged on the ``mcpscan``
logger with its name, verdict and rule ids (never evidence). The SDK turns
an exception raised by a filter into "tool excluded", so a definition
mcpscan cannot read is held back as well.

The SDK asks its filter about one tool at a time, so each tool is scanned
with ``snapshot`` (the other servers' tools, for the cross-server checks
such as shadowing) and itself as this server's entry.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from ._config import Config
from ._model import Report
from ._review_policy import OnReview, held_back_message, keeps, validate_on_review
from ._snapshot import Snapshot
from .mcp import scan_tools_result

if TYPE_CHECKING:
    from agents.mcp import ToolFilterContext

__all__ = ["ScanFilter"]

_LOG = logging.getLogger("mcpscan")


@attrs.frozen
class ScanFilter:
    """A ``tool_filter`` that keeps only the tools mcpscan lets a model see.

    ``server`` is this server's id in ``snapshot`` (default: the name the
    SDK gives the server); ``snapshot`` holds the other servers' tools for
    the cross-server checks; ``config`` is the scan ``Config``;
    ``on_review`` says what happens to a REVIEW tool. Bad values raise
    ``ScanError`` naming the parameter.
    """

    server: str | None = None
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None
    config: Config | None = None
    on_review: OnReview = attrs.field(default="hide", converter=validate_on_review)

    def report(self, context: ToolFilterContext, tool: object) -> Report:
        """The report of ``tool`` (an ``mcp.types.Tool``) as this filter scans it."""
        server = self.server if self.server is not None else context.server_name
        (report,) = scan_tools_result(
            {"tools": [tool]}, server=server, snapshot=self.snapshot, config=self.config
        )
        return report

    def __call__(self, context: ToolFilterContext, tool: object) -> bool:
        """Whether the SDK may hand ``tool`` to the agent."""
        report = self.report(context, tool)
        if keeps(report, self.on_review):
            return True
        _LOG.warning("%s", held_back_message(report))
        return False
