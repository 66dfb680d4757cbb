"""The normalizer: one deterministic text form for every wording check.

``normalize(text)`` applies, in order:

1. strip invisible characters (format characters, zero-width and joiner
   characters, tag and variation-selector characters, Hangul fillers): an
   attacker inserts them to split keywords (``ig\u200bnore``);
2. NFKC, which folds full-width and mathematical letters (``ｉｇｎｏｒｅ``);
3. case folding (the Turkish dotted capital I folds to a plain ``i``);
4. one apostrophe for the typographic ones, then confusables folded to their
   Latin skeleton inside words that are Latin look-alikes (``іgnоrе``
   written with Cyrillic letters);
5. common English contractions expanded (``don't`` -> ``do not``), so
   "don't tell" and "do not tell" match one phrase;
6. whitespace collapsed to single spaces;
7. light stemming of English words (``instructions`` -> ``instruction``).

Checks that match phrases must pass their own phrases through ``normalize``
as well, so both sides of a comparison are in the same form.

Only the words around non-ASCII characters go through the Unicode steps
(1-4); every step works within words, so the rest of the text, ASCII,
goes word by word through the others, each distinct word once.

The function is idempotent: ``normalize(normalize(x)) == normalize(x)``.
Hidden-character detection never uses this form: it runs on the raw text,
which this function deliberately destroys.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping

import regex

__all__ = [
    "ascii_lower",
    "bounded",
    "confusable_skeleton",
    "is_invisible",
    "normalize",
    "normalize_anchored",
    "normalize_bounded",
    "same_length_lower",
]

# Default_Ignorable_Code_Point covers zero-width characters, joiners, Hangul
# fillers, variation selectors and the tag block; Cf adds the remaining
# format characters (bidi controls, soft hyphen, U+180E and friends).
_INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}]+")

# Scripts whose letters are folded onto Latin look-alikes. Letters of other
# scripts (Han, Arabic, Devanagari ...) are never folded: they are real text,
# and folding them would make a Chinese description unreadable to checks.
_FOLDABLE_SCRIPTS = regex.compile(r"[\p{Latin}\p{Greek}\p{Cyrillic}\p{Armenian}\p{Cherokee}]")


@functools.cache
def _fold_map() -> Mapping[str, str]:
    """Non-ASCII letter -> the single lower-case ASCII letter or digit it imitates."""
    # Loaded on first use: ASCII text (most of what a scan sees) never needs
    # the table, and reading it costs a few tens of milliseconds.
    from confusable_homoglyphs import confusables  # noqa: PLC0415

    out: dict[str, str] = {}
    for char, homoglyphs in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii() or not _FOLDABLE_SCRIPTS.match(char):
            continue
        targets = {
            h["c"].lower()
            for h in homoglyphs
            if len(h["c"]) == 1 and h["c"].isascii() and h["c"].isalnum()
        }
        if len(targets) == 1:
            out[char] = targets.pop()
    # Text reaching the fold step is already case-folded; a lower-case letter
    # whose capital imitates a Latin capital (Cyrillic "н" for "H") folds too.
    for char, target in list(out.items()):
        lower = char.lower()
        if len(lower) == 1 and lower != char and lower not in out:
            out[lower] = target
    return out


# Typographic apostrophes become "'"; the backtick is left alone, since
# code spans (`like this`) tell wording checks that a phrase is quoted.
_APOSTROPHES = regex.compile(r"[\u2018\u2019\u02bc\u02bb\u00b4\u2032]")
# Each with a literal every match contains: a text without it is left as
# it is without running the pattern (most text has an apostrophe somewhere,
# few of the nine contractions).
_CONTRACTIONS = (
    ("won't", regex.compile(r"\bwon't\b"), "will not"),
    ("can't", regex.compile(r"\bcan't\b"), "cannot"),
    ("shan't", regex.compile(r"\bshan't\b"), "shall not"),
    ("n't", regex.compile(r"\b(\w+)n't\b"), r"\1 not"),
    ("i'm", regex.compile(r"\bi'm\b"), "i am"),
    ("'re", regex.compile(r"\b(\w+)'re\b"), r"\1 are"),
    ("'ll", regex.compile(r"\b(\w+)'ll\b"), r"\1 will"),
    ("'ve", regex.compile(r"\b(\w+)'ve\b"), r"\1 have"),
    ("'d", regex.compile(r"\b(\w+)'d\b"), r"\1 would"),
)
_WORD = regex.compile(r"\w+")
_NON_ASCII_WORD = regex.compile(r"\w*[^\x00-\x7f]\w*")
_WHITESPACE = regex.compile(r"\s+")
_STEMMABLE = regex.compile(r"\b[a-z]{4,}\b")


def is_invisible(char: str) -> bool:
    """True for a character the normalizer strips as invisible."""
    return _INVISIBLE.fullmatch(char) is not None


def _fold_word(word: str) -> str:
    """Fold a look-alike word onto Latin.

    A word is folded when it mixes ASCII letters with look-alikes
    ("pаypal" with a Cyrillic "а"), or when every letter in it has a Latin
    look-alike ("рарі" written wholly in Cyrillic). A Russian word that
    contains any letter with no Latin twin is left alone, so real Cyrillic
    text stays readable to the multilingual phrase lists.
    """
    fold = _fold_map()
    if not any(char in fold for char in word):
        return word
    has_ascii_letter = any(char.isascii() and char.isalpha() for char in word)
    if not has_ascii_letter and not all(char in fold or not char.isalpha() for char in word):
        return word
    return "".join(fold.get(char, char) for char in word)


# The light stemmer's rules, by the word's last letter (most words end in
# none of these letters and cost one comparison). Each rule keeps at least
# three letters of stem ("used" stays "used", "shared" becomes "shar").
def _stem_once(word: str) -> str:
    size = len(word)
    last = word[-1]
    if last == "s":
        if word.endswith("sses"):
            return word[:-2] if size >= 6 else word
        if word.endswith("ies"):
            return word[:-3] + "y" if size >= 6 else word
        if word.endswith(("ss", "us", "is")):
            return word
        return word[:-1] if size >= 4 else word
    if last == "g":
        return word[:-3] if word.endswith("ing") and size >= 6 else word
    if last == "y":
        if word.endswith("edly") and size >= 7:
            return word[:-4]
        return word[:-2] if word.endswith("ly") and size >= 6 else word
    if last == "d":
        return word[:-2] if word.endswith("ed") and size >= 5 else word
    if last == "e":
        return word[:-1] if size >= 4 else word
    return word


def _stem(word: str) -> str:
    """Strip English suffixes until none applies (a fixpoint, hence idempotent)."""
    while True:
        shorter = _stem_once(word)
        if shorter == word:
            return word
        word = shorter


def _fold_words(text: str) -> str:
    cache: dict[str, str] = {}

    def fold(match: regex.Match[str]) -> str:
        word = match.group()
        if word not in cache:
            cache[word] = _fold_word(word)
        return cache[word]

    return _NON_ASCII_WORD.sub(fold, text)


@functools.lru_cache(maxsize=65536)
def _stem_token(token: str) -> str:
    """The stemmed form of one whitespace-free token.

    Memoized: a pure function of its argument, so the cache can change how
    fast ``normalize`` is, never what it returns. Real descriptions draw on a
    vocabulary of a few thousand words, so nearly every token is a hit.
    """
    if token.isalpha() and token.isascii():
        return _stem(token) if len(token) >= 4 else token
    return str(_STEMMABLE.sub(lambda m: _stem(m.group()), token))


def _stem_words(text: str) -> str:
    """Stem every English word of whitespace-collapsed text."""
    return " ".join([_stem_token(token) for token in text.split(" ")])


def _expand_contractions(text: str) -> str:
    if "'" not in text:
        return text
    for literal, pattern, replacement in _CONTRACTIONS:
        if literal in text:
            text = pattern.sub(replacement, text)
    return text


@functools.lru_cache(maxsize=65536)
def _ascii_word(word: str) -> str:
    """The normalized form of one lower-cased ASCII word (no whitespace in it).

    Contractions and stems never reach across whitespace, so a word
    normalizes alone as it does in its sentence: contractions expanded
    ("don't" -> "do not"), then each resulting word stemmed. Memoized like
    ``_stem_token``: real text repeats a few thousand words.
    """
    expanded = _expand_contractions(word)
    if expanded is word:
        return _stem_token(word)
    return " ".join([_stem_token(token) for token in expanded.split()])


@functools.lru_cache(maxsize=65536)
def _ascii_word_twice(word: str) -> str:
    """``_ascii_word`` applied to each word of its own output.

    Not always ``_ascii_word``'s output: a contraction can reveal another
    ("x'll'll" -> "x will'll" -> "x will will"). Text that is still
    non-ASCII after a first pass through every step takes a second one
    (see ``_normalize``), its ASCII words included.
    """
    return " ".join([_ascii_word(part) for part in _ascii_word(word).split()])


def _normalize_ascii(text: str, *, twice: bool = False) -> str:
    """``normalize`` of ASCII text: lower-cased, then word by word (and each
    word a second time when ``twice``).

    ASCII text has no invisible, compatibility, look-alike or curly
    characters: the Unicode steps are the identity on it, and what is left
    (contractions, whitespace, stems) works within words.
    """
    return " ".join(map(_ascii_word_twice if twice else _ascii_word, text.lower().split()))


def _normalize_once(text: str) -> str:
    if text.isascii():
        return _normalize_ascii(text)
    text = _INVISIBLE.sub("", text)
    text = unicodedata.normalize("NFKC", text)
    # Case folding turns the Turkish capital "İ" into "i" plus a
    # combining dot; the dot is dropped so "İptal" reads as "iptal".
    text = text.casefold().replace("i\u0307", "i")
    # Case folding can produce sequences NFKC recomposes, and NFKC can
    # produce format characters; both steps are repeated once to settle.
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    text = _APOSTROPHES.sub("'", text)
    # Look-alikes are folded before contractions are expanded, so
    # "don't" spelled with a Cyrillic "о" expands like the Latin one.
    text = _fold_words(text)
    text = _expand_contractions(text)
    text = " ".join(text.split())
    return _stem_words(text)


# Where the Unicode steps have work to do: around non-ASCII characters.
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# ASCII stretches shorter than this between two non-ASCII characters are
# normalized with them: one call of the Unicode steps costs more than a
# few ASCII words. The look-behind makes the search read each ASCII
# stretch once, from its start (linear, not a scan per position).
_ASCII_GAP = 256
_LONG_ASCII = re.compile(rf"(?<![\x00-\x7f])[\x00-\x7f]{{{_ASCII_GAP}}}")
# The ASCII whitespace ``str.split`` splits at; ``re``'s \s is exactly the
# whitespace it splits at.
_ASCII_SPACES = tuple(chr(code) for code in range(128) if chr(code).isspace())
_NON_SPACE = re.compile(r"\S*")


def _after_last_space(text: str, start: int, end: int) -> int | None:
    """Just after the last whitespace of ASCII ``text[start:end]`` (None: none)."""
    last = max(text.rfind(space, start, end) for space in _ASCII_SPACES)
    return None if last < 0 else last + 1


def _word_end(text: str, start: int) -> int:
    """Where the word going on at ``start`` ends (the next whitespace)."""
    match = _NON_SPACE.match(text, start)
    return start if match is None else match.end()


def _unicode_regions(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of the regions of ``text`` the Unicode steps must see:
    whole words holding a non-ASCII character, with the ASCII stretches
    shorter than ``_ASCII_GAP`` between them. Outside the regions the text
    is ASCII; a region starts after ASCII whitespace (or at the start of
    ``text``) and ends before ASCII whitespace (or at its end).

    Linear: each character is read by a constant number of C-level scans.
    """
    regions: list[tuple[int, int]] = []
    pos = 0
    while (found := _NON_ASCII.search(text, pos)) is not None:
        first = found.start()
        stretch = _LONG_ASCII.search(text, first)
        last = stretch.start() if stretch is not None else len(text)
        previous_end = regions[-1][1] if regions else 0
        # The first word's start: after the last whitespace of the ASCII
        # text before it.
        space = _after_last_space(text, previous_end, first)
        # The last word's end: the next whitespace. \S* stops at any
        # whitespace, a non-ASCII one too: that one is found by the next
        # search, right at this end, and joins this region below.
        end = _word_end(text, last)
        if space is None and regions:
            # No whitespace since the previous region: the word began in it.
            regions[-1] = (regions[-1][0], end)
        else:
            regions.append((space if space is not None else 0, end))
        pos = end
    return regions


def normalize(text: str) -> str:
    """Return the normalized form of ``text`` used by every wording check.

    Deterministic and idempotent. Raises ``TypeError`` for a non-string.
    """
    if not isinstance(text, str):
        raise TypeError(f"normalize() takes a str, got {type(text).__name__}")
    if len(text) <= _SHORT:
        return _normalize_short(text)
    return _normalize(text)


# Schemas repeat short strings endlessly ("string", "object", property
# names); those are memoized. The memo is of a pure function: it changes how
# fast normalize is, never what it returns.
_SHORT = 48


@functools.lru_cache(maxsize=32768)
def _normalize_short(text: str) -> str:
    return _normalize(text)


def _normalize(text: str) -> str:
    """The regions around non-ASCII characters through every step, the
    rest through the ASCII steps alone.

    Every step works within whitespace-separated words (nothing is
    composed, folded, expanded or stemmed across ASCII whitespace), so the
    text cut at ASCII whitespace normalizes piece by piece exactly as it
    does whole: a few non-ASCII characters no longer send a whole string
    through the Unicode steps, twice.
    """
    if text.isascii():
        return _normalize_ascii(text)
    regions = _unicode_regions(text)
    once = [_normalize_once(text[start:end]) for start, end in regions]
    # Text still non-ASCII after one pass takes a second, which settles the
    # rare input where one step enables another (a contraction revealed by
    # folding, say); the property tests found no input that a third pass
    # changes. It is given to every word, as a second pass over the whole
    # text would (the ASCII words by their memo).
    twice = not all(part.isascii() for part in once)
    parts: list[str] = []
    cursor = 0
    for (start, end), region in zip(regions, once, strict=True):
        parts.append(_normalize_ascii(text[cursor:start], twice=twice))
        parts.append(_normalize_once(region) if twice else region)
        cursor = end
    parts.append(_normalize_ascii(text[cursor:], twice=twice))
    return " ".join([part for part in parts if part])


def confusable_skeleton(text: str) -> str:
    """A name's look-alike skeleton: invisible characters gone, NFKC, case
    folded, every foldable letter mapped to Latin (no stemming, no word rules).

    Two tool names with the same skeleton look the same to a person.
    """
    text = _INVISIBLE.sub("", text)
    text = unicodedata.normalize("NFKC", text).casefold()
    text = unicodedata.normalize("NFKC", text)
    text = _INVISIBLE.sub("", text)
    fold = _fold_map()
    return "".join(fold.get(char, char) for char in text)


# --------------------------------------------------------------------------
# Bounded forms for hostile input
# --------------------------------------------------------------------------

#: Characters of raw text normalized at a time when the output is bounded.
_PIECE = 16_384


def _piece_end(text: str, start: int) -> tuple[int, bool]:
    """Where the piece starting at ``start`` ends, and whether it ends at
    whitespace (the normalizer treats whitespace as a word break, so pieces
    cut there normalize exactly like the whole text)."""
    target = start + _PIECE
    if target >= len(text):
        return len(text), True
    space = max(text.rfind(" ", start + _PIECE // 2, target), text.rfind("\n", start, target))
    if space > start:
        return space + 1, True
    # No whitespace in half a piece (pathological text): cut before a base
    # character so no combining sequence is split.
    while target > start + 1 and unicodedata.combining(text[target]):
        target -= 1
    return target, False


def bounded(
    text: str,
    limit: int,
    transform: Callable[[str], str],
    word_sep: str,
    anchors: list[tuple[int, int]] | None = None,
) -> tuple[str, bool]:
    """``transform(text)`` cut to ``limit`` characters, and whether it was cut.

    Long non-ASCII text is transformed piece by piece and the work stops
    once ``limit`` characters are out: NFKC expands one character into up to
    18 (U+FDFA), and a million of them must not become 18 million characters
    of work and memory. ``word_sep`` joins pieces cut at whitespace (" " for
    a transform that strips the whitespace at the ends of its input, "" for
    one that keeps it). ``anchors``, when given, receives ``(raw offset,
    output offset)`` of every piece that starts after a cut at whitespace.
    """
    if len(text) <= _PIECE or text.isascii():
        out = transform(text)
        return (out, False) if len(out) <= limit else (out[:limit], True)
    pieces: list[str] = []
    size = 0
    written = 0  # characters in ``pieces``
    start = 0
    after_space = True  # whether the previous piece was cut at whitespace
    while start < len(text):
        end, at_space = _piece_end(text, start)
        piece = transform(text[start:end])
        if piece:
            if pieces:
                separator = word_sep if after_space else ""
                pieces.append(separator)
                written += len(separator)
            if anchors is not None and after_space:
                anchors.append((start, written))
            pieces.append(piece)
            written += len(piece)
            size += len(piece) + 1
        after_space = at_space
        start = end
        if size > limit:
            out = "".join(pieces)
            return out[:limit], len(out) > limit or start < len(text)
    out = "".join(pieces)
    return (out, False) if len(out) <= limit else (out[:limit], True)


def normalize_bounded(text: str, limit: int) -> tuple[str, bool]:
    """``normalize(text)`` cut to at most ``limit`` characters, and whether
    it was cut; the work is bounded by ``limit`` as well as by the text."""
    return bounded(text, limit, normalize, " ")


#: ``(raw offset, normalized offset)`` pairs where a text and its normalized
#: form can be cut and still correspond (see ``normalize_anchored``).
Anchors = tuple[tuple[int, int], ...]


def normalize_anchored(text: str, limit: int) -> tuple[str, bool, Anchors]:
    """``normalize_bounded(text, limit)`` and the places where the raw text
    and its normalized form line up.

    A long text is normalized in pieces cut at whitespace, which normalize
    exactly like the whole (every step works within words); the offsets of
    those cuts in both texts let a quote place a normalized match in the
    raw text by aligning one piece instead of a megabyte. The normalized
    text is the same as ``normalize_bounded`` gives.
    """
    if len(text) <= _PIECE:
        out, cut = normalize_bounded(text, limit)
        return out, cut, ()
    if not text.isascii():
        found: list[tuple[int, int]] = []
        out, cut = bounded(text, limit, normalize, " ", found)
        return out, cut, tuple((r, n) for r, n in found if n < len(out))
    return _ascii_anchored(text, limit)


def _ascii_anchored(text: str, limit: int) -> tuple[str, bool, Anchors]:
    """ASCII text, which ``normalize_bounded`` normalizes whole: the same
    result from pieces when every cut falls at whitespace (otherwise the
    whole text at once, and no anchors)."""
    pieces: list[str] = []
    found: list[tuple[int, int]] = []
    size = 0
    start = 0
    while start < len(text):
        end, at_space = _piece_end(text, start)
        if not at_space:
            out, cut = normalize_bounded(text, limit)
            return out, cut, ()
        piece = normalize(text[start:end])
        if piece:
            if pieces:
                size += 1
            found.append((start, size))
            pieces.append(piece)
            size += len(piece)
        start = end
    out = " ".join(pieces)
    if len(out) > limit:
        out = out[:limit]
        return out, True, tuple((r, n) for r, n in found if n < limit)
    return out, False, tuple(found)


# --------------------------------------------------------------------------
# Lower-casing that keeps offsets
# --------------------------------------------------------------------------


def same_length_lower(text: str) -> str:
    """``text`` lower-cased with every index kept, for finding a match in
    the lower-cased text and quoting it from the original.

    ``str.lower`` can grow a text (``"İ"`` lower-cases to two characters);
    then only A-Z are folded, so offsets stay aligned."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else ascii_lower(text)


def ascii_lower(text: str) -> str:
    """``text`` with only A-Z lower-cased, so offsets stay those of ``text``.

    Translated as UTF-8 bytes, where every byte of a non-ASCII character is
    above 0x7F and stays as it is: a C table lookup per byte instead of a
    dictionary lookup per character (thirty times faster on a long text).
    """
    encoded = text.encode("utf-8", "surrogatepass")
    return encoded.translate(_ASCII_LOWER).decode("utf-8", "surrogatepass")


_ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


# --------------------------------------------------------------------------
# Character-class runs found by C byte searches
# --------------------------------------------------------------------------


def class_table(classes: Mapping[bytes, bytes], other: bytes) -> bytes:
    """A ``bytes.translate`` table sending each byte of a class (the keys of
    ``classes``) to its one-byte symbol, and every other byte to ``other``.

    A text encoded one byte per character (Latin-1 with "?" for the rest,
    so byte offsets are text offsets) and translated with it is a string of
    class symbols that C substring searches read: whether a pattern can
    match at all, and where the runs it can match start."""
    table = bytearray(other * 256)
    for members, symbol in classes.items():
        for byte in members:
            table[byte] = symbol[0]
    return bytes(table)


def class_runs(classes: bytes, needle: bytes, gap: bytes) -> Iterator[int]:
    """Where each run of class symbols that holds ``needle`` begins, runs
    being separated by the ``gap`` symbol (which ``needle`` must not hold).

    A pattern that matches only a whole run of its class can then be tried
    at these starts instead of at every position of the text: a regex
    search costs a few nanoseconds per character of a megabyte; this costs
    one C pass. One at a time, so a caller that stops early stops the search.
    """
    hit = classes.find(needle)
    while hit >= 0:
        yield classes.rfind(gap, 0, hit) + 1
        end = classes.find(gap, hit + len(needle))
        if end < 0:
            return
        hit = classes.find(needle, end)
