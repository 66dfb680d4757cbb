"""shadowing properties: self never counts; exact and look-alike names are caught;
any text folds to the confusable skeleton; the check is total over hostile text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import hostile_text

import mcpscan
from mcpscan import Snapshot, Tier
from mcpscan._normalize import confusable_skeleton
from mcpscan.checks import shadowing
from mcpscan.checks.shadowing import CHECK

pytestmark = pytest.mark.property

WORDS = st.sampled_from(
    (
        "send",
        "email",
        "create",
        "issue",
        "pull",
        "request",
        "read",
        "file",
        "list",
        "channel",
        "transfer",
        "funds",
        "delete",
        "branch",
        "post",
        "message",
        "upload",
        "report",
        "invoice",
        "ticket",
    )
)
NAMES = st.lists(WORDS, min_size=2, max_size=4).map("_".join)
# Latin letters with a Cyrillic twin that confusable_skeleton folds back.
TWINS = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441"}


def _scan(spec: dict[str, object], snapshot: dict[str, list[dict[str, object]]], server: str):
    return mcpscan.scan(spec, snapshot, server=server, checks=[CHECK], strict=True)


@given(NAMES, st.text(max_size=80))
def test_a_tool_alone_on_its_server_is_never_reported(name: str, description: str) -> None:
    spec = {"name": name, "description": description}
    report = _scan(spec, {"mine": [spec], "other": [{"name": "zz_unrelated_tool_x"}]}, "mine")
    assert report.signals == ()


@given(NAMES)
def test_the_same_name_elsewhere_is_hard(name: str) -> None:
    report = _scan({"name": name}, {"other": [{"name": name}]}, "mine")
    assert {s.rule_id: s.tier for s in report.signals} == {"shadowing.cross_server": Tier.HARD}


@given(NAMES, st.data())
def test_a_cyrillic_twin_is_a_confusable_name(name: str, data: st.DataObject) -> None:
    positions = [i for i, char in enumerate(name) if char in TWINS]
    if not positions:
        return
    index = data.draw(st.sampled_from(positions))
    disguised = name[:index] + TWINS[name[index]] + name[index + 1 :]
    report = _scan({"name": disguised}, {"other": [{"name": name}]}, "mine")
    assert "shadowing.confusable_name" in {s.rule_id for s in report.signals}
    victim = _scan({"name": name}, {"evil": [{"name": disguised}]}, "mine")
    assert all(s.tier is not Tier.HARD for s in victim.signals)


@given(hostile_text)
def test_fold_text_is_the_confusable_skeleton(text: str) -> None:
    assert shadowing._fold_text(text) == confusable_skeleton(text)


@given(hostile_text, hostile_text)
def test_total_over_hostile_names_and_text(name: str, description: str) -> None:
    spec = {"name": name or "x", "description": description}
    snapshot = Snapshot.from_servers({"a": [{"name": "send_email"}], "b": [spec]})
    report = mcpscan.scan(spec, snapshot, server="b", checks=[CHECK], strict=True)
    assert isinstance(report, mcpscan.Report)
