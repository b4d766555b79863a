"""The live feed of a campaign (issue 32, docs/live.md): what happens at the table, as it happens.

The campaign's events (campaigns.models.LiveEvent: a roll made, a secret roll shared, a play
record's turn changed) are rows written in the same transaction as what they tell. After the
commit, ``publish`` wakes the web processes: through Redis pub/sub when LIVE_REDIS_URL is set
(several web nodes), and always the process's own hub (campaigns/live_hub.py), which without
Redis also polls the newest event id every LIVE_POLL_SECONDS so that events written by another
process (a Celery worker, a second server) arrive too.

A woken subscriber reads the events after its cursor that its user may see
(LiveEvent.objects.visible_to: the roll log's own rule) and is sent each rendered for that user
(``render_batch``), so what the feed shows equals what the page shows. The cursor a client holds
is the random ``public_id`` of the last event it was sent (the SSE id, sent back as
Last-Event-ID on reconnection): nothing missed, nothing twice, and no count of the events it
may not see.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.template.loader import render_to_string

from campaigns.models import HIDDEN_ROLLS, HIDDEN_TOPICS, LiveEvent, Membership, Roll

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
    """A play record changed (a turn passed, an event was recorded): its panels refresh."""
    _publish(campaign_id, LiveEvent.Kind.CHANGE, topic=topic)


def _publish(campaign_id: int, kind: str, *, roll: Roll | None = None, topic: str = "") -> None:
    if connection.vendor == "postgresql":
        # Events of one campaign commit in the order of their ids (held to the commit), so a reader
        # that saw id n never later finds a smaller one appear. SQLite writes one at a time anyway.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, campaign_id % 2**31])
    event = LiveEvent.objects.create(campaign_id=campaign_id, kind=kind, roll=roll, topic=topic)
    transaction.on_commit(lambda: notify(campaign_id, event.id))


def notify(campaign_id: int, seq: int) -> None:
    """Wake the subscribers of the campaign: this process's directly, other processes through
    Redis (when set; without it they find the event on their next poll)."""
    from campaigns import live_hub

    live_hub.hub.poke(campaign_id)
    url = settings.LIVE_REDIS_URL
    if not url:
        return
    try:
        _redis(url).publish(live_hub.CHANNEL, f"{campaign_id}:{seq}")
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


def render_batch(user, campaign_id: int, after: int, request=None) -> Batch:
    """The SSE messages for this user of the events after ``after``, each rendered for the user.

    A roll is sent as its roll log line (``event: roll``, the line with id roll-<pk>: the client
    puts a new one on top and replaces one it has, so a secret roll shared later updates in place);
    a change as the topic's event name. Several events of one roll in a batch go out once, as the
    roll stands now."""
    membership = (
        Membership.objects.select_related("campaign").filter(user=user, campaign_id=campaign_id).first()
    )
    if membership is None:
        return Batch("", after, False)
    shared = _same_for_every_member(membership)
    if shared:
        known = _member_batches.get((campaign_id, after))
        # ... while nothing came after it (a reader woken by a newer event reads that one too)
        if (
            known is not None
            and known[2] > time.monotonic()
            and not LiveEvent.objects.filter(campaign_id=campaign_id, id__gt=known[0]).exists()
        ):
            return Batch(known[1], known[0], True)
    batch = _render(user, membership, campaign_id, after, request)
    if shared:
        if len(_member_batches) > 4096:
            _member_batches.clear()
        _member_batches[campaign_id, after] = (batch.seq, batch.text, time.monotonic() + MEMBER_BATCH_SECONDS)
    return batch


#: A batch as everyone but the GM reads it, in a campaign whose system hides nothing more from
#: some members than from others (no HIDDEN_ROLLS or HIDDEN_TOPICS rule): the members of a table
#: woken by the same roll share one reading and rendering of it, for this long.
MEMBER_BATCH_SECONDS = 2.0
_member_batches: dict[tuple[int, int], tuple[int, str, float]] = {}


def forget() -> None:
    """Drop what this process keeps of rendered batches and lines (tests: a database rolled back
    hands the same ids out again)."""
    _member_batches.clear()
    _shared_lines.clear()


def _same_for_every_member(membership: Membership) -> bool:
    system = membership.campaign.system
    return not membership.is_gm and system not in HIDDEN_ROLLS and system not in HIDDEN_TOPICS


def _render(user, membership: Membership, campaign_id: int, after: int, request) -> Batch:
    # Every event after the cursor (up to BATCH); which of them this reader may see is the roll
    # log's own rule, read in the same query as the lines' rolls (log_lines), and the system's
    # hidden topics: as LiveEvent.objects.visible_to, in three queries whatever the batch.
    events = list(
        LiveEvent.objects.filter(campaign_id=campaign_id, id__gt=after)
        .order_by("id")
        .values_list("id", "public_id", "roll_id", "topic")[:BATCH]
    )
    if not events:
        return Batch("", after, True)
    last_seq = events[-1][0]
    roll_ids = {roll_id for _, _, roll_id, _ in events if roll_id}
    rolls = {r.pk: r for r in log_lines(user, membership).filter(pk__in=roll_ids)} if roll_ids else {}
    hidden: set[str] = set()
    if not membership.is_gm and any(topic for _, _, roll_id, topic in events if not roll_id):
        rule = HIDDEN_TOPICS.get(membership.campaign.system)
        hidden = set((rule(user, membership) if rule is not None else None) or ())
    last_of_roll = {roll_id: seq for seq, _, roll_id, _ in events if roll_id}
    parts = []
    for seq, public_id, roll_id, topic in events:
        if roll_id:
            if last_of_roll[roll_id] == seq and roll_id in rolls:
                parts.append(message("roll", _line(rolls[roll_id], membership, request), public_id))
        elif topic not in hidden:
            parts.append(message(topic, topic, public_id))
    return Batch("".join(parts), last_seq, True)


#: Roll lines as everyone but the GM reads them, which is the same for all of them (the GM's line
#: has the share form, with the GM's own CSRF token): rendered once per process, not per reader.
_shared_lines: dict[tuple, str] = {}


def _line(roll: Roll, membership: Membership, request) -> str:
    context = {"r": roll, "membership": membership, "campaign": membership.campaign}
    if membership.is_gm:
        return render_to_string("campaigns/_roll_line.html", context, request=request).strip()
    key = (
        roll.pk,
        roll.revealed_at,
        roll.roller.username if roll.roller else None,
        roll.character.name if roll.character else None,
        roll.mission.title if roll.mission else None,
    )
    line = _shared_lines.get(key)
    if line is None:
        if len(_shared_lines) > 4096:
            _shared_lines.clear()
        line = _shared_lines[key] = render_to_string(
            "campaigns/_roll_line.html", context, request=request
        ).strip()
    return line


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
    return (
        Roll.objects.visible_to(user, membership)
        .select_related(*_LINE_RELATED)
        .only(*LINE_FIELDS, "roller__username", "mission__title", "character__name", "proof__by_hand")
    )


def message(event: str, data: str, event_id: int | None = None) -> str:
    """One SSE message (the data's lines each after "data: ")."""
    lines = [f"id: {event_id}"] if event_id is not None else []
    lines.append(f"event: {event}")
    lines += [f"data: {line}" for line in data.splitlines() or [""]]
    return "\n".join(lines) + "\n\n"


def retry_hint() -> str:
    return f"retry: {settings.LIVE_RETRY_MS}\n\n"
