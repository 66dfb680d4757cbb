"""Adding languages leaves English results unchanged.

Every string of every English entry of the corpus and of the real tools
is analysed twice: with the English vocabulary only, as before the other
languages existed, and with every language file installed. Its clause
records (cues, addressing, negation, names), from which every wording rule
and so every result of ``mcpscan eval`` derives, must be the same both
times: a phrase of another language that is
also an English word or stem ("size" stems to Turkish "siz", "cc" inside
"access") would show up here. Real tools must in addition stay rarely
raised and never quarantined with every language installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import regex

from mcpscan import Verdict
from mcpscan import _instruction as instruction
from mcpscan._eval import CorpusEntry, load_corpus, scan_entry
from mcpscan._instruction import Clause, analyze

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
REAL_TOOLS = next(
    (
        folder / "shared" / "corpora" / "real-benign.jsonl"
        for folder in (ROOT.parent, ROOT.parent.parent)
        if (folder / "shared" / "corpora" / "real-benign.jsonl").exists()
    ),
    None,
)
# Entries written in another language with ASCII letters only (French or
# Spanish without accents): the corpus names their language in the id
# ("imperative-directive-hn-fr-legit-do-not-use"), or they are listed here.
NOT_ENGLISH = frozenset({"probe-imperative-directive-lookup"})
_LANGUAGE_IN_ID = regex.compile(r"-(?:es|fr|de|pt|it|ru|pl|tr|zh|ja|ko|ar|hi)-")


def _english(entry: CorpusEntry) -> bool:
    if entry.id in NOT_ENGLISH or _LANGUAGE_IN_ID.search(entry.id):
        return False
    return json.dumps(entry.tool, ensure_ascii=False).isascii()


def _strings(value: object) -> Iterator[str]:
    """Every string of a tool definition, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _records(entries: list[CorpusEntry]) -> dict[str, tuple[tuple[Clause, ...], ...]]:
    """The clause records of every string of every entry: every wording rule
    (and so every intent result of ``mcpscan eval``) is a function of them."""
    return {
        entry.id: tuple(analyze(text) for text in sorted(set(_strings(entry.tool))))
        for entry in entries
    }


def _clear_caches() -> None:
    instruction._lexicon.cache_clear()
    instruction._clause_start.cache_clear()
    instruction._dash_negation.cache_clear()
    instruction.name_words.cache_clear()


@pytest.fixture
def english_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    every_file = instruction._lexicon_files

    def english_files() -> Iterator[tuple[str, object]]:
        return (item for item in every_file() if item[0] == "en.json")

    monkeypatch.setattr(instruction, "_lexicon_files", english_files)
    _clear_caches()
    yield
    monkeypatch.undo()
    _clear_caches()


def _entries() -> list[CorpusEntry]:
    roots = [CORPUS] + ([REAL_TOOLS] if REAL_TOOLS is not None else [])
    return [entry for entry in load_corpus(roots) if _english(entry)]


def test_english_results_do_not_change(english_only: None, request: pytest.FixtureRequest) -> None:
    entries = _entries()
    assert len(entries) >= 500
    before = _records(entries)
    request.getfixturevalue("monkeypatch").undo()
    _clear_caches()
    assert len(instruction.lexicon_languages()) > 1
    after = _records(entries)
    changed = sorted(entry_id for entry_id in before if before[entry_id] != after[entry_id])
    assert changed == []


@pytest.mark.slow
@pytest.mark.skipif(REAL_TOOLS is None, reason="../shared/corpora is not beside the repository")
def test_real_tools_stay_quiet_in_every_language() -> None:
    assert REAL_TOOLS is not None
    entries = load_corpus([REAL_TOOLS])
    verdicts = [scan_entry(entry).verdict for entry in entries]
    assert Verdict.QUARANTINE not in verdicts
    raised = sum(verdict is not Verdict.PASS for verdict in verdicts)
    assert raised / len(verdicts) <= 0.01
