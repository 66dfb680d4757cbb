"""A learned scorer of a whole tool's words (rule ``intent.tool_model``).

The ``intent.*`` rules and the clause scorer (``intent.model``) read only
clauses that hold a cue some rule needs. Unseen authors often write an
attack with none of those cues: a product statement that the card on file
is charged, that a partner gets the records, that the user's choice is
replaced. Over the sealed rounds most such misses produced no signal at
all. This scorer reads every word of the tool (name, description, schema
text) as one bag of words and weighs it with a logistic regression fitted
on the labelled corpus (``corpus/fit_tool_model.py``). Its weights are
data, committed as ``mcpscan/lexicon/weights_tool_model.json``: a readable
list of words, each with its weight.

Only words that attack authors of at least three different sealed author
groups used make the vocabulary: a word one author happened to favour (or a
corpus string) cannot carry the score alone. Leave-one-round-out validation
over the twelve sealed rounds chose the vocabulary rule, the penalty and the
threshold (figures in ``docs/rules/intent-tool-model.md``).

What it must leave alone: plain product prose of real tools. The fit trains
on 4,895 captured real tools as negatives; the threshold is set so that
held-out real tools are not raised. Its signal is SOFT only (a learned
score is evidence for a person, never proof), on definitions only (it was
fitted on definitions, not on tool output), and it speaks only when the
directive check's own rules found nothing in the tool: where a rule spoke,
it needs no second voice.

What the shared analysis reads as no attack does not count toward one: the
words of a clause that ``_instruction.analyze`` and the caller's reading
(``deferred``) take as the user's own choice, a restraint until the user
speaks, an act refused, or a mention (a threat list, an example, advice
about untrusted content) add nothing toward an attack, though their words
toward an honest tool ("only", "unless", "confirm") still count
(``discounted``). A bag of words alone reads "if you opt in, usage counts
are shared with our analytics partner" like a partner taking the data.

Cost: one pass over each string's words; at most ``_MAX_WORDS`` words of a
tool are read (the rules, not this scorer, are what cover the whole text;
this is an extra reading, so a cap here is no gap in coverage).
The clause reading runs only for a tool whose words reach the threshold
without it (a discount can only lower the score, so the others need none),
over at most ``_MAX_CLAUSE_CHARS`` characters of each string.
Deterministic: the weights are summed exactly (``math.fsum``) and the
probability is rounded.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from importlib import resources

import attrs
import regex

from .._instruction import Clause, analyze
from .._walk import LocatedString

__all__ = ["RULE", "Reading", "ToolModelHit", "best_sentence", "discounted", "tokens", "tool_score"]

#: Whether a clause of a string reads as no attack (the user's choice, a
#: restraint, an act refused, a mention): its words do not count toward one.
Reading = Callable[[Clause, LocatedString], bool]

RULE = "intent.tool_model"

# A word of the normalized text: letters and digits of any script.
_WORD = regex.compile(r"[^\W_]+")
# On ASCII text a word is a run of ASCII letters and digits (what
# ``_WORD`` matches there): every other character becomes a space (and a
# capital its small letter, as ``str.lower`` does on ASCII) and
# ``str.split`` cuts the words in C, three times cheaper than the pattern.
_ASCII_WORDS = str.maketrans(
    {code: chr(code).lower() if chr(code).isalnum() else " " for code in range(128)}
)
# Scripts written without spaces are read as character bigrams.
_FIRST_UNSPACED = "\u2e80"
#: Characters of a word kept (the normalizer already stems common endings).
_STEM = 7
_stem = operator.itemgetter(slice(_STEM))
#: Words of one tool read, at most (see the module docstring on cost).
_MAX_WORDS = 20_000
#: Distinct words a tool needs before the scorer speaks. On a short text a
#: few words decide the sum: "Always keep the default region for every
#: call." scores like an attack on "always" and "every" alone. In
#: leave-one-round-out validation no held-out attack it raised had fewer
#: than 20 distinct words (at 30 it lost 9 of 71).
_MIN_WORDS = 20
#: Characters of one string whose clauses are read for ``discounted``: the
#: scorer reads at most ``_MAX_WORDS`` words, which fit in far fewer.
_MAX_CLAUSE_CHARS = 20 * _MAX_WORDS
# Where a sentence ends, for choosing the evidence.
_SENTENCE_END = regex.compile(r"[.!?;:\n\u3002\uff01\uff1f\uff1b]+")


@attrs.frozen
class _Model:
    bias: float
    threshold: float
    weights: Mapping[str, float]
    #: The weighted tokens as a set: a tool's tokens meet it in one C-level
    #: intersection instead of a look-up per token.
    vocabulary: frozenset[str] = attrs.field(init=False)

    @vocabulary.default
    def _vocabulary(self) -> frozenset[str]:
        return frozenset(self.weights)


@attrs.frozen
class ToolModelHit:
    """A tool whose words reach the threshold: its probability and where the
    heaviest sentence is."""

    probability: float
    located: LocatedString
    start: int
    end: int


@functools.cache
def _model() -> _Model:
    path = resources.files("mcpscan") / "lexicon" / "weights_tool_model.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return _Model(
        bias=float(data["bias"]),
        threshold=float(data["threshold"]),
        weights={str(k): float(v) for k, v in data["weights"].items()},
    )


def _words(text: str, budget: int) -> list[str]:
    """At most ``budget`` words of the text, read no further than needed."""
    if budget <= 0:
        return []
    if text.isascii():
        return _ascii_words(text, budget)
    words: list[str] = []
    for match in _WORD.finditer(text):
        word = match.group()
        if word[0] >= _FIRST_UNSPACED:
            words.extend(word[i : i + 2] for i in range(max(1, len(word) - 1)))
        else:
            words.append(word[:_STEM])
        if len(words) >= budget:
            break
    return words[:budget]


def _ascii_words(text: str, budget: int) -> list[str]:
    """``_words`` of an ASCII text, lower-cased: the first ``budget`` runs of
    letters and digits, each cut to its stem (``maxsplit`` leaves the rest
    of a long text unsplit)."""
    return list(map(_stem, text.translate(_ASCII_WORDS).split(None, budget)[:budget]))


def _pairs(words: list[str]) -> Iterator[str]:
    """Each adjacent pair of words ("partner get"); a pair holds a space, a
    word never does."""
    return map(" ".join, itertools.pairwise(words))


def _with_pairs(words: list[str]) -> set[str]:
    """The words and each adjacent pair."""
    return {*words, *_pairs(words)}


def _read(texts: Iterable[str]) -> tuple[set[str], int]:
    """The distinct words and adjacent word pairs of the texts (normalized
    strings), at most ``_MAX_WORDS`` words in all, and how many distinct
    words (not pairs) they hold."""
    words_found: set[str] = set()
    pairs_found: set[str] = set()
    budget = _MAX_WORDS
    for text in texts:
        # Most strings of a tool are ASCII: lower-cased and split by one
        # translation (``_ascii_words``).
        words = _ascii_words(text, budget) if text.isascii() else _words(text.lower(), budget)
        budget -= len(words)
        words_found.update(words)
        if len(words) > 1:
            pairs_found.update(_pairs(words))
        if budget <= 0:
            break
    return words_found | pairs_found, len(words_found)


def tokens(texts: Iterable[str]) -> set[str]:
    """The distinct words and adjacent word pairs of the texts (normalized
    strings), at most ``_MAX_WORDS`` words in all. Also used by the fit."""
    return _read(texts)[0]


def discounted(strings: Iterable[LocatedString], reading: Reading) -> frozenset[str]:
    """The words (and pairs) that stand only in clauses the reading takes as
    no attack: they may not count toward one. A word also written in any
    other clause counts as before. Also used by the fit."""
    deferred: set[str] = set()
    kept: set[str] = set()
    budget = _MAX_WORDS
    for located in strings:
        for clause in analyze(located.raw[:_MAX_CLAUSE_CHARS]):
            words = _words(clause.text.lower(), budget)
            budget -= len(words)
            (deferred if reading(clause, located) else kept).update(_with_pairs(words))
            if budget <= 0:
                return frozenset(deferred - kept)
    return frozenset(deferred - kept)


def _probability(model: _Model, found: set[str], spared: frozenset[str] = frozenset()) -> float:
    """The fitted probability of the words; a word of ``spared`` (see
    ``discounted``) counts only when it weighs toward an honest tool."""
    # fsum is exactly rounded: the total does not depend on the set's order.
    weights = model.weights
    values = [weights[t] for t in found & model.vocabulary if weights[t] < 0 or t not in spared]
    total = model.bias + math.fsum(values)
    return round(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, total)))), 3)


def tool_score(strings: tuple[LocatedString, ...], reading: Reading) -> ToolModelHit | None:
    """The fitted probability that the tool's words are an attack's, when it
    reaches the threshold, with the sentence that weighs most; else None.
    Words only of clauses the reading takes as no attack count only toward
    an honest tool."""
    model = _model()
    found, distinct_words = _read(s.normalized for s in strings)
    if distinct_words < _MIN_WORDS:
        return None
    # Sparing words only lowers the sum: below the threshold without it,
    # a tool stays below with it, and its clauses need no reading.
    if _probability(model, found) < model.threshold:
        return None
    spared = discounted(strings, reading)
    probability = _probability(model, found, spared)
    if probability < model.threshold:
        return None
    located, start, end = best_sentence(model.weights, strings, spared)
    return ToolModelHit(probability=probability, located=located, start=start, end=end)


def _sentences(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for match in _SENTENCE_END.finditer(text):
        yield start, match.end()
        start = match.end()
    if start < len(text):
        yield start, len(text)


def best_sentence(
    weights: Mapping[str, float],
    strings: tuple[LocatedString, ...],
    spared: frozenset[str] = frozenset(),
) -> tuple[LocatedString, int, int]:
    """The sentence (of any string) whose words weigh most toward an attack:
    what a reviewer should read first. Ties go to the earliest; only the
    words the score read (``_MAX_WORDS``) are weighed, and not those
    ``spared`` (``discounted``)."""
    best: tuple[float, LocatedString, int, int] | None = None
    budget = _MAX_WORDS
    for located in strings:
        text = located.normalized
        for start, end in _sentences(text):
            words = _words(text[start:end].lower(), budget)
            budget -= len(words)
            weight = math.fsum(
                w for t in _with_pairs(words) - spared if (w := weights.get(t, 0.0)) > 0
            )
            if best is None or weight > best[0]:
                best = (weight, located, start, end)
            if budget <= 0:
                return best[1], best[2], best[3]
    assert best is not None  # a tool has at least its name
    return best[1], best[2], best[3]
