"""The live feed of a campaign (issue 32, docs/live.md): what happens at the table, as it happens.

The campaign's events (campaigns.models.LiveEvent: a roll made, a secret roll shared, a play
record's turn changed) are rows written in the same transaction as what they tell. After the
commit, ``publish`` wakes the web processes: through Redis pub/sub when LIVE_REDIS_URL is set
(several web nodes), and always the process's own hub (campaigns/table/live_hub.py), which without
Redis also polls the newest event id every LIVE_POLL_SECONDS so that events written by another
process (a Celery worker, a second server) arrive too.

A subscriber is sent the events after its cursor that its user may see (the roll log's own rule,
as LiveEvent.objects.visible_to), each rendered for that user, so what the feed shows equals what
the page shows: read by itself while it catches up (``render_batch``), then by the hub once for
all the campaign's subscribers of the process (``render_for``), with the same result. The
cursor a client holds is the random ``public_id`` of the last event it was sent (the SSE id, sent
back as Last-Event-ID on reconnection): nothing missed, nothing twice, and no count of the events
it may not see.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.template.loader import render_to_string
from django.utils import timezone

from campaigns.models import (
    HIDDEN_ROLLS,
    HIDDEN_TOPICS,
    Campaign,
    LiveEvent,
    Membership,
    Role,
    Roll,
    seen_by_members,
)

log = logging.getLogger(__name__)

#: The roll log line's relations.
_LINE_RELATED = ("roller", "mission", "character", "proof")
#: The first key of the advisory lock that orders a campaign's events (PostgreSQL).
LOCK_SPACE = 3232
#: At most this many events go out in one batch; the rest follow at once.
BATCH = 100


def topic_of(kind: str, pk: int) -> str:
    """A play record's live topic: the SSE event name its panel listens for ("d6-encounter-5")."""
    return f"{kind}-{pk}"


def publish_roll(roll: Roll, *, revealed: bool = False) -> None:
    """A roll was made (or a secret one shared): tell the table once the transaction commits."""
    _publish(roll.campaign_id, LiveEvent.Kind.REVEAL if revealed else LiveEvent.Kind.ROLL, roll=roll)


def roll_made(roll: Roll) -> Roll:
    """publish_roll for a system's own roll rows, in line: ``return live.roll_made(Roll.objects...)``."""
    publish_roll(roll)
    return roll


def publish_change(campaign_id: int, topic: str) -> None:
    """A play record changed (a turn passed, an event was recorded, a mission was published, a
    draft finalised): its panels refresh, for every member who may see the topic."""
    _publish(campaign_id, LiveEvent.Kind.CHANGE, topic=topic)


def publish_ready(campaign_id: int, topic: str, recipients) -> None:
    """Something one member asked for is ready (a sheet rendered, an export written; usually told
    by a Celery worker): each recipient's pages listening for the topic refresh, and no one else
    is sent the event, the GM included (an event of one's own: LiveEvent.recipient). ``recipients``:
    user ids; None and repeats are dropped."""
    for user_id in sorted({pk for pk in recipients if pk is not None}):
        _publish(campaign_id, LiveEvent.Kind.READY, topic=topic, recipient_id=user_id)


def character_finalized(sender, character, **kwargs) -> None:
    """characters.signals.finalized: a draft page open on the character reloads as its sheet. The
    draft's page is its owner's and the GMs' (characters.access.can_see), so they alone are told."""
    gms = Membership.objects.filter(campaign_id=character.campaign_id, role=Role.GM).values_list(
        "user_id", flat=True
    )
    readers = [character.owner_id, *gms]
    publish_ready(character.campaign_id, topic_of("character", character.pk), readers)


def _publish(
    campaign_id: int, kind: str, *, roll: Roll | None = None, topic: str = "", recipient_id: int | None = None
) -> None:
    event = LiveEvent(campaign_id=campaign_id, kind=kind, roll=roll, topic=topic, recipient_id=recipient_id)
    with transaction.atomic(savepoint=False):  # a worker's write has no transaction around it
        if connection.vendor == "postgresql":
            # Events of one campaign commit in the order of their ids (held to the commit), so a
            # reader that saw id n never later finds a smaller one appear. SQLite writes one at a
            # time anyway.
            event.id = _insert_in_order(event)
        else:
            event.save(force_insert=True)
        transaction.on_commit(lambda: notify(campaign_id, event.id))


def _insert_in_order(event: LiveEvent) -> int:
    """Store the event once its campaign's ordering lock is held, in one statement (PostgreSQL):
    the lock is taken in a subquery that is evaluated before the row's id is drawn from the
    sequence (OFFSET 0 keeps it a subquery of its own). One round trip where the lock and the
    INSERT were two, on every roll. Returns the event's id."""
    fields = [field for field in LiveEvent._meta.concrete_fields if not field.primary_key]
    values = [field.get_db_prep_save(field.pre_save(event, True), connection) for field in fields]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    typed = ", ".join(f"%s::{field.cast_db_type(connection)}" for field in fields)
    sql = (
        f"INSERT INTO {quote(LiveEvent._meta.db_table)} ({columns}) SELECT {typed} "
        f"FROM (SELECT pg_advisory_xact_lock(%s, %s) OFFSET 0) AS ordered RETURNING {quote('id')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*values, LOCK_SPACE, event.campaign_id % 2**31])
        return int(cursor.fetchone()[0])


#: The Redis pub/sub channel every node's hub listens on (campaigns/table/live_hub.py).
CHANNEL = "dossier:live"
#: What wakes this process's own open streams when an event commits: ``listener(campaign_id, seq)``.
#: The hub (campaigns/table/live_hub.py) adds itself when it is imported, so a process that serves no
#: stream (a Celery worker, a management command) has none, and this module imports no hub.
local_listeners: list[Callable[[int, int], None]] = []


def notify(campaign_id: int, seq: int) -> None:
    """Wake the subscribers of the campaign: this process's directly, other processes through
    Redis (when set; without it they find the event on their next poll)."""
    for listener in local_listeners:
        listener(campaign_id, seq)
    url = settings.LIVE_REDIS_URL
    if not url:
        return
    try:
        _redis(url).publish(CHANNEL, f"{campaign_id}:{seq}")
    except Exception:  # the event is in the database: the nodes' safety poll still brings it
        log.warning("live: could not publish event %s of campaign %s to Redis", seq, campaign_id)


_clients: dict[str, object] = {}


def _redis(url: str):
    import redis

    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return client


# --- reading -----------------------------------------------------------------------------------------
def latest_public_id(user, membership: Membership) -> int:
    """The cursor a page is drawn with: the newest event this member may see (0: none yet)."""
    newest = LiveEvent.objects.visible_to(user, membership).order_by("-id").values("public_id").first()
    return newest["public_id"] if newest else 0


def keep_connection() -> None:
    """Ready this thread's database connection for a live read, keeping it open between reads.

    The live reads run in the event loop's fixed pool of threads (sync_to_async, not
    thread-sensitive), never inside a transaction, so each thread keeps one connection for good:
    ``close_old_connections`` would close it after every read when CONN_MAX_AGE is 0 (SQLite's
    default here), and opening one (its PRAGMAs and functions) cost more than the read itself
    (bench/live.py). A connection that raised an error is checked and replaced if broken."""
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        if conn.connection is not None and conn.errors_occurred:
            if conn.is_usable():
                conn.errors_occurred = False
            else:
                conn.close()


def newest_seq() -> int:
    newest = LiveEvent.objects.order_by("-id").values_list("id", flat=True).first()
    return newest or 0


def resolve_cursor(campaign_id: int, public_id: str | None) -> int | None:
    """The feed position a client's cursor names: 0 for "0" (from the start), None for one this
    campaign never issued (the client then starts from now)."""
    if public_id is None or not public_id.strip().isdigit():
        return None
    value = int(public_id.strip())
    if value == 0:
        return 0
    return (
        LiveEvent.objects.filter(campaign_id=campaign_id, public_id=value)
        .values_list("id", flat=True)
        .first()
    )


@dataclass
class Batch:
    text: str  # the SSE text to send ("" when nothing is new for this subscriber)
    seq: int  # the feed position read up to (past the events this subscriber may not see)
    member: bool  # False once the user has left the campaign: the stream ends
    more: bool = False  # the reading stopped at BATCH events: more wait after ``seq``


@dataclass
class Reader:
    """A subscriber of a campaign's feed as a reading sees it: who, from where, with what request
    (the GM's lines carry the share form, with a CSRF token masked from the reader's cookie)."""

    user: Any
    seq: int
    request: Any = None


def render_batch(user, campaign_id: int, after: int, request=None) -> Batch:
    """The SSE messages for this user of the events after ``after``, each rendered for the user.

    A roll is sent as its roll log line (``event: roll``, the line with id roll-<pk>: the client
    puts a new one on top and replaces one it has, so a secret roll shared later updates in place);
    a change as the topic's event name. Several events of one roll in a batch go out once, as the
    roll stands now."""
    return render_for(campaign_id, [Reader(user, after, request)])[0]


def render_for(campaign_id: int, readers: list[Reader]) -> list[Batch]:
    """``render_batch`` for every reader of a campaign woken by the same news, in one reading.

    The hub (campaigns/table/live_hub.py) calls this once per wake for all the streams of a campaign it
    holds: a table woken by a roll costs one membership query, one events query and one rolls
    query, however many of its members are connected. The readers fall into audiences: the GM,
    and everyone else, who all see the same lines (the roll log's rule: SEEN_BY_MEMBERS) unless
    the system hides rolls or topics from some members, in which case each such reader is an
    audience of their own and their rolls are read with the log's own query (``log_lines``). Each
    line is rendered once per audience.
    Returns a batch per reader, in order."""
    memberships = _memberships(campaign_id, {reader.user.pk for reader in readers})
    present = [reader.seq for reader in readers if reader.user.pk in memberships]
    if not present:
        return [Batch("", reader.seq, False) for reader in readers]
    # Every event after the earliest cursor (up to BATCH); which of them each reader may see is the
    # roll log's own rule, read in the same query as the lines' rolls, and the system's hidden
    # topics: as LiveEvent.objects.visible_to.
    events = list(
        LiveEvent.objects.filter(campaign_id=campaign_id, id__gt=min(present))
        .order_by("id")
        .values_list("id", "public_id", "roll_id", "topic", "recipient_id")[:BATCH]
    )
    more = len(events) == BATCH
    last_seq = events[-1][0] if events else 0
    roll_ids = {roll_id for _, _, roll_id, _, _ in events if roll_id}
    last_of_roll = {roll_id: seq for seq, _, roll_id, _, _ in events if roll_id}
    # The batch's rolls as the GM sees them, read once: the members' audience takes those the
    # roll log's rule shows them (seen_by_members, SEEN_BY_MEMBERS's twin for a roll in hand).
    every_roll: dict[int, Roll] | None = None
    audiences: dict[Any, _Audience] = {}
    batches = []
    for reader in readers:
        membership = memberships.get(reader.user.pk)
        if membership is None:
            batches.append(Batch("", reader.seq, False))
            continue
        if not events or reader.seq >= last_seq:
            batches.append(Batch("", max(reader.seq, last_seq), True, more))
            continue
        key = _audience_key(reader.user, membership)
        audience = audiences.get(key)
        if audience is None:
            if every_roll is None and key in ("gm", "member"):
                every_roll = _by_pk(_lines_of(Roll.objects.filter(campaign_id=campaign_id)), roll_ids)
            if key == "gm":
                shown = every_roll
            elif key == "member":
                shown = {pk: roll for pk, roll in (every_roll or {}).items() if seen_by_members(roll)}
            else:
                shown = _by_pk(log_lines(reader.user, membership), roll_ids)
            audience = audiences[key] = _Audience(reader.user, membership, shown, events)
        parts = []
        for seq, public_id, roll_id, topic, recipient_id in events:
            if seq <= reader.seq or (recipient_id is not None and recipient_id != reader.user.pk):
                continue
            if roll_id:
                if last_of_roll[roll_id] == seq and roll_id in audience.rolls:
                    parts.append(message("roll", audience.line(roll_id, reader.request), public_id))
            elif topic not in audience.hidden:
                parts.append(message(topic, topic, public_id))
        batches.append(Batch("".join(parts), last_seq, True, more))
    return batches


def _memberships(campaign_id: int, user_ids: set[int]) -> dict[int, Membership]:
    """The campaign's memberships of these users, as they stand now, in one light query."""
    rows = Membership.objects.filter(campaign_id=campaign_id, user_id__in=user_ids).values_list(
        "id", "user_id", "role", "campaign__system", "campaign__time_zone"
    )
    found = {}
    campaign = None
    for pk, user_id, role, system, zone in rows:
        if campaign is None:  # the lines' times are in the group's zone (_line)
            campaign = Campaign(pk=campaign_id, system=system, time_zone=zone)
        found[user_id] = Membership(pk=pk, user_id=user_id, campaign=campaign, role=role)
    return found


def _by_pk(rolls, roll_ids: set[int]) -> dict[int, Roll]:
    # Unordered: in the log's order (the model's), SQLite walked the log's index through every roll
    # of the campaign to find these few without a sort (issue 43).
    return {r.pk: r for r in rolls.filter(pk__in=roll_ids).order_by()} if roll_ids else {}


def _audience_key(user, membership: Membership) -> Any:
    """Readers that see the same lines of the same events: the GM(s); every other member, unless
    the system keeps some rolls or topics from some members (then each reader is their own)."""
    if membership.is_gm:
        return "gm"
    system = membership.campaign.system
    if system in HIDDEN_ROLLS or system in HIDDEN_TOPICS:
        return ("reader", user.pk)
    return "member"


#: What stands for the reader's CSRF token in a GM's line rendered once for every GM reading it;
#: each reader's own masked token replaces it (random per process: no text can foresee it).
_CSRF_MARK = "csrf" + secrets.token_hex(16)


class _Audience:
    """The rolls and hidden topics one audience sees of a batch of events, and its lines."""

    def __init__(self, user, membership: Membership, rolls: dict[int, Roll], events: list[tuple]) -> None:
        self.membership = membership
        self.rolls = rolls
        self.hidden: set[str] = set()
        if not membership.is_gm and any(topic for _, _, roll_id, topic, _ in events if not roll_id):
            rule = HIDDEN_TOPICS.get(membership.campaign.system)
            self.hidden = set((rule(user, membership) if rule is not None else None) or ())
        self.lines: dict[int, str] = {}

    def line(self, roll_id: int, request) -> str:
        line = self.lines.get(roll_id)
        if line is None:
            line = self.lines[roll_id] = _line(self.rolls[roll_id], self.membership)
        if self.membership.is_gm and _CSRF_MARK in line:
            from django.middleware.csrf import get_token

            line = line.replace(_CSRF_MARK, get_token(request) if request is not None else "")
        return line


def forget() -> None:
    """Drop what this process keeps of rendered lines (tests: a database rolled back hands the
    same ids out again)."""
    _shared_lines.clear()


#: Roll lines as everyone but the GM reads them, which is the same for all of them (the GM's line
#: has the share form): rendered once per process, not per reader.
_shared_lines: dict[tuple, str] = {}


def _line(roll: Roll, membership: Membership) -> str:
    context = {"r": roll, "membership": membership, "campaign": membership.campaign}
    if membership.is_gm:
        context["csrf_token"] = _CSRF_MARK
        return _rendered(context)
    key = (
        roll.pk,
        membership.campaign.time_zone,
        roll.revealed_at,
        roll.roller.username if roll.roller else None,
        roll.character.name if roll.character else None,
        roll.mission.title if roll.mission else None,
    )
    line = _shared_lines.get(key)
    if line is None:
        if len(_shared_lines) > 4096:
            _shared_lines.clear()
        line = _shared_lines[key] = _rendered(context)
    return line


def _rendered(context: dict[str, Any]) -> str:
    """A roll line in the group's time zone: the stream renders outside a page's request
    (kernel.zones), so the zone is set here, around the render alone (a line kept is not)."""
    with timezone.override(context["campaign"].zone):
        return render_to_string("campaigns/_roll_line.html", context).strip()


def newest_in(campaign_id: int, after: int) -> int:
    newest = (
        LiveEvent.objects.filter(campaign_id=campaign_id, id__gt=after)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return newest or after


#: The fields of a roll that the log shows or filters on (log_lines: the dice page, the campaign
#: and mission pages, the live feed).
LINE_FIELDS = (
    "campaign", "mission", "character", "roller", "kind", "count", "modifier", "faces", "kept", "total",
    "purpose", "detail", "secret", "announced", "revealed_at", "created_at",
)  # fmt: skip


def log_lines(user, membership: Membership):
    """The rolls as a roll log draws them (its line's fields and relations only), for this reader."""
    return _lines_of(Roll.objects.visible_to(user, membership))


def _lines_of(rolls):
    return rolls.select_related(*_LINE_RELATED).only(
        *LINE_FIELDS, "roller__username", "mission__title", "character__name", "proof__by_hand"
    )


def message(event: str, data: str, event_id: int | None = None) -> str:
    """One SSE message (the data's lines each after "data: ")."""
    lines = [f"id: {event_id}"] if event_id is not None else []
    lines.append(f"event: {event}")
    lines += [f"data: {line}" for line in data.splitlines() or [""]]
    return "\n".join(lines) + "\n\n"


def retry_hint() -> str:
    return f"retry: {settings.LIVE_RETRY_MS}\n\n"
