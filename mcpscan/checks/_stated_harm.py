"""What a tool's own text says happens to the user's things, against its job.

The declared-malicious clause rule (``_intent_rules._declared_flow``) reads
a data flow: a subject, an act on the user's data, an outside receiver and
something hidden, all in one clause. Many declared harms are no data flow
and are told in two or three sentences: the product charges the card on
file, holds the funds, renews or upgrades a plan, provisions an admin
account, plants a scheduled job, switches off two-factor login or the
audit trail, changes the user's settings, or hands data to partners.

This judgement reads each clause of a string for an **effect** on the
user's things (the lexicon's effect cues, in every lexicon language):

* ``money``: money charged, debited, held, renewed or skimmed
  (``effect:money``, or the user's payment rerouted: ``reroute`` beside
  ``asset:payment``);
* ``access``: access granted or an account created for someone
  (``effect:access``, ``escalate``, ``backdoor``);
* ``persist``: a start-up entry, service or scheduled job (``autostart``);
* ``unprotect``: a protection switched off (a ``protection`` or ``defence``
  noun with a ``switchoff`` verb, or ``weaken``);
* ``settings``: the user's settings, defaults or plan changed
  (``effect:settings``);
* ``partner``: the user's data given to partners (``effect:partner``,
  ``commercial``).

and asks three questions, each from data:

1. **Is it the tool's job?** The effect is read in the tool's purpose (its
   name, title and first sentence: ``ToolScope.purpose_cues``) or is the
   first sentence itself: a billing tool that charges, an access tool that
   grants roles, a hardening tool that changes the firewall. Such an effect
   speaks only when it is also hidden from the user.
2. **Did the user choose it?** A consent, an option, the user's confirmation
   or request in the clause (``consent``, ``optional``, ``usergate``,
   ``deferral``, ``confirm``, ``userchoice``) keeps it quiet; so does a
   negation right before the effect ("never charges the card"), a
   withdrawal, an example, or a security product's threat list.
3. **Is it beyond the user's choice?** It must be stated as unchosen in the
   clause or the one after it: automatic, by default, without consent or
   confirmation (``unchosen``, ``noconfirm``), standing after removal
   (``standing``, ``timebomb``), or kept from the user (``hiddenfact``,
   ``conceal``, ``covert``).

An effect beyond the job and the user's choice is a review
(``intent.declared_malicious``); it is HARD when it is also hidden from the
user, or when money or the user's access goes to an outside receiver.

Leaves alone: "Charges the card on file for the order total" (the job), "If
you opt in, usage statistics are shared with partners" (a choice), "Backups
run nightly to the bucket you configure" (no effect cue, the user's own
destination), "Disables two-factor login for a user; admins only" (an access
tool's job, nothing hidden), "Detects malware that installs a launch agent"
(a threat list).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import regex

from .._capability import WORD, capabilities
from .._instruction import STRING_GATE_CUES, ToolScope, clause_at, negation_spans
from ._intent_rules import DECLARED_MALICIOUS, IntentHit

__all__ = ["CHOSEN", "UNCHOSEN", "ClauseCues", "not_stated", "stated_harm"]

#: One clause of a string: its raw span and its cues.
ClauseCues = tuple[int, int, frozenset[str]]

_PROTECTION_NOUNS = ("protection", "defence")
_OFF_VERBS = ("switchoff", "destructive")


#: The user chose it, or it is asked of them: no harm beyond their choice.
#: A duty the law sets ("rabies reminders are legally required notices and
#: are still sent to clients who opted out of SMS": ``legalduty``) is no
#: one's choice to override either.
CHOSEN = frozenset(
    {"consent", "optional", "usergate", "deferral", "confirm", "userchoice", "legalduty"}
)
#: Not a statement of what the product does: a threat list, an example, a
#: behaviour said to be removed, a warning about untrusted content; or a
#: mute the user picks that says what they still see ("`silent` suppresses
#: push notifications, but alerts are still recorded in the inbox":
#: ``stillkept``), which lowers no protection.
_NOT_STATED = frozenset({"threatword", "example", "untrusted", "stillkept"})
#: Kept from the user.
_HIDDEN = frozenset({"hiddenfact", "conceal", "covert"})
#: Beyond the user's choice: done automatically, without asking, or standing
#: after the user is done with the tool; hidden counts too.
UNCHOSEN = _HIDDEN | {
    "unchosen",
    "noconfirm",
    "standing",
    "timebomb",
    "despitesetting",
    "beyondjob",
}
#: Someone outside the user and the tool's job receives it.
_OUTSIDE = frozenset({"destination", "commercial", "effect:partner", "reroute", "badreceiver"})
#: Data handed on: what makes a partner named a receiver.
_HANDED = frozenset({"transmit", "handover", "retain", "duplicate", "effect:partner"})
#: Effects that, taken by an outsider, take the user's money or doors.
_SEVERE = frozenset({"money", "access"})
#: What ends one part of a clause and starts another.
_PART_BREAK = regex.compile(r"[,;:\uff0c\u3001\u060c]")
#: Every cue that states an effect (``_effects``).
_EFFECT_CUES = STRING_GATE_CUES | {
    "protection",
    "effect:unprotect",
    "defence",
    "weaken",
    "autostart",
    "commercial",
    "escalate",
    "backdoor",
    "reroute",
    "deleted",
    "keptstill",
    "effect:track",
    "optout",
    "keepsending",
}
#: Effects that carry their own mark of being against the user's choice:
#: kept after deletion or tracked beyond the job
#: (``_beyond_keeping_or_tracking``), or sent on after the user opted out.
_OWN_MARK = frozenset({"keep", "track", "optout"})
#: What makes data kept after the user deleted it harm rather than a
#: bounded retention ("deleted messages are kept for 30 days, then purged"
#: stays quiet): someone outside has it, it is kept for another use or
#: without end, or it is hidden.
_KEPT_BEYOND = _OUTSIDE | _HIDDEN | {"standing", "despitesetting", "indefinite", "otheruse"}
#: What makes a record of the user's doings harm rather than the job: it
#: goes beyond the job or the user's choice, lasts without end, is used for
#: something else or handed to someone outside. Hiding is left out: "never
#: show one driver another driver's location history" keeps the record
#: private.
_TRACKED_BEYOND = (UNCHOSEN - _HIDDEN) | _OUTSIDE | {"indefinite", "otheruse"}


def stated_harm(raw: str, clauses: Sequence[ClauseCues], scope: ToolScope) -> Iterator[IntentHit]:
    """Declared harms of one string: at most one hit, at its first clause
    that is beyond both the tool's job and the user's choice (hard if any
    is hidden or goes to an outsider)."""
    # A security product's catalogue of threats ("Persistence: create launch
    # agents that survive uninstallation") describes malware, not itself.
    if any("threatword" in cues for _s, _e, cues in clauses):
        return
    found: IntentHit | None = None
    for index, (start, _end, cues) in enumerate(clauses):
        before = clauses[index - 1][2] if index else frozenset()
        after = clauses[index + 1][2] if index + 1 < len(clauses) else frozenset()
        hit = _judged(raw, start, cues, (before, after), scope)
        if hit is not None and (found is None or (hit.hard and not found.hard)):
            found = hit
    if found is not None:
        yield found


def _judged(
    raw: str,
    start: int,
    cues: frozenset[str],
    around: tuple[frozenset[str], frozenset[str]],
    scope: ToolScope,
) -> IntentHit | None:
    """The clause at ``start`` read for an effect beyond the job and the
    user's choice; the clause after it may say it is unchosen or hidden,
    and the clauses on either side that the user chose it ("the bucket you
    configure. A launch agent starts the backup at login")."""
    before, after = around
    effects = _effects(cues)
    if before & CHOSEN:
        return None
    if not_stated(after):
        # A list of examples or threats after it says nothing of this clause.
        after = frozenset()
    if not effects or (cues | after) & CHOSEN or not_stated(cues):
        return None
    clause = clause_at(raw, start, scope)
    if clause is None:
        return None
    # A mark that is a piece of the effect's own phrase ("auto-renews",
    # "自動起動") says nothing more about it.
    own_marks = _separate_marks(clause.hits) | _side_act(cues)
    marks = own_marks | (after & UNCHOSEN)
    if not _beyond_keeping_or_tracking(effects, cues | after):
        return None
    hidden = bool(marks & _HIDDEN)
    # A start-up entry is automatic by nature: it speaks only when it
    # outlives the tool or is kept from the user.
    if effects == {"persist"} and not marks & (_HIDDEN | {"standing"}):
        return None
    # Stated alone, an effect is what many honest tools describe ("billed
    # per minute", "granted access to the consumer database"): it must be
    # said to be unchosen, standing or hidden, here or in the next clause.
    # Kept after deletion, tracked beyond the job or sent on after an
    # opt-out is its own mark (``_OWN_MARK``).
    beyond = bool(effects & _OWN_MARK)
    if not (marks or beyond or _lowers_protection(cues, scope)):
        return None
    if _negated(clause.text, clause.hits):
        return None
    # An effect that is the tool's job speaks only when it is kept from the
    # user.
    if not (effects - _job_effects(scope)) and not hidden:
        return None
    to_outsider = bool((effects & _SEVERE) and (cues & _OUTSIDE))
    # The confidence comes from weights.json like every intent rule's
    # (``stated-harm``, plus ``harm-hidden`` / ``harm-to-outsider`` for a
    # hard one); the effect names are recorded for the fit. Those weights
    # (0.581, 0.981) are hand priors: ``corpus/fit.py`` does not read this
    # judgement (its ``_hits`` reads the clause rules and ``string_hits``,
    # not ``stated_harm``), so no sample of it has been counted or fitted.
    marks_found = ("harm-hidden",) * hidden + ("harm-to-outsider",) * to_outsider
    return IntentHit(
        rule_id=DECLARED_MALICIOUS,
        features=("stated-harm", *marks_found, *sorted(f"effect:{name}" for name in effects)),
        clause=clause,
        hard=hidden or to_outsider,
    )


#: Who a side act is told of: the product itself ("the tool now also ..."),
#: or every use of it ("any call to this endpoint also ...").
_ACTOR_OR_EVERY_USE = frozenset({"selfref", "every"})


def _side_act(cues: frozenset[str]) -> frozenset[str]:
    """An effect the product does *besides* what it was called for ("when a
    port-out is submitted, the tool now also accepts the win-back offer",
    "any call to this endpoint also switches the filter profile to
    permissive", "besides the forwarding target, the tool adds a
    conference leg"): an addition word (``sideact``: also, additionally,
    besides, in addition, in every lexicon language) told of the product
    or of every use of it marks the effect as nobody's request, like
    "automatically". Leaves alone an addition with no effect on the user's
    money, access, settings or protections ("also returns the thread id"),
    one the user is said to choose ("you can also enable auto-renewal"),
    and one nobody is said to do ("a processing fee is also charged": no
    product, no every-use)."""
    if "sideact" in cues and cues & _ACTOR_OR_EVERY_USE:
        return frozenset({"sideact"})
    return frozenset()


def _beyond_keeping_or_tracking(effects: frozenset[str], cues: frozenset[str]) -> bool:
    """Data kept after the user deleted it, or a record of what the user
    does, is harm only beyond a bounded retention or the job: "records
    deleted by the clinic are kept on our servers and remain available to
    our research partners", "deleted recordings stay in the training set",
    "we record every site the user visits, beyond the campaign". Leaves
    alone "deleted mail is kept for 30 days, then purged", "deleted files
    stay in the trash until you empty it", "location history is shown on
    the trip page". Other effects answer True (they are read as before)."""
    if effects == {"keep"}:
        return bool(cues & _KEPT_BEYOND)
    if effects == {"track"}:
        return bool(cues & _TRACKED_BEYOND)
    if effects == {"keep", "track"}:
        return bool(cues & (_KEPT_BEYOND | _TRACKED_BEYOND))
    return True


def _lowers_protection(cues: frozenset[str], scope: ToolScope) -> bool:
    """A check or a record skipped, said outright (``effect:unprotect``: "not
    checked against the lists", "the audit trail is switched off"), by a
    tool whose job is not protections: no user asks a stock tool to blind
    the audit, so no mark of being unchosen is needed. A protection noun
    beside "off" is not enough ("in silent mode, alert sounds are off" is
    the user's mode)."""
    return "effect:unprotect" in cues and "unprotect" not in _job_effects(scope)


def not_stated(cues: frozenset[str]) -> bool:
    """A threat list, an example, a warning, a behaviour said to be
    removed, or a change said to be undone ("turned off for 10 minutes and
    re-enabled automatically": ``restored``); "is restored if removed",
    "not removed at the end", "not re-enabled" say that something stays
    (``standing``), which is neither."""
    if cues & {"withdrawn", "restored"} and "standing" not in cues:
        return True
    return bool(cues & _NOT_STATED)


def _separate_marks(hits: tuple[tuple[int, int, str], ...]) -> frozenset[str]:
    """The unchosen or hidden marks of a clause that do not overlap an
    effect's phrase."""
    effect_spans = [(s, e) for s, e, cue in hits if cue in _EFFECT_CUES]
    return frozenset(
        cue
        for s, e, cue in hits
        if cue in UNCHOSEN and not any(s < end and start < e for start, end in effect_spans)
    )


def _effects(cues: frozenset[str]) -> frozenset[str]:
    """The kinds of effect on the user's things a clause's cues state."""
    found: set[str] = set()
    if "effect:money" in cues or ("reroute" in cues and "asset:payment" in cues):
        found.add("money")
    if cues & {"effect:access", "escalate", "backdoor"}:
        found.add("access")
    if "autostart" in cues:
        found.add("persist")
    if cues & {"weaken", "effect:unprotect"} or (
        cues & set(_PROTECTION_NOUNS) and cues & set(_OFF_VERBS)
    ):
        found.add("unprotect")
    if "effect:settings" in cues:
        found.add("settings")
    # The user's data kept after they deleted it: a deletion named ("deleted
    # recordings", "after account deletion") with its data still kept
    # ("are kept", "remain available", "are not removed").
    # A deletion beside a word of keeping alone is no such statement: "to
    # permanently delete, delete again from Deleted Items".
    if "deleted" in cues and "keptstill" in cues:
        found.add("keep")
    # The user's doings recorded: sites visited, location history,
    # keystrokes.
    if "effect:track" in cues:
        found.add("track")
    # The user's withdrawal overridden: an opt-out, an unsubscribe or a
    # STOP reply with the messages going on ("are ignored", "still
    # receive", "not removed from future sends").
    if "optout" in cues and "keepsending" in cues:
        found.add("optout")
    # A partner or a sale named with data handed over ("shared with",
    # "licensed to", "copied to"), not a sponsor tag or "targeted search".
    if cues & {"effect:partner", "commercial"} and cues & _HANDED:
        found.add("partner")
    return frozenset(found)


def _job_effects(scope: ToolScope) -> frozenset[str]:
    """The effects the tool's stated job already is: read in its name, title
    and first sentence. A payment tool moves money, a role tool grants
    access, a security tool changes protections."""
    purpose = scope.purpose_cues | scope.name_cues
    job = set(_effects(purpose))
    # The capability check's job inference: an auth, account or role tool
    # manages access; a code or configuration tool changes settings.
    declared = capabilities(WORD.findall(scope.purpose))
    if "auth" in declared:
        job.add("access")
    if "code" in declared:
        job.add("settings")
    if purpose & {"asset:payment", "name:payment"}:
        job.add("money")
    if purpose & {"outward", "transmit", "destination"}:
        job.add("partner")
    if purpose & {"switchoff", "destructive", "defence", "protection"}:
        job.add("unprotect")
    # A backup, archive or retention tool keeps data by trade.
    if purpose & {"retain", "keptstill"}:
        job.add("keep")
    return frozenset(job)


def _negated(text: str, hits: tuple[tuple[int, int, str], ...]) -> bool:
    """A negation before an effect in the same part of its clause ("never
    charges", "no appointment data is shared with advertisers") that is no
    part of a phrase saying it is unchosen or hidden ("without consent",
    "not shown"). A negation before a comma belongs to another part: "if the
    carrier does not respond, it charges the card"."""
    marks = [(s, e) for s, e, cue in hits if cue in UNCHOSEN]
    first_effect = min((s for s, _e, cue in hits if cue in _EFFECT_CUES), default=-1)
    return any(
        end <= first_effect
        and not _PART_BREAK.search(text, end, first_effect)
        and not any(s <= start and end <= e for s, e in marks)
        for start, end in negation_spans(text)
    )
