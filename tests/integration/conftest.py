"""Fixtures for the MCP SDK, end-to-end and plugin tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    # Registered here as well as in pyproject.toml, so these files run under
    # --strict-markers whichever is loaded first.
    config.addinivalue_line("markers", "integration: starts real MCP servers over stdio")
    config.addinivalue_line("markers", "slow: tests that take more than a few seconds")


@pytest.fixture(scope="session")
def git_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small git repository for mcp-server-git to serve."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    root = tmp_path_factory.mktemp("repo")
    (root / "README.md").write_text("hello\n")
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "HOME": str(root),
        "PATH": "",
    }
    for args in (["init", "-q"], ["add", "README.md"], ["commit", "-q", "-m", "first"]):
        subprocess.run([git, *args], cwd=root, env=env, check=True, capture_output=True)
    return root
