"""Policy: which servers and tools an application lets through.

A ``Policy`` is read from a plain mapping (so from the YAML, TOML or JSON
file the application loads itself) and answers, per tool, allow or deny
together with the rule that decided::

    >>> from mcpscan.policy import Policy
    >>> policy = Policy.from_mapping({
    ...     "servers": {"mode": "allowlist", "allow": ["github", "fs-*"]},
    ...     "tools": {"mode": "denylist", "deny": [{"tool": "delete_*", "reason": "no deletes"}]},
    ... })
    >>> policy.evaluate({"name": "read_file"}, server="fs-local").allowed
    True
    >>> print(policy.evaluate({"name": "delete_repo"}, server="github").reason)
    denied by tools.deny[0] (no deletes)

Precedence, from first to last: the servers section, then the tools
section; inside a section a matching deny rule always wins over any allow
rule, and in ``allowlist`` mode anything no allow rule matches is denied.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from fnmatch import fnmatchcase
from typing import Any

import attrs
import regex

from ._evidence import safe_evidence
from ._model import ScanError, Tool
from ._normalize import confusable_skeleton
from .pins import fingerprint

__all__ = ["ListMode", "Policy", "PolicyAction", "PolicyDecision", "PolicyRule", "RuleList"]

_FINGERPRINT = regex.compile(r"sha256:[0-9a-f]{64}")
# A host entry is a host name or a glob of one: no scheme, path, port,
# user or space, which would never match what a call screener extracts.
_HOST = regex.compile(r"[a-z0-9*?\[\]!._-]+")
_TOP_KEYS = ("version", "servers", "tools", "calls")
_SECTION_KEYS = ("mode", "allow", "deny")
_SERVER_RULE_KEYS = ("server", "reason")
_TOOL_RULE_KEYS = ("server", "tool", "fingerprint", "reason")
_CALL_KEYS = ("hosts_allowlist", "block_critical")
_SHOWN_NAME_CHARS = 120


class ListMode(str, enum.Enum):
    """How one section (servers or tools) filters."""

    #: Only what an allow rule matches passes (deny rules still win).
    ALLOWLIST = "allowlist"
    #: Everything passes except what a deny rule matches.
    DENYLIST = "denylist"
    #: The section does not filter.
    NONE = "none"


class PolicyAction(str, enum.Enum):
    ALLOW = "allow"
    DENY = "deny"


class _Subject:
    """The server and tool one ``evaluate`` call decides on.

    Skeletons and the fingerprint are computed at most once per call, and
    the fingerprint only when a rule that could match asks for it.
    """

    __slots__ = ("_fingerprint", "_skeletons", "server", "tool")

    def __init__(self, tool: Tool, server: str) -> None:
        self.tool = tool
        self.server = server
        self._skeletons: dict[str, str] = {}
        self._fingerprint: str | None = None

    def skeleton(self, text: str) -> str:
        if text not in self._skeletons:
            self._skeletons[text] = confusable_skeleton(text)
        return self._skeletons[text]

    def fingerprint(self) -> str:
        if self._fingerprint is None:
            self._fingerprint = fingerprint(self.tool)
        return self._fingerprint


@attrs.frozen
class PolicyRule:
    """One allow or deny rule; it matches when every field it gives matches.

    ``where`` names the rule in the mapping it came from (``tools.deny[0]``).
    ``server`` and ``tool`` are ``fnmatch`` globs (``*`` when not given);
    ``fingerprint`` is a ``mcpscan.pins.fingerprint`` value the tool must
    have exactly.
    """

    where: str
    action: PolicyAction
    server: str = "*"
    tool: str = "*"
    fingerprint: str | None = None
    reason: str | None = None

    # The globs' look-alike skeletons, computed once (deny rules use them).
    _server_skeleton: str = attrs.field(init=False, eq=False, repr=False)
    _tool_skeleton: str = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_server_skeleton", confusable_skeleton(self.server))
        object.__setattr__(self, "_tool_skeleton", confusable_skeleton(self.tool))

    def _glob_matches(self, text: str, glob: str, glob_skeleton: str, subject: _Subject) -> bool:
        """``fnmatchcase``; a deny glob also matches look-alike spellings.

        A deny rule for ``exec_*`` must not be slipped past by ``Exec_Shell``,
        ``ехес_shell`` (Cyrillic) or a zero-width space inside the name, so
        deny rules compare confusable skeletons too. Allow rules match
        exactly: a look-alike of an allowed name is not the allowed tool.
        """
        if fnmatchcase(text, glob):
            return True
        if self.action is PolicyAction.ALLOW:
            return False
        return fnmatchcase(subject.skeleton(text), glob_skeleton)

    def _matches(self, subject: _Subject) -> bool:
        return (
            self._glob_matches(subject.server, self.server, self._server_skeleton, subject)
            and self._glob_matches(subject.tool.name, self.tool, self._tool_skeleton, subject)
            and (self.fingerprint is None or subject.fingerprint() == self.fingerprint)
        )

    def to_mapping(self, *, server_only: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"server": self.server}
        if not server_only:
            out["tool"] = self.tool
            if self.fingerprint is not None:
                out["fingerprint"] = self.fingerprint
        if self.reason is not None:
            out["reason"] = self.reason
        return out


@attrs.frozen
class RuleList:
    """The mode and the rules of one section."""

    mode: ListMode = ListMode.NONE
    allow: tuple[PolicyRule, ...] = ()
    deny: tuple[PolicyRule, ...] = ()


@attrs.frozen
class PolicyDecision:
    """Allow or deny, the rule that decided (``None`` for a mode default) and why."""

    action: PolicyAction
    rule: PolicyRule | None
    reason: str
    server: str | None
    tool: str

    @property
    def allowed(self) -> bool:
        return self.action is PolicyAction.ALLOW

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action.value,
            "rule": None if self.rule is None else self.rule.where,
            "reason": self.reason,
            "server": self.server,
            "tool": self.tool,
        }


def _decided_by(rule: PolicyRule) -> str:
    verb = "allowed" if rule.action is PolicyAction.ALLOW else "denied"
    return f"{verb} by {rule.where}" + (f" ({rule.reason})" if rule.reason else "")


@attrs.frozen
class _Stage:
    """The outcome of one section: a denial, or the allow rule that matched."""

    denial: PolicyDecision | None = None
    allowed_by: PolicyRule | None = None


@attrs.frozen
class Policy:
    """Allow and deny lists for servers and tools, plus call-screening settings.

    Build one with ``Policy.from_mapping``. ``hosts_allowlist`` (host globs,
    lower case; empty: no host restriction) and ``block_critical`` (critical
    call risks are blocked rather than sent for approval) are read by call
    screening; ``evaluate`` does not use them.
    """

    servers: RuleList = RuleList()
    tools: RuleList = RuleList()
    hosts_allowlist: tuple[str, ...] = ()
    block_critical: bool = False

    @classmethod
    def from_mapping(cls, value: object) -> Policy:
        """Read a policy mapping; ``ScanError`` names the first bad field.

        Keys: ``version`` (1), ``servers`` and ``tools`` (each ``mode``:
        ``allowlist``, ``denylist`` (the default) or ``none``, and ``allow``
        / ``deny`` lists), ``calls`` (``hosts_allowlist``,
        ``block_critical``). Unknown keys are errors, and so are rules that
        could never take effect (any rule in ``none`` mode, allow rules in
        ``denylist`` mode): a typo in a security policy must not pass
        silently.
        """
        top = _mapping(value, "policy", _TOP_KEYS)
        version = top.get("version", 1)
        if version != 1 or isinstance(version, bool):
            raise ScanError("version", "this mcpscan reads policy version 1")
        calls = _mapping(top.get("calls", {}), "calls", _CALL_KEYS)
        block = calls.get("block_critical", False)
        if not isinstance(block, bool):
            raise ScanError("calls.block_critical", "expected true or false")
        return cls(
            servers=_section(top.get("servers"), "servers", server_only=True),
            tools=_section(top.get("tools"), "tools", server_only=False),
            hosts_allowlist=_hosts(calls.get("hosts_allowlist")),
            block_critical=block,
        )

    def to_mapping(self) -> dict[str, Any]:
        """The mapping ``from_mapping`` reads back into an equal policy."""
        out: dict[str, Any] = {"version": 1}
        for name, rules in (("servers", self.servers), ("tools", self.tools)):
            section: dict[str, Any] = {"mode": rules.mode.value}
            for action, items in (("allow", rules.allow), ("deny", rules.deny)):
                if items:
                    section[action] = [r.to_mapping(server_only=name == "servers") for r in items]
            out[name] = section
        out["calls"] = {"block_critical": self.block_critical}
        if self.hosts_allowlist:
            out["calls"]["hosts_allowlist"] = list(self.hosts_allowlist)
        return out

    def evaluate(self, tool: object, *, server: str | None = None) -> PolicyDecision:
        """Allow or deny ``tool`` (an MCP mapping or ``Tool``) of ``server``.

        ``server`` defaults to the ``Tool``'s own server; an unknown server
        is matched as the empty string (``*`` matches it, a name does not).
        The fingerprint is computed only when a rule that could match asks
        for one; a tool that cannot be fingerprinted raises ``ScanError``.
        """
        parsed = Tool.from_mcp(tool, server=server)
        subject = _Subject(parsed, parsed.server or "")
        decided: list[PolicyRule | None] = []
        for name, rules in (("servers", self.servers), ("tools", self.tools)):
            stage = _run_stage(name, rules, subject)
            if stage.denial is not None:
                return stage.denial
            decided.append(stage.allowed_by)
        rule = decided[1] or decided[0]
        return PolicyDecision(
            action=PolicyAction.ALLOW,
            rule=rule,
            reason=_decided_by(rule) if rule is not None else "no rule denies it",
            server=parsed.server,
            tool=parsed.name,
        )

    def host_allowed(self, host: str) -> bool:
        """Whether calls may reach ``host`` (always, without an allow-list).

        Host names compare in lower case without a trailing dot;
        ``*.example.com`` matches subdomains, not ``example.com`` itself.
        """
        if not self.hosts_allowlist:
            return True
        name = host.lower().rstrip(".")
        return any(fnmatchcase(name, glob) for glob in self.hosts_allowlist)


def _run_stage(section: str, rules: RuleList, subject: _Subject) -> _Stage:
    if rules.mode is ListMode.NONE:
        return _Stage()
    tool = subject.tool

    def deny(rule: PolicyRule | None, reason: str) -> _Stage:
        return _Stage(
            denial=PolicyDecision(
                action=PolicyAction.DENY,
                rule=rule,
                reason=reason,
                server=tool.server,
                tool=tool.name,
            )
        )

    # Deny rules first: a deny always wins, so a broad allow rule can never
    # let through what a specific deny rule names.
    for rule in rules.deny:
        if rule._matches(subject):
            return deny(rule, _decided_by(rule))
    allowed_by = next((r for r in rules.allow if r._matches(subject)), None)
    if rules.mode is ListMode.ALLOWLIST and allowed_by is None:
        what = f"server {subject.server}" if section == "servers" else f"tool {tool.name}"
        shown = safe_evidence(what, _SHOWN_NAME_CHARS)
        return deny(None, f"{shown} matches no rule of {section}.allow (allowlist mode)")
    return _Stage(allowed_by=allowed_by)


# --------------------------------------------------------------------------
# Reading the mapping


def _mapping(value: object, where: str, keys: Sequence[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScanError(where, f"expected a mapping, got {type(value).__name__}")
    for key in value:
        if key not in keys:
            raise ScanError(
                f"{where}.{key}" if where != "policy" else str(key),
                f"unknown key; expected one of {list(keys)}",
            )
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ScanError(where, "expected a non-empty string")
    return value


def _rule(value: object, where: str, action: PolicyAction, *, server_only: bool) -> PolicyRule:
    if isinstance(value, str):
        # Shorthand: a bare string is a server glob in the servers section
        # and a tool glob in the tools section.
        glob = _text(value, where)
        if server_only:
            return PolicyRule(where=where, action=action, server=glob)
        return PolicyRule(where=where, action=action, tool=glob)
    entry = _mapping(value, where, _SERVER_RULE_KEYS if server_only else _TOOL_RULE_KEYS)
    matchers = ("server",) if server_only else ("server", "tool", "fingerprint")
    if not any(key in entry for key in matchers):
        raise ScanError(where, f"a rule needs at least one of {', '.join(matchers)}")
    fingerprint = entry.get("fingerprint")
    if fingerprint is not None and not (
        isinstance(fingerprint, str) and _FINGERPRINT.fullmatch(fingerprint)
    ):
        raise ScanError(f"{where}.fingerprint", "expected sha256: and 64 lower-case hex digits")
    reason = entry.get("reason")
    return PolicyRule(
        where=where,
        action=action,
        server=_text(entry.get("server", "*"), f"{where}.server"),
        tool=_text(entry.get("tool", "*"), f"{where}.tool"),
        fingerprint=fingerprint,
        reason=None if reason is None else _text(reason, f"{where}.reason"),
    )


def _rules(
    value: object, where: str, action: PolicyAction, *, server_only: bool
) -> tuple[PolicyRule, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ScanError(where, "expected a list of rules")
    return tuple(
        _rule(item, f"{where}[{index}]", action, server_only=server_only)
        for index, item in enumerate(value)
    )


def _section(value: object, where: str, *, server_only: bool) -> RuleList:
    if value is None:
        return RuleList()
    section = _mapping(value, where, _SECTION_KEYS)
    mode_text = section.get("mode", ListMode.DENYLIST.value)
    try:
        mode = ListMode(mode_text)
    except ValueError:
        raise ScanError(f"{where}.mode", f"expected one of {[m.value for m in ListMode]}") from None
    allow = _rules(
        section.get("allow"), f"{where}.allow", PolicyAction.ALLOW, server_only=server_only
    )
    deny = _rules(section.get("deny"), f"{where}.deny", PolicyAction.DENY, server_only=server_only)
    if mode is ListMode.NONE and (allow or deny):
        raise ScanError(f"{where}.mode", "rules are given but mode none ignores them")
    if mode is ListMode.DENYLIST and allow:
        raise ScanError(
            f"{where}.allow",
            "allow rules have no effect in denylist mode (everything not denied passes); "
            "use mode allowlist",
        )
    return RuleList(mode=mode, allow=allow, deny=deny)


def _hosts(value: object) -> tuple[str, ...]:
    where = "calls.hosts_allowlist"
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ScanError(where, "expected a list of host names")
    if not value:
        # An empty list reads as "no host allowed" but would mean "no
        # restriction": refuse the ambiguity.
        raise ScanError(where, "an empty allow-list would allow every host; omit the key instead")
    hosts: list[str] = []
    for index, item in enumerate(value):
        host = _text(item, f"{where}[{index}]").lower().rstrip(".")
        if not _HOST.fullmatch(host):
            raise ScanError(
                f"{where}[{index}]", "expected a host name or glob (no scheme, port or path)"
            )
        hosts.append(host)
    return tuple(hosts)
