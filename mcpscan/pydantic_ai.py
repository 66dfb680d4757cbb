"""Keep poisoned MCP tools away from Pydantic AI agents (``mcpscan[pydantic-ai]``).

``ScannedToolset`` wraps any Pydantic AI toolset (an ``MCPToolset`` usually)
and shows the agent only the tools mcpscan keeps::

    from pydantic_ai import Agent
    from pydantic_ai.mcp import MCPToolset
    from mcpscan.pydantic_ai import ScannedToolset

    notes = ScannedToolset(MCPToolset("notes_server.py"), server="notes")
    agent = Agent("openai:gpt-5", toolsets=[notes])

Each time the agent lists its tools, the wrapper scans the listing as the
model will see it (name, description, parameter and return schemas) plus
the MCP annotations the toolset carries, with ``snapshot`` (the other
servers' tools) as ``mcpscan.mcp.guard`` does. A QUARANTINE tool is never
listed; a REVIEW tool follows ``on_review`` (``"hide"``, ``"warn"`` or a
callable given the report), the same policy as ``guard``. A tool held
back is logged on the ``mcpscan`` logger with its name, verdict and rule
ids (never evidence). A definition mcpscan cannot read raises
``ScanError`` rather than reaching the model unscanned.

Importing this module needs Pydantic AI (``pydantic-ai-slim`` or
``pydantic-ai``); without it the ``ImportError`` says which extra to install.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ._config import Config
from ._review_policy import OnReview, held_back_message, keeps, validate_on_review
from ._snapshot import Snapshot
from .mcp import scan_tools_result

try:
    from pydantic_ai import RunContext
    from pydantic_ai.tools import AgentDepsT, ToolDefinition
    from pydantic_ai.toolsets import ToolsetTool, WrapperToolset
except ImportError as error:  # pragma: no cover - the tests run with the extra installed
    raise ImportError(
        "mcpscan.pydantic_ai needs Pydantic AI: install mcpscan[pydantic-ai] "
        "(pip install 'mcpscan[pydantic-ai]')"
    ) from error

__all__ = ["ScannedToolset"]

_LOG = logging.getLogger("mcpscan")
#: The server id when neither ``server`` nor the wrapped toolset's ``id`` gives one.
_DEFAULT_SERVER = "pydantic-ai"


@dataclass
class ScannedToolset(WrapperToolset[AgentDepsT]):
    """A toolset that lists only the wrapped toolset's tools mcpscan keeps.

    ``server`` is the id of these tools in ``snapshot`` (default: the
    wrapped toolset's ``id``); ``snapshot`` holds other servers' tools for
    the cross-server checks; ``config`` is the scan ``Config``;
    ``on_review`` says what happens to a REVIEW tool. A bad ``on_review``
    raises ``ScanError`` naming it.
    """

    server: str | None = None
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None
    config: Config | None = None
    on_review: OnReview = "hide"

    def __post_init__(self) -> None:
        validate_on_review(self.on_review)

    async def get_tools(self, ctx: RunContext[AgentDepsT]) -> dict[str, ToolsetTool[AgentDepsT]]:
        tools = await self.wrapped.get_tools(ctx)
        reports = scan_tools_result(
            {"tools": [_as_mcp(tool.tool_def) for tool in tools.values()]},
            server=self._server_id(),
            snapshot=self.snapshot,
            config=self.config,
        )
        kept: dict[str, ToolsetTool[AgentDepsT]] = {}
        for (name, tool), report in zip(tools.items(), reports, strict=True):
            if keeps(report, self.on_review):
                kept[name] = tool
            else:
                _LOG.warning("%s", held_back_message(report))
        return kept

    def _server_id(self) -> str:
        if self.server is not None:
            return self.server
        wrapped_id = self.wrapped.id
        return wrapped_id if isinstance(wrapped_id, str) and wrapped_id else _DEFAULT_SERVER


def _as_mcp(definition: ToolDefinition) -> dict[str, object]:
    """A tool definition as the MCP mapping ``Tool.from_mcp`` reads.

    Pydantic AI keeps an MCP tool's annotations in ``metadata``; they are
    scanned too, as ``mcpscan.mcp.guard`` scans them. The return schema is
    scanned whether or not the toolset sends it to the model.
    """
    tool: dict[str, object] = {
        "name": definition.name,
        "description": definition.description,
        "inputSchema": definition.parameters_json_schema,
    }
    if definition.return_schema is not None:
        tool["outputSchema"] = definition.return_schema
    annotations = (definition.metadata or {}).get("annotations")
    if isinstance(annotations, Mapping):
        tool["annotations"] = annotations
    return tool
