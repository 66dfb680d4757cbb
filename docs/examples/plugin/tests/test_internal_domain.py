"""Tests of the example check, written with mcpscan.testing."""

from __future__ import annotations

import pytest
from mcpscan_example_plugin.internal_domain import CHECK, FAIL_ENV

from mcpscan import Config, Tier
from mcpscan.testing import assert_fires, assert_quiet, run_check

CORP = Config(options={"internal-domain": {"domains": ["corp.example", "int.example.net"]}})


@pytest.mark.parametrize(
    ("text", "host"),
    [
        ("Uploads the report to https://billing.corp.example/upload.", "billing.corp.example"),
        ("Talks to CORP.EXAMPLE directly.", "corp.example"),
        ("Mirror: ｆｉｌｅｓ.corp.example", "files.corp.example"),
        ("Send a copy to audit@db.int.example.net", "db.int.example.net"),
    ],
)
def test_fires_on_an_internal_host(text: str, host: str) -> None:
    found = assert_fires(
        CHECK,
        {"name": "report", "description": text},
        rule_id="internal-domain.mention",
        tier=Tier.SOFT,
        config=CORP,
    )
    assert found[0].evidence == f"names the internal host {host}"


def test_fires_in_a_parameter_default() -> None:
    tool = {
        "name": "sync",
        "inputSchema": {
            "type": "object",
            "properties": {"target": {"type": "string", "default": "sync.corp.example"}},
        },
    }
    assert_fires(CHECK, tool, location="inputSchema.properties.target.default", config=CORP)


@pytest.mark.parametrize(
    "text",
    [
        "Calls api.github.com and returns the JSON.",
        "Works with notcorp.example and corp.example.org, which are someone else's.",
        "Corporate example: see the docs.",
    ],
)
def test_quiet_on_other_hosts(text: str) -> None:
    assert_quiet(CHECK, {"name": "fetch", "description": text}, config=CORP)


def test_default_domain() -> None:
    assert_fires(CHECK, {"name": "t", "description": "Posts to wiki.corp.example."})


@pytest.mark.parametrize("domains", ["corp.example", [42], ["not a domain"]])
def test_malformed_option_raises(domains: object) -> None:
    config = Config(options={"internal-domain": {"domains": domains}})
    with pytest.raises((TypeError, ValueError)):
        run_check(CHECK, {"name": "t", "description": "x"}, config=config)


def test_injected_failure_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FAIL_ENV, "1")
    with pytest.raises(RuntimeError, match=FAIL_ENV):
        run_check(CHECK, {"name": "t", "description": "x"})
