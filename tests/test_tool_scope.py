"""How a name in a tool's text relates to the scanned tool (``ToolScope``).

The scope reads a per-snapshot index of every server's names, so a tool of
a large registry is classified by look-ups; these tests pin the meaning of
each answer, including the names two servers share.
"""

from __future__ import annotations

from mcpscan._instruction import Scope, ToolScope, tool_scope
from mcpscan._snapshot import Snapshot


def _tool(name: str, *params: str) -> dict[str, object]:
    return {
        "name": name,
        "description": f"{name} tool.",
        "inputSchema": {"type": "object", "properties": {p: {"type": "string"} for p in params}},
    }


_SNAPSHOT = Snapshot.from_servers(
    {
        "notes": [_tool("add_note", "title"), _tool("search_notes", "query"), _tool("sync")],
        "mail": [_tool("send_email", "recipient", "cc"), _tool("sync")],
        "bank": [_tool("transfer_funds", "iban")],
    }
)


def _scope(name: str, server: str = "notes") -> ToolScope:
    tool = next(t for t in _SNAPSHOT.servers[server] if t.name == name)
    return tool_scope(tool, _SNAPSHOT)


def test_names_are_classified_by_who_holds_them() -> None:
    scope = _scope("add_note")
    assert scope.classify("addNote") == Scope.OWN_TOOL
    assert scope.classify("title") == Scope.OWN_PARAM
    assert scope.classify("search-notes") == Scope.SAME_SERVER_TOOL
    assert scope.classify("send_email") == Scope.OTHER_TOOL
    assert scope.classify("recipient") == Scope.OTHER_PARAM
    assert scope.classify("nothing_here") is None


def test_a_name_two_servers_share_is_neither_own_nor_other() -> None:
    # "sync" is a tool of this server and of another: naming it says
    # nothing about reaching into another server.
    assert _scope("add_note").classify("sync") is None


def test_short_parameter_names_of_other_servers_are_not_claimed() -> None:
    assert _scope("add_note").classify("cc") is None


def test_a_tool_described_by_a_word_of_its_name() -> None:
    scope = _scope("add_note")
    assert scope.described("email") == Scope.OTHER_TOOL
    assert scope.described("funds") == Scope.OTHER_TOOL
    # A word a tool of this server shares is this server's own.
    assert scope.described("notes") is None
    # Too short to name a tool.
    assert scope.described("add") is None


def test_the_scope_of_another_servers_tool_sees_this_server_as_other() -> None:
    scope = _scope("send_email", "mail")
    assert scope.classify("add_note") == Scope.OTHER_TOOL
    assert scope.classify("title") == Scope.OTHER_PARAM
    assert scope.described("transfer") == Scope.OTHER_TOOL


def test_parameter_and_word_tables_are_built_on_first_read() -> None:
    # At registry scale walking every schema is most of the index: a scan
    # whose text names nothing never pays for it.
    snapshot = Snapshot.from_servers(
        {"notes": [_tool("add_note", "title")], "mail": [_tool("send_email", "recipient")]}
    )
    scope = tool_scope(snapshot.servers["notes"][0], snapshot)
    assert scope.names._param_servers is None
    assert scope.names._word_keys is None
    assert scope.classify("recipient") == Scope.OTHER_PARAM
    assert scope.names.param_servers == {"title": {"notes"}, "recipient": {"mail"}}
    assert scope.described("email") == Scope.OTHER_TOOL
    assert scope.names.word_keys["email"] == ("sendemail",)
