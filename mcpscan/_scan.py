"""The orchestrator: run every check on one tool, in isolation, and aggregate.

It knows no check by name. Each check runs inside its own ``try``: one that
raises (any exception, ``SystemExit`` and ``KeyboardInterrupt`` included),
or yields something that is not a ``Signal`` of its own, is recorded in
``coverage.degraded`` and the others' results stand; one that yields more
than ``Config.max_signals_per_check`` is cut there and the cut recorded.

Third-party checks run on a worker thread, one after the other, while the
calling thread waits for each with ``Config.check_timeout_seconds``. A
check that does not finish in time (a sleep, a busy loop) is abandoned: its
daemon thread is told to start nothing more, the check is recorded as
degraded (``timeout``), and a fresh worker runs the remaining checks. A real
Ctrl-C is delivered to the calling thread and stops the scan as usual.

The built-in checks (discovered from mcpscan's own distribution) run on the
calling thread: their work is bounded by budgets of their own, recorded as
caps, and a thread hand-off would double the cost of a typical scan.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from ._aggregate import aggregate
from ._check import Context
from ._config import Config
from ._evidence import SecretGuard, scrub_secrets, shown_value
from ._model import (
    CappedEntry,
    CheckRun,
    Coverage,
    DegradedEntry,
    Report,
    ScanError,
    Signal,
    Tool,
    ToolRef,
    sorted_signals,
)
from ._plugins import LoadedCheck, discover, validate_check
from ._secrets import credential_key
from ._snapshot import Snapshot
from ._walk import ToolView, view_tool

__all__ = ["coerce_config", "coerce_snapshot", "run_checks", "scan", "select_checks"]

_MAX_MESSAGE_CHARS = 500
_LOG = logging.getLogger("mcpscan")
# The source of every check of mcpscan's own distribution (``mcpscan[<id>]``).
_OWN_SOURCE = "mcpscan["
_OWN_MODULES = "mcpscan.checks."


class _NotASignal(TypeError):
    """A check yielded something other than a Signal of its own."""


_DEFAULT_CONFIG = Config()


def coerce_config(config: object) -> Config:
    if config is None:
        return _DEFAULT_CONFIG
    if not isinstance(config, Config):
        raise ScanError("config", f"expected mcpscan.Config, got {type(config).__name__}")
    return config


def coerce_snapshot(snapshot: object) -> Snapshot:
    if snapshot is None:
        return Snapshot()
    if isinstance(snapshot, Snapshot):
        return snapshot
    if isinstance(snapshot, Mapping):
        return Snapshot.from_servers(snapshot)
    raise ScanError(
        "snapshot", f"expected mcpscan.Snapshot or a mapping, got {type(snapshot).__name__}"
    )


def select_checks(
    checks: Iterable[object] | None, config: Config, surface: str
) -> tuple[list[LoadedCheck], list[DegradedEntry]]:
    """The checks to run on ``surface`` and the plugins that could not be used."""
    problems: list[DegradedEntry] = []
    if checks is None:
        discovery = discover()
        loaded = list(discovery.checks.values())
        problems = [
            DegradedEntry(check_id=p.check_id, error_type=p.error_type, message=p.message)
            for p in discovery.problems
        ]
    else:
        if isinstance(checks, (str, bytes, Mapping)) or not isinstance(checks, Iterable):
            raise ScanError("checks", "expected an iterable of check objects")
        loaded = [validate_check(obj, f"checks[{i}]") for i, obj in enumerate(checks)]
        ids = [c.id for c in loaded]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ScanError("checks", f"two checks claim the id {duplicates[0]!r}")
    selected = [c for c in loaded if surface in c.surfaces and config.is_enabled(c.id)]
    selected.sort(key=lambda c: c.id)
    usable = []
    for loaded_check in selected:
        problem = _config_problem(loaded_check, config)
        if problem is None:
            usable.append(loaded_check)
        else:
            problems.append(problem)
    return usable, problems


def _config_problem(loaded: LoadedCheck, config: Config) -> DegradedEntry | None:
    """Let a check validate the options it reads (its optional ``validate_config``).

    A ``ScanError`` is the caller's mistake and propagates, naming the field;
    any other exception is the check's own failure: it does not run, and
    the report records it as degraded (so the scan cannot PASS by default).
    """
    validate = getattr(loaded.check, "validate_config", None)
    if not callable(validate):
        return None
    try:
        validate(config)
    except ScanError:
        raise
    except Exception as error:  # a plugin's bug must not stop the scan
        return DegradedEntry(
            check_id=loaded.id,
            error_type=type(error).__name__,
            message=f"validate_config failed: {shown_value(str(error))}",
        )
    return None


def _message(error: BaseException, guard: SecretGuard) -> str:
    return guard.evidence(str(error), _MAX_MESSAGE_CHARS)


def _safe_signal(signal: Signal, config: Config, guard: SecretGuard) -> Signal:
    return attrs.evolve(
        signal,
        evidence=guard.evidence(signal.evidence, config.max_evidence_chars),
        # A property name can itself be a secret, and it is part of the path.
        location=guard.evidence(signal.location, _MAX_MESSAGE_CHARS),
    )


def _safe_cap(entry: CappedEntry, guard: SecretGuard) -> CappedEntry:
    return attrs.evolve(entry, location=guard.evidence(entry.location, _MAX_MESSAGE_CHARS))


def view_guard(view: ToolView) -> SecretGuard:
    """The guard that keeps the secrets of ``view``'s input out of output.

    Built before any check runs, from the walked input alone (every string,
    every object key, argument keys included): see ``SecretGuard``."""
    # A value under a credential key ("password" of a default connection
    # object) is a secret only with its key: the guard reads it as written
    # after a credential word, as the embedded-secret check judges it.
    keyed = (f"password: {s.raw}" for s in view.strings if not s.is_key and credential_key(s.key))
    return SecretGuard(itertools.chain(view.strings, view.keys, keyed))


@attrs.frozen
class _Outcome:
    run: CheckRun
    signals: tuple[Signal, ...]
    degraded: DegradedEntry | None
    capped: tuple[CappedEntry, ...]


def _collect(
    loaded: LoadedCheck, tool: Tool, context: Context, strict: bool, guard: SecretGuard
) -> _Outcome:
    config = context.config
    signals: list[Signal] = []
    degraded: DegradedEntry | None = None
    capped: list[CappedEntry] = []
    started = time.perf_counter()
    try:
        for item in loaded.check.run(tool, context):
            if len(signals) >= config.max_signals_per_check:
                capped.append(
                    CappedEntry(
                        limit="max_signals_per_check",
                        location="",
                        skipped="every further signal of this check",
                        check_id=loaded.id,
                    )
                )
                break
            if not isinstance(item, Signal) or item.check_id != loaded.id:
                what = (
                    type(item).__name__
                    if not isinstance(item, Signal)
                    else f"a Signal of {item.check_id!r}"
                )
                raise _NotASignal(f"yielded {what}, expected a Signal with check_id {loaded.id!r}")
            signals.append(_safe_signal(item, config, guard))
    except TimeoutError:
        if strict:
            raise
        # A regular expression hit its time backstop: the check's remaining
        # work on this tool is cut, like any other limit, and its signals
        # so far stand.
        capped.append(
            CappedEntry(
                limit="regex_timeout",
                location="",
                skipped="the rest of this check's work on this tool",
                check_id=loaded.id,
            )
        )
    except BaseException as error:  # a plugin's SystemExit must not end the scan
        if strict:
            raise
        # Signals yielded before the failure stand: nothing found is lost,
        # and the degraded entry says the check did not finish. A check that
        # raises SystemExit or KeyboardInterrupt itself is misbehaving like
        # any other: a real Ctrl-C arrives in the calling thread instead.
        degraded = DegradedEntry(
            check_id=loaded.id, error_type=type(error).__name__, message=_message(error, guard)
        )
    elapsed = time.perf_counter() - started
    slow = elapsed >= config.slow_check_seconds
    if slow:
        _LOG.info("check %s took %.3f s on tool %r", loaded.id, elapsed, tool.name)
    run = CheckRun(
        check_id=loaded.id,
        version=loaded.version,
        source=loaded.source,
        signals=len(signals),
        seconds=elapsed,
        slow=slow,
    )
    return _Outcome(
        run=run,
        signals=tuple(signals),
        degraded=degraded,
        capped=tuple(capped) + context.recorded_caps(),
    )


class _Job:
    """One scan's checks, run in order by a worker; progress read by the caller."""

    def __init__(
        self,
        checks: Sequence[LoadedCheck],
        tool: Tool,
        base: Context,
        strict: bool,
        guard: SecretGuard,
    ) -> None:
        self.checks = checks
        self.guard = guard
        self.tool = tool
        self.base = base
        self.strict = strict
        self.outcomes: list[_Outcome] = []
        self.error: BaseException | None = None
        #: When the check now running started (monotonic seconds).
        self.started = time.monotonic()
        self.abandoned = False
        self.done = threading.Event()
        # Hands outcomes from the worker to the caller: once the caller has
        # abandoned the job, nothing the worker finishes later is kept.
        self._lock = threading.Lock()

    def _deliver(self, outcome: _Outcome) -> bool:
        """Keep ``outcome`` unless the job was abandoned; False when it was."""
        with self._lock:
            if not self.abandoned:
                self.outcomes.append(outcome)
            return not self.abandoned

    def abandon(self) -> list[_Outcome]:
        """Stop taking outcomes: the ones delivered so far, and no others, count."""
        with self._lock:
            self.abandoned = True
            return list(self.outcomes)

    def run(self) -> None:
        try:
            for loaded in self.checks:
                if self.abandoned:
                    return
                self.started = time.monotonic()
                outcome = _collect(
                    loaded, self.tool, self.base.for_check(loaded.id), self.strict, self.guard
                )
                if not self._deliver(outcome):
                    return
        except BaseException as error:  # strict mode: the caller re-raises it
            self.error = error
        finally:
            self.done.set()


class _Worker:
    """A daemon thread that runs jobs; kept for the next scan once idle."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._loop, name="mcpscan-checks", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while True:
            self.jobs.get().run()


# Idle workers, so a scan does not pay for starting a thread. Like the
# other memo caches it cannot change a result: a worker holds no state
# between jobs. A worker stuck in a check that timed out is never returned
# here, and a worker inherited through fork() is dead and dropped.
_IDLE: list[_Worker] = []
_IDLE_LOCK = threading.Lock()


def _take_worker() -> _Worker:
    with _IDLE_LOCK:
        while _IDLE:
            worker = _IDLE.pop()
            if worker.thread.is_alive():
                return worker
    return _Worker()


def _give_back(worker: _Worker) -> None:
    with _IDLE_LOCK:
        _IDLE.append(worker)


def _timed_out(loaded: LoadedCheck, config: Config) -> _Outcome:
    limit = config.check_timeout_seconds
    message = f"did not finish within check_timeout_seconds={limit:g}; abandoned"
    return _Outcome(
        run=CheckRun(
            check_id=loaded.id,
            version=loaded.version,
            source=loaded.source,
            signals=0,
            seconds=float(limit),
            slow=True,
        ),
        signals=(),
        degraded=DegradedEntry(check_id=loaded.id, error_type="timeout", message=message),
        capped=(),
    )


def _wait(job: _Job, limit: float) -> bool:
    """Wait for ``job``; False when its current check has run past ``limit``."""
    while True:
        left = job.started + limit - time.monotonic()
        if left <= 0:
            return job.done.is_set()
        if job.done.wait(left):
            return True


def _built_in(loaded: LoadedCheck) -> bool:
    # A built-in check object handed to scan(checks=[...]) is still ours:
    # it runs on the calling thread like the discovered built-ins.
    return loaded.source.startswith(_OWN_SOURCE) or type(loaded.check).__module__.startswith(
        _OWN_MODULES
    )


def _run_each(
    checks: Sequence[LoadedCheck], tool: Tool, base: Context, strict: bool, guard: SecretGuard
) -> list[_Outcome]:
    """Every check's outcome, in order: built-ins here, the others on a
    worker, each within the time limit."""
    outcomes: list[_Outcome] = []
    start = 0
    while start < len(checks):
        end = start
        if _built_in(checks[start]):
            loaded = checks[start]
            outcomes.append(_collect(loaded, tool, base.for_check(loaded.id), strict, guard))
            start += 1
            continue
        while end < len(checks) and not _built_in(checks[end]):
            end += 1
        outcomes.extend(_run_on_workers(checks[start:end], tool, base, strict, guard))
        start = end
    return outcomes


def _run_on_workers(
    checks: Sequence[LoadedCheck], tool: Tool, base: Context, strict: bool, guard: SecretGuard
) -> list[_Outcome]:
    """The outcomes of ``checks``, run on a worker, each within the time limit."""
    limit = base.config.check_timeout_seconds
    outcomes: list[_Outcome] = []
    while len(outcomes) < len(checks):
        job = _Job(checks[len(outcomes) :], tool, base, strict, guard)
        worker = _take_worker()
        worker.jobs.put(job)
        if _wait(job, limit):
            _give_back(worker)
            if job.error is not None:
                raise job.error
            outcomes.extend(job.outcomes)
            continue
        # The worker is stuck in one check: it may never return, so it is
        # left behind (a daemon thread) and starts nothing more; what it
        # yields from now on is dropped (its signals were guarded with the
        # input's secrets, learned before any check ran, but a check the
        # report says timed out must not have findings in it).
        finished = job.abandon()
        stuck = job.checks[len(finished)]
        if strict:
            raise TimeoutError(
                f"check {stuck.id!r} did not finish within check_timeout_seconds={limit:g}"
            )
        outcomes.extend(finished)
        outcomes.append(_timed_out(stuck, base.config))
    return outcomes


def run_checks(
    view: ToolView,
    snapshot: Snapshot,
    config: Config,
    checks: Sequence[LoadedCheck],
    problems: Sequence[DegradedEntry],
    *,
    strict: bool,
    surface: str = "definition",
) -> Report:
    """Run ``checks`` on a walked tool and build its Report."""
    base = Context(snapshot=snapshot, config=config, view=view, surface=surface)
    runs: list[CheckRun] = []
    signals: list[Signal] = []
    degraded: list[DegradedEntry] = list(problems)
    guard = view_guard(view)
    capped: list[CappedEntry] = [_safe_cap(entry, guard) for entry in view.capped]
    for outcome in _run_each(checks, view.tool, base, strict, guard):
        runs.append(outcome.run)
        signals.extend(outcome.signals)
        capped.extend(_safe_cap(entry, guard) for entry in outcome.capped)
        if outcome.degraded is not None:
            degraded.append(outcome.degraded)
    ordered = sorted_signals(signals)
    tool = view.tool
    # A resource URI can carry a token (``?key=...``): redacted like evidence.
    name = tool.name if tool.kind == "tool" else scrub_secrets(tool.location)
    ref = ToolRef(server=tool.server, name=name, fingerprint=view.fingerprint, kind=tool.kind)
    coverage = Coverage(
        checks=runs,
        degraded=sorted(degraded, key=lambda d: (d.check_id, d.error_type, d.message)),
        capped=capped,
    )
    verdict, severity, risk, findings = aggregate(ref, ordered, config, coverage)
    return Report(
        tool=ref,
        verdict=verdict,
        severity=severity,
        risk_score=risk,
        findings=findings,
        signals=ordered,
        coverage=coverage,
    )


def scan(
    tool: object,
    snapshot: Snapshot | Mapping[str, Iterable[Any]] | None = None,
    *,
    server: str | None = None,
    checks: Iterable[object] | None = None,
    config: Config | None = None,
    strict: bool = False,
) -> Report:
    """Scan one MCP tool definition and return its Report.

    ``tool`` is an MCP tool mapping or a ``Tool``; ``snapshot`` every
    server's tools (a ``Snapshot`` or ``{server_id: [tool, ...]}``) for the
    cross-server checks; ``server`` the id of the server the tool belongs
    to; ``checks`` the check objects to run instead of every registered one;
    ``config`` the limits and switches; ``strict`` re-raises a failing
    check's exception instead of recording it.

    Total over JSON input: returns a Report or raises ``ScanError`` naming
    the malformed field.
    """
    cfg = coerce_config(config)
    parsed = Tool.from_mcp(tool, server=server)
    snap = coerce_snapshot(snapshot)
    selected, problems = select_checks(checks, cfg, "definition")
    view = view_tool(parsed, cfg)
    return run_checks(view, snap, cfg, selected, problems, strict=strict)
