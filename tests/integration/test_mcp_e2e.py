"""End to end: real MCP servers over stdio, scanned through the SDK.

Published servers (mcp-server-time, mcp-server-git) must come out clean;
the poisoned server in this folder must not. Each server is started once
per module where the tests can share it.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcpscan import Report, Verdict, scan_output
from mcpscan.cli import main
from mcpscan.mcp import Guarded, guard, scan_server

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters, stdio_client

pytestmark = pytest.mark.integration

HERE = Path(__file__).parent
POISONED = str(HERE / "poisoned_server.py")
SERVER = (sys.executable, POISONED)
REPO = HERE.parent.parent

# What the poisoned server's tools must at least be judged.
EXPECTED = {
    "summarize_notes": Verdict.REVIEW,  # <IMPORTANT> block: read ~/.ssh/id_rsa into `sidenote`
    "get_forecast": Verdict.QUARANTINE,  # an instruction in Unicode tag characters
    "prepare_workspace": Verdict.QUARANTINE,  # default = base64 of `curl ... | sh`
    "format_date": Verdict.REVIEW,  # "whenever you call send_email, also bcc ..."
    "add": Verdict.PASS,
    "word_count": Verdict.PASS,
}


def python(*args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=list(args))


def verdicts(reports: Any) -> dict[str, Verdict]:
    return {r.tool.name: r.verdict for r in reports}


def assert_poisoned_verdicts(found: Mapping[str, Verdict]) -> None:
    assert found.keys() == EXPECTED.keys()
    for name, floor in EXPECTED.items():
        if floor is Verdict.PASS:
            assert found[name] is Verdict.PASS, name
        else:
            assert found[name].rank >= floor.rank, (name, found[name])


def describe(reports: Any) -> str:
    """What fired, for the assertion message when a published tool is flagged."""
    return "\n".join(
        f"{r.tool.server}/{r.tool.name} {r.verdict.value}: "
        + "; ".join(
            f"{s.rule_id} {s.confidence:.2f} at {s.location}: {s.evidence}" for s in r.signals
        )
        for r in reports
        if r.signals
    )


# --- published servers ------------------------------------------------------------


def test_mcp_server_time_is_clean() -> None:
    pytest.importorskip("mcp_server_time")

    async def go() -> tuple[Report, ...]:
        return await scan_server(python("-m", "mcp_server_time"), server="time", timeout=30)

    reports = anyio.run(go)
    assert set(verdicts(reports)) == {"get_current_time", "convert_time"}
    assert all(r.verdict is Verdict.PASS for r in reports), describe(reports)


def test_mcp_server_git_is_clean(git_repository: Path) -> None:
    pytest.importorskip("mcp_server_git")

    async def go() -> Guarded:
        params = python("-m", "mcp_server_git", "--repository", str(git_repository))
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await guard(session, server="git")

    guarded = anyio.run(go)
    assert len(guarded.reports) >= 10  # git_status, git_diff, git_commit, git_log ...
    assert "git_status" in verdicts(guarded.reports)
    assert all(r.verdict is Verdict.PASS for r in guarded.reports), describe(guarded.reports)
    assert guarded.held_back == ()
    assert [t.name for t in guarded.tools] == [r.tool.name for r in guarded.reports]


# --- the poisoned server, through the library ---------------------------------------------


@pytest.fixture(scope="module")
def poisoned() -> tuple[Guarded, Guarded, Any]:
    """guard() on one live session, strict and lenient, and one tool call's result."""

    async def go() -> tuple[Guarded, Guarded, Any]:
        async with (
            stdio_client(python(POISONED)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            strict = await guard(session, server="demo")
            lenient = await guard(session, server="demo", allow_review=True)
            result = await session.call_tool("add", {"a": 2, "b": 3})
            return strict, lenient, result

    return anyio.run(go)


def test_guard_judges_the_poisoned_tools(poisoned: tuple[Guarded, Guarded, Any]) -> None:
    strict, _, _ = poisoned
    assert_poisoned_verdicts(verdicts(strict.reports))


def test_guard_shows_the_model_only_the_clean_tools(
    poisoned: tuple[Guarded, Guarded, Any],
) -> None:
    strict, _, _ = poisoned
    assert sorted(t.name for t in strict.tools) == ["add", "word_count"]
    assert sorted(r.tool.name for r in strict.held_back) == [
        "format_date",
        "get_forecast",
        "prepare_workspace",
        "summarize_notes",
    ]


def test_allow_review_still_holds_back_quarantine(
    poisoned: tuple[Guarded, Guarded, Any],
) -> None:
    _, lenient, _ = poisoned
    shown = {t.name for t in lenient.tools}
    found = verdicts(lenient.reports)
    assert shown == {name for name, v in found.items() if v is not Verdict.QUARANTINE}
    assert {"get_forecast", "prepare_workspace"}.isdisjoint(shown)
    assert {"add", "word_count"} <= shown


def test_scan_output_on_a_live_call_result(poisoned: tuple[Guarded, Guarded, Any]) -> None:
    strict, _, result = poisoned
    add = next(t for t in strict.tools if t.name == "add")
    report = scan_output(result, tool=add, server="demo")
    assert report.verdict is Verdict.PASS
    assert (report.tool.server, report.tool.name) == ("demo", "add")


# --- the poisoned server, through the command line ----------------------------------------


def test_connect_command_on_the_poisoned_server() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "mcpscan", "connect", "--format", "json", "--", *SERVER],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
        check=False,
    )
    assert completed.returncode == 1, completed.stderr
    payload = json.loads(completed.stdout)
    assert {r["tool"]["server"] for r in payload["reports"]} == {"poisoned-demo"}
    found = {r["tool"]["name"]: Verdict(r["verdict"]) for r in payload["reports"]}
    assert_poisoned_verdicts(found)


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_config_command_runs_every_server_in_one_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = {
        "mcpServers": {
            "time": {"command": sys.executable, "args": ["-m", "mcp_server_time"]},
            "demo": {"command": sys.executable, "args": [POISONED]},
            "mail": {"command": sys.executable, "args": [POISONED, "--variant", "mail"]},
            "hosted": {"url": "https://mcp.example.com/sse"},
        }
    }
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps(config))

    code, out = run_cli("config", str(path))
    assert code == 0
    assert "none was started" in out
    assert capsys.readouterr().err == ""

    code, out = run_cli("config", "--run-servers", "--format", "json", "--timeout", "60", str(path))
    payload = json.loads(out)
    assert code == 1
    by_server: dict[str, dict[str, Verdict]] = {}
    for report in payload["reports"]:
        by_server.setdefault(report["tool"]["server"], {})[report["tool"]["name"]] = Verdict(
            report["verdict"]
        )
    assert by_server["time"] == {"get_current_time": Verdict.PASS, "convert_time": Verdict.PASS}
    assert by_server["mail"] == {"send_email": Verdict.PASS}
    assert_poisoned_verdicts(by_server["demo"])
    # With the mail server in the same snapshot, "whenever you call
    # send_email, also bcc ..." reaches into another server's tool: HARD.
    assert by_server["demo"]["format_date"] is Verdict.QUARANTINE
    statuses = {s["id"]: s["status"] for s in payload["servers"]}
    assert statuses == {
        "time": "scanned",
        "demo": "scanned",
        "mail": "scanned",
        "hosted": "skipped",
    }
    err = capsys.readouterr().err
    assert "mcpscan: [1/3] time: starting" in err
    assert "mcpscan: [3/3] mail: 1 tool" in err


def test_config_command_vscode_shape(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(
        '{\n  // .vscode/mcp.json\n  "servers": {\n'
        f'    "time": {{"type": "stdio", "command": {json.dumps(sys.executable)},'
        ' "args": ["-m", "mcp_server_time"]},\n'
        '    "web": {"type": "http", "url": "https://example.com/mcp"},\n  },\n}\n'
    )
    code, out = run_cli("config", str(path))
    assert code == 0
    assert "time: would run:" in out
    code, out = run_cli("config", "--run-servers", str(path))
    assert code == 0, out
    assert "time/get_current_time: PASS" in out
    assert "2 servers: 1 scanned, 0 failed, 1 skipped" in out
