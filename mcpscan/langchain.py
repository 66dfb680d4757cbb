"""mcpscan for LangChain (``mcpscan[langchain]``): load MCP tools through the scanner.

Drop-in for ``langchain-mcp-adapters``: the same calls, with the tools that
may not be shown to a model left out of the list::

    from langchain_mcp_adapters.client import MultiServerMCPClient
    from mcpscan.langchain import get_tools

    client = MultiServerMCPClient({"notes": {"command": "python", "args": ["notes.py"],
                                             "transport": "stdio"}})
    tools = await get_tools(client)              # instead of client.get_tools()

``get_tools`` lists every server first and scans each tool against all of
them, so a tool that shadows or reaches into another server's tool is seen
as such. ``load_mcp_tools(session, server=...)`` does the same for one
``ClientSession`` you already hold. QUARANTINE tools are always left out;
REVIEW tools follow ``on_review`` (``"hide"``, ``"warn"`` or a callable
given the report, see ``mcpscan.mcp.guard``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._config import Config
from ._model import Tool
from ._review_policy import OnReview, keeps, validate_on_review
from ._scan import coerce_snapshot
from ._snapshot import Snapshot
from .mcp import DEFAULT_MAX_PAGES, MissingSDKError, _list_all, guard, scan_tools_result

__all__ = ["get_tools", "load_mcp_tools"]


def _adapters() -> Any:
    try:
        from langchain_mcp_adapters import tools  # noqa: PLC0415
    except ImportError as error:
        raise MissingSDKError(
            "mcpscan.langchain needs langchain-mcp-adapters: install mcpscan[langchain] "
            "(pip install 'mcpscan[langchain]')"
        ) from error
    return tools


async def load_mcp_tools(
    session: Any,
    *,
    server: str,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
    on_review: OnReview = "hide",
    **adapter_options: Any,
) -> list[Any]:
    """``langchain_mcp_adapters.tools.load_mcp_tools`` for the tools mcpscan keeps.

    ``session`` is an initialized ``mcp.ClientSession``; ``server`` its id in
    ``snapshot`` (also passed to the adapter as ``server_name``).
    ``adapter_options`` go to ``convert_mcp_tool_to_langchain_tool``
    (``callbacks``, ``tool_interceptors``, ``tool_name_prefix`` ...).
    """
    adapters = _adapters()
    guarded = await guard(
        session, server=server, snapshot=snapshot, config=config, on_review=on_review
    )
    return [
        adapters.convert_mcp_tool_to_langchain_tool(
            session, tool, server_name=server, **adapter_options
        )
        for tool in guarded.tools
    ]


async def get_tools(
    client: Any,
    *,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
    on_review: OnReview = "hide",
) -> list[Any]:
    """``MultiServerMCPClient.get_tools()`` for the tools mcpscan keeps.

    Every server of ``client`` is listed, then each tool is scanned with all
    of them (and ``snapshot``'s other servers) in view. The tools returned
    open their own session per call, as the client's own ``get_tools`` does.
    """
    adapters = _adapters()
    policy = validate_on_review(on_review)
    listed: dict[str, list[Any]] = {}
    for name in client.connections:
        async with client.session(name) as session:
            listed[name] = await _list_all(session, DEFAULT_MAX_PAGES)
    servers: dict[str, Iterable[object]] = dict(coerce_snapshot(snapshot).servers)
    for name, tools in listed.items():
        servers[name] = [Tool.from_mcp(tool, server=name) for tool in tools]
    merged = Snapshot.from_servers(servers)
    kept: list[Any] = []
    for name, tools in listed.items():
        reports = scan_tools_result({"tools": tools}, server=name, snapshot=merged, config=config)
        kept.extend(
            adapters.convert_mcp_tool_to_langchain_tool(
                None,
                tool,
                connection=client.connections[name],
                callbacks=client.callbacks,
                tool_interceptors=client.tool_interceptors,
                server_name=name,
                tool_name_prefix=client.tool_name_prefix,
                handle_tool_errors=client.handle_tool_errors,
            )
            for tool, report in zip(tools, reports, strict=True)
            if keeps(report, policy)
        )
    return kept
