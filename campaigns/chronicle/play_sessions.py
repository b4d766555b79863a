"""Play sessions (issue 50): the GM starts and ends them; a session's page gathers by itself what
the record holds between its start and its end.

What a session page shows each reader is read with the querysets the log and the pages already
use, never a rule of its own:

- rolls: the roll log's lines for this reader (``live.log_lines``: ``Roll.objects.visible_to``,
  a sealed roll without its result);
- ledger entries: the entries of the characters the reader may see
  (``Character.objects.visible_to``), as their history page shows them;
- missions started, closed and published: every member sees the missions, and a closed mission's
  result only as its page shows it (``players_status_label`` until published);
- what other apps and the game systems add (``SOURCES``: the sheets app's prints, as
  ``sheets.access.may_read``; ``SystemApp.play_session_events``: a system's scenes), each with its
  own pages' rule for the reader.

Ending a session offers, as separate choices the GM ticks, what "the end of a session" means
elsewhere: the fair dice's seed reveal (the platform's) and each system's own
(``SystemApp.play_session_end``: Tempo's fate refresh, TIMEMASTER's bonus Success Points for the
session). Nothing is done unless ticked.

By the campaign's setting (``Campaign.sessions_start_on_roll``), the first roll of a day where
the group plays (``Campaign.time_zone``) that the whole table sees starts a session when none is
under way (``roll_saved``); the GM still starts and ends them by hand.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone

from campaigns.models import PARTIAL_ROLLS, Campaign, Membership, Mission, PlaySession, Role
from campaigns.table import live
from characters import registry
from characters.models import AdvancementEntry, Character

log = logging.getLogger(__name__)

#: The live topic of the campaign's play sessions (one started, one ended, one changed).
TOPIC = "play-sessions"
#: At most this many rolls are drawn in a session's chapter of the book and in its API record.
MAX_ROLLS = 300
#: Rolls on a session page at a time, oldest first; its "next rolls" link reads on from the last one
#: shown (a keyset on the log's own order, so a late page costs what the first does). 300 rolls
#: were most of the page's time with its ledger lines (bench/chronicle.py, issue 50: 209-222 ms p95).
ROLLS_PER_PAGE = 100
#: A roll this soon after a session ended starts no new one, even past midnight (the same evening).
EVENING_AFTERGLOW = datetime.timedelta(hours=6)
#: At most this many happenings of each source are listed.
MAX_EACH = 300


@dataclass(frozen=True)
class Happening:
    """One thing that happened during a session, in words, for one reader."""

    at: datetime.datetime
    kind: str  # "ledger", "mission", "print", or a system's own ("conflict", "encounter" ...)
    text: str
    url: str = ""


#: Other apps' happenings: function(campaign, user, membership, start, end) -> list[Happening],
#: each reading with its own pages' visibility rule (the sheets app adds the prints).
SOURCES: list[Callable[..., list[Happening]]] = []


@dataclass(frozen=True)
class EndChoice:
    """Something ending a session may also do, offered as a separate choice the GM confirms.

    ``run`` (an action) is called once the session has ended, when ticked, and returns what it did
    in a sentence; a choice with ``url`` instead is a page to go on to (e.g. an award form)."""

    key: str
    label: str
    help: str = ""
    run: Callable[[], str] | None = None
    url: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_action(self) -> bool:
        """Done when ticked (templates read this, never ``run``: a template calls a callable it
        reads, and reading ``run`` would do the choice)."""
        return self.run is not None


# --- starting, changing, ending -------------------------------------------------------------------------
def _gm(membership: Membership) -> None:
    if not membership.is_gm:
        raise PermissionDenied("Only the game master starts, changes and ends play sessions.")


#: The largest session number the column holds (a PositiveIntegerField): a longer number in a URL
#: names no session and must never reach the database (PostgreSQL refuses it as out of range).
LARGEST_NUMBER = 2**31 - 1


def by_number(campaign: Campaign, number: Any) -> PlaySession | None:
    """The campaign's play session of that number, or None (also for a number no column holds)."""
    try:
        wanted = int(number)
    except (TypeError, ValueError):
        return None
    if not 0 < wanted <= LARGEST_NUMBER:
        return None
    return campaign.play_sessions.filter(number=wanted).prefetch_related("attendees").first()


def open_session(campaign: Campaign) -> PlaySession | None:
    return campaign.play_sessions.filter(ended_at__isnull=True).order_by("-number").first()


def start(
    membership: Membership,
    *,
    title: str = "",
    date: datetime.date | None = None,
    attendees=None,
) -> PlaySession:
    """Start the campaign's next play session (numbered after the last); only one is open at a time.
    ``attendees``: users (members of the campaign); None = every player and the GM who starts it."""
    _gm(membership)
    campaign = membership.campaign
    with transaction.atomic():
        # One number at a time. NO KEY UPDATE (PostgreSQL): the key is not changed, so the KEY
        # SHARE locks other transactions' foreign-key checks take on this row need not wait.
        Campaign.objects.select_for_update(no_key=True).filter(pk=campaign.pk).first()
        if open_session(campaign) is not None:
            raise ValidationError({"play_session": ["A play session is already under way: end it first."]})
        return _begin(
            campaign, membership.user, timezone.now(), _members(campaign, attendees, membership), title, date
        )


def _begin(
    campaign: Campaign, user, at: datetime.datetime, attendees, title: str = "", date=None
) -> PlaySession:
    """The next play session, started at ``at`` by ``user`` (in the caller's transaction, the
    campaign's row locked); its date is ``at``'s day where the group plays unless given."""
    last = campaign.play_sessions.aggregate(last=Max("number"))["last"] or 0
    session = PlaySession(
        campaign=campaign,
        number=last + 1,
        title=title.strip(),
        date=date or timezone.localdate(at, campaign.zone),
        started_at=at,
        started_by=user,
    )
    session.full_clean()
    session.save()
    session.attendees.set(attendees)
    live.publish_change(campaign.pk, TOPIC)
    return session


def _day_began(campaign: Campaign, at: datetime.datetime) -> datetime.datetime:
    """The midnight before ``at`` where the group plays (an aware datetime)."""
    local = timezone.localtime(at, campaign.zone)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def roll_saved(sender, instance, created: bool = False, raw: bool = False, **kwargs) -> None:
    """A roll just written (post_save on Roll, campaigns/apps.py): with the campaign's setting on,
    the first roll of a day where the group plays starts a play session when none is under way,
    in the roll's own transaction and at the roll's own moment (so the roll is its first).

    Only a roll every member sees as made starts one: a secret roll the GM keeps out of the log
    (``announced=False``) never does, nor one a system shows some members only (PARTIAL_ROLLS: a
    Tempo conflict's), or the session's start would tell the others that it was made.
    A session the GM started earlier that day counts (the day's first roll was before), and one
    that ended less than EVENING_AFTERGLOW before (the same evening, played past midnight).
    Rolls written in bulk (``bulk_create`` sends no signal: an import, D6's encounter rolls entered
    by hand together) or by a fixture (``raw``) start nothing."""
    if raw or not created:
        return
    campaign = instance.campaign
    if not campaign.sessions_start_on_roll or (instance.secret and not instance.announced):
        return
    partial = PARTIAL_ROLLS.get(campaign.system)
    if partial is not None and partial(instance):  # a roll some members only see (a Tempo conflict's)
        return
    at = instance.created_at
    # Today's: under way, started since midnight, or ended a few hours ago (an evening played past
    # midnight: a roll at 01:10 after a session that ended at 01:00 belongs to that evening).
    today = (
        Q(ended_at__isnull=True)
        | Q(started_at__gte=_day_began(campaign, at))
        | Q(ended_at__gte=at - EVENING_AFTERGLOW)
    )
    if campaign.play_sessions.filter(today).exists():
        return
    try:
        with transaction.atomic():
            # Two first rolls take turns here, and the second finds the first's session (tested on
            # PostgreSQL: tests/campaigns/test_session_start_concurrency.py). NO KEY UPDATE, as in
            # start(): other transactions' foreign-key checks on the row need not wait.
            Campaign.objects.select_for_update(no_key=True).filter(pk=campaign.pk).first()
            if campaign.play_sessions.filter(today).exists():  # another roll started it meanwhile
                return
            members = campaign.memberships.filter(role__in=(Role.GM, Role.PLAYER)).select_related("user")
            _begin(campaign, instance.roller, at, [m.user for m in members])
    except DatabaseError:
        # The session is a convenience; the roll is not: it stands (the savepoint undid the start).
        log.warning("A roll in campaign %s did not start a play session", campaign.pk, exc_info=True)


def _members(campaign: Campaign, attendees, membership: Membership) -> list[Any]:
    members = campaign.memberships.select_related("user")
    if attendees is None:
        return [m.user for m in members if m.role == Role.PLAYER or m.pk == membership.pk]
    wanted = {getattr(user, "pk", user) for user in attendees}
    return [m.user for m in members if m.user_id in wanted]


def update(
    membership: Membership, session: PlaySession, *, title=None, date=None, attendees=None
) -> PlaySession:
    """Change a session's title, date or attendees (the GM)."""
    _gm(membership)
    with transaction.atomic():
        if title is not None:
            session.title = title.strip()
        if date is not None:
            session.date = date
        session.full_clean()
        session.save()
        if attendees is not None:
            session.attendees.set(_members(session.campaign, attendees, membership))
        live.publish_change(session.campaign_id, TOPIC)
    return session


def end(membership: Membership, session: PlaySession, choices: list[str] = ()) -> list[str]:
    """End the session and then do each ticked end choice (``choices``: their keys), each on its
    own: one that fails says why and the others still run. Returns what was done, in sentences."""
    _gm(membership)
    offered = {choice.key: choice for choice in end_choices(session, membership)}
    unknown = [key for key in choices if key not in offered]
    if unknown:
        raise ValidationError({"choices": [f"Not offered now: {', '.join(sorted(unknown))}."]})
    with transaction.atomic():
        locked = PlaySession.objects.select_for_update().get(pk=session.pk)
        if locked.ended_at is not None:
            raise ValidationError({"play_session": ["This play session has already ended."]})
        session.ended_at = locked.ended_at = timezone.now()
        locked.save(update_fields=["ended_at"])
        live.publish_change(session.campaign_id, TOPIC)
    done = [f"Session {session.number} ended."]
    for key in choices:
        choice = offered[key]
        if choice.run is None:
            continue
        try:
            with transaction.atomic():
                done.append(choice.run())
        except (ValidationError, PermissionDenied) as error:
            messages = getattr(error, "messages", None) or [str(error)]
            done.append(f"{choice.label}: not done ({' '.join(messages)})")
    return done


def end_choices(session: PlaySession, membership: Membership) -> list[EndChoice]:
    """What ending this session may also do: the fair dice's seed reveal, then the system's."""
    from campaigns.table import fairness

    choices = [
        EndChoice(
            "reveal_seed",
            "Reveal the fair dice's seed and start a new one",
            "Every member can then check this session's open rolls; the secret key follows once no "
            "secret roll under it is still yours.",
            run=lambda: _rotated(fairness.rotate(membership)),
        )
    ]
    app = registry.get(session.campaign.system)
    if app is not None and app.play_session_end:
        choices += list(registry.call(app.play_session_end, session, membership) or [])
    return choices


def _rotated(seed) -> str:
    return f"The fair dice's seed {seed.number} is revealed; seed {seed.number + 1} is in use."


# --- reading -------------------------------------------------------------------------------------------
def window(session: PlaySession) -> tuple[datetime.datetime, datetime.datetime]:
    """The moments a session's page reads between: its start and its end (now, while open)."""
    return session.started_at, session.ended_at or timezone.now()


def rolls(session: PlaySession, user, membership: Membership):
    """The session's rolls as the roll log shows them to this reader, oldest first."""
    start, stop = window(session)
    return (
        live.log_lines(user, membership)
        .filter(created_at__gte=start, created_at__lte=stop)
        .order_by("created_at", "id")
    )


def rolls_page(session: PlaySession, user, membership: Membership, after: int | None) -> tuple[list, bool]:
    """A page of the session's rolls for this reader, oldest first: from the start, or after the
    roll ``after`` (which must be one this reader sees among the session's: a position never says
    when a roll they may not see was made). And whether more follow."""
    lines = rolls(session, user, membership)
    if after is not None:
        mark = lines.filter(pk=after).values_list("created_at", "id").first()
        if mark is None:
            raise BadRequest("'rolls_after' must be a roll of this session, as its page links give it.")
        lines = lines.filter(Q(created_at__gt=mark[0]) | Q(created_at=mark[0], id__gt=mark[1]))
    rows = list(lines[: ROLLS_PER_PAGE + 1])
    return rows[:ROLLS_PER_PAGE], len(rows) > ROLLS_PER_PAGE


def happenings(session: PlaySession, user, membership: Membership) -> list[Happening]:
    """Everything but the rolls that happened during the session, for this reader, in order."""
    campaign = session.campaign
    start, stop = window(session)
    found = _ledger(campaign, user, start, stop) + _missions(campaign, membership, start, stop)
    for source in SOURCES:
        found += source(campaign, user, membership, start, stop)
    app = registry.get(campaign.system)
    if app is not None and app.play_session_events:
        found += list(registry.call(app.play_session_events, campaign, user, membership, start, stop) or [])
    return sorted(found, key=lambda h: h.at)


def _ledger(campaign, user, start, stop) -> list[Happening]:
    visible = Character.objects.visible_to(user).filter(campaign=campaign).values("pk")
    entries = (
        AdvancementEntry.objects.filter(character__in=visible, created_at__gte=start, created_at__lte=stop)
        .select_related("character", "mission")
        # What the sentence needs: a character's whole row (its build, its sheet's data) was most
        # of the page's time (2,000 JSON values read for 300 entries: bench/chronicle.py).
        .only("kind", "payload", "created_at", "character__name", "mission__title")
        .order_by("created_at", "id")[:MAX_EACH]
    )
    app = registry.get(campaign.system)
    found = []
    for entry in entries:
        sentence = ""
        if app is not None:
            sentence = app.entry_sentence(
                entry.kind, entry.payload, entry.mission.title if entry.mission else ""
            )
        what = sentence or entry.kind.replace("_", " ")
        found.append(
            Happening(
                entry.created_at,
                "ledger",
                f"{entry.character.name}: {what}",
                reverse("character-history", args=[entry.character_id]),
            )
        )
    return found


def _missions(campaign, membership: Membership, start, stop) -> list[Happening]:
    rules = registry.get(campaign.system)
    linked = rules is not None and rules.mission_rules() is not None
    moments = Q(started_at__range=(start, stop)) | Q(closed_at__range=(start, stop))
    moments |= Q(published_at__range=(start, stop))
    found = []
    for mission in Mission.objects.filter(campaign=campaign).filter(moments).order_by("id")[:MAX_EACH]:
        url = reverse("missions-detail", args=[campaign.pk, mission.pk]) if linked else ""
        if mission.started_at and start <= mission.started_at <= stop:
            found.append(Happening(mission.started_at, "mission", f"Mission started: {mission.title}", url))
        if mission.closed_at and start <= mission.closed_at <= stop:
            if membership.is_gm or mission.is_published:
                status = mission.get_status_display()
            else:
                status = "closed, result not yet published"
            found.append(
                Happening(mission.closed_at, "mission", f"Mission closed: {mission.title} ({status})", url)
            )
        if mission.published_at and start <= mission.published_at <= stop:
            found.append(
                Happening(mission.published_at, "mission", f"Mission result published: {mission.title}", url)
            )
    return found


def attendee_names(session: PlaySession) -> list[str]:
    return sorted(user.username for user in session.attendees.all())
