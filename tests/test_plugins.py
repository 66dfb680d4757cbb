"""Discovery through real entry points of installed distributions."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import mcpscan
from mcpscan import ScanError, Verdict
from mcpscan._plugins import DISABLE_AUTOLOAD_ENV, _discover

GOOD = """
from mcpscan import Signal, Tier

class Check:
    id = "{id}"
    version = "2.1"
    surfaces = ("definition", "output")

    def run(self, tool, context):
        if "magic" in (tool.description or ""):
            yield Signal("{id}", "{id}.magic", Tier.SOFT, "test", 0.7, "magic word", "description")

CHECK = Check()
"""

Install = Callable[..., None]


def _check_body(check_id: str = "x", version: str = "1", extra: str = "") -> str:
    return (
        f"class C:\n    id = {check_id!r}\n    version = {version!r}\n    {extra}\n"
        "    def run(self, t, c): return []\nCHECK = C()"
    )


def test_third_party_check_is_discovered_and_runs(installed_plugin: Install) -> None:
    installed_plugin(
        "mcpscan_test_good", "word-check = mcpscan_test_good:CHECK", GOOD.format(id="word-check")
    )
    checks = mcpscan.available_checks()
    assert "word-check" in checks
    assert list(checks) == sorted(checks)
    report = mcpscan.scan({"name": "t", "description": "a magic tool"})
    assert report.verdict is Verdict.REVIEW
    run = next(r for r in report.coverage.checks if r.check_id == "word-check")
    assert (run.version, run.source) == ("2.1", "mcpscan_test_good[word-check]")


def test_builtins_are_entry_points_of_mcpscan() -> None:
    _discover.cache_clear()
    from mcpscan._plugins import discover

    sources = {c.source for c in discover().checks.values()}
    assert "mcpscan[custom-patterns]" in sources


def test_autoload_switch_loads_builtins_only(
    installed_plugin: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed_plugin(
        "mcpscan_test_off", "off-check = mcpscan_test_off:CHECK", GOOD.format(id="off-check")
    )
    monkeypatch.setenv(DISABLE_AUTOLOAD_ENV, "1")
    assert "off-check" not in mcpscan.available_checks()
    monkeypatch.setenv(DISABLE_AUTOLOAD_ENV, "0")
    assert "off-check" in mcpscan.available_checks()


def test_duplicate_ids_rejected_naming_both(installed_plugin: Install) -> None:
    installed_plugin(
        "mcpscan_test_dup_a", "same = mcpscan_test_dup_a:CHECK", GOOD.format(id="same")
    )
    installed_plugin(
        "mcpscan_test_dup_b", "same = mcpscan_test_dup_b:CHECK", GOOD.format(id="same")
    )
    with pytest.raises(ScanError) as raised:
        mcpscan.available_checks()
    assert "mcpscan_test_dup_a[same]" in str(raised.value)
    assert "mcpscan_test_dup_b[same]" in str(raised.value)
    # A scan still completes; neither impostor runs and both are recorded.
    report = mcpscan.scan({"name": "t", "description": "magic"})
    assert "same" not in [r.check_id for r in report.coverage.checks]
    assert [d.check_id for d in report.coverage.degraded].count("same") == 2


def test_plugin_cannot_shadow_a_builtin(installed_plugin: Install) -> None:
    installed_plugin(
        "mcpscan_test_shadow",
        "custom-patterns = mcpscan_test_shadow:CHECK",
        GOOD.format(id="custom-patterns"),
    )
    report = mcpscan.scan({"name": "t", "description": "magic"})
    run = next(r for r in report.coverage.checks if r.check_id == "custom-patterns")
    assert run.source == "mcpscan[custom-patterns]"
    assert any(
        "mcpscan_test_shadow[custom-patterns]" in d.message for d in report.coverage.degraded
    )


def _check_body(check_id: str = "x", version: str = "1", extra: str = "") -> str:
    return (
        f"class C:\n    id = {check_id!r}\n    version = {version!r}\n    {extra}\n"
        "    def run(self, t, c): return []\nCHECK = C()"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("raise ImportError('missing dependency')", "failed to import"),
        ("CHECK = object()", "check id"),
        (_check_body(check_id="Bad Id"), "check id"),
        (_check_body(version=""), "version"),
        ("class C:\n    id = 'x'\n    version = '1'\nCHECK = C()", r"run\("),
        (_check_body(extra="surfaces = 'output'"), "surfaces"),
        (_check_body(extra="surfaces = ('disk',)"), "surfaces"),
        (_check_body(check_id="other"), "entry point name"),
        ("class C:\n    def __init__(self, a): pass\nCHECK = C", "instantiated"),
    ],
)
def test_malformed_plugins_are_named(installed_plugin: Install, body: str, message: str) -> None:
    installed_plugin("mcpscan_test_bad", "x = mcpscan_test_bad:CHECK", body)
    with pytest.raises(ScanError, match=message) as raised:
        mcpscan.available_checks()
    assert "mcpscan_test_bad[x]" in str(raised.value)
    report = mcpscan.scan({"name": "t"})
    assert any(d.check_id == "x" for d in report.coverage.degraded)


def test_check_class_is_instantiated(installed_plugin: Install) -> None:
    body = GOOD.format(id="cls-check").replace("CHECK = Check()", "CHECK = Check")
    installed_plugin("mcpscan_test_cls", "cls-check = mcpscan_test_cls:CHECK", body)
    assert "cls-check" in mcpscan.available_checks()
