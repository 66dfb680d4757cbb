"""Session: the decision engine a gateway runs on every proposed tool call.

One ``Session`` holds one agent session's state: which servers were read
from and when, how many calls each server took, which definitions were
trusted. ``evaluate_call`` runs, in order, and the first rule that blocks
decides:

1. ``registry``: the tool must be in the snapshot (unknown tools are let
   through to the next rules, or blocked with ``fail_closed``); a name that
   several servers offer is a ``shadow_tool``;
2. ``read_then_send`` (critical): a send after a read from a *different*
   server within the window;
3. ``cross_server_flow`` (high): a write, send, compute or unknown call
   after a read from a different server within the window (by default only
   within the same LLM turn);
4. ``burst`` (high): more than ``burst_max_calls`` calls to one server
   within the window;
5. ``version_pin``: the definition changed since it was pinned or approved;
6. ``policy``: the ``mcpscan.Policy`` denies the server or tool;
7. ``arguments``: ``mcpscan.screen_call`` on the arguments.

The session has no threads and does no I/O; time comes from ``clock``, so
a test (or a replay) gives the same decisions byte for byte::

    >>> from mcpscan.session import Session
    >>> now = [0.0]
    >>> session = Session(
    ...     {"vault": [{"name": "read_password"}], "mail": [{"name": "send_email"}]},
    ...     clock=lambda: now[0],
    ... )
    >>> session.evaluate_call("vault", "read_password", {"id": "bank"}).decision.value
    'allow'
    >>> now[0] = 12.0
    >>> blocked = session.evaluate_call("mail", "send_email", {"to": "a@example.com"})
    >>> blocked.decision.value, blocked.rule
    ('block', 'read_then_send')
"""

from __future__ import annotations

import enum
import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from . import _capability
from ._config import Config
from ._evidence import safe_evidence
from ._model import Coverage, Report, ScanError, Severity, Tool, Verdict
from ._output import scan_output
from ._scan import coerce_snapshot
from ._screen import CallDecision, Decision, screen_call
from ._snapshot import Snapshot
from .pins import PinStatus, PinStore, fingerprint
from .policy import Policy

__all__ = ["Category", "Rule", "Session", "SessionConfig"]

STATE_FORMAT = "mcpscan-session"
STATE_VERSION = 1
_SHOWN_CHARS = 120
_REASON_CHARS = 1000


class Category(str, enum.Enum):
    """What a tool does with data, as the flow rules see it."""

    READ = "read"
    WRITE = "write"
    SEND = "send"
    COMPUTE = "compute"
    UNKNOWN = "unknown"


class Rule(str, enum.Enum):
    """The rule that decided a call (``CallDecision.rule``)."""

    REGISTRY = "registry"
    SHADOW_TOOL = "shadow_tool"
    READ_THEN_SEND = "read_then_send"
    CROSS_SERVER_FLOW = "cross_server_flow"
    BURST = "burst"
    VERSION_PIN = "version_pin"
    POLICY = "policy"
    ARGUMENTS = "arguments"


# Categories a read from another server must not flow into. A read
# followed by another read is how agents look things up; anything that
# writes, sends, computes on or does something unknown with what was read
# may carry it across.
_FLOW_SINKS = frozenset({Category.WRITE, Category.SEND, Category.COMPUTE, Category.UNKNOWN})
_DECISION_RANK = {
    Decision.ALLOW: 0,
    Decision.WARN: 1,
    Decision.REQUIRE_APPROVAL: 2,
    Decision.BLOCK: 3,
}
Turn = str | int | None


# --------------------------------------------------------------------------
# Configuration


def _positive(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    del instance
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ScanError(attribute.name, "expected a positive number")
    if not math.isfinite(value):
        raise ScanError(attribute.name, "expected a finite number")


def _count(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    del instance
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScanError(attribute.name, "expected a whole number of at least 1")


def _flag(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    del instance
    if not isinstance(value, bool):
        raise ScanError(attribute.name, "expected true or false")


def _as_decision(value: object, field: str) -> Decision:
    try:
        return Decision(value)
    except ValueError:
        raise ScanError(field, f"expected one of {[d.value for d in Decision]}") from None


def _shadow_tool(value: object) -> Decision:
    return _as_decision(value, "shadow_tool")


def _cross_server_flow(value: object) -> Decision:
    return _as_decision(value, "cross_server_flow")


def _on_pin_change(value: object) -> Decision:
    return _as_decision(value, "on_pin_change")


def _categories(value: object) -> Mapping[str, Category]:
    if not isinstance(value, Mapping):
        raise ScanError("categories", "expected a mapping of tool name to category")
    out: dict[str, Category] = {}
    for key in sorted(value, key=str):
        if not isinstance(key, str) or not key:
            raise ScanError("categories", "keys are tool names or server/tool")
        try:
            out[key] = Category(value[key])
        except ValueError:
            raise ScanError(
                f"categories[{key!r}]", f"expected one of {[c.value for c in Category]}"
            ) from None
    return out


def _per_server(value: object) -> Mapping[str, int]:
    if not isinstance(value, Mapping):
        raise ScanError("burst_per_server", "expected a mapping of server id to a call count")
    out: dict[str, int] = {}
    for key in sorted(value, key=str):
        count = value[key]
        if not isinstance(key, str) or isinstance(count, bool) or not isinstance(count, int):
            raise ScanError(f"burst_per_server[{key!r}]", "expected a server id and a count")
        if count < 1:
            raise ScanError(f"burst_per_server[{key!r}]", "expected at least 1")
        out[key] = count
    return out


def _scan_config(value: object) -> Config | None:
    if value is not None and not isinstance(value, Config):
        raise ScanError("scan_config", f"expected mcpscan.Config, got {type(value).__name__}")
    return value


@attrs.frozen
class SessionConfig:
    """The rules' settings; every window is in seconds of the session's clock.

    ``fail_closed`` blocks tools missing from the snapshot (otherwise they
    go on through the other rules, sorted by name alone). ``shadow_tool``,
    ``cross_server_flow`` and ``on_pin_change`` are the decision those
    rules give (``allow`` turns a rule off); ``read_then_send`` and
    ``burst`` switch theirs on or off. ``same_turn`` limits the
    cross-server flow rule to reads of the same LLM turn (calls without a
    turn all share one). ``burst_per_server`` overrides ``burst_max_calls``
    per server id. ``categories`` overrides inferred categories, keyed by
    ``"server/tool"`` or by tool name (the first wins). ``max_tracked``
    bounds the reads and servers remembered (the oldest go first).
    ``scan_config`` is the ``mcpscan.Config`` of argument and result scans.
    """

    fail_closed: bool = attrs.field(default=False, validator=_flag)
    shadow_tool: Decision = attrs.field(default=Decision.BLOCK, converter=_shadow_tool)
    read_then_send: bool = attrs.field(default=True, validator=_flag)
    read_then_send_window: float = attrs.field(default=30.0, validator=_positive)
    cross_server_flow: Decision = attrs.field(default=Decision.BLOCK, converter=_cross_server_flow)
    cross_server_window: float = attrs.field(default=30.0, validator=_positive)
    same_turn: bool = attrs.field(default=True, validator=_flag)
    burst: bool = attrs.field(default=True, validator=_flag)
    burst_max_calls: int = attrs.field(default=10, validator=_count)
    burst_window: float = attrs.field(default=5.0, validator=_positive)
    burst_per_server: Mapping[str, int] = attrs.field(factory=dict, converter=_per_server)
    on_pin_change: Decision = attrs.field(default=Decision.BLOCK, converter=_on_pin_change)
    categories: Mapping[str, Category] = attrs.field(factory=dict, converter=_categories)
    max_tracked: int = attrs.field(default=4096, validator=_count)
    scan_config: Config | None = attrs.field(default=None, converter=_scan_config)

    def max_calls(self, server: str) -> int:
        return self.burst_per_server.get(server, self.burst_max_calls)

    @property
    def longest_window(self) -> float:
        return max(self.read_then_send_window, self.cross_server_window, self.burst_window)


# --------------------------------------------------------------------------
# State


@attrs.frozen
class _Read:
    """A read from ``server``: a read-category call, or a flagged result."""

    at: float
    server: str
    tool: str
    turn: Turn
    poisoned: bool = False


@attrs.frozen
class _Call:
    """The call under evaluation."""

    server: str
    tool: str
    turn: Turn
    definition: Tool | None
    category: Category


def _shown(text: str) -> str:
    return safe_evidence(text, _SHOWN_CHARS)


def _decided(rule: Rule, decision: Decision, severity: Severity, reason: str) -> CallDecision:
    """A decision a session rule made before the arguments were screened."""
    return CallDecision(
        decision=decision,
        risk=severity,
        reason=f"{decision.value}: {reason}",
        findings=(),
        signals=(),
        coverage=Coverage(),
        rule=rule.value,
        severity=severity,
    )


def _turn(value: object) -> Turn:
    if (
        value is None
        or isinstance(value, str)
        or (isinstance(value, int) and not isinstance(value, bool))
    ):
        return value
    raise ScanError("turn", f"expected a string, an integer or None, got {type(value).__name__}")


def _name(value: object, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise ScanError(field, "expected a non-empty string")
    return value


class Session:
    """One agent session's call history and the rules that judge each call.

    ``snapshot`` is the ``tools/list`` of every server (a ``Snapshot`` or
    ``{server: [tools]}``); without one the registry rule does not apply
    and tools are sorted by name alone. ``policy`` is a ``mcpscan.Policy``;
    ``pins`` a ``PinStore`` to check definitions against (without one the
    session pins each definition the first time it sees it); ``config`` a
    ``SessionConfig``; ``clock`` returns monotonic seconds (default
    ``time.monotonic``). A clock that goes backwards is read as standing
    still: a window never reopens because the clock jumped back.

    ``evaluate_call`` and ``record_result`` are atomic: a lock covers the
    check and the record, so concurrent calls of one session cannot both
    pass a window that only one of them may.
    """

    def __init__(
        self,
        snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
        *,
        policy: Policy | None = None,
        pins: PinStore | None = None,
        config: SessionConfig | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if policy is not None and not isinstance(policy, Policy):
            raise ScanError("policy", f"expected mcpscan.Policy, got {type(policy).__name__}")
        if pins is not None and not isinstance(pins, PinStore):
            raise ScanError("pins", f"expected mcpscan.pins.PinStore, got {type(pins).__name__}")
        if config is not None and not isinstance(config, SessionConfig):
            raise ScanError("config", f"expected SessionConfig, got {type(config).__name__}")
        if clock is not None and not callable(clock):
            raise ScanError("clock", "expected a callable returning seconds")
        self._snapshot = None if snapshot is None else coerce_snapshot(snapshot)
        self._policy = policy
        self._pins = pins
        self._config = config or SessionConfig()
        self._clock = clock or time.monotonic
        self._lock = threading.Lock()
        self._now: float | None = None
        self._turn: Turn = None
        self._reads: dict[tuple[str, Turn], _Read] = {}
        self._calls: dict[str, deque[float]] = {}
        self._pinned: dict[tuple[str, str], str] = {}
        self._categories: dict[tuple[str, str], Category] = {}

    # -- public -------------------------------------------------------------

    @property
    def config(self) -> SessionConfig:
        return self._config

    @property
    def snapshot(self) -> Snapshot | None:
        return self._snapshot

    def update_snapshot(self, snapshot: Snapshot | Mapping[str, Iterable[Any]] | None) -> None:
        """Replace the snapshot after a new ``tools/list`` round.

        Without a ``PinStore``, every definition of the old snapshot that was
        not pinned yet is pinned first, so a change that arrives with the
        new snapshot is a change, not a first sight.
        """
        new = None if snapshot is None else coerce_snapshot(snapshot)
        with self._lock:
            if self._pins is None and self._snapshot is not None:
                for tool in self._snapshot.tools():
                    self._pinned.setdefault((tool.server or "", tool.name), fingerprint(tool))
            self._snapshot = new
            self._categories.clear()

    def trust(self, server: str, tool: str) -> None:
        """Accept the current definition of ``tool`` as pinned (no ``PinStore``)."""
        with self._lock:
            definition = self._definition(server, tool)
            if definition is None:
                raise ScanError("tool", "not in the snapshot")
            self._pinned[(server, tool)] = fingerprint(definition)

    def category(self, server: str, tool: str) -> Category:
        """The category the flow rules give ``tool`` of ``server``."""
        with self._lock:
            return self._category(server, tool, self._definition(server, tool))

    def evaluate_call(
        self, server: str, tool: str, arguments: object, *, turn: Turn = None
    ) -> CallDecision:
        """Decide on one proposed call of ``tool`` on ``server``.

        Every call that is not blocked is recorded (a call sent for approval
        may still run). ``arguments`` that are not an object (nor ``None``)
        give a ``block`` by the ``arguments`` rule, never an exception.
        ``ScanError`` is raised for a bad ``server``, ``tool`` or ``turn``
        and for a clock that returns no finite number.
        """
        _name(server, "server")
        _name(tool, "tool")
        call_turn = _turn(turn)
        with self._lock:
            now = self._tick()
            self._expire(now)
            definition = self._definition(server, tool)
            call = _Call(
                server, tool, call_turn, definition, self._category(server, tool, definition)
            )
            decision = self._decide(call, arguments, now)
            if decision.decision is not Decision.BLOCK:
                self._record_call(call, now)
        # Reasons quote names and arguments the model chose: a key in either
        # must not reach an audit log (evidence is redacted already; the
        # reason of an allow quotes the name as given).
        return attrs.evolve(decision, reason=safe_evidence(decision.reason, _REASON_CHARS))

    def record_result(self, server: str, tool: str, result: object, *, turn: Turn = None) -> Report:
        """Scan a ``tools/call`` result with ``scan_output`` and remember it.

        The result of a read-category tool is a read from ``server`` as of
        now (the data arrives with it); so is any result the scan does not
        pass, whatever the tool, since poisoned text steers the next call.
        ``turn`` defaults to the turn of the last evaluated call. Raises
        ``ScanError`` for a malformed result.
        """
        _name(server, "server")
        _name(tool, "tool")
        result_turn = _turn(turn)
        with self._lock:
            definition = self._definition(server, tool)
        report = scan_output(
            result,
            tool=definition,
            server=server,
            snapshot=self._snapshot,
            config=self._config.scan_config,
        )
        poisoned = report.verdict is not Verdict.PASS
        with self._lock:
            now = self._tick()
            self._expire(now)
            read = self._category(server, tool, definition) is Category.READ
            if read or poisoned:
                when = self._turn if turn is None else result_turn
                self._remember_read(_Read(now, server, tool, when, poisoned))
        return report

    # -- serialization --------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The session state, with times as ages in seconds before now.

        Ages, not clock readings: a monotonic clock means nothing in another
        process. ``from_dict`` counts the ages back from its own clock, so
        the time a state spends stored does not count towards any window.
        """
        with self._lock:
            now = self._tick()
            self._expire(now)
            reads = sorted(self._reads.values(), key=lambda r: (r.at, r.server, str(r.turn)))
            return {
                "format": STATE_FORMAT,
                "version": STATE_VERSION,
                "turn": self._turn,
                "reads": [
                    {
                        "age": _age(now, read.at),
                        "server": read.server,
                        "tool": read.tool,
                        "turn": read.turn,
                        "poisoned": read.poisoned,
                    }
                    for read in reads
                ],
                "calls": {
                    server: [_age(now, at) for at in times]
                    for server, times in sorted(self._calls.items())
                },
                "pins": [
                    {"server": server, "tool": tool, "fingerprint": value}
                    for (server, tool), value in sorted(self._pinned.items())
                ],
            }

    def to_json(self) -> str:
        """``to_dict`` as canonical JSON (sorted keys, no spaces)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(
        cls,
        state: object,
        snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
        *,
        policy: Policy | None = None,
        pins: PinStore | None = None,
        config: SessionConfig | None = None,
        clock: Callable[[], float] | None = None,
    ) -> Session:
        """A session restored from ``to_dict``; ``ScanError`` names a bad field."""
        session = cls(snapshot, policy=policy, pins=pins, config=config, clock=clock)
        _StateReader(session).load(state)
        return session

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
        *,
        policy: Policy | None = None,
        pins: PinStore | None = None,
        config: SessionConfig | None = None,
        clock: Callable[[], float] | None = None,
    ) -> Session:
        """A session restored from ``to_json``."""
        try:
            state = json.loads(text)
        except (ValueError, TypeError) as error:
            raise ScanError("state", f"not JSON: {error}") from None
        return cls.from_dict(state, snapshot, policy=policy, pins=pins, config=config, clock=clock)

    # -- time and memory -----------------------------------------------------

    def _tick(self) -> float:
        reading = self._clock()
        if isinstance(reading, bool) or not isinstance(reading, (int, float)):
            raise ScanError("clock", f"expected seconds as a number, got {type(reading).__name__}")
        if not math.isfinite(reading):
            raise ScanError("clock", "expected a finite number of seconds")
        # A clock that steps back is read as standing still: reads and calls
        # then look as recent as they were, so no window reopens early.
        now = float(reading) if self._now is None else max(self._now, float(reading))
        self._now = now
        return now

    def _expire(self, now: float) -> None:
        config = self._config
        flow_window = max(config.read_then_send_window, config.cross_server_window)
        for key in [k for k, read in self._reads.items() if now - read.at > flow_window]:
            del self._reads[key]
        for server in [
            s for s, times in self._calls.items() if now - times[-1] > config.burst_window
        ]:
            del self._calls[server]

    def _remember_read(self, read: _Read) -> None:
        self._reads.pop((read.server, read.turn), None)
        self._reads[(read.server, read.turn)] = read
        # Insertion order is time order (times never go back), so the first
        # key is the oldest read.
        while len(self._reads) > self._config.max_tracked:
            del self._reads[next(iter(self._reads))]

    def _record_call(self, call: _Call, now: float) -> None:
        times = self._calls.pop(call.server, None)
        if times is None:
            times = deque(maxlen=self._config.max_calls(call.server))
        times.append(now)
        self._calls[call.server] = times
        while len(self._calls) > self._config.max_tracked:
            del self._calls[next(iter(self._calls))]
        if call.category is Category.READ:
            self._remember_read(_Read(now, call.server, call.tool, call.turn))
        self._turn = call.turn

    # -- lookups ---------------------------------------------------------------

    def _definition(self, server: str, tool: str) -> Tool | None:
        if self._snapshot is None:
            return None
        for candidate in self._snapshot.servers.get(server, ()):
            if candidate.name == tool:
                return candidate
        return None

    def _category(self, server: str, tool: str, definition: Tool | None) -> Category:
        overrides = self._config.categories
        for key in (f"{server}/{tool}", tool):
            if key in overrides:
                return overrides[key]
        cached = self._categories.get((server, tool))
        if cached is None:
            subject = definition or Tool(server=server, name=tool)
            cached = Category(_capability.category(subject))
            if len(self._categories) < self._config.max_tracked:
                self._categories[(server, tool)] = cached
        return cached

    # -- the rules, in order -----------------------------------------------------

    def _decide(self, call: _Call, arguments: object, now: float) -> CallDecision:
        pending: list[CallDecision] = []
        for rule in (
            self._registry,
            self._read_then_send,
            self._cross_server_flow,
            self._burst,
            self._version_pin,
            self._policy_rule,
        ):
            outcome = rule(call, now)
            if outcome is None or outcome.decision is Decision.ALLOW:
                continue
            if outcome.decision is Decision.BLOCK:
                return outcome
            pending.append(outcome)
        screened = self._arguments(call, arguments)
        if screened.decision is Decision.BLOCK:
            return screened
        # Nothing blocked: the strongest remaining outcome decides, the
        # earliest rule on a tie; the findings are the arguments' either way.
        strongest = max(
            (*pending, screened), key=lambda d: _DECISION_RANK[d.decision], default=screened
        )
        if strongest is screened:
            return screened
        return attrs.evolve(
            screened,
            decision=strongest.decision,
            reason=strongest.reason,
            rule=strongest.rule,
            severity=strongest.severity,
            risk=screened.risk,
        )

    def _registry(self, call: _Call, now: float) -> CallDecision | None:
        del now
        snapshot = self._snapshot
        if snapshot is None:
            return None
        if call.definition is None:
            if not self._config.fail_closed:
                return None
            return _decided(
                Rule.REGISTRY,
                Decision.BLOCK,
                Severity.HIGH,
                f"{_shown(call.tool)} is not a tool of server {_shown(call.server)} (fail_closed)",
            )
        # A second server offering the same name can intercept calls meant
        # for the first (agents and gateways often route by name alone).
        others = snapshot.other_servers_with(call.tool, call.server)
        if not others:
            return None
        servers = ", ".join(sorted(_shown(t.server or "") for t in others)[:3])
        return _decided(
            Rule.SHADOW_TOOL,
            self._config.shadow_tool,
            Severity.CRITICAL,
            f"{_shown(call.tool)} of {_shown(call.server)} is also offered by {servers}",
        )

    def _recent_read(
        self, call: _Call, now: float, window: float, *, same_turn: bool
    ) -> _Read | None:
        """The latest read from another server within ``window`` seconds."""
        found = [
            read
            for read in self._reads.values()
            if read.server != call.server
            and now - read.at <= window
            and (not same_turn or read.turn == call.turn)
        ]
        if not found:
            return None
        return max(found, key=lambda r: (r.at, r.server, r.tool))

    def _flow_reason(self, call: _Call, read: _Read, now: float) -> str:
        what = "a poisoned result of" if read.poisoned else "a read by"
        return (
            f"{call.category.value} {_shown(call.tool)} on {_shown(call.server)} follows"
            f" {what} {_shown(read.tool)} on {_shown(read.server)}"
            f" {now - read.at:.1f} s earlier"
        )

    def _flow(
        self,
        call: _Call,
        now: float,
        rule: Rule,
        window: float,
        *,
        same_turn: bool,
        decision: Decision,
        severity: Severity,
    ) -> CallDecision | None:
        read = self._recent_read(call, now, window, same_turn=same_turn)
        if read is None:
            return None
        return _decided(rule, decision, severity, self._flow_reason(call, read, now))

    def _read_then_send(self, call: _Call, now: float) -> CallDecision | None:
        config = self._config
        if not config.read_then_send or call.category is not Category.SEND:
            return None
        return self._flow(
            call,
            now,
            Rule.READ_THEN_SEND,
            config.read_then_send_window,
            same_turn=False,
            decision=Decision.BLOCK,
            severity=Severity.CRITICAL,
        )

    def _cross_server_flow(self, call: _Call, now: float) -> CallDecision | None:
        config = self._config
        if config.cross_server_flow is Decision.ALLOW or call.category not in _FLOW_SINKS:
            return None
        return self._flow(
            call,
            now,
            Rule.CROSS_SERVER_FLOW,
            config.cross_server_window,
            same_turn=config.same_turn,
            decision=config.cross_server_flow,
            severity=Severity.HIGH,
        )

    def _burst(self, call: _Call, now: float) -> CallDecision | None:
        config = self._config
        if not config.burst:
            return None
        limit = config.max_calls(call.server)
        times = self._calls.get(call.server)
        # The deque holds the server's last ``limit`` calls: when the oldest
        # of them is inside the window, this call would be one too many.
        if times is None or len(times) < limit or now - times[0] > config.burst_window:
            return None
        return _decided(
            Rule.BURST,
            Decision.BLOCK,
            Severity.HIGH,
            f"{limit} calls to {_shown(call.server)} within {config.burst_window:g} s already",
        )

    def _version_pin(self, call: _Call, now: float) -> CallDecision | None:
        del now
        definition = call.definition
        if definition is None or self._config.on_pin_change is Decision.ALLOW:
            return None
        if self._pins is not None:
            checked = self._pins.check(definition, server=call.server)
            if checked.trusted:
                return None
            problem = (
                "changed since it was pinned"
                if checked.status is PinStatus.CHANGED
                else "was never approved"
            )
        else:
            key = (call.server, call.tool)
            current = fingerprint(definition)
            pinned = self._pinned.setdefault(key, current)
            if pinned == current:
                return None
            problem = "changed since it was pinned"
        return _decided(
            Rule.VERSION_PIN,
            self._config.on_pin_change,
            Severity.CRITICAL,
            f"the definition of {_shown(call.tool)} on {_shown(call.server)} {problem}",
        )

    def _policy_rule(self, call: _Call, now: float) -> CallDecision | None:
        del now
        if self._policy is None:
            return None
        subject = call.definition or Tool(server=call.server, name=call.tool)
        verdict = self._policy.evaluate(subject, server=call.server)
        if verdict.allowed:
            return None
        return _decided(Rule.POLICY, Decision.BLOCK, Severity.CRITICAL, verdict.reason)

    def _arguments(self, call: _Call, arguments: object) -> CallDecision:
        if arguments is not None and not isinstance(arguments, Mapping):
            return _decided(
                Rule.ARGUMENTS,
                Decision.BLOCK,
                Severity.HIGH,
                f"the arguments of {_shown(call.tool)} are not an object"
                f" ({type(arguments).__name__})",
            )
        try:
            screened = screen_call(
                call.tool,
                arguments,
                tool=call.definition,
                server=call.server,
                policy=self._policy,
                config=self._config.scan_config,
            )
        except ScanError as error:
            return _decided(
                Rule.ARGUMENTS,
                Decision.BLOCK,
                Severity.HIGH,
                f"the arguments of {_shown(call.tool)} could not be read: {_shown(str(error))}",
            )
        if screened.decision is Decision.ALLOW:
            return screened
        return attrs.evolve(screened, rule=Rule.ARGUMENTS.value, severity=screened.risk)


def _age(now: float, at: float) -> float:
    return round(now - at, 6)


def _sort_age(entry: object) -> float:
    age = entry.get("age") if isinstance(entry, Mapping) else None
    return float(age) if isinstance(age, (int, float)) and not isinstance(age, bool) else 0.0


class _StateReader:
    """Reads a ``to_dict`` state into a fresh session, naming bad fields."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def load(self, state: object) -> None:
        if not isinstance(state, Mapping):
            raise ScanError("state", "expected an object")
        if state.get("format") != STATE_FORMAT or state.get("version") != STATE_VERSION:
            raise ScanError("state.format", f"expected {STATE_FORMAT} version {STATE_VERSION}")
        session = self.session
        now = session._tick()
        session._turn = _turn(state.get("turn"))
        reads = self._list(state, "reads")
        # Oldest first, so the bound on remembered reads drops the oldest.
        for index, entry in sorted(enumerate(reads), key=lambda pair: -_sort_age(pair[1])):
            where = f"state.reads[{index}]"
            item = self._object(entry, where)
            session._remember_read(
                _Read(
                    at=now - self._age(item.get("age"), f"{where}.age"),
                    server=self._text(item.get("server"), f"{where}.server"),
                    tool=self._text(item.get("tool"), f"{where}.tool"),
                    turn=_turn(item.get("turn")),
                    poisoned=item.get("poisoned") is True,
                )
            )
        calls = state.get("calls", {})
        if not isinstance(calls, Mapping):
            raise ScanError("state.calls", "expected an object of server id to ages")
        for server in sorted(calls, key=str):
            where = f"state.calls[{server!r}]"
            ages = calls[server]
            if not isinstance(ages, list):
                raise ScanError(where, "expected a list of ages")
            times = deque(
                sorted(now - self._age(age, where) for age in ages),
                maxlen=session.config.max_calls(self._text(server, where)),
            )
            if times:
                session._calls[server] = times
        for index, entry in enumerate(self._list(state, "pins")):
            where = f"state.pins[{index}]"
            item = self._object(entry, where)
            key = (
                self._text(item.get("server"), f"{where}.server"),
                self._text(item.get("tool"), f"{where}.tool"),
            )
            session._pinned[key] = self._text(item.get("fingerprint"), f"{where}.fingerprint")

    @staticmethod
    def _list(state: Mapping[str, Any], key: str) -> list[Any]:
        value = state.get(key, [])
        if not isinstance(value, list):
            raise ScanError(f"state.{key}", "expected a list")
        return value

    @staticmethod
    def _object(value: object, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise ScanError(where, "expected an object")
        return value

    @staticmethod
    def _text(value: object, where: str) -> str:
        return _name(value, where)

    @staticmethod
    def _age(value: object, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ScanError(where, "expected an age in seconds")
        if not math.isfinite(value) or value < 0:
            raise ScanError(where, "expected a finite age of at least 0")
        return float(value)
