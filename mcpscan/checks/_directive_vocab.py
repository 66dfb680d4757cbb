"""Shared vocabulary of the imperative-directive rules: the objects an
attacker wants (sensitive targets), the places data is smuggled to
(destinations), and the verbs that move data.

Each list is plain language; ``alt`` normalizes it at import time. The lists
are deliberately split by strength: a specific secret file (``id_rsa``) is
worth flagging as the object of any instruction, while a generic noun
("token", "password") is only suspicious with a bulk quantifier ("all
tokens"), because legitimate auth tools ask for "your API key" all the time.
"""

from __future__ import annotations

from ._directive_text import B, E, alt

__all__ = [
    "ACT_VERBS",
    "BULK_CONVERSATION",
    "DEST",
    "EXTERNAL_DEST",
    "MODEL_CONVERSATION",
    "MODEL_CONVERSATION_NOUNS",
    "NEGATION",
    "PARAM_REF",
    "PRONOUN_OBJECT",
    "REQUEST_PART",
    "SECRET_FILE",
    "SECRET_NOUNS",
    "STRONG_TARGET",
    "STRONG_TARGET_ANCHORS",
    "TARGET",
    "TRANSFER_VERBS",
    "TRANSMIT_VERBS",
    "WEAK_TARGET_ANCHORS",
    "WEAK_TARGET_BULK",
]

# --- Sensitive files and paths -------------------------------------------
# Catches: "read ~/.ssh/id_rsa", "cat /etc/passwd", "include .env".
# Must not catch: public keys (id_rsa.pub), templates (.env.example) or
# "process.env" in code (the boundary before ".env" refuses a word char).
SECRET_PATHS = (
    "~/.ssh",
    ".ssh/",
    "/.ssh",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    "id rsa",
    "id ed25519",
    "authorized_keys",
    "~/.aws",
    ".aws/credentials",
    ".aws/config",
    "/etc/passwd",
    "/etc/shadow",
    "/etc/sudoers",
    "mcp.json",
    "claude_desktop_config.json",
    "mcp_config.json",
    "mcp_settings.json",
    "~/.cursor",
    ".cursor/",
    ".npmrc",
    ".pypirc",
    ".netrc",
    "_netrc",
    ".git-credentials",
    ".docker/config.json",
    ".kube/config",
    "kubeconfig",
    ".gnupg",
    "wallet.dat",
    ".bash_history",
    ".zsh_history",
    "cookies.sqlite",
    "login data",
    "application_default_credentials.json",
    "credentials.json",
    "service-account.json",
    ".vault-token",
    ".pgpass",
    "/proc/self/environ",
    ".env",
    ".config/gh/hosts.yml",
    ".terraformrc",
    "terraform.tfstate",
    ".azure/",
    "~/.azure",
    ".boto",
    ".s3cfg",
    ".dockercfg",
    "secrets.yaml",
    "secrets.yml",
    "secrets.json",
    "keystore.jks",
    ".keystore",
    "private.key",
    "private.pem",
    ".htpasswd",
    "/etc/ssl/private",
    "wp-config.php",
    "master.key",
    ".password-store",
    "keychain-db",
    "login.keychain",
)

# A path that climbs three or more directories ("../../../etc") is path
# traversal when an instruction points at it; two levels is ordinary
# relative-path documentation.
_TRAVERSAL = r"(?:\.\.[/\\]){3,}"

# Commands that fetch and execute remote code or open a shell back to an
# attacker. As the object of an instruction ("run curl ... | sh") they are a
# coerced side action; a shell tool merely saying it runs commands has no
# such object.
_DANGEROUS_COMMAND = (
    r"(?:curl|wget|iwr|invoke-webrequest)\b[^|\n]{0,160}?\|\s?(?:sudo )?(?:ba|z|da|k|fi)?sh\b"
    r"|/dev/tcp/"
    r"|\bnc(?: -\w+){0,3} -e\b"
    r"|\bbash -i\b"
    r"|\brm -rf (?:/|~|\$home)(?=[\s'\"]|$)"
)

# Nouns naming secrets or the model's private context.
SECRET_NOUNS_STRONG = (
    "ssh key",
    "ssh keys",
    "ssh private key",
    "private key",
    "private keys",
    "seed phrase",
    "recovery phrase",
    "secret recovery phrase",
    "mnemonic phrase",
    "wallet seed",
    "crypto wallet",
    "cryptocurrency wallet",
    "browser cookies",
    "session cookies",
    "cookie jar",
    "saved passwords",
    "stored passwords",
    "browser passwords",
    "password vault",
    "keychain",
    "system prompt",
    "system message",
    "system instructions",
    "your instructions",
    "your initial instructions",
    "your original instructions",
    "the instructions you were given",
    "your hidden instructions",
    "developer message",
    "hidden prompt",
    "environment variables",
    "environment variable",
    "env vars",
    "env variables",
    "process.env",
    "os.environ",
    "printenv",
    "shell history",
    "command history",
    "bash history",
    "aws credentials",
    "cloud credentials",
    "the user's cookies",
    "user's cookies",
    "browser profile",
    "browser data",
    "saved logins",
    "password manager",
)

# The conversation between the user and the model is private context the
# user shared with the model, not with every tool server. Only phrases that
# point at *this* conversation count as a target on their own ("the
# conversation so far", "the user's previous messages"): a Slack tool that
# "returns the previous messages in a channel" is doing its job.
MODEL_CONVERSATION_NOUNS = (
    "this conversation",
    "our conversation",
    "the current conversation",
    "the conversation so far",
    "conversation so far",
    "entire conversation",
    "whole conversation",
    "full conversation",
    "complete conversation",
    "entire conversation history",
    "full conversation history",
    "complete conversation history",
    "whole conversation history",
    "entire chat history",
    "full chat history",
    "complete chat history",
    "entire chat",
    "full chat",
    "whole chat",
    "the whole chat",
    "this chat",
    "this chat session",
    "the chat so far",
    "your conversation with the user",
    "the user's previous messages",
    "the user's earlier messages",
    "the user's messages",
    "user's previous messages",
    "all prior messages",
    "all previous messages",
    "all earlier messages",
    "everything the user has said",
    "everything the user said",
    "context window",
    "your context window",
    "previous conversation turns",
    "prior conversation turns",
    # Each message rather than the whole: "forward every user message".
    "every user message",
    "each user message",
    "all user messages",
    "every message the user sends",
    "every message from the user",
    "each message from the user",
    "every prompt the user sends",
    "the user's prompts",
    "every user prompt",
    "all user prompts",
)

# Generic conversation nouns: a target only when they are routed into a
# parameter or sent out ("pass the chat history in the notes field").
GENERIC_CONVERSATION_NOUNS = (
    "conversation history",
    "chat history",
    "message history",
    "conversation log",
    "conversation logs",
    "chat log",
    "chat logs",
    "conversation transcript",
    "chat transcript",
    "previous messages",
    "prior messages",
    "earlier messages",
    "the conversation",
    "all messages",
)

# Generic secrets: suspicious only in bulk ("all API keys", "every token").
WEAK_SECRET_NOUNS = (
    "api key",
    "api keys",
    "apikey",
    "access key",
    "access keys",
    "secret key",
    "secret keys",
    "access token",
    "access tokens",
    "auth token",
    "bearer token",
    "refresh token",
    "session token",
    "token",
    "tokens",
    "password",
    "passwords",
    "passphrase",
    "credential",
    "credentials",
    "secret",
    "secrets",
    "cookie",
    "cookies",
    "wallet",
    "wallets",
)

_BULK_QUANTIFIER = alt(
    "all",
    "all of the",
    "all the",
    "every",
    "each",
    "any",
    "all your",
    "all of your",
    "the user's saved",
    "the user's stored",
    "your saved",
    "your stored",
    "your cached",
    "all stored",
    "all saved",
    "all cached",
    "all available",
    "all local",
    "every stored",
    "every saved",
)

# The rest of the token a target sits in: a closing quote, "`,", or the
# variable name after "process.env". Possessive (no backtracking), and it
# stops at unspaced scripts so "id_rsa并发送" keeps its verb.
_TOKEN_TAIL = r"[^\s'\"`”»\u2e80-\U0010ffff]{0,80}+['\"`”»)>]?+"
_NOT_SECRET_FILE = r"(?![\w.-]{0,40}\.(?:pub|example|sample|template|dist)\b)"

# A target may be quoted or in a code span: "read `~/.ssh/id_rsa`".
_OPEN_QUOTE = r"(?:['\"`“«(<]\s?)?"

# The directories in front of a secret file: "~/", "/home/alice/", "$HOME/",
# and globs ("/home/*/"), which name every user's copy of the file.
# It starts a token (never inside a word) and each directory is matched
# possessively, so a failed prefix costs one step per character and at most
# eight directories are given back.
_PATH_PREFIX = r"(?:(?<![^\s'\"`“«(<=:,;])(?:[~\w.$%*-]{0,40}+/){1,8})?"

STRONG_TARGET = (
    rf"{_OPEN_QUOTE}(?:{_PATH_PREFIX}{B}{alt(*SECRET_PATHS)}(?![\w-]){_NOT_SECRET_FILE}"
    rf"|{_TRAVERSAL}|{_DANGEROUS_COMMAND}"
    rf"|{B}{alt(*SECRET_NOUNS_STRONG)}{E}){_TOKEN_TAIL}"
)
_MODEL_CONVERSATION_WORDS = alt(*MODEL_CONVERSATION_NOUNS)
_ANY_CONVERSATION_WORDS = alt(*MODEL_CONVERSATION_NOUNS, *GENERIC_CONVERSATION_NOUNS)
#: Secret files and dangerous commands only: language-neutral objects, for
#: the rules of other languages (which bring their own nouns).
SECRET_FILE = (
    rf"{_OPEN_QUOTE}(?:{_PATH_PREFIX}{B}{alt(*SECRET_PATHS)}(?![\w-]){_NOT_SECRET_FILE}"
    rf"|{_TRAVERSAL}|{_DANGEROUS_COMMAND}){_TOKEN_TAIL}"
)
MODEL_CONVERSATION = rf"{_OPEN_QUOTE}(?:{B}{_MODEL_CONVERSATION_WORDS}{E}){_TOKEN_TAIL}"
BULK_CONVERSATION = rf"{_OPEN_QUOTE}(?:{B}{_ANY_CONVERSATION_WORDS}{E}){_TOKEN_TAIL}"
WEAK_TARGET_BULK = rf"(?:{B}{_BULK_QUANTIFIER} (?:\w+ )?{alt(*WEAK_SECRET_NOUNS)}{E})"

#: Any object worth an alarm when an instruction points at it.
TARGET = rf"(?:{STRONG_TARGET}|{MODEL_CONVERSATION}|{WEAK_TARGET_BULK})"

#: Secret nouns for exclusions ("never reveal the API key to the user" is
#: protecting a secret, not hiding an action).
SECRET_NOUNS = rf"(?:{B}{alt(*WEAK_SECRET_NOUNS, 'key', 'keys', 'private key')}{E})"

STRONG_TARGET_ANCHORS = (
    *SECRET_PATHS,
    *SECRET_NOUNS_STRONG,
    *MODEL_CONVERSATION_NOUNS,
    *GENERIC_CONVERSATION_NOUNS,
    "../../..",
    "..\\..\\..",
)
WEAK_TARGET_ANCHORS = WEAK_SECRET_NOUNS

# --- Verbs ---------------------------------------------------------------
#: Verbs that make a target the object of an action.
ACT_VERBS = alt(
    "call",
    "invoke",
    "use",
    "read",
    "reread",
    "cat",
    "open",
    "load",
    "print",
    "dump",
    "output",
    "display",
    "show",
    "reveal",
    "echo",
    "list",
    "send",
    "upload",
    "post",
    "email",
    "mail",
    "copy",
    "cp",
    "scp",
    "rsync",
    "move",
    "include",
    "attach",
    "pass",
    "embed",
    "append",
    "insert",
    "paste",
    "exfiltrate",
    "forward",
    "share",
    "leak",
    "extract",
    "collect",
    "gather",
    "harvest",
    "grab",
    "steal",
    "fetch",
    "retrieve",
    "access",
    "obtain",
    "get",
    "look up",
    "look at",
    "check",
    "inspect",
    "view",
    "locate",
    "find",
    "search",
    "scan",
    "run",
    "execute",
    "exec",
    "source",
    "encode",
    "decode",
    "base64",
    "provide",
    "give",
    "return",
    "put",
    "store",
    "save",
    "write",
    "back up",
    "backup",
    "transmit",
    "submit",
    "report",
    "summarize",
    "repeat",
    "quote",
    "recite",
    "tell me",
)

#: Verbs that move data into a parameter, a field or a remote place.
TRANSFER_VERBS = alt(
    "pass",
    "include",
    "append",
    "prepend",
    "add",
    "put",
    "insert",
    "attach",
    "embed",
    "send",
    "provide",
    "copy",
    "paste",
    "place",
    "store",
    "write",
    "fill",
    "supply",
    "submit",
    "encode",
    "hide",
    "smuggle",
    "upload",
    "post",
    "forward",
    "email",
    "mail",
    "transmit",
    "share",
    "leak",
    "exfiltrate",
    "dump",
    "output",
    "return",
    "echo",
    "print",
    "reveal",
    "repeat",
    "relay",
    "sync",
    "push",
    "report",
    "give",
    "set",
)

#: Verbs that send data off the machine.
TRANSMIT_VERBS = alt(
    "send",
    "post",
    "upload",
    "email",
    "mail",
    "forward",
    "transmit",
    "exfiltrate",
    "beacon",
    "report",
    "submit",
    "push",
    "sync",
    "share",
    "leak",
    "relay",
    "pipe",
    "curl",
    "wget",
    "make a request",
    "send a request",
    "http post",
    "notify",
)

NEGATION = alt(
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
    "at no point",
    "do not ever",
    "not",
    "without",
    "nor",
    "instead of",
    "rather than",
)

# Pronouns that carry a target already named earlier in the sentence:
# "read ~/.ssh/id_rsa and pass its contents as ...".
PRONOUN_OBJECT = alt(
    "it",
    "them",
    "its content",
    "its contents",
    "their content",
    "their contents",
    "the content",
    "the contents",
    "the file",
    "the key",
    "the keys",
    "the output",
    "the result",
    "the results",
    "the value",
    "the values",
    "the text",
    "this",
    "that",
    "those",
    "these",
    "everything",
    "all of it",
    "the whole thing",
    "the full text",
    "the data",
    "the full content",
    "the entire content",
    "the entire file",
    "the whole file",
)

# --- Destinations ----------------------------------------------------------
URL = r"(?:(?:https?|ftp|wss?)://[^\s'\"<>]{1,200})"
EMAIL = r"(?:[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,5})"
IP_ADDRESS = r"(?:\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b)"

_PARAM_NOUNS = alt(
    "parameter",
    "parameters",
    "param",
    "params",
    "argument",
    "arguments",
    "arg",
    "args",
    "field",
    "fields",
    "property",
    "input",
    "variable",
    "attribute",
    "slot",
)

# Free-form parameters that tool-poisoning attacks use as a covert channel.
_SINKS = alt(
    "sidenote",
    "side note",
    "side_note",
    "note",
    "notes",
    "context",
    "metadata",
    "meta",
    "debug",
    "debug info",
    "extra",
    "extras",
    "feedback",
    "reasoning",
    "comment",
    "comments",
    "annotation",
    "annotations",
    "remark",
    "remarks",
    "details",
    "memo",
    "scratchpad",
    "log",
    "logs",
    "trace",
    "additional info",
    "additional_info",
    "additional context",
    "hidden field",
    "footer",
    "signature",
    "alt text",
    "user agent",
    "query string",
)

_DEST_PREPOSITION = alt(
    "in", "into", "as", "to", "inside", "within", "via", "through", "under", "using", "for"
)
_DETERMINER = alt("the", "a", "an", "your", "this", "that", "its", "their", "our")

_REMOTE_PLACE = alt(
    "server",
    "endpoint",
    "webhook",
    "url",
    "host",
    "address",
    "domain",
    "api",
    "inbox",
    "mailbox",
    "bucket",
    "ip",
    "service",
    "site",
    "collector",
    "channel",
)
_REMOTE_QUALIFIER = alt(
    "our",
    "my",
    "the following",
    "this",
    "that",
    "a remote",
    "the remote",
    "an external",
    "the external",
    "the attacker's",
    "a third-party",
    "the backup",
    "our backup",
    "the collection",
    "our collection",
    "the logging",
    "our logging",
    "the analytics",
    "our analytics",
    "the telemetry",
    "our telemetry",
    "the audit",
    "our audit",
    "the central",
    "our central",
)

#: Somewhere off the machine: a URL, an e-mail address, an IP, "our server".
EXTERNAL_DEST = (
    rf"(?:{alt('to', 'at', 'into', 'onto', 'via', 'using', 'with')} "
    rf"(?:{URL}|{EMAIL}|{IP_ADDRESS}|{_REMOTE_QUALIFIER} (?:\w+ )?{_REMOTE_PLACE}{E}))"
)

#: Places in a request: fine for a user's own API key ("include your key in
#: the header"), a covert channel for a secret file or the conversation.
_REQUEST_KINDS = alt("request", "http", "post", "outgoing", "api", "next")
_REQUEST_PARTS = alt(
    "body",
    "payload",
    "header",
    "headers",
    "url",
    "query string",
    "request",
    "message",
    "response",
    "answer",
    "reply",
    "output",
    "commit message",
    "pr body",
    "pull request",
    "issue",
    "comment",
)
REQUEST_PART = (
    rf"(?:{_DEST_PREPOSITION} (?:{_DETERMINER} )?(?:{_REQUEST_KINDS} )?{_REQUEST_PARTS}{E})"
)

#: A parameter, a covert sink field, or an external place.
#: A named parameter: "the 'notes' parameter", "the `context` field",
#: "sidenote" (a free-form field attacks use as a covert channel).
PARAM_REF = (
    rf"(?:{_DETERMINER} )?(?:['\"`]?(?P<param>[\w.-]{{1,40}}+)['\"`]? {_PARAM_NOUNS}{E}"
    rf"|['\"`]?(?P<param>{_SINKS})['\"`]?(?!\w))"
)

DEST = rf"(?:{_DEST_PREPOSITION} {PARAM_REF}|{EXTERNAL_DEST})"
