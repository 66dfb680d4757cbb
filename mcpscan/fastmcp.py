"""mcpscan for FastMCP (``mcpscan[fastmcp]``): a client-side guard and a test helper.

For agent code that talks to servers through ``fastmcp.Client``, wrap the
client: the tools it lists are scanned, only those that may be shown to a
model are returned, and calling a tool that was held back raises::

    from fastmcp import Client
    from mcpscan.fastmcp import GuardedClient

    async with GuardedClient(Client("server.py"), server="notes") as client:
        tools = await client.list_tools()          # poisoned tools are not here
        await client.call_tool("add", {"a": 1, "b": 2})

For server authors, ``assert_server_clean`` fails a test when one of the
server's own tools would be flagged::

    from mcpscan.fastmcp import assert_server_clean
    from my_server import mcp

    def test_no_tool_is_flagged():
        assert_server_clean(mcp)

``fastmcp`` is imported only when a function needs it, so ``import
mcpscan.fastmcp`` works without it; using it without the package raises
``MissingSDKError`` saying to install ``mcpscan[fastmcp]``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ._config import Config
from ._evidence import shown_value
from ._model import Report, ScanError
from ._review_policy import OnReview, validate_on_review
from ._snapshot import Snapshot
from .mcp import Guarded, MissingSDKError, guard, scan_tools_result
from .testing import assert_clean

__all__ = ["GuardedClient", "HeldBackToolError", "assert_server_clean", "scan_fastmcp_server"]


class HeldBackToolError(PermissionError):
    """A tool that mcpscan held back was called; ``report`` says why."""

    def __init__(self, name: str, report: Report | None) -> None:
        self.report = report
        why = "it was not listed" if report is None else f"verdict {report.verdict.value}"
        # The name came from the server or the model: escaped, never raw.
        super().__init__(f"tool {shown_value(name)} is held back by mcpscan ({why})")


def _require_fastmcp() -> Any:
    try:
        import fastmcp  # noqa: PLC0415
    except ImportError as error:
        raise MissingSDKError(
            "mcpscan.fastmcp needs FastMCP: install mcpscan[fastmcp] "
            "(pip install 'mcpscan[fastmcp]')"
        ) from error
    return fastmcp


class GuardedClient:
    """A ``fastmcp.Client`` whose tool list and tool calls pass mcpscan first.

    ``server`` is this server's id in ``snapshot`` (the other servers' tools
    the cross-server checks compare with). QUARANTINE tools are never listed
    nor callable; REVIEW tools follow ``on_review`` (``"hide"``, ``"warn"``
    or a callable given the report, see ``mcpscan.mcp.guard``). Each
    ``list_tools`` lists and scans again, so a server that changes its tools
    mid-session is judged on what it serves now. Everything else is the
    wrapped client's.
    """

    def __init__(
        self,
        client: Any,
        *,
        server: str,
        snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
        config: Config | None = None,
        on_review: OnReview = "hide",
    ) -> None:
        if not isinstance(server, str) or not server:
            raise ScanError("server", f"expected a non-empty server id, got {shown_value(server)}")
        self._client = client
        self._server = server
        self._snapshot = snapshot
        self._config = config
        self._on_review = validate_on_review(on_review)
        self._guarded: Guarded | None = None

    async def __aenter__(self) -> GuardedClient:
        _require_fastmcp()
        await self._client.__aenter__()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._client.__aexit__(*exc_info)

    @property
    def guarded(self) -> Guarded | None:
        """The outcome of the latest listing (None before the first)."""
        return self._guarded

    async def list_tools(self) -> list[Any]:
        """The server's tools that may be shown to a model (``mcp.types.Tool``)."""
        self._guarded = await guard(
            self._client.session,
            server=self._server,
            snapshot=self._snapshot,
            config=self._config,
            on_review=self._on_review,
        )
        return list(self._guarded.tools)

    async def call_tool(
        self, name: str, arguments: dict[str, Any] | None = None, **kwargs: Any
    ) -> Any:
        """Call a tool the latest listing kept; ``HeldBackToolError`` otherwise.

        A tool never listed through this client is refused too: the model
        can name any tool, and only a scanned one may run.
        """
        guarded = self._guarded if self._guarded is not None else await self._relisted()
        if not any(tool.name == name for tool in guarded.tools):
            held = next((r for r in guarded.held_back if r.tool.name == name), None)
            raise HeldBackToolError(name, held)
        return await self._client.call_tool(name, arguments, **kwargs)

    async def _relisted(self) -> Guarded:
        await self.list_tools()
        assert self._guarded is not None  # set by list_tools
        return self._guarded

    def __getattr__(self, name: str) -> Any:
        # Prompts, resources, ping ...: the wrapped client's own.
        return getattr(self._client, name)


async def scan_fastmcp_server(
    server: Any,
    *,
    server_id: str = "test-server",
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> tuple[Report, ...]:
    """Every tool report of ``server`` (a FastMCP server object, or anything
    ``fastmcp.Client`` connects to), listed in memory through the client."""
    fastmcp = _require_fastmcp()
    async with fastmcp.Client(server) as client:
        listed = await client.list_tools()
    return scan_tools_result({"tools": listed}, server=server_id, snapshot=snapshot, config=config)


def assert_server_clean(
    server: Any,
    *,
    fail_on: Literal["review", "quarantine"] = "review",
    server_id: str = "test-server",
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> None:
    """Fail (``AssertionError``) when one of ``server``'s tools would be flagged.

    For a server author's test suite: ``fail_on="review"`` (the default)
    fails on any finding, ``"quarantine"`` only on a hard one. Call it from a
    plain (synchronous) test; inside a running event loop, await
    ``scan_fastmcp_server`` and pass its reports to
    ``mcpscan.testing.assert_clean`` instead.
    """
    reports = asyncio.run(
        scan_fastmcp_server(server, server_id=server_id, snapshot=snapshot, config=config)
    )
    assert_clean(reports, fail_on=fail_on)
