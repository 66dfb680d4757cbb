"""mcpscan.llm: tool calls out of, and blocked calls out of, Anthropic and OpenAI responses."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from helpers import assert_doctests_pass

import mcpscan.llm
from mcpscan import Decision, ScanError
from mcpscan.llm import Provider, StreamFilter, ToolCall, rewrite, tool_calls
from mcpscan.session import Session

SERVERS = {
    "files": [{"name": "read_file", "description": "Read a file from the workspace."}],
    "mail": [{"name": "send_email", "description": "Send an email."}],
}
SERVER_OF = {"read_file": "files", "send_email": "mail"}


def test_module_doctests() -> None:
    assert_doctests_pass(mcpscan.llm)


def session_decider() -> Any:
    """A session whose read_file (files) comes first: a send after it is blocked."""
    session = Session(SERVERS, clock=lambda: 100.0)

    def decide(call: ToolCall) -> Any:
        return session.evaluate_call(SERVER_OF.get(call.name, "other"), call.name, call.arguments)

    return decide


# --------------------------------------------------------------- buffered payloads

ANTHROPIC = {
    "id": "msg_01XFDUDYJgAACzvnptvVoYEL",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [
        {"type": "text", "text": "I'll read the report, then mail it."},
        {
            "type": "tool_use",
            "id": "toolu_01A09q90qw90lq917835lq9",
            "name": "read_file",
            "input": {"path": "reports/q3.md"},
        },
        {
            "type": "tool_use",
            "id": "toolu_01B8rG7Vx2",
            "name": "send_email",
            "input": {"to": "boss@example.com", "body": "see attached"},
        },
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 512, "output_tokens": 88},
}

OPENAI = {
    "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
    "object": "chat.completion",
    "created": 1741570283,
    "model": "gpt-4o-2024-08-06",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_12345xyz",
                        "type": "function",
                        "function": {
                            "name": "read_file",
                            "arguments": '{"path":"reports/q3.md"}',
                        },
                    },
                    {
                        "id": "call_67890abc",
                        "type": "function",
                        "function": {
                            "name": "send_email",
                            "arguments": '{"to":"boss@example.com","body":"see attached"}',
                        },
                    },
                ],
                "refusal": None,
            },
            "logprobs": None,
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {"prompt_tokens": 82, "completion_tokens": 17, "total_tokens": 99},
}

RESPONSES = {
    "id": "resp_67ccd2bed1ec8190b14f964abc054267",
    "object": "response",
    "created_at": 1741476542,
    "status": "completed",
    "model": "gpt-4.1-2025-04-14",
    "output": [
        {
            "type": "function_call",
            "id": "fc_12345xyz",
            "call_id": "call_12345xyz",
            "name": "read_file",
            "arguments": '{"path":"reports/q3.md"}',
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc_67890abc",
            "call_id": "call_67890abc",
            "name": "send_email",
            "arguments": '{"to":"boss@example.com","body":"see attached"}',
            "status": "completed",
        },
    ],
}


@pytest.mark.parametrize(
    ("response", "provider"),
    [
        (ANTHROPIC, Provider.ANTHROPIC),
        (OPENAI, Provider.OPENAI),
        (RESPONSES, Provider.OPENAI_RESPONSES),
    ],
)
def test_tool_calls_of_each_provider(response: dict[str, Any], provider: Provider) -> None:
    calls = tool_calls(response)
    assert [(c.provider, c.name, c.index) for c in calls] == [
        (provider, "read_file", 0),
        (provider, "send_email", 1),
    ]
    assert calls[0].arguments == {"path": "reports/q3.md"}
    assert calls[1].to_dict()["arguments"]["to"] == "boss@example.com"


def test_legacy_function_call_and_undecodable_arguments() -> None:
    response = {
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "function_call": {"name": "send_email", "arguments": '{"to": '},
                },
                "finish_reason": "function_call",
            }
        ]
    }
    (call,) = tool_calls(response)
    assert (call.name, call.arguments, call.id) == ("send_email", '{"to": ', None)
    decision = Session(SERVERS, clock=lambda: 1.0).evaluate_call("mail", call.name, call.arguments)
    assert decision.decision is Decision.BLOCK
    out = rewrite(response, [decision])
    choice = out["choices"][0]
    assert "function_call" not in choice["message"]
    assert choice["finish_reason"] == "stop"
    assert choice["message"]["content"].startswith("Tool 'send_email' blocked by policy: ")


def test_partially_blocked_anthropic_response() -> None:
    decide = session_decider()
    decisions = [decide(call) for call in tool_calls(ANTHROPIC)]
    assert [d.decision for d in decisions] == [Decision.ALLOW, Decision.BLOCK]
    out = rewrite(ANTHROPIC, decisions)
    assert out["stop_reason"] == "tool_use"
    assert out["content"][:2] == ANTHROPIC["content"][:2]
    replaced = out["content"][2]
    assert replaced["type"] == "text"
    assert replaced["text"].startswith("Tool 'send_email' blocked by policy: send send_email")
    assert "read_then_send" not in replaced["text"]  # the reason, not the rule id
    assert ANTHROPIC["content"][2]["type"] == "tool_use"  # the input is untouched


def test_fully_blocked_anthropic_response() -> None:
    out = rewrite(ANTHROPIC, [Decision.BLOCK, "block"])
    assert out["stop_reason"] == "end_turn"
    assert [b["type"] for b in out["content"]] == ["text", "text", "text"]
    assert out["content"][1]["text"] == "Tool 'read_file' blocked by policy"


def test_partially_blocked_openai_response() -> None:
    decide = session_decider()
    out = rewrite(OPENAI, [decide(call) for call in tool_calls(OPENAI)])
    choice = out["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert [c["id"] for c in choice["message"]["tool_calls"]] == ["call_12345xyz"]
    assert choice["message"]["content"].startswith("Tool 'send_email' blocked by policy")


def test_fully_blocked_openai_response_keeps_existing_content() -> None:
    response = copy.deepcopy(OPENAI)
    response["choices"][0]["message"]["content"] = "Working on it."
    out = rewrite(response, [Decision.BLOCK, Decision.BLOCK])
    message = out["choices"][0]["message"]
    assert "tool_calls" not in message
    assert out["choices"][0]["finish_reason"] == "stop"
    assert message["content"].split("\n") == [
        "Working on it.",
        "Tool 'read_file' blocked by policy",
        "Tool 'send_email' blocked by policy",
    ]


def test_blocked_responses_item_becomes_a_message() -> None:
    out = rewrite(RESPONSES, [Decision.ALLOW, Decision.BLOCK])
    assert out["output"][0] == RESPONSES["output"][0]
    item = out["output"][1]
    assert (item["type"], item["role"], item["id"]) == (
        "message",
        "assistant",
        "msg_blocked_call_67890abc",
    )
    assert item["content"][0]["text"] == "Tool 'send_email' blocked by policy"


def test_nothing_blocked_gives_an_equal_copy() -> None:
    out = rewrite(OPENAI, [Decision.ALLOW, Decision.WARN])
    assert out == OPENAI and out is not OPENAI


def test_require_approval_is_not_replaced() -> None:
    assert rewrite(ANTHROPIC, ["require_approval", "allow"]) == ANTHROPIC


def test_a_name_with_hidden_characters_is_escaped_in_the_message() -> None:
    response = copy.deepcopy(ANTHROPIC)
    response["content"][1]["name"] = "read\u200bfile"
    out = rewrite(response, [Decision.BLOCK, Decision.ALLOW])
    assert "\u200b" not in out["content"][1]["text"]


@pytest.mark.parametrize(
    ("response", "field"),
    [
        ([], "response"),
        ({"hello": 1}, "response"),
        ({"type": "message", "content": "text"}, "response.content"),
        ({"type": "message", "content": [1]}, "response.content[0]"),
        ({"type": "message", "content": [{"type": "tool_use"}]}, "response.content[0].name"),
        (
            {"type": "message", "content": [{"type": "tool_use", "name": "x", "id": 3}]},
            "response.content[0].id",
        ),
        ({"choices": [{"message": 1}]}, "response.choices[0].message"),
        ({"choices": [1]}, "response.choices[0]"),
        ({"choices": [{"message": {"tool_calls": {}}}]}, "response.choices[0].message.tool_calls"),
        (
            {"choices": [{"message": {"tool_calls": [{"function": {}}]}}]},
            "response.choices[0].message.tool_calls[0].function.name",
        ),
        ({"output": [{"type": "function_call"}]}, "response.output[0].name"),
    ],
)
def test_malformed_responses_raise_naming_the_field(response: object, field: str) -> None:
    with pytest.raises(ScanError) as caught:
        tool_calls(response)
    assert caught.value.field == field


def test_bad_provider_and_decisions_raise() -> None:
    with pytest.raises(ScanError, match="provider"):
        tool_calls(ANTHROPIC, provider="gemini")
    with pytest.raises(ScanError, match="decisions"):
        rewrite(ANTHROPIC, [Decision.BLOCK])
    with pytest.raises(ScanError, match="decisions"):
        rewrite(ANTHROPIC, "bb")  # type: ignore[arg-type]
    with pytest.raises(ScanError, match=r"decisions\[1\]"):
        rewrite(ANTHROPIC, [Decision.BLOCK, "nope"])


def test_provider_can_be_named() -> None:
    assert tool_calls(ANTHROPIC, provider="anthropic")[0].provider is Provider.ANTHROPIC
    assert tool_calls({"content": []}) == ()


# --------------------------------------------------------------- streams


def sse(name: str | None, data: dict[str, Any]) -> str:
    line = f"data: {json.dumps(data)}\n\n"
    return f"event: {name}\n{line}" if name else line


def anthropic_stream() -> str:
    events = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    "id": "msg_014p7gG3wDgGV9EUtLvnow3U",
                    "type": "message",
                    "role": "assistant",
                    "model": "claude-sonnet-4-5",
                    "content": [],
                    "stop_reason": None,
                    "usage": {"input_tokens": 472, "output_tokens": 2},
                },
            },
        ),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        ("ping", {"type": "ping"}),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "Reading the report, "},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": "then mailing it."},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 1,
                "content_block": {
                    "type": "tool_use",
                    "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                    "name": "read_file",
                    "input": {},
                },
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": ""},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": '{"path": "rep'},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": 'orts/q3.md"}'},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        (
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 2,
                "content_block": {
                    "type": "tool_use",
                    "id": "toolu_02",
                    "name": "send_email",
                    "input": {},
                },
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 2,
                "delta": {"type": "input_json_delta", "partial_json": '{"to": "boss@example.com",'},
            },
        ),
        (
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 2,
                "delta": {"type": "input_json_delta", "partial_json": ' "body": "see attached"}'},
            },
        ),
        ("content_block_stop", {"type": "content_block_stop", "index": 2}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": 89},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(sse(name, data) for name, data in events)


def openai_stream() -> str:
    base = {
        "id": "chatcmpl-123",
        "object": "chat.completion.chunk",
        "created": 1694268190,
        "model": "gpt-4o-mini",
        "system_fingerprint": "fp_44709d6fcb",
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return sse(
            None,
            {
                **base,
                "choices": [
                    {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
                ],
            },
        )

    def call(index: int, arguments: str, head: tuple[str, str] | None = None) -> dict[str, Any]:
        entry: dict[str, Any] = {"index": index, "function": {"arguments": arguments}}
        if head:
            entry.update({"id": head[0], "type": "function"})
            entry["function"]["name"] = head[1]
        return {"tool_calls": [entry]}

    return "".join(
        [
            chunk(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "read_file", "arguments": ""},
                        }
                    ],
                    "refusal": None,
                }
            ),
            chunk(call(0, '{"path"')),
            chunk(call(0, ': "reports/q3.md"}')),
            chunk(call(1, "", ("call_2", "send_email"))),
            chunk(call(1, '{"to": "boss@example.com", ')),
            chunk(call(1, '"body": "see attached"}')),
            chunk({}, "tool_calls"),
            sse(
                None,
                {
                    **base,
                    "choices": [],
                    "usage": {"prompt_tokens": 80, "completion_tokens": 40, "total_tokens": 120},
                },
            ),
            "data: [DONE]\n\n",
        ]
    )


def responses_stream() -> str:
    def ev(name: str, number: int, **body: Any) -> str:
        return sse(name, {"type": name, "sequence_number": number, **body})

    item1 = {
        "type": "function_call",
        "id": "fc_1",
        "call_id": "call_1",
        "name": "read_file",
        "arguments": "",
        "status": "in_progress",
    }
    item2 = {
        "type": "function_call",
        "id": "fc_2",
        "call_id": "call_2",
        "name": "send_email",
        "arguments": "",
        "status": "in_progress",
    }
    args1 = '{"path":"reports/q3.md"}'
    args2 = '{"to":"boss@example.com","body":"see attached"}'
    done1 = {**item1, "arguments": args1, "status": "completed"}
    done2 = {**item2, "arguments": args2, "status": "completed"}
    response = {"id": "resp_1", "object": "response", "status": "in_progress", "output": []}
    return "".join(
        [
            ev("response.created", 0, response=response),
            ev("response.output_item.added", 1, output_index=0, item=item1),
            ev(
                "response.function_call_arguments.delta",
                2,
                item_id="fc_1",
                output_index=0,
                delta=args1[:9],
            ),
            ev(
                "response.function_call_arguments.delta",
                3,
                item_id="fc_1",
                output_index=0,
                delta=args1[9:],
            ),
            ev(
                "response.function_call_arguments.done",
                4,
                item_id="fc_1",
                output_index=0,
                arguments=args1,
            ),
            ev("response.output_item.done", 5, output_index=0, item=done1),
            ev("response.output_item.added", 6, output_index=1, item=item2),
            ev(
                "response.function_call_arguments.delta",
                7,
                item_id="fc_2",
                output_index=1,
                delta=args2,
            ),
            ev(
                "response.function_call_arguments.done",
                8,
                item_id="fc_2",
                output_index=1,
                arguments=args2,
            ),
            ev("response.output_item.done", 9, output_index=1, item=done2),
            ev(
                "response.completed",
                10,
                response={**response, "status": "completed", "output": [done1, done2]},
            ),
        ]
    )


def run(stream: str, decide: Any, *, step: int = 37, **kwargs: Any) -> tuple[str, StreamFilter]:
    """Feed ``stream`` in ``step``-character pieces, as a network would."""
    filt = StreamFilter(decide, **kwargs)
    out = "".join(filt.feed(stream[i : i + step]) for i in range(0, len(stream), step))
    return out + filt.close(), filt


def events(text: str) -> list[dict[str, Any]]:
    out = []
    for raw in text.split("\n\n"):
        for line in raw.split("\n"):
            if line.startswith("data: ") and line != "data: [DONE]":
                out.append(json.loads(line[6:]))
    return out


def anthropic_message(text: str) -> dict[str, Any]:
    """Rebuild the message a client would from an Anthropic stream."""
    blocks: dict[int, dict[str, Any]] = {}
    parts: dict[int, str] = {}
    stop = None
    for event in events(text):
        if event["type"] == "content_block_start":
            blocks[event["index"]] = dict(event["content_block"])
        elif event["type"] == "content_block_delta":
            delta = event["delta"]
            if delta["type"] == "text_delta":
                blocks[event["index"]]["text"] += delta["text"]
            else:
                parts[event["index"]] = parts.get(event["index"], "") + delta["partial_json"]
        elif event["type"] == "message_delta":
            stop = event["delta"]["stop_reason"]
    for index, json_text in parts.items():
        blocks[index]["input"] = json.loads(json_text)
    return {"content": [blocks[i] for i in sorted(blocks)], "stop_reason": stop}


def test_anthropic_stream_partially_blocked() -> None:
    out, filt = run(anthropic_stream(), session_decider())
    message = anthropic_message(out)
    assert [b["type"] for b in message["content"]] == ["text", "tool_use", "text"]
    assert message["content"][1]["input"] == {"path": "reports/q3.md"}
    assert message["content"][2]["text"].startswith("Tool 'send_email' blocked by policy: ")
    assert message["stop_reason"] == "tool_use"
    assert [(c.name, d.decision) for c, d in filt.decisions] == [
        ("read_file", Decision.ALLOW),
        ("send_email", Decision.BLOCK),
    ]
    assert filt.decisions[1][0].arguments == {"to": "boss@example.com", "body": "see attached"}
    assert "toolu_02" not in out and "see attached" not in out


def test_anthropic_stream_fully_blocked_and_chunking_does_not_matter() -> None:
    block_all = lambda call: Session(clock=lambda: 1.0).evaluate_call(  # noqa: E731
        "x", call.name, []
    )
    outputs = {run(anthropic_stream(), block_all, step=step)[0] for step in (1, 5, 64, 10**6)}
    assert len(outputs) == 1
    message = anthropic_message(outputs.pop())
    assert [b["type"] for b in message["content"]] == ["text", "text", "text"]
    assert message["stop_reason"] == "end_turn"


def test_anthropic_stream_with_nothing_blocked_is_unchanged() -> None:
    allow = lambda call: Session(clock=lambda: 1.0).evaluate_call("x", call.name, {})  # noqa: E731
    stream = anthropic_stream()
    assert run(stream, allow)[0] == stream


def openai_message(text: str) -> dict[str, Any]:
    content = ""
    calls: dict[int, dict[str, Any]] = {}
    finish = None
    for event in events(text):
        for choice in event["choices"]:
            delta = choice["delta"]
            content += delta.get("content") or ""
            for entry in delta.get("tool_calls", []):
                call = calls.setdefault(entry["index"], {"id": None, "name": "", "arguments": ""})
                call["id"] = entry.get("id") or call["id"]
                call["name"] += entry.get("function", {}).get("name") or ""
                call["arguments"] += entry.get("function", {}).get("arguments") or ""
            finish = choice.get("finish_reason") or finish
    return {"content": content, "tool_calls": [calls[i] for i in sorted(calls)], "finish": finish}


def test_openai_stream_partially_blocked() -> None:
    out, _filt = run(openai_stream(), session_decider())
    message = openai_message(out)
    assert [(c["id"], c["name"]) for c in message["tool_calls"]] == [("call_1", "read_file")]
    assert json.loads(message["tool_calls"][0]["arguments"]) == {"path": "reports/q3.md"}
    assert message["content"].startswith("Tool 'send_email' blocked by policy: ")
    assert message["finish"] == "tool_calls"
    assert out.endswith("data: [DONE]\n\n")
    assert '"usage"' in out


def test_openai_stream_first_blocked_renumbers_the_rest() -> None:
    def decide(call: ToolCall) -> Any:
        session = Session(clock=lambda: 1.0)
        return session.evaluate_call("x", call.name, [] if call.name == "read_file" else {})

    message = openai_message(run(openai_stream(), decide)[0])
    assert [(c["id"], c["name"]) for c in message["tool_calls"]] == [("call_2", "send_email")]
    assert message["content"].startswith("Tool 'read_file' blocked")


def test_openai_stream_fully_blocked() -> None:
    block_all = lambda call: Session(clock=lambda: 1.0).evaluate_call("x", call.name, [])  # noqa: E731
    outputs = {run(openai_stream(), block_all, step=step)[0] for step in (3, 50, 10**6)}
    assert len(outputs) == 1
    message = openai_message(outputs.pop())
    assert message["tool_calls"] == []
    assert message["finish"] == "stop"
    assert message["content"].count("blocked by policy") == 2
    assert "\nTool 'send_email'" in message["content"]


def test_responses_stream_partially_blocked() -> None:
    out, filt = run(responses_stream(), session_decider(), step=11)
    parsed = events(out)
    assert (
        '"name": "send_email"' not in out
        and "see attached" not in out.split("response.completed")[0]
    )
    texts = [e["delta"] for e in parsed if e["type"] == "response.output_text.delta"]
    assert len(texts) == 1 and texts[0].startswith("Tool 'send_email' blocked by policy")
    final = next(e for e in parsed if e["type"] == "response.completed")["response"]["output"]
    assert [item["type"] for item in final] == ["function_call", "message"]
    added = [e["item"]["type"] for e in parsed if e["type"] == "response.output_item.added"]
    assert added == ["function_call", "message"]
    assert [c.name for c, _ in filt.decisions] == ["read_file", "send_email"]


def test_bytes_in_bytes_out_with_split_utf8() -> None:
    stream = anthropic_stream().replace(
        "then mailing it.", "then mailing it \u2014 d\u00e9j\u00e0 vu."
    )
    data = stream.encode("utf-8")
    allow = lambda call: Session(clock=lambda: 1.0).evaluate_call("x", call.name, {})  # noqa: E731
    filt = StreamFilter(allow)
    out = b"".join(filt.feed(data[i : i + 3]) for i in range(0, len(data), 3)) + filt.close()
    assert out == data


def test_a_call_larger_than_the_buffer_is_blocked_unseen() -> None:
    piece = "x" * 500
    padding = "".join(
        sse(
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 2,
                "delta": {"type": "input_json_delta", "partial_json": piece},
            },
        )
        for _ in range(8)
    )
    marker = 'event: content_block_stop\ndata: {"type": "content_block_stop", "index": 2}'
    stream = anthropic_stream().replace(marker, padding + marker)
    asked: list[str] = []

    def decide(call: ToolCall) -> Any:
        asked.append(call.name)
        return Session(clock=lambda: 1.0).evaluate_call("x", call.name, call.arguments)

    out, filt = run(stream, decide, max_buffer=2048)
    assert piece not in out and "boss@example.com" not in out
    assert asked == ["read_file"]
    (call, decision) = filt.decisions[1]
    assert (call.name, call.arguments, decision.decision) == ("send_email", None, Decision.BLOCK)
    assert "buffer" in decision.reason
    message = anthropic_message(out)
    assert message["content"][2]["text"].startswith("Tool 'send_email' blocked")


def test_a_stream_cut_inside_a_call_blocks_it() -> None:
    stream = anthropic_stream()
    cut = stream[
        : stream.index(
            'event: content_block_stop\ndata: {"type": "content_block_stop", "index": 2}'
        )
    ]
    allow = lambda call: Session(clock=lambda: 1.0).evaluate_call("x", call.name, {})  # noqa: E731
    out, filt = run(cut, allow)
    assert filt.decisions[-1][1].decision is Decision.BLOCK
    assert "stream ended" in filt.decisions[-1][1].reason
    assert "boss@example.com" not in out


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"decide": 3}, "decide"),
        ({"max_buffer": 10}, "max_buffer"),
        ({"provider": "x"}, "provider"),
    ],
)
def test_bad_filter_arguments(kwargs: dict[str, Any], field: str) -> None:
    arguments = {"decide": lambda call: None, **kwargs}
    with pytest.raises(ScanError) as caught:
        StreamFilter(arguments.pop("decide"), **arguments)
    assert caught.value.field == field


def test_bad_streams_raise() -> None:
    allow = lambda call: Session(clock=lambda: 1.0).evaluate_call("x", call.name, {})  # noqa: E731
    with pytest.raises(ScanError, match="stream"):
        StreamFilter(allow).feed('data: {"hello": 1}\n\n')
    with pytest.raises(ScanError, match="exceeds"):
        StreamFilter(allow, max_buffer=1024).feed("data: " + "x" * 2000)
    with pytest.raises(ScanError, match="chunk"):
        StreamFilter(allow).feed(3)  # type: ignore[arg-type]
    closed = StreamFilter(allow)
    closed.close()
    with pytest.raises(ScanError, match="close"):
        closed.feed("")
    with pytest.raises(ScanError, match="decide"):
        run(anthropic_stream(), lambda call: "allow")


def test_comments_before_the_first_event_pass() -> None:
    allow = lambda call: Session(clock=lambda: 1.0).evaluate_call("x", call.name, {})  # noqa: E731
    stream = ": keep-alive\n\n" + openai_stream()
    assert run(stream, allow)[0] == stream
