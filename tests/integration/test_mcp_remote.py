"""Remote servers end to end: ``mcpscan connect --url`` and ``guard`` over HTTP.

Each test server is ``surface_server.py`` run as a real FastMCP
(``MCPServer``) process on 127.0.0.1, on a free port, over Streamable HTTP
or SSE. Its tool is clean; its prompt, resource and instructions carry the
attacks (the ``clean`` variant has none).
"""

from __future__ import annotations

import contextlib
import io
import json
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcpscan import Verdict
from mcpscan.cli import main
from mcpscan.mcp import ConnectError, Guarded, guard, scan_remote

pytest.importorskip("mcp")

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SERVER = Path(__file__).with_name("surface_server.py")
POISONED = {"prompt:summarize", "resource:notes://readme", "server:instructions"}
CLEAN = {"add", "prompt:greet", "resource:notes://changelog", "resource:notes://{name}"}
PATHS = {"streamable-http": "/mcp", "sse": "/sse"}
SECRET = "sk-live-0123456789abcdefSECRET"
# A bound for a server that never opens its port (it fails the test rather
# than hanging the suite); the test asserts nothing about how long it took.
_READY_LIMIT = 120.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1.0)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _wait_until_ready(process: subprocess.Popen[bytes], port: int) -> None:
    """Wait for the server's port to accept, or for the server to die."""
    waited = 0.0
    while not _accepts(port):
        if process.poll() is not None:
            raise RuntimeError(f"the test server exited with status {process.returncode}")
        if waited >= _READY_LIMIT:
            raise RuntimeError("the test server never opened its port")
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=0.1)
        waited += 0.1


@contextlib.contextmanager
def _serving(transport: str, variant: str, *extra: str) -> Iterator[str]:
    port = _free_port()
    argv = [sys.executable, str(SERVER), "--transport", transport, "--port", str(port)]
    process = subprocess.Popen(
        [*argv, "--variant", variant, *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_until_ready(process, port)
        yield f"http://127.0.0.1:{port}{PATHS[transport]}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def servers() -> Iterator[Callable[[str, str], str]]:
    """A server per (transport, variant), started once for the module."""
    running: dict[tuple[str, str], str] = {}
    with contextlib.ExitStack() as stack:

        def url(transport: str, variant: str = "poisoned") -> str:
            key = (transport, variant)
            if key not in running:
                running[key] = stack.enter_context(_serving(transport, variant))
            return running[key]

        yield url


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def verdicts(payload: dict[str, Any]) -> dict[str, str]:
    return {r["tool"]["name"]: r["verdict"] for r in payload["reports"]}


@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
def test_connect_url_reports_every_poisoned_surface(
    servers: Callable[..., str], transport: str
) -> None:
    code, out = run("connect", "--format", "json", "--url", servers(transport))
    payload = json.loads(out)
    assert code == 1
    found = verdicts(payload)
    assert set(found) == POISONED | CLEAN
    assert {name for name, verdict in found.items() if verdict != "pass"} == POISONED
    kinds = {r["tool"]["name"]: r["tool"].get("kind", "tool") for r in payload["reports"]}
    assert kinds["resource:notes://{name}"] == "resource-template"
    assert payload["servers"] == [
        {
            "id": "surface-demo",
            "status": "scanned",
            "tools": 1,
            "prompts": 2,
            "resources": 2,
            "resource_templates": 1,
            "instructions": True,
        }
    ]


def test_connect_stdio_reports_every_poisoned_surface() -> None:
    # The same server over stdio, started by the CLI's own starter.
    code, out = run("connect", "--format", "json", "--", sys.executable, str(SERVER))
    payload = json.loads(out)
    assert code == 1
    found = verdicts(payload)
    assert {name for name, verdict in found.items() if verdict != "pass"} == POISONED
    assert set(found) == POISONED | CLEAN


def test_connect_url_text_names_each_location(servers: Callable[..., str]) -> None:
    code, out = run("connect", "--url", servers("streamable-http"), "--server-id", "notes")
    assert code == 1
    for location in POISONED:
        # Each poisoned location is named with its own verdict (a plain-text
        # command hidden from the user quarantines; the rest go to review).
        assert f"notes/{location}: REVIEW" in out or f"notes/{location}: QUARANTINE" in out
    assert "notes/prompt:greet: PASS" in out


def test_connect_url_passes_a_clean_server(servers: Callable[..., str]) -> None:
    code, out = run("connect", "--format", "json", "--url", servers("streamable-http", "clean"))
    assert code == 0
    assert set(verdicts(json.loads(out)).values()) == {"pass"}


def test_headers_are_sent_and_never_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with _serving("streamable-http", "poisoned", "--require-header", f"X-Api-Key:{SECRET}") as url:
        code, out = run("connect", "--url", url, "--header", f"X-Api-Key: {SECRET}")
        assert code == 1
        assert "surface-demo/server:instructions: QUARANTINE" in out
        assert SECRET not in out + capsys.readouterr().err
        # Without the header the server refuses both transports: not scanned, exit 2.
        code, out = run("connect", "--timeout", "20", "--url", url)
        assert (code, out) == (2, "")
        assert "401" in capsys.readouterr().err


def test_unreachable_url_fails_on_both_transports_without_the_secrets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"http://127.0.0.1:{_free_port()}/mcp?token={SECRET}"
    code, out = run("connect", "--timeout", "20", "--url", url, "--header", f"X-Key:{SECRET}")
    err = capsys.readouterr().err
    assert code == 2
    assert out == ""
    assert "Streamable HTTP: " in err
    assert "SSE: " in err
    assert SECRET not in err
    assert err.startswith("mcpscan: error: 127.0.0.1: ")


def test_a_server_that_never_answers_times_out_on_both_transports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()  # connections are queued, never answered
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/mcp"
        code, _ = run("connect", "--timeout", "1", "--url", url)
    assert code == 2
    err = capsys.readouterr().err
    assert "Streamable HTTP: timed out after 1 s; SSE: timed out after 1 s" in err


def test_scan_remote_raises_connect_error_naming_the_server() -> None:
    async def go() -> Any:
        return await scan_remote(
            f"http://127.0.0.1:{_free_port()}/mcp", server="remote", timeout=20
        )

    with pytest.raises(ConnectError) as raised:
        anyio.run(go)
    assert raised.value.field == "remote"


def test_scan_remote_covers_the_surface(servers: Callable[..., str]) -> None:
    url = servers("sse")

    async def go() -> Any:
        return await scan_remote(url, server="notes", headers={"X-Trace": "1"})

    reports = anyio.run(go)
    assert {r.tool.name for r in reports if r.verdict is not Verdict.PASS} == POISONED


async def _guarded(url: str, **kwargs: Any) -> Guarded:
    from mcp import ClientSession

    from mcpscan.mcp import _streamable_http

    async with _streamable_http(url, {}) as streams, ClientSession(*streams[:2]) as session:
        await session.initialize()
        return await guard(session, server="notes", **kwargs)


def test_guard_holds_back_the_poisoned_prompt_resource_and_instructions(
    servers: Callable[..., str],
) -> None:
    guarded = anyio.run(_guarded, servers("streamable-http"))
    assert {r.tool.name for r in guarded.held_back} == POISONED
    assert [t.name for t in guarded.tools] == ["add"]
    assert [p.name for p in guarded.prompts] == ["greet"]
    assert [str(r.uri) for r in guarded.resources] == ["notes://changelog"]
    assert len(guarded.resource_templates) == 1
    assert guarded.instructions is None


def test_guard_keeps_a_clean_servers_whole_surface(servers: Callable[..., str]) -> None:
    guarded = anyio.run(_guarded, servers("streamable-http", "clean"))
    assert guarded.held_back == ()
    assert sorted(p.name for p in guarded.prompts) == ["greet", "summarize"]
    assert len(guarded.resources) == 2
    assert guarded.instructions is not None
    assert guarded.instructions.startswith("This server manages the user's notes.")
