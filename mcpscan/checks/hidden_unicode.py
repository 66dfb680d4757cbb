"""hidden-unicode: characters a person cannot see but a model reads.

The check works on the raw strings of a tool (``LocatedString.raw``): the
normalizer deletes exactly the characters this check looks for. Every
character that is invisible, a bidi control, a tag, a variation selector or
private-use falls into one of five *groups* (escalation counts groups) and
is reported with a finer *kind* name:

* ``invisible`` (``unicode.hidden``): zero-width, word-joiner,
  invisible-operator, combining-grapheme-joiner, soft-hyphen, hangul-filler,
  mongolian-separator, format, ignorable;
* ``bidi`` (``unicode.bidi``): bidi-mark, bidi-embedding, bidi-override,
  bidi-isolate, bidi-pop;
* ``tag`` (``unicode.tag_message`` when the run decodes to text, else
  ``unicode.hidden``);
* ``variation-selector`` (``unicode.variation_message`` when the selectors'
  bytes decode to text, else ``unicode.hidden``);
* ``private-use`` (``unicode.private_use``; SOFT for scattered icon glyphs).

A long run of blank characters that are no ASCII whitespace (braille
blank, no-break and typographic spaces, Hangul fillers) between visible
text on one line pushes the rest off-screen: ``unicode.blank_padding``.

Legitimate uses are recognised from their context and stay silent (each
rule below names the text it must not catch). A decoded message, or hidden
characters of three or more groups in one tool, escalates the tool's hard
signals to CRITICAL. A Latin word with a Cyrillic or Greek look-alike letter
inside is the soft ``unicode.mixed_script`` signal.

Character data comes from the ``regex`` module's Unicode properties
(``Default_Ignorable_Code_Point``, ``Extended_Pictographic``,
``Bidi_Class``, ``Indic_Syllabic_Category``, ``Joining_Type`` ...) rather
than hand-typed tables; the few code points named below are the ones the
Unicode Standard itself singles out (ZWJ, ZWNJ, the BOM, the soft hyphen).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterator, Sequence

import attrs
import regex

from .._check import Context
from .._instruction import may_instruct
from .._model import ScanError, Signal, Tier, Tool
from .._normalize import confusable_skeleton, normalize
from .._walk import LocatedString
from ._terminal import CONTROL, Rendering, render

__all__ = ["CHECK", "HiddenUnicodeCheck"]

# --------------------------------------------------------------------------
# Character classes (compiled once; the regex module's Unicode data)
# --------------------------------------------------------------------------

# Every character this check has an opinion about. Default_Ignorable covers
# zero-width characters, joiners, Hangul fillers, variation selectors and
# the tag block; Cf adds the remaining format characters (bidi controls,
# soft hyphen, invisible operators); Co is private use.
_CANDIDATE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}]")

_ZWSP, _ZWNJ, _ZWJ = "\u200b", "\u200c", "\u200d"
_BOM, _SOFT_HYPHEN, _CGJ = "\ufeff", "\u00ad", "\u034f"
_VS15, _VS16 = "\ufe0e", "\ufe0f"
_BLACK_FLAG, _CANCEL_TAG = "\U0001f3f4", "\U000e007f"
_MVS = "\u180e"

_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\ufeff")
_WORD_JOINER = "\u2060"
_INVISIBLE_OPERATOR = regex.compile(r"[\u2061-\u2064]")
_HANGUL_FILLER = frozenset("\u115f\u1160\u3164\uffa0")

_BIDI_MARK = frozenset("\u200e\u200f\u061c")
_BIDI_EMBEDDING = frozenset("\u202a\u202b")
_BIDI_OVERRIDE = frozenset("\u202d\u202e")
_BIDI_ISOLATE = frozenset("\u2066\u2067\u2068")
_PDF, _PDI = "\u202c", "\u2069"
_FSI = "\u2068"
_LTR_OPENERS = frozenset("\u202a\u2066")
_BIDI_EMBEDDING_OR_ISOLATE = regex.compile(r"[\u202a-\u202e\u2066-\u2069]")

_TAG = regex.compile(r"[\U000e0000-\U000e007f]")
_VARIATION_SELECTOR = regex.compile(r"\p{Variation_Selector}")
_PRIVATE_USE = regex.compile(r"\p{Co}")
# Where icon fonts put their glyphs: the BMP private-use area (Font Awesome,
# Nerd Fonts, the Apple logo) and the Material Design block Nerd Fonts 3
# moved to plane 15 (U+F0001-F1AF0, ``nf-md-*``: "\U000f024b Folder").
_ICON_PRIVATE_USE = regex.compile(r"[\ue000-\uf8ff\U000f0001-\U000f1af0]")
_ICON_PRIVATE_USE_RUN = regex.compile(r"[\ue000-\uf8ff\U000f0001-\U000f1af0]+")
#: Shortest run of icon-area private-use characters that is a payload, not icons.
_PRIVATE_USE_RUN = 3
#: More BMP private-use characters than this in one string are a message,
#: not icons (a toolbar legend has a handful).
_MAX_ICONS = 8
_PRIVATE_USE_BASES = (0xE000, 0xF0000, 0x100000)
# A lone surrogate is half of a UTF-16 pair without its other half: no
# encoder writes it, no font shows it, a strict parser rejects the whole
# text, and Python's ``surrogateescape`` smuggles raw bytes as U+DC80-DCFF.
# A high half followed by a low half is a pair a lenient decoder left
# unjoined, not a lone surrogate.
_SURROGATE = regex.compile(
    r"[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]"
)
#: Lone surrogates in a row that are a payload, not a stray half pair.
_SURROGATE_RUN = 3
#: Characters of one tool played on the virtual terminal (strings with a
#: control character only).
_MAX_RENDER = 262_144

_EMOJI_PICTOGRAPH = regex.compile(r"\p{Extended_Pictographic}")
_EMOJI_MODIFIER = regex.compile(r"\p{Emoji_Modifier}")
_EMOJI = regex.compile(r"\p{Emoji}")
_SYMBOL = regex.compile(r"\p{S}")
# Right-to-left *letters*: the marks RLM and ALM are Bidi_Class R/AL too and
# must not count as the RTL text that excuses them.
_RTL_STRONG = regex.compile(r"[[\p{Bidi_Class=R}\p{Bidi_Class=AL}]&&\p{L}]", regex.V1)
_LETTER = regex.compile(r"\p{L}")
_ALNUM = regex.compile(r"[\p{L}\p{N}]")
_LTR_STRONG = regex.compile(r"[\p{Bidi_Class=L}&&\p{L}]", regex.V1)
_STRONG_LETTER = regex.compile(
    r"[[\p{Bidi_Class=L}\p{Bidi_Class=R}\p{Bidi_Class=AL}]&&\p{L}]", regex.V1
)
_MARK = regex.compile(r"\p{M}")
_DIGIT = regex.compile(r"\p{Nd}")
_WHITESPACE = regex.compile(r"\s")
_PREPENDED_MARK = regex.compile(r"\p{Prepended_Concatenation_Mark}")
_MONGOLIAN_LETTER = regex.compile(r"[\p{Script=Mongolian}&&\p{L}]", regex.V1)
_HANGUL_LEADING = regex.compile(r"\p{Hangul_Syllable_Type=L}")
_HANGUL_VOWEL = regex.compile(r"\p{Hangul_Syllable_Type=V}")

# Letters and marks of the scripts whose spelling uses ZWJ/ZWNJ: the
# cursive-joining scripts (Arabic for Persian and Urdu, Syriac, N'Ko,
# Mongolian ...: Joining_Type D/R/L/C) and the Brahmic scripts (Devanagari,
# Bengali, Tamil, Sinhala, Khmer, Myanmar ...: every letter or mark with an
# Indic_Syllabic_Category). Latin, Greek and Cyrillic letters have neither,
# so a joiner splitting an English keyword ("ig\u200dnore") is never excused.
_JOINER_SCRIPT_CHAR = regex.compile(
    r"[\p{Joining_Type=Dual_Joining}\p{Joining_Type=Right_Joining}"
    r"\p{Joining_Type=Left_Joining}\p{Joining_Type=Join_Causing}"
    r"[[\p{L}\p{M}]--\p{Indic_Syllabic_Category=Other}]]",
    regex.V1,
)
# Letters that join on one side. Join_Causing characters are left out on
# purpose: ZWJ itself is one, and two joiners side by side ("Calc\u200d
# \u200dulator") would otherwise excuse each other; the tatweel, the one
# join-causing letter, is an Arabic letter and is kept.
_JOINS_FORWARD = regex.compile(
    r"[\p{Joining_Type=Dual_Joining}\p{Joining_Type=Left_Joining}\u0640]"
)
_JOINS_BACKWARD = regex.compile(
    r"[\p{Joining_Type=Dual_Joining}\p{Joining_Type=Right_Joining}\u0640]"
)
_VIRAMA = regex.compile(r"\p{Canonical_Combining_Class=Virama}")
#: Letters an f joins in a typographic ligature (ff, fi, fl, ft, fb, fh, fk, fj).
_LIGATES_WITH_F = frozenset("filtbhkj")
_NO_SPACE_SCRIPT = regex.compile(r"\p{Line_Break=Complex_Context}")

# Bases with standardized or ideographic variation sequences other than the
# emoji ones: CJK ideographs (VS1-VS3 for compatibility ideographs and the
# Ideographic Variation Database selectors VS17-VS256), maths symbols (VS1),
# Myanmar, Phags-pa, Manichaean and Egyptian hieroglyphs (VS1-VS3).
_IDEOGRAPH = regex.compile(r"\p{Ideographic}")
_STANDARDIZED_BASE = regex.compile(
    r"[\p{Sm}\p{Script=Myanmar}\p{Script=Phags_Pa}\p{Script=Manichaean}"
    r"\p{Script=Egyptian_Hieroglyphs}]"
)
_MONGOLIAN_FVS = frozenset("\u180b\u180c\u180d\u180f")

# Mixed-script words: a run of letters and marks.
_WORD = regex.compile(r"[\p{L}\p{M}]+")
_LATIN = regex.compile(r"\p{Latin}")
_LOOKALIKE_SCRIPT = regex.compile(r"[\p{Cyrillic}\p{Greek}]")
_GREEK = regex.compile(r"\p{Greek}")
_ASCII_LETTER = regex.compile(r"[A-Za-z]")

# Long text is mostly ASCII, where no hidden or look-alike character is:
# ``re`` finds the non-ASCII runs in C, and the Unicode classes (whose
# ``regex`` search costs twice that over a whole megabyte) read only them.
_NON_ASCII_RUN = re.compile(r"[^\x00-\x7f]+")


def _non_ascii_matches(pattern: regex.Pattern[str], text: str) -> Iterator[regex.Match[str]]:
    """``pattern.finditer(text)`` for a pattern that matches one non-ASCII
    character at a time (no ASCII character, no look-around): a test holds
    ``_CANDIDATE`` and ``_LOOKALIKE_SCRIPT`` to that."""
    for run in _NON_ASCII_RUN.finditer(text):
        yield from pattern.finditer(text, run.start(), run.end())


# The characters ``CONTROL`` matches, as bytes of the text's one-byte-per-
# character Latin-1 form (a character beyond Latin-1 becomes "?", which is
# none of them): "c" for a control character, "r" for a carriage return
# and "n" for a line feed, which a carriage return may precede.
def _control_table() -> bytes:
    table = bytearray(b"." * 256)
    for code in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)):
        table[code] = ord("c")
    table[0x0D] = ord("r")
    table[0x0A] = ord("n")
    return bytes(table)


_CONTROL_TABLE = _control_table()


def _has_control(text: str) -> bool:
    """``CONTROL.search(text) is not None``, by C byte searches: a control
    character, or a carriage return not followed by a line feed."""
    classes = text.encode("latin-1", "replace").translate(_CONTROL_TABLE)
    if b"c" in classes:
        return True
    return b"r." in classes or b"rr" in classes or classes.endswith(b"r")


# Group names (escalation counts groups) and rule ids.
#: Control characters and escape sequences that hide text (a sixth group).
CONTROL_GROUP = "control"
INVISIBLE, BIDI, TAG, VARIATION, PRIVATE_USE = (
    "invisible",
    "bidi",
    "tag",
    "variation-selector",
    "private-use",
)
_RULE_BY_GROUP = {
    INVISIBLE: "unicode.hidden",
    TAG: "unicode.hidden",
    VARIATION: "unicode.hidden",
    BIDI: "unicode.bidi",
    PRIVATE_USE: "unicode.private_use",
}

#: Characters either side of a bidi mark or isolate within which genuine
#: right-to-left text must appear for the mark to be excused.
_RTL_WINDOW = 16
#: How far past digits, spaces and punctuation a bidi mark's RTL letter may be.
_NEUTRAL_REACH = 48
#: Longest isolate or embedding span judged by its content's direction.
_MAX_ISOLATED_SPAN = 80
#: Longest operand read beside an invisible maths operator.
_MAX_MATH_TOKEN = 8
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")
#: Function names written before U+2061 FUNCTION APPLICATION.
_MATH_FUNCTIONS = frozenset(
    str.split(
        """
    sin cos tan cot sec csc sinh cosh tanh arcsin arccos arctan log ln lg exp lim
    max min sup inf det dim ker deg gcd lcm arg mod sgn tr f g h
    """
    )
)
#: A run of this many hidden characters in a row is never a legitimate
#: sequence (the longest legitimate one, an emoji's VS16 + ZWJ, has two).
_SUSPICIOUS_RUN = 3
#: Zero-width spaces a rich-text editor leaves at a word gap (reviewed).
_WORD_GAP_PAIR = 2
#: Shortest decoded tag or variation-selector text reported as a message.
_MIN_MESSAGE = 2
#: Letters a word must have for the soft hyphen in it to be a hyphenation hint.
_LONG_WORD = 8
#: Letters a short word hyphenated in typeset prose must have.
_SHORT_WORD = 4
#: Soft-hyphenated words that make a string typeset prose (one of them long).
_TYPESET_WORDS = 3
#: Confidence of the signals.
_CONFIDENCE = {
    "unicode.hidden": 0.85,
    "unicode.bidi": 0.85,
    "unicode.tag_message": 0.99,
    "unicode.variation_message": 0.99,
    "unicode.private_use": 0.8,
    "unicode.terminal_hidden": 0.9,
    "unicode.surrogate": 0.85,
    "unicode.blank_padding": 0.85,
}
_ICON_CONFIDENCE = 0.3
#: Control characters that hide nothing: plain colours stay below review,
#: anything else (NUL, BEL, cursor moves) is reviewed.
_COLOUR_CONFIDENCE = 0.3
_CONTROL_CONFIDENCE = 0.5
_SGR_NOTATION = regex.compile(r"(?:ESC\[|CSI)[0-9;:]*m")
_ALNUM_TEXT = regex.compile(r"[\p{L}\p{N}].*[\p{L}\p{N}]", regex.DOTALL)
_SEQUENCES_SHOWN = 6
_HIDDEN_PIECES_SHOWN = 3
_HIDDEN_TEXT_CHARS = 120
_MIXED_CONFIDENCE = 0.5
#: A look-alike spelling the same string shows as one ("'аpple.com' with a
#: Cyrillic 'а'", a homoglyph checker's example): shown, below review.
_EXPLAINED_CONFIDENCE = 0.3
# Words that say the text is about look-alike letters, in the languages of
# the directive work: the script's name or the idea (homoglyph, confusable,
# IDN / punycode spoofing). A disguised keyword in an instruction carries
# none of them.
_EXPLAINS_LOOKALIKES = regex.compile(
    r"\b(?:cyrillic|greek|homo?glyph\w*|homograph\w*|confusables?|look-?alikes?|punycode|idn"
    r"|kyrillisch\w*|griechisch\w*|cyrillique|grec(?:que)?|cir[ií]lic\w*|griego|grieg[ao]|greco"
    r"|homógraf\w*|omoglif\w*|cirillic\w*|cyrylic\w*|kiril\w*)\b"
    r"|кириллиц\w*|греческ\w*|омоглиф\w*|西里尔|希腊|同形|キリル|ギリシャ|ホモグリフ|키릴|그리스",
    regex.IGNORECASE,
)
_CONTEXT = 16
#: Mixed-script words quoted in the evidence (the search stops there).
_MIXED_WORDS_SHOWN = 3
#: Candidate characters classified per tool (option ``max_hidden_chars``).
DEFAULT_MAX_HIDDEN_CHARS = 10_000


@attrs.define
class _Budget:
    """Candidate characters still to classify in this tool, and where it ran out."""

    chars_left: int
    cut_at: list[str] = attrs.field(factory=list)
    #: Characters still to play on the virtual terminal in this tool.
    render_left: int = 0

    def cut(self, location: str) -> None:
        self.cut_at.append(location)


@attrs.frozen
class _Hit:
    """One flagged character: where, what, which group and which kind."""

    index: int
    char: str
    group: str
    kind: str


@attrs.frozen
class _StringResult:
    """What one string contains: flagged characters and decoded messages."""

    located: LocatedString
    hits: tuple[_Hit, ...]
    tag_message: str
    variation_message: str
    private_use_message: str
    icon_glyphs: tuple[_Hit, ...]
    mixed_words: tuple[str, ...]
    #: What a terminal would hide (None: no control character in the string).
    terminal: Rendering | None = None
    #: Indexes of lone surrogates (half of a UTF-16 pair, with no other half).
    surrogates: tuple[int, ...] = ()
    #: Span of a run of blank characters that pushes the rest of its line
    #: off-screen (None: no such run).
    padding: tuple[int, int] | None = None


# --------------------------------------------------------------------------
# Context tests: each returns True for a legitimate use of one character
# --------------------------------------------------------------------------


def _char_at(text: str, index: int) -> str:
    return text[index] if 0 <= index < len(text) else ""


def _matches(pattern: regex.Pattern[str], char: str) -> bool:
    return bool(char) and pattern.match(char) is not None


def _base_before(text: str, index: int) -> str:
    """The base character before ``index``, skipping up to three combining marks."""
    at = index - 1
    for _ in range(3):
        if at >= 0 and _MARK.match(text[at]) and not _VIRAMA.match(text[at]):
            at -= 1
    return _char_at(text, at)


def _emoji_before(text: str, index: int) -> bool:
    """An emoji (optionally with VS16 or a skin-tone modifier) ends just before ``index``."""
    at = index - 1
    if _char_at(text, at) == _VS16 or _matches(_EMOJI_MODIFIER, _char_at(text, at)):
        at -= 1
    return _matches(_EMOJI_PICTOGRAPH, _char_at(text, at))


def _is_emoji_zwj(text: str, index: int) -> bool:
    # 👨‍👩‍👧, 🏳️‍🌈, 🧑🏽‍💻: ZWJ between two pictographs. Not: ZWJ inside
    # a Latin word, or after a pictograph with nothing pictographic after it.
    return _emoji_before(text, index) and _matches(_EMOJI_PICTOGRAPH, _char_at(text, index + 1))


def _is_script_joiner(text: str, index: int) -> bool:
    # Persian "می‌خواهم", Hindi "क्‍ष", Sinhala "ශ්‍රී": a ZWJ/ZWNJ between
    # letters or marks of a joining or Brahmic script, or right after a
    # virama (Malayalam chillu "ന്‍" at a word's end). Not: between Latin,
    # Greek or Cyrillic letters, or at the edge of such a word.
    previous = _char_at(text, index - 1)
    if _matches(_VIRAMA, previous):
        return True
    return _matches(_JOINER_SCRIPT_CHAR, _base_before(text, index)) and _matches(
        _JOINER_SCRIPT_CHAR, _char_at(text, index + 1)
    )


def _at_joining_word_edge(text: str, index: int) -> bool:
    # Urdu and Persian text that shows its half-space ("نیم فاصلہ (ZWNJ)
    # جیسے \u200cہم\u200cآہنگ") puts a ZWNJ at the edge of a word of a
    # joining script, beside a space or punctuation: it joins nothing and
    # splits no word. Not: beside a Latin, Greek or Cyrillic letter (the
    # edge of an English keyword), or between two letters of any kind.
    before, after = _char_at(text, index - 1), _char_at(text, index + 1)
    if _matches(_LETTER, before) == _matches(_LETTER, after):
        return False
    return _matches(_JOINER_SCRIPT_CHAR, _base_before(text, index)) or _matches(
        _JOINER_SCRIPT_CHAR, after
    )


def _suppresses_ligature(text: str, index: int) -> bool:
    # German typesetting puts a ZWNJ inside a compound where an f-ligature
    # would straddle its parts: "Auf\u200clage", "Kauf\u200claden",
    # "Schiff\u200cfahrt" (the Unicode Standard's own example of ZWNJ in
    # Latin text). Only an f before a letter that forms a ligature with it,
    # both lower case in a longer word: a ZWNJ splitting any other pair of
    # Latin letters ("ig\u200cnore") still counts as hidden.
    if _char_at(text, index - 1) != "f" or _char_at(text, index + 1) not in _LIGATES_WITH_F:
        return False
    return _matches(_LETTER, _char_at(text, index - 2)) and _matches(
        _LETTER, _char_at(text, index + 2)
    )


def _is_forced_joining_form(text: str, index: int) -> bool:
    # Arabic-script typography shows a letter's initial, medial or final form
    # on its own with a ZWJ on the joining side: "ب‍" (initial form),
    # "‍ب" (final form), as alphabet tables and font docs do. Only
    # letters that join on that side count (Joining_Type); Latin letters
    # never join, so this excuses nothing in English text.
    return _matches(_JOINS_FORWARD, _base_before(text, index)) or _matches(
        _JOINS_BACKWARD, _char_at(text, index + 1)
    )


def _between_letters(text: str, index: int) -> bool:
    return _matches(_LETTER, _char_at(text, index - 1)) and _matches(
        _LETTER, _char_at(text, index + 1)
    )


def _is_word_break_hint(text: str, index: int) -> bool:
    # Thai, Lao, Khmer and Myanmar are written without spaces; a zero-width
    # space between two of their letters marks a word boundary for line
    # breaking (Line_Break=Complex_Context). Not: between Latin letters, or
    # at the edge of a Thai word next to an English one.
    return _matches(_NO_SPACE_SCRIPT, _char_at(text, index - 1)) and _matches(
        _NO_SPACE_SCRIPT, _char_at(text, index + 1)
    )


def _changes_direction(text: str, index: int) -> bool:
    """Are the letters either side of ``index`` of opposite strong directions?"""
    before, after = _char_at(text, index - 1), _char_at(text, index + 1)
    return (_matches(_RTL_STRONG, before) and _matches(_LTR_STRONG, after)) or (
        _matches(_LTR_STRONG, before) and _matches(_RTL_STRONG, after)
    )


def _near_rtl_text(text: str, start: int, end: int) -> bool:
    lo, hi = max(0, start - _RTL_WINDOW), min(len(text), end + _RTL_WINDOW + 1)
    return _RTL_STRONG.search(text, lo, hi) is not None


def _rtl_letter_nearest(text: str, index: int) -> bool:
    """Is the first letter before or after ``index`` (past neutrals, within
    ``_NEUTRAL_REACH`` characters) a right-to-left letter?"""
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(text) and abs(at - index) <= _NEUTRAL_REACH:
            if _LETTER.match(text[at]):
                if _RTL_STRONG.match(text[at]):
                    return True
                break
            at += step
    return False


_LINE_END = regex.compile(r"[ \t]*+(?:\r?\n|$)")
#: How far back a line's first letter is looked for (a bound per mark).
_MAX_LINE = 400


def _ends_rtl_line(text: str, index: int) -> bool:
    """Does the mark at ``index`` close a right-to-left line? An RLM after
    the Latin word or period that ends an Arabic or Hebrew line ("... عند
    ignore_diacritics=true.\u200f") keeps the period on the line's side; the
    line's first strong letter is right-to-left and only blanks follow the
    mark. Not: a mark at the end of an English line."""
    if not _LINE_END.match(text, index + 1):
        return False
    line_start = text.rfind("\n", max(0, index - _MAX_LINE), index) + 1
    first = _STRONG_LETTER.search(text, max(line_start, index - _MAX_LINE), index)
    return first is not None and _RTL_STRONG.match(first.group()) is not None


# A number with a currency sign and its separators ("₪1,250.00", "-€5",
# "12%"): the whole whitespace-delimited token beside a bidi mark, with no
# letter in it.
_AMOUNT_TOKEN = regex.compile(r"[\p{Sc}+\-(]?\p{Nd}[\p{Nd}.,']*[\p{Sc}%)]?")
#: Longest token read as an amount (a bound on the walk from each mark).
_MAX_AMOUNT = 24


def _marks_amount(text: str, index: int) -> bool:
    """Does the bidi mark at ``index`` wrap an amount ("\u200f₪1,250.00\u200f
    for RTL documents")?

    Locale formatters put RLM/LRM around a currency amount so its sign and
    digits keep their order inside right-to-left text; in an English
    sentence about formatting there is no Hebrew letter near it. Between two
    letters (splitting a keyword) the mark is never excused (checked
    before); here the token the mark touches is digits, separators and a
    currency sign only, so the mark hides no word.
    """
    lo = index
    while lo > 0 and not text[lo - 1].isspace() and index - lo <= _MAX_AMOUNT:
        lo -= 1
    hi = index + 1
    while hi < len(text) and not text[hi].isspace() and hi - index <= _MAX_AMOUNT:
        hi += 1
    if index - lo > _MAX_AMOUNT or hi - index > _MAX_AMOUNT:
        return False
    token = "".join(char for char in text[lo:hi] if char not in _BIDI_MARK).rstrip(".,;:")
    return bool(token) and _AMOUNT_TOKEN.fullmatch(token) is not None


def _keeps_reading_order(text: str, start: int, end: int) -> bool:
    """Does a balanced isolate or embedding display its content in the order
    it is read?

    Fluent and ICU wrap each placeable in FSI ... PDI ("\u2068Ahmed\u2069
    liked your photo"): a first-strong isolate takes its direction from its
    own content, so it reorders nothing. LRI/LRE around text without RTL
    letters, and RLI/RLE around text without LTR letters, set the direction
    the text has anyway. Not: RLI or RLE around English words (shown in
    reverse word order, the Trojan Source trick) or around digits alone, a
    long span, or one with other bidi controls inside it.
    """
    inner = text[start + 1 : end]
    if len(inner) > _MAX_ISOLATED_SPAN or _BIDI_EMBEDDING_OR_ISOLATE.search(inner):
        return False
    if _BIDI_MARK.intersection(inner) or not _ALNUM.search(inner):
        return False
    opener = text[start]
    if opener == _FSI:
        return True
    has_rtl = _RTL_STRONG.search(inner) is not None
    has_ltr = _LTR_STRONG.search(inner) is not None
    if opener in _LTR_OPENERS:
        return not has_rtl
    # RLI/RLE need a right-to-left letter inside: around digits and
    # punctuation alone, away from Hebrew or Arabic text (which
    # ``_near_rtl_text`` excuses first), they only reverse the order of the
    # numbers and separators ("\u2067000,01\u2069 5" in an example amount).
    return has_rtl and not has_ltr


def _is_math_operator(text: str, index: int) -> bool:
    """Is an invisible operator (U+2061-2064) between two operands of a formula?

    MathML and accessible maths put FUNCTION APPLICATION after a function
    name ("sin\u2061x"), INVISIBLE TIMES between a coefficient and a
    variable ("2\u2062x", "a\u2062b"), INVISIBLE SEPARATOR between indices
    and INVISIBLE PLUS in mixed numbers: short tokens, a screen reader says
    "sine of x". Not: an operator splitting a word into longer pieces
    ("ig\u2062nore", "i\u2062gnore"), where it only dodges a keyword filter.
    """
    left = _token(text, index, -1)
    right = _token(text, index, 1)
    # A bracket is an operand's edge: "log\u2061(y)", "(a+b)\u2062c".
    left_ok = _operand(left, function=text[index] == "\u2061") or (
        not left and _char_at(text, index - 1) in _CLOSING
    )
    right_ok = _operand(right, function=False) or (
        not right and _char_at(text, index + 1) in _OPENING
    )
    return bool(left or right) and left_ok and right_ok


def _token(text: str, index: int, step: int) -> str:
    """The letters or digits right before (``step`` -1) or after ``index``."""
    at = index + step
    while 0 <= at < len(text) and abs(at - index) <= _MAX_MATH_TOKEN + 1 and _ALNUM.match(text[at]):
        at += step
    return text[at + 1 : index] if step < 0 else text[index + 1 : at]


def _operand(token: str, *, function: bool) -> bool:
    # A number, one letter (a variable), an opening or closing bracket's
    # neighbour, or a function name before FUNCTION APPLICATION.
    if not token:
        return False
    if token.isdigit() or len(token) == 1:
        return True
    return function and token.lower() in _MATH_FUNCTIONS


def _in_running_text(located: LocatedString, text: str) -> bool:
    return not located.is_key and located.field != "name" and _WHITESPACE.search(text) is not None


def _is_display_text(located: LocatedString) -> bool:
    """A title or a description shown to people ("Silben\u00adtrennung", a
    parameter described as "Lokalitets\u00adnummer"): typeset like prose
    even when it is one word; never called or sent, unlike the tool's name,
    a property name or a value (enum, default, example)."""
    if located.is_key:
        return False
    if located.key == "description":
        return True
    return located.field == "title" or (located.field == "annotations" and located.key == "title")


def _is_hyphenation_hint(located: LocatedString, text: str, index: int) -> bool:
    # "Donau\u00addampf\u00adschiff" in a sentence: a soft hyphen between two
    # letters of a long word, every piece at least two letters. Not: in a
    # name, a property name or a value without spaces; not splitting a short
    # word ("ig\u00adnore"), where it only serves to dodge a keyword filter.
    # A one-word title or description is prose too (issue 12: a Norwegian
    # parameter described as "Lokalitets\u00adnummer" was quarantined).
    if not (_in_running_text(located, text) or _is_display_text(located)):
        return False
    if not (
        _matches(_LETTER, _char_at(text, index - 1))
        and _matches(_LETTER, _char_at(text, index + 1))
    ):
        return False
    # The word runs on across a hyphen between letters: "Dis\u00adcord-Embed"
    # is one compound of twelve letters, hyphenated like the long words
    # around it; "ig\u00adnore" stays a short word.
    return _long_hyphenated_word(_compound_around(text, index))


def _syllable_break(text: str, index: int) -> bool:
    # In typeset prose (``_StringScan.typeset_prose``) short words are
    # hyphenated too: Czech or Hungarian typesetting splits "kú\u00adra"
    # (four letters) like the long words beside it. Issue 12: such a
    # product list was quarantined. Not: a lone split word in otherwise
    # plain text ("ig\u00adnore all rules"), a piece of one letter
    # ("Dampfschif\u00adf"), a soft hyphen beside a separator.
    if not (
        _matches(_LETTER, _char_at(text, index - 1))
        and _matches(_LETTER, _char_at(text, index + 1))
    ):
        return False
    return _long_hyphenated_word(_compound_around(text, index), _SHORT_WORD)


def _compound_around(text: str, index: int) -> str:
    """The hyphenated word holding ``text[index]`` (letters, soft hyphens
    and hyphens between letters), at most 64 characters either side."""
    start, end = index, index
    while start > 0 and index - start < 64 and _in_compound(text, start - 1):
        start -= 1
    while end + 1 < len(text) and end - index < 64 and _in_compound(text, end + 1):
        end += 1
    return text[start : end + 1]


def _long_hyphenated_word(word: str, letters_needed: int = _LONG_WORD) -> bool:
    """A word long enough to be hyphenated, every piece two letters or more."""
    letters = sum(1 for char in word if _LETTER.match(char))
    return letters >= letters_needed and all(
        len(p.strip("-")) >= 2 for p in word.split(_SOFT_HYPHEN)
    )


#: A run of letters, soft hyphens and hyphens: one match per run, no backtracking.
_COMPOUND_RUN = regex.compile(r"[\p{L}\u00ad\-]++")


def soft_hyphenated_words(name: str, prose: str) -> frozenset[str]:
    """The (case-folded) words of ``prose`` that hold a soft hyphen, read
    once per tool and only when its ``name`` has one."""
    if _SOFT_HYPHEN not in name or _SOFT_HYPHEN not in prose:
        return frozenset()
    return frozenset(
        run.group().strip("-").casefold()
        for run in _COMPOUND_RUN.finditer(prose)
        if _SOFT_HYPHEN in run.group()
    )


def _name_hyphenated_as_prose(
    located: LocatedString, prose_words: frozenset[str], index: int
) -> bool:
    # A tool name that keeps the soft hyphen its own description puts in the
    # same long compound ("mehrspur\u00adaufnahme_starten" beside "Startet
    # eine Mehrspur\u00adaufnahme"): a typesetter's habit copied into the
    # name, hiding nothing the description does not show. Not: a soft hyphen
    # in a name the description never writes that way ("read\u00adfile" to
    # pass for another tool), nor next to a separator ("send\u00ad_email").
    if located.field != "name" or located.is_key or not prose_words:
        return False
    if not (
        _matches(_LETTER, _char_at(located.raw, index - 1))
        and _matches(_LETTER, _char_at(located.raw, index + 1))
    ):
        return False
    word = _compound_around(located.raw, index)
    return _long_hyphenated_word(word) and word.casefold() in prose_words


def _in_compound(text: str, at: int) -> bool:
    """Is ``text[at]`` part of a hyphenated word: a letter, a soft hyphen, or a
    hyphen between two letters?"""
    char = text[at]
    if char == "-":
        return _between_letters(text, at)
    return char == _SOFT_HYPHEN or _LETTER.match(char) is not None


def _legit_variation_selector(text: str, index: int) -> bool:
    # One selector after a base that has variation sequences: VS15/VS16 after
    # an emoji-capable character ("❤️", "1️⃣"), VS1-VS3 or an ideographic
    # selector after a CJK ideograph ("葛󠄀"), VS1 after a maths symbol,
    # Mongolian free variation selectors after a Mongolian letter. Never two
    # selectors in a row: a variation sequence has exactly one.
    char = text[index]
    base = _char_at(text, index - 1)
    if _matches(_VARIATION_SELECTOR, base) or _matches(
        _VARIATION_SELECTOR, _char_at(text, index + 1)
    ):
        return False
    code = ord(char)
    if char in (_VS15, _VS16):
        # Text or emoji presentation of the symbol before it ("♚\ufe0e" keeps
        # a chess piece a text glyph on phones). One fixed selector carries
        # no byte of a message.
        return _matches(_EMOJI, base) or _matches(_SYMBOL, base)
    if char in _MONGOLIAN_FVS:
        return _matches(_MONGOLIAN_LETTER, base)
    if _matches(_IDEOGRAPH, base):
        return code >= 0xE0100 or code <= 0xFE02
    return code == 0xFE00 and _matches(_STANDARDIZED_BASE, base)


def _bidi_pairs(text: str, end: int) -> dict[int, int]:
    """Balanced embeddings and isolates: opener index -> closer index, and
    ``-closer - 1`` -> opener index for the reverse look-up."""
    pairs: dict[int, int] = {}
    stack: list[tuple[int, str]] = []
    for match in _BIDI_EMBEDDING_OR_ISOLATE.finditer(text, 0, end):
        char, at = match.group(), match.start()
        if char in (_PDF, _PDI):
            wanted = _PDI if char == _PDI else _PDF
            # Unicode's rule: a PDI closes the innermost isolate and every
            # embedding opened inside it; a PDF closes one embedding.
            while stack and (stack[-1][1] != wanted and wanted == _PDI):
                pairs[stack.pop()[0]] = at
            if stack and stack[-1][1] == wanted:
                opener = stack.pop()[0]
                pairs[opener] = at
                pairs[-at - 1] = opener
            continue
        stack.append((at, _PDI if char in _BIDI_ISOLATE else _PDF))
    return pairs


# --------------------------------------------------------------------------
# Classification
# --------------------------------------------------------------------------


def _invisible_kind(char: str) -> str:
    if char in _ZERO_WIDTH:
        return "zero-width"
    if char == _WORD_JOINER:
        return "word-joiner"
    if _INVISIBLE_OPERATOR.match(char):
        return "invisible-operator"
    if char == _CGJ:
        return "combining-grapheme-joiner"
    if char == _SOFT_HYPHEN:
        return "soft-hyphen"
    if char in _HANGUL_FILLER:
        return "hangul-filler"
    if char == _MVS:
        return "mongolian-separator"
    return "format" if unicodedata.category(char) == "Cf" else "ignorable"


def _bidi_kind(char: str) -> str | None:
    if char in _BIDI_MARK:
        return "bidi-mark"
    if char in _BIDI_EMBEDDING:
        return "bidi-embedding"
    if char in _BIDI_OVERRIDE:
        return "bidi-override"
    if char in _BIDI_ISOLATE:
        return "bidi-isolate"
    if char in (_PDF, _PDI):
        return "bidi-pop"
    return None


_BREAK_AFTER = frozenset("/.-_?&=,;:")
# How a text names the line-break control it documents: the code point, the
# HTML entity, or the Unicode name (English, and the names the Unicode
# translations give it: "Wortverbinder", "gluon de mots").
_NAMES_BREAK_CONTROL = {
    _ZWSP: regex.compile(
        r"U\+200B|\bzwsp\b|zero[\s-]?width[\s-]?space|&#8203;|&#x200b;", regex.IGNORECASE
    ),
    _WORD_JOINER: regex.compile(
        r"U\+2060|\bWJ\b|word[\s-]?joiner|&#8288;|&#x2060;|&NoBreak;|wortverbinder|gluon\s+de\s+mots",
        regex.IGNORECASE,
    ),
}


class _StringScan:
    """Classifies the candidate characters of one string; one instance per string."""

    def __init__(
        self, located: LocatedString, budget: _Budget, prose_words: frozenset[str] = frozenset()
    ) -> None:
        self.located = located
        #: The description's soft-hyphenated words, for a name that keeps them.
        self.prose_words = prose_words
        self.text = located.raw
        found = _non_ascii_matches(_CANDIDATE, self.text)
        self.positions = [m.start() for m in itertools.islice(found, budget.chars_left + 1)]
        if len(self.positions) > budget.chars_left:
            # Enough is enough: a string with more hidden characters than the
            # budget has long since been flagged by the ones classified.
            del self.positions[budget.chars_left :]
            budget.cut(located.location)
        budget.chars_left -= len(self.positions)
        self.in_long_run = self._long_runs()
        self._pairs: dict[int, int] | None = None
        self._names_control: dict[str, bool] = {}
        self._typeset: bool | None = None

    def typeset_prose(self) -> bool:
        """Is the string running text hyphenated throughout: soft hyphens
        in three words or more, one of them long ("Vla\u00adso\u00advá
        re\u00adge\u00adne\u00adrač\u00adní kú\u00adra", a Czech shop's
        product names typeset for phones)? Read once per string, only when
        a soft hyphen is asked about."""
        if self._typeset is None:
            words = [
                run.group().strip("-")
                for run in _COMPOUND_RUN.finditer(self.text)
                if _SOFT_HYPHEN in run.group()
            ]
            self._typeset = (
                _in_running_text(self.located, self.text)
                and len(words) >= _TYPESET_WORDS
                and any(_long_hyphenated_word(word) for word in words)
            )
        return self._typeset

    def disclosed_break(self, index: int, char: str) -> bool:
        """A zero-width space or a word joiner after a URL or path separator
        or a full stop, in a string that names the character ("Uses U+200B
        after '/' and '.'", "keeps 'feat.' credits together with a word
        joiner"): a line-break control a typesetting or wrapping tool
        documents. Not: one between letters (it splits a keyword), one in a
        string that never names the character, or one of a run."""
        if _char_at(self.text, index - 1) not in _BREAK_AFTER:
            return False
        named = self._names_control.get(char)
        if named is None:
            named = _NAMES_BREAK_CONTROL[char].search(self.text) is not None
            self._names_control[char] = named
        return named

    def _long_runs(self) -> frozenset[int]:
        out: set[int] = set()
        run: list[int] = []
        for at in [*self.positions, -2]:
            if run and at == run[-1] + 1:
                run.append(at)
                continue
            if len(run) >= _SUSPICIOUS_RUN:
                out.update(run)
            run = [at]
        return frozenset(out)

    def pairs(self) -> dict[int, int]:
        if self._pairs is None:
            # Only as far as the characters this scan classifies.
            end = self.positions[-1] + 1 if self.positions else 0
            self._pairs = _bidi_pairs(self.text, end)
        return self._pairs

    def flag_sequence_end(self, index: int) -> int:
        """End of a subdivision flag tag sequence starting at ``index``, or -1.

        🏴 + tag letters and digits + CANCEL TAG is how England, Scotland and
        Wales flags are spelled; the tag spec is a subdivision code (2 letters
        or 3 digits, then 1-4 letters or digits). Anything longer, or with
        tag spaces and punctuation, is a smuggled message, not a flag.
        """
        text = self.text
        if _char_at(text, index - 1) != _BLACK_FLAG:
            return -1
        end = index
        while end < len(text) and end - index <= 7 and "\U000e0030" <= text[end] <= "\U000e007a":
            end += 1
        spec = "".join(chr(ord(c) - 0xE0000) for c in text[index:end])
        if _char_at(text, end) != _CANCEL_TAG or not regex.fullmatch(
            r"(?:[a-z]{2}|[0-9]{3})[a-z0-9]{1,4}", spec
        ):
            return -1
        return end

    def legit_bidi(self, index: int, kind: str) -> bool:
        text = self.text
        if kind == "bidi-override":
            # LRO/RLO display text in an order other than the one the model
            # reads (the "Trojan Source" trick): never excused.
            return False
        if _between_letters(text, index):
            # Between two letters a bidi control changes nothing on screen
            # (both neighbours have a strong direction already); there it can
            # only split a keyword ("r\u200eead"). A mark where an Arabic or
            # Hebrew word meets a Latin one ("و\u200fValorant") splits no
            # word: a keyword is written in one direction.
            return kind == "bidi-mark" and _changes_direction(text, index)
        if kind == "bidi-mark":
            # LRM/RLM/ALM next to Hebrew or Arabic words keep punctuation and
            # numbers in place: the mark sits among neutrals (digits, spaces,
            # punctuation) whose nearest letter on one side is right-to-left
            # ("... الهواتف \u200e+971 4 123 4567\u200e."), however long the
            # number. Not: a mark in text with no RTL letter nearby.
            return (
                _near_rtl_text(text, index, index)
                or _rtl_letter_nearest(text, index)
                or _marks_amount(text, index)
                or _ends_rtl_line(text, index)
            )
        pairs = self.pairs()
        if kind == "bidi-pop":
            # A closer is excused exactly when its opener is.
            opener = pairs.get(-index - 1)
            return opener is not None and self._legit_span(opener, index)
        close = pairs.get(index)
        return close is not None and self._legit_span(index, close)

    def _legit_span(self, start: int, end: int) -> bool:
        # A balanced embedding or isolate around or beside RTL text, as i18n
        # libraries insert it. Not: an unbalanced one, one in pure LTR text
        # (where it reorders nothing and can only split a keyword), or one
        # whose opener or closer sits between two letters.
        text = self.text
        if _between_letters(text, start) or _between_letters(text, end):
            return False
        return _near_rtl_text(text, start, end) or _keeps_reading_order(text, start, end)

    def legit(self, index: int, char: str) -> bool:
        """True when the character at ``index`` is part of a legitimate sequence."""
        text = self.text
        if index in self.in_long_run:
            return False
        if char == _BOM:
            # A leading BOM is what reading a UTF-8-with-BOM file leaves
            # behind; at position 0 it hides nothing. Anywhere else it is a
            # zero-width no-break space and can split words.
            return index == 0
        if char == _ZWJ:
            return (
                _is_emoji_zwj(text, index)
                or _is_script_joiner(text, index)
                or _is_forced_joining_form(text, index)
            )
        if char == _ZWNJ:
            return (
                _is_script_joiner(text, index)
                or _at_joining_word_edge(text, index)
                or _suppresses_ligature(text, index)
            )
        if char == _ZWSP:
            return _is_word_break_hint(text, index) or self.disclosed_break(index, char)
        if char == _WORD_JOINER:
            return self.disclosed_break(index, char)
        if char == _SOFT_HYPHEN:
            return (
                _is_hyphenation_hint(self.located, text, index)
                or _name_hyphenated_as_prose(self.located, self.prose_words, index)
                or (self.typeset_prose() and _syllable_break(text, index))
            )
        if _VARIATION_SELECTOR.match(char):
            return _legit_variation_selector(text, index)
        if _PREPENDED_MARK.match(char):
            # Arabic number signs (U+0600-0605, U+06DD) and their kin stand
            # before the digits they span.
            return _matches(_DIGIT, _char_at(text, index + 1))
        if _INVISIBLE_OPERATOR.match(char):
            return _is_math_operator(text, index)
        if char == _MVS:
            # The Mongolian vowel separator sits between a Mongolian letter
            # and a final A or E.
            return _matches(_MONGOLIAN_LETTER, _char_at(text, index - 1)) and _matches(
                _MONGOLIAN_LETTER, _char_at(text, index + 1)
            )
        if char == "\u115f":
            # Choseong filler + a vowel jamo spells an (archaic) Hangul syllable.
            return _matches(_HANGUL_VOWEL, _char_at(text, index + 1))
        if char == "\u1160":
            return _matches(_HANGUL_LEADING, _char_at(text, index - 1))
        kind = _bidi_kind(char)
        return kind is not None and self.legit_bidi(index, kind)


def _classify(char: str) -> tuple[str, str]:
    if _TAG.match(char):
        return TAG, "tag"
    if _VARIATION_SELECTOR.match(char):
        return VARIATION, "variation-selector"
    if _PRIVATE_USE.match(char):
        return PRIVATE_USE, "private-use"
    kind = _bidi_kind(char)
    if kind is not None:
        return BIDI, kind
    return INVISIBLE, _invisible_kind(char)


def _decode_tags(chars: Sequence[str]) -> str:
    """Tag characters U+E0020-E007E are ASCII shifted by 0xE0000."""
    return "".join(chr(ord(c) - 0xE0000) for c in chars if "\U000e0020" <= c <= "\U000e007e")


def _selector_byte(char: str) -> int | None:
    # The common byte-smuggling scheme: VS1-VS16 are bytes 0-15 and
    # VS17-VS256 are bytes 16-255, one selector per byte.
    code = ord(char)
    if 0xFE00 <= code <= 0xFE0F:
        return code - 0xFE00
    if 0xE0100 <= code <= 0xE01EF:
        return code - 0xE0100 + 16
    return None


def _decode_selectors(chars: Sequence[str]) -> str:
    """Decode the selectors' bytes as UTF-8 when they spell readable text."""
    if len(chars) < _MIN_MESSAGE:
        return ""
    data = bytes(b for b in (_selector_byte(c) for c in chars) if b is not None)
    text = data.decode("utf-8", "replace")
    printable = sum(1 for c in text if c.isprintable() and c != "\ufffd")
    if printable < 0.8 * len(text) or not _is_message(text):
        return ""
    return text


def _decode_private_use(chars: Sequence[str]) -> str:
    """Private-use characters that are ASCII shifted to the start of a
    private-use area (U+E000, U+F0000, U+100000), decoded; else ""."""
    if len(chars) < _MIN_MESSAGE:
        return ""
    for base in _PRIVATE_USE_BASES:
        offsets = [ord(c) - base for c in chars]
        text = "".join(chr(o) for o in offsets if 0x20 <= o <= 0x7E)
        if len(text) >= 0.8 * len(chars) and _is_message(text):
            return text
    return ""


def _is_message(text: str) -> bool:
    return len(text.strip()) >= _MIN_MESSAGE and any(c.isalnum() for c in text)


def _mixed_words(text: str) -> tuple[str, ...]:
    """Latin words with a Cyrillic or Greek look-alike letter inside.

    "pаypal" with a Cyrillic "а" reads as "paypal" and slips past a filter
    looking for it. Not flagged: whole words of Cyrillic or Greek ("Ελληνικά",
    "Привет"), Russian text with English product names as separate words,
    a word whose foreign letters do not all look Latin ("ПриветWorld"), a
    word with fewer than two Latin letters ("kΩ"), and a Greek letter that
    starts a word, which is how units and maths are written ("μs", "αhelix").
    """
    lookalike = next(_non_ascii_matches(_LOOKALIKE_SCRIPT, text), None)
    if lookalike is None or not _ASCII_LETTER.search(text):
        return ()
    found: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group()
        # Cheap rejections first (C-speed string methods): most words are
        # all ASCII or all another script. The ASCII characters of a word of
        # letters and marks are its ASCII letters.
        if word.isascii() or len(word.encode("ascii", "ignore")) < 2:
            continue
        if _LOOKALIKE_SCRIPT.search(word) and _is_lookalike_spelling(word):
            found.append(word)
            if len(found) >= _MIXED_WORDS_SHOWN:
                break
    return tuple(found)


def _is_lookalike_spelling(word: str) -> bool:
    foreign = [(i, c) for i, c in enumerate(word) if _LOOKALIKE_SCRIPT.match(c)]
    others = (c for c in word if not _LOOKALIKE_SCRIPT.match(c))
    if not all(_LATIN.match(c) or _MARK.match(c) for c in others):
        return False
    if not all(_looks_latin(c) for _, c in foreign):
        return False
    return not all(i == 0 and _GREEK.match(c) for i, c in foreign)


def _looks_latin(char: str) -> bool:
    """The letter's confusable skeleton is a single ASCII letter ("а" -> "a")."""
    skeleton = confusable_skeleton(char)
    return len(skeleton) == 1 and skeleton.isascii() and skeleton.isalpha()


def _scan_string(
    located: LocatedString, budget: _Budget, prose_words: frozenset[str] = frozenset()
) -> _StringResult | None:
    """Everything hidden in one string, or None when it is clean
    (``prose_words``: the description's soft-hyphenated words)."""
    text = located.raw
    terminal = _render_terminal(located, budget)
    if text.isascii():
        if terminal is None:
            return None
        return _StringResult(located, (), "", "", "", (), (), terminal=terminal)
    surrogates = _lone_surrogates(located, budget)
    scan = _StringScan(located, budget, prose_words)
    hits, tags, selectors = _flag_characters(scan)
    variation_message = _decode_selectors(selectors)
    if variation_message:
        hits = _with_every_selector(hits, scan, frozenset(selectors))
    hits, icons = _split_private_use(hits, text)
    mixed = _mixed_words(text)
    padding = _blank_padding(text)
    if (
        not hits
        and not icons
        and not mixed
        and terminal is None
        and not surrogates
        and padding is None
    ):
        return None
    tag_message = _decode_tags(tags)
    return _StringResult(
        located=located,
        hits=tuple(hits),
        tag_message=tag_message if _is_message(tag_message) else "",
        variation_message=variation_message,
        private_use_message=_decode_private_use([h.char for h in hits if h.group == PRIVATE_USE]),
        icon_glyphs=tuple(icons),
        mixed_words=mixed,
        terminal=terminal,
        surrogates=surrogates,
        padding=padding,
    )


# Blank characters that are no ASCII whitespace: the braille blank (U+2800),
# no-break and typographic spaces, the ideographic space, the Hangul fillers.
# A long run of them between two pieces of visible text on one line pushes
# the second piece off the right edge of a tool list or an approval dialog
# ("음식 주문을 생성합니다.⠀⠀⠀⠀ ... ⠀모델 지시: ..."), where the model still
# reads it. Not: a few of them (a braille text's word space, CJK or French
# typography, an NBSP-indented line, which starts the line).
_BLANK = "  -   ⠀　ㅤﾠ"
# Maximal runs (each character read once), counted afterwards.
_BLANK_RUN = regex.compile(rf"[{_BLANK}][ \t{_BLANK}]*+")
_VISIBLE = regex.compile(r"[^\s" + _BLANK + r"]")
#: Blank characters (not counting ASCII spaces among them) that make a run padding.
_PADDING_BLANKS = 32


def _blank_padding(text: str) -> tuple[int, int] | None:
    """The first run of blanks with visible text before and after it on its line."""
    for found in _BLANK_RUN.finditer(text):
        start, end = found.span()
        run = found.group()
        if len(run) - run.count(" ") - run.count("\t") < _PADDING_BLANKS:
            continue
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        if _VISIBLE.search(text, line_start, start) and _VISIBLE.search(text, end, line_end):
            return (start, end)
    return None


def _render_terminal(located: LocatedString, budget: _Budget) -> Rendering | None:
    """What a terminal would hide of the string; None when it holds no
    control character. Each control character or sequence start spends one
    unit of the budget and the text played is bounded by ``_MAX_RENDER``
    per tool: a million NULs are read up to the budget, and the cut is
    recorded."""
    text = located.raw
    if not _has_control(text):
        return None
    _positions, beyond = _spend(located, budget, CONTROL)
    limit = len(text) if beyond is None else beyond
    if limit > budget.render_left:
        limit = budget.render_left
        budget.cut(located.location)
    budget.render_left -= limit
    return render(text, limit)


def _lone_surrogates(located: LocatedString, budget: _Budget) -> tuple[int, ...]:
    if not _has_surrogates(located.raw):
        return ()
    positions, _beyond = _spend(located, budget, _SURROGATE)
    return tuple(positions)


def _has_surrogates(text: str) -> bool:
    """Whether ``text`` holds any surrogate code point, paired or not.

    Exactly the code points strict UTF-8 refuses to encode, so one C pass
    answers for the string; the look-around pattern that tells lone halves
    from pairs then runs only on the rare string that holds one (it cost a
    tenth of a second per megabyte of ordinary text)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _spend(
    located: LocatedString, budget: _Budget, pattern: regex.Pattern[str]
) -> tuple[list[int], int | None]:
    """Where ``pattern`` matches in the string, each match paid with one
    character of the budget; and the first match left unpaid (None when
    all were paid). A cut is recorded, so a million NULs cost the budget,
    not a million steps of classification."""
    found = pattern.finditer(located.raw)
    positions = [m.start() for m in itertools.islice(found, budget.chars_left + 1)]
    beyond = None
    if len(positions) > budget.chars_left:
        beyond = positions[budget.chars_left]
        del positions[budget.chars_left :]
        budget.cut(located.location)
    budget.chars_left -= len(positions)
    return positions, beyond


def _flag_characters(scan: _StringScan) -> tuple[list[_Hit], list[str], list[str]]:
    """The flagged characters, the flagged tag characters, and every
    selector that could carry a byte (all but VS15/VS16), in order."""
    text = scan.text
    hits: list[_Hit] = []
    tags: list[str] = []
    selectors: list[str] = []
    skip_until = -1
    for index in scan.positions:
        if index < skip_until:
            continue
        char = text[index]
        if _TAG.match(char):
            end = scan.flag_sequence_end(index)
            if end >= 0:
                skip_until = end + 1
                continue
        if _selector_byte(char) is not None and char not in (_VS15, _VS16):
            selectors.append(char)
        if scan.legit(index, char):
            continue
        group, kind = _classify(char)
        hits.append(_Hit(index=index, char=char, group=group, kind=kind))
        if group == TAG:
            tags.append(char)
    return hits, tags, selectors


def _with_every_selector(
    hits: list[_Hit], scan: _StringScan, selectors: frozenset[str]
) -> list[_Hit]:
    """Selectors that each looked legitimate (one per CJK ideograph, say)
    but together spell text are a message too: flag them all."""
    flagged = {h.index for h in hits}
    extra = [
        _Hit(index=index, char=scan.text[index], group=VARIATION, kind="variation-selector")
        for index in scan.positions
        if index not in flagged and scan.text[index] in selectors
    ]
    return sorted(hits + extra, key=lambda h: h.index)


def _split_private_use(hits: list[_Hit], text: str) -> tuple[list[_Hit], list[_Hit]]:
    """Separate icon-font glyphs (soft) from private-use payloads (hard).

    Hard or soft by whether the characters can carry hidden text. A few
    scattered BMP private-use characters are what icon fonts (Nerd Fonts,
    Font Awesome, the Apple logo) put in text: one glyph stands for one
    icon beside a word, and carries no message (soft, below review).
    Nerd Fonts 3 put its Material Design icons in plane 15
    (U+F0001-F1AF0): those are judged the same way. The rest of planes 15
    and 16 has no such use and no font shows it; a run of three or more spells
    shifted text; one inside a word ("ig\ue000nore") splits a keyword, as
    no icon does; and many of them in one string, one per gap, carry a
    message a character at a time: all of these are hard.
    """
    icons: list[_Hit] = []
    kept: list[_Hit] = []
    scattered = sum(1 for h in hits if h.group == PRIVATE_USE) > _MAX_ICONS
    for hit in hits:
        if hit.group != PRIVATE_USE or not _ICON_PRIVATE_USE.match(hit.char):
            kept.append(hit)
            continue
        payload = (
            scattered or _in_private_use_run(text, hit.index) or _between_letters(text, hit.index)
        )
        (kept if payload else icons).append(hit)
    if icons and _spells_text(icons):
        return sorted(kept + icons, key=lambda h: h.index), []
    return kept, icons


def _spells_text(icons: Sequence[_Hit]) -> bool:
    """Do icon-area glyphs, two of them side by side, decode to ASCII text?

    "\U000f0041\U000f0042" is "AB" shifted into the Material Design block:
    glyphs written together that spell text are a message, not icons. A
    Powerline prompt's branch and separator glyphs (U+E0A0, U+E0B0) decode
    to nothing printable.
    """
    adjacent = any(b.index == a.index + 1 for a, b in itertools.pairwise(icons))
    return adjacent and bool(_decode_private_use([h.char for h in icons]))


def _in_private_use_run(text: str, index: int) -> bool:
    """True when ``index`` is inside three icon-area private-use characters in a row."""
    # The window must fit in the text: a value that is one glyph (a
    # Powerline separator as a ``default``, a SMuFL clef as an example) is
    # no run of three.
    last = len(text) - _PRIVATE_USE_RUN
    for start in range(max(0, index - _PRIVATE_USE_RUN + 1), min(index, last) + 1):
        if _ICON_PRIVATE_USE_RUN.fullmatch(text, start, start + _PRIVATE_USE_RUN):
            return True
    return False


# --------------------------------------------------------------------------
# Evidence
# --------------------------------------------------------------------------


def _char_label(char: str) -> str:
    code = ord(char)
    name = unicodedata.name(char, "")
    label = f"U+{code:04X}"
    return f"{label} {name}" if name else label


def _summary(hits: Sequence[_Hit]) -> str:
    """'zero-width x2 (U+200B ZERO WIDTH SPACE), bidi-override x1 (U+202E ...)'."""
    counts: dict[str, int] = {}
    chars: dict[str, list[str]] = {}
    for hit in hits:
        counts[hit.kind] = counts.get(hit.kind, 0) + 1
        seen = chars.setdefault(hit.kind, [])
        if hit.char not in seen and len(seen) < 2:
            seen.append(hit.char)
    parts = []
    for kind, count in counts.items():
        labels = ", ".join(_char_label(c) for c in chars[kind])
        parts.append(f"{kind} x{count} ({labels})")
    return "; ".join(parts)


def _context(text: str, index: int) -> str:
    # Raw on purpose: the orchestrator escapes every hidden character of the
    # evidence as \uXXXX, so the reader sees exactly where each one sits.
    lo, hi = max(0, index - _CONTEXT), min(len(text), index + _CONTEXT + 1)
    return text[lo:hi]


def _code_range(hits: Sequence[_Hit]) -> str:
    codes = sorted({ord(h.char) for h in hits})
    first, last = codes[0], codes[-1]
    return f"U+{first:04X}" if first == last else f"U+{first:04X}..U+{last:04X}"


# --------------------------------------------------------------------------
# The check
# --------------------------------------------------------------------------


class HiddenUnicodeCheck:
    """Invisible, bidi, tag, variation-selector and private-use characters."""

    id = "hidden-unicode"
    version = "1"
    surfaces = ("definition", "output", "arguments")

    def run(self, tool: Tool, context: Context) -> Iterator[Signal]:
        budget = _Budget(chars_left=_max_hidden_chars(context), render_left=_MAX_RENDER)
        prose = soft_hyphenated_words(tool.name, tool.description or "")
        results = [
            r for r in (_scan_string(s, budget, prose) for s in context.strings) if r is not None
        ]
        if budget.cut_at:
            context.record_cap(
                "max_hidden_chars",
                budget.cut_at[0],
                "invisible or format characters past the first "
                f"{_max_hidden_chars(context)} of this tool were not classified",
            )
        if not results:
            return
        if context.surface != "definition":
            results = [_without_redraws(r) for r in results]
        groups = {h.group for r in results for h in r.hits}
        if any(r.terminal is not None and r.terminal.hidden for r in results):
            groups.add(CONTROL_GROUP)
        has_message = any(
            r.tag_message or r.variation_message or r.private_use_message for r in results
        )
        # A decoded message, or hidden characters of three or more groups in
        # one tool, is deliberate smuggling: every hard signal escalates.
        escalate = has_message or len(groups) >= 3
        # A tool whose description is about look-alike letters ("compute the
        # UTS #39 confusable skeleton") shows them in its examples and
        # defaults too: those are explained as well. Read only when some
        # string holds a mixed-script word.
        explained = any(r.mixed_words for r in results) and any(
            _EXPLAINS_LOOKALIKES.search(s.raw) for s in context.strings if s.field == "description"
        )
        for result in results:
            yield from self._signals(result, escalate=escalate, explained=explained)

    def _signals(
        self, result: _StringResult, *, escalate: bool, explained: bool = False
    ) -> Iterator[Signal]:
        location = result.located.location
        text = result.located.raw
        if result.tag_message:
            tags = [h for h in result.hits if h.group == TAG]
            yield self._signal(
                "unicode.tag_message",
                location,
                f'tag characters decode to "{result.tag_message}" '
                f"({len(tags)} tag characters, {_code_range(tags)})",
                escalate=True,
                span=_span_of(tags),
            )
        if result.variation_message:
            selectors = [h for h in result.hits if h.group == VARIATION]
            yield self._signal(
                "unicode.variation_message",
                location,
                f'variation selectors decode to "{result.variation_message}" '
                f"({len(selectors)} selectors, {_code_range(selectors)})",
                escalate=True,
                span=_span_of(selectors),
            )
        by_rule: dict[str, list[_Hit]] = {}
        for hit in result.hits:
            if (hit.group == TAG and result.tag_message) or (
                hit.group == VARIATION and result.variation_message
            ):
                continue
            by_rule.setdefault(_RULE_BY_GROUP[hit.group], []).append(hit)
        for rule, hits in sorted(by_rule.items()):
            if len(result.hits) == len(hits) and _pair_at_word_gap(text, hits):
                yield Signal(
                    check_id=self.id,
                    rule_id=rule,
                    tier=Tier.SOFT,
                    threat="hidden-instructions",
                    confidence=_CONTROL_CONFIDENCE,
                    evidence=f"{_summary(hits)} where a word already breaks; "
                    f"near: {_context(text, hits[0].index)}",
                    location=location,
                    span=_span_of(hits),
                )
                continue
            decoded = ""
            if rule == "unicode.private_use" and result.private_use_message:
                decoded = f'private-use characters decode to "{result.private_use_message}"; '
            yield self._signal(
                rule,
                location,
                f"{decoded}{_summary(hits)}; near: {_context(text, hits[0].index)}",
                escalate=escalate or bool(decoded),
                span=_span_of(hits),
            )
        if result.icon_glyphs:
            yield Signal(
                check_id=self.id,
                rule_id="unicode.private_use",
                tier=Tier.SOFT,
                threat="hidden-instructions",
                confidence=_ICON_CONFIDENCE,
                evidence=f"possible icon-font glyphs: {_summary(result.icon_glyphs)}",
                location=location,
                span=_span_of(result.icon_glyphs),
            )
        if result.terminal is not None:
            yield self._terminal_signal(result.terminal, location, escalate=escalate)
        if result.surrogates:
            yield self._surrogate_signal(result.surrogates, location, escalate=escalate)
        if result.padding is not None:
            start, end = result.padding
            yield self._signal(
                "unicode.blank_padding",
                location,
                f"{end - start} blank characters ({_char_label(text[start])}) push the rest "
                f'of the line off-screen: "{_cut(text[end:])}"',
                escalate=escalate,
                span=result.padding,
            )
        if result.mixed_words and result.located.field == "name":
            # A tool's name is an identifier its author typed once: a word
            # of it mixing Latin with Cyrillic or Greek look-alikes
            # ("post_mеssage") reads as a name it is not, and no
            # explanation in the description makes that honest.
            word = result.mixed_words[0]
            yield self._lookalike_signal(
                "unicode.lookalike_name",
                f"the tool's name is spelt with look-alike letters: {_describe_mixed(word)}",
                location,
                _word_span(text, word),
            )
        elif (
            result.mixed_words
            and (host := _lookalike_host(text, result.mixed_words)) is not None
            and not (explained or _EXPLAINS_LOOKALIKES.search(text))
        ):
            word = next(w for w in result.mixed_words if w in host)
            yield self._lookalike_signal(
                "unicode.lookalike_host",
                f"the address {_cut(host)} spells its host with look-alike letters: "
                + _describe_mixed(word),
                location,
                _word_span(text, host),
            )
        elif result.mixed_words:
            yield Signal(
                check_id=self.id,
                rule_id="unicode.mixed_script",
                tier=Tier.SOFT,
                threat="confusable-spelling",
                confidence=_EXPLAINED_CONFIDENCE
                if explained or _EXPLAINS_LOOKALIKES.search(text)
                else _MIXED_CONFIDENCE,
                evidence="; ".join(_describe_mixed(w) for w in result.mixed_words[:3]),
                location=location,
                span=_word_span(text, result.mixed_words[0]),
            )

    def _lookalike_signal(
        self, rule: str, evidence: str, location: str, span: tuple[int, int] | None
    ) -> Signal:
        """HARD: a name or an address spelt with look-alike letters."""
        return Signal(
            check_id=self.id,
            rule_id=rule,
            tier=Tier.HARD,
            threat="confusable-spelling",
            confidence=_LOOKALIKE_CONFIDENCE,
            evidence=evidence,
            location=location,
            span=span,
        )

    def _terminal_signal(self, terminal: Rendering, location: str, *, escalate: bool) -> Signal:
        """HARD when a terminal would hide or overwrite text; otherwise the
        control characters hide nothing (a red ``ESC[31m`` ... ``ESC[0m``
        around visible words, a stray BEL): SOFT, below review for plain
        colours, reviewed for anything else, since real tool definitions
        carry no control characters at all."""
        shown = ", ".join(terminal.sequences[:_SEQUENCES_SHOWN])
        hidden = [h for h in terminal.hidden if _ALNUM_TEXT.search(h.text)]
        if hidden:
            pieces = "; ".join(f'"{_cut(h.text)}" ({h.how})' for h in hidden[:_HIDDEN_PIECES_SHOWN])
            return Signal(
                check_id=self.id,
                rule_id="unicode.terminal_hidden",
                tier=Tier.HARD,
                threat="hidden-instructions",
                confidence=_CONFIDENCE["unicode.terminal_hidden"],
                evidence=f"a terminal would hide {pieces}; sequences: {shown}",
                location=location,
                escalate=escalate,
                span=(hidden[0].start, hidden[-1].end),
            )
        colour_only = all(_SGR_NOTATION.fullmatch(n) for n in terminal.sequences)
        return Signal(
            check_id=self.id,
            rule_id="unicode.control",
            tier=Tier.SOFT,
            threat="hidden-instructions",
            confidence=_COLOUR_CONFIDENCE if colour_only else _CONTROL_CONFIDENCE,
            evidence=f"control characters or escape sequences that hide no text: {shown}",
            location=location,
            span=(terminal.first, terminal.first + 1) if terminal.first >= 0 else None,
        )

    def _surrogate_signal(
        self, surrogates: tuple[int, ...], location: str, *, escalate: bool
    ) -> Signal:
        # A run of lone surrogates carries bytes nobody sees (HARD); a
        # single stray half pair is broken text, reviewed (SOFT).
        run = any(
            surrogates[i + _SURROGATE_RUN - 1] - surrogates[i] == _SURROGATE_RUN - 1
            for i in range(len(surrogates) - _SURROGATE_RUN + 1)
        )
        return Signal(
            check_id=self.id,
            rule_id="unicode.surrogate",
            tier=Tier.HARD if run else Tier.SOFT,
            threat="hidden-instructions",
            confidence=_CONFIDENCE["unicode.surrogate"] if run else _CONTROL_CONFIDENCE,
            evidence=f"lone surrogate x{len(surrogates)} (half of a UTF-16 pair, "
            "shown by no font, rejected by strict parsers)",
            location=location,
            escalate=escalate and run,
            span=(surrogates[0], surrogates[-1] + 1),
        )

    def _signal(
        self,
        rule: str,
        location: str,
        evidence: str,
        *,
        escalate: bool,
        span: tuple[int, int] | None,
    ) -> Signal:
        return Signal(
            check_id=self.id,
            rule_id=rule,
            tier=Tier.HARD,
            threat="bidi-reordering" if rule == "unicode.bidi" else "hidden-instructions",
            confidence=_CONFIDENCE[rule],
            evidence=evidence,
            location=location,
            escalate=escalate,
            span=span,
        )


def _pair_at_word_gap(text: str, hits: Sequence[_Hit]) -> bool:
    """The string's only hidden characters are two zero-width spaces in a
    row between an ordinary space and a letter: what copying a heading out
    of a rich-text editor or a translated page leaves behind ("see the
    **How \u200b\u200bto obtain thread_id** section"). They split no word
    and can carry two bits at most, but nothing honest needs them either:
    reviewed (SOFT), not quarantined. One zero-width space anywhere (the
    shape of a single insertion, "read \u200bread"), one between letters
    ("ig\u200bnore"), a run of three, or more of them anywhere in the
    string stay HARD."""
    if len(hits) != _WORD_GAP_PAIR or any(hit.char != _ZWSP for hit in hits):
        return False
    first, second = hits[0].index, hits[1].index
    if second != first + 1 or first == 0 or second + 1 >= len(text):
        return False
    return text[first - 1].isspace() and text[second + 1].isalpha()


def _span_of(hits: Sequence[_Hit]) -> tuple[int, int] | None:
    """From the first flagged character to the last, in the raw string."""
    if not hits:
        return None
    indexes = [hit.index for hit in hits]
    return (min(indexes), max(indexes) + 1)


#: How a terminal redraws a line in place.
_REDRAWS = frozenset({"overwritten", "erased"})


def _without_redraws(result: _StringResult) -> _StringResult:
    """Tool outputs and call arguments: a program's progress bar redraws its
    line all the time ("Downloading 10%" CR ESC[K "Downloading 20%"), so
    text overwritten or erased there counts as hidden only when it asks the
    agent for something. Concealed, same-colour, title and hyperlink tricks
    count everywhere; a tool definition has no progress bar at all."""
    terminal = result.terminal
    if terminal is None:
        return result
    kept = tuple(
        h for h in terminal.hidden if h.how not in _REDRAWS or may_instruct(normalize(h.text))
    )
    return attrs.evolve(result, terminal=attrs.evolve(terminal, hidden=kept))


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _HIDDEN_TEXT_CHARS else text[:_HIDDEN_TEXT_CHARS] + "..."


#: A host name (with its scheme, when written): labels of letters, digits
#: and hyphens joined by dots, ending in a label of letters.
_HOST = regex.compile(r"(?:[a-z][a-z0-9+.-]{0,15}://)?(?:[\w-]{1,63}\.){1,8}\p{L}{2,24}(?![\w-])")
#: A look-alike host or tool name (``_lookalike_host``, ``unicode.lookalike_name``).
_LOOKALIKE_CONFIDENCE = 0.9


def _lookalike_host(text: str, words: Sequence[str]) -> str | None:
    """The first host name of ``text`` that one of the mixed-script
    ``words`` is a label of: ``https://api.dіstrоkіd.com/v2`` with
    Cyrillic "і" and "о" reads as the vendor's address and sends the API
    key elsewhere. A real internationalized domain is written in one
    script per label (``пример.рф``, ``bücher.de``); one label mixing Latin
    with Cyrillic or Greek look-alikes is what browsers refuse to show as
    such (an IDN homograph). Not raised when the text says it is about
    look-alike letters (a homograph detector's examples)."""
    for word in words:
        at = text.find(word)
        while at >= 0:
            lo = max(0, at - 100)
            for found in _HOST.finditer(text, lo, min(len(text), at + len(word) + 100)):
                if found.start() <= at and at + len(word) <= found.end():
                    return found.group()
            at = text.find(word, at + 1)
    return None


def _word_span(text: str, word: str) -> tuple[int, int] | None:
    start = text.find(word)
    return None if start < 0 else (start, start + len(word))


def _max_hidden_chars(context: Context) -> int:
    value = context.options.get("max_hidden_chars", DEFAULT_MAX_HIDDEN_CHARS)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScanError(
            "config.options[hidden-unicode].max_hidden_chars",
            f"expected a positive integer, got {value!r}",
        )
    return value


def _describe_mixed(word: str) -> str:
    foreign = [c for c in word if _LOOKALIKE_SCRIPT.match(c)]
    script = "Greek" if all(_GREEK.match(c) for c in foreign) else "Cyrillic"
    letters = ", ".join(f"{c} ({_char_label(c)})" for c in dict.fromkeys(foreign))
    return f'"{word}" mixes Latin with {script} {letters}'


CHECK = HiddenUnicodeCheck()
