"""Find the MCP client configurations of this user and project.

``discover_configs`` reads the files where MCP clients keep their servers
and returns what each lists, as immutable records; nothing is started and
nothing but those files is read. A file that does not exist is not listed;
a file that cannot be read or understood is listed with its ``problem`` (one
line, naming the file), and every other file is still read.

Where each client keeps its servers (checked against each client's
documentation, November 2026):

* Claude Desktop: ``claude_desktop_config.json`` in ``~/Library/Application
  Support/Claude`` (macOS), ``%APPDATA%\\Claude`` (Windows),
  ``~/.config/Claude`` (Linux); ``mcpServers``.
* Claude Code (docs.anthropic.com, "Connect Claude Code to tools via MCP"):
  ``~/.claude.json``, top-level ``mcpServers`` (user scope) and
  ``projects.<path>.mcpServers`` (local scope, one per project); a
  project's ``.mcp.json`` (project scope).
* Cursor (docs.cursor.com, "Model Context Protocol"): ``~/.cursor/mcp.json``
  and a project's ``.cursor/mcp.json``; ``mcpServers``.
* VS Code (code.visualstudio.com, "Use MCP servers in VS Code"): the user
  ``settings.json`` (``mcp.servers``) and user ``mcp.json`` (``servers``)
  in ``Code/User`` under each OS's application data; a workspace's
  ``.vscode/mcp.json`` (``servers``).
* Windsurf (docs.windsurf.com, "Cascade MCP"):
  ``~/.codeium/windsurf/mcp_config.json``; ``mcpServers`` (``serverUrl``).
* Gemini CLI (google-gemini/gemini-cli ``docs/tools/mcp-server.md``):
  ``~/.gemini/settings.json`` and a project's ``.gemini/settings.json``;
  ``mcpServers`` (``url`` for SSE, ``httpUrl`` for streamable HTTP).
* Codex (openai/codex ``docs/config.md``): ``~/.codex/config.toml`` and a
  trusted project's ``.codex/config.toml``; ``[mcp_servers.<name>]`` with
  ``command``/``args``/``env`` or ``url``/``http_headers``, ``enabled``.
* Kiro (kiro.dev, "MCP configuration"): ``~/.kiro/settings/mcp.json`` and
  a project's ``.kiro/settings/mcp.json``; ``mcpServers``, ``disabled``.
* Amazon Q Developer (docs.aws.amazon.com, "MCP configuration"):
  ``~/.aws/amazonq/mcp.json`` and a project's ``.amazonq/mcp.json``.
* Zed (zed.dev/docs, "Model Context Protocol"): ``~/.config/zed/settings.json``,
  ``context_servers`` (``command`` and ``args``, or the older
  ``command: {path, args, env}``; ``url`` and ``headers`` for remote ones).
* Cline (cline/cline, ``cline_mcp_settings.json``): VS Code's
  ``globalStorage/saoudrizwan.claude-dev/settings/``; ``mcpServers``.
* opencode (opencode.ai/docs/mcp-servers): ``~/.config/opencode/opencode.json``
  and a project's ``opencode.json``; ``mcp``, where a ``local`` server's
  ``command`` is one list (program and arguments) and ``enabled: false``
  turns a server off.

Environment values, headers and URLs are kept (a caller may need them to
start or reach a server) but never shown: they often hold tokens, so they
are left out of ``repr`` and of everything mcpscan prints.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import attrs

from ._evidence import escape_unsafe
from ._input import loads
from ._model import ScanError

__all__ = ["ClientConfig", "ServerConfig", "discover_configs", "parse_config_text"]

#: Bytes of one client file read before it is refused (``~/.claude.json``
#: also holds history, so it can reach megabytes).
MAX_CONFIG_BYTES = 64 * 1024 * 1024
# Transports that reach a server elsewhere: nothing of theirs is started.
REMOTE_TYPES = frozenset(
    {"sse", "http", "streamable-http", "streamablehttp", "remote", "ws", "websocket"}
)
_STDIO_TYPES = frozenset({"stdio", "local"})
_URL_KEYS = ("url", "serverUrl", "httpUrl")
_HEADER_KEYS = ("headers", "http_headers")


def _frozen_strings(value: Mapping[str, str]) -> Mapping[str, str]:
    return MappingProxyType(dict(value))


@attrs.frozen
class ServerConfig:
    """One server as a client configuration declares it.

    ``transport`` is ``stdio`` (a program to start: ``command`` and
    ``args``), a remote transport (``http``, ``sse``, ...: ``url``) or
    ``unknown`` (nothing mcpscan can start or reach, such as a server an
    editor extension provides). ``disabled`` servers are listed, never
    started. ``env``, ``headers`` and ``url`` are never shown (not in
    ``repr`` either): they often carry tokens; ``env_keys`` names the
    variables.
    """

    id: str
    transport: str
    command: str | None = None
    args: tuple[str, ...] = ()
    cwd: str | None = None
    disabled: bool = False
    url: str | None = attrs.field(default=None, repr=False)
    env: Mapping[str, str] = attrs.field(
        factory=dict, converter=_frozen_strings, repr=False, hash=False
    )
    headers: Mapping[str, str] = attrs.field(
        factory=dict, converter=_frozen_strings, repr=False, hash=False
    )

    @property
    def env_keys(self) -> tuple[str, ...]:
        return tuple(sorted(self.env))

    @property
    def startable(self) -> bool:
        return self.transport == "stdio" and not self.disabled and bool(self.command)


@attrs.frozen
class ClientConfig:
    """One client configuration file and the servers it lists.

    ``scope`` is ``user``, ``project``, or for Claude Code's per-project
    servers in ``~/.claude.json`` ``project <path>``. ``problem`` is set
    (one line, naming the file) when the file could not be read or
    understood; its ``servers`` are then empty.
    """

    client: str
    path: str
    scope: str
    servers: tuple[ServerConfig, ...] = ()
    problem: str | None = None


# --- Reading one file ------------------------------------------------------------


def parse_config_text(text: str, path: str) -> object:
    """A client's JSON configuration, with comments and trailing commas allowed.

    Keys must be unique: a server given twice would be started as one and
    shown as the other. Raises ``ScanError`` naming ``path``.
    """
    try:
        return loads(text, path, unique_keys=True)
    except ScanError as error:
        first = error
    # VS Code's and Zed's settings allow comments and trailing commas.
    try:
        return loads(strip_jsonc(text), path, unique_keys=True)
    except ScanError:
        raise first from None


def strip_jsonc(text: str) -> str:
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


def _read(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError as error:
        raise ScanError(str(path), f"cannot read: {error.strerror or error}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ScanError(str(path), f"larger than {MAX_CONFIG_BYTES} bytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ScanError(str(path), f"not valid UTF-8 (byte {error.start})") from None


def _read_toml(path: Path) -> object:
    text = _read(path)
    # tomllib is in the standard library from Python 3.11; before, the same
    # parser is the tomli package, when installed.
    name = "tomllib" if sys.version_info >= (3, 11) else "tomli"
    try:
        toml = importlib.import_module(name)
    except ImportError:  # pragma: no cover (Python 3.10 without tomli)
        raise ScanError(str(path), "reading TOML needs Python 3.11 or the tomli package") from None
    try:
        return toml.loads(text)
    except toml.TOMLDecodeError as error:
        raise ScanError(str(path), f"not valid TOML: {error}") from None


# --- One server's entry ---------------------------------------------------------


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScanError(where, "expected a list of strings")
    return tuple(value)


def _string_map(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise ScanError(where, "expected an object of string values")
    return dict(value)


def _optional_string(spec: Mapping[str, Any], key: str, where: str) -> str | None:
    value = spec.get(key)
    if value is not None and not isinstance(value, str):
        raise ScanError(f"{where}.{key}", "expected a string")
    return value


def _launch(
    spec: Mapping[str, Any], where: str
) -> tuple[str | None, tuple[str, ...], dict[str, str]]:
    """The command, its arguments and its environment, in any client's spelling."""
    command = spec.get("command")
    env = spec.get("env", spec.get("environment", {}))
    if isinstance(command, Mapping):  # Zed's older {"path", "args", "env"}
        path = _optional_string(command, "path", f"{where}.command")
        return (
            path,
            _strings(command.get("args", []), f"{where}.command.args"),
            _string_map(command.get("env", {}), f"{where}.command.env"),
        )
    if isinstance(command, list):  # opencode: the program and its arguments in one list
        program, *rest = _strings(command, f"{where}.command") or ("",)
        return program or None, tuple(rest), _string_map(env, f"{where}.environment")
    if command is not None and not isinstance(command, str):
        raise ScanError(f"{where}.command", "expected a string")
    args = _strings(spec.get("args", []), f"{where}.args")
    return command or None, args, _string_map(env or {}, f"{where}.env")


def _transport(kind: object, command: str | None, url: str | None, where: str) -> str:
    if kind is not None and not isinstance(kind, str):
        raise ScanError(f"{where}.type", "expected a string")
    if kind is not None:
        lowered = kind.lower()
        return "stdio" if lowered in _STDIO_TYPES else lowered
    if command:
        return "stdio"
    return "http" if url else "unknown"


def _disabled(spec: Mapping[str, Any]) -> bool:
    # Claude Desktop, Cline, Kiro, Windsurf, Amazon Q: "disabled": true;
    # Codex, opencode, Zed: "enabled": false.
    return spec.get("disabled") is True or spec.get("enabled") is False


def server_config(server_id: str, spec: object, where: str) -> ServerConfig:
    """One entry of a client's servers object; ``ScanError`` names the field."""
    if not isinstance(spec, Mapping):
        raise ScanError(where, "expected an object")
    command, args, env = _launch(spec, where)
    url = next((spec[k] for k in _URL_KEYS if isinstance(spec.get(k), str)), None)
    header_key = next((k for k in _HEADER_KEYS if k in spec), None)
    headers = _string_map(spec[header_key], f"{where}.{header_key}") if header_key else {}
    return ServerConfig(
        id=server_id,
        transport=_transport(spec.get("type"), command, url, where),
        command=command,
        args=args,
        cwd=_optional_string(spec, "cwd", where),
        disabled=_disabled(spec),
        url=url,
        env=env,
        headers=headers,
    )


def servers_of(value: object, where: str) -> tuple[ServerConfig, ...]:
    """Every server of a ``{name: spec}`` object (an absent one is empty)."""
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise ScanError(where, "expected an object of server name to server")
    servers: list[ServerConfig] = []
    for name, spec in value.items():
        if not isinstance(name, str) or not name:
            raise ScanError(where, "server names must be non-empty strings")
        # The name is the file's text: escaped before it reaches a terminal.
        servers.append(server_config(name, spec, f"{where}.{escape_unsafe(name)}"))
    return tuple(servers)


# --- Each client's layout -----------------------------------------------------------

#: One file's records: (scope, servers) pairs from its parsed document.
_Layout = Callable[[object, str, str], list[tuple[str, tuple[ServerConfig, ...]]]]


def _get(document: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(document, Mapping):
            return None
        document = document.get(key)
    return document


def _under(*keys: str) -> _Layout:
    """The servers kept under one key path (``mcpServers``, ``mcp.servers``)."""

    def read(document: object, path: str, scope: str) -> list[tuple[str, tuple[ServerConfig, ...]]]:
        if not isinstance(document, Mapping):
            raise ScanError(path, "expected a JSON object")
        return [(scope, servers_of(_get(document, *keys), f"{path}: {'.'.join(keys)}"))]

    return read


def _claude_code_user(
    document: object, path: str, scope: str
) -> list[tuple[str, tuple[ServerConfig, ...]]]:
    """``~/.claude.json``: the user's servers, then each project's own."""
    records = _under("mcpServers")(document, path, scope)
    projects = _get(document, "projects")
    if isinstance(projects, Mapping):
        for project, settings in sorted(projects.items()):
            where = f"{path}: projects.{project}.mcpServers"
            servers = servers_of(_get(settings, "mcpServers"), where)
            if servers:
                records.append((f"project {project}", servers))
    return records


@attrs.frozen
class _Place:
    client: str
    #: Which root the file is under: "home", "appdata" (each OS's application
    #: data folder), "xdg" (``~/.config``) or "project".
    root: str
    relative: str
    layout: _Layout
    toml: bool = False

    @property
    def scope(self) -> str:
        return "project" if self.root == "project" else "user"


_MCP_SERVERS = _under("mcpServers")
_VSCODE_USER = "Code/User"
_PLACES: tuple[_Place, ...] = (
    _Place("claude-desktop", "appdata", "Claude/claude_desktop_config.json", _MCP_SERVERS),
    _Place("claude-code", "home", ".claude.json", _claude_code_user),
    _Place("claude-code", "project", ".mcp.json", _MCP_SERVERS),
    _Place("cursor", "home", ".cursor/mcp.json", _MCP_SERVERS),
    _Place("cursor", "project", ".cursor/mcp.json", _MCP_SERVERS),
    _Place("vscode", "appdata", f"{_VSCODE_USER}/settings.json", _under("mcp", "servers")),
    _Place("vscode", "appdata", f"{_VSCODE_USER}/mcp.json", _under("servers")),
    _Place("vscode", "project", ".vscode/mcp.json", _under("servers")),
    _Place("windsurf", "home", ".codeium/windsurf/mcp_config.json", _MCP_SERVERS),
    _Place("gemini-cli", "home", ".gemini/settings.json", _MCP_SERVERS),
    _Place("gemini-cli", "project", ".gemini/settings.json", _MCP_SERVERS),
    _Place("codex", "home", ".codex/config.toml", _under("mcp_servers"), toml=True),
    _Place("codex", "project", ".codex/config.toml", _under("mcp_servers"), toml=True),
    _Place("kiro", "home", ".kiro/settings/mcp.json", _MCP_SERVERS),
    _Place("kiro", "project", ".kiro/settings/mcp.json", _MCP_SERVERS),
    _Place("amazon-q", "home", ".aws/amazonq/mcp.json", _MCP_SERVERS),
    _Place("amazon-q", "project", ".amazonq/mcp.json", _MCP_SERVERS),
    _Place("zed", "xdg", "zed/settings.json", _under("context_servers")),
    _Place(
        "cline",
        "appdata",
        f"{_VSCODE_USER}/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
        _MCP_SERVERS,
    ),
    _Place("opencode", "xdg", "opencode/opencode.json", _under("mcp")),
    _Place("opencode", "project", "opencode.json", _under("mcp")),
)


def _roots(root: str, home: Path, default_home: bool) -> list[Path]:
    """The folders a file of ``root`` may be under, for the user ``home``.

    Each OS's application data folder is probed whatever the OS running
    (only files that exist are listed); with the default home,
    ``%APPDATA%`` and ``$XDG_CONFIG_HOME`` are honoured too.
    """
    xdg = [home / ".config"]
    if default_home and os.environ.get("XDG_CONFIG_HOME"):
        xdg.append(Path(os.environ["XDG_CONFIG_HOME"]))
    if root == "xdg":
        return xdg
    appdata = [home / "Library" / "Application Support", home / "AppData" / "Roaming"]
    if default_home and os.environ.get("APPDATA"):
        appdata.append(Path(os.environ["APPDATA"]))
    return appdata + xdg


def _candidates(home: Path, project: Path, default_home: bool) -> Iterator[tuple[_Place, Path]]:
    for place in _PLACES:
        if place.root in ("home", "project"):
            yield place, (home if place.root == "home" else project) / place.relative
            continue
        for root in _roots(place.root, home, default_home):
            yield place, root / place.relative


def _records(place: _Place, path: Path) -> list[ClientConfig]:
    shown = str(path)
    try:
        document = _read_toml(path) if place.toml else parse_config_text(_read(path), shown)
        found = place.layout(document, shown, place.scope)
    except ScanError as error:
        # One line, whatever the parser said.
        problem = " ".join(str(error).split())
        return [ClientConfig(client=place.client, path=shown, scope=place.scope, problem=problem)]
    # A settings file without MCP servers (most editors' settings) is not listed.
    return [
        ClientConfig(client=place.client, path=shown, scope=scope, servers=servers)
        for scope, servers in found
        if servers
    ]


def discover_configs(
    home: str | os.PathLike[str] | None = None, project: str | os.PathLike[str] | None = None
) -> tuple[ClientConfig, ...]:
    """The MCP client configurations of the user ``home`` and the ``project``.

    ``home`` defaults to the current user's home folder, ``project`` to the
    current directory. Every known client's files are looked for (see this
    module's docs); each file found gives one ``ClientConfig`` (Claude
    Code's ``~/.claude.json`` one per project as well), in a fixed order. A
    file that cannot be read or parsed is listed with its ``problem``; the
    others are still read. Nothing is started and nothing is written.
    """
    home_path = Path(home) if home is not None else Path.home()
    project_path = Path(project) if project is not None else Path.cwd()
    seen: set[Path] = set()
    configs: list[ClientConfig] = []
    for place, path in _candidates(home_path, project_path, home is None):
        # Run from the home folder, a "project" file is the user's file: list it once.
        key = _identity(path)
        if key in seen or not path.is_file():
            continue
        seen.add(key)
        configs.extend(_records(place, path))
    return tuple(configs)


def _identity(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()
