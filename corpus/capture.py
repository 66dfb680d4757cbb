"""Capture real MCP tool definitions from servers published on PyPI.

This builds the benign "real" corpus: it starts each server in SERVERS over
stdio with the official ``mcp`` Python SDK, asks it for its tools
(``tools/list``, following pagination) and writes every tool as one JSONL
line::

    {"id": "captured:<package>:<tool name>", "label": "benign",
     "class": "real", "server": "<package>", "tool": {<tool as MCP JSON>},
     "expect": "pass", "provenance": "captured:<package>==<installed version>",
     "notes": "captured with mcp==<version> on <YYYY-MM-DD>"}

Lines are sorted by id and keys are sorted, so two runs over the same
installed set on the same date give the same bytes.

It is not run in CI and installs nothing.  Each server runs from its own
venv, as ``uvx``/``pipx`` would run it: the servers cannot share one
environment (the official servers need ``mcp>=2.3`` while most third-party
ones still import ``mcp.server.fastmcp`` from ``mcp<2``, and several pin
``mcp``/``fastmcp`` exactly).  The client side (this script) needs only
``mcp``.  corpus/capture-requirements.txt pins the set: the ``mcp==`` line
is the client, every other line one server (its pin, then the mcp/fastmcp
versions its venv resolved).  To set it all up and run (``--venvs``
defaults to /tmp/capvenvs; Python 3.11 is what the pins were resolved on)::

    python3 -m venv /tmp/capvenv
    /tmp/capvenv/bin/pip install mcp==2.3.0
    grep -v -e '^#' -e '^$' -e '^mcp==' corpus/capture-requirements.txt |
    while read -r req deps; do
        python3 -m venv "/tmp/capvenvs/${req%%==*}" &&
        "/tmp/capvenvs/${req%%==*}/bin/pip" install "$req" $deps </dev/null
    done
    /tmp/capvenv/bin/python corpus/capture.py --out corpus/captured.jsonl

(The committed captured.jsonl was made that way on 2026-11-22; pass
``--date 2026-11-22`` to reproduce it byte for byte.)

Options: ``--only PKG`` (repeatable) to capture a subset, ``--timeout`` for
the per-server limit, ``--date`` for the date in ``notes`` (default: the
``CAPTURE_DATE`` environment variable, then ``SOURCE_DATE_EPOCH``, then
today in UTC), ``--workdir`` for the scratch directory, ``--venvs`` for the
directory holding one venv per server, ``--list`` to print the table with
the versions installed.

Servers run one at a time, offline: every server gets a throwaway HOME and
dummy settings (fake credentials pointing at 127.0.0.1, a temp git repo, a
temp SQLite database, a temp directory of files) that the script creates
under ``--workdir`` (wiped at the start).  Servers also get
PYTHONHASHSEED=0, because some join Python sets into descriptions or
defaults.  A server that fails to start, crashes or exceeds its timeout is
reported on stderr (with the tail of its own stderr) and skipped; the exit
status is 0 when at least one server was captured.

Importing this module has no side effects.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path
from typing import Any

# ---------------------------------------------------------------------------
# The servers.
#
# package  -- PyPI distribution name as published; also the ``server`` field,
#             the middle part of each id and the name of its venv directory.
# pin      -- the version this table was captured with (the same pins are in
#             capture-requirements.txt).  The provenance records the version
#             actually installed in the server's venv; a mismatch is reported.
# command  -- argv to start it; "{bin}" is the server venv's bin directory,
#             "{python}" its interpreter.
# args     -- further arguments.
# env      -- extra environment for the server (over BASE_ENV).
# timeout  -- optional, seconds (default DEFAULT_TIMEOUT).
#
# In command, args and env these placeholders are filled in from the scratch
# fixtures: {work} scratch root, {home} fake HOME, {files} a directory with a
# few small files, {repo} a git repository with one commit, {sqlite} a SQLite
# database file, {venv}, {bin}, {python}.
# Every host in the dummy settings is 127.0.0.1 on a closed port and every
# credential is fake, so nothing leaves the machine even when a server tries
# to connect at start-up.
# ---------------------------------------------------------------------------

SERVERS: list[dict[str, Any]] = [
    # --- reference servers (modelcontextprotocol/servers), mcp>=2 ---
    {
        "package": "mcp-server-fetch",
        "pin": "2026.10.24",
        "command": ["{bin}/mcp-server-fetch"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-git",
        "pin": "2026.10.19",
        "command": ["{bin}/mcp-server-git"],
        "args": ["--repository", "{repo}"],
        "env": {},
    },
    {
        "package": "mcp-server-sqlite",
        "pin": "2025.4.25",
        "command": ["{bin}/mcp-server-sqlite"],
        "args": ["--db-path", "{sqlite}"],
        "env": {},
    },
    {
        "package": "mcp-server-time",
        "pin": "2026.10.19",
        "command": ["{bin}/mcp-server-time"],
        "args": ["--local-timezone", "UTC"],
        "env": {},
    },
    # --- AWS Labs servers (AWS credentials in BASE_ENV are dummies) ---
    {
        "package": "awslabs.aws-documentation-mcp-server",
        "pin": "1.2.3",
        "command": ["{bin}/awslabs.aws-documentation-mcp-server"],
        "args": [],
        "env": {"AWS_DOCUMENTATION_PARTITION": "aws"},
    },
    {
        "package": "awslabs.aws-pricing-mcp-server",
        "pin": "1.1.1",
        "command": ["{bin}/awslabs.aws-pricing-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.aws-serverless-mcp-server",
        "pin": "0.2.0",
        "command": ["{bin}/awslabs.aws-serverless-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.cloudwatch-mcp-server",
        "pin": "0.3.1",
        "command": ["{bin}/awslabs.cloudwatch-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.dynamodb-mcp-server",
        "pin": "2.1.8",
        "command": ["{bin}/awslabs.dynamodb-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.eks-mcp-server",
        "pin": "0.2.1",
        "command": ["{bin}/awslabs.eks-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "awslabs.iam-mcp-server",
        "pin": "1.1.2",
        "command": ["{bin}/awslabs.iam-mcp-server"],
        "args": [],
        "env": {},
    },
    # --- third-party servers ---
    {
        "package": "mcp-atlassian",
        "pin": "0.23.1",
        "command": ["{bin}/mcp-atlassian"],
        "args": [],
        "env": {
            "JIRA_URL": "http://127.0.0.1:9/jira",
            "JIRA_USERNAME": "capture@example.invalid",
            "JIRA_API_TOKEN": "dummy-token",
            "CONFLUENCE_URL": "http://127.0.0.1:9/wiki",
            "CONFLUENCE_USERNAME": "capture@example.invalid",
            "CONFLUENCE_API_TOKEN": "dummy-token",
            # all toolsets, explicitly (the default is due to narrow)
            "TOOLSETS": "all",
        },
    },
    {
        "package": "mcp-server-motherduck",
        "pin": "1.1.0",
        "command": ["{bin}/mcp-server-motherduck"],
        "args": ["--db-path", ":memory:", "--read-write"],
        "env": {},
    },
    {
        "package": "mcp-clickhouse",
        "pin": "0.7.0",
        "command": ["{bin}/mcp-clickhouse"],
        "args": [],
        "env": {
            "CLICKHOUSE_HOST": "127.0.0.1",
            "CLICKHOUSE_PORT": "9",
            "CLICKHOUSE_USER": "default",
            "CLICKHOUSE_PASSWORD": "dummy",
            "CLICKHOUSE_SECURE": "false",
        },
    },
    {
        "package": "mcp-neo4j-cypher",
        "pin": "0.6.0",
        "command": ["{bin}/mcp-neo4j-cypher"],
        "args": [],
        "env": {
            "NEO4J_URI": "bolt://127.0.0.1:9",
            "NEO4J_USERNAME": "neo4j",
            "NEO4J_PASSWORD": "dummy",
        },
    },
    {
        "package": "mcp-neo4j-data-modeling",
        "pin": "0.8.2",
        "command": ["{bin}/mcp-neo4j-data-modeling"],
        "args": [],
        "env": {},
    },
    {
        "package": "excel-mcp-server",
        "pin": "2.2.2",
        "command": ["{bin}/excel-mcp-server"],
        "args": ["stdio"],
        "env": {"EXCEL_FILES_PATH": "{files}"},
    },
    {
        "package": "arxiv-mcp-server",
        "pin": "0.8.2",
        "command": ["{bin}/arxiv-mcp-server"],
        "args": ["--storage-path", "{work}/arxiv"],
        "env": {},
    },
    {
        "package": "duckduckgo-mcp-server",
        "pin": "0.7.0",
        "command": ["{bin}/duckduckgo-mcp-server"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-server-calculator",
        "pin": "0.2.1",
        "command": ["{bin}/mcp-server-calculator"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-obsidian",
        "pin": "0.2.3",
        "command": ["{bin}/mcp-obsidian"],
        "args": [],
        "env": {
            "OBSIDIAN_API_KEY": "dummy-key",
            "OBSIDIAN_HOST": "127.0.0.1",
            "OBSIDIAN_PORT": "9",
        },
    },
    {
        "package": "mcp-pandoc",
        "pin": "0.11.1",
        "command": ["{bin}/mcp-pandoc"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-text-editor",
        "pin": "1.0.2",
        "command": ["{bin}/mcp-text-editor"],
        "args": [],
        "env": {},
    },
    {
        "package": "mcp-shell-server",
        "pin": "1.1.14",
        "command": ["{bin}/mcp-shell-server"],
        "args": [],
        "env": {"ALLOW_COMMANDS": "ls,cat,pwd,grep,wc,head,tail"},
    },
    {
        "package": "mcp-server-tree-sitter",
        "pin": "0.7.0",
        "command": ["{bin}/mcp-server-tree-sitter"],
        "args": [],
        "env": {},
    },
    {
        "package": "zotero-mcp",
        "pin": "0.3.1",
        "command": ["{bin}/zotero-mcp"],
        "args": [],
        "env": {"ZOTERO_LOCAL": "true"},
    },
    {
        "package": "elasticsearch-mcp-server",
        "pin": "2.1.6",
        "command": ["{bin}/elasticsearch-mcp-server"],
        "args": [],
        "env": {
            "ELASTICSEARCH_HOSTS": "http://127.0.0.1:9",
            "ELASTICSEARCH_USERNAME": "elastic",
            "ELASTICSEARCH_PASSWORD": "dummy",
        },
    },
    {
        "package": "redis-mcp-server",
        "pin": "0.5.1",
        "command": ["{bin}/redis-mcp-server"],
        "args": [],
        "env": {"REDIS_HOST": "127.0.0.1", "REDIS_PORT": "9"},
    },
    {
        "package": "wcgw",
        "pin": "5.6.7",
        "command": ["{bin}/wcgw"],
        "args": [],
        "env": {},
    },
]

# Tried and left out (Python 3.11, offline):
#   mcp-neo4j-memory 0.4.5      connects to Neo4j before serving and exits without one
#   mcp-server-docker 0.3.0     needs Python >= 3.12
#   basic-memory                needs Python >= 3.12.1

# The client's SDK version this table was captured with (first line of
# capture-requirements.txt).
MCP_PIN = "2.3.0"

# Per-server limit in seconds for start-up, initialize and tools/list together.
DEFAULT_TIMEOUT = 60.0

# Environment every server gets (the server's own env goes over it).  The SDK
# adds HOME/PATH/USER/... from os.environ; HOME and PATH are replaced here.
BASE_ENV: dict[str, str] = {
    "HOME": "{home}",
    "XDG_CONFIG_HOME": "{home}/.config",
    "XDG_CACHE_HOME": "{home}/.cache",
    "XDG_DATA_HOME": "{home}/.local/share",
    "TMPDIR": "{work}/tmp",
    "PATH": "{bin}" + os.pathsep + "/usr/local/bin:/usr/bin:/bin",
    "PYTHONUNBUFFERED": "1",
    # Some servers join sets into descriptions/defaults: fix str hashing.
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "NO_COLOR": "1",
    "TERM": "dumb",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "DO_NOT_TRACK": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "FASTMCP_SHOW_CLI_BANNER": "false",
    "FASTMCP_LOG_LEVEL": "ERROR",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "capture-dummy-access-key",
    "AWS_SECRET_ACCESS_KEY": "capture-dummy-secret",
    "AWS_EC2_METADATA_DISABLED": "true",
}

DEFAULT_WORKDIR = os.path.join(tempfile.gettempdir(), "mcpscan-capture")
DEFAULT_VENVS = os.path.join(tempfile.gettempdir(), "capvenvs")


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------


def make_fixtures(work: Path) -> dict[str, str]:
    """Create the scratch tree under ``work`` (wiped first); return placeholders."""
    if work.exists():
        shutil.rmtree(work)
    home = work / "home"
    files = work / "files"
    repo = work / "repo"
    for d in (
        home / ".config",
        home / ".cache",
        home / ".local" / "share",
        files,
        repo,
        work / "tmp",
        work / "logs",
    ):
        d.mkdir(parents=True, exist_ok=True)

    (files / "README.md").write_text("# Sample\n\nA small file for the capture.\n")
    (files / "notes.txt").write_text("hello\n")
    (files / "data.csv").write_text("id,name\n1,alpha\n2,beta\n")

    (repo / "README.md").write_text("# capture repo\n")
    git_env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "capture",
        "GIT_AUTHOR_EMAIL": "capture@example.invalid",
        "GIT_COMMITTER_NAME": "capture",
        "GIT_COMMITTER_EMAIL": "capture@example.invalid",
        "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
    }
    for cmd in (
        ["git", "init", "-q"],
        ["git", "checkout", "-q", "-b", "main"],
        ["git", "add", "README.md"],
        ["git", "commit", "-q", "-m", "initial"],
    ):
        subprocess.run(
            cmd,
            cwd=repo,
            env=git_env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    db = work / "capture.sqlite"
    con = sqlite3.connect(db)
    try:
        con.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)")
        con.executemany("INSERT INTO items (name) VALUES (?)", [("alpha",), ("beta",)])
        con.commit()
    finally:
        con.close()

    return {
        "work": str(work),
        "home": str(home),
        "files": str(files),
        "repo": str(repo),
        "sqlite": str(db),
    }


def placeholders(fixtures: dict[str, str], venv: Path) -> dict[str, str]:
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    return {
        **fixtures,
        "venv": str(venv),
        "bin": str(bindir),
        "python": str(bindir / ("python.exe" if os.name == "nt" else "python")),
    }


def server_params(spec: dict[str, Any], ph: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """Return (argv, env) for one table entry with placeholders filled."""
    argv = [a.format(**ph) for a in list(spec["command"]) + list(spec.get("args", []))]
    env = {k: v.format(**ph) for k, v in BASE_ENV.items()}
    env.update({k: v.format(**ph) for k, v in spec.get("env", {}).items()})
    return argv, env


# ---------------------------------------------------------------------------
# Capture
# ---------------------------------------------------------------------------


def venv_version(python: str, package: str) -> str | None:
    """The version of ``package`` installed for interpreter ``python``."""
    if not os.path.exists(python):
        return None
    code = (
        "import sys, importlib.metadata as m\n"
        "try: print(m.version(sys.argv[1]))\n"
        "except m.PackageNotFoundError: pass\n"
    )
    try:
        out = subprocess.run(
            [python, "-c", code, package],
            check=False,
            capture_output=True,
            text=True,
            timeout=60,
            env={"PATH": os.defpath},
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


async def _list_tools(
    argv: list[str], env: dict[str, str], cwd: str, errlog: Any, timeout: float
) -> list[dict[str, Any]]:
    # The SDK is imported here so that importing this module needs no mcp.
    import anyio  # noqa: PLC0415
    from mcp import ClientSession, StdioServerParameters  # noqa: PLC0415
    from mcp.client.stdio import stdio_client  # noqa: PLC0415
    from mcp.types import PaginatedRequestParams  # noqa: PLC0415

    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=cwd)
    tools: list[dict[str, Any]] = []
    with anyio.fail_after(timeout):
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=timeout) as session,
        ):
            await session.initialize()
            cursor: str | None = None
            for _ in range(1000):
                if cursor is None:
                    result = await session.list_tools()
                else:
                    result = await session.list_tools(params=PaginatedRequestParams(cursor=cursor))
                tools.extend(
                    t.model_dump(mode="json", by_alias=True, exclude_none=True)
                    for t in result.tools
                )
                cursor = result.next_cursor
                if not cursor:
                    break
    return tools


def capture_server(
    spec: dict[str, Any], ph: dict[str, str], timeout: float
) -> tuple[list[dict[str, Any]] | None, str]:
    """Start one server and list its tools.  Returns (tools or None, message)."""
    import anyio  # noqa: PLC0415

    package = spec["package"]
    argv, env = server_params(spec, ph)
    logpath = Path(ph["work"]) / "logs" / f"{package}.stderr"
    cwd = Path(ph["work"]) / "cwd" / package
    cwd.mkdir(parents=True, exist_ok=True)
    with open(logpath, "w", encoding="utf-8", errors="replace") as errlog:
        try:
            tools = anyio.run(_list_tools, argv, env, str(cwd), errlog, timeout)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # report any failure (groups too) and skip
            msg = _describe(exc)
            tail = _tail(logpath)
            return None, msg + (f"\n    server stderr (tail):\n{tail}" if tail else "")
    return tools, "ok"


def _describe(exc: BaseException) -> str:
    inner = getattr(exc, "exceptions", None)  # an exception group (3.11+)
    if isinstance(inner, (list, tuple)):
        return "; ".join(_describe(e) for e in inner)
    if isinstance(exc, TimeoutError):
        return "timed out"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:300]


def _tail(path: Path, lines: int = 8) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").rstrip().splitlines()
    except OSError:
        return ""
    return "\n".join("      " + ln[:200] for ln in text[-lines:])


def capture_date(arg: str | None) -> str:
    """--date, else $CAPTURE_DATE, else $SOURCE_DATE_EPOCH, else today (UTC)."""
    if arg:
        return _dt.date.fromisoformat(arg).isoformat()
    if os.environ.get("CAPTURE_DATE"):
        return _dt.date.fromisoformat(os.environ["CAPTURE_DATE"]).isoformat()
    if os.environ.get("SOURCE_DATE_EPOCH"):
        ts = int(os.environ["SOURCE_DATE_EPOCH"])
        return _dt.datetime.fromtimestamp(ts, _dt.timezone.utc).date().isoformat()
    return _dt.datetime.now(_dt.timezone.utc).date().isoformat()


def make_record(
    package: str, version: str, tool: dict[str, Any], mcp_version: str, date: str
) -> dict[str, Any]:
    return {
        "id": f"captured:{package}:{tool['name']}",
        "label": "benign",
        "class": "real",
        "server": package,
        "tool": tool,
        "expect": "pass",
        "provenance": f"captured:{package}=={version}",
        "notes": f"captured with mcp=={mcp_version} on {date}",
    }


def dumps_records(records: list[dict[str, Any]]) -> str:
    records = sorted(records, key=lambda r: r["id"])
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in records)


def capture_all(
    specs: list[dict[str, Any]],
    fixtures: dict[str, str],
    venvs: Path,
    *,
    timeout_arg: float | None,
    mcp_version: str,
    date: str,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Capture every server in ``specs`` in turn.  Returns (records, failed packages)."""
    records: list[dict[str, Any]] = []
    failed: list[str] = []
    for spec in specs:
        package = spec["package"]
        ph = placeholders(fixtures, venvs / package)
        version = venv_version(ph["python"], package)
        if version is None:
            print(f"capture: SKIP {package}: not installed in {ph['venv']}", file=sys.stderr)
            failed.append(package)
            continue
        if version != spec["pin"]:
            print(
                f"capture: note: {package} installed {version}, table pins {spec['pin']}",
                file=sys.stderr,
            )
        timeout = timeout_arg or float(spec.get("timeout", DEFAULT_TIMEOUT))
        t0 = time.monotonic()
        tools, msg = capture_server(spec, ph, timeout)
        took = time.monotonic() - t0
        if tools is None:
            print(f"capture: SKIP {package}: {msg}", file=sys.stderr)
            failed.append(package)
            continue
        if not tools:
            print(f"capture: SKIP {package}: no tools listed ({took:.1f}s)", file=sys.stderr)
            failed.append(package)
            continue
        seen: set[str] = set()
        for tool in tools:
            if tool["name"] in seen:
                print(
                    f"capture: {package}: duplicate tool name {tool['name']!r} dropped",
                    file=sys.stderr,
                )
                continue
            seen.add(tool["name"])
            records.append(make_record(package, version, tool, mcp_version, date))
        print(f"capture: {package}=={version}: {len(seen)} tools ({took:.1f}s)", file=sys.stderr)

    return records, failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Capture MCP tool definitions from real servers into JSONL."
    )
    ap.add_argument("--out", default="corpus/captured.jsonl", help="output JSONL path")
    ap.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PKG",
        help="capture only this package (repeatable)",
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=None,
        help=f"per-server timeout in seconds (default: the table's, else {DEFAULT_TIMEOUT:g})",
    )
    ap.add_argument("--date", default=None, help="date for notes, YYYY-MM-DD")
    ap.add_argument(
        "--workdir",
        default=DEFAULT_WORKDIR,
        help="scratch directory, wiped first (default %(default)s)",
    )
    ap.add_argument(
        "--venvs",
        default=DEFAULT_VENVS,
        help="directory with one venv per package (default %(default)s)",
    )
    ap.add_argument(
        "--list", action="store_true", help="print the table with installed versions and exit"
    )
    ns = ap.parse_args(argv)

    venvs = Path(ns.venvs).resolve()
    specs = SERVERS
    if ns.only:
        known = {s["package"] for s in SERVERS}
        unknown = [p for p in ns.only if p not in known]
        if unknown:
            print(f"capture: unknown package(s): {', '.join(unknown)}", file=sys.stderr)
            return 2
        specs = [s for s in SERVERS if s["package"] in ns.only]

    if ns.list:
        for spec in specs:
            ph = placeholders({}, venvs / spec["package"])
            have = venv_version(ph["python"], spec["package"]) or "-"
            print(f"{spec['package']:45} pin {spec['pin']:12} installed {have}")
        return 0

    try:
        mcp_version = metadata.version("mcp")
    except metadata.PackageNotFoundError:
        print("capture: run this with an interpreter that has the mcp package", file=sys.stderr)
        return 2
    if mcp_version != MCP_PIN:
        print(f"capture: note: client mcp=={mcp_version}, table pins {MCP_PIN}", file=sys.stderr)
    date = capture_date(ns.date)

    fixtures = make_fixtures(Path(ns.workdir).resolve())
    records, failed = capture_all(
        specs, fixtures, venvs, timeout_arg=ns.timeout, mcp_version=mcp_version, date=date
    )

    servers = len({r["server"] for r in records})
    print(
        f"capture: {len(records)} tools from {servers} servers; "
        f"{len(failed)} skipped{': ' + ', '.join(failed) if failed else ''}",
        file=sys.stderr,
    )
    if not records:
        return 1
    out = Path(ns.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(dumps_records(records), encoding="utf-8")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
