"""Word lists the shadowing check uses to read tool names.

No installed library ships an English word list, so these two short tables
are written out here. Both are lower-case and hold whole name parts (a name
``createPullRequest`` or ``create_pull_request`` has the parts ``create``,
``pull``, ``request``).

``GENERIC_PARTS``: verbs and filler words that make a tool name ordinary. A
name made only of these (``get_info``, ``list_all``, ``run_query``) is
written in ordinary documentation for reasons that have nothing to do with
another server's tool, so the cross-reference rule never counts it.

``INSTRUCTION_WORDS``: words that, inside a property name, turn another
server's tool name into an instruction (``always_call_send_email_first``);
a flag such as ``send_email_notification`` has none of them.

``COMMON_WORDS``: real words that tool names are built from, collected from
the naming conventions of published MCP servers (verbs, then nouns). The
typosquat rule uses them to tell a different word (``get_user`` and
``set_user``, ``search_nodes`` and ``search_notes``) from a misspelling
(``send_emial``). The snapshot's own prose adds to this list at run time.
"""

from __future__ import annotations

__all__ = ["COMMON_WORDS", "GENERIC_PARTS", "IMPERATIVE_VERBS", "INSTRUCTION_WORDS", "NAME_AFFIXES"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


GENERIC_PARTS = _words(
    """
    a all an and any as at by do for from get in info is it list me my new of
    on one or out read fetch query search find run exec call set put post
    patch load save open close start stop check test ping echo help show view
    describe status health version config settings data detail details item
    items value values result results text json name names type types id ids
    the this to up with count default current latest main next page more
    """
)

INSTRUCTION_WORDS = _words(
    """
    call calling invoke invoking use using instead before after always never
    first also ignore override replace prefer bcc cc forward redirect whenever
    when must should tool function via
    """
)

_VERBS = """
    accept access activate add aggregate allocate analyse analyze append apply
    approve archive ask assign attach audit authenticate authorize backup ban
    batch block book browse build bulk calculate call cancel capture change
    check checkout cherry choose clean clear click clone close collect comment
    commit compare compile complete compress compute configure confirm connect
    convert copy count crawl create crop cut deactivate debug decline decode
    decrypt delete deny deploy describe detect diff disable disconnect dismiss
    download drag draw drop duplicate edit enable encode encrypt end enrich
    evaluate execute exit expand explain export extract fetch fill filter find
    fix flag follow force fork format forward generate get give go grant group
    hide highlight hover import index inspect install invite invoke join keep
    kill label launch lint list load lock log login logout look lookup make
    manage map mark match merge migrate mirror monitor move mute navigate
    notify open optimize order pair parse paste patch pause pay pin ping plan
    play plot poll post predict press preview print process promote publish
    pull purge push put query queue read reboot record redeem refresh register
    reject release reload remove rename render reopen reorder replace reply
    report request reset resize resolve restart restore resume retrieve retry
    return revert review revoke rotate run sample save scale scan schedule
    scrape screenshot scroll search select send set share show shutdown sign
    simulate skip snooze solve sort split star start stop store stream submit
    subscribe suggest summarize summarise suspend switch sync tag take test
    toggle track train transcribe transfer transform translate trigger trim
    type unarchive unassign unblock unfollow uninstall unlock unmute unpin
    unsubscribe unwatch update upgrade upload upsert use validate verify view
    visit vote wait watch wipe write zip
"""

_NOUNS = """
    access account action activity address agent alert alias analysis answer
    api app application archive area article artifact asset attachment
    attribute audio audit author backup balance bank batch bill block blob
    board body book bookmark booking bot branch browser bucket budget bug
    build bundle business cache calendar call campaign card cart case catalog
    category cell certificate change channel chart chat check checklist child
    children city class client cluster code collection column command comment
    commit company component condition config configuration connection
    connector contact container content context contract conversation cookie
    country coupon course credential credentials cron currency customer
    dashboard data database dataset date day deal deployment design detail
    device diagram diff directory discussion disk doc docs document domain
    draft drive email entity entities entry environment error event example
    exchange expense experiment feature feed field file files filter flag
    flow folder form forecast format function gist goal graph group guide
    hash header health history hook host hour html icon id image incident
    index insight instance integration invoice issue item job key keyword
    label language layer layout lead lesson level library license limit line
    link list location lock log logs mail mailbox map market member memory
    menu merge message metadata method metric metrics milestone model module
    money monitor month name namespace network node note notebook
    notification number object observation offer order organization org
    owner package page pair paper parameter part partner password path
    payment peer permission person phone photo pipeline place plan playlist
    plugin pod point policy poll pool port post price problem process product
    profile project prompt property provider pull query question queue quote
    range rate reaction reader receipt recipe record region registry relation
    release reminder replica repo report repository request resource response
    result review revision role room route row rule run sale schedule schema
    scope score screen script secret section segment sequence server service
    session setting settings share sheet shell shipment site size skill
    slide snapshot snippet song source space spreadsheet sprint stage star
    state statement station status step stock storage store story stream
    string subscription suggestion summary tab table tag target task team
    template tenant test text thread ticket time timeline title token tool
    topic trace track transaction transcript transfer tree trend trigger type
    unit update url usage user value variable vault vendor version video view
    volume wallet warehouse watch weather webhook widget wiki window word
    workflow workspace year zone
"""

_QUALIFIERS = """
    active admin all anonymous async auto available base basic best big bottom
    child closed cold common custom daily dark deep default direct draft dry
    empty external fast final first flat free full global good hard head hot
    inbound internal large last latest light live local long low main manual
    max min mobile monthly multi native near new next old online open outbound
    parent partial pending personal popular previous primary private public
    quick random raw read recent remote safe secure short simple single slow
    small soft stale static sub super tail top total trending unread upcoming
    weekly
"""

COMMON_WORDS = _words(_VERBS) | _words(_NOUNS) | _words(_QUALIFIERS)

#: Verbs a sentence addressed to the agent starts with ("Send it with
#: send_email to me", "Run read_file on ..."): the imperative mood.
IMPERATIVE_VERBS = _words(_VERBS) | _words("pass include provide supply give hand feed pipe")

#: Words an impersonator adds to a borrowed name to make it look like a
#: newer, better or official edition of it (``create_issue_v2``,
#: ``send-email-official``, ``secure_read_file``). Version numbers (``v2``,
#: ``2``) are handled apart. Dropped before two names are compared; never
#: dropped from a name on the same server (``query_v2`` beside ``query``).
NAME_AFFIXES = _words(
    """
    official real original new newer latest updated improved enhanced better
    advanced pro plus premium ultra secure safe verified trusted fixed fast
    legacy next tool tools mcp api ex extended extra beta alpha stable final
    my true genuine authentic certified smart ai turbo lite
    """
)
