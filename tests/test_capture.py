"""corpus/capture.py without the network: its table, pins and npm entry path.

Nothing here installs or starts a server; the capture itself is run by hand
(see the script's docstring).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_capture", ROOT / "corpus" / "capture.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["_capture"] = module
    spec.loader.exec_module(module)
    return module


capture = _load()

NPM_SPEC = {
    "package": "@scope/some-mcp",
    "pin": "1.2.3",
    "date": "2026-11-24",
    "registry": "npm",
    "command": ["node", "{bin}/some-mcp"],
    "args": ["--root", "{files}"],
    "env": {"SOME_API_KEY": "capture-dummy-key", "SOME_URL": "http://127.0.0.1:9"},
}


def test_npm_entry_command_line_and_environment(tmp_path: Path) -> None:
    root = tmp_path / "capnpm"
    prefix = capture.npm_prefix(root, NPM_SPEC["package"])
    assert prefix == root / "@scope" / "some-mcp"
    fixtures = {"work": "/w", "home": "/w/home", "files": "/w/files"}
    ph = capture.npm_placeholders(fixtures, prefix)
    argv, env = capture.server_params(NPM_SPEC, ph)
    bindir = prefix / "node_modules" / ".bin"
    assert argv == ["node", str(bindir / "some-mcp"), "--root", "/w/files"]
    assert env["HOME"] == "/w/home"
    assert env["PATH"].startswith(str(bindir))
    assert env["SOME_API_KEY"] == "capture-dummy-key"
    for key, value in capture.NPM_ENV.items():
        assert env[key] == value
    # the npm-only environment is not given to PyPI servers
    pypi_argv, pypi_env = capture.server_params(
        {"package": "x", "command": ["{bin}/x"]}, capture.placeholders(fixtures, tmp_path)
    )
    assert pypi_argv == [str(tmp_path / "bin" / "x")]
    assert not set(capture.NPM_ENV) & set(pypi_env)


def test_npm_install_command_and_installed_version(tmp_path: Path) -> None:
    root = tmp_path / "capnpm"
    assert capture.npm_install_argv(NPM_SPEC, root) == [
        "npm",
        "install",
        "--prefix",
        str(root / "@scope" / "some-mcp"),
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "@scope/some-mcp@1.2.3",
    ]
    prefix = capture.npm_prefix(root, NPM_SPEC["package"])
    assert capture.npm_version(prefix, NPM_SPEC["package"]) is None
    manifest = prefix / "node_modules" / "@scope" / "some-mcp" / "package.json"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"name": "@scope/some-mcp", "version": "1.2.3"}))
    assert capture.npm_version(prefix, NPM_SPEC["package"]) == "1.2.3"
    ph, version = capture.installed(NPM_SPEC, {}, tmp_path / "venvs", root)
    assert version == "1.2.3"
    assert ph["bin"] == str(prefix / "node_modules" / ".bin")


def test_npm_record_provenance_and_id() -> None:
    tool = {"name": "do_it", "description": "Does it.", "inputSchema": {"type": "object"}}
    record = capture.make_record(
        "@scope/some-mcp", "1.2.3", tool, "2.3.0", "2026-11-24", registry="npm"
    )
    assert record["id"] == "captured:@scope/some-mcp:do_it"
    assert record["server"] == "@scope/some-mcp"
    assert record["provenance"] == "captured:npm:@scope/some-mcp@1.2.3"
    assert record["notes"] == "captured with mcp==2.3.0 on 2026-11-24"
    pypi = capture.make_record("some-mcp", "0.1", tool, "2.3.0", "2026-11-22")
    assert pypi["provenance"] == "captured:some-mcp==0.1"


def test_table_pins_match_the_pin_files() -> None:
    packages = [spec["package"] for spec in capture.ALL_SERVERS]
    assert len(packages) == len(set(packages))
    for spec in capture.ALL_SERVERS:
        assert spec["pin"] and spec["date"] and spec["command"]
        assert capture.registry(spec) in {"pypi", "npm"}
    lines = [
        line.split()
        for line in (ROOT / "corpus" / "capture-requirements.txt").read_text().splitlines()
        if line and not line.startswith("#") and not line.startswith("mcp==")
    ]
    pypi = {spec["package"]: spec["pin"] for spec in capture.ALL_SERVERS if "registry" not in spec}
    assert dict(words[0].split("==") for words in lines) == pypi
    npm_lines = [
        line.rsplit("@", 1)
        for line in (ROOT / "corpus" / "capture-npm.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    npm = {s["package"]: s["pin"] for s in capture.NPM_SERVERS}
    assert dict(npm_lines) == npm
    assert all(capture.registry(spec) == "npm" for spec in capture.NPM_SERVERS)


# Both capture days are gated with the corpus, one file a day (docs/corpus.md).
CAPTURE_FILES = (
    ROOT / "corpus" / "captured.jsonl",
    ROOT / "corpus" / "captured-2026-11-24.jsonl",
)


def test_committed_capture_agrees_with_the_table() -> None:
    specs = {spec["package"]: spec for spec in capture.ALL_SERVERS}
    records = []
    for path in CAPTURE_FILES:
        lines = path.read_text(encoding="utf-8").splitlines()
        in_file = [json.loads(line) for line in lines]
        assert [r["id"] for r in in_file] == sorted(r["id"] for r in in_file)
        assert lines == [json.dumps(r, sort_keys=True, ensure_ascii=False) for r in in_file]
        assert len({r["notes"][-10:] for r in in_file}) == 1, path
        records += in_file
    for record in records:
        spec = specs[record["server"]]
        assert record["notes"].endswith(f" on {spec['date']}")
        if capture.registry(spec) == "npm":
            assert record["provenance"] == f"captured:npm:{spec['package']}@{spec['pin']}"
        else:
            assert record["provenance"] == f"captured:{spec['package']}=={spec['pin']}"
    assert {r["server"] for r in records} == set(specs)
