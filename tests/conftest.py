"""Shared fixtures."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mcpscan._plugins import _discover

# "ci" is derandomized so a CI run is reproducible; "dev" explores more.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile("ci")


@pytest.fixture
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Install a distribution with a ``mcpscan.checks`` entry point on sys.path.

    The package and its ``.dist-info`` are written the way an installer
    leaves them, so discovery goes through ``importlib.metadata`` for real.
    """

    def install(name: str, entry: str, body: str, version: str = "1.0") -> None:
        package = tmp_path / name
        package.mkdir()
        (package / "__init__.py").write_text(body)
        info = tmp_path / f"{name}-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        (info / "entry_points.txt").write_text(f"[mcpscan.checks]\n{entry}\n")

    monkeypatch.syspath_prepend(str(tmp_path))
    _discover.cache_clear()
    yield install
    _discover.cache_clear()
    for name in list(sys.modules):
        if name.startswith("mcpscan_test_"):
            del sys.modules[name]
