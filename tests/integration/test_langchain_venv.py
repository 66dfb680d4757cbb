"""The LangChain tests, in an environment of their own when this one cannot hold them.

``langchain-mcp-adapters`` (0.3.x) needs the MCP SDK 1.x, while the rest of
the test environment (``mcp-server-time``, ``mcp-server-git``) needs 2.x, so
``.[test]`` cannot install both. When the adapters are missing here, this
test builds a fresh virtual environment with mcpscan (this checkout), the
``langchain`` extra and pytest, and runs ``test_langchain.py`` there: the
integration is tested against the real package either way.
"""

from __future__ import annotations

import importlib.util
import subprocess
import venv
from pathlib import Path

import pytest
from test_plugin_example import REPO, bin_python, clean_env

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.mark.skipif(
    importlib.util.find_spec("langchain_mcp_adapters") is not None,
    reason="langchain-mcp-adapters is installed here: test_langchain.py runs directly",
)
def test_langchain_integration_in_its_own_environment(tmp_path: Path) -> None:
    root = tmp_path / "venv"
    venv.create(root, with_pip=True)
    python = str(bin_python(root))

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, *args],
            capture_output=True,
            text=True,
            env=clean_env(),
            cwd=REPO,
            timeout=600,
            check=False,
        )

    pip = ("-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input")
    installed = run(*pip, f"{REPO}[langchain]", "pytest", "hypothesis")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    tests = str(REPO / "tests" / "integration" / "test_langchain.py")
    ran = run("-m", "pytest", "-q", "-p", "no:cacheprovider", tests)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert "3 passed" in ran.stdout and "skipped" not in ran.stdout
