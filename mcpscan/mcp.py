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
import urllib.parse
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
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
from ._surfaces import surface_tools

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
    "scan_remote",
    "scan_server",
    "scan_surface",
    "scan_tools_result",
]

#: Pages of ``tools/list`` followed before the listing is refused.
DEFAULT_MAX_PAGES = 100
#: Seconds ``scan_server`` allows for starting a server and listing its tools.
DEFAULT_TIMEOUT = 30.0
_MAX_MESSAGE_CHARS = 300
# Header values shorter than this are not masked in messages: masking "1"
# would garble the message and hide nothing.
_MIN_MASKED = 4
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
    in the server's order; ``held_back`` the reports of what may not;
    ``reports`` every report: tools, prompts, resources, resource templates,
    then the instructions, each in the server's order (``report.tool.kind``
    says which). ``prompts``, ``resources`` and ``resource_templates`` are
    the SDK objects that may be shown; ``instructions`` the server's
    instructions, or ``None`` when it gave none or they were held back.
    """

    tools: tuple[SdkTool, ...]
    held_back: tuple[Report, ...]
    reports: tuple[Report, ...]
    prompts: tuple[Any, ...] = ()
    resources: tuple[Any, ...] = ()
    resource_templates: tuple[Any, ...] = ()
    instructions: str | None = None


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
    # Asking 2.x models for the 1.x spelling warns (FastMCP re-exports them so).
    spelling = "next_cursor" if hasattr(page, "next_cursor") else "nextCursor"
    cursor = getattr(page, spelling, None)
    return cursor if isinstance(cursor, str) and cursor else None


async def _list_all(session: ToolLister, max_pages: int) -> list[SdkTool]:
    """Every page of ``tools/list``, refusing an endless or looping listing."""
    tools: list[SdkTool] = await _pages(session.list_tools, _TOOLS, max_pages)
    return tools


@attrs.frozen
class _Listed:
    """One ``*/list`` method: the session's method, the result's key, its name."""

    method: str
    #: The attribute of the result page (mcp 2.x snake_case, then 1.x camelCase).
    keys: tuple[str, ...]
    wire: str
    #: The server capability that announces it (None: always asked).
    capability: str | None = None


_TOOLS = _Listed("list_tools", ("tools",), "tools/list")
_OPTIONAL_LISTINGS = (
    _Listed("list_prompts", ("prompts",), "prompts/list", "prompts"),
    _Listed("list_resources", ("resources",), "resources/list", "resources"),
    _Listed(
        "list_resource_templates",
        ("resource_templates", "resourceTemplates"),
        "resources/templates/list",
        "resources",
    ),
)
#: JSON-RPC's "method not found": a server without prompts or resources.
_METHOD_NOT_FOUND = -32601


def _items(page: object, listed: _Listed) -> list[Any]:
    for key in listed.keys:
        items = getattr(page, key, None)
        if isinstance(items, list):
            return items
    raise ScanError(listed.wire, f"expected a {listed.wire} result, got {type(page).__name__}")


async def _pages(
    list_page: Callable[..., Awaitable[Any]], listed: _Listed, max_pages: int
) -> list[Any]:
    """Every page of one ``*/list`` method, refusing an endless or looping listing."""
    # ClientSession takes the cursor inside ``params``; 2.x's Client as ``cursor``.
    by_params = "params" in inspect.signature(list_page).parameters
    items: list[Any] = []
    seen: set[str] = set()
    cursor: str | None = None
    for _ in range(max_pages):
        if cursor is None:
            page = await list_page()
        elif by_params:
            from mcp.types import PaginatedRequestParams  # noqa: PLC0415

            page = await list_page(params=PaginatedRequestParams(cursor=cursor))
        else:
            page = await list_page(cursor=cursor)
        items.extend(_items(page, listed))
        cursor = _next_cursor(page)
        if cursor is None:
            return items
        # A server that hands back a cursor it gave before would page forever.
        if cursor in seen:
            raise ScanError(listed.wire, "the server repeated a pagination cursor")
        seen.add(cursor)
    raise ScanError(listed.wire, f"the server listed more than {max_pages} pages")


def _capabilities(session: object) -> object:
    """The server's capabilities as the session knows them (None: unknown)."""
    # mcp 2.x: a property; 1.x: a method.
    with contextlib.suppress(Exception):
        caps = getattr(session, "server_capabilities", None)
        if caps is not None and not callable(caps):
            return caps
        getter = getattr(session, "get_server_capabilities", None)
        if callable(getter):
            return getter()
    return None


def _method_not_found(error: BaseException) -> bool:
    cause = _innermost(error)
    code = getattr(getattr(cause, "error", None), "code", None)
    return code == _METHOD_NOT_FOUND


async def _optional_pages(session: object, listed: _Listed, max_pages: int) -> list[Any]:
    """A listing a server need not support: empty when it does not.

    A server that does not announce the capability, a session without the
    method (an older client), or a server answering "method not found" has
    nothing there to scan; any other failure is raised, since a listing
    that broke half-way was not checked.
    """
    list_page = getattr(session, listed.method, None)
    if not callable(list_page):
        return []
    caps = _capabilities(session)
    if caps is not None and listed.capability and getattr(caps, listed.capability, None) is None:
        return []
    try:
        return await _pages(list_page, listed, max_pages)
    except Exception as error:
        if _method_not_found(error):
            return []
        raise


@attrs.frozen
class _Surface:
    """What a server shows a model besides its tools, as the SDK listed it."""

    prompts: tuple[Any, ...] = ()
    resources: tuple[Any, ...] = ()
    resource_templates: tuple[Any, ...] = ()
    instructions: str | None = None


async def _list_rest(session: object, max_pages: int, instructions: object) -> _Surface:
    prompts, resources, templates = [
        tuple(await _optional_pages(session, listed, max_pages)) for listed in _OPTIONAL_LISTINGS
    ]
    return _Surface(
        prompts=prompts,
        resources=resources,
        resource_templates=templates,
        instructions=instructions if isinstance(instructions, str) and instructions else None,
    )


def _session_instructions(session: object) -> object:
    """The ``instructions`` of the session's initialize result, when it kept them."""
    with contextlib.suppress(Exception):
        text = getattr(session, "instructions", None)
        if isinstance(text, str):
            return text
        result = getattr(session, "initialize_result", None)
        return getattr(result, "instructions", None)
    return None


def scan_surface(
    *,
    server: str,
    tools: Iterable[Any] = (),
    prompts: Iterable[Any] = (),
    resources: Iterable[Any] = (),
    resource_templates: Iterable[Any] = (),
    instructions: str | None = None,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> tuple[Report, ...]:
    """Scan everything a server shows a model; one report each, in that order.

    ``tools``, ``prompts``, ``resources`` and ``resource_templates`` are
    what ``tools/list``, ``prompts/list``, ``resources/list`` and
    ``resources/templates/list`` returned (SDK objects or their mappings);
    ``instructions`` the string of the initialize result. Each is scanned
    with the same checks and placed in its report by ``report.tool.name``:
    the tool's name, ``prompt:<name>``, ``resource:<uri>`` (templates too)
    and ``server:instructions``. The cross-server checks see ``snapshot``
    with ``server``'s entry replaced by ``tools``. Raises ``ScanError``
    naming the malformed entry (``prompts[2].name``).
    """
    server = _server_id(server)
    listed = _as_tools(tools, server)
    rest = surface_tools(
        server,
        prompts=prompts,
        resources=resources,
        resource_templates=resource_templates,
        instructions=instructions,
    )
    merged = _with_server(snapshot, server, listed)
    return tuple(scan(tool, merged, server=server, config=config) for tool in listed + rest)


async def guard(
    session: ToolLister,
    *,
    server: str,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
    allow_review: bool = False,
    on_review: OnReview | None = None,
    max_pages: int = DEFAULT_MAX_PAGES,
    instructions: str | None = None,
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

    The rest of what the server shows a model is listed and judged the
    same way: prompts, resources and resource templates (when the server
    announces them; "method not found" counts as none) and the server's
    ``instructions`` (read from the session, or given as ``instructions``
    with an SDK whose session does not keep them). ``Guarded.prompts``,
    ``resources`` and ``resource_templates`` hold what may be shown, and
    ``Guarded.instructions`` is ``None`` when they were held back.
    """
    policy = validate_on_review(on_review if on_review is not None else "hide")
    _require_sdk()
    server = _server_id(server)
    listed = await _list_all(session, max_pages)
    given = instructions if instructions is not None else _session_instructions(session)
    rest = await _list_rest(session, max_pages, given)
    reports = scan_surface(
        server=server,
        tools=listed,
        prompts=rest.prompts,
        resources=rest.resources,
        resource_templates=rest.resource_templates,
        instructions=rest.instructions,
        snapshot=snapshot,
        config=config,
    )
    keep = [
        (allow_review and r.verdict is not Verdict.QUARANTINE) or keeps(r, policy) for r in reports
    ]
    # The reports come in scan_surface's order; each part takes its own in turn.
    kept = iter(keep)
    tools = _kept(listed, kept)
    prompts = _kept(rest.prompts, kept)
    resources = _kept(rest.resources, kept)
    templates = _kept(rest.resource_templates, kept)
    instructions = rest.instructions if rest.instructions is not None and next(kept) else None
    return Guarded(
        tools=tools,
        held_back=tuple(r for r, k in zip(reports, keep, strict=True) if not k),
        reports=reports,
        prompts=prompts,
        resources=resources,
        resource_templates=templates,
        instructions=instructions,
    )


def _kept(items: Iterable[Any], keep: Iterator[bool]) -> tuple[Any, ...]:
    """The items whose verdicts (taken from ``keep`` in step) allow them."""
    return tuple(item for item in items if next(keep))


@attrs.frozen
class _Listing:
    tools: tuple[SdkTool, ...]
    #: The name the server reported for itself, when it is a plain identifier.
    reported_name: str | None
    #: Its prompts, resources and instructions.
    surface: _Surface = _Surface()


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
    from mcp import stdio_client  # noqa: PLC0415

    try:
        with anyio.fail_after(timeout), _server_stderr() as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                return await _connected_listing(read, write, max_pages)
    except Exception as error:  # every failure, whatever its kind, is one ConnectError
        raise _failure(label, error) from error


async def _connected_listing(read: Any, write: Any, max_pages: int) -> _Listing:
    """Initialize a session over open streams and list everything."""
    from mcp import ClientSession  # noqa: PLC0415

    async with ClientSession(read, write) as session:
        initialized = await session.initialize()
        tools = await _list_all(session, max_pages)
        rest = await _list_rest(session, max_pages, initialized.instructions)
    return _Listing(tools=tuple(tools), reported_name=_reported_name(initialized), surface=rest)


@contextlib.asynccontextmanager
async def _streamable_http(url: str, headers: Mapping[str, str]) -> AsyncIterator[Any]:
    """The SDK's Streamable HTTP transport, sending ``headers`` on every request."""
    from mcp.client import streamable_http  # noqa: PLC0415

    opener = getattr(streamable_http, "streamable_http_client", None)
    if opener is None:  # pragma: no cover - mcp 1.x before streamable_http_client
        legacy = getattr(streamable_http, "streamablehttp_client")  # noqa: B009
        async with legacy(url, headers=dict(headers)) as streams:
            yield streams
        return
    # mcp 2.x (and late 1.x): headers go on an HTTP client we own and close.
    from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: PLC0415

    async with (
        create_mcp_http_client(headers=dict(headers)) as client,
        opener(url, http_client=client) as streams,
    ):
        yield streams


@contextlib.asynccontextmanager
async def _sse(url: str, headers: Mapping[str, str]) -> AsyncIterator[Any]:
    from mcp.client.sse import sse_client  # noqa: PLC0415

    async with sse_client(url, headers=dict(headers)) as streams:
        yield streams


#: Tried in order: the current transport, then the one it replaced.
_HTTP_TRANSPORTS = (("Streamable HTTP", _streamable_http), ("SSE", _sse))


def _url_secrets(url: str) -> list[str]:
    """The parts of a URL that may hold a token: its query and password."""
    parts = urllib.parse.urlsplit(url)
    return [part for part in (parts.query, parts.password or "") if part]


def _without_secrets(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every one of ``secrets`` masked (header values, URL tokens)."""
    for secret in sorted(secrets, key=len, reverse=True):
        if len(secret) >= _MIN_MASKED:
            text = text.replace(secret, "***")
    return text


async def _list_remote(
    url: str,
    *,
    headers: Mapping[str, str],
    label: str,
    timeout: float = DEFAULT_TIMEOUT,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> _Listing:
    """Connect to a remote server over Streamable HTTP, else SSE, and list everything.

    Each transport gets ``timeout`` seconds. When both fail, the
    ``ConnectError`` says what each said, header values and the URL's
    query and password masked.
    """
    _require_sdk()
    import anyio  # noqa: PLC0415

    problems: list[str] = []
    # A value and each of its words: "Bearer <token>" may be quoted in part.
    secrets = [*headers.values(), *(w for v in headers.values() for w in v.split())]
    secrets.extend(_url_secrets(url))
    for name, transport in _HTTP_TRANSPORTS:
        try:
            with anyio.fail_after(timeout):
                async with transport(url, headers) as streams:
                    return await _connected_listing(streams[0], streams[1], max_pages)
        except Exception as error:  # every failure is reported, then the next transport
            timed_out = isinstance(_innermost(error), TimeoutError)
            problem = (
                f"timed out after {timeout:g} s" if timed_out else _failure(label, error).problem
            )
            problems.append(f"{name}: {_without_secrets(problem, secrets)}")
    raise ConnectError(label, "; ".join(problems))


async def scan_remote(
    url: str,
    *,
    server: str,
    headers: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> tuple[Report, ...]:
    """Connect to a remote MCP server, list its whole surface, and scan it.

    Streamable HTTP is tried first, then SSE (older servers). ``headers``
    (``{"Authorization": "Bearer ..."}``) go with every request and never
    into a message. Reports follow ``scan_surface``. Raises
    ``ConnectError`` when neither transport lists the server within
    ``timeout`` seconds each.
    """
    server = _server_id(server)
    listing = await _list_remote(url, headers=headers or {}, label=server, timeout=timeout)
    return _scan_listing(listing, server=server, snapshot=snapshot, config=config)


async def scan_server(
    params: StdioServerParameters,
    *,
    server: str,
    timeout: float = DEFAULT_TIMEOUT,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> tuple[Report, ...]:
    """Start a stdio MCP server, list its tools, stop it, and scan the tools.

    Its prompts, resources, resource templates and instructions are
    scanned too (see ``scan_surface``), after the tools.

    ``params`` is the SDK's ``StdioServerParameters``. The server is a
    program: it runs with your privileges, so only start servers you would
    run anyway. Raises ``ConnectError`` (a ``ScanError`` naming ``server``)
    when it cannot be started or does not list its tools within ``timeout``
    seconds.
    """
    server = _server_id(server)
    listing = await _list_server_tools(params, label=server, timeout=timeout)
    return _scan_listing(listing, server=server, snapshot=snapshot, config=config)


def _scan_listing(
    listing: _Listing,
    *,
    server: str,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    config: Config | None = None,
) -> tuple[Report, ...]:
    """``scan_surface`` over everything one connection listed."""
    rest = listing.surface
    return scan_surface(
        server=server,
        tools=listing.tools,
        prompts=rest.prompts,
        resources=rest.resources,
        resource_templates=rest.resource_templates,
        instructions=rest.instructions,
        snapshot=snapshot,
        config=config,
    )
