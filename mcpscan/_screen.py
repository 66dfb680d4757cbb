"""screen_call: decide whether a proposed ``tools/call`` may run.

A model steered by poisoned text shows it in the calls it proposes: a
download piped to a shell, an ``env`` dump, ``~/.ssh/id_rsa`` as a path, a
key in an argument, an upload to a request bin. ``screen_call`` looks at the
call's arguments (every string, with its JSON path) and decides:

* ``block``: a critical risk and a policy that fails closed, or a policy
  that denies the tool;
* ``require_approval``: a critical risk without such a policy, or a high
  one (secret reads, environment dumps, credentials in arguments, uploads,
  typosquatted packages);
* ``warn``: a medium or low risk (package installs, hosts outside the
  allow-list, arguments that deviate from the tool's schema);
* ``allow``: nothing found.

Besides its own call rules it runs every check that declares the
``arguments`` surface (hidden-unicode, decode-then-confirm,
embedded-secret): an argument carrying a tag-encoded message or a base64
reverse shell is as bad as one in plain text.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import attrs
import regex
from rapidfuzz.distance import OSA

from ._check import Context
from ._config import Config
from ._evidence import redact
from ._frozen import is_array
from ._lazy import Alternation
from ._model import Coverage, Finding, ScanError, Severity, Signal, Tier, Tool
from ._scan import coerce_config, run_checks, select_checks, view_guard
from ._snapshot import Snapshot
from ._walk import LocatedString, view_fields
from .checks._shell_patterns import SECRET_PATH, SECRET_PATH_PARTS, find_shell_threats

__all__ = ["CallDecision", "Decision", "screen_call"]

CHECK_ID = "call-screening"
_VERSION = "1"
_MAX_SCHEMA_DEPTH = 16


class Decision(str, enum.Enum):
    """What the embedding application should do with a proposed call."""

    ALLOW = "allow"
    WARN = "warn"
    REQUIRE_APPROVAL = "require_approval"
    BLOCK = "block"


@attrs.frozen
class CallDecision:
    """The decision on one proposed call, the findings behind it and why.

    ``rule`` names the ``mcpscan.session.Session`` rule that decided
    (``None`` from ``screen_call`` itself, and when nothing stood in the
    way); ``severity`` is that rule's severity (by default the arguments'
    ``risk``).
    """

    decision: Decision
    risk: Severity | None
    reason: str
    findings: tuple[Finding, ...]
    signals: tuple[Signal, ...]
    coverage: Coverage
    rule: str | None = None
    severity: Severity | None = attrs.field(
        default=attrs.Factory(lambda self: self.risk, takes_self=True)
    )

    @property
    def complete(self) -> bool:
        """False when a limit was hit or a check failed: part of the call's
        arguments was not screened (``coverage`` says which part)."""
        return self.coverage.complete

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision": self.decision.value,
            "rule": self.rule,
            "severity": self.severity.value if self.severity else None,
            "risk": self.risk.value if self.risk else None,
            "reason": self.reason,
            "findings": [f.to_dict() for f in self.findings],
            "signals": [s.to_dict() for s in self.signals],
            "coverage": self.coverage.to_dict(),
        }


@attrs.frozen
class _Rule:
    rule_id: str
    risk: Severity
    threat: str
    description: str


# Risk of each kind the shared shell patterns report. Running downloaded
# code, a reverse shell, an encoded PowerShell command, wiping disks, sending
# a credential file or planting a backdoor is critical; naming a request
# bin or tunnel host is high (it may be a legitimate webhook test).
_SHELL_RULES = {
    "download-execute": _Rule(
        "call.remote_exec", Severity.CRITICAL, "command_injection", "downloads code and runs it"
    ),
    "reverse-shell": _Rule(
        "call.reverse_shell", Severity.CRITICAL, "command_injection", "opens a reverse shell"
    ),
    "encoded-powershell": _Rule(
        "call.encoded_powershell", Severity.CRITICAL, "command_injection", "runs encoded PowerShell"
    ),
    "destructive": _Rule(
        "call.destructive", Severity.CRITICAL, "destruction", "destroys files or disks"
    ),
    "secret-exfiltration": _Rule(
        "call.exfiltration", Severity.CRITICAL, "exfiltration", "reads a credential and sends it"
    ),
    "persistence": _Rule(
        "call.persistence", Severity.CRITICAL, "persistence", "installs a backdoor"
    ),
    "collection-host": _Rule(
        "call.collection_host", Severity.HIGH, "exfiltration", "sends data to a collection host"
    ),
}
_PACKAGE_INSTALL = _Rule(
    "call.package_install", Severity.MEDIUM, "supply_chain", "installs packages"
)
_TYPOSQUAT = _Rule(
    "call.package_typosquat",
    Severity.HIGH,
    "supply_chain",
    "installs a look-alike of a popular package",
)
_ENV_DUMP = _Rule("call.env_dump", Severity.HIGH, "credential_theft", "dumps the environment")
_SECRET_READ = _Rule(
    "call.secret_read", Severity.HIGH, "credential_theft", "reads a credential store"
)
_CREDENTIAL = _Rule(
    "call.credential_argument", Severity.HIGH, "credential_exposure", "passes a credential"
)
_UPLOAD = _Rule("call.upload", Severity.HIGH, "exfiltration", "uploads local data")
_HOST = _Rule(
    "call.host_not_allowed",
    Severity.MEDIUM,
    "exfiltration",
    "contacts a host outside the allow-list",
)
_UNKNOWN_PROPERTY = _Rule(
    "call.schema_unknown_property",
    Severity.LOW,
    "schema_deviation",
    "passes a parameter the schema does not declare",
)
_WRONG_TYPE = _Rule(
    "call.schema_type", Severity.LOW, "schema_deviation", "passes a value of the wrong type"
)
_POLICY_DENY = _Rule("call.policy_deny", Severity.CRITICAL, "policy", "the policy denies this tool")

_CONFIDENCE = {Severity.CRITICAL: 0.95, Severity.HIGH: 0.8, Severity.MEDIUM: 0.6, Severity.LOW: 0.4}

# Package managers' install verbs. Catches `pip install x`, `npm i -g x`,
# `apt-get install -y x`, `go install x@latest`, `cargo add x`. Must not
# catch prose ("install it with your package manager") or `pip list`.
_INSTALL = regex.compile(
    r"\b(?P<manager>pip[23]?|pipx|uv\s+pip|poetry|npm|pnpm|yarn|bun|apt(?:-get)?|brew|go|cargo|gem|conda)"
    r"\s+(?:install|add|i|get)\b(?P<rest>[^\n;&|]{0,300})",
    regex.IGNORECASE,
)
_PACKAGE_NAME = regex.compile(r"(?<![\w/.-])(@?[a-z0-9][a-z0-9._/-]{1,80})", regex.IGNORECASE)

# The most downloaded packages of each ecosystem: an install of a name one
# typo away from one of these (`reqeusts`, `lodahs`) is the classic
# typosquat. Exact names, and names that differ only in separators, pass.
_POPULAR = {
    "python": (
        "requests",
        "numpy",
        "pandas",
        "urllib3",
        "boto3",
        "botocore",
        "setuptools",
        "certifi",
        "cryptography",
        "django",
        "flask",
        "fastapi",
        "pydantic",
        "sqlalchemy",
        "pyyaml",
        "matplotlib",
        "scipy",
        "pillow",
        "pytest",
        "jinja2",
        "click",
        "colorama",
        "tensorflow",
        "torch",
        "transformers",
        "openai",
        "anthropic",
        "httpx",
        "aiohttp",
        "beautifulsoup4",
        "selenium",
        "scikit-learn",
        "python-dateutil",
        "six",
        "packaging",
        "idna",
        "charset-normalizer",
    ),
    "node": (
        "react",
        "lodash",
        "express",
        "axios",
        "chalk",
        "commander",
        "typescript",
        "webpack",
        "moment",
        "dotenv",
        "jquery",
        "vue",
        "next",
        "eslint",
        "prettier",
        "uuid",
        "debug",
        "request",
        "body-parser",
        "mongoose",
        "socket.io",
        "electron",
        "puppeteer",
        "yargs",
    ),
}
_ECOSYSTEM = {
    "pip": "python",
    "pip2": "python",
    "pip3": "python",
    "pipx": "python",
    "poetry": "python",
    "uv pip": "python",
    "conda": "python",
    "npm": "node",
    "pnpm": "node",
    "yarn": "node",
    "bun": "node",
}

# Dumping the environment. Catches a bare `env`, `printenv`, `set`, `export
# -p`, PowerShell's `Get-ChildItem env:`, `/proc/self/environ`, Python
# printing all of `os.environ`, and reading a `.env` file. Must not catch
# `env FOO=1 cmd` (running a command with one variable) or `printenv HOME`.
# Each of these three is a whole text's search for the leftmost match of
# an alternation, found part by part (``Alternation``: the same match).
_ENV_DUMP_PATTERN = Alternation(
    (
        r"(?:^|[;&|]\s*|\$\(\s*)(?:env|printenv|set|export\s+-p|declare\s+-x)\s*(?=$|[|>;&)])",
        r"\b(?:get-childitem|gci|dir|ls)\s+env:",
        r"/proc/(?:self|\d+)/environ\b",
        r"\b(?:dict|json\.dumps|print)\s*\(\s*(?:dict\s*\()?\s*os\.environ\s*\)",
        r"\b(?:cat|type|get-content|less|more|head|tail|source)\s+[\"']?(?:\S*/)?\.env\b",
    ),
    regex.IGNORECASE | regex.MULTILINE,
)

# Credential stores other than files named in SECRET_PATH: the macOS
# keychain, browser password and cookie databases, Windows credential
# manager. Catches their paths and the commands that dump them.
_CREDENTIAL_STORES = (
    r"\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain)\b",
    r"\bLogin Data\b",
    r"\bcookies\.sqlite\b",
    r"\blogins\.json\b",
    r"\bkey[34]\.db\b",
    r"\bLibrary/Keychains\b",
    r"\bcmdkey\s+/list\b",
    r"\bvaultcmd\b",
)
_CREDENTIAL_STORE = Alternation(
    (*SECRET_PATH_PARTS, *_CREDENTIAL_STORES),
    regex.IGNORECASE,
    whole="|".join((SECRET_PATH, *_CREDENTIAL_STORES)),
)

# Uploading local files. Catches `curl -T file URL`, `curl -F x=@file`,
# `curl --data-binary @file`, `scp file host:`, `rsync dir user@host:`,
# `nc host port < file`. Must not catch `curl -O URL` (a download) or
# `scp host:file .` (a download) or `rsync` between local folders.
_UPLOAD_PATTERN = Alternation(
    (
        # The gaps never run past another "curl"/"wget": from each of a
        # thousand in a row the engine would rescan the same 200 characters.
        r"\bcurl\b(?:(?!\bcurl\b)[^\n]){0,200}?(?:\s-T\s*\S|--upload-file\b|\s-F\s*\S+=@|"
        r"--form\s+\S+=@|--data(?:-binary|-raw|-urlencode)?[= ]\s*@|\s-d\s*@)",
        r"\bwget\b(?:(?!\bwget\b)[^\n]){0,200}?--post-file\b",
        r"\bscp\s+(?:-\S+\s+){0,5}[^\s:]+\s+(?:\S+@)?[\w.-]+:",
        r"\brsync\s+(?:-\S+\s+){0,8}[^\s:]+\s+(?:\S+@)?[\w.-]+:",
        r"\b(?:nc|ncat|netcat)\s+[^\n<]{0,80}<\s*\S",
    ),
    regex.IGNORECASE,
)
_URL = regex.compile(r"\b(?:https?|ftp|wss?)://[^\s\"'<>`)]{1,2048}", regex.IGNORECASE)


def _signal(rule: _Rule, location: str, evidence: str, confidence: float | None = None) -> Signal:
    tier = Tier.HARD if rule.risk is Severity.CRITICAL else Tier.SOFT
    return Signal(
        check_id=CHECK_ID,
        rule_id=rule.rule_id,
        tier=tier,
        threat=rule.threat,
        confidence=_CONFIDENCE[rule.risk] if confidence is None else confidence,
        evidence=f"{rule.description}: {evidence}",
        location=location,
        escalate=rule.risk is Severity.CRITICAL,
    )


def _shell_signals(located: LocatedString) -> Iterator[Signal]:
    for threat in find_shell_threats(located.raw):
        yield _signal(_SHELL_RULES[threat.kind], located.location, threat.snippet)


def _normal_name(name: str) -> str:
    return regex.sub(r"[-_.]+", "-", name.lower())


def _typosquat_of(name: str, ecosystem: str) -> str | None:
    """The popular package ``name`` imitates, if it is one or two typos away."""
    # Strip a version pin (`name==1.0`, `name@2`); a scoped npm name keeps its @.
    bare = name if name.startswith("@") else name.split("==", 1)[0].split("@", 1)[0]
    plain = _normal_name(bare)
    if len(plain) < 5 or any(plain == _normal_name(p) for p in _POPULAR[ecosystem]):
        return None
    budget = 1 if len(plain) < 10 else 2
    for popular in _POPULAR[ecosystem]:
        if OSA.distance(plain, _normal_name(popular), score_cutoff=budget) <= budget:
            return popular
    return None


def _install_signals(located: LocatedString) -> Iterator[Signal]:
    for match in _INSTALL.finditer(located.raw):
        manager = regex.sub(r"\s+", " ", match.group("manager").lower())
        yield _signal(_PACKAGE_INSTALL, located.location, match.group().strip()[:120])
        ecosystem = _ECOSYSTEM.get(manager)
        if ecosystem is None:
            continue
        for name in _PACKAGE_NAME.findall(match.group("rest")):
            if name.startswith("-"):
                continue
            popular = _typosquat_of(name, ecosystem)
            if popular is not None:
                yield _signal(_TYPOSQUAT, located.location, f"{name} looks like {popular}")


def _pattern_signals(located: LocatedString) -> Iterator[Signal]:
    for rule, pattern in (
        (_ENV_DUMP, _ENV_DUMP_PATTERN),
        (_SECRET_READ, _CREDENTIAL_STORE),
        (_UPLOAD, _UPLOAD_PATTERN),
    ):
        match = pattern.search(located.raw)
        if match is not None:
            yield _signal(rule, located.location, match.group().strip()[:120] or rule.description)


def _credential_signals(located: LocatedString) -> Iterator[Signal]:
    # The string's own whole-text scan: the secret guard of the same call
    # has already made it (on a megabyte of text, a quarter of a second).
    for start, end, kind in located.secret_spans():
        yield _signal(_CREDENTIAL, located.location, redact(located.raw[start:end], kind))


def _host_allowed(host: str, allowlist: Sequence[str]) -> bool:
    from fnmatch import fnmatchcase  # noqa: PLC0415

    return any(fnmatchcase(host, pattern.lower()) for pattern in allowlist)


def _host_signals(located: LocatedString, allowlist: Sequence[str]) -> Iterator[Signal]:
    for url in _URL.findall(located.raw):
        try:
            host = (urlsplit(url).hostname or "").lower()
        except ValueError:
            host = ""
        if host and not _host_allowed(host, allowlist):
            yield _signal(_HOST, located.location, host)


_JSON_TYPES: Mapping[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (Mapping,),
    "null": (type(None),),
}


def _type_ok(value: object, declared: object) -> bool:
    names = (
        [declared] if isinstance(declared, str) else list(declared) if is_array(declared) else []
    )
    if not names:
        return True
    for name in names:
        kinds = _JSON_TYPES.get(str(name))
        if kinds is None:
            return True
        if isinstance(value, bool) and name in ("integer", "number"):
            continue
        if isinstance(value, kinds):
            return True
    return False


def _schema_signals(
    arguments: Mapping[str, Any], schema: Mapping[str, Any], path: str, depth: int = 0
) -> Iterator[Signal]:
    """Arguments the schema does not declare, or of a type it does not allow.

    An attacker who steers the model adds a parameter the tool never asked
    for (``sidenote`` with a key in it) or smuggles an object where a string
    was declared. Schemas that allow extra properties still get the unknown
    parameter reported (low risk), since the model was never told of it.
    """
    properties = schema.get("properties")
    if not isinstance(properties, Mapping) or depth > _MAX_SCHEMA_DEPTH:
        return
    for key in sorted(arguments, key=str):
        value = arguments[key]
        where = f"{path}.{key}"
        if key not in properties:
            yield _signal(_UNKNOWN_PROPERTY, where, str(key)[:80])
            continue
        declared = properties[key]
        if not isinstance(declared, Mapping):
            continue
        if "type" in declared and not _type_ok(value, declared["type"]):
            yield _signal(
                _WRONG_TYPE,
                where,
                f"{type(value).__name__} where the schema says {declared['type']}",
            )
        elif isinstance(value, Mapping):
            yield from _schema_signals(value, declared, where, depth + 1)


def _argv_strings(arguments: object, path: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    """Lists of strings joined with spaces: ``["curl", "-s", url, "|", "sh"]`` is one command."""
    if depth > _MAX_SCHEMA_DEPTH:
        return
    if isinstance(arguments, list) and arguments and all(isinstance(x, str) for x in arguments):
        yield path, " ".join(arguments)
    elif isinstance(arguments, Mapping):
        for key in sorted(arguments, key=str):
            yield from _argv_strings(arguments[key], f"{path}.{key}", depth + 1)
    elif isinstance(arguments, list):
        for index, item in enumerate(arguments):
            yield from _argv_strings(item, f"{path}[{index}]", depth + 1)


class _CallRules:
    """The call rules, run like a check on the walked arguments."""

    id = CHECK_ID
    version = _VERSION
    surfaces = ("arguments",)

    def __init__(
        self,
        arguments: Mapping[str, Any],
        schema: Mapping[str, Any] | None,
        allowlist: Sequence[str],
    ) -> None:
        self.arguments = arguments
        self.schema = schema
        self.allowlist = allowlist

    def _texts(self, context: Context) -> Iterator[LocatedString]:
        yield from context.strings
        limit = context.config.max_string_chars
        for location, joined in _argv_strings(self.arguments, "arguments"):
            if len(joined) > limit:
                # The joined command is bounded like any walked string.
                context.record_cap(
                    "max_string_chars",
                    location,
                    f"{len(joined) - limit} of {len(joined)} characters",
                )
            text = joined[:limit]
            yield LocatedString(
                location=location, field="arguments", key="", raw=text, normalized=text
            )

    def run(self, tool: Tool, context: Context) -> Iterator[Signal]:  # noqa: ARG002
        for located in self._texts(context):
            yield from _shell_signals(located)
            yield from _install_signals(located)
            yield from _pattern_signals(located)
            yield from _credential_signals(located)
            if self.allowlist:
                yield from _host_signals(located, self.allowlist)
        if self.schema is not None:
            yield from _schema_signals(self.arguments, self.schema, "arguments")


def _risk(signals: Iterable[Signal]) -> Severity | None:
    risks: list[Severity] = []
    for signal in signals:
        if signal.check_id != CHECK_ID:
            # A check's HARD signal (a tag-encoded message, a decoded reverse
            # shell) is critical in a call; a reviewable SOFT one is high.
            if signal.tier is Tier.HARD:
                risks.append(Severity.CRITICAL)
            elif signal.confidence >= 0.35:
                risks.append(Severity.HIGH)
            continue
        risks.append(_rule_risk(signal.rule_id))
    return max(risks, default=None)


_RULE_RISK = {
    rule.rule_id: rule.risk
    for rule in (
        *_SHELL_RULES.values(),
        _PACKAGE_INSTALL,
        _TYPOSQUAT,
        _ENV_DUMP,
        _SECRET_READ,
        _CREDENTIAL,
        _UPLOAD,
        _HOST,
        _UNKNOWN_PROPERTY,
        _WRONG_TYPE,
        _POLICY_DENY,
    )
}


def _rule_risk(rule_id: str) -> Severity:
    return _RULE_RISK[rule_id]


def _decide(risk: Severity | None, block_critical: bool) -> Decision:
    if risk is None:
        return Decision.ALLOW
    if risk is Severity.CRITICAL:
        return Decision.BLOCK if block_critical else Decision.REQUIRE_APPROVAL
    if risk is Severity.HIGH:
        return Decision.REQUIRE_APPROVAL
    return Decision.WARN


def _reason(decision: Decision, signals: Sequence[Signal], name: str) -> str:
    if not signals:
        return f"allow: nothing risky found in the arguments of {name}"
    ranked = sorted(signals, key=lambda s: (-s.confidence, s.rule_id, s.location))
    parts = []
    for signal in ranked[:3]:
        parts.append(f"{signal.evidence} (at {signal.location})")
    more = f"; and {len(ranked) - 3} more" if len(ranked) > 3 else ""
    return f"{decision.value}: {name} " + "; ".join(parts) + more


def _policy_fields(policy: object) -> tuple[tuple[str, ...], bool]:
    if policy is None:
        return (), False
    allowlist = tuple(str(h).lower() for h in getattr(policy, "hosts_allowlist", ()) or ())
    return allowlist, bool(getattr(policy, "block_critical", False))


def _policy_denies(policy: object, tool: Tool) -> str | None:
    evaluate = getattr(policy, "evaluate", None)
    if evaluate is None:
        return None
    verdict = evaluate(tool, server=tool.server)
    if getattr(verdict, "allowed", True):
        return None
    return str(getattr(verdict, "reason", "") or "denied by policy")


def screen_call(
    name: str,
    arguments: Mapping[str, Any] | None,
    *,
    tool: object = None,
    server: str | None = None,
    policy: object = None,
    config: Config | None = None,
    checks: Iterable[object] | None = None,
) -> CallDecision:
    """Screen one proposed ``tools/call``: ``name`` and its ``arguments``.

    ``tool`` is the called tool's definition (its ``inputSchema`` is checked
    against the arguments); ``policy`` a ``mcpscan.Policy`` (its host
    allow-list, whether critical risks block, and whether it denies the
    tool). Raises ``ScanError`` for malformed input.
    """
    if not isinstance(name, str) or not name:
        raise ScanError("name", "expected the called tool's name")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        raise ScanError("arguments", f"expected an object, got {type(arguments).__name__}")
    cfg = coerce_config(config)
    called = (
        Tool.from_mcp(tool, server=server) if tool is not None else Tool(server=server, name=name)
    )
    allowlist, block_critical = _policy_fields(policy)
    rules = _CallRules(arguments, called.input_schema if tool is not None else None, allowlist)
    selected, problems = select_checks(checks, cfg, "arguments")
    selected.extend(select_checks([rules], cfg, "arguments")[0])
    view = view_fields(called, [("arguments", arguments)], cfg)
    report = run_checks(
        view, Snapshot(), cfg, selected, problems, strict=False, surface="arguments"
    )
    signals = list(report.signals)
    denial = _policy_denies(policy, called) if policy is not None else None
    if denial is not None:
        # The policy's reason may quote the call: it is guarded like evidence.
        shown = view_guard(view).evidence(denial, cfg.max_evidence_chars)
        signals.insert(0, _signal(_POLICY_DENY, "name", shown))
    risk = _risk(signals)
    decision = Decision.BLOCK if denial is not None else _decide(risk, block_critical)
    return CallDecision(
        decision=decision,
        risk=risk,
        reason=_reason(decision, signals, name),
        findings=report.findings,
        signals=tuple(signals),
        coverage=report.coverage,
    )
