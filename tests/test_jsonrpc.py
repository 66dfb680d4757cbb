"""JSON-RPC helpers: classification, unpacking, batches, correlation, malformed input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_doctests_pass, run_docs_page

import mcpscan
from mcpscan import ScanError, Tool
from mcpscan.jsonrpc import (
    Message,
    MessageKind,
    RpcError,
    SamplingMessage,
    ToolCall,
    parse,
    pending_requests,
)
from mcpscan.pins import PinStatus, PinStore

TOOLS = [
    {"name": "add", "description": "Add two numbers.", "inputSchema": {"type": "object"}},
    {"name": "echo", "description": "Echo text."},
]
LIST_REQUEST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"cursor": "c1"}}
LIST_RESPONSE = {"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS, "nextCursor": "c2"}}
CALL_REQUEST = {
    "jsonrpc": "2.0",
    "id": "call-7",
    "method": "tools/call",
    "params": {"name": "add", "arguments": {"a": 1, "b": 2}},
}
CALL_RESULT = {
    "content": [{"type": "text", "text": "3"}],
    "structuredContent": {"sum": 3},
    "isError": False,
}
CALL_RESPONSE = {"jsonrpc": "2.0", "id": "call-7", "result": CALL_RESULT}
LIST_CHANGED = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
SAMPLING = {
    "jsonrpc": "2.0",
    "id": 9,
    "method": "sampling/createMessage",
    "params": {
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Summarise this."}},
            {
                "role": "assistant",
                "content": [{"type": "text", "text": "Sure."}, {"type": "image", "data": "AA=="}],
            },
        ],
        "systemPrompt": "You are terse.",
        "maxTokens": 100,
    },
}


def one(value: object, **kwargs: Any) -> Message:
    [message] = parse(value, **kwargs)
    return message


# --------------------------------------------------------------------------
# classification and unpacking


def test_tools_list_request() -> None:
    message = one(LIST_REQUEST)
    assert (message.kind, message.id, message.method) == (
        MessageKind.TOOLS_LIST_REQUEST,
        1,
        "tools/list",
    )
    assert message.is_request and not message.is_response
    assert message.tools == () and message.call is None


def test_tools_list_response_gives_tools_of_the_server() -> None:
    message = one(LIST_RESPONSE, server="calc")
    assert message.kind is MessageKind.TOOLS_LIST_RESPONSE
    assert message.is_response
    assert [t.name for t in message.tools] == ["add", "echo"]
    assert all(isinstance(t, Tool) and t.server == "calc" for t in message.tools)
    assert message.next_cursor == "c2"
    assert message.result == LIST_RESPONSE["result"]


def test_tools_list_response_feeds_scan_and_pins() -> None:
    message = one(LIST_RESPONSE, server="calc")
    report = mcpscan.scan(message.tools[0], {"calc": message.tools})
    assert report.tool.server == "calc"
    events = PinStore().reconcile("calc", message.tools)
    assert [e.status for e in events] == [PinStatus.NEW, PinStatus.NEW]


def test_tools_call_request_gives_name_and_arguments() -> None:
    message = one(CALL_REQUEST)
    assert message.kind is MessageKind.TOOLS_CALL_REQUEST
    assert message.id == "call-7"
    assert message.call == ToolCall(name="add", arguments={"a": 1, "b": 2})


def test_tools_call_without_arguments_has_empty_arguments() -> None:
    message = one({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "now"}})
    assert message.call == ToolCall(name="now", arguments={})


def test_tools_call_sent_as_a_notification_is_still_a_call() -> None:
    message = one(
        {"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "rm", "arguments": {}}}
    )
    assert (message.kind, message.id) == (MessageKind.TOOLS_CALL_REQUEST, None)
    assert message.call is not None and message.call.name == "rm"


def test_tools_call_response_gives_the_result_object() -> None:
    message = one(CALL_RESPONSE)
    assert message.kind is MessageKind.TOOLS_CALL_RESPONSE
    assert message.call_result == CALL_RESULT
    assert message.tools == ()


def test_list_changed_notification() -> None:
    message = one(LIST_CHANGED)
    assert (message.kind, message.id) == (MessageKind.TOOLS_LIST_CHANGED, None)
    assert message.is_request


def test_sampling_request_normalises_content_to_blocks() -> None:
    message = one(SAMPLING)
    assert message.kind is MessageKind.SAMPLING_REQUEST
    assert message.sampling is not None
    assert message.sampling.system_prompt == "You are terse."
    assert message.sampling.messages == (
        SamplingMessage(role="user", content=({"type": "text", "text": "Summarise this."},)),
        SamplingMessage(
            role="assistant",
            content=({"type": "text", "text": "Sure."}, {"type": "image", "data": "AA=="}),
        ),
    )


@pytest.mark.parametrize(
    "value",
    [
        {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "file:///x"}},
        {"jsonrpc": "2.0", "id": 3, "method": "custom/positional", "params": [1, 2]},
        {"jsonrpc": "2.0", "method": "notifications/progress"},
        {"jsonrpc": "2.0", "id": 3, "result": {}},
        {"jsonrpc": "2.0", "id": 3, "result": "plain"},
        # A sampling/createMessage response: one content object, not a list.
        {
            "jsonrpc": "2.0",
            "id": 3,
            "result": {"role": "assistant", "content": {"type": "text", "text": "x"}},
        },
    ],
)
def test_everything_else_is_other(value: dict[str, Any]) -> None:
    message = one(value)
    assert message.kind is MessageKind.OTHER
    assert message.raw == value


def test_error_response() -> None:
    value = {
        "jsonrpc": "2.0",
        "id": 4,
        "error": {"code": -32602, "message": "Unknown tool", "data": {"x": 1}},
    }
    message = one(value)
    assert (message.kind, message.id) == (MessageKind.OTHER, 4)
    assert message.error == RpcError(code=-32602, message="Unknown tool", data={"x": 1})
    assert message.result is None
    correlated = one(value, pending={4: "tools/call"})
    assert (correlated.kind, correlated.method) == (MessageKind.TOOLS_CALL_RESPONSE, "tools/call")
    assert correlated.call_result is None
    assert (
        one({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}).id
        is None
    )


# --------------------------------------------------------------------------
# input forms, batches, correlation


def test_text_bytes_and_parsed_input_agree() -> None:
    text = json.dumps(CALL_REQUEST)
    assert (
        one(text)
        == one(text.encode())
        == one(bytearray(b"\xef\xbb\xbf" + text.encode()))
        == one(CALL_REQUEST)
    )


def test_a_batch_gives_one_message_per_entry_in_order() -> None:
    messages = parse(json.dumps([LIST_REQUEST, CALL_REQUEST, LIST_CHANGED]))
    assert [m.kind for m in messages] == [
        MessageKind.TOOLS_LIST_REQUEST,
        MessageKind.TOOLS_CALL_REQUEST,
        MessageKind.TOOLS_LIST_CHANGED,
    ]


def test_pending_requests_classify_responses_by_the_request() -> None:
    pending = pending_requests(parse([LIST_REQUEST, CALL_REQUEST, LIST_CHANGED, SAMPLING]))
    assert pending == {1: "tools/list", "call-7": "tools/call", 9: "sampling/createMessage"}
    # Shaped like a call result, but it answers tools/list: the request decides.
    tricky = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"tools": [], "content": [{"type": "text", "text": "x"}]},
    }
    message = one(tricky, pending=pending)
    assert (message.kind, message.method, message.tools) == (
        MessageKind.TOOLS_LIST_RESPONSE,
        "tools/list",
        (),
    )
    sampled = one({"jsonrpc": "2.0", "id": 9, "result": {"content": []}}, pending=pending)
    assert sampled.kind is MessageKind.OTHER
    unknown = one(CALL_RESPONSE, pending={"other": "tools/list"})
    assert unknown.kind is MessageKind.TOOLS_CALL_RESPONSE


def test_a_response_shaped_as_both_is_refused_without_pending() -> None:
    tricky = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [], "content": []}}
    with pytest.raises(ScanError, match="pass pending=") as caught:
        parse(tricky)
    assert caught.value.field == "result"


def test_sdk_style_objects_are_dumped() -> None:
    class Model:
        def __init__(self, value: dict[str, Any]) -> None:
            self.value = value

        def model_dump(self, **_kwargs: Any) -> dict[str, Any]:
            return self.value

    assert one(Model(CALL_REQUEST)).call == ToolCall(name="add", arguments={"a": 1, "b": 2})
    assert [m.kind for m in parse([Model(LIST_CHANGED)])] == [MessageKind.TOOLS_LIST_CHANGED]


# --------------------------------------------------------------------------
# malformed input


def _with(base: dict[str, Any], path: list[Any], value: object) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(base))
    target = copy
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return copy


@pytest.mark.parametrize(
    ("value", "field", "problem"),
    [
        ("{", "message", "not valid JSON"),
        (b"\xff", "message", "not valid UTF-8"),
        ('{"jsonrpc": "2.0", "id": NaN, "method": "x"}', "message", "NaN is not valid JSON"),
        ("[" * 100_000, "message", "nested too deeply"),
        ([], "message", "an empty batch"),
        (3, "message", "expected an object"),
        ([LIST_CHANGED, "x"], "[1]", "expected an object"),
        ({"id": 1, "method": "tools/list"}, "jsonrpc", '"2.0"'),
        (_with(LIST_REQUEST, ["jsonrpc"], "1.0"), "jsonrpc", '"2.0"'),
        ({"jsonrpc": "2.0", "id": 1}, "message", "neither a request"),
        ({"jsonrpc": "2.0", "id": 1, "method": "x", "result": {}}, "method", "not both"),
        ({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}}, "message", "not both"),
        (_with(LIST_REQUEST, ["method"], 5), "method", "non-empty string"),
        (_with(LIST_REQUEST, ["id"], True), "id", "string or a number"),
        (_with(LIST_REQUEST, ["id"], None), "id", "string or a number"),
        (_with(LIST_REQUEST, ["id"], [1]), "id", "string or a number"),
        ({"jsonrpc": "2.0", "result": {}}, "id", "needs an id"),
        (_with(LIST_REQUEST, ["params"], [1]), "params", "expected an object"),
        (_with(LIST_REQUEST, ["params", "cursor"], 5), "params.cursor", "expected a string"),
        (
            {"jsonrpc": "2.0", "id": 1, "method": "other", "params": 5},
            "params",
            "object or an array",
        ),
        (_with(CALL_REQUEST, ["params"], KeyError), "params", "expected an object"),
        (_with(CALL_REQUEST, ["params", "name"], ""), "params.name", "non-empty tool name"),
        (
            _with(CALL_REQUEST, ["params", "arguments"], [1]),
            "params.arguments",
            "expected an object",
        ),
        (
            _with(CALL_REQUEST, ["params", "arguments"], None),
            "params.arguments",
            "expected an object",
        ),
        (_with(LIST_RESPONSE, ["result", "tools"], {}), "result.tools", "list of tools"),
        (
            _with(LIST_RESPONSE, ["result", "tools", 1, "name"], ""),
            "result.tools[1].name",
            "non-empty",
        ),
        (
            _with(LIST_RESPONSE, ["result", "tools", 0, "inputSchema"], 3),
            "result.tools[0].inputSchema",
            "object",
        ),
        (
            _with(LIST_RESPONSE, ["result", "nextCursor"], 1),
            "result.nextCursor",
            "expected a string",
        ),
        (
            _with(CALL_RESPONSE, ["result", "content", 0], "text"),
            "result.content[0]",
            "expected an object",
        ),
        (
            _with(CALL_RESPONSE, ["result", "content", 0, "type"], None),
            "result.content[0].type",
            "string type",
        ),
        (
            _with(CALL_RESPONSE, ["result", "structuredContent"], [1]),
            "result.structuredContent",
            "object",
        ),
        (_with(CALL_RESPONSE, ["result", "isError"], "no"), "result.isError", "true or false"),
        ({"jsonrpc": "2.0", "id": 1, "error": "boom"}, "error", "expected an object"),
        (
            {"jsonrpc": "2.0", "id": 1, "error": {"code": "x", "message": "m"}},
            "error.code",
            "integer",
        ),
        ({"jsonrpc": "2.0", "id": 1, "error": {"code": 1}}, "error.message", "expected a string"),
        (_with(SAMPLING, ["params", "messages"], {}), "params.messages", "list of messages"),
        (_with(SAMPLING, ["params", "messages", 1], 3), "params.messages[1]", "expected an object"),
        (
            _with(SAMPLING, ["params", "messages", 0, "role"], 1),
            "params.messages[0].role",
            "string",
        ),
        (
            _with(SAMPLING, ["params", "messages", 0, "content"], "hi"),
            "params.messages[0].content",
            "content blocks",
        ),
        (
            _with(SAMPLING, ["params", "systemPrompt"], ["x"]),
            "params.systemPrompt",
            "expected a string",
        ),
    ],
)
def test_malformed_messages_are_a_scan_error_naming_the_field(
    value: object, field: str, problem: str
) -> None:
    with pytest.raises(ScanError) as caught:
        parse(value)
    assert caught.value.field == field
    assert problem in caught.value.problem


def test_fields_in_a_batch_are_prefixed_with_the_index() -> None:
    bad = _with(CALL_REQUEST, ["params", "arguments"], "rm -rf /")
    with pytest.raises(ScanError) as caught:
        parse([LIST_REQUEST, LIST_CHANGED, bad])
    assert caught.value.field == "[2].params.arguments"
    with pytest.raises(ScanError) as whole:
        parse([LIST_REQUEST, {"jsonrpc": "2.0"}])
    assert whole.value.field == "[1]"


def test_a_call_response_with_no_content_is_malformed_when_correlated() -> None:
    value = {"jsonrpc": "2.0", "id": 5, "result": {"structuredContent": {}}}
    assert one(value).kind is MessageKind.OTHER
    with pytest.raises(ScanError) as caught:
        parse(value, pending={5: "tools/call"})
    assert caught.value.field == "result.content"
    with pytest.raises(ScanError) as listed:
        parse({"jsonrpc": "2.0", "id": 5, "result": "x"}, pending={5: "tools/list"})
    assert listed.value.field == "result"


def test_float_ids_are_accepted_and_infinite_ones_are_not() -> None:
    assert one({"jsonrpc": "2.0", "id": 1.5, "method": "x"}).id == 1.5
    with pytest.raises(ScanError):
        parse({"jsonrpc": "2.0", "id": float("inf"), "method": "x"})


def test_the_docs_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    run_docs_page("jsonrpc.md")
    assert "call read_file {'path': 'README.md'}" in capsys.readouterr().out


def test_the_module_docstring_example_runs() -> None:
    import mcpscan.jsonrpc

    assert_doctests_pass(mcpscan.jsonrpc)
