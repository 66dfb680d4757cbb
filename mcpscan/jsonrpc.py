"""Classify and unpack MCP JSON-RPC messages, for gateways that sit inline.

``parse`` takes one message or a batch (JSON text, bytes, or already
parsed) and returns one ``Message`` per entry, each with its ``kind`` and
the parts mcpscan's entry points take: the ``tools`` of a ``tools/list``
response (for ``mcpscan.scan`` and ``PinStore``), the ``call`` of a
``tools/call`` request (name and arguments, for call screening), the
``call_result`` of a ``tools/call`` response (for output scanning) and the
``sampling`` request a server sends to the client's model.

>>> from mcpscan import jsonrpc
>>> [message] = jsonrpc.parse(
...     '{"jsonrpc": "2.0", "id": 7, "method": "tools/call",'
...     ' "params": {"name": "read_file", "arguments": {"path": "README.md"}}}'
... )
>>> message.kind, message.call.name, dict(message.call.arguments)
(<MessageKind.TOOLS_CALL_REQUEST: 'tools_call_request'>, 'read_file', {'path': 'README.md'})

A response does not name its method. Give ``pending`` (request id to
method, see ``pending_requests``) to classify responses by the request
they answer; without it they are classified by shape.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ._input import loads
from ._model import ScanError, Tool, plain

__all__ = [
    "Message",
    "MessageKind",
    "RpcError",
    "SamplingMessage",
    "SamplingRequest",
    "ToolCall",
    "parse",
    "pending_requests",
]

#: A JSON-RPC request id: a string or a number (``None`` only in an error
#: response to a request whose id could not be read).
RequestId = str | int | float

TOOLS_LIST = "tools/list"
TOOLS_CALL = "tools/call"
TOOLS_LIST_CHANGED = "notifications/tools/list_changed"
SAMPLING_CREATE = "sampling/createMessage"


class MessageKind(str, enum.Enum):
    TOOLS_LIST_REQUEST = "tools_list_request"
    TOOLS_LIST_RESPONSE = "tools_list_response"
    TOOLS_CALL_REQUEST = "tools_call_request"
    TOOLS_CALL_RESPONSE = "tools_call_response"
    TOOLS_LIST_CHANGED = "tools_list_changed"
    SAMPLING_REQUEST = "sampling_request"
    #: Any other method, or a response that is none of the above.
    OTHER = "other"


# A request is classified by its method whether or not it carries an id: a
# lenient server may still run a "tools/call" sent as a notification, so it
# must not slip past screening as "other".
_REQUEST_KINDS = {
    TOOLS_LIST: MessageKind.TOOLS_LIST_REQUEST,
    TOOLS_CALL: MessageKind.TOOLS_CALL_REQUEST,
    TOOLS_LIST_CHANGED: MessageKind.TOOLS_LIST_CHANGED,
    SAMPLING_CREATE: MessageKind.SAMPLING_REQUEST,
}
_RESPONSE_KINDS = {
    TOOLS_LIST: MessageKind.TOOLS_LIST_RESPONSE,
    TOOLS_CALL: MessageKind.TOOLS_CALL_RESPONSE,
}


@attrs.frozen
class ToolCall:
    """The tool a ``tools/call`` request invokes and its arguments."""

    name: str
    arguments: Mapping[str, Any]


@attrs.frozen
class RpcError:
    """The ``error`` object of a JSON-RPC error response."""

    code: int
    message: str
    data: Any = None


@attrs.frozen
class SamplingMessage:
    """One message of a ``sampling/createMessage`` request.

    ``content`` is always a tuple of content blocks (the protocol allows a
    single block or a list).
    """

    role: str
    content: tuple[Mapping[str, Any], ...]


@attrs.frozen
class SamplingRequest:
    """What a server asks the client's model to read: its messages and system prompt."""

    messages: tuple[SamplingMessage, ...]
    system_prompt: str | None = None


@attrs.frozen
class Message:
    """One classified JSON-RPC message.

    ``id`` is the request id (``None`` for a notification); ``method`` the
    request's method, or for a response the method of the request it
    answers when ``pending`` told it. Only the accessor of the message's
    kind is set: ``tools`` (``TOOLS_LIST_RESPONSE``), ``call``
    (``TOOLS_CALL_REQUEST``), ``call_result`` (``TOOLS_CALL_RESPONSE``),
    ``sampling`` (``SAMPLING_REQUEST``). ``result`` and ``error`` are set
    for any response; ``raw`` is the message object as given.
    """

    kind: MessageKind
    raw: Mapping[str, Any]
    id: RequestId | None = None
    method: str | None = None
    tools: tuple[Tool, ...] = ()
    next_cursor: str | None = None
    call: ToolCall | None = None
    call_result: Mapping[str, Any] | None = None
    sampling: SamplingRequest | None = None
    result: Any = None
    error: RpcError | None = None

    @property
    def is_request(self) -> bool:
        """A request or a notification (it has a method)."""
        return "method" in self.raw

    @property
    def is_response(self) -> bool:
        return not self.is_request


def pending_requests(messages: Iterable[Message]) -> dict[RequestId, str]:
    """Request id to method for the requests among ``messages``.

    Keep this (merged over the messages a connection has sent) and pass it
    as ``parse(..., pending=...)`` so responses are classified by the
    request they answer rather than by their shape.
    """
    return {m.id: m.method for m in messages if m.is_request and m.id is not None and m.method}


# --------------------------------------------------------------------------
# Reading


class _Where:
    """Builds field names: ``[2].params.arguments`` in a batch, ``params.arguments`` alone."""

    def __init__(self, index: int | None) -> None:
        self.prefix = "" if index is None else f"[{index}]"

    def __call__(self, path: str = "") -> str:
        if not path:
            return self.prefix or "message"
        return f"{self.prefix}.{path}" if self.prefix else path

    def error(self, path: str, problem: str) -> ScanError:
        return ScanError(self(path), problem)


def _decode(data: str | bytes | bytearray) -> object:
    # The shared reader: a key given twice keeps every value (the scan
    # covers each, and the structure check reports the duplicate).
    return loads(data, "message")


def _object(value: object, where: _Where, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise where.error(path, f"expected an object, got {type(value).__name__}")
    return value


def _optional_object(value: object, where: _Where, path: str) -> Mapping[str, Any] | None:
    return None if value is None else _object(value, where, path)


def _optional_text(value: object, where: _Where, path: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise where.error(path, f"expected a string, got {type(value).__name__}")
    return value


def _request_id(message: Mapping[str, Any], where: _Where, *, response: bool) -> RequestId | None:
    if "id" not in message:
        if response:
            raise where.error("id", "a response needs an id")
        return None
    value = message["id"]
    if value is None and response:
        return None
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise where.error("id", "expected a string or a number")


def _content_blocks(value: object, where: _Where, path: str) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(value, list):
        raise where.error(path, "expected a list of content blocks")
    for index, block in enumerate(value):
        block_path = f"{path}[{index}]"
        if not isinstance(_object(block, where, block_path).get("type"), str):
            raise where.error(f"{block_path}.type", "a content block needs a string type")
    return tuple(value)


def _tools(result: Mapping[str, Any], where: _Where, server: str | None) -> tuple[Tool, ...]:
    items = result.get("tools")
    if not isinstance(items, list):
        raise where.error("result.tools", "expected a list of tools")
    tools: list[Tool] = []
    for index, item in enumerate(items):
        try:
            tools.append(Tool.from_mcp(item, server=server))
        except ScanError as error:
            raise where.error(f"result.tools[{index}].{error.field}", error.problem) from None
    return tuple(tools)


def _call(params: object, where: _Where) -> ToolCall:
    body = _object(params, where, "params")
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise where.error("params.name", "a tools/call request needs a non-empty tool name")
    arguments = body.get("arguments", {})
    return ToolCall(name=name, arguments=_object(arguments, where, "params.arguments"))


def _call_result(result: object, where: _Where) -> Mapping[str, Any]:
    body = _object(result, where, "result")
    _content_blocks(body.get("content"), where, "result.content")
    _optional_object(body.get("structuredContent"), where, "result.structuredContent")
    if not isinstance(body.get("isError", False), bool):
        raise where.error("result.isError", "expected true or false")
    return body


def _sampling(params: object, where: _Where) -> SamplingRequest:
    body = _object(params, where, "params")
    items = body.get("messages")
    if not isinstance(items, list):
        raise where.error("params.messages", "expected a list of messages")
    messages: list[SamplingMessage] = []
    for index, item in enumerate(items):
        path = f"params.messages[{index}]"
        entry = _object(item, where, path)
        role = entry.get("role")
        if not isinstance(role, str):
            raise where.error(f"{path}.role", "expected a string")
        content = entry.get("content")
        # One block or a list of blocks: both reach the model.
        blocks = [content] if isinstance(content, Mapping) else content
        messages.append(
            SamplingMessage(role=role, content=_content_blocks(blocks, where, f"{path}.content"))
        )
    system = _optional_text(body.get("systemPrompt"), where, "params.systemPrompt")
    return SamplingRequest(messages=tuple(messages), system_prompt=system)


def _read_request(message: Mapping[str, Any], where: _Where) -> Message:
    method = message["method"]
    if not isinstance(method, str) or not method:
        raise where.error("method", "expected a non-empty string")
    request_id = _request_id(message, where, response=False)
    params = message.get("params")
    kind = _REQUEST_KINDS.get(method, MessageKind.OTHER)
    base = Message(kind=kind, raw=message, id=request_id, method=method)
    if kind is MessageKind.OTHER:
        if params is not None and not isinstance(params, (Mapping, list)):
            raise where.error("params", "expected an object or an array")
        return base
    if kind is MessageKind.TOOLS_CALL_REQUEST:
        return attrs.evolve(base, call=_call(params, where))
    if kind is MessageKind.SAMPLING_REQUEST:
        return attrs.evolve(base, sampling=_sampling(params, where))
    body = _optional_object(params, where, "params")
    if kind is MessageKind.TOOLS_LIST_REQUEST and body is not None:
        _optional_text(body.get("cursor"), where, "params.cursor")
    return base


def _error(value: object, where: _Where) -> RpcError:
    body = _object(value, where, "error")
    code = body.get("code")
    if isinstance(code, bool) or not isinstance(code, int):
        raise where.error("error.code", "expected an integer")
    text = body.get("message")
    if not isinstance(text, str):
        raise where.error("error.message", "expected a string")
    return RpcError(code=code, message=text, data=body.get("data"))


def _kind_by_shape(result: object, where: _Where) -> MessageKind:
    """A response's kind when no pending request says which method it answers."""
    if not isinstance(result, Mapping):
        return MessageKind.OTHER
    has_tools = "tools" in result
    has_content = isinstance(result.get("content"), list)
    if has_tools and has_content:
        # A result shaped as both would be scanned as one and used as the
        # other by a client that knows the request: refuse to guess.
        raise where.error("result", "has both tools and content; pass pending= to classify it")
    if has_tools:
        return MessageKind.TOOLS_LIST_RESPONSE
    if has_content:
        return MessageKind.TOOLS_CALL_RESPONSE
    # A sampling/createMessage response has a single content object: other.
    return MessageKind.OTHER


def _read_response(
    message: Mapping[str, Any],
    where: _Where,
    server: str | None,
    pending: Mapping[RequestId, str] | None,
) -> Message:
    if "result" in message and "error" in message:
        raise where.error("message", "a response has a result or an error, not both")
    request_id = _request_id(message, where, response=True)
    method = None if pending is None or request_id is None else pending.get(request_id)
    base = Message(kind=MessageKind.OTHER, raw=message, id=request_id, method=method)
    if "error" in message:
        kind = _RESPONSE_KINDS.get(method or "", MessageKind.OTHER)
        return attrs.evolve(base, kind=kind, error=_error(message["error"], where))
    result = message["result"]
    if method is not None:
        kind = _RESPONSE_KINDS.get(method, MessageKind.OTHER)
    else:
        kind = _kind_by_shape(result, where)
    base = attrs.evolve(base, kind=kind, result=result)
    if kind is MessageKind.TOOLS_LIST_RESPONSE:
        body = _object(result, where, "result")
        cursor = _optional_text(body.get("nextCursor"), where, "result.nextCursor")
        return attrs.evolve(base, tools=_tools(body, where, server), next_cursor=cursor)
    if kind is MessageKind.TOOLS_CALL_RESPONSE:
        return attrs.evolve(base, call_result=_call_result(result, where))
    return base


def _read_message(
    value: object,
    where: _Where,
    server: str | None,
    pending: Mapping[RequestId, str] | None,
) -> Message:
    message = _object(plain(value), where, "")
    if message.get("jsonrpc") != "2.0":
        raise where.error("jsonrpc", 'expected "2.0"')
    if "method" in message:
        if "result" in message or "error" in message:
            raise where.error("method", "a message is a request or a response, not both")
        return _read_request(message, where)
    if "result" in message or "error" in message:
        return _read_response(message, where, server, pending)
    raise where.error("", "neither a request, a notification nor a response")


def parse(
    data: object,
    *,
    server: str | None = None,
    pending: Mapping[RequestId, str] | None = None,
) -> tuple[Message, ...]:
    """Every message of ``data``, in order: one for a message, one per entry of a batch.

    ``data`` is JSON text (``str`` or UTF-8 ``bytes``) or the parsed value
    (a mapping, a list for a batch, or an MCP SDK message). ``server`` homes
    the tools of ``tools/list`` responses; ``pending`` maps request ids to
    methods to classify responses. Unknown methods are ``OTHER``. Raises
    ``ScanError`` naming the field (``[2].params.arguments``) for anything
    malformed: invalid JSON, a missing ``jsonrpc: "2.0"``, an empty batch,
    or a known message whose parts have the wrong shape.
    """
    value = _decode(data) if isinstance(data, (str, bytes, bytearray)) else plain(data)
    if isinstance(value, list):
        if not value:
            raise ScanError("message", "an empty batch")
        return tuple(
            _read_message(item, _Where(index), server, pending) for index, item in enumerate(value)
        )
    return (_read_message(value, _Where(None), server, pending),)
