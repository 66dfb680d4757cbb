"""Redaction does not depend on which check finished, or when.

A check on a worker thread that runs past ``check_timeout_seconds`` is
abandoned but keeps running. Once the output guard learned the input's
secrets lazily, on the first text it masked, from a one-shot iterator: an
abandoned check that quoted something first started that learning on its
own thread, and the report built meanwhile on the calling thread saw only
what was left of the iterator, so a secret in an argument key went out.
The guard now learns every secret of the input (argument keys included)
from the input alone, before any check runs. These tests force that
interleaving with events; none of them measures time.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

import mcpscan
from mcpscan import _scan
from mcpscan._evidence import SecretGuard
from mcpscan._plugins import discover

# A Slack app token (the kind the load-only failure showed), in an argument key.
SECRET = "xapp-1-A0123456789-1234567890123-" + "0123456789abcdef" * 4
KEY = f"Use the key {SECRET} now."
DEFINITION = {
    "name": "fetch",
    "description": "Fetch a URL.",
    "inputSchema": {"type": "object", "properties": {"value": {"type": "string"}}},
}
# A value under a credential word: the guard's last pass reads such values.
ARGUMENTS = {"value": "x", "password": "hunter2hunter2", KEY: "y"}
SETTLE = 10.0  # a safety bound on every wait, never reached when the code is right


def _pieces_shown(text: str) -> list[str]:
    lowered = text.lower()
    secret = SECRET.lower()
    return [secret[i : i + 8] for i in range(len(secret) - 7) if secret[i : i + 8] in lowered]


class _QuotesThenHangs:
    """A plugin that quotes a piece of the key, then hangs until released."""

    id = "aaa-quotes-then-hangs"  # sorted first: it runs before call-screening
    version = "1"
    surfaces = ("arguments",)

    def __init__(self) -> None:
        self.release = threading.Event()

    def run(self, tool: object, context: object) -> Iterator[mcpscan.Signal]:
        # Lower-cased and cut: no longer the shape redaction recognises.
        yield mcpscan.Signal(
            check_id=self.id,
            rule_id="quote",
            tier=mcpscan.Tier.HARD,
            threat="test",
            confidence=0.9,
            evidence=f"saw {SECRET[:20].lower()}",
            location="arguments",
        )
        self.release.wait(SETTLE)


def _screen_with(plugin: object) -> mcpscan.CallDecision:
    """Screen the call with ``plugin`` beside the built-in checks, under a
    time limit the plugin's hang runs past."""
    checks = [plugin, *(loaded.check for loaded in discover().checks.values())]
    config = mcpscan.Config(check_timeout_seconds=0.05)
    return mcpscan.screen_call("fetch", ARGUMENTS, tool=DEFINITION, checks=checks, config=config)


def test_a_check_abandoned_mid_guard_cannot_starve_the_report_of_a_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first thread other than the caller's to read a credential key (the
    # guard's last pass) stops there until the call has returned: had the
    # guard been left to that thread, the report would be built while it
    # held the input half-read.
    caller = threading.get_ident()
    first_other: list[int] = []
    returned = threading.Event()
    original = _scan.credential_key

    def slow_on_worker(key: str) -> bool:
        me = threading.get_ident()
        if me != caller and (not first_other or first_other[0] == me):
            first_other[:1] = [me]
            returned.wait(SETTLE)
        return original(key)

    monkeypatch.setattr(_scan, "credential_key", slow_on_worker)
    plugin = _QuotesThenHangs()
    try:
        decision = _screen_with(plugin)
    finally:
        returned.set()
        plugin.release.set()
    for shown in (decision.reason, repr(decision), str(decision.to_dict())):
        assert _pieces_shown(shown) == [], shown
    # The hanging check was abandoned; nothing it yielded is in the decision.
    assert [d.error_type for d in decision.coverage.degraded] == ["timeout"]
    assert all(s.check_id != plugin.id for s in decision.signals)
    # The key itself was screened (an undeclared parameter), redacted.
    assert any(s.rule_id == "call.schema_unknown_property" for s in decision.signals)


def test_a_late_signal_of_an_abandoned_check_never_reaches_the_output() -> None:
    # The check blocks before it yields: it yields only after the call returned.
    started = threading.Event()

    class _Late(_QuotesThenHangs):
        def run(self, tool: object, context: object) -> Iterator[mcpscan.Signal]:
            started.set()
            self.release.wait(SETTLE)
            yield from super().run(tool, context)

    late = _Late()
    decision = _screen_with(late)
    late.release.set()
    assert started.is_set()
    assert all(s.check_id != late.id for s in decision.signals)
    assert _pieces_shown(decision.reason + repr(decision)) == []


def test_the_guard_knows_every_secret_however_its_input_is_interleaved() -> None:
    # Reading the input re-enters the guard halfway, as a second thread
    # would: the guard must still know the secret that comes after that point.
    guards: list[SecretGuard] = []

    class _Texts:
        def __init__(self) -> None:
            self.items = ["a harmless description", KEY]

        def __iter__(self) -> _Texts:
            return self

        def __next__(self) -> str:
            if not self.items:
                raise StopIteration
            item = self.items.pop(0)
            if guards and self.items:
                guards[0].mask("anything at all here")
            return item

    guard = SecretGuard(_Texts())
    guards.append(guard)
    assert _pieces_shown(guard.mask(SECRET[5:30].lower())) == []
    assert _pieces_shown(guard.mask(f"and again {SECRET[:12]}")) == []
