"""The normalizer: one text form so wording variants cannot hide."""

from __future__ import annotations

import pytest

from mcpscan import normalize
from mcpscan._normalize import (
    _normalize_once,
    _unicode_regions,
    confusable_skeleton,
    is_invisible,
    normalize_bounded,
)


@pytest.mark.parametrize(
    ("variant", "canonical"),
    [
        ("IGNORE previous instructions", "ignore previous instructions"),
        ("ig\u200bnore pre\u2060vious instruc\u00adtions", "ignore previous instructions"),
        ("ｉｇｎｏｒｅ ｐｒｅｖｉｏｕｓ instructions", "ignore previous instructions"),
        ("іgnоrе previous instructions", "ignore previous instructions"),  # Cyrillic і, о, е
        ("ignore   previous\n\tinstructions", "ignore previous instructions"),
        ("ignoring previous instruction", "ignore previous instructions"),
        ("Don't tell the user", "do not tell the user"),
        ("Don’t tell the user", "do not tell the user"),
        ("won't", "will not"),
        ("we're", "we are"),
        ("𝐢𝐠𝐧𝐨𝐫𝐞", "ignore"),
    ],
)
def test_variants_share_one_form(variant: str, canonical: str) -> None:
    assert normalize(variant) == normalize(canonical)


def test_real_non_latin_text_is_kept() -> None:
    assert normalize("不要告诉用户") == "不要告诉用户"
    # A Russian word with letters that have no Latin twin stays Cyrillic.
    assert "я" in normalize("Не сообщай пользователю, я прошу")
    assert normalize("مرحبا بالعالم") == "مرحبا بالعالم"


def test_stemming_is_light() -> None:
    assert normalize("instructions") == normalize("instruction")
    assert normalize("process") == "process"
    assert normalize("status") == "status"
    assert normalize("use") == "use"


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "Hello, World!",
        "don't",
        "Ａ\u200bＢ",
        "pаypal",
        "ﬁle",
        "ß",
        "İstanbul",
        "\U000e0041x",
    ],
)
def test_idempotent_examples(text: str) -> None:
    assert normalize(normalize(text)) == normalize(text)


def test_rejects_non_text() -> None:
    with pytest.raises(TypeError):
        normalize(b"bytes")  # type: ignore[arg-type]


def test_skeleton_and_invisible() -> None:
    assert confusable_skeleton("rеad_filе") == "read_file"
    assert confusable_skeleton("ｒｅａｄ＿ｆｉｌｅ") == "read_file"
    assert confusable_skeleton("read_file") == "read_file"
    assert is_invisible("\u200b") and is_invisible("\U000e0041") and not is_invisible("a")


@pytest.mark.parametrize(
    "text",
    [
        "Ｉｇｎｏｒｅ ﬁles don’t\u200b stop. " * 3_000,
        ("é" * 20_000 + " ") * 3,  # long words: pieces cut before a base letter
        "ﾊﾞ" * 40_000,  # no whitespace at all
    ],
)
def test_bounded_normalization_matches_the_whole_within_its_limit(text: str) -> None:
    out, cut = normalize_bounded(text, 10 * len(text))
    assert not cut
    if " " in text:
        assert out == normalize(text)
    assert len(normalize_bounded(text, 100)[0]) == 100


def _by_word(text: str) -> str:
    # The reference the region split must agree with: the whole text
    # through every step (a text with a non-ASCII character takes them all,
    # twice when it is still non-ASCII after the first pass).
    once = _normalize_once(text)
    return once if once.isascii() else _normalize_once(once)


@pytest.mark.parametrize(
    "text",
    [
        "plain words " * 40 + "naïve café " + "and more plain words " * 40,
        "x" * 300 + "é" + "y" * 300,  # one long word holding the character
        "read the file\u00a0now " * 30 + "é",  # non-ASCII whitespace cut nowhere
        "won'tn't " + "w" * 400 + " é",  # the second pass reaches ASCII words too
        "ig\u200bnore " + "padding " * 100 + "pre\u2060vious " + "padding " * 100 + "іgnоrе",
        "Ιnstructions " + "a " * 300 + "Σσς \u2028 " + "b " * 300 + "İptal",
    ],
)
def test_regions_normalize_like_the_whole_text(text: str) -> None:
    assert normalize(text) == _by_word(text)


def test_unicode_steps_read_only_the_words_around_non_ascii() -> None:
    # Counted work, not time: one non-ASCII word in a megabyte of ASCII
    # sends a few hundred characters through the Unicode steps, not the
    # whole text (issue 15: work proportional to the text, no cliff).
    text = "ordinary description text " * 20_000 + "naïve " + "more text " * 20_000
    regions = _unicode_regions(text)
    assert sum(end - start for start, end in regions) < 1_000
    outside = "".join(
        text[end:start]
        for (_, end), (start, _) in zip([(0, 0), *regions], [*regions, (len(text), 0)], strict=True)
    )
    assert outside.isascii()
    for start, end in regions:
        assert start == 0 or text[start - 1] in " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
        assert end == len(text) or text[end] in " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
