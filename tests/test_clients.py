"""``mcpscan.mcp.discover_configs``: every client's file, found and read.

The fixture home and project under tests/data/clients/ hold one realistic
file per client (the layouts each client documents), with tokens in env
values, headers and URLs that must never be shown.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcpscan.mcp import ClientConfig, ServerConfig, discover_configs

DATA = Path(__file__).parent / "data" / "clients"
SECRETS = (
    "FIXTUREtoken",
    "FIXTURE-SECRET-URL",
    "FIXTURE-DB-PASSWORD",
    "FIXTURE-PROJECT-KEY",
    "FIXTURE-HEADER-TOKEN",
    "FIXTURE-WEATHER-KEY",
    "FIXTURE-FIGMA",
    "FIXTURE-GEMINI",
    "FIXTURE-CONTEXT7",
    "FIXTURE-ZED",
    "FIXTURE-OPENCODE",
    "FIXTURE-JIRA",
)


@pytest.fixture(scope="module")
def found() -> tuple[ClientConfig, ...]:
    return discover_configs(home=DATA / "home", project=DATA / "project")


def servers(configs: tuple[ClientConfig, ...], client: str, suffix: str) -> dict[str, ServerConfig]:
    matching = [
        c for c in configs if c.client == client and Path(c.path).as_posix().endswith(suffix)
    ]
    assert len(matching) == 1, [c.path for c in configs]
    assert matching[0].problem is None
    return {s.id: s for s in matching[0].servers}


def test_claude_desktop_on_each_os(found: tuple[ClientConfig, ...]) -> None:
    mac = servers(
        found, "claude-desktop", "Library/Application Support/Claude/claude_desktop_config.json"
    )
    assert mac["filesystem"].command == "npx"
    assert mac["filesystem"].args[-1] == "/Users/ada/Desktop"
    assert mac["github"].env_keys == ("GITHUB_PERSONAL_ACCESS_TOKEN",)
    windows = servers(found, "claude-desktop", "AppData/Roaming/Claude/claude_desktop_config.json")
    assert windows["sqlite"].args == ("mcp-server-sqlite", "--db-path", "C:\\Users\\ada\\test.db")
    linux = servers(found, "claude-desktop", ".config/Claude/claude_desktop_config.json")
    assert linux["time"].startable
    assert linux["old"].disabled
    assert not linux["old"].startable


def test_claude_code_user_project_scopes(found: tuple[ClientConfig, ...]) -> None:
    user = [c for c in found if c.client == "claude-code" and c.path.endswith(".claude.json")]
    assert [c.scope for c in user] == ["user", "project /home/ada/work/api"]
    top = {s.id: s for s in user[0].servers}
    assert top["sentry"].transport == "http"
    assert top["sentry"].url is not None
    assert top["memory"].transport == "stdio"
    assert [s.id for s in user[1].servers] == ["postgres"]
    assert user[1].servers[0].env_keys == ("DATABASE_URL",)
    project = servers(found, "claude-code", "project/.mcp.json")
    assert project["project-tools"].args == ("-m", "project_tools.server")
    assert next(c for c in found if c.path.endswith(".mcp.json")).scope == "project"


def test_cursor_user_and_project(found: tuple[ClientConfig, ...]) -> None:
    user = servers(found, "cursor", "home/.cursor/mcp.json")
    assert user["browser"].startable
    assert user["linear"].transport == "http"
    assert dict(user["linear"].headers) == {"Authorization": "Bearer FIXTURE-HEADER-TOKEN"}
    assert servers(found, "cursor", "project/.cursor/mcp.json")["docs"].command == "node"


def test_vscode_settings_user_mcp_and_workspace(found: tuple[ClientConfig, ...]) -> None:
    settings = servers(found, "vscode", "Code/User/settings.json")  # JSONC
    assert settings["fetch"].args == ("mcp-server-fetch",)
    assert servers(found, "vscode", "Code/User/mcp.json")["playwright"].startable
    workspace = servers(found, "vscode", ".vscode/mcp.json")
    assert workspace["perplexity"].env_keys == ("PERPLEXITY_API_KEY",)
    assert workspace["remote-docs"].transport == "http"


def test_windsurf(found: tuple[ClientConfig, ...]) -> None:
    windsurf = servers(found, "windsurf", ".codeium/windsurf/mcp_config.json")
    assert windsurf["git"].startable
    assert windsurf["figma"].transport == "http"  # serverUrl
    assert windsurf["paused"].disabled


def test_gemini_cli(found: tuple[ClientConfig, ...]) -> None:
    user = servers(found, "gemini-cli", "home/.gemini/settings.json")
    assert user["pythonTools"].cwd == "./mcp-servers/python"
    assert user["httpServer"].transport == "http"  # httpUrl
    assert servers(found, "gemini-cli", "project/.gemini/settings.json")["nodeServer"].startable


def test_codex_toml(found: tuple[ClientConfig, ...]) -> None:
    codex = servers(found, "codex", "home/.codex/config.toml")
    assert codex["context7"].args == ("-y", "@upstash/context7-mcp")
    assert codex["context7"].env_keys == ("CONTEXT7_API_KEY",)
    assert codex["figma"].transport == "http"
    assert dict(codex["figma"].headers) == {"X-Figma-Region": "us-east-1"}
    assert codex["legacy"].disabled  # enabled = false
    assert servers(found, "codex", "project/.codex/config.toml")["repo-tools"].startable


def test_kiro(found: tuple[ClientConfig, ...]) -> None:
    kiro = servers(found, "kiro", "home/.kiro/settings/mcp.json")
    assert kiro["aws-docs"].startable
    assert kiro["off"].disabled
    assert "kiro-project" in servers(found, "kiro", "project/.kiro/settings/mcp.json")


def test_amazon_q(found: tuple[ClientConfig, ...]) -> None:
    assert servers(found, "amazon-q", ".aws/amazonq/mcp.json")["q-fetch"].startable
    assert servers(found, "amazon-q", "project/.amazonq/mcp.json")["q-project"].disabled


def test_zed_context_servers(found: tuple[ClientConfig, ...]) -> None:
    zed = servers(found, "zed", ".config/zed/settings.json")
    assert zed["local-tools"].args == ("arg-1", "arg-2")
    assert zed["older"].command == "/usr/local/bin/older-mcp"  # {"path", "args", "env"}
    assert zed["older"].env_keys == ("TOKEN",)
    assert zed["remote"].transport == "http"
    assert zed["mcp-server-context7"].transport == "unknown"  # an extension's: nothing to start
    assert zed["off"].disabled


def test_cline(found: tuple[ClientConfig, ...]) -> None:
    cline = servers(found, "cline", "saoudrizwan.claude-dev/settings/cline_mcp_settings.json")
    assert cline["weather"].startable
    assert cline["brave"].disabled


def test_opencode(found: tuple[ClientConfig, ...]) -> None:
    opencode = servers(found, "opencode", ".config/opencode/opencode.json")
    everything = opencode["everything"]
    assert (everything.transport, everything.command) == ("stdio", "npx")
    assert everything.args == ("-y", "@modelcontextprotocol/server-everything")
    assert everything.env_keys == ("MY_ENV_VAR",)
    assert opencode["jira"].transport == "remote"
    assert opencode["jira"].disabled


def test_order_is_fixed_and_records_are_immutable(found: tuple[ClientConfig, ...]) -> None:
    again = discover_configs(home=DATA / "home", project=DATA / "project")
    assert [(c.client, c.path, c.scope) for c in again] == [
        (c.client, c.path, c.scope) for c in found
    ]
    config = found[0]
    with pytest.raises(AttributeError):
        config.client = "other"  # type: ignore[misc]
    server = config.servers[0]
    with pytest.raises(TypeError):
        server.env["X"] = "y"  # type: ignore[index]


def test_secrets_never_in_repr(found: tuple[ClientConfig, ...]) -> None:
    shown = repr(found) + str(found)
    assert not [secret for secret in SECRETS if secret in shown]
    assert "https://mcp.sentry.dev" not in shown  # URLs can carry tokens too


def test_a_malformed_file_is_reported_and_the_rest_listed(tmp_path: Path) -> None:
    home = tmp_path / "home"
    shutil.copytree(DATA / "home" / ".cursor", home / ".cursor")
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text('{"mcpServers": {"a": \n  {"command": 3}}}')
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("[mcp_servers.x\ncommand = 1\n")
    (home / ".kiro" / "settings").mkdir(parents=True)
    (home / ".kiro" / "settings" / "mcp.json").write_text("{not json")
    found = discover_configs(home=home, project=tmp_path / "empty")
    problems = {c.client: c.problem for c in found if c.problem}
    assert set(problems) == {"gemini-cli", "codex", "kiro"}
    for client, problem in problems.items():
        assert "\n" not in problem
        assert str(home) in problem, client
    assert "mcpServers.a.command: expected a string" in problems["gemini-cli"]
    assert "not valid TOML" in problems["codex"]
    assert "not valid JSON" in problems["kiro"]
    assert [c.client for c in found if not c.problem] == ["cursor"]


def test_nothing_found_and_home_run_as_project(tmp_path: Path) -> None:
    assert discover_configs(home=tmp_path, project=tmp_path) == ()
    shutil.copytree(DATA / "home" / ".cursor", tmp_path / ".cursor")
    # Run from the home folder, ~/.cursor/mcp.json is also the project's file: listed once.
    found = discover_configs(home=tmp_path, project=tmp_path)
    assert [(c.client, c.scope) for c in found] == [("cursor", "user")]


def test_settings_without_servers_are_not_listed(tmp_path: Path) -> None:
    (tmp_path / ".gemini").mkdir()
    (tmp_path / ".gemini" / "settings.json").write_text('{"theme": "GitHub"}')
    assert discover_configs(home=tmp_path, project=tmp_path / "p") == ()


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ('{"mcpServers": []}', "expected an object of server name to server"),
        ('{"mcpServers": {"": {"command": "x"}}}', "server names must be non-empty strings"),
        ('{"mcpServers": {"a": "x"}}', "mcpServers.a: expected an object"),
        ('{"mcpServers": {"a": {"command": "x", "args": "y"}}}', "a.args: expected a list"),
        ('{"mcpServers": {"a": {"command": "x", "env": {"K": 1}}}}', "a.env: expected an object"),
        ('{"mcpServers": {"a": {"command": "x", "cwd": 1}}}', "a.cwd: expected a string"),
        ('{"mcpServers": {"a": {"command": "x", "type": 1}}}', "a.type: expected a string"),
        ("[1]", "expected a JSON object"),
    ],
)
def test_malformed_entries(tmp_path: Path, document: str, message: str) -> None:
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "mcp.json").write_text(document)
    (config,) = discover_configs(home=tmp_path, project=tmp_path / "p")
    assert config.problem is not None
    assert message in config.problem


def test_default_home_and_project(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    shutil.copytree(DATA / "home" / ".cursor", tmp_path / "home" / ".cursor")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "home"))
    monkeypatch.setenv("APPDATA", str(tmp_path / "appdata"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    (tmp_path / "xdg" / "opencode").mkdir(parents=True)
    shutil.copy(DATA / "home" / ".config/opencode/opencode.json", tmp_path / "xdg" / "opencode")
    monkeypatch.chdir(tmp_path)
    assert [c.client for c in discover_configs()] == ["cursor", "opencode"]
