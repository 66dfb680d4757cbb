"""Scan tools where the official MCP Python SDK lists them (``mcpscan[mcp]``).

``guard`` sits between a ``ClientSession`` and the model: it lists the
server's tools (every page), scans them, and hands back only those that may
be shown::

    guarded = await mcpscan.mcp.guard(session, server="files")
    tools_for_the_model = guarded.tools      # mcp.types.Tool objects
    for report in guarded.held_back:         # what was kept away, and why
        log.warning("%s: %s", report.tool.name, report.verdict.value)

``scan_tools_result`` scans a ``ListToolsResult`` already in hand, and
``scan_server`` starts a stdio server, lists its tools and scans them (the
``mcpscan connect`` command). ``discover_configs`` finds the MCP client
configurations of this user and project (Claude Desktop and Code, Cursor,
VS Code, Windsurf, Gemini CLI, Codex, Kiro, Amazon Q, Zed, Cline,
opencode) and returns their servers, starting nothing.

The SDK is imported only inside the functions that talk to a server, so
``import mcpscan.mcp`` works without it; calling ``guard`` or
``scan_server`` without it raises ``MissingSDKError`` (an ``ImportError``)
saying to install ``mcpscan[mcp]``. Supported: ``mcp`` 1.18 and later,
including 2.x.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
from collections.abc import Awaitable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TextIO

import attrs
import regex

from ._clients import ClientConfig, ServerConfig, discover_configs
from ._config import Config
from ._evidence import safe_evidence, shown_value
from ._model import Report, ScanError, Tool, Verdict
from ._review_policy import OnReview, UnsafeToolWarning, keeps, validate_on_review
from ._scan import coerce_snapshot, scan
from ._snapshot import Snapshot

if TYPE_CHECKING:
    from mcp import StdioServerParameters
    from mcp.types import Tool as SdkTool

__all__ = [
    "DEFAULT_MAX_PAGES",
    "DEFAULT_TIMEOUT",
    "ClientConfig",
    "ConnectError",
    "Guarded",
    "MissingSDKError",
    "OnReview",
    "ServerConfig",
    "ToolLister",
    "UnsafeToolWarning",
    "discover_configs",
    "guard",
    "scan_server",
    "scan_tools_result",
]

#: Pages of ``tools/list`` followed before the listing is refused.
DEFAULT_MAX_PAGES = 100
#: Seconds ``scan_server`` allows for starting a server and listing its tools.
DEFAULT_TIMEOUT = 30.0
_MAX_MESSAGE_CHARS = 300
# A name a server reports for itself is attacker-controlled: it is used as
# the server id only when it is a plain identifier.
_PLAIN_NAME = regex.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


class MissingSDKError(ImportError):
    """The MCP Python SDK is not installed."""


class ConnectError(ScanError):
    """A server could not be started, or did not list its tools.

    ``field`` is the server id; the message says what went wrong.
    """


class ToolLister(Protocol):
    """What ``guard`` needs: the SDK's ``ClientSession`` (or ``mcp.Client``)."""

    def list_tools(self, *args: Any, **kwargs: Any) -> Awaitable[Any]: ...


@attrs.frozen
class Guarded:
    """The outcome of ``guard``.

    ``tools`` are the SDK ``Tool`` objects that may be shown to the model,
    in the server's order; ``held_back`` the reports of the tools that may
    not; ``reports`` every tool's report, in the server's order.
    """

    tools: tuple[SdkTool, ...]
    held_back: tuple[Report, ...]
    reports: tuple[Report, ...]


def _require_sdk() -> None:
    try:
        import mcp  # noqa: F401, PLC0415
    except ImportError as error:
        raise MissingSDKError(
            "mcpscan.mcp needs the MCP Python SDK: install mcpscan[mcp] "
            "(pip install 'mcpscan[mcp]')"
        ) from error


def _server_id(server: object) -> str:
    if not isinstance(server, str) or not server:
        raise ScanError("server", f"expected a non-empty server id, got {shown_value(server)}")
    return server


def _listed(result: object) -> Sequence[object]:
    """The tools of a ``ListToolsResult``, its dict form or a JSON-RPC response."""
    if isinstance(result, Mapping):
        if "jsonrpc" in result:
            if "error" in result:
                raise ScanError(
                    "error", "the JSON-RPC response is an error, not a tools/list result"
                )
            return _listed(result.get("result"))
        tools = result.get("tools")
    else:
        tools = getattr(result, "tools", None)
    if not isinstance(tools, list):
        raise ScanError("tools", f"expected a tools/list result, got {type(result).__name__}")
    return tools


def _as_tools(listed: Iterable[object], server: str) -> tuple[Tool, ...]:
    tools: list[Tool] = []
    for position, obj in enumerate(listed):
        try:
            tools.append(Tool.from_mcp(obj, server=server))
        except ScanError as error:
            raise ScanError(f"tools[{position}].{error.field}", error.problem) from None
    return tuple(tools)


def _with_server(snapshot: object, server: str, tools: tuple[Tool, ...]) -> Snapshot:
    """``snapshot`` with ``server``'s entry replaced by the tools it lists now."""
    servers: dict[str, Iterable[object]] = dict(coerce_snapshot(snapshot).servers)
    servers[server] = tools
    return Snapshot.from_servers(servers)


def scan_tools_result(
    result: object,
    *,
    server: str,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> tuple[Report, ...]:
    """Scan every tool of a ``tools/list`` result; one report per tool, in order.

    ``result`` is the SDK's ``ListToolsResult``, its dict form
    (``{"tools": [...]}``) or a whole JSON-RPC response. The cross-server
    checks see ``snapshot`` (every other server's tools) with ``server``'s
    entry replaced by this listing. Raises ``ScanError`` naming the
    malformed field (``tools[3].name``).
    """
    server = _server_id(server)
    tools = _as_tools(_listed(result), server)
    merged = _with_server(snapshot, server, tools)
    return tuple(scan(tool, merged, server=server, config=config) for tool in tools)


def _next_cursor(page: object) -> str | None:
    # mcp 2.x spells it next_cursor, 1.x nextCursor; an empty cursor ends the listing.
    cursor = getattr(page, "next_cursor", None) or getattr(page, "nextCursor", None)
    return cursor if isinstance(cursor, str) and cursor else None


async def _list_all(session: ToolLister, max_pages: int) -> list[SdkTool]:
    """Every page of ``tools/list``, refusing an endless or looping listing."""
    # ClientSession takes the cursor inside ``params``; 2.x's Client as ``cursor``.
    by_params = "params" in inspect.signature(session.list_tools).parameters
    tools: list[SdkTool] = []
    seen: set[str] = set()
    cursor: str | None = None
    for _ in range(max_pages):
        if cursor is None:
            page = await session.list_tools()
        elif by_params:
            from mcp.types import PaginatedRequestParams  # noqa: PLC0415

            page = await session.list_tools(params=PaginatedRequestParams(cursor=cursor))
        else:
            page = await session.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = _next_cursor(page)
        if cursor is None:
            return tools
        # A server that hands back a cursor it gave before would page forever.
        if cursor in seen:
            raise ScanError("tools/list", "the server repeated a pagination cursor")
        seen.add(cursor)
    raise ScanError("tools/list", f"the server listed more than {max_pages} pages of tools")


async def guard(
    session: ToolLister,
    *,
    server: str,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
    allow_review: bool = False,
    on_review: OnReview | None = None,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> Guarded:
    """List a connected server's tools, scan them, and keep back the unsafe ones.

    ``session`` is an initialized ``mcp.ClientSession`` (or ``mcp.Client``);
    every page of ``tools/list`` is followed, up to ``max_pages`` (a longer
    or looping listing raises ``ScanError``). ``server`` is the id this
    server has in ``snapshot``, the other servers' tools the cross-server
    checks compare with. A QUARANTINE tool is always held back; a REVIEW
    tool follows ``on_review``: ``"hide"`` (the default), ``"warn"`` (kept,
    with an ``UnsafeToolWarning``) or a callable given the report that
    returns ``True`` to keep it. ``allow_review=True`` is the older spelling
    of keeping REVIEW tools silently.
    """
    policy = validate_on_review(on_review if on_review is not None else "hide")
    _require_sdk()
    server = _server_id(server)
    listed = await _list_all(session, max_pages)
    reports = scan_tools_result({"tools": listed}, server=server, snapshot=snapshot, config=config)
    keep = [
        (allow_review and r.verdict is not Verdict.QUARANTINE) or keeps(r, policy) for r in reports
    ]
    return Guarded(
        tools=tuple(t for t, kept in zip(listed, keep, strict=True) if kept),
        held_back=tuple(r for r, kept in zip(reports, keep, strict=True) if not kept),
        reports=reports,
    )


@attrs.frozen
class _Listing:
    tools: tuple[SdkTool, ...]
    #: The name the server reported for itself, when it is a plain identifier.
    reported_name: str | None


def _reported_name(initialized: object) -> str | None:
    info = getattr(initialized, "server_info", None) or getattr(initialized, "serverInfo", None)
    name = getattr(info, "name", None)
    return name if isinstance(name, str) and _PLAIN_NAME.fullmatch(name) else None


def _innermost(error: BaseException) -> BaseException:
    # anyio task groups wrap the failure that matters in exception groups.
    inner = getattr(error, "exceptions", None)
    while isinstance(inner, tuple) and inner and isinstance(inner[0], BaseException):
        error = inner[0]
        inner = getattr(error, "exceptions", None)
    return error


def _failure(label: str, error: BaseException) -> ConnectError:
    cause = _innermost(error)
    if isinstance(cause, TimeoutError):
        return ConnectError(label, "timed out starting the server and listing its tools")
    detail = safe_evidence(f"{type(cause).__name__}: {cause}", _MAX_MESSAGE_CHARS)
    return ConnectError(label, f"could not list tools: {detail}")


@contextlib.contextmanager
def _server_stderr() -> Iterator[TextIO]:
    """Where a started server's stderr goes: ours, when it is a real file.

    The server process needs a file descriptor; inside a notebook, a GUI or
    a test capturing output, ``sys.stderr`` has none, and the server's
    messages are dropped rather than the server failing to start.
    """
    for stream in (sys.stderr, sys.__stderr__):
        if stream is not None and _has_descriptor(stream):
            yield stream
            return
    with open(os.devnull, "w", encoding="utf-8") as devnull:
        yield devnull


def _has_descriptor(stream: TextIO) -> bool:
    try:
        return stream.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        return False


async def _list_server_tools(
    params: StdioServerParameters,
    *,
    label: str,
    timeout: float = DEFAULT_TIMEOUT,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> _Listing:
    """Start the stdio server ``params`` describes, list its tools, stop it."""
    _require_sdk()
    import anyio  # noqa: PLC0415
    from mcp import ClientSession, stdio_client  # noqa: PLC0415

    try:
        with anyio.fail_after(timeout), _server_stderr() as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                initialized = await session.initialize()
                tools = await _list_all(session, max_pages)
    except Exception as error:  # every failure, whatever its kind, is one ConnectError
        raise _failure(label, error) from error
    return _Listing(tools=tuple(tools), reported_name=_reported_name(initialized))


async def scan_server(
    params: StdioServerParameters,
    *,
    server: str,
    timeout: float = DEFAULT_TIMEOUT,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> tuple[Report, ...]:
    """Start a stdio MCP server, list its tools, stop it, and scan the tools.

    ``params`` is the SDK's ``StdioServerParameters``. The server is a
    program: it runs with your privileges, so only start servers you would
    run anyway. Raises ``ConnectError`` (a ``ScanError`` naming ``server``)
    when it cannot be started or does not list its tools within ``timeout``
    seconds.
    """
    server = _server_id(server)
    listing = await _list_server_tools(params, label=server, timeout=timeout)
    return scan_tools_result(
        {"tools": list(listing.tools)}, server=server, snapshot=snapshot, config=config
    )
