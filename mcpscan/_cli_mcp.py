"""``mcpscan connect`` and ``mcpscan config``: scan live stdio MCP servers.

``connect -- COMMAND [ARGS...]`` starts one server through the MCP SDK,
lists its tools and scans them. ``config FILE`` reads an MCP client
configuration (Claude Desktop and Cursor ``mcpServers``, VS Code
``servers`` or ``mcp.servers``) and, only with ``--run-servers``, does the
same for each stdio server, all servers' tools forming one snapshot so a
tool that shadows or reaches into another server's tool is seen.

A configured server is a program someone else wrote, and starting it runs
that program with the user's privileges. Without ``--run-servers`` nothing
is started: the command says what would run.

Exit codes follow ``mcpscan scan``: 0 below ``--fail-on``, 1 at or above
it, 2 for unreadable input, a server that cannot be started or listed, or
a missing MCP SDK.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import shlex
import sys
import types
import urllib.parse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import attrs

from ._evidence import escape_unsafe, safe_evidence
from ._model import Report
from ._scan import scan
from ._snapshot import Snapshot
from .mcp import (
    DEFAULT_TIMEOUT,
    ConnectError,
    _as_tools,
    _list_remote,
    _list_server_tools,
    _scan_listing,
)

if TYPE_CHECKING:
    from mcp import StdioServerParameters

    from .mcp import _Listing

__all__ = ["register"]

_EXIT_OK, _EXIT_FINDINGS, _EXIT_USAGE = 0, 1, 2
_NEEDS_SDK = (
    "this command needs the MCP Python SDK: install mcpscan[mcp] (pip install 'mcpscan[mcp]')"
)
# An HTTP header name (RFC 9110 token).
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_MAX_COMMAND_CHARS = 1000
# Transports that are not a local process: nothing of theirs can be started.
_REMOTE_TYPES = frozenset({"sse", "http", "streamable-http", "streamablehttp", "ws", "websocket"})
_RUN_WARNING = (
    "These servers are programs from elsewhere and would run with your privileges. "
    "Review the commands, then rerun with --run-servers to start them and scan their tools."
)


def _cli() -> types.ModuleType:
    # Imported late: mcpscan.cli registers these commands, so it imports this module.
    from . import cli  # noqa: PLC0415

    return cli


def _input_error(message: str) -> Exception:
    error: Exception = _cli()._InputError(message)
    return error


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")
    return value


def _output_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    _cli().verdict_options(parser)
    parser.add_argument(
        "--baseline", metavar="FILE", help="suppress the findings this baseline accepts"
    )
    parser.add_argument(
        "--timeout",
        type=_timeout,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"for starting one server and listing its tools (default {DEFAULT_TIMEOUT:g})",
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``connect`` and ``config`` commands to the ``mcpscan`` parser."""
    connect = _cli()._command(
        subparsers,
        "connect",
        help="scan a live MCP server: a stdio command, or a remote --url",
        description="Start a stdio MCP server (a program: it runs with your privileges),\n"
        "or connect to a remote one with --url (Streamable HTTP, else SSE), list\n"
        "what it shows a model (tools, prompts, resources, resource templates and\n"
        "instructions) and scan it. Put the server command after --.\n\n"
        "examples:\n"
        "  mcpscan connect -- uvx mcp-server-time\n"
        "  mcpscan connect --url https://mcp.example.com/mcp --header 'Authorization:Bearer ...'",
    )
    connect.add_argument(
        "--server-id",
        metavar="ID",
        help="the server id in reports (default: the name the server reports, "
        "else the command's file name or the URL's host)",
    )
    connect.add_argument(
        "--url", metavar="URL", help="a remote server's endpoint (http:// or https://)"
    )
    connect.add_argument(
        "--header",
        action="append",
        type=_header,
        metavar="NAME:VALUE",
        help="an HTTP header for --url, repeatable (values are never printed)",
    )
    _output_options(connect)
    connect.add_argument(
        "server_command", nargs="*", metavar="COMMAND", help="the server command and its arguments"
    )
    connect.set_defaults(run=_cmd_connect)

    config = _cli()._command(
        subparsers,
        "config",
        help="scan the stdio servers of an MCP client configuration",
        description="Read an MCP client configuration (Claude Desktop, Cursor, VS Code). "
        "Without --run-servers, show which commands would run and start nothing.",
    )
    config.add_argument("path", metavar="FILE", help="the configuration file")
    config.add_argument(
        "--run-servers",
        action="store_true",
        help="start each stdio server, list its tools and scan them "
        "(the servers are programs from elsewhere: they run with your privileges)",
    )
    _output_options(config)
    _cli().input_options(config)
    config.set_defaults(run=_cmd_config)


# --- Shared output ---------------------------------------------------------


def _apply_baseline(reports: list[Report], path: str | None) -> list[Report]:
    if not path:
        return reports
    from .baseline import Baseline  # noqa: PLC0415

    baseline = Baseline.load(path)
    return [baseline.apply(r) for r in reports]


def _emit(
    reports: list[Report],
    args: argparse.Namespace,
    out: TextIO,
    *,
    artifact_uri: str | None,
    servers: list[dict[str, Any]],
) -> int:
    """Write the reports in ``--format`` and return the ``--fail-on`` exit code."""
    reports = _apply_baseline(reports, args.baseline)
    code: int = _cli().emit_reports(
        reports,
        args.format,
        args.fail_on,
        out,
        artifact_uri=artifact_uri,
        extra={"servers": servers},
        fail_on_incomplete=args.fail_on_incomplete,
    )
    return code


def _stdio_params(
    command: str, args: Sequence[str], env: Mapping[str, str] | None, cwd: str | None
) -> StdioServerParameters:
    try:
        from mcp import StdioServerParameters  # noqa: PLC0415
        from mcp.client.stdio import get_default_environment  # noqa: PLC0415
    except ImportError:
        raise _input_error(_NEEDS_SDK) from None
    # The SDK passes a server only a few safe variables (PATH, HOME, ...);
    # the configuration's own env is added on top, as MCP clients do.
    merged = {**get_default_environment(), **env} if env else None
    return StdioServerParameters(command=command, args=list(args), env=merged, cwd=cwd)


def _list(params: StdioServerParameters, label: str, timeout: float) -> _Listing:
    import anyio  # noqa: PLC0415

    listing: _Listing = anyio.run(
        functools.partial(_list_server_tools, params, label=label, timeout=timeout)
    )
    return listing


def _shown(text: str) -> str:
    """Attacker- or user-written text, safe for a terminal, secrets redacted."""
    return safe_evidence(text, _MAX_COMMAND_CHARS)


# --- connect ---------------------------------------------------------------


def _cmd_connect(args: argparse.Namespace, out: TextIO) -> int:
    if args.url is not None:
        if args.server_command:
            raise _input_error("connect: give --url or a server command, not both")
        label = args.server_id or _host_label(args.url)
        listing = _list_url(args.url, dict(args.header or ()), label, args.timeout)
    else:
        if not args.server_command:
            raise _input_error("connect: give a server command after --, or --url URL")
        if args.header:
            raise _input_error("connect: --header goes with --url")
        command, *rest = args.server_command
        label = args.server_id or Path(command).name or "server"
        listing = _list(_stdio_params(command, rest, None, None), label, args.timeout)
    server = args.server_id or listing.reported_name or label
    config = _cli().incomplete_config(args)
    reports = list(_scan_listing(listing, server=server, config=config))
    return _emit(reports, args, out, artifact_uri=None, servers=[_connected(server, listing)])


def _connected(server: str, listing: _Listing) -> dict[str, Any]:
    """The summary row of one connected server: what it listed, by kind."""
    rest = listing.surface
    return {
        "id": server,
        "status": "scanned",
        "tools": len(listing.tools),
        "prompts": len(rest.prompts),
        "resources": len(rest.resources),
        "resource_templates": len(rest.resource_templates),
        "instructions": rest.instructions is not None,
    }


def _header(text: str) -> tuple[str, str]:
    """``NAME:VALUE`` for ``--header``; the value is never repeated in a message."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if not colon or not _HEADER_NAME.fullmatch(name):
        # Not quoted: what was given may be a token.
        raise argparse.ArgumentTypeError("expected NAME:VALUE (for example 'Authorization:...')")
    return name, value.strip()


def _host_label(url: str) -> str:
    """A server label from a URL: its host, never its path, query or password."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise _input_error("connect: --url needs an http:// or https:// URL")
    return escape_unsafe(parts.hostname)


def _list_url(url: str, headers: dict[str, str], label: str, timeout: float) -> _Listing:
    try:
        import anyio  # noqa: PLC0415
        import mcp  # noqa: F401, PLC0415
    except ImportError:
        raise _input_error(_NEEDS_SDK) from None
    listing: _Listing = anyio.run(
        functools.partial(_list_remote, url, headers=headers, label=label, timeout=timeout)
    )
    return listing


# --- config ----------------------------------------------------------------


@attrs.frozen
class _Entry:
    """One server of a client configuration."""

    id: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = attrs.field(factory=dict)
    cwd: str | None = None
    #: Why the server is not started (remote transport, disabled); None for stdio.
    skip: str | None = None

    def command_line(self) -> str:
        return _shown(shlex.join([self.command or "", *self.args]))

    def describe(self, status: str = "not-started") -> dict[str, Any]:
        out: dict[str, Any] = {"id": escape_unsafe(self.id)}
        if self.skip is not None:
            return {**out, "status": "skipped", "note": self.skip}
        return {
            **out,
            "status": status,
            "command": self.command_line(),
            # Names only: values are often credentials.
            "env_keys": sorted(escape_unsafe(k) for k in self.env),
        }


def _strip_jsonc(text: str) -> str:
    """JSON with comments and trailing commas (VS Code's settings) to plain JSON.

    One pass drops ``//`` and ``/* */`` comments outside strings; a second
    drops a comma whose next non-blank character closes an object or array.
    """
    return _drop_trailing_commas(_drop_comments(text))


def _drop_comments(text: str) -> str:
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        char = text[i]
        if in_string:
            out.append(char)
            if char == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end == -1 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end == -1 else end + 2
            out.append(" ")
            continue
        else:
            out.append(char)
        i += 1
    return "".join(out)


def _drop_trailing_commas(text: str) -> str:
    out: list[str] = []
    in_string = False
    escaped = False
    for i, char in enumerate(text):
        if in_string:
            in_string = escaped or char != '"'
            escaped = not escaped and char == "\\"
        elif char == '"':
            in_string = True
        elif char == "," and _closes_next(text, i + 1):
            continue
        out.append(char)
    return "".join(out)


def _closes_next(text: str, start: int) -> bool:
    rest = text[start : start + 1]
    index = start
    while rest.isspace():
        index += 1
        rest = text[index : index + 1]
    return rest in ("}", "]")


def _read_config(path: str, limit: int) -> object:
    cli = _cli()
    text = cli.read_text(path, sys.stdin, limit)
    # A server given twice would be started as one and shown as the other:
    # a configuration's keys must be unique.
    try:
        return cli.parse_json(path, text, unique_keys=True)
    except cli._InputError as error:
        first = error
    # VS Code's settings allow comments and trailing commas.
    try:
        return cli.parse_json(path, _strip_jsonc(text), unique_keys=True)
    except cli._InputError:
        raise first from None


def _servers_of(document: object, path: str) -> tuple[str, Mapping[str, Any]]:
    """The servers mapping and the key path it was found under."""
    if isinstance(document, Mapping):
        nested = document.get("mcp")
        for where, value in (
            ("mcpServers", document.get("mcpServers")),
            ("servers", document.get("servers")),
            ("mcp.servers", nested.get("servers") if isinstance(nested, Mapping) else None),
        ):
            if value is None:
                continue
            if not isinstance(value, Mapping):
                raise _input_error(f"{path}: {where}: expected an object of server name to server")
            return where, value
    raise _input_error(
        f'{path}: no MCP servers: expected "mcpServers" (Claude Desktop, Cursor), '
        '"servers" or "mcp": {"servers": ...} (VS Code)'
    )


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _input_error(f"{where}: expected a list of strings")
    return tuple(value)


def _environment(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise _input_error(f"{where}: expected an object of string values")
    return dict(value)


def _entry(server_id: str, spec: object, where: str) -> _Entry:
    if not isinstance(spec, Mapping):
        raise _input_error(f"{where}: expected an object")
    kind = spec.get("type")
    if spec.get("disabled") is True:
        return _Entry(id=server_id, skip="disabled in the configuration")
    # A URL (or a remote transport type) is a server somewhere else: there
    # is nothing to start. Its URL is not shown: it often carries a token.
    if isinstance(kind, str) and kind.lower() in _REMOTE_TYPES:
        return _Entry(id=server_id, skip=f"not a stdio server ({_shown(kind)})")
    if "command" not in spec and ("url" in spec or "serverUrl" in spec):
        return _Entry(id=server_id, skip="not a stdio server (url)")
    if kind is not None and kind != "stdio":
        return _Entry(id=server_id, skip=f"not a stdio server (type {_shown(str(kind))})")
    command = spec.get("command")
    if not isinstance(command, str) or not command:
        raise _input_error(f'{where}.command: a stdio server needs a non-empty "command"')
    cwd = spec.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise _input_error(f"{where}.cwd: expected a string")
    return _Entry(
        id=server_id,
        command=command,
        args=_strings(spec.get("args", []), f"{where}.args"),
        env=_environment(spec.get("env", {}), f"{where}.env"),
        cwd=cwd,
    )


def _entries(path: str, limit: int) -> list[_Entry]:
    where, servers = _servers_of(_read_config(path, limit), path)
    entries: list[_Entry] = []
    for server_id, spec in servers.items():
        if not isinstance(server_id, str) or not server_id:
            raise _input_error(f"{path}: {where}: server names must be non-empty strings")
        entries.append(_entry(server_id, spec, f"{path}: {where}.{escape_unsafe(server_id)}"))
    return entries


def _write_plan(entries: list[_Entry], args: argparse.Namespace, out: TextIO) -> int:
    stdio = [e for e in entries if e.skip is None]
    if args.format == "json":
        payload = {"started": False, "servers": [e.describe() for e in entries]}
        out.write(json.dumps(payload, sort_keys=True, indent=2, ensure_ascii=True) + "\n")
        return _EXIT_OK
    out.write(
        f"{_count(len(stdio), 'stdio server')} in {_shown(args.path)}; "
        "none was started (no --run-servers).\n"
    )
    for entry in entries:
        name = escape_unsafe(entry.id)
        if entry.skip is not None:
            out.write(f"  {name}: skipped: {entry.skip}\n")
            continue
        keys = ", ".join(sorted(escape_unsafe(k) for k in entry.env))
        env = f"  [env: {keys}]" if keys else ""
        out.write(f"  {name}: would run: {entry.command_line()}{env}\n")
    if stdio:
        out.write(_RUN_WARNING + "\n")
    return _EXIT_OK


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _progress(position: str, entry: _Entry, message: str) -> None:
    sys.stderr.write(f"mcpscan: {position} {escape_unsafe(entry.id)}: {message}\n")
    sys.stderr.flush()


def _list_each(
    stdio: list[_Entry], timeout: float
) -> tuple[dict[str, _Listing], list[dict[str, Any]]]:
    """Start each server in turn; the listings that worked and every server's status."""
    listings: dict[str, _Listing] = {}
    statuses: list[dict[str, Any]] = []
    for number, entry in enumerate(stdio, start=1):
        position = f"[{number}/{len(stdio)}]"
        _progress(position, entry, f"starting {entry.command_line()}")
        params = _stdio_params(entry.command or "", entry.args, entry.env, entry.cwd)
        status = entry.describe()
        try:
            listing = _list(params, entry.id, timeout)
        except ConnectError as error:
            _progress(position, entry, f"FAILED: {error.problem}")
            statuses.append({**status, "status": "failed", "note": error.problem})
            continue
        _progress(position, entry, _count(len(listing.tools), "tool"))
        listings[entry.id] = listing
        statuses.append({**status, "status": "scanned", "tools": len(listing.tools)})
    return listings, statuses


def _cmd_config(args: argparse.Namespace, out: TextIO) -> int:
    entries = _entries(args.path, args.max_input_bytes)
    if not args.run_servers:
        return _write_plan(entries, args, out)
    stdio = [e for e in entries if e.skip is None]
    listings, statuses = _list_each(stdio, args.timeout)
    skipped = [e.describe() for e in entries if e.skip is not None]
    for entry in entries:
        if entry.skip is not None:
            sys.stderr.write(f"mcpscan: {escape_unsafe(entry.id)}: skipped: {entry.skip}\n")
    # Every server's tools in one snapshot: a tool that shadows, or reaches
    # into, a tool of another configured server is only visible this way.
    tools = {sid: _as_tools(listing.tools, sid) for sid, listing in listings.items()}
    snapshot = Snapshot.from_servers(tools)
    config = _cli().incomplete_config(args)
    reports = [
        scan(tool, snapshot, server=sid, config=config)
        for sid, listed in tools.items()
        for tool in listed
    ]
    code = _emit(
        reports, args, out, artifact_uri=Path(args.path).as_posix(), servers=statuses + skipped
    )
    failed = [s for s in statuses if s["status"] == "failed"]
    if args.format == "text":
        out.write(
            f"{len(entries)} servers: {len(listings)} scanned, {len(failed)} failed, "
            f"{len(skipped)} skipped\n"
        )
    # A server that could not be listed was not checked: never a clean result.
    return _EXIT_USAGE if failed else code
