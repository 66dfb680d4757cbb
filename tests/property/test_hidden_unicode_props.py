"""Property tests of hidden-unicode: insertions fire, legitimate sequences do not."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

import mcpscan
from mcpscan import Tier, Verdict
from mcpscan.checks.hidden_unicode import CHECK

pytestmark = pytest.mark.property

ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
BIDI = [
    "\u200e",
    "\u200f",
    "\u061c",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
]
TAGS = [chr(c) for c in range(0xE0000, 0xE0080)]
INSERTABLE = st.sampled_from(ZERO_WIDTH + BIDI) | st.sampled_from(TAGS)

# Benign English descriptions: words, digits, punctuation and spaces.
WORDS = st.sampled_from(
    [
        "read",
        "write",
        "the",
        "a",
        "file",
        "path",
        "list",
        "return",
        "user",
        "repository",
        "issue",
        "query",
        "JSON",
        "absolute",
        "must",
        "be",
        "valid",
        "SQL",
        "timeout",
        "seconds",
        "default",
        "30",
        "(optional)",
        "e.g.",
        "name,",
        "id.",
    ]
)
ascii_descriptions = st.lists(WORDS, min_size=1, max_size=25).map(" ".join)

# Legitimate multilingual sentences that pass as they are.
LEGIT = [
    "می\u200cخواهم فایل\u200cها را ببینم",
    "क्\u200dष परीक्षा",
    "ශ්\u200dරී ලංකා",
    "קובץ חדש\u200f (new file)",
    "Family \U0001f468\u200d\U0001f469\u200d\U0001f467",
    "Pride \U0001f3f3\ufe0f\u200d\U0001f308",
    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f rugby",
    "Поиск по GitHub и Jira",
    "读取文件内容并返回",
]


def scan(description: str) -> mcpscan.Report:
    return mcpscan.scan({"name": "t", "description": description}, checks=[CHECK], strict=True)


def hard(report: mcpscan.Report) -> bool:
    return any(s.tier is Tier.HARD for s in report.signals)


@given(ascii_descriptions, INSERTABLE, st.integers(min_value=0, max_value=10_000))
def test_insertion_into_english_text_fires(text: str, char: str, where: int) -> None:
    position = where % (len(text) + 1)
    if char == "\ufeff" and position == 0:
        return  # a leading BOM is the one documented exception
    report = scan(text[:position] + char + text[position:])
    assert hard(report)
    assert report.verdict is Verdict.QUARANTINE


LATIN_PAIR = regex.compile(r"[A-Za-z](?=[A-Za-z])")


@given(st.sampled_from(LEGIT), ascii_descriptions, INSERTABLE, st.integers(min_value=0))
def test_insertion_inside_a_latin_word_of_any_text_fires(
    legit: str, english: str, char: str, where: int
) -> None:
    text = f"{legit} {english}"
    assert scan(text).signals == ()
    gaps = [m.end() for m in LATIN_PAIR.finditer(text)]
    if not gaps:
        return
    position = gaps[where % len(gaps)]
    assert hard(scan(text[:position] + char + text[position:]))


PEOPLE = st.sampled_from(["\U0001f468", "\U0001f469", "\U0001f467", "\U0001f466", "\U0001f9d1"])
SKIN = st.sampled_from(["", "\U0001f3fb", "\U0001f3fc", "\U0001f3fd", "\U0001f3fe", "\U0001f3ff"])
OBJECTS = st.sampled_from(
    [
        "\u2764\ufe0f",
        "\U0001f4bb",
        "\U0001f52c",
        "\U0001f308",
        "\U0001f3f3\ufe0f",
        "\U0001f43b",
        "\u2744\ufe0f",
    ]
)
# A person may carry a skin tone; other pictographs may not.
ELEMENTS = st.builds(lambda person, skin: person + skin, PEOPLE, SKIN) | OBJECTS


@given(st.lists(ELEMENTS, min_size=2, max_size=5), ascii_descriptions)
def test_emoji_zwj_sequences_are_quiet(parts: list[str], english: str) -> None:
    sequence = "\u200d".join(parts)
    assert scan(f"{english} {sequence} {english}").signals == ()


SUBDIVISION = st.from_regex(r"\A[a-z]{2}[a-z0-9]{1,4}\Z")


@given(SUBDIVISION, ascii_descriptions)
def test_subdivision_flags_are_quiet(code: str, english: str) -> None:
    flag = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in code) + "\U000e007f"
    assert scan(f"{english} {flag}").signals == ()


@given(
    st.text(
        alphabet=st.characters(codec="ascii", categories=["L", "N", "P", "Zs"]),
        min_size=2,
        max_size=60,
    )
)
def test_tag_run_decodes_to_its_message(message: str) -> None:
    if len(message.strip()) < 2 or not any(c.isalnum() for c in message):
        return
    report = scan("Create an event." + "".join(chr(0xE0000 + ord(c)) for c in message))
    (signal,) = report.signals
    assert signal.rule_id == "unicode.tag_message"
    assert signal.escalate
