"""Developer sessions: tests, property, lint, types, eval, fit, bench, docs."""

from __future__ import annotations

from pathlib import Path

import nox
import tomllib

nox.options.sessions = ["tests", "property", "integration", "lint", "types", "eval"]
nox.options.reuse_existing_virtualenvs = True

ROOT = Path(__file__).parent
_PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
_CLASSIFIER = "Programming Language :: Python :: "
PYTHONS = [
    c.removeprefix(_CLASSIFIER)
    for c in _PYPROJECT["project"]["classifiers"]
    if c.startswith(_CLASSIFIER) and c.removeprefix(_CLASSIFIER)[:1].isdigit() and "." in c
]
SHARED_CORPORA = ROOT.parent / "shared" / "corpora"

# The eval gate: the thresholds the issues set, in one place.
GATE = [
    "--min-recall",
    "0.95",
    "--min-class-recall",
    "0.90",
    "--class-recall",
    "hidden-unicode=0.95",
    "--class-recall",
    "shadowing=0.95",
    "--class-recall",
    "decode-then-confirm=0.95",
    "--max-fp",
    "0.05",
    "--max-benign-fp",
    "0.02",
    "--max-quarantine",
    "0",
]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The whole suite with branch coverage of mcpscan/ (at least 90%)."""
    session.install("-e", ".[test]")
    session.run(
        "pytest",
        "--cov=mcpscan",
        "--cov-branch",
        "--cov-report=term-missing:skip-covered",
        "--cov-fail-under=90",
        *session.posargs,
    )


@nox.session
def property(session: nox.Session) -> None:
    """Hypothesis property tests, derandomized ``ci`` profile."""
    session.install("-e", ".[test]")
    session.run(
        "pytest", "tests/property", "-m", "property", "--hypothesis-profile=ci", *session.posargs
    )


@nox.session
def integration(session: nox.Session) -> None:
    """End to end: real MCP servers from PyPI and our poisoned server over stdio."""
    session.install("-e", ".[test]")
    session.run("pytest", "tests/integration", "-m", "integration", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    session.install("ruff")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def types(session: nox.Session) -> None:
    # Every extra the typed modules import (the framework adapters need theirs).
    session.install("-e", ".[test]", "mypy", "types-regex")
    session.run("mypy", "--strict", "mcpscan")


@nox.session
def eval(session: nox.Session) -> None:
    """The blocking corpus gate, on our corpus and on the shared real tools."""
    session.install("-e", ".")
    session.run("mcpscan", "eval", "corpus", *GATE)
    if SHARED_CORPORA.is_dir():
        session.run(
            "mcpscan",
            "eval",
            str(SHARED_CORPORA),
            "--benign-only",
            "--max-benign-fp",
            "0.02",
            "--max-quarantine",
            "0",
        )


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks against the peer scanner (figures go to docs/performance.md)."""
    session.install("-e", ".", "cisco-ai-mcp-scanner")
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        session.run("python", str(script), *session.posargs)


@nox.session
def fit(session: nox.Session) -> None:
    """Refit the intent rules' weights on the labelled corpus (corpus/fit.py)."""
    session.install("-e", ".")
    corpora = ["corpus"]
    if Path("../shared/corpora").is_dir():
        corpora.append("../shared/corpora")
    session.run("python", "corpus/fit.py", *corpora, *session.posargs)


@nox.session
def fuzz(session: nox.Session) -> None:
    """Coverage-guided fuzzing of the JSON input path (not in CI).

    Pass libFuzzer options after --, e.g. ``nox -s fuzz -- -max_total_time=1800``.
    """
    session.install("-e", ".", "atheris")
    seeds = ROOT / ".nox" / "fuzz-corpus"
    seeds.mkdir(parents=True, exist_ok=True)
    session.run("python", "tests/fuzz/fuzz_json_input.py", str(seeds), *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the docs site with warnings as errors."""
    session.install("-e", ".", "mkdocs>=1.6", "pymdown-extensions>=10")
    session.run("mkdocs", "build", "--strict")
