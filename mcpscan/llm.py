"""LLM responses: the tool calls a model proposes, and the response without the blocked ones.

Pure helpers for a proxy between an agent and its model (no HTTP here):

* ``tool_calls(response)`` lists the calls of a buffered Anthropic Messages
  response (``tool_use`` blocks), OpenAI Chat Completions response
  (``tool_calls`` and the legacy ``function_call``) or OpenAI Responses
  response (``function_call`` output items);
* ``rewrite(response, decisions)`` replaces every blocked call with the
  text ``Tool '<name>' blocked by policy: <reason>``;
* ``StreamFilter`` does the same to a Server-Sent Events stream of any of
  the three, fed chunk by chunk.

>>> from mcpscan.llm import rewrite, tool_calls
>>> from mcpscan import Decision
>>> response = {
...     "type": "message", "role": "assistant", "stop_reason": "tool_use",
...     "content": [{"type": "tool_use", "id": "toolu_1", "name": "send_email",
...                  "input": {"to": "x@example.com"}}],
... }
>>> [(call.name, call.arguments) for call in tool_calls(response)]
[('send_email', {'to': 'x@example.com'})]
>>> out = rewrite(response, [Decision.BLOCK])
>>> out["stop_reason"], out["content"][0]["text"]
('end_turn', "Tool 'send_email' blocked by policy")

Server-side tools the provider runs itself (Anthropic ``server_tool_use``
and ``mcp_tool_use``, OpenAI built-in tools) are not the agent's to run and
are not listed.
"""

from __future__ import annotations

import codecs
import copy
import enum
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ._evidence import safe_evidence
from ._model import ScanError
from ._screen import CallDecision, Decision

__all__ = ["MAX_STREAM_BUFFER", "Provider", "StreamFilter", "ToolCall", "rewrite", "tool_calls"]

#: Bytes of SSE text a ``StreamFilter`` holds at most (a partial event plus
#: the events of calls still being decided).
MAX_STREAM_BUFFER = 256 * 1024
_SHOWN_NAME = 120
_SHOWN_REASON = 500


class Provider(str, enum.Enum):
    """The response formats ``tool_calls``, ``rewrite`` and ``StreamFilter`` read."""

    ANTHROPIC = "anthropic"
    OPENAI = "openai"  # Chat Completions
    OPENAI_RESPONSES = "openai-responses"


@attrs.frozen
class ToolCall:
    """One proposed call: its provider, id, tool name and arguments.

    ``arguments`` is the decoded object; OpenAI sends arguments as a JSON
    string, and one that does not decode is kept as the string (a
    ``Session`` blocks non-object arguments). ``index`` is the call's
    position among the response's calls.
    """

    provider: Provider
    id: str | None
    name: str
    arguments: Any
    index: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "provider": self.provider.value,
            "id": self.id,
            "name": self.name,
            "arguments": self.arguments,
            "index": self.index,
        }


# --------------------------------------------------------------------------
# Reading buffered responses


def _provider(value: object) -> Provider:
    try:
        return Provider(value)
    except ValueError:
        raise ScanError("provider", f"expected one of {[p.value for p in Provider]}") from None


def _detect(response: Mapping[str, Any]) -> Provider:
    if isinstance(response.get("choices"), list):
        return Provider.OPENAI
    if response.get("object") == "response" or isinstance(response.get("output"), list):
        return Provider.OPENAI_RESPONSES
    if response.get("type") == "message" or isinstance(response.get("content"), list):
        return Provider.ANTHROPIC
    raise ScanError(
        "response", "not an Anthropic Messages, OpenAI Chat Completions or Responses response"
    )


def _response(response: object, provider: object) -> tuple[Mapping[str, Any], Provider]:
    if not isinstance(response, Mapping):
        raise ScanError("response", f"expected an object, got {type(response).__name__}")
    return response, (_detect(response) if provider is None else _provider(provider))


def _list(value: object, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ScanError(where, "expected a list")
    return value


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScanError(where, "expected an object")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ScanError(where, "expected a non-empty string")
    return value


def _optional_id(value: object, where: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise ScanError(where, "expected a string")
    return value


def _decoded(arguments: object) -> Any:
    """OpenAI's JSON-string arguments as an object; a string that does not decode stays."""
    if not isinstance(arguments, str):
        return arguments
    if not arguments.strip():
        return {}
    try:
        return json.loads(arguments)
    except ValueError:
        return arguments


def _anthropic_calls(response: Mapping[str, Any]) -> Iterator[tuple[str, ToolCall]]:
    for position, block in enumerate(_list(response.get("content"), "response.content")):
        where = f"response.content[{position}]"
        if _object(block, where).get("type") != "tool_use":
            continue
        yield (
            where,
            ToolCall(
                Provider.ANTHROPIC,
                _optional_id(block.get("id"), f"{where}.id"),
                _text(block.get("name"), f"{where}.name"),
                block.get("input", {}),
                0,
            ),
        )


def _openai_function(entry: Mapping[str, Any], where: str, call_id: object) -> ToolCall:
    function = _object(entry.get("function", entry), f"{where}.function")
    return ToolCall(
        Provider.OPENAI,
        _optional_id(call_id, f"{where}.id"),
        _text(function.get("name"), f"{where}.function.name"),
        _decoded(function.get("arguments")),
        0,
    )


def _openai_calls(response: Mapping[str, Any]) -> Iterator[tuple[str, ToolCall]]:
    for number, choice in enumerate(_list(response.get("choices"), "response.choices")):
        where = f"response.choices[{number}].message"
        message = _object(_object(choice, f"response.choices[{number}]").get("message"), where)
        for position, entry in enumerate(_list(message.get("tool_calls"), f"{where}.tool_calls")):
            at = f"{where}.tool_calls[{position}]"
            function_call = _object(entry, at)
            if function_call.get("type", "function") == "function":
                yield at, _openai_function(function_call, at, function_call.get("id"))
        if message.get("function_call") is not None:
            at = f"{where}.function_call"
            legacy = _object(message["function_call"], at)
            yield at, attrs.evolve(_openai_function({"function": legacy}, at, None), id=None)


def _responses_calls(response: Mapping[str, Any]) -> Iterator[tuple[str, ToolCall]]:
    for position, item in enumerate(_list(response.get("output"), "response.output")):
        where = f"response.output[{position}]"
        if _object(item, where).get("type") != "function_call":
            continue
        yield (
            where,
            ToolCall(
                Provider.OPENAI_RESPONSES,
                _optional_id(item.get("call_id"), f"{where}.call_id"),
                _text(item.get("name"), f"{where}.name"),
                _decoded(item.get("arguments")),
                0,
            ),
        )


_READERS = {
    Provider.ANTHROPIC: _anthropic_calls,
    Provider.OPENAI: _openai_calls,
    Provider.OPENAI_RESPONSES: _responses_calls,
}


def _located_calls(response: Mapping[str, Any], provider: Provider) -> list[tuple[str, ToolCall]]:
    return [
        (where, attrs.evolve(call, index=index))
        for index, (where, call) in enumerate(_READERS[provider](response))
    ]


def tool_calls(response: object, *, provider: Provider | str | None = None) -> tuple[ToolCall, ...]:
    """The tool calls a buffered response proposes, in order.

    ``provider`` (``anthropic``, ``openai`` or ``openai-responses``) is
    detected from the response's shape when not given. Raises ``ScanError``
    naming the field for a malformed response or an unknown provider.
    """
    mapping, detected = _response(response, provider)
    return tuple(call for _, call in _located_calls(mapping, detected))


# --------------------------------------------------------------------------
# Rewriting buffered responses


def _blocked(decision: object, where: str) -> tuple[bool, str]:
    """Whether ``decision`` blocks, and the reason to show."""
    if isinstance(decision, CallDecision):
        reason = decision.reason.removeprefix("block: ")
        return decision.decision is Decision.BLOCK, reason
    try:
        return Decision(decision) is Decision.BLOCK, ""
    except ValueError:
        raise ScanError(where, "expected a CallDecision or a Decision") from None


def blocked_message(name: str, reason: str = "") -> str:
    """The text that replaces a blocked call: ``Tool '<name>' blocked by policy: <reason>``."""
    shown = safe_evidence(name, _SHOWN_NAME)
    text = f"Tool '{shown}' blocked by policy"
    return f"{text}: {safe_evidence(reason, _SHOWN_REASON)}" if reason else text


def _messages(calls: Sequence[tuple[str, ToolCall]], decisions: Sequence[object]) -> dict[str, str]:
    """The replacement text of each blocked call, by its location."""
    if isinstance(decisions, (str, bytes)) or len(decisions) != len(calls):
        raise ScanError("decisions", f"expected one decision per tool call ({len(calls)})")
    out: dict[str, str] = {}
    for index, ((where, call), decision) in enumerate(zip(calls, decisions, strict=True)):
        blocked, reason = _blocked(decision, f"decisions[{index}]")
        if blocked:
            out[where] = blocked_message(call.name, reason)
    return out


def _rewrite_anthropic(response: dict[str, Any], messages: Mapping[str, str], calls: int) -> None:
    content = response["content"]
    for position in range(len(content)):
        text = messages.get(f"response.content[{position}]")
        if text is not None:
            content[position] = {"type": "text", "text": text}
    if calls and len(messages) == calls and response.get("stop_reason") == "tool_use":
        response["stop_reason"] = "end_turn"


def _with_content(message: dict[str, Any], texts: list[str]) -> None:
    existing = message.get("content")
    joined = "\n".join(texts)
    message["content"] = (
        f"{existing}\n{joined}" if isinstance(existing, str) and existing else joined
    )


def _rewrite_openai(response: dict[str, Any], messages: Mapping[str, str]) -> None:
    for number, choice in enumerate(response["choices"]):
        where = f"response.choices[{number}].message"
        message = choice["message"]
        texts: list[str] = []
        kept = []
        for position, entry in enumerate(message.get("tool_calls") or []):
            text = messages.get(f"{where}.tool_calls[{position}]")
            if text is None:
                kept.append(entry)
            else:
                texts.append(text)
        legacy = messages.get(f"{where}.function_call")
        if legacy is not None:
            texts.append(legacy)
            del message["function_call"]
        if not texts:
            continue
        _with_content(message, texts)
        if message.get("tool_calls"):
            if kept:
                message["tool_calls"] = kept
            else:
                del message["tool_calls"]
        if not kept and choice.get("finish_reason") in ("tool_calls", "function_call"):
            choice["finish_reason"] = "stop"


def _blocked_item(call_id: object, text: str) -> dict[str, Any]:
    return {
        "type": "message",
        "id": f"msg_blocked_{call_id}",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def _rewrite_responses(response: dict[str, Any], messages: Mapping[str, str]) -> None:
    output = response["output"]
    for position, item in enumerate(output):
        text = messages.get(f"response.output[{position}]")
        if text is not None:
            output[position] = _blocked_item(item.get("call_id"), text)


def rewrite(
    response: object,
    decisions: Sequence[CallDecision | Decision | str],
    *,
    provider: Provider | str | None = None,
) -> dict[str, Any]:
    """A copy of ``response`` with every blocked call replaced by a message.

    ``decisions`` are in the order of ``tool_calls(response)``; only
    ``block`` replaces a call (a gateway that cannot ask a person should
    pass ``block`` for ``require_approval`` itself). Anthropic: a blocked
    ``tool_use`` block becomes a text block and ``stop_reason`` turns from
    ``tool_use`` to ``end_turn`` when every call was blocked. OpenAI Chat
    Completions: blocked calls leave ``tool_calls``, their messages are
    appended to ``content``, and ``finish_reason`` becomes ``stop`` when no
    call is left. Responses: a blocked ``function_call`` item becomes an
    assistant ``message`` item. The input is never changed.
    """
    mapping, detected = _response(response, provider)
    calls = _located_calls(mapping, detected)
    messages = _messages(calls, decisions)
    out = copy.deepcopy(dict(mapping))
    if not messages:
        return out
    if detected is Provider.ANTHROPIC:
        _rewrite_anthropic(out, messages, len(calls))
    elif detected is Provider.OPENAI:
        _rewrite_openai(out, messages)
    else:
        _rewrite_responses(out, messages)
    return out


# --------------------------------------------------------------------------
# Streams


Decide = Callable[[ToolCall], CallDecision]


@attrs.define
class _Event:
    """One SSE event: its raw text, name and decoded data (``None``: not JSON)."""

    raw: str
    name: str | None
    data: Any
    done: bool = False  # OpenAI's ``data: [DONE]``
    # ``raw`` is the provider's own text (not a piece cut out of a chunk).
    whole: bool = True


@attrs.define
class _Pending:
    """A streamed call whose events are held until it can be decided."""

    key: Any
    choice: int = 0
    name: str = ""
    call_id: str | None = None
    parts: list[str] = attrs.Factory(list)
    initial: Any = None
    blocked: bool | None = None
    message: str = ""
    overflowed: bool = False
    # OpenAI: the index a call that passes gets; whether a blocked call's
    # message was sent already.
    new_index: int = 0
    shown: bool = False


def _sse(name: str | None, data: Mapping[str, Any]) -> str:
    line = f"data: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n"
    return f"event: {name}\n{line}" if name else line


def _parse_event(raw: str) -> _Event:
    name: str | None = None
    data_lines: list[str] = []
    for line in raw.split("\n"):
        line = line.rstrip("\r")  # noqa: PLW2901
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data_lines.append(line[5:].removeprefix(" "))
    if not data_lines:
        return _Event(raw, name, None)
    text = "\n".join(data_lines)
    if text.strip() == "[DONE]":
        return _Event(raw, name, None, done=True)
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    return _Event(raw, name, data if isinstance(data, Mapping) else None)


def _stream_provider(event: _Event) -> Provider | None:
    data = event.data
    if data is None:
        return None
    kind = str(data.get("type", ""))
    if kind.startswith("response."):
        return Provider.OPENAI_RESPONSES
    if data.get("object") == "chat.completion.chunk" or "choices" in data:
        return Provider.OPENAI
    if kind in ("message_start", "ping", "content_block_start", "message_delta", "error"):
        return Provider.ANTHROPIC
    return None


class StreamFilter:
    """Filters an SSE stream so blocked tool calls never reach the agent.

    ``decide`` is called once per proposed call with its ``ToolCall``
    (typically ``lambda call: session.evaluate_call(server_of(call.name),
    call.name, call.arguments)``). Feed the provider's SSE text with
    ``feed`` (``str`` or ``bytes``; the output is of the same type) and
    forward what it returns; call ``close`` at the end of the stream.

    Text passes through at once. A call's events are held from its first
    event (Anthropic ``content_block_start``, the first OpenAI delta naming
    the call, Responses ``response.output_item.added``) until its arguments
    are complete, then either released unchanged or replaced by a text
    block or content delta saying ``Tool '<name>' blocked by policy:
    <reason>``. ``stop_reason`` and ``finish_reason`` are rewritten as
    ``rewrite`` does; OpenAI calls that pass are renumbered from 0.

    Memory is bounded by ``max_buffer`` (256 KB): a call whose held events
    would exceed it is blocked unseen (``decisions`` records why), and a
    single SSE event larger than it raises ``ScanError``, as does a stream
    that is not one of the three providers'.
    """

    def __init__(
        self,
        decide: Decide,
        *,
        provider: Provider | str | None = None,
        max_buffer: int = MAX_STREAM_BUFFER,
    ) -> None:
        if not callable(decide):
            raise ScanError("decide", "expected a callable taking a ToolCall")
        if isinstance(max_buffer, bool) or not isinstance(max_buffer, int) or max_buffer < 1024:
            raise ScanError("max_buffer", "expected a whole number of bytes, at least 1024")
        self._decide = decide
        self._provider = None if provider is None else _provider(provider)
        self._max = max_buffer
        self._partial = ""
        self._decoder: codecs.IncrementalDecoder | None = None
        self._queue: list[tuple[_Pending | None, _Event]] = []
        self._held = 0
        self._pending: dict[Any, _Pending] = {}
        self._decided: list[tuple[ToolCall, CallDecision]] = []
        self._calls = 0
        self._blocked = 0
        self._blocked_by_choice: dict[int, int] = {}
        self._kept_by_choice: dict[int, int] = {}
        self._choices_with_message: set[int] = set()
        self._items: dict[Any, _Pending] = {}
        self._closed = False

    @property
    def decisions(self) -> tuple[tuple[ToolCall, CallDecision], ...]:
        """Every call decided so far and its decision, in order."""
        return tuple(self._decided)

    # -- input -----------------------------------------------------------------

    def feed(self, chunk: str | bytes) -> Any:
        """Take the next piece of the stream; return what may be forwarded now."""
        if self._closed:
            raise ScanError("stream", "feed after close")
        if isinstance(chunk, bytes):
            if self._decoder is None:
                self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
            return self._run(self._decoder.decode(chunk)).encode("utf-8")
        if not isinstance(chunk, str):
            raise ScanError("chunk", f"expected str or bytes, got {type(chunk).__name__}")
        return self._run(chunk)

    def close(self) -> Any:
        """End of stream: decide what is still held and return the rest."""
        tail = self._decoder.decode(b"", final=True) if self._decoder is not None else ""
        out = self._run(tail)
        if self._partial.strip():
            out += self._handle(_parse_event(self._partial))
        self._partial = ""
        out += self._finish_all("the stream ended before the call was complete")
        self._closed = True
        return out.encode("utf-8") if self._decoder is not None else out

    def _run(self, text: str) -> str:
        self._partial += text.replace("\r\n", "\n")
        out: list[str] = []
        while True:
            end = self._partial.find("\n\n")
            if end == -1:
                break
            raw = self._partial[: end + 2]
            self._partial = self._partial[end + 2 :]
            if raw.strip():
                out.append(self._handle(_parse_event(raw)))
            else:
                out.append(raw)
        if len(self._partial.encode("utf-8")) > self._max:
            raise ScanError("stream", f"an SSE event exceeds {self._max} bytes")
        return "".join(out)

    # -- dispatch ----------------------------------------------------------------

    def _handle(self, event: _Event) -> str:
        if self._provider is None:
            self._provider = _stream_provider(event)
            if self._provider is None:
                if event.data is not None:
                    raise ScanError("stream", "not an Anthropic or OpenAI event stream")
                return event.raw  # comments and keep-alives before the first event
        if self._provider is Provider.ANTHROPIC:
            return self._anthropic(event)
        if self._provider is Provider.OPENAI:
            return self._openai(event)
        return self._responses(event)

    def _hold(self, pending: _Pending | None, event: _Event) -> str:
        """Queue ``event``, or pass it on when nothing is held before it."""
        if pending is None and not self._queue:
            return self._finishing(event)
        size = len(event.raw.encode("utf-8"))
        if pending is not None and pending.overflowed:
            return ""
        if self._held + size > self._max and pending is not None and pending.blocked is None:
            # Too much to hold: block the call unseen rather than grow.
            pending.overflowed = True
            self._settle(
                pending, f"its streamed events exceed the {self._max}-byte buffer; blocked unseen"
            )
            self._queue.append((pending, event))
            self._held += size
            return self._flush()
        self._queue.append((pending, event))
        self._held += size
        return ""

    def _flush(self) -> str:
        out: list[str] = []
        while self._queue:
            pending, event = self._queue[0]
            if pending is not None and pending.blocked is None:
                break
            self._queue.pop(0)
            self._held -= len(event.raw.encode("utf-8"))
            out.append(self._emit(pending, event))
        if not self._queue:
            self._held = 0
        return "".join(out)

    def _emit(self, pending: _Pending | None, event: _Event) -> str:
        if pending is None:
            return self._finishing(event)
        if self._provider is Provider.ANTHROPIC:
            return self._emit_anthropic(pending, event)
        if self._provider is Provider.OPENAI:
            return self._emit_openai(pending, event)
        return self._emit_responses(pending, event)

    def _settle(self, pending: _Pending, unseen: str | None = None) -> None:
        """Decide ``pending`` (once): ask ``decide``, or block it ``unseen``."""
        if pending.blocked is not None:
            return
        call = ToolCall(
            self._provider or Provider.ANTHROPIC,
            pending.call_id,
            pending.name or "unknown",
            self._arguments(pending),
            self._calls,
        )
        self._calls += 1
        if unseen is None:
            decision = self._decide(call)
            if not isinstance(decision, CallDecision):
                raise ScanError("decide", "expected decide to return a CallDecision")
        else:
            decision = _unseen_block(unseen)
        self._decided.append((call, decision))
        blocked, reason = _blocked(decision, "decide")
        pending.blocked = blocked
        pending.message = blocked_message(call.name, reason)
        choice = pending.choice
        if blocked:
            self._blocked += 1
            self._blocked_by_choice[choice] = self._blocked_by_choice.get(choice, 0) + 1
        else:
            pending.new_index = self._kept_by_choice.get(choice, 0)
            self._kept_by_choice[choice] = pending.new_index + 1

    @staticmethod
    def _arguments(pending: _Pending) -> Any:
        if pending.overflowed:
            return None
        if pending.parts:
            return _decoded("".join(pending.parts))
        return _decoded(pending.initial) if pending.initial is not None else {}

    def _start(self, key: Any, name: object, call_id: object) -> _Pending:
        """Hold a call from its first event on."""
        pending = _Pending(key=key, name=str(name or ""), call_id=_str_or_none(call_id))
        self._pending[key] = pending
        return pending

    def _finish_all(self, unseen: str) -> str:
        for pending in list(self._pending.values()):
            self._settle(pending, unseen)
        self._pending.clear()
        return self._flush()

    def _complete(self, pending: _Pending) -> str:
        self._settle(pending)
        self._pending.pop(pending.key, None)
        return self._flush()

    def _finishing(self, event: _Event) -> str:
        """An event that carries the end of the message, rewritten when every call was blocked."""
        data = event.data
        if data is None:
            return event.raw
        if self._provider is Provider.ANTHROPIC:
            delta = data.get("delta")
            if (
                data.get("type") == "message_delta"
                and isinstance(delta, Mapping)
                and delta.get("stop_reason") == "tool_use"
                and self._calls
                and self._blocked == self._calls
            ):
                changed = {**data, "delta": {**delta, "stop_reason": "end_turn"}}
                return _sse(event.name, changed)
            return event.raw
        if self._provider is Provider.OPENAI:
            return self._openai_finish(event)
        return self._responses_finish(event)

    # -- Anthropic -------------------------------------------------------------

    def _anthropic(self, event: _Event) -> str:
        data = event.data or {}
        kind = data.get("type")
        index = data.get("index")
        block = data.get("content_block")
        if (
            kind == "content_block_start"
            and isinstance(block, Mapping)
            and block.get("type") == "tool_use"
        ):
            started = self._start(("a", index), block.get("name"), block.get("id"))
            started.initial = block.get("input") or None
            return self._hold(started, event)
        pending = self._pending.get(("a", index)) if index is not None else None
        if pending is None:
            if kind == "message_delta":
                return self._finish_all("the message ended before the call was complete") + (
                    self._hold(None, event)
                )
            return self._hold(None, event)
        if kind == "content_block_delta":
            delta = data.get("delta")
            if isinstance(delta, Mapping) and isinstance(delta.get("partial_json"), str):
                pending.parts.append(delta["partial_json"])
            return self._hold(pending, event)
        out = self._hold(pending, event)
        if kind == "content_block_stop":
            out += self._complete(pending)
        return out

    def _emit_anthropic(self, pending: _Pending, event: _Event) -> str:
        if not pending.blocked:
            return event.raw
        data = event.data or {}
        if data.get("type") != "content_block_start":
            return ""
        index = data.get("index")
        return (
            _sse(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            + _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": pending.message},
                },
            )
            + _sse("content_block_stop", {"type": "content_block_stop", "index": index})
        )

    # -- OpenAI Chat Completions ---------------------------------------------------

    def _openai(self, event: _Event) -> str:
        if event.done:
            return self._finish_all("the stream ended before the call was complete") + (
                self._hold(None, event)
            )
        data = event.data
        choices = data.get("choices") if data is not None else None
        if not isinstance(choices, list) or not choices:
            return self._hold(None, event)
        out: list[str] = []
        rest: list[Any] = []
        for choice in choices:
            if not isinstance(choice, Mapping):
                rest.append(choice)
                continue
            number = choice.get("index", 0)
            delta = choice.get("delta")
            entries = delta.get("tool_calls") if isinstance(delta, Mapping) else None
            if not isinstance(entries, list) or not entries:
                if choice.get("finish_reason") is not None:
                    out.append(self._finish_choice(number))
                rest.append(choice)
                continue
            extra = {k: v for k, v in delta.items() if k != "tool_calls"}  # type: ignore[union-attr]
            # A chunk that is one piece of one call keeps its own text.
            alone = len(choices) == 1 and len(entries) == 1 and choice.get("finish_reason") is None
            for position, entry in enumerate(entries):
                out.append(
                    self._openai_entry(
                        data,
                        choice,
                        entry if isinstance(entry, Mapping) else {},
                        extra if position == 0 else {},
                        event.raw if alone else None,
                    )
                )
            if choice.get("finish_reason") is not None:
                out.append(self._finish_choice(number))
                rest.append({**choice, "delta": {}})
        if rest:
            remaining = (
                event
                if len(rest) == len(choices)
                else _Event(
                    _sse(event.name, {**data, "choices": rest}),
                    event.name,
                    {**data, "choices": rest},
                )
            )
            out.append(self._hold(None, remaining))
        return "".join(out)

    def _openai_entry(
        self,
        chunk: Mapping[str, Any],
        choice: Mapping[str, Any],
        entry: Mapping[str, Any],
        extra: dict[str, Any],
        raw: str | None,
    ) -> str:
        number = choice.get("index", 0)
        index = entry.get("index", 0)
        key = ("o", number, index)
        out = ""
        pending = self._pending.get(key)
        if pending is None:
            # A new call on this choice: the ones before it are complete.
            for other in [p for k, p in self._pending.items() if k[1] == number]:
                out += self._complete(other)
            function = entry.get("function")
            name = function.get("name") if isinstance(function, Mapping) else None
            pending = self._start(key, name, entry.get("id"))
            pending.choice = number
        function = entry.get("function")
        if isinstance(function, Mapping) and isinstance(function.get("arguments"), str):
            pending.parts.append(function["arguments"])
        envelope = {k: v for k, v in chunk.items() if k != "choices"}
        piece = {
            **choice,
            "index": number,
            "delta": {**extra, "tool_calls": [dict(entry)]},
            "finish_reason": None,
        }
        payload = {**envelope, "choices": [piece]}
        piece_event = _Event(raw or _sse(None, payload), None, payload, whole=raw is not None)
        return out + self._hold(pending, piece_event)

    def _finish_choice(self, number: int) -> str:
        out = ""
        for other in [p for k, p in self._pending.items() if k[1] == number]:
            out += self._complete(other)
        return out

    def _emit_openai(self, pending: _Pending, event: _Event) -> str:
        data = event.data
        piece = data["choices"][0]
        delta = dict(piece["delta"])
        entry = dict(delta.pop("tool_calls")[0])
        if not pending.blocked:
            if event.whole and entry.get("index", 0) == pending.new_index:
                return event.raw
            entry["index"] = pending.new_index
            changed = {**data, "choices": [{**piece, "delta": {**delta, "tool_calls": [entry]}}]}
            return _sse(None, changed)
        if pending.shown:
            # Later pieces of a blocked call: only what is not the call (a
            # role) goes on.
            return _sse(None, {**data, "choices": [{**piece, "delta": delta}]}) if delta else ""
        pending.shown = True
        number = piece["index"]
        earlier = number in self._choices_with_message
        self._choices_with_message.add(number)
        delta.pop("content", None)
        text = ("\n" if earlier else "") + pending.message
        return _sse(None, {**data, "choices": [{**piece, "delta": {**delta, "content": text}}]})

    def _openai_finish(self, event: _Event) -> str:
        data = event.data
        if data is None or not isinstance(data.get("choices"), list):
            return event.raw
        changed = False
        choices = []
        for choice in data["choices"]:
            if (
                isinstance(choice, Mapping)
                and choice.get("finish_reason") in ("tool_calls", "function_call")
                and self._blocked_by_choice.get(choice.get("index", 0))
                and not self._kept_by_choice.get(choice.get("index", 0))
            ):
                choice = {**choice, "finish_reason": "stop"}  # noqa: PLW2901
                changed = True
            choices.append(choice)
        return _sse(event.name, {**data, "choices": choices}) if changed else event.raw

    # -- OpenAI Responses --------------------------------------------------------

    def _responses(self, event: _Event) -> str:
        data = event.data or {}
        kind = data.get("type")
        index = data.get("output_index")
        item = data.get("item")
        if (
            kind == "response.output_item.added"
            and isinstance(item, Mapping)
            and item.get("type") == "function_call"
        ):
            started = self._start(("r", index), item.get("name"), item.get("call_id"))
            started.initial = item.get("arguments") or None
            self._items[index] = started
            return self._hold(started, event)
        pending = self._pending.get(("r", index)) if index is not None else None
        if pending is None:
            if kind in ("response.completed", "response.incomplete", "response.failed"):
                return self._finish_all("the response ended before the call was complete") + (
                    self._hold(None, event)
                )
            return self._hold(None, event)
        if kind == "response.function_call_arguments.delta" and isinstance(data.get("delta"), str):
            pending.parts.append(data["delta"])
        elif kind == "response.function_call_arguments.done" and isinstance(
            data.get("arguments"), str
        ):
            pending.parts = [data["arguments"]]
        out = self._hold(pending, event)
        if kind == "response.output_item.done":
            if isinstance(item, Mapping) and isinstance(item.get("arguments"), str):
                pending.parts = [item["arguments"]]
            out = self._complete(pending) if not out else out + self._complete(pending)
        return out

    def _emit_responses(self, pending: _Pending, event: _Event) -> str:
        if not pending.blocked:
            return event.raw
        data = event.data or {}
        if data.get("type") != "response.output_item.added":
            return ""
        index = data.get("output_index")
        item = _blocked_item(pending.call_id, pending.message)
        number = data.get("sequence_number")
        part = item["content"][0]
        events = [
            (
                "response.output_item.added",
                {"item": {**item, "status": "in_progress", "content": []}},
            ),
            (
                "response.content_part.added",
                {"item_id": item["id"], "content_index": 0, "part": {**part, "text": ""}},
            ),
            (
                "response.output_text.delta",
                {"item_id": item["id"], "content_index": 0, "delta": pending.message},
            ),
            (
                "response.output_text.done",
                {"item_id": item["id"], "content_index": 0, "text": pending.message},
            ),
            (
                "response.content_part.done",
                {"item_id": item["id"], "content_index": 0, "part": part},
            ),
            ("response.output_item.done", {"item": item}),
        ]
        out = []
        for name, body in events:
            payload: dict[str, Any] = {"type": name, "output_index": index, **body}
            if number is not None:
                payload["sequence_number"] = number
            out.append(_sse(name, payload))
        return "".join(out)

    def _responses_finish(self, event: _Event) -> str:
        data = event.data
        response = data.get("response") if data is not None else None
        if not isinstance(response, Mapping) or not isinstance(response.get("output"), list):
            return event.raw
        output = list(response["output"])
        changed = False
        for position, item in enumerate(output):
            pending = self._items.get(position)
            if (
                pending is not None
                and pending.blocked
                and isinstance(item, Mapping)
                and item.get("type") == "function_call"
            ):
                output[position] = _blocked_item(item.get("call_id"), pending.message)
                changed = True
        if not changed:
            return event.raw
        return _sse(event.name, {**data, "response": {**response, "output": output}})


def _str_or_none(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _unseen_block(reason: str) -> CallDecision:
    from ._model import Coverage, Severity  # noqa: PLC0415

    return CallDecision(
        decision=Decision.BLOCK,
        risk=Severity.HIGH,
        reason=f"block: {reason}",
        findings=(),
        signals=(),
        coverage=Coverage(),
        rule="arguments",
        severity=Severity.HIGH,
    )
