"""Where a directive phrase sits: used as an instruction, or only mentioned.

Two questions, both answered from a bounded slice of normalized text just
before (and, for quotes, just after) a match:

* ``lead(text, verb_start)``: is the verb of an action phrase ("read
  ~/.ssh/id_rsa") an imperative addressed to the model ("you must read",
  "first, read"), the opening of a bare clause ("Read ..."), a description
  ("this tool reads ...", "the server must read ...") or negated ("never
  read ...")?
* ``mention_reason(text, start, end)``: is the phrase quoted, given as an
  example ("such as", "e.g.", "like"), listed as what a security tool
  detects ("detects prompts such as ...", "blocks requests to read ..."),
  part of a documented example response, or a hypothetical the tool warns
  about ("if a page asks you to ignore your instructions, refuse")? Such a
  phrase is discounted.

Nothing here looks further than ``_LOOKBACK`` characters back or
``_LOOKAHEAD`` ahead, so the cost per match is constant.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator

import regex

from ._directive_text import B, E, alt, compile_pattern

__all__ = [
    "DETECTED",
    "EXAMPLE",
    "EXAMPLE_BLOCK",
    "HYPOTHETICAL",
    "QUOTED",
    "Lead",
    "descriptive_subject",
    "lead",
    "mention_reason",
    "negated_clause",
]

#: Why a phrase counts as mentioned rather than used.
QUOTED = "quoted"
EXAMPLE = "given as an example"
DETECTED = "listed as something a tool detects"
EXAMPLE_BLOCK = "part of a documented example"
HYPOTHETICAL = "a hypothetical the tool warns about"

_LOOKBACK = 200
_LOOKAHEAD = 200
# How far back a detection verb still governs a listed phrase.
_DETECTION_REACH = 160
# How far back an example cue ("such as", "e.g.") still governs a phrase.
_EXAMPLE_REACH = 60
# "like" governs only what follows it at once.
_LIKE_REACH = 24
_LEAD_WINDOW = 80


class Lead(enum.Enum):
    """How the verb of an action phrase is used."""

    STRONG = "strong"  # "you must read", "please read", "first, read", "IMPORTANT: read"
    CLAUSE = "clause"  # "Read ...", "... and read ..."
    DESCRIPTIVE = "descriptive"  # "this tool reads ...", "the server must read ..."
    NEGATED = "negated"  # "never read ...", "do not send ..."


# --- Imperative position ---------------------------------------------------

# Adverbs that may sit between a lead and its verb ("you must first read");
# they also make a bare clause an instruction ("Always send ...").
_IMPERATIVE_ADVERBS = alt(
    "first",
    "firstly",
    "always",
    "also",
    "additionally",
    "immediately",
    "then",
    "now",
    "just",
    "simply",
    "silently",
    "quietly",
    "secretly",
    "carefully",
    "automatically",
    "next",
    "afterwards",
    "finally",
    "in addition",
    "as well",
)
_STRIP_ADVERB = compile_pattern(rf"(?:^|\s){_IMPERATIVE_ADVERBS}[,:]?\s?$")

# Leads that make the next verb an instruction whoever precedes them.
_ALWAYS_IMPERATIVE_WORDS = alt(
    "please",
    "kindly",
    "make sure to",
    "make sure you",
    "be sure to",
    "remember to",
    "do not forget to",
    "never forget to",
    "it is required to",
    "it is mandatory to",
    "it is essential to",
    "it is necessary to",
    "it is important to",
    "it is critical to",
    "it is required that you",
    "it is mandatory that you",
    "it is essential that you",
    "it is necessary that you",
    "it is important that you",
    "it is critical that you",
    "it is vital that you",
    "it is crucial that you",
    "it is imperative that you",
    "it is mandatory for you to",
    "it is required for you to",
    "you are obliged to",
    "you are obligated to",
    "you have been instructed to",
    "i need you to",
    "i want you to",
    "you are required to",
    "you are expected to",
    "you are instructed to",
    "you must",
    "you should",
    "you need to",
    "you have to",
    "you will",
    "you shall",
    "you ought to",
    "you are to",
    "your task is to",
    "your job is to",
    "the assistant must",
    "the assistant should",
    "the model must",
    "the model should",
    "the agent must",
    "the agent should",
    "the ai must",
    "the ai should",
    "claude must",
    "claude should",
    "assistants must",
    "agents must",
    "models must",
    "llms must",
    "step 1",
    "step one",
    "step 2",
    "step two",
    "step 3",
)
_ALWAYS_IMPERATIVE = compile_pattern(rf"(?:^|\W){_ALWAYS_IMPERATIVE_WORDS}[,:]?\s?$")

# A modal that instructs only when it opens the clause ("Must read ...") or
# follows the model; after another subject it describes the tool ("the
# server must read its config").
_MODALS = alt(
    "must",
    "should",
    "need to",
    "needs to",
    "have to",
    "has to",
    "shall",
    "are required to",
    "is required to",
    "ought to",
)
# The word before the modal starts at a word start (the lookbehind): without
# it a long run of non-spaces is rescanned from every position.
_MODAL = compile_pattern(rf"(?:^|(?<!\S)(?P<before>\S+)\s){_MODALS}[,:]?\s?$")
_MODEL_WORDS = alt(
    "you",
    "assistant",
    "model",
    "agent",
    "ai",
    "claude",
    "llm",
    "gpt",
    "chatgpt",
    "assistants",
    "agents",
    "models",
    "llms",
)
_ADDRESSEE = compile_pattern(rf"^(?:{_MODEL_WORDS}|[.!?;:,(\[{{*•>\-–—。:])$")

# Labels that introduce a command: "IMPORTANT: read ...", "Assistant: send".
_LABELS = alt(
    "important",
    "note",
    "notice",
    "critical",
    "assistant",
    "ai",
    "model",
    "agent",
    "llm",
    "claude",
    "note to the assistant",
    "note to the ai",
    "note to the model",
    "note for the ai",
    "note for the assistant",
    "note for llms",
    "note for ai agents",
    "note for agents",
    "note for the model",
    "for llms",
    "for ai agents",
    "for ai assistants",
    "tip for ai agents",
    "ai agents",
    "llms",
    "mandatory",
    "required",
    "requirement",
    "attention",
    "warning",
    "reminder",
    "instruction",
    "instructions",
    "system",
    "admin",
    "hidden",
    "secret",
    "urgent",
    "todo",
    "action required",
    "step",
)
_LABEL = compile_pattern(rf"(?:^|\W){_LABELS}(?: \d+)?\s?[:!\-—]+\s?$")

# The clause opens right before the verb: string start, sentence or list
# punctuation, a numbered step, or a conjunction.
_CONJUNCTIONS = alt(
    "and",
    "then",
    "and then",
    "or",
    "but",
    "so",
    "also",
    "next",
    "after that",
    "afterwards",
    "finally",
    "otherwise",
)
_CLAUSE_START = compile_pattern(
    r"(?:^|[.!?;:,(\[{*•>\-–—。！？：，]\s?|\b\d{1,2}[.)]\s?"
    rf"|(?:^|\s){_CONJUNCTIONS}\s)$"
)

_NEGATIONS = alt(
    "do not",
    "never",
    "must not",
    "should not",
    "shall not",
    "cannot",
    "can not",
    "may not",
    "no need to",
    "avoid",
    "refrain from",
    "under no circumstances",
    "not",
    "without",
    "nor",
    "instead of",
    "rather than",
    "do not ever",
    "you must never",
    "is not allowed to",
    "are not allowed to",
    "is forbidden to",
    "forbidden to",
    "prohibited from",
)
_NEGATED = compile_pattern(rf"(?:^|\W){_NEGATIONS}(?: {_IMPERATIVE_ADVERBS})?\s?$")
_DISJUNCTION = compile_pattern(rf"{B}{alt('or', 'nor', 'or to', 'nor to')} $")


def lead(text: str, verb_start: int) -> Lead:
    """Classify how the verb starting at ``verb_start`` is used."""
    tail = text[max(0, verb_start - _LEAD_WINDOW) : verb_start]
    if _NEGATED.search(tail):
        return Lead.NEGATED
    if _DISJUNCTION.search(tail) and negated_clause(text, verb_start):
        # "never reveal the password or write it to logs": the negation
        # covers both verbs.
        return Lead.NEGATED
    tail, had_adverb = _strip_adverbs(tail)
    if _ALWAYS_IMPERATIVE.search(tail) or _LABEL.search(tail):
        return Lead.STRONG
    modal = _MODAL.search(tail)
    if modal is not None:
        return Lead.STRONG if _addressed_to_model(modal.group("before")) else Lead.DESCRIPTIVE
    if not tail.strip() or _CLAUSE_START.search(tail):
        # "Always send ...", "First, read ..." open a clause with an
        # imperative adverb: an instruction, not a description.
        return Lead.STRONG if had_adverb else Lead.CLAUSE
    return Lead.DESCRIPTIVE


def _strip_adverbs(tail: str) -> tuple[str, bool]:
    """Remove up to two adverbs before the verb; say whether any was there."""
    had_adverb = False
    for _ in range(2):
        stripped = _STRIP_ADVERB.search(tail)
        if stripped is None:
            break
        had_adverb = True
        tail = tail[: stripped.start()].rstrip()
        tail = tail + " " if tail else tail
    return tail, had_adverb


def _addressed_to_model(before: str | None) -> bool:
    """The word before a modal is the model, or nothing (the clause opens)."""
    if before is None:
        return True
    return bool(_ADDRESSEE.match(before.rstrip(",")) or _ADDRESSEE.match(before[-1:]))


# Subjects that turn a phrase into a description of the tool: "the parser
# ignores previous lines", "this endpoint never notifies the user".
_THIRD_PARTIES = alt(
    "it",
    "tool",
    "tools",
    "function",
    "server",
    "endpoint",
    "api",
    "operation",
    "command",
    "method",
    "this",
    "which",
    "that",
    "app",
    "application",
    "service",
    "script",
    "program",
    "utility",
    "system",
    "option",
    "flag",
    "parameter",
    "param",
    "setting",
    "mode",
    "feature",
    "call",
    "request",
    "library",
    "module",
    "plugin",
    "client",
    "browser",
    "parser",
    "filter",
    "scanner",
    "bot",
    "job",
    "task",
    "process",
    "daemon",
    "action",
    "field",
    "value",
    "default",
    "we",
    "they",
    "he",
    "she",
    "extension",
    "integration",
    "workflow",
)
_AUXILIARIES = alt(
    "will",
    "does",
    "do",
    "can",
    "may",
    "would",
    "could",
    "also",
    "automatically",
    "then",
    "always",
    "still",
    "simply",
    "now",
)
_DETERMINERS = alt("the", "this", "that", "a", "an", "our", "its", "each", "every", "any")
_DESCRIPTIVE_SUBJECT = compile_pattern(
    rf"{B}{_THIRD_PARTIES}(?: {_AUXILIARIES}){{0,2}} ?$"
    # Or any noun phrase as subject, "the linter ignores previous rules",
    # except the model itself ("the assistant reads" is an instruction).
    rf"|{B}{_DETERMINERS} (?!{_MODEL_WORDS}{E})[\w-]+(?: {_AUXILIARIES}){{0,2}} ?$"
)


def descriptive_subject(text: str, start: int) -> bool:
    """True when the phrase at ``start`` has a third-party subject."""
    tail = text[max(0, start - _LEAD_WINDOW) : start]
    return _DESCRIPTIVE_SUBJECT.search(tail) is not None


# A negation earlier in the same clause: "never send data without telling
# the user" is a safeguard.
_CLAUSE_NEGATIONS = alt(
    "do not",
    "never",
    "must not",
    "should not",
    "shall not",
    "cannot",
    "may not",
    "not allowed",
    "forbidden",
    "prohibited",
    "no",
)
_CLAUSE_NEGATION = compile_pattern(rf"{B}{_CLAUSE_NEGATIONS}{E}[^.!?;。]{{0,60}}$")


def negated_clause(text: str, start: int) -> bool:
    """True when the clause before ``start`` is already negated."""
    tail = text[max(0, start - _LEAD_WINDOW) : start]
    return _CLAUSE_NEGATION.search(tail) is not None


# --- Mentioned, not used ---------------------------------------------------

# Sentence ends; the dots of "e.g.", "i.e.", "etc." and "z. B." do not count.
# Semicolons and colons separate list items ("detects: X; Y; Z"), so they do
# not end the sentence; a markdown heading does.
_SENTENCE_END = compile_pattern(
    r"(?r)(?:(?<!\b\w)(?<!\b(?:etc|vs|ex|ej|cf|incl|approx|no|fig|eg|ie))[.!?](?=\s|$)"
    r"|[。！？]|#{1,6} )"
)

# "such as X", "e.g. X", "for example X", "including X": X is an example
# when it follows within a few words.
_EXAMPLE_CUES = alt(
    "such as",
    "e.g.",
    "e.g",
    "eg",
    "for example",
    "for instance",
    "including",
    "i.e.",
    "i.e",
    "ex.",
    "for ex.",
    "as in",
    "known as",
    "por ejemplo",
    "p. ej.",
    "par exemple",
    "p. ex.",
    "zum beispiel",
    "z. b.",
    "z.b.",
    "por exemplo",
    "например",
    "такие как",
    "такими как",
)
_OPENERS = r"[\s:,'\"“«「『(\-]*"
_NEAR_CUE = compile_pattern(
    # A cue ends at a word's end: Portuguese "as instruções" is no "as in".
    rf"(?:{B}{_EXAMPLE_CUES}(?:(?<=\W)|{E})|例如|比如|诸如|譬如|例えば|たとえば)"
    # A word is at most the reach long (possessive, bounded): an unbounded
    # "[^\s...]+" made a long run without spaces ("nam/nam/...") quadratic.
    rf"{_OPENERS}(?:[^\s.!?;。]{{1,{_EXAMPLE_REACH}}}+\s){{0,5}}['\"“«「『(]?\s?$"
)
# "like X" is an example only right before X ("flags paths like ~/.ssh"),
# never "I would like you to ...".
_LIKE_WORDS = alt("like", "similar to", "resembling", "comme", "wie", "como", "типа")
_LIKE_CUE = compile_pattern(rf"(?:{B}{_LIKE_WORDS}|のような|などの|像){_OPENERS}$")

# A security tool listing what it detects: a detection verb, then a security
# noun, then the phrase, in one sentence ("detects prompt injections such
# as", "blocks requests to read ~/.ssh/id_rsa", "flags phrases like").
_DETECTION_VERBS = alt(
    "detect",
    "detects",
    "detecting",
    "detection",
    "detector",
    "flag",
    "flags",
    "flagging",
    "block",
    "blocks",
    "blocking",
    "blocklist",
    "scan",
    "scans",
    "scanning",
    "scanner",
    "protect",
    "protects",
    "protection",
    "guard",
    "guards",
    "guardrail",
    "defend",
    "defends",
    "defense",
    "filter",
    "filters",
    "filtering",
    "strip",
    "strips",
    "sanitize",
    "sanitizes",
    "sanitise",
    "sanitizer",
    "redact",
    "redacts",
    "catch",
    "catches",
    "identify",
    "identifies",
    "recognize",
    "recognizes",
    "classify",
    "classifies",
    "classifier",
    "warn",
    "warns",
    "alert",
    "alerts",
    "look for",
    "looks for",
    "check for",
    "checks for",
    "test for",
    "tests for",
    "screen",
    "screens",
    "prevent",
    "prevents",
    "mitigate",
    "mitigates",
    "reject",
    "rejects",
    "refuse",
    "refuses",
    "deny",
    "denies",
    "quarantine",
    "quarantines",
    "neutralize",
    "neutralizes",
    "escape",
    "escapes",
    "lint",
    "linter",
    "audit",
    "audits",
    "monitor",
    "monitors",
    "disallow",
    "disallows",
    "forbid",
    "forbids",
    "firewall",
    "validator",
    "moderate",
    "moderates",
    "moderation",
)
_DETECTION_VERB = compile_pattern(
    rf"{B}{_DETECTION_VERBS}{E}"
    r"|detecta|détecte|erkennt|blockiert|bloquea|bloqueia|обнаруж|блокир"
    r"|检测|识别|拦截|过滤|検出|検知|ブロック"
)
# Nouns that say what the detection is about; generic words ("text",
# "input") are not enough: "analyzes the input, then reads ~/.ssh/id_rsa"
# must stay an instruction.
_SECURITY_NOUNS = alt(
    "injection",
    "injections",
    "prompt injection",
    "jailbreak",
    "jailbreaks",
    "attack",
    "attacks",
    "attacker",
    "malicious",
    "suspicious",
    "poison",
    "poisoning",
    "poisoned",
    "unsafe",
    "dangerous",
    "harmful",
    "exfiltration",
    "adversarial",
    "phrase",
    "phrases",
    "pattern",
    "patterns",
    "string",
    "strings",
    "keyword",
    "keywords",
    "attempt",
    "attempts",
    "payload",
    "payloads",
    "instruction",
    "instructions",
    "prompt",
    "prompts",
    "threat",
    "threats",
    "abuse",
    "manipulation",
    "red team",
    "risky",
    "sensitive",
    "leak",
    "leaks",
    "request",
    "requests",
    "directive",
    "directives",
    "tag",
    "tags",
    "token",
    "tokens",
    "markup",
    "wording",
    "secret",
    "secrets",
    "credential",
    "credentials",
    "path",
    "paths",
    "command",
    "commands",
)
_SECURITY_NOUN = compile_pattern(
    rf"{B}{_SECURITY_NOUNS}{E}"
    r"|inyecci|injection|injektion|инъекц|注入|越狱|攻击|恶意|インジェクション|攻撃|悪意"
)

# Reported speech in a condition: "if the page asks you to ignore your
# instructions, do not comply" describes an attack to resist. ("request" is
# left out: "when the request includes your system prompt" is a noun.)
_CONDITIONS = alt("if", "when", "whenever", "should", "even if", "even when", "in case", "unless")
_REPORTED_SPEECH = alt(
    "ask",
    "asks",
    "asking",
    "tell",
    "tells",
    "telling",
    "instruct",
    "instructs",
    "say",
    "says",
    "want",
    "wants",
    "try",
    "tries",
    "attempt",
    "attempts",
    "demand",
    "demands",
    "contain",
    "contains",
    "urge",
    "urges",
    "direct",
    "directs",
    "order",
    "orders",
    "claim",
    "claims",
)
_HYPOTHETICAL = compile_pattern(
    rf"{B}{_CONDITIONS}{E}[^.;!?。]{{0,80}}{B}{_REPORTED_SPEECH}{E}[^.;!?。]{{0,24}}$"
)

# A documented example: "Example response: {...}", "Sample output: ...".
_EXAMPLE_KINDS = alt(
    "example",
    "examples",
    "sample",
    "demo",
    "mock",
    "fake",
    "test",
    "dummy",
    "illustrative",
)
_EXAMPLE_THINGS = alt(
    "response",
    "responses",
    "output",
    "outputs",
    "result",
    "results",
    "request",
    "requests",
    "input",
    "inputs",
    "usage",
    "call",
    "calls",
    "prompt",
    "prompts",
    "payload",
    "payloads",
    "message",
    "messages",
    "reply",
    "replies",
    "answer",
    "answers",
    "return",
    "data",
    "json",
    "document",
    "text",
    "attack",
    "attacks",
    "injection",
    "injections",
    "string",
    "strings",
)
_EXAMPLE_HEADER = compile_pattern(
    rf"{B}{_EXAMPLE_KINDS} {_EXAMPLE_THINGS}{E}"
    rf"|{B}{alt('for example', 'example', 'examples', 'e.g.', 'sample')}\s?:"
)

# Quotes and code spans: straight and typographic quotes, guillemets, CJK
# corner brackets, backtick code spans and fences. A straight apostrophe
# counts only at a word edge, so "user's" opens nothing.
_QUOTE = compile_pattern(r"```|'''|`|\"|[“”«»「」『』]|(?<!\w)'|'(?!\w)")
_SINGLE_CLOSER = compile_pattern(r"'(?!\w)")
_CLOSERS = {
    "```": "```",
    "`": "`",
    "'''": "'''",
    '"': '"',
    "“": "”",
    "«": "»",
    "「": "」",
    "『": "』",
    "'": "'",
}


def _sentence_start(text: str, start: int) -> int:
    floor = max(0, start - _LOOKBACK)
    found = _SENTENCE_END.search(text, floor, start)
    return found.end() if found is not None else floor


def _open_quote(text: str, floor: int, start: int) -> str | None:
    """The quote character still open at ``start`` (scanning from ``floor``)."""
    open_char: str | None = None
    for match in _QUOTE.finditer(text, floor, start):
        char = match.group()
        if open_char is None:
            if char in _CLOSERS:
                open_char = char
        elif char == _CLOSERS[open_char]:
            open_char = None
    return open_char


def _quoted(text: str, start: int, end: int) -> bool:
    """The span sits inside a quote or code span that closes soon after it."""
    opener = _open_quote(text, max(0, start - _LOOKBACK), start)
    if opener is None:
        return False
    closer = _CLOSERS[opener]
    # The closer may fall inside the match (a target's trailing quote), so
    # it is looked for from the start of the match.
    limit = min(len(text), end + _LOOKAHEAD)
    if closer == "'":
        return _SINGLE_CLOSER.search(text, start, limit) is not None
    return text.find(closer, start, limit) != -1


def _last(matches: Iterator[regex.Match[str]]) -> regex.Match[str] | None:
    found = None
    for found in matches:  # noqa: B007 - only the last one is wanted
        pass
    return found


def _in_example_block(text: str, sentence_start: int, start: int) -> bool:
    """After an "Example response:" header, in the same sentence or inside
    a JSON object opened after the header."""
    header = _last(_EXAMPLE_HEADER.finditer(text, max(0, start - _LOOKBACK), start))
    if header is None:
        return False
    if header.start() >= sentence_start:
        return True
    between = text[header.end() : start]
    return between.count("{") > between.count("}") or between.count("[") > between.count("]")


def mention_reason(text: str, start: int, end: int) -> str | None:
    """Why the phrase at [start, end) is mentioned rather than used, or None."""
    sentence_start = _sentence_start(text, start)
    if _quoted(text, start, end):
        return QUOTED
    if _LIKE_CUE.search(text, max(sentence_start, start - _LIKE_REACH), start):
        return EXAMPLE
    if _NEAR_CUE.search(text, max(sentence_start, start - _EXAMPLE_REACH), start):
        return EXAMPLE
    verb = _DETECTION_VERB.search(text, max(sentence_start, start - _DETECTION_REACH), start)
    if verb is not None and _SECURITY_NOUN.search(text, verb.start(), start):
        return DETECTED
    if _in_example_block(text, sentence_start, start):
        return EXAMPLE_BLOCK
    if _HYPOTHETICAL.search(text, sentence_start, start):
        return HYPOTHETICAL
    return None
