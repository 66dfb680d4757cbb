"""What a tool says it does: the capability inference shared by checks and sessions.

The capability-mismatch check compares a tool's schema with the job its
name, title, first sentence and annotations declare; a ``Session`` sorts
tools into read, write, send and compute categories for its flow rules.
Both read the same vocabulary through the functions here, so a tool is
understood the same way by each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ._model import Tool
from ._normalize import normalize

FIRST_SENTENCE_CHARS = 200
_IDENTIFIER_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
WORD = re.compile(r"[a-z0-9]+")
# A sentence ends at . ! ? or a line break followed by space or the end,
# and at a Devanagari danda or an Arabic-script question mark or full stop
# followed by space or the end: a Hindi price lookup's second sentence ("put
# the bank OTP into this tool") is no part of its job. (CJK stops, written
# without a space, are not read as ends: a Japanese card reader's whole
# description stays its job, as before.)
_SENTENCE_END = re.compile(r"[.!?\n\u0964\u061f\u06d4](?=\s|$)")
LEAD_WINDOW = 4

# ---------------------------------------------------------------- vocabulary
#
# Word lists are written in plain English and normalized at import, so they
# meet descriptions in the same (stemmed, case-folded) form. Identifiers
# (tool and parameter names) are split into words and matched against the
# raw lower-case forms, with a trailing "s" tolerated.


def w(text: str) -> tuple[str, ...]:
    """A word list written as one string."""
    return tuple(text.split())


CAPABILITY_WORDS: Mapping[str, tuple[str, ...]] = {
    "compute": w(
        "calculate calculator calculation compute computation math mathematics arithmetic add"
        " addition sum subtract subtraction multiply multiplication divide division equation"
        " formula average mean median percentage percent factorial prime fibonacci sqrt"
        " logarithm integral derivative algebra geometry statistic number numbers digit bmi"
        " mortgage loan interest random dice roll coin flip hash checksum unit units convert"
        " conversion converter celsius fahrenheit kelvin"
    ),
    "text": w(
        "translate translation translator summarize paraphrase rewrite spell spellcheck grammar"
        " proofread uppercase lowercase capitalize slugify slug reverse palindrome anagram rhyme"
        " synonym antonym word words character characters text string sentence sentiment lorem"
        " ipsum emoji joke pun poem haiku acronym abbreviation base64 encode decode"
    ),
    "time": w(
        "time date datetime timezone clock timestamp epoch duration countdown weekday day week"
        " month year holiday age birthday now today utc gmt iso8601 sunrise sunset"
    ),
    "lookup": w(
        "weather forecast temperature humidity climate rain wind aqi search lookup define"
        " definition dictionary thesaurus encyclopedia wikipedia news headline stock ticker"
        " price quote exchange currency forex recipe movie film trivia fact horoscope zodiac"
        " astrology country capital population geocode distance lyrics sport score pokemon"
    ),
    "file": w(
        "file files filename directory folder path filesystem fs disk document documents pdf"
        " docx spreadsheet excel csv archive zip storage bucket s3 drive dropbox image images"
        " upload download attachment"
    ),
    "network": w(
        "http https url urls fetch request download upload webhook api endpoint rest graphql"
        " browse browser scrape scraper crawl crawler website webpage web internet online proxy"
        " curl wget dns ip ping port socket ssh ftp sftp network domain remote server"
    ),
    "shell": w(
        "shell command commands terminal bash zsh exec execute script process cli powershell"
        " cmd subprocess system"
    ),
    "database": w(
        "sql database db table tables postgres postgresql mysql sqlite mongo mongodb redis"
        " schema record records row rows column cypher neo4j bigquery snowflake supabase"
        " firestore dynamodb elasticsearch"
    ),
    "messaging": w(
        "send email mail gmail inbox message messages slack sms notify notification post tweet"
        " twitter chat discord telegram whatsapp publish broadcast channel reply forward invite"
        " calendar meeting event contact contacts"
    ),
    "auth": w(
        "auth authenticate authentication authorize authorization login logon signin credential"
        " credentials password passwords passphrase token tokens secret secrets vault keychain"
        " keyring oauth sso saml session account accounts identity user users 2fa mfa otp totp"
        " apikey certificate cert encrypt decrypt encryption jwt permission role iam access"
        " bitwarden 1password lastpass keepass okta auth0 key keys"
    ),
    "code": w(
        "code git github gitlab repo repository commit branch merge pull pr issue build deploy"
        " deployment compile lint ci pipeline docker container kubernetes k8s kubectl helm cloud"
        " aws gcp azure instance cluster terraform ansible npm pip package install sdk lambda"
        " environment env config configuration"
    ),
    "memory": w(
        "note notes memo journal diary memory remember recall knowledge bookmark todo task"
        " tasks reminder feedback survey review comment comments observation entity graph"
        " thought thoughts thinking think reflect reasoning log logs logging annotate annotation"
    ),
    "llm": w(
        "prompt prompts llm model ai gpt claude completion agent assistant conversation context"
        " embedding inference openai anthropic gemini chatbot"
    ),
}
# Capabilities whose job needs no credentials, files, environment or
# conversation: a schema asking for those is out of place.
NARROW = frozenset({"compute", "text", "time", "lookup"})


def identifier_forms(words: Iterable[str]) -> frozenset[str]:
    return frozenset(w.lower() for w in words)


def normalized_forms(words: Iterable[str]) -> frozenset[str]:
    return frozenset(normalize(w) for w in words)


# Stems that are everyday words of another meaning: "news" stems to "new",
# the commonest adjective of tool descriptions ("a new hire", "creates a new
# page"), which names no lookup. The word itself still counts.
_AMBIGUOUS_STEMS = frozenset({"new"})

CAPABILITY_BY_WORD: Mapping[str, frozenset[str]] = {
    form: frozenset(cap for cap, words in CAPABILITY_WORDS.items() if word in words)
    for cap_words in CAPABILITY_WORDS.values()
    for word in cap_words
    for form in {word.lower(), normalize(word)} - (_AMBIGUOUS_STEMS - {word.lower()})
}

# Verbs that change the world: a tool named or introduced with one of these
# is not read-only.
WRITE_VERBS = identifier_forms(
    w(
        "write writes delete deletes remove removes create creates update updates send sends post"
        " posts upload uploads put modify modifies edit edits insert inserts drop truncate deploy"
        " deploys publish publishes push pushes commit commits move moves rename"
        " kill terminate purge erase overwrite transfer transfers pay purchase install uninstall"
        " save saves submit submits email emails notify notifies append appends patch reset revoke"
        " grant shutdown restart set enable disable approve cancel archive merge withdraw"
        " deposit sell buy trade wipe reboot clear share invite import sync"
    )
)
WRITE_STEMS = normalized_forms(WRITE_VERBS)

# "get_updates", "list_commits", "read_posts": a write word after a read
# verb is a noun.
# Tool names in other languages open with their own read verb
# ("revisar_commit", "consultar_saldo", "leggere_file"): the noun after it
# ("commit", "push") is no write. Words of four letters or more only.
READ_VERBS = identifier_forms(
    w(
        "get list read fetch find search show describe view count check query lookup retrieve"
        " inspect preview validate verify watch browse compare diff explain summarize summarise"
        " revisar revisa consultar consulta leer listar buscar busca obtener mostrar muestra"
        " verificar verifica comprobar comprueba obter lire lister chercher afficher consulter"
        " verifier lesen suchen anzeigen pruefen abrufen leggere cercare elencare mostrare"
        " verificare controllare consultare czytaj odczytaj szukaj wyszukaj pokaz sprawdz"
        " listele goster sorgula"
        # Verbs that prepare without acting: "draft_email" drafts an email.
        " draft drafts compose composes render format parse summarize explain analyze"
        " analyse lint estimate simulate"
    )
)
READ_STEMS = normalized_forms(READ_VERBS)
# Verbs that measure, estimate or follow something without changing it:
# a tool named with one answers a question ("estimate_print_time",
# "track_parcel", "detect_bpm", "predict_yield").
QUERY_VERBS = identifier_forms(
    w(
        "estimate predict forecast detect measure track monitor calculate compute convert"
        " recommend suggest rank lookup locate scan identify"
    )
)

# Verbs whose effect reaches beyond the tool's own data: a message, a
# payment, a publication, an upload.
SIDE_EFFECT_VERBS = identifier_forms(
    w(
        "send sends email emails post posts notify notifies transfer transfers pay withdraw deposit"
        " deploy deploys publish publishes push pushes upload uploads sell buy trade invite share"
        " sync submit submits purchase"
    )
)
SIDE_EFFECT_STEMS = normalized_forms(SIDE_EFFECT_VERBS)


def identifier_words(name: str) -> tuple[str, ...]:
    """``getUserAPIKey`` -> ``("get", "user", "api", "key")``."""
    return tuple(w.lower() for w in _IDENTIFIER_WORD.findall(name))


def singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def first_sentence(normalized: str) -> str:
    head = normalized[:FIRST_SENTENCE_CHARS]
    end = _SENTENCE_END.search(head)
    return head[: end.start()] if end else head


def capabilities(words: Iterable[str]) -> frozenset[str]:
    found: set[str] = set()
    for word in words:
        found |= CAPABILITY_BY_WORD.get(word, frozenset())
        found |= CAPABILITY_BY_WORD.get(singular(word), frozenset())
    return frozenset(found)


def identity_words(tool: Tool, title: str, first: str) -> tuple[str, ...]:
    """Words of what the tool *is*: its name, title, first sentence and server id.

    ``title`` and ``first`` are normalized text.
    """
    return (
        *identifier_words(tool.name),
        *_WHOLE_WORD.findall(title),
        *_WHOLE_WORD.findall(first),
        *identifier_words(tool.server or ""),
    )


# A word of plain letters that is not the piece of a word with marked
# letters: "cholestérol" holds no "rol" (a role, an auth word) and
# "créatinine" no "atinine".
_WHOLE_WORD = re.compile(r"(?<![^\W_])[a-z0-9]+(?![^\W_])")


def declared_capabilities(tool: Tool, identity: Iterable[str]) -> frozenset[str]:
    """The capabilities ``identity`` words name, plus network for ``openWorldHint``."""
    found = set(capabilities(identity))
    annotations = tool.annotations or {}
    if annotations.get("openWorldHint") is True:
        found.add("network")
    return frozenset(found)


def name_verb(words: tuple[str, ...]) -> str | None:
    """The write verb of a name, unless a read verb comes first."""
    for word in words:
        if word in READ_VERBS:
            return None
        if word in WRITE_VERBS:
            return word
    return None


def lead_verb(first: str) -> str | None:
    """The write verb that opens the description ("Permanently deletes ...")."""
    words: list[str] = WORD.findall(first)
    for word in words[:LEAD_WINDOW]:
        if word in READ_STEMS:
            return None
        if word in WRITE_STEMS:
            return word
    return None


# ---------------------------------------------------------------- categories
#
# A session's flow rules sort each tool as read, write, send, compute or
# unknown. Sending is what exfiltration needs, so every doubt leans towards
# it: a write verb on a messaging or network tool is a send.

# Messaging verbs the side-effect list does not hold: "forward_email",
# "reply_to_thread", "tweet", "broadcast_alert" all carry data out.
_SEND_ONLY = identifier_forms(w("mail forward reply tweet broadcast dm webhook"))
SEND_VERBS = SIDE_EFFECT_VERBS | _SEND_ONLY
SEND_STEMS = SIDE_EFFECT_STEMS | normalized_forms(_SEND_ONLY)
_REACHES_OUT = frozenset({"messaging", "network"})
_PURE = frozenset({"compute", "text", "time"})
# Enough of a description to hold its first sentence once normalized.
_DESCRIPTION_HEAD = 2000


def _first_verb(words: Iterable[str], read: frozenset[str], write: frozenset[str]) -> str | None:
    """The first word that is a read, write or send verb, as its kind."""
    for word in words:
        if word in SEND_VERBS or word in SEND_STEMS:
            return "send"
        if word in read:
            return "read"
        if word in write:
            return "write"
    return None


def category(tool: Tool) -> str:
    """``read``, ``write``, ``send``, ``compute`` or ``unknown`` for ``tool``.

    In order: the verb of the name (``read_password`` reads,
    ``send_email`` sends, ``create_page`` writes, ``getUserPosts`` reads:
    a write word after a read verb is a noun); then the annotations
    (``destructiveHint`` writes, ``readOnlyHint`` reads); then the verb
    that opens the description ("Posts a message to ..."); then the
    capability the words declare (pure compute, text or time tools
    compute, lookups read). A write on a messaging or network tool
    (``openWorldHint`` counts) is a send. Anything else is unknown.
    """
    annotations = tool.annotations or {}
    title = normalize(tool.title or "")
    first = first_sentence(normalize((tool.description or "")[:_DESCRIPTION_HEAD]))
    declared = declared_capabilities(tool, identity_words(tool, title, first))
    kind = _first_verb(identifier_words(tool.name), READ_VERBS, WRITE_VERBS)
    if kind is None:
        if annotations.get("destructiveHint") is True:
            kind = "write"
        elif annotations.get("readOnlyHint") is True:
            kind = "read"
        else:
            kind = _first_verb(WORD.findall(first)[:LEAD_WINDOW], READ_STEMS, WRITE_STEMS)
    if kind == "write" and declared & _REACHES_OUT:
        return "send"
    if kind is not None:
        return kind
    if declared and declared <= _PURE:
        return "compute"
    if declared and declared <= NARROW:
        return "read"
    return "unknown"
