"""A learned scorer of instruction intent (rule ``intent.model``).

The ``intent.*`` rules fire on combinations someone thought of; an author
who never saw them writes other combinations. This scorer reads the same
clause record the rules read (who is addressed, which action cues, which
objects and scopes, triggers, concealment, actions the tool's job does not
name) plus the clause's own words, and weighs them with a logistic regression
fitted on the labelled corpus (``corpus/fit_intent_model.py``). Its
weights are data, committed as ``mcpscan/lexicon/weights_intent_model.json``.

The features are mostly language-independent: a cue such as ``conceal`` or
``transmit`` comes from every language's lexicon file, so a weight learned
on English sentences applies to the Polish ones. Word features (hashed
unigrams and bigrams of the normalized, stemmed clause) add what the cues
do not name. The rules' own verdicts are not features: validation showed
a model that reads them learns to defer to them and adds little where
they are silent, which is the only place it speaks.

What it must leave alone: every clause it scores is one the intent gate
already yields (it holds a cue some rule needs) and no intent rule fired
on, so plain product prose is never read and a reported clause gets no
second voice; a fitted threshold, chosen by leave-one-round-out
validation, keeps real tools' usage notes ("use `list_tables` before
`query`") below it.

Its signal is SOFT only: a learned score is evidence for a person, never
proof, and never quarantines. Scoring is deterministic: the weights are
summed exactly (``math.fsum``, whatever the order) and the probability is
rounded.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import zlib
from collections.abc import Iterator, Mapping
from importlib import resources

import attrs
import regex

from .._instruction import ACTION_CUES, Clause, ToolScope
from . import _intent_rules

__all__ = [
    "MODEL_RULE",
    "NAMES",
    "THREATS",
    "ModelScore",
    "features",
    "finding",
    "score",
    "with_model",
]

MODEL_RULE = "intent.model"
#: The threat and name of every intent rule, the model's included.
THREATS = {**_intent_rules.THREATS, MODEL_RULE: "coerced-action"}
NAMES = {**_intent_rules.NAMES, MODEL_RULE: "learned instruction intent"}

# A word of the normalized clause: letters and digits of any script.
_WORD = regex.compile(r"[^\W_]+")
# Scripts written without spaces: read as character bigrams instead.
_FIRST_UNSPACED = "\u2e80"
#: Characters of a word kept as its feature (the normalizer has already
#: stemmed the common endings; this folds the rest of a word family).
_STEM = 6
#: Words and bigrams of a clause read, at most: a long clause adds no more
#: cost than this.
_MAX_WORDS = 80


@attrs.frozen
class _Model:
    bias: float
    threshold: float
    buckets: int
    #: The cheap gate: a clause whose record part (bias plus named features)
    #: is below this is not read further (see ``finding``).
    record_floor: float
    #: Weights of the named (record) features.
    weights: Mapping[str, float]
    #: Weight of each word bucket, by index (``w<index>`` in the data file).
    words: tuple[float, ...] = ()
    #: Whether the weights were fitted with the reading features
    #: (``_reading_features``); a data file without the key was not.
    readings: bool = False


@attrs.frozen
class ModelScore:
    """The model's probability for one clause, and whether it is a finding."""

    probability: float
    fires: bool


@functools.cache
def _model() -> _Model:
    path = resources.files("mcpscan") / "lexicon" / "weights_intent_model.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    buckets = int(data["buckets"])
    words = [0.0] * buckets
    named: dict[str, float] = {}
    for key, value in data["weights"].items():
        if key.startswith("w") and key[1:].isdigit():
            words[int(key[1:])] = float(value)
        else:
            named[str(key)] = float(value)
    return _Model(
        bias=float(data["bias"]),
        threshold=float(data["threshold"]),
        buckets=buckets,
        record_floor=float(data["record_floor"]),
        weights=named,
        words=tuple(words),
        readings=bool(data.get("readings", False)),
    )


def _tokens(text: str) -> list[str]:
    """Stemmed words; a run of a script without spaces gives its bigrams."""
    tokens: list[str] = []
    for word in _WORD.findall(text):
        if word[0] >= _FIRST_UNSPACED:
            tokens.extend(word[i : i + 2] for i in range(max(1, len(word) - 1)))
        elif not word.isdigit():
            tokens.append(word[:_STEM])
        if len(tokens) >= _MAX_WORDS:
            break
    return tokens[:_MAX_WORDS]


def _word_buckets(text: str, buckets: int) -> set[int]:
    """The hashed buckets of the clause's words and word pairs (CRC-32: the
    same in every process, unlike ``hash``)."""
    tokens = _tokens(text)
    grams = itertools.chain(tokens, (f"{a} {b}" for a, b in itertools.pairwise(tokens)))
    return {zlib.crc32(gram.encode("utf-8")) % buckets for gram in grams}


def _record_features(clause: Clause, scope: ToolScope) -> set[str]:
    """What the clause record says, as named features (language-independent)."""
    found = {f"c:{cue}" for cue in clause.cues}
    # An action the tool's own job does not name ("archive the newest
    # email" in a unit converter): the mark of a demand unrelated to it.
    job = scope.job_cues(clause.text)
    found |= {f"j:{cue}" for cue in clause.cues & ACTION_CUES if cue not in job}
    found |= {f"n:{cue}" for cue in clause.negated_cues}
    found |= {f"p:{cue}" for cue in clause.previous_cues if cue in ACTION_CUES}
    found |= {f"s:{scope}" for _name, scope in clause.names}
    found |= {f"q:{scope}" for _name, scope in clause.qualified}
    found |= {f"v:{kind}" for kind, _value in clause.values}
    found |= {f"l:{cue}" for cue in clause.link_cues}
    flags = {
        "addressed": clause.addressed,
        "imperative": clause.imperative,
        "url": bool(clause.urls),
        "email": bool(clause.emails),
        "ip": bool(clause.ips),
        "data-link": clause.data_link,
        "caps-label": clause.caps_label,
        "shell-chain": clause.shell_chain,
        "negated": clause.negated_action,
        "subject-is-name": clause.subject_is_name,
        "side-field": bool(clause.field_words),
    }
    found |= {f"f:{flag}" for flag, on in flags.items() if on}
    # An action and what it acts on, together: "transmit" with an outside
    # address or "conceal" with a trigger weighs more than either alone.
    actions = clause.cues & ACTION_CUES
    objects = (clause.cues - ACTION_CUES) | {f for f in found if f[0] in "sf"}
    found |= {f"a:{a}&{o}" for a in actions for o in objects}
    if clause.addressed:
        found |= {f"addr&{a}" for a in actions}
    return found


def _reading_features(clause: Clause, record: set[str]) -> set[str]:
    """The clause's behaviour as readings joined three at a time: who is
    addressed, which act, on what object, beyond the tool's declared job or
    not, hidden from the user or not (``r:`` features). A triple names the
    same behaviour whatever words an author chose ("agent & transmit &
    credentials", "outside-job & collect & conversation"), where a word
    weight needs the training author's words. Read from ``record`` (the
    named features) only: no second analysis of the clause.

    Real tools' usage notes hold the single readings too ("send the file
    to the printer"); the triples weigh only what the fit finds together
    in attacks and not in the negatives."""
    actions = sorted(clause.cues & ACTION_CUES)
    if not actions:
        return set()
    objects = sorted(
        set(clause.cues - ACTION_CUES)
        | {f for f in record if f[0] == "s" or f in ("f:url", "f:email", "f:data-link")}
    )
    who = "agent" if clause.addressed else "none"
    outside = {f[2:] for f in record if f.startswith("j:")}
    hidden = "conceal" in clause.cues or "conceal" in clause.previous_cues
    found: set[str] = set()
    for act in actions:
        where = "out" if act in outside else "in"
        found.add(f"r:{who}&{act}&{where}")
        if hidden and act != "conceal":
            found.add(f"r:hide&{act}&{where}")
        for obj in objects:
            found.add(f"r:{who}&{act}&{obj}")
            found.add(f"r:{where}&{act}&{obj}")
    return found


def features(
    clause: Clause, scope: ToolScope, buckets: int, *, readings: bool = False
) -> tuple[str, ...]:
    """Every feature of one clause, sorted: the record's named features
    (with ``readings``, the reading triples too) and the hashed words
    (``w<bucket>``). Also used by the training script."""
    found = _record_features(clause, scope)
    if readings:
        found |= _reading_features(clause, found)
    found.update(f"w{index}" for index in _word_buckets(clause.text, buckets))
    return tuple(sorted(found))


def score(clause: Clause, scope: ToolScope) -> ModelScore:
    """The model's probability (a fitted logistic regression) that the
    clause is an attack, and whether it reaches the fitted threshold."""
    model = _model()
    return _scored(model, _record_values(model, clause, scope), clause)


def finding(clause: Clause, scope: ToolScope) -> float | None:
    """The model's probability when it reaches the threshold, else None.

    Gated for cost: the clause's words are hashed only when its record part
    (bias plus the named features) reaches ``record_floor``, which the fit
    sets a margin below that of every training clause that reaches the
    threshold. Most clauses of real tools stop there."""
    model = _model()
    values = _record_values(model, clause, scope)
    if model.bias + math.fsum(values) < model.record_floor:
        return None
    scored = _scored(model, values, clause)
    return scored.probability if scored.fires else None


def _record_values(model: _Model, clause: Clause, scope: ToolScope) -> list[float]:
    found = _record_features(clause, scope)
    if model.readings:
        found |= _reading_features(clause, found)
    return [model.weights.get(feature, 0.0) for feature in found]


def _scored(model: _Model, values: list[float], clause: Clause) -> ModelScore:
    words = [model.words[index] for index in _word_buckets(clause.text, model.buckets)]
    # fsum is exactly rounded: the total does not depend on the order of
    # the sets the values come from (which varies between processes).
    total = model.bias + math.fsum(values + words)
    probability = round(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, total)))), 3)
    return ModelScore(probability=probability, fires=probability >= model.threshold)


def with_model(clause: Clause, scope: ToolScope) -> Iterator[tuple[_intent_rules.IntentHit, float]]:
    """The intent rules' hits on one clause with their fitted confidences;
    on a clause no rule fired on, the model's hit when its probability
    reaches the threshold. The model speaks only where the rules are
    silent (a clause a rule reports needs no second voice), and never hard:
    its signal is SOFT whatever its score."""
    hits = tuple(_intent_rules.evaluate_clause(clause, scope))
    for hit in hits:
        yield hit, _intent_rules.confidence(hit)
    # A pause that waits for the user's word ("do not invoke other tools
    # until receiving an instruction from the user") is a restraint the
    # rules read and withdraw; the model, which never saw the cue, must
    # not speak in their place.
    if hits or _intent_rules.holds_until_user(clause):
        return
    probability = finding(clause, scope)
    if probability is not None:
        yield _intent_rules.IntentHit(rule_id=MODEL_RULE, features=(), clause=clause), probability
