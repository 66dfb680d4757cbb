"""Properties over hostile input: totality of every entry point, determinism
across processes, and invisible or look-alike characters never lowering a
malicious entry's verdict."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_values

import mcpscan
from mcpscan import ScanError

pytestmark = pytest.mark.property

ROOT = Path(__file__).resolve().parents[2]


@given(json_values)
def test_scan_output_is_total(value: object) -> None:
    try:
        report = mcpscan.scan_output(value)
    except ScanError:
        return
    assert isinstance(report, mcpscan.Report)


@given(st.text(max_size=20), json_values)
def test_screen_call_is_total(name: str, arguments: object) -> None:
    try:
        decision = mcpscan.screen_call(name, arguments)  # type: ignore[arg-type]
    except ScanError:
        return
    assert isinstance(decision, mcpscan.CallDecision)
    json.dumps(decision.to_dict())


_DEMO = ROOT / "corpus" / "demo" / "poisoned-server.json"
_SCRIPT = (
    "import json, sys, mcpscan\n"
    "doc = json.load(open(sys.argv[1]))\n"
    "snap = mcpscan.Snapshot.from_servers(doc['servers'])\n"
    "for server, tools in doc['servers'].items():\n"
    "    for tool in tools:\n"
    "        print(mcpscan.scan(tool, snap, server=server).to_json())\n"
)


def test_output_identical_across_processes_and_hash_seeds() -> None:
    outputs = set()
    for seed in ("0", "1", "12345", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", _SCRIPT, str(_DEMO)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1
    assert "quarantine" in outputs.pop()


def _malicious_entries() -> list[dict[str, object]]:
    entries = []
    for path in sorted((ROOT / "corpus").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                entry = json.loads(line)
                if entry["label"] == "malicious" and not entry.get("others"):
                    entries.append(entry)
    return entries


_ENTRIES = _malicious_entries()
_INSERTS = ["\u200b", "\u200c", "\u2060", "\ufeff", "\u00ad", "\u202e", "\U000e0020"]
_LOOKALIKES = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "i": "і", "x": "х"}


def _mutate_description(tool: dict[str, object], data: st.DataObject) -> dict[str, object]:
    description = tool.get("description")
    if not isinstance(description, str) or not description:
        return tool
    chars = list(description)
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(chars)))
        if data.draw(st.booleans()):
            chars.insert(position, data.draw(st.sampled_from(_INSERTS)))
        elif position < len(chars) and chars[position] in _LOOKALIKES:
            chars[position] = _LOOKALIKES[chars[position]]
    return {**tool, "description": "".join(chars)}


@pytest.mark.skipif(not _ENTRIES, reason="the corpus has no malicious entries yet")
@settings(max_examples=40)
@given(st.data())
def test_hiding_characters_never_lowers_a_verdict(data: st.DataObject) -> None:
    entry = data.draw(st.sampled_from(_ENTRIES))
    tool = entry["tool"]
    assert isinstance(tool, dict)
    server = str(entry["server"])
    before = mcpscan.scan(tool, server=server)
    after = mcpscan.scan(_mutate_description(tool, data), server=server)
    assert after.verdict.rank >= before.verdict.rank, (entry["id"], before.verdict, after.verdict)
