"""``mcpscan connect`` and ``mcpscan config``: scan live stdio MCP servers.

``connect -- COMMAND [ARGS...]`` starts one server, lists its tools and
scans them. ``config FILE`` reads an MCP client configuration (Claude
Desktop and Cursor ``mcpServers``, VS Code ``servers`` or ``mcp.servers``);
``config`` without FILE reads every client configuration
``discover_configs`` finds (see ``_clients``). Only with
``--run-servers`` does it start each stdio server (``--jobs`` at a time;
the same server listed by several clients once), all servers' tools
forming one snapshot so a tool that shadows or reaches into another
server's tool is seen, and end with a summary table. Servers are started
by ``_start``, whose failures say what happened.

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
import threading
import types
import urllib.parse
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import attrs

from ._clients import (
    REMOTE_TYPES,
    ClientConfig,
    ServerConfig,
    discover_configs,
    parse_config_text,
    servers_of,
)
from ._clients import strip_jsonc as _strip_jsonc  # noqa: F401  (long imported from here)
from ._colour import paint
from ._evidence import escape_unsafe, safe_evidence
from ._model import Report
from ._snapshot import Snapshot
from .mcp import (
    DEFAULT_TIMEOUT,
    ConnectError,
    _as_tools,
    _list_remote,
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
#: Servers ``config --run-servers`` starts at once unless ``--jobs`` says otherwise.
DEFAULT_JOBS = 4
_MAX_JOBS = 64
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
        examples=(
            "mcpscan connect -- uvx mcp-server-time",
            "mcpscan connect --url https://mcp.example.com/mcp --header 'Authorization:Bearer ...'",
            "mcpscan connect --format sarif -- npx -y @modelcontextprotocol/server-everything",
        ),
        help="scan a live MCP server: a stdio command, or a remote --url",
        description="Start a stdio MCP server (a program: it runs with your privileges), "
        "or connect to a remote one with --url (Streamable HTTP, else SSE), list "
        "what it shows a model (tools, prompts, resources, resource templates and "
        "instructions) and scan it. Put the server command after --.",
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
        examples=(
            "mcpscan config                     # every client configuration: what would run",
            "mcpscan config --run-servers       # start them (4 at a time), scan their tools",
            "mcpscan config ~/.cursor/mcp.json  # one file",
            "mcpscan config --home /tmp/h --project . --format json",
        ),
        help="scan the servers of MCP client configurations (found, or one FILE)",
        description="Read MCP client configurations: one FILE (Claude Desktop, Cursor, VS Code "
        "shapes), or without FILE every client's configuration of this user and project "
        "(Claude Desktop and Code, Cursor, VS Code, Windsurf, Gemini CLI, Codex, Kiro, "
        "Amazon Q, Zed, Cline, opencode). Without --run-servers, show which commands would "
        "run and start nothing. Environment values, headers and URLs are never shown.",
    )
    config.add_argument(
        "path",
        metavar="FILE",
        nargs="?",
        help="one configuration file (default: find every client's configuration)",
    )
    config.add_argument(
        "--run-servers",
        action="store_true",
        help="start each stdio server, list its tools and scan them "
        "(the servers are programs from elsewhere: they run with your privileges)",
    )
    config.add_argument(
        "--jobs",
        type=_jobs,
        default=DEFAULT_JOBS,
        metavar="N",
        help=f"servers started at once with --run-servers (default {DEFAULT_JOBS})",
    )
    config.add_argument(
        "--home", metavar="DIR", help="the user's home folder to search (default: yours)"
    )
    config.add_argument(
        "--project",
        metavar="DIR",
        help="the project folder to search (default: the current directory)",
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
    baseline: bool = True,
) -> int:
    """Write the reports in ``--format`` and return the ``--fail-on`` exit code."""
    if baseline:
        reports = _apply_baseline(reports, args.baseline)
    code: int = _cli().emit_reports(
        reports,
        args.format,
        args.fail_on,
        out,
        artifact_uri=artifact_uri,
        extra={"servers": servers},
        fail_on_incomplete=args.fail_on_incomplete,
        colour=getattr(args, "colour", False),
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


async def _list_server_tools(
    params: StdioServerParameters, *, label: str, timeout: float
) -> _Listing:
    """Start one server and list its tools; failures say what happened (see _start)."""
    from ._start import list_server_tools  # noqa: PLC0415  (needs anyio, from mcpscan[mcp])

    return await list_server_tools(params, label=label, timeout=timeout)


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
    #: The clients whose configurations list this server (discovery), or ("file",).
    clients: tuple[str, ...] = ()

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


def _read_config(path: str, limit: int) -> object:
    return parse_config_text(_cli().read_text(path, sys.stdin, limit), path)


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


def _skip_reason(server: ServerConfig) -> str | None:
    """Why a configured server is not started; None for one that is."""
    if server.disabled:
        return "disabled in the configuration"
    # A URL (or a remote transport type) is a server somewhere else: there
    # is nothing to start. Its URL is not shown: it often carries a token.
    if server.transport in REMOTE_TYPES:
        return f"not a stdio server ({_shown(server.transport)})"
    if server.transport not in ("stdio", "unknown"):
        return f"not a stdio server (type {_shown(server.transport)})"
    if not server.command:
        return "nothing to start (no command and no url)"
    return None


def _entry(server: ServerConfig, clients: tuple[str, ...] = ()) -> _Entry:
    skip = _skip_reason(server)
    if skip is not None:
        return _Entry(id=server.id, skip=skip, clients=clients)
    return _Entry(
        id=server.id,
        command=server.command,
        args=server.args,
        env=dict(server.env),
        cwd=server.cwd,
        clients=clients,
    )


def _entries(path: str, limit: int) -> list[_Entry]:
    where, servers = _servers_of(_read_config(path, limit), path)
    entries: list[_Entry] = []
    for server in servers_of(servers, f"{path}: {where}"):
        entry = _entry(server, ("file",))
        if entry.skip is not None and entry.skip.startswith("nothing to start"):
            # A file named on the command line is read strictly.
            name = escape_unsafe(server.id)
            raise _input_error(
                f'{path}: {where}.{name}.command: a stdio server needs a non-empty "command"'
            )
        entries.append(entry)
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
    _write_entries(entries, out)
    if stdio:
        out.write(_RUN_WARNING + "\n")
    return _EXIT_OK


def _write_entries(entries: Sequence[_Entry], out: TextIO, indent: str = "  ") -> None:
    for entry in entries:
        name = escape_unsafe(entry.id)
        if entry.skip is not None:
            out.write(f"{indent}{name}: skipped: {entry.skip}\n")
            continue
        keys = ", ".join(sorted(escape_unsafe(k) for k in entry.env))
        env = f"  [env: {keys}]" if keys else ""
        out.write(f"{indent}{name}: would run: {entry.command_line()}{env}\n")


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# --- config without FILE: every client's configuration ------------------------------


def _discovered(args: argparse.Namespace) -> tuple[ClientConfig, ...]:
    return discover_configs(home=args.home, project=args.project)


def _config_record(config: ClientConfig) -> dict[str, Any]:
    record: dict[str, Any] = {
        "client": config.client,
        "path": _shown(config.path),
        "scope": _shown(config.scope),
        "servers": [_entry(s, (config.client,)).describe() for s in config.servers],
    }
    if config.problem is not None:
        record["problem"] = _shown(config.problem)
    return record


def _write_discovered_plan(
    configs: tuple[ClientConfig, ...], args: argparse.Namespace, out: TextIO
) -> int:
    if args.format == "json":
        payload = {"started": False, "configs": [_config_record(c) for c in configs]}
        out.write(json.dumps(payload, sort_keys=True, indent=2, ensure_ascii=True) + "\n")
        return _EXIT_OK
    entries = [_entry(s, (c.client,)) for c in configs for s in c.servers]
    stdio = [e for e in entries if e.skip is None]
    out.write(
        f"{_count(len(stdio), 'stdio server')} in {_count(len(configs), 'client configuration')}"
        "; none was started (no --run-servers).\n"
    )
    for config in configs:
        head = f"{config.client} ({_shown(config.scope)})"
        if config.problem is not None:
            out.write(f"{head}: unreadable: {_shown(config.problem)}\n")
            continue
        out.write(f"{head}: {_shown(config.path)}\n")
        _write_entries([_entry(s, (config.client,)) for s in config.servers], out)
    if not configs:
        out.write("No MCP client configuration found (see docs/cli.md for the places read).\n")
    if stdio:
        out.write(_RUN_WARNING + "\n")
    return _EXIT_OK


def _launch_key(entry: _Entry) -> tuple[object, ...]:
    return (entry.skip, entry.command, entry.args, tuple(sorted(entry.env.items())), entry.cwd)


def _merged_entries(configs: tuple[ClientConfig, ...]) -> list[_Entry]:
    """One entry per distinct server, whichever clients list it.

    The same server configured in two clients is started once: scanned
    twice, each copy's tools would shadow the other's. Two different
    servers with one name get the client in their id (``name@client``).
    """
    by_launch: dict[tuple[object, ...], _Entry] = {}
    for config in configs:
        for server in config.servers:
            entry = _entry(server, (config.client,))
            key = (server.id, *_launch_key(entry))
            known = by_launch.get(key)
            if known is None:
                by_launch[key] = entry
            elif config.client not in known.clients:
                by_launch[key] = attrs.evolve(known, clients=(*known.clients, config.client))
    taken: set[str] = set()
    entries: list[_Entry] = []
    for entry in by_launch.values():
        server_id = entry.id
        if server_id in taken:
            server_id = f"{entry.id}@{entry.clients[0]}"
        suffix = 2
        while server_id in taken:
            server_id, suffix = f"{entry.id}@{entry.clients[0]}-{suffix}", suffix + 1
        taken.add(server_id)
        entries.append(attrs.evolve(entry, id=server_id))
    return entries


# --- config --run-servers ---------------------------------------------------------


@attrs.frozen
class _Outcome:
    """What starting one server gave: its listing, or why there is none."""

    listing: _Listing | None = None
    failure: str | None = None


def _start_all(stdio: list[_Entry], timeout: float, jobs: int) -> list[_Outcome]:
    """List every server's tools, at most ``jobs`` at a time; outcomes in order."""
    params = [_stdio_params(e.command or "", e.args, e.env, e.cwd) for e in stdio]
    progress = _Progress(len(stdio))

    def start(index: int) -> _Outcome:
        entry = stdio[index]
        progress.say(index, entry, f"starting {entry.command_line()}")
        try:
            listing = _list(params[index], entry.id, timeout)
        except ConnectError as error:
            progress.say(index, entry, f"FAILED: {error.problem}")
            return _Outcome(failure=error.problem)
        progress.say(index, entry, _count(len(listing.tools), "tool"))
        return _Outcome(listing=listing)

    if jobs == 1 or len(stdio) <= 1:
        return [start(i) for i in range(len(stdio))]
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="mcpscan-server") as pool:
        return list(pool.map(start, range(len(stdio))))


class _Progress:
    """Per-server progress on stderr, one whole line at a time from any thread."""

    def __init__(self, total: int) -> None:
        self._total = total
        self._lock = threading.Lock()

    def say(self, index: int, entry: _Entry, message: str) -> None:
        line = f"mcpscan: [{index + 1}/{self._total}] {escape_unsafe(entry.id)}: {message}\n"
        with self._lock:
            sys.stderr.write(line)
            sys.stderr.flush()


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= _MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected a number of servers from 1 to {_MAX_JOBS}")
    return value


def _statuses(
    stdio: list[_Entry], outcomes: list[_Outcome]
) -> tuple[dict[str, _Listing], list[dict[str, Any]]]:
    listings: dict[str, _Listing] = {}
    statuses: list[dict[str, Any]] = []
    for entry, outcome in zip(stdio, outcomes, strict=True):
        status = entry.describe()
        if outcome.listing is None:
            statuses.append({**status, "status": "failed", "note": outcome.failure})
            continue
        listings[entry.id] = outcome.listing
        statuses.append({**status, "status": "scanned", "tools": len(outcome.listing.tools)})
    return listings, statuses


def _worst(reports: Sequence[Report]) -> dict[str, str]:
    """Each server's worst verdict."""
    worst: dict[str, Report] = {}
    for report in reports:
        server = report.tool.server or ""
        known = worst.get(server)
        if known is None or report.verdict.rank > known.verdict.rank:
            worst[server] = report
    return {server: report.verdict.value for server, report in worst.items()}


def _write_table(rows: list[dict[str, Any]], out: TextIO, colour: bool) -> None:
    """The summary table: server, client, status, tools, verdict."""
    header = ("server", "client", "status", "tools", "verdict")
    cells = [
        (
            str(r["id"]),
            ",".join(r.get("clients", ())) or "-",
            str(r["status"]),
            str(r.get("tools", "-")),
            str(r.get("verdict", "-")),
        )
        for r in rows
    ]
    widths = [max(len(c[i]) for c in [header, *cells]) for i in range(len(header))]
    for number, cell in enumerate([header, *cells]):
        # The verdict is the last column: painted after padding, so colour
        # codes never count as width.
        *first, verdict = cell
        line = "  ".join(text.ljust(width) for text, width in zip(first, widths, strict=False))
        if number and colour:
            verdict = paint(verdict, verdict)
        out.write(f"{line}  {verdict}\n")


def _run_servers(
    entries: list[_Entry], args: argparse.Namespace, out: TextIO, artifact_uri: str | None
) -> int:
    stdio = [e for e in entries if e.skip is None]
    listings, statuses = _statuses(stdio, _start_all(stdio, args.timeout, args.jobs))
    skipped = [e.describe() for e in entries if e.skip is not None]
    for entry in entries:
        if entry.skip is not None:
            sys.stderr.write(f"mcpscan: {escape_unsafe(entry.id)}: skipped: {entry.skip}\n")
    # Every server's tools in one snapshot: a tool that shadows, or reaches
    # into, a tool of another configured server is only visible this way.
    tools = {sid: _as_tools(listing.tools, sid) for sid, listing in listings.items()}
    snapshot = Snapshot.from_servers(tools)
    config = _cli().incomplete_config(args)
    # Each server's whole surface (tools, prompts, resources, instructions).
    reports = [
        report
        for sid, listing in listings.items()
        for report in _scan_listing(listing, server=sid, snapshot=snapshot, config=config)
    ]
    reports = _apply_baseline(reports, args.baseline)
    worst = _worst(reports)
    clients = {e.id: list(e.clients) for e in entries}
    rows = [
        {**s, "clients": clients.get(s["id"], []), "verdict": worst.get(s["id"], "pass")}
        if s["status"] == "scanned"
        else {**s, "clients": clients.get(s["id"], [])}
        for s in statuses + skipped
    ]
    code = _emit(reports, args, out, artifact_uri=artifact_uri, servers=rows, baseline=False)
    failed = [s for s in statuses if s["status"] == "failed"]
    if args.format == "text":
        _write_table(rows, out, getattr(args, "colour", False))
        out.write(
            f"{len(entries)} servers: {len(listings)} scanned, {len(failed)} failed, "
            f"{len(skipped)} skipped\n"
        )
    # A server that could not be listed was not checked: never a clean result.
    return _EXIT_USAGE if failed else code


def _cmd_config(args: argparse.Namespace, out: TextIO) -> int:
    if args.path is not None:
        entries = _entries(args.path, args.max_input_bytes)
        if not args.run_servers:
            return _write_plan(entries, args, out)
        return _run_servers(entries, args, out, Path(args.path).as_posix())
    configs = _discovered(args)
    if not args.run_servers:
        return _write_discovered_plan(configs, args, out)
    for config in configs:
        if config.problem is not None:
            sys.stderr.write(f"mcpscan: unreadable configuration: {_shown(config.problem)}\n")
    code = _run_servers(_merged_entries(configs), args, out, None)
    # A configuration that could not be read was not checked either.
    unread = any(c.problem is not None for c in configs)
    return _EXIT_USAGE if unread else code
