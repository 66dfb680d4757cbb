"""custom-patterns: the user's rules from Config."""

from __future__ import annotations

import pytest

import mcpscan
from mcpscan import Config, ScanError, Severity, Tier, Verdict
from mcpscan.checks.custom_patterns import CHECK

TOOL = {
    "name": "upload",
    "description": "Uploads the report to https://corp.example.net/in",
    "inputSchema": {"properties": {"dest": {"default": "corp.example.net"}}},
}


def _scan(*rules: dict[str, object]) -> mcpscan.Report:
    return mcpscan.scan(TOOL, checks=[CHECK], config=Config(custom_patterns=list(rules)))


def test_quiet_without_rules() -> None:
    assert mcpscan.scan(TOOL, checks=[CHECK]).signals == ()


def test_soft_rule_fires_everywhere_by_default() -> None:
    report = _scan({"name": "internal", "regex": r"corp\.example\.net"})
    assert {s.location for s in report.signals} == {
        "description",
        "inputSchema.properties.dest.default",
    }
    assert report.verdict is Verdict.REVIEW
    assert report.signals[0].rule_id == "custom.internal"
    assert report.signals[0].confidence == 0.6


def test_hard_critical_rule_and_surfaces() -> None:
    report = _scan(
        {
            "name": "internal",
            "regex": "CORP",
            "tier": "hard",
            "severity": "critical",
            "surfaces": ["description"],
        }
    )
    assert [s.location for s in report.signals] == ["description"]
    assert report.verdict is Verdict.QUARANTINE
    assert report.severity is Severity.CRITICAL
    assert report.signals[0].tier is Tier.HARD


def test_case_and_normalized_text() -> None:
    assert _scan({"name": "c", "regex": "CORP", "ignore_case": False}).signals == ()
    hidden = {"name": "t", "description": "ig\u200bnore this"}
    config = Config(custom_patterns=[{"name": "n", "regex": "ignor", "normalized": True}])
    assert mcpscan.scan(hidden, checks=[CHECK], config=config).signals
    raw = Config(custom_patterns=[{"name": "n", "regex": "ignor"}])
    assert not mcpscan.scan(hidden, checks=[CHECK], config=raw).signals


def test_regex_timeout_is_recorded_not_raised() -> None:
    config = Config(custom_patterns=[{"name": "slow", "regex": r"(a+)+$"}], regex_timeout=0.001)
    report = mcpscan.scan(
        {"name": "t", "description": "a" * 5000 + "!"}, checks=[CHECK], config=config
    )
    assert [c.limit for c in report.coverage.capped] == ["regex_timeout"]
    assert report.coverage.capped[0].check_id == "custom-patterns"


@pytest.mark.parametrize(
    ("rule", "field"),
    [
        ("x", "config.custom_patterns[0]"),
        ({"regex": "a"}, "config.custom_patterns[0].name"),
        ({"name": "Bad Name", "regex": "a"}, "config.custom_patterns[0].name"),
        ({"name": "a"}, "config.custom_patterns[0].regex"),
        ({"name": "a", "regex": "a", "tier": "medium"}, "config.custom_patterns[0].tier"),
        ({"name": "a", "regex": "a", "severity": "urgent"}, "config.custom_patterns[0].severity"),
        (
            {"name": "a", "regex": "a", "surfaces": "description"},
            "config.custom_patterns[0].surfaces",
        ),
        ({"name": "a", "regex": "a", "colour": "red"}, "config.custom_patterns[0].colour"),
    ],
)
def test_bad_rules_named(rule: object, field: str) -> None:
    # The core does not know this check: the check validates its rules
    # through the plugin interface when a scan starts, and the caller's
    # mistake is a ScanError naming the entry (never a degraded PASS).
    config = Config(custom_patterns=[rule])  # type: ignore[list-item]
    with pytest.raises(ScanError) as raised:
        mcpscan.scan(TOOL, config=config)
    assert raised.value.field == field
    with pytest.raises(ScanError) as direct:
        CHECK.validate_config(config)
    assert direct.value.field == field


def test_duplicate_rule_names() -> None:
    config = Config(custom_patterns=[{"name": "a", "regex": "x"}, {"name": "a", "regex": "y"}])
    with pytest.raises(ScanError, match="duplicate"):
        mcpscan.scan(TOOL, checks=[CHECK], config=config)


def test_rules_must_be_a_list() -> None:
    with pytest.raises(ScanError) as raised:
        Config(custom_patterns="rule")  # type: ignore[arg-type]
    assert raised.value.field == "config.custom_patterns"


def test_rules_are_read_only_once_configured() -> None:
    rule = {"name": "a", "regex": "x"}
    config = Config(custom_patterns=[rule])
    rule["regex"] = "y"  # the caller's dict changes later; the config does not
    assert config.custom_patterns[0]["regex"] == "x"
    with pytest.raises(TypeError):
        config.custom_patterns[0]["regex"] = "z"  # type: ignore[index]


def test_a_failing_validate_config_degrades_that_check_only() -> None:
    class Broken:
        id = "broken-options"
        version = "1"

        def validate_config(self, config: Config) -> None:
            raise RuntimeError("options table missing")

        def run(self, tool: object, context: object) -> list[object]:
            raise AssertionError("a check whose validation failed must not run")

    report = mcpscan.scan(TOOL, checks=[Broken(), CHECK])
    assert [(d.check_id, d.error_type) for d in report.coverage.degraded] == [
        ("broken-options", "RuntimeError")
    ]
    assert report.verdict is not mcpscan.Verdict.PASS


def test_evolved_config_keeps_rules() -> None:
    import attrs

    config = Config(custom_patterns=[{"name": "a", "regex": "x"}])
    assert attrs.evolve(config, max_strings=5).custom_patterns == config.custom_patterns
