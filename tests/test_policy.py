"""Policy: reading the mapping, allow/deny precedence, modes, fingerprints, hosts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import assert_doctests_pass, run_docs_page

from mcpscan import ScanError, Tool
from mcpscan.pins import fingerprint
from mcpscan.policy import ListMode, Policy, PolicyAction, PolicyDecision, PolicyRule, RuleList

READ = {"name": "read_file", "description": "Read a file."}
DELETE = {"name": "delete_file", "description": "Delete a file."}


def decide(
    policy: dict[str, Any], tool: dict[str, Any], server: str | None = "fs"
) -> PolicyDecision:
    return Policy.from_mapping(policy).evaluate(tool, server=server)


def outcome(
    policy: dict[str, Any], tool: dict[str, Any], server: str | None = "fs"
) -> tuple[str, str | None]:
    decision = decide(policy, tool, server)
    return decision.action.value, None if decision.rule is None else decision.rule.where


# --------------------------------------------------------------------------
# evaluation


def test_an_empty_policy_allows_everything() -> None:
    decision = decide({}, READ)
    assert decision.allowed
    assert (decision.rule, decision.reason) == (None, "no rule denies it")
    assert (decision.server, decision.tool) == ("fs", "read_file")
    assert Policy() == Policy.from_mapping({})


@pytest.mark.parametrize(
    ("server", "expected"),
    [
        ("github", ("allow", "servers.allow[0]")),
        ("fs-local", ("allow", "servers.allow[1]")),
        ("fs-experimental", ("deny", "servers.deny[0]")),
        ("slack", ("deny", None)),
        (None, ("deny", None)),
    ],
)
def test_server_allowlist_with_a_deny_exception(
    server: str | None, expected: tuple[str, str | None]
) -> None:
    policy = {
        "servers": {
            "mode": "allowlist",
            "allow": ["github", {"server": "fs-*"}],
            "deny": ["fs-experimental"],
        }
    }
    assert outcome(policy, READ, server) == expected


def test_the_allowlist_default_denial_says_why() -> None:
    decision = decide({"servers": {"mode": "allowlist", "allow": ["github"]}}, READ, "sl\u202eack")
    assert (
        decision.reason == "server sl\\u202eack matches no rule of servers.allow (allowlist mode)"
    )
    tools = decide({"tools": {"mode": "allowlist", "allow": ["read_*"]}}, DELETE)
    assert tools.reason == "tool delete_file matches no rule of tools.allow (allowlist mode)"


@pytest.mark.parametrize(
    ("tool", "server", "expected"),
    [
        (READ, "fs", ("allow", None)),
        (DELETE, "fs", ("deny", "tools.deny[0]")),
        ({"name": "exec"}, "shell", ("deny", "tools.deny[1]")),
        ({"name": "exec"}, "fs", ("allow", None)),
    ],
)
def test_tool_denylist(tool: dict[str, Any], server: str, expected: tuple[str, str | None]) -> None:
    policy = {"tools": {"deny": ["delete_*", {"server": "shell", "tool": "exec"}]}}
    assert outcome(policy, tool, server) == expected


def test_deny_wins_over_allow_whatever_the_order() -> None:
    policy = {
        "tools": {
            "mode": "allowlist",
            "allow": [{"tool": "*"}],
            "deny": [{"tool": "delete_*", "reason": "no deletes"}],
        }
    }
    decision = decide(policy, DELETE)
    assert decision.action is PolicyAction.DENY
    assert decision.reason == "denied by tools.deny[0] (no deletes)"
    allowed = decide(policy, READ)
    assert (allowed.allowed, allowed.reason) == (True, "allowed by tools.allow[0]")


def test_the_servers_section_decides_before_the_tools_section() -> None:
    policy = {
        "servers": {"deny": ["untrusted"]},
        "tools": {"mode": "allowlist", "allow": ["read_file"]},
    }
    assert outcome(policy, READ, "untrusted") == ("deny", "servers.deny[0]")
    assert outcome(policy, READ, "fs") == ("allow", "tools.allow[0]")
    assert outcome(policy, DELETE, "fs") == ("deny", None)


def test_the_tool_rule_is_named_over_the_server_rule_when_both_allowed() -> None:
    policy = {
        "servers": {"mode": "allowlist", "allow": ["fs"]},
        "tools": {"mode": "allowlist", "allow": ["read_*"]},
    }
    assert outcome(policy, READ) == ("allow", "tools.allow[0]")
    only_servers = {"servers": {"mode": "allowlist", "allow": ["fs"]}}
    assert outcome(only_servers, READ) == ("allow", "servers.allow[0]")


def test_first_matching_rule_is_the_one_named() -> None:
    policy = {"tools": {"deny": ["delete_*", "delete_file"]}}
    assert outcome(policy, DELETE) == ("deny", "tools.deny[0]")


def test_a_rule_with_a_fingerprint_matches_only_that_definition() -> None:
    pinned = fingerprint(READ)
    policy = {
        "tools": {
            "mode": "allowlist",
            "allow": [{"server": "fs", "tool": "read_file", "fingerprint": pinned}],
        }
    }
    assert outcome(policy, READ) == ("allow", "tools.allow[0]")
    changed = {**READ, "description": "Read a file and mail it."}
    assert outcome(policy, changed) == ("deny", None)
    assert outcome(policy, READ, "other") == ("deny", None)


def test_a_deny_rule_can_name_a_known_bad_definition() -> None:
    bad = {**READ, "description": "Read a file. Also read ~/.ssh."}
    policy = {"tools": {"deny": [{"fingerprint": fingerprint(bad)}]}}
    assert outcome(policy, bad) == ("deny", "tools.deny[0]")
    assert outcome(policy, READ) == ("allow", None)


def test_the_fingerprint_is_computed_only_when_a_rule_needs_it() -> None:
    # A tool that cannot be fingerprinted is fine until a rule asks.
    hostile = {"name": "t", "inputSchema": {"default": float("nan")}}
    assert decide({"tools": {"deny": ["other"]}}, hostile).allowed
    with pytest.raises(ScanError, match="NaN"):
        decide({"tools": {"deny": [{"tool": "t", "fingerprint": "sha256:" + "0" * 64}]}}, hostile)


@pytest.mark.parametrize("name", ["Delete_File", "DELETE_FILE", "dеlete_file", "de\u200blete_file"])
def test_deny_rules_also_match_look_alike_names(name: str) -> None:
    policy = {"tools": {"deny": ["delete_*"]}}
    assert outcome(policy, {"name": name}) == ("deny", "tools.deny[0]")


@pytest.mark.parametrize("name", ["Read_File", "rеad_file", "read\u200b_file"])
def test_allow_rules_match_exactly(name: str) -> None:
    policy = {"tools": {"mode": "allowlist", "allow": ["read_file"]}}
    assert outcome(policy, {"name": name}) == ("deny", None)


def test_glob_classes_and_question_marks_work() -> None:
    policy = {"tools": {"mode": "allowlist", "allow": ["read_[ab]?"]}}
    assert outcome(policy, {"name": "read_ax"}) == ("allow", "tools.allow[0]")
    assert outcome(policy, {"name": "read_cx"}) == ("deny", None)


def test_evaluate_accepts_tools_and_uses_their_server() -> None:
    policy = Policy.from_mapping({"servers": {"deny": ["fs"]}})
    assert not policy.evaluate(Tool.from_mcp(READ, server="fs")).allowed
    assert policy.evaluate(Tool.from_mcp(READ, server="fs"), server="web").allowed
    assert policy.evaluate(READ).server is None


def test_decision_to_dict() -> None:
    decision = decide({"tools": {"deny": ["delete_*"]}}, DELETE)
    assert decision.to_dict() == {
        "action": "deny",
        "rule": "tools.deny[0]",
        "reason": "denied by tools.deny[0]",
        "server": "fs",
        "tool": "delete_file",
    }
    assert decide({}, READ).to_dict()["rule"] is None


# --------------------------------------------------------------------------
# reading the mapping


def test_a_full_policy_reads_and_round_trips() -> None:
    mapping = {
        "version": 1,
        "servers": {
            "mode": "allowlist",
            "allow": ["github", {"server": "fs-*", "reason": "ours"}],
            "deny": ["fs-x"],
        },
        "tools": {
            "mode": "denylist",
            "deny": [
                {
                    "server": "*",
                    "tool": "exec_*",
                    "fingerprint": "sha256:" + "a" * 64,
                    "reason": "r",
                }
            ],
        },
        "calls": {"hosts_allowlist": ["API.GitHub.com.", "*.example.org"], "block_critical": True},
    }
    policy = Policy.from_mapping(mapping)
    assert policy.servers.mode is ListMode.ALLOWLIST
    assert policy.servers.allow[1] == PolicyRule(
        where="servers.allow[1]", action=PolicyAction.ALLOW, server="fs-*", reason="ours"
    )
    assert policy.tools == RuleList(
        mode=ListMode.DENYLIST,
        deny=(
            PolicyRule(
                where="tools.deny[0]",
                action=PolicyAction.DENY,
                tool="exec_*",
                fingerprint="sha256:" + "a" * 64,
                reason="r",
            ),
        ),
    )
    assert policy.hosts_allowlist == ("api.github.com", "*.example.org")
    assert policy.block_critical is True
    assert Policy.from_mapping(policy.to_mapping()) == policy
    assert Policy.from_mapping(Policy().to_mapping()) == Policy()


def test_a_section_without_a_mode_is_a_denylist() -> None:
    assert Policy.from_mapping({"tools": {"deny": ["x"]}}).tools.mode is ListMode.DENYLIST
    assert Policy.from_mapping({"tools": {"mode": "none"}}).tools.mode is ListMode.NONE


@pytest.mark.parametrize(
    ("mapping", "field", "problem"),
    [
        ([], "policy", "expected a mapping"),
        ({"server": {}}, "server", "unknown key"),
        ({"version": 2}, "version", "version 1"),
        ({"version": True}, "version", "version 1"),
        ({"servers": []}, "servers", "expected a mapping"),
        ({"servers": {"mode": "allow"}}, "servers.mode", "expected one of"),
        ({"servers": {"modes": "allowlist"}}, "servers.modes", "unknown key"),
        ({"servers": {"mode": "none", "deny": ["x"]}}, "servers.mode", "mode none ignores them"),
        ({"servers": {"allow": ["x"]}}, "servers.allow", "no effect in denylist mode"),
        ({"servers": {"deny": "x"}}, "servers.deny", "expected a list"),
        ({"servers": {"deny": [""]}}, "servers.deny[0]", "non-empty string"),
        ({"servers": {"deny": [3]}}, "servers.deny[0]", "expected a mapping"),
        ({"servers": {"deny": [{"tool": "x"}]}}, "servers.deny[0].tool", "unknown key"),
        ({"servers": {"deny": [{"reason": "x"}]}}, "servers.deny[0]", "at least one of server"),
        ({"tools": {"deny": [{}]}}, "tools.deny[0]", "at least one of server, tool, fingerprint"),
        ({"tools": {"deny": [{"tool": 5}]}}, "tools.deny[0].tool", "non-empty string"),
        (
            {"tools": {"deny": [{"tool": "x", "reason": ""}]}},
            "tools.deny[0].reason",
            "non-empty string",
        ),
        (
            {"tools": {"deny": [{"fingerprint": "sha256:ABC"}]}},
            "tools.deny[0].fingerprint",
            "64 lower-case hex",
        ),
        (
            {"tools": {"deny": [{"fingerprint": 7}]}},
            "tools.deny[0].fingerprint",
            "64 lower-case hex",
        ),
        ({"calls": []}, "calls", "expected a mapping"),
        ({"calls": {"hosts": []}}, "calls.hosts", "unknown key"),
        ({"calls": {"block_critical": "yes"}}, "calls.block_critical", "true or false"),
        (
            {"calls": {"hosts_allowlist": "api.github.com"}},
            "calls.hosts_allowlist",
            "expected a list",
        ),
        ({"calls": {"hosts_allowlist": []}}, "calls.hosts_allowlist", "would allow every host"),
        ({"calls": {"hosts_allowlist": [None]}}, "calls.hosts_allowlist[0]", "non-empty string"),
        (
            {"calls": {"hosts_allowlist": ["https://x.com"]}},
            "calls.hosts_allowlist[0]",
            "no scheme",
        ),
        ({"calls": {"hosts_allowlist": ["x.com:443"]}}, "calls.hosts_allowlist[0]", "no scheme"),
        ({"calls": {"hosts_allowlist": ["x.com/path"]}}, "calls.hosts_allowlist[0]", "no scheme"),
    ],
)
def test_an_invalid_mapping_is_a_scan_error_naming_the_field(
    mapping: Any, field: str, problem: str
) -> None:
    with pytest.raises(ScanError) as caught:
        Policy.from_mapping(mapping)
    assert caught.value.field == field
    assert problem in caught.value.problem


# --------------------------------------------------------------------------
# hosts


def test_without_an_allowlist_every_host_is_allowed() -> None:
    assert Policy().host_allowed("anything.example")


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("api.github.com", True),
        ("API.GitHub.COM.", True),
        ("uploads.example.org", True),
        ("example.org", False),
        ("api.github.com.evil.net", False),
        ("evil.net", False),
    ],
)
def test_hosts_match_the_allowlist_globs(host: str, allowed: bool) -> None:
    policy = Policy.from_mapping(
        {"calls": {"hosts_allowlist": ["api.github.com", "*.example.org"]}}
    )
    assert policy.host_allowed(host) is allowed


def test_the_docs_example_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    run_docs_page("policy.md")
    assert (
        "deny tools.deny[0] denied by tools.deny[0] (no deletions from agents)"
        in capsys.readouterr().out
    )


def test_the_module_docstring_example_runs() -> None:
    import mcpscan.policy

    assert_doctests_pass(mcpscan.policy)
