"""Start a stdio MCP server for the command line, and say plainly why it failed.

The SDK's ``stdio_client`` hides the server process, so a server that is
not installed, that exits at once, or that prints a banner on stdout shows
up as ``MCPError: Connection closed`` or a generic timeout. Here the
process is ours: the command is looked up before anything runs, the
server's stdout is read line by line (the first line that is not JSON-RPC
is kept, and skipped, as clients do), and when the session fails the
message says what happened:

* ``could not start: no such command `uvx```;
* ``server exited with status 3 before answering``;
* ``server printed non-JSON on stdout: <first bytes>``.

The MCP session itself (initialize, ``tools/list`` with every page) is the
SDK's ``ClientSession``, over in-memory streams this module feeds.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import anyio
import attrs

from ._evidence import safe_evidence
from .mcp import (
    DEFAULT_MAX_PAGES,
    DEFAULT_TIMEOUT,
    ConnectError,
    _failure,
    _innermost,
    _list_all,
    _list_rest,
    _Listing,
    _reported_name,
    _require_sdk,
    _server_stderr,
)

if TYPE_CHECKING:
    from anyio.abc import Process
    from mcp import StdioServerParameters

__all__ = ["list_server_tools"]

#: Characters of a non-JSON stdout line quoted in the message.
_SHOWN_BYTES = 60
#: Seconds a server that closed its stdout is given to exit, so its status is known.
_EXIT_GRACE = 2.0
_STOP_GRACE = 2.0


_Task = Callable[[], Coroutine[Any, Any, None]]


@attrs.define
class _Watch:
    """What was seen of one server while its session ran (one per start)."""

    non_json: str | None = None
    answered: bool = False
    #: The server closed its stdout (it exited, or is about to).
    closed: bool = False


def _resolved(command: str, env: dict[str, str]) -> str | None:
    """The program ``command`` names, looked up on the server's own PATH.

    The full path is what is started: on Windows it also finds ``npx.cmd``
    for ``npx`` (PATHEXT), as clients do.
    """
    return shutil.which(command, path=env.get("PATH", os.environ.get("PATH")))


async def _open(params: StdioServerParameters, label: str, errlog: Any) -> Process:
    from mcp.client.stdio import get_default_environment  # noqa: PLC0415

    env = {**get_default_environment(), **(params.env or {})}
    program = _resolved(params.command, env)
    if program is None:
        raise ConnectError(label, f"could not start: no such command `{_shown(params.command)}`")
    try:
        return await anyio.open_process(
            [program, *params.args], env=env, cwd=params.cwd, stderr=errlog
        )
    except OSError as error:
        raise ConnectError(label, f"could not start: {error.strerror or error}") from None


def _shown(text: str) -> str:
    return safe_evidence(text, _SHOWN_BYTES)


def _pumps(process: Process, watch: _Watch) -> tuple[Any, Any, _Task, _Task]:
    """The session's two streams and the tasks that connect them to the process."""
    from mcp.shared.message import SessionMessage  # noqa: PLC0415
    from mcp.types import JSONRPCMessage  # noqa: PLC0415
    from pydantic import TypeAdapter  # noqa: PLC0415

    # 1.x spells JSONRPCMessage as a RootModel, 2.x as a union: an adapter reads both.
    adapter: TypeAdapter[Any] = TypeAdapter(JSONRPCMessage)
    to_session, session_reads = anyio.create_memory_object_stream[Any](0)
    session_writes, from_session = anyio.create_memory_object_stream[Any](0)

    async def read() -> None:
        assert process.stdout is not None
        async with to_session:
            buffer = b""
            async for chunk in process.stdout:
                *lines, buffer = (buffer + chunk).split(b"\n")
                for line in lines:
                    message = _parse(adapter, line, watch)
                    if message is not None:
                        watch.answered = True
                        await to_session.send(SessionMessage(message))
            watch.closed = True

    async def write() -> None:
        assert process.stdin is not None
        # A server that exits closes its stdin: the reader's end of stdout
        # then ends the session, and _diagnose says how it exited.
        with contextlib.suppress(anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            async with from_session:
                async for outgoing in from_session:
                    text = outgoing.message.model_dump_json(by_alias=True, exclude_none=True)
                    await process.stdin.send(text.encode() + b"\n")

    return session_reads, session_writes, read, write


def _parse(adapter: Any, line: bytes, watch: _Watch) -> Any:
    if not line.strip():
        return None
    try:
        return adapter.validate_json(line)
    except ValueError:
        # A server that logs to stdout still works in most clients: skip the
        # line, but keep the first one to explain a session that fails.
        if watch.non_json is None:
            watch.non_json = _shown(line[:_SHOWN_BYTES].decode("utf-8", "replace"))
        return None


async def _diagnose(
    label: str, error: BaseException, process: Process, watch: _Watch
) -> ConnectError:
    if isinstance(error, ConnectError):
        return error
    if watch.non_json is not None and not watch.answered:
        return ConnectError(label, f"server printed non-JSON on stdout: {watch.non_json}")
    if watch.closed:
        with anyio.move_on_after(_EXIT_GRACE):
            await process.wait()
    if process.returncode is not None:
        when = "while listing its tools" if watch.answered else "before answering"
        return ConnectError(label, f"server exited with status {process.returncode} {when}")
    return _failure(label, error)


async def _stop(process: Process) -> None:
    with anyio.CancelScope(shield=True):
        if process.stdin is not None:
            with contextlib.suppress(anyio.BrokenResourceError, OSError):
                await process.stdin.aclose()
        with anyio.move_on_after(_STOP_GRACE):
            await process.wait()
        if process.returncode is None:
            process.kill()
            await process.wait()


async def list_server_tools(
    params: StdioServerParameters,
    *,
    label: str,
    timeout: float = DEFAULT_TIMEOUT,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> _Listing:
    """Start the stdio server ``params`` describes, list what it shows a model
    (tools, prompts, resources, instructions), stop it.

    Raises ``ConnectError`` (naming ``label``) saying what went wrong.
    """
    _require_sdk()
    from mcp import ClientSession  # noqa: PLC0415

    watch = _Watch()
    with _server_stderr() as errlog:
        process = await _open(params, label, errlog)
        try:
            with anyio.fail_after(timeout):
                reads, writes, read, write = _pumps(process, watch)
                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(read)
                    tasks.start_soon(write)
                    async with ClientSession(reads, writes) as session:
                        initialized = await session.initialize()
                        tools = await _list_all(session, max_pages)
                        rest = await _list_rest(session, max_pages, initialized.instructions)
                    tasks.cancel_scope.cancel()
        except Exception as error:  # every failure, whatever its kind, is one ConnectError
            raise await _diagnose(label, _innermost(error), process, watch) from error
        finally:
            await _stop(process)
    return _Listing(tools=tuple(tools), reported_name=_reported_name(initialized), surface=rest)
