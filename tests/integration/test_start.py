"""Server start failures say what happened (tiny fake servers in tests/data/servers)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import anyio
import pytest

from mcpscan.cli import main

pytest.importorskip("mcp")
from mcp import StdioServerParameters

from mcpscan._start import list_server_tools
from mcpscan.mcp import ConnectError

pytestmark = pytest.mark.integration

SERVERS = Path(__file__).parents[1] / "data" / "servers"


def fail(command: str, *args: str, timeout: float = 20.0) -> str:
    params = StdioServerParameters(command=command, args=list(args))

    async def start() -> None:
        await list_server_tools(params, label="broken", timeout=timeout)

    with pytest.raises(ConnectError) as caught:
        anyio.run(start)
    assert caught.value.field == "broken"
    return caught.value.problem


def test_no_such_command() -> None:
    problem = fail("uvx-not-installed-here", "mcp-server-time")
    assert problem == "could not start: no such command `uvx-not-installed-here`"


def test_exit_status_before_answering() -> None:
    problem = fail(sys.executable, str(SERVERS / "exits_with_3.py"))
    assert problem == "server exited with status 3 before answering"


def test_non_json_on_stdout() -> None:
    problem = fail(sys.executable, str(SERVERS / "prints_banner.py"), timeout=3.0)
    assert problem == "server printed non-JSON on stdout: Welcome to Example MCP v1.2 (debug mode)"


def test_a_silent_server_times_out() -> None:
    problem = fail(sys.executable, str(SERVERS / "silent.py"), timeout=1.0)
    assert problem == "timed out starting the server and listing its tools"


def test_config_table_names_each_failure(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {
        "mcpServers": {
            "missing": {"command": "uvx-not-installed-here", "args": ["x"]},
            "exits": {"command": sys.executable, "args": [str(SERVERS / "exits_with_3.py")]},
            "off": {"command": "whatever", "disabled": True},
        }
    }
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps(config))
    out = io.StringIO()
    code = main(["config", "--run-servers", "--format", "json", str(path)], out=out)
    assert code == 2  # a server that was not listed is never a clean result
    rows = {row["id"]: row for row in json.loads(out.getvalue())["servers"]}
    assert rows["missing"]["note"] == "could not start: no such command `uvx-not-installed-here`"
    assert rows["exits"]["note"] == "server exited with status 3 before answering"
    assert rows["off"]["status"] == "skipped"
    err = capsys.readouterr().err
    assert "missing: FAILED: could not start: no such command" in err
    assert "Connection closed" not in err
