"""The chronicle's reading of the record (issue 50, parts 3 and 4): "Previously on…", the recap of
the last session that ended, and the campaign's timeline.

Both are read for one reader with the querysets the session page and the other pages already use,
never a rule of their own, and the platform names no system:

- the recap's first line is the start of the session's first note shared with the table (the
  shared notes are the table's story: a GM-only or private note never feeds it, not even as a
  count), rendered for the reader (``notes.render_for``: mentions of what they may not see read as
  text) and cut to a few words, linked to the note on the session page;
- its highlights come from the session's window (``play_sessions.window``): ledger entries of the
  characters the reader sees (``Character.objects.visible_to``), sorted by the system into "who
  advanced" and "who fell" (``ChronicleProvider.entry_highlight``), a character whose engine says
  it died (``Character.Status.DEAD``) also falls without a system's help; the missions whose result
  was published in the window (the GM also reads those closed and not yet published, marked); the
  scenes (a system's play records) that ended in the window, among those the reader may see, told
  by the system (``ChronicleProvider.scene_highlights``: its own pages' rule for who sees a scene,
  so a scene the reader may not open is not a line, nor a count); and the rolls the system calls
  notable (``ChronicleProvider.notable_roll``) among the rolls whose result the reader sees: a
  sealed roll is left out in the query, before any limit, so neither its result nor its being
  there moves what a player reads;
- the timeline: the play sessions on the table's calendar (every member sees every session) and the
  missions (a player: once their result is published; the GM: every mission that has a date, marked
  with its status), then each track the campaign's system adds (``ChronicleProvider
  .timeline_tracks``: charts drawn like the audit's, ``campaigns.charts``). A system that supplies
  none gets the sessions track alone.

A system supplies its part through the registry (``SystemApp.chronicle``: by convention
``systems/<key>/chronicle.py``, the functions of ``ChronicleProvider``, each optional).
"""

from __future__ import annotations

import datetime
import importlib
import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any, Protocol

from django.db.models import Max, Q
from django.urls import reverse
from django.utils import timezone

from campaigns import charts
from campaigns.chronicle import notes, play_sessions
from campaigns.models import Campaign, Membership, Mission, Note, NoteVisibility, PlaySession
from characters import registry
from characters.models import AdvancementEntry, Character

#: The recap's note line: at most this many characters of the first shared note (cut at a word).
EXCERPT_CHARS = 280
#: At most this many highlights of each kind (who advanced, what was published, scenes, who fell,
#: rolls); a system's ``scene_highlights`` reads no more than this many scenes.
MAX_HIGHLIGHTS = 6
#: At most this many of the session's ledger entries and rolls are read for the recap.
MAX_READ = 300

ADVANCED, PUBLISHED, SCENE, FELL, ROLL = "advanced", "published", "scene", "fell", "roll"
#: The highlights' kinds in the order the recap shows them, with their heading.
HIGHLIGHT_KINDS = (
    (ADVANCED, "Who advanced"),
    (PUBLISHED, "Missions"),
    (SCENE, "How the scenes ended"),
    (FELL, "Who fell"),
    (ROLL, "Rolls to remember"),
)


class ChronicleProvider(Protocol):
    """What a system's ``chronicle`` module may offer; every function is optional."""

    #: The ledger entry kinds ``entry_highlight`` reads (optional: without it, every kind is asked).
    HIGHLIGHT_ENTRY_KINDS: tuple[str, ...]
    #: The rolls ``notable_roll`` may find notable, as a filter on Roll (optional: without it, the
    #: session's rolls up to MAX_READ are asked). The scan read up to 300 rolls' JSON per overview.
    NOTABLE_ROLLS: Any

    def entry_highlight(self, entry: Any) -> tuple[str, str] | None:
        """A ledger entry as a recap highlight: ("advanced" or "fell", a sentence), or None."""
        ...

    def notable_roll(self, roll: Any) -> str:
        """A roll worth remembering, in a sentence (only rolls whose result the reader sees are
        asked); "" for an ordinary one."""
        ...

    def scene_highlights(
        self, campaign: Any, user: Any, membership: Any, start: datetime.datetime, stop: datetime.datetime
    ) -> list[tuple[str, str]]:
        """The scenes this reader may see that ended in [start, stop]: (sentence, url), oldest first
        (``ended_scenes`` reads them from the system's play records)."""
        ...

    def timeline_tracks(self, campaign: Any, user: Any, membership: Any) -> list[charts.Chart]:
        """The system's own timeline tracks for this reader, as charts (drawn like the audit's)."""
        ...


def provider(system: str) -> ChronicleProvider | None:
    """The chronicle module a system registered, or None."""
    app = registry.get(system)
    if app is None or not app.chronicle:
        return None
    return importlib.import_module(app.chronicle)  # type: ignore[return-value]


def _hook(system: str, name: str) -> Any:
    return getattr(provider(system), name, None)


# --- the recap -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Highlight:
    kind: str  # one of HIGHLIGHT_KINDS' keys
    text: str
    url: str = ""
    gm_only: bool = False  # shown to the GM only (a result not yet published)


@dataclass(frozen=True)
class Recap:
    """The recap of one ended session for one reader."""

    session: PlaySession
    note: Note | None = None  # the first shared note
    excerpt: str = ""
    note_url: str = ""
    more_text: bool = False  # the excerpt stops before the note's end
    groups: list[tuple[str, list[Highlight]]] = field(default_factory=list)  # (heading, highlights)

    @property
    def url(self) -> str:
        return reverse("play-session-detail", args=[self.session.campaign_id, self.session.number])

    @property
    def handout_url(self) -> str:
        return reverse("play-session-recap", args=[self.session.campaign_id, self.session.number])

    @property
    def is_empty(self) -> bool:
        return self.note is None and not self.groups


def last_ended(campaign: Campaign) -> PlaySession | None:
    """The campaign's last session that has ended (the one "Previously on…" tells), or None."""
    return (
        campaign.play_sessions.filter(ended_at__isnull=False)
        .order_by("-number")
        .select_related("campaign")
        .first()
    )


def recap(session: PlaySession, user, membership: Membership) -> Recap:
    """What the session's recap shows this reader (see the module's docstring)."""
    campaign = session.campaign
    start, stop = play_sessions.window(session)
    note, excerpt, more = _first_shared_note(session, campaign, user, membership)
    found = _ledger_highlights(campaign, user, start, stop)
    found += _mission_highlights(campaign, membership, start, stop)
    found += _scene_highlights(campaign, user, membership, start, stop)
    found += _roll_highlights(session, user, membership)
    groups = []
    for kind, heading in HIGHLIGHT_KINDS:
        items = [h for h in found if h.kind == kind]
        if items:
            groups.append((heading, items[:MAX_HIGHLIGHTS]))
    note_url = ""
    if note is not None:
        note_url = reverse("play-session-detail", args=[campaign.pk, session.number]) + f"#note-{note.pk}"
    return Recap(session, note, excerpt, note_url, more, groups)


#: A block's edge is a space in the excerpt; an inline tag (a mention's link) is nothing.
_BLOCKS = re.compile(r"</?(?:p|br|li|ul|ol|h[1-6]|blockquote|pre|tr|td|th|table|hr)\b[^>]*>")
_TAGS = re.compile(r"<[^>]+>")
_SPACE = re.compile(r"\s+")


def excerpt_of(html: str, limit: int = EXCERPT_CHARS) -> tuple[str, bool]:
    """A note's rendered HTML as plain text cut at a word before ``limit``; whether it was cut."""
    text = _SPACE.sub(" ", unescape(_TAGS.sub("", _BLOCKS.sub(" ", html)))).strip()
    if len(text) <= limit:
        return text, False
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:.-")
    return cut, True


def _first_shared_note(session, campaign, user, membership) -> tuple[Note | None, str, bool]:
    note = (
        Note.objects.filter(play_session=session, visibility=NoteVisibility.SHARED)
        .order_by("created_at", "id")
        .first()
    )
    if note is None:
        return None, "", False
    [(_note, html)] = notes.render_for([note], campaign, user, membership)
    text, more = excerpt_of(html)
    return note, text, more


def _ledger_highlights(campaign, user, start, stop) -> list[Highlight]:
    entry_highlight = _hook(campaign.system, "entry_highlight")
    visible = Character.objects.visible_to(user).filter(campaign=campaign)
    entries = AdvancementEntry.objects.filter(
        character__in=visible.values("pk"), created_at__gte=start, created_at__lte=stop
    )
    kinds = _hook(campaign.system, "HIGHLIGHT_ENTRY_KINDS")
    if kinds is not None:  # only the kinds the system reads: a session's awards are many rows
        entries = entries.filter(kind__in=kinds)
    entries = (
        entries.exclude(kind="reversal")
        .exclude(reversed_by__isnull=False)
        .select_related("character", "mission")
        .only(
            "id",
            "kind",
            "payload",
            "created_at",
            "character__id",
            "character__name",
            "character__build",
            "mission__title",
        )
        .order_by("created_at", "id")[:MAX_READ]
    )
    found: list[Highlight] = []
    seen: set[tuple[str, str]] = set()
    for entry in entries if entry_highlight else ():
        marked = entry_highlight(entry)
        if not marked:
            continue
        kind, sentence = marked
        if (kind, sentence) in seen or kind not in (ADVANCED, FELL):
            continue
        seen.add((kind, sentence))
        url = reverse("character-history", args=[entry.character_id])
        found.append(Highlight(kind, sentence, url))
    # a character its engine says died (characters.services), with an entry in the session
    died = (
        visible.filter(status=Character.Status.DEAD, entries__created_at__range=(start, stop))
        .distinct()
        .only("id", "name")
        .order_by("name", "id")
    )
    for character in died[:MAX_HIGHLIGHTS]:
        sentence = f"{character.name} died."
        if (FELL, sentence) not in seen:
            found.append(Highlight(FELL, sentence, reverse("character-detail", args=[character.pk])))
    return found


def _mission_url(campaign, mission) -> str:
    app = registry.get(campaign.system)
    linked = app is not None and app.mission_rules() is not None
    return reverse("missions-detail", args=[campaign.pk, mission.pk]) if linked else ""


def _mission_highlights(campaign, membership: Membership, start, stop) -> list[Highlight]:
    moments = Q(published_at__range=(start, stop))
    if membership.is_gm:
        moments |= Q(closed_at__range=(start, stop), published_at__isnull=True)
    found = []
    missions = (
        Mission.objects.filter(campaign=campaign)
        .filter(moments)
        .only("id", "title", "status", "published_at", "closed_at")
    )
    for mission in missions.order_by("published_at", "closed_at", "id")[:MAX_READ]:
        url = _mission_url(campaign, mission)
        if mission.is_published:
            text = f"{mission.title}: result published ({mission.get_status_display().lower()})."
            found.append(Highlight(PUBLISHED, text, url))
        else:
            text = f"{mission.title}: closed ({mission.get_status_display().lower()}), not yet published."
            found.append(Highlight(PUBLISHED, text, url, gm_only=True))
    return found


def _scene_highlights(campaign, user, membership: Membership, start, stop) -> list[Highlight]:
    scenes = _hook(campaign.system, "scene_highlights")
    if scenes is None:
        return []
    return [
        Highlight(SCENE, text, url) for text, url in scenes(campaign, user, membership, start, stop) or []
    ]


def ended_scenes(visible, start, stop, *fields: str):
    """For a system's ``scene_highlights``: the play records of ``visible`` (its queryset of the
    records this reader may see) that are over and whose last event falls in [start, stop], oldest
    end first, at most MAX_HIGHLIGHTS, with ``fields`` read: one query, whatever their number. A
    play record here has ``status`` with ``Status.OVER`` and ``events`` with ``created_at``."""
    model = visible.model
    return (
        model.objects.filter(pk__in=visible.values("pk"), status=model.Status.OVER)
        .annotate(ended_at=Max("events__created_at"))
        .filter(ended_at__gte=start, ended_at__lte=stop)
        .only("id", *fields)
        .order_by("ended_at", "id")[:MAX_HIGHLIGHTS]
    )


def _roll_highlights(session, user, membership: Membership) -> list[Highlight]:
    notable = _hook(session.campaign.system, "notable_roll")
    if notable is None:
        return []
    rolls = play_sessions.rolls(session, user, membership)
    narrow = _hook(session.campaign.system, "NOTABLE_ROLLS")
    if narrow is not None:  # in the query: only the rolls the system may call notable are read
        rolls = rolls.filter(narrow)
    if not membership.is_gm:
        # in the query, before the limit: a sealed roll moves nothing a player reads
        rolls = rolls.exclude(secret=True, revealed_at__isnull=True)
    found = []
    dice = reverse("campaign-dice-log", args=[session.campaign_id])
    for roll in rolls[:MAX_READ]:
        sentence = notable(roll)
        if sentence:
            found.append(Highlight(ROLL, sentence, f"{dice}#roll-{roll.pk}", gm_only=roll.sealed))
    return found


# --- the timeline --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Moment:
    """One line of the calendar track: a session or a mission on the table's calendar."""

    date: datetime.date
    kind: str  # "session" or "mission"
    text: str
    detail: str = ""
    url: str = ""
    gm_only: bool = False
    order: int = 0  # a session's number, a mission's id: the order of a day's moments


@dataclass(frozen=True)
class Month:
    label: str  # "December 2026"
    key: str  # "2026-12"
    moments: list[Moment]


#: At most this many missions are put on the calendar (the mission list pages through them all).
MAX_MISSIONS = 500


def calendar(campaign: Campaign, user, membership: Membership) -> list[Month]:
    """The sessions and missions on the table's calendar, newest first throughout: months, days and,
    within a day, sessions by number (the platform's track: every system gets it). A new-user walk
    read newest months with their oldest days first as out of order."""
    moments = [
        Moment(
            session.date,
            "session",
            str(session),
            "under way" if session.is_open else "",
            reverse("play-session-detail", args=[campaign.pk, session.number]),
            order=session.number,
        )
        for session in campaign.play_sessions.only("number", "title", "date", "ended_at", "campaign_id")
    ]
    zone = campaign.zone
    missions = Mission.objects.filter(campaign=campaign).filter(started_at__isnull=False)
    if not membership.is_gm:
        missions = missions.filter(published_at__isnull=False)
    fields = ("id", "title", "status", "started_at", "closed_at", "published_at")
    for mission in missions.only(*fields).order_by("started_at", "id")[:MAX_MISSIONS]:
        url = _mission_url(campaign, mission)
        assert mission.started_at is not None
        day = timezone.localdate(mission.started_at, zone)  # the group's day, as a session's date
        if mission.is_published:
            assert mission.published_at is not None
            published = timezone.localdate(mission.published_at, zone)
            detail = f"{mission.get_status_display()}; result published {published:%-d %b %Y}"
            moments.append(Moment(day, "mission", mission.title, detail, url, order=mission.pk))
        else:
            detail = mission.get_status_display() + ("; not yet published" if mission.is_closed else "")
            moments.append(Moment(day, "mission", mission.title, detail, url, gm_only=True, order=mission.pk))
    moments.sort(key=lambda m: (m.date, m.kind == "session", m.order), reverse=True)
    months: dict[str, list[Moment]] = {}
    for moment in moments:
        months.setdefault(moment.date.strftime("%Y-%m"), []).append(moment)
    return [
        Month(datetime.date.fromisoformat(f"{key}-01").strftime("%B %Y"), key, found)
        for key, found in sorted(months.items(), reverse=True)
    ]


def system_tracks(campaign: Campaign, user, membership: Membership) -> list[charts.Chart]:
    """The tracks the campaign's system adds (none: the sessions track alone)."""
    tracks = _hook(campaign.system, "timeline_tracks")
    return list(tracks(campaign, user, membership) or []) if tracks else []
