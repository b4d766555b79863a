"""Search over a campaign (issue 50, part 5): notes, play sessions, missions and their published
tally lines, NPCs, characters and the roll log, for one reader.

How a reader's results are made, so that nothing hidden shows through them:

1. The query is read into terms (letters and digits only; campaigns/chronicle/search_index.py quotes them
   again for the engine). Anything else is a ``QueryProblem`` with a sentence, never a 500.
2. For each kind, the index (``SearchEntry``: SQLite FTS5 or PostgreSQL text search) names the
   records whose text of an audience the reader belongs to matches: the table's text for every
   member, the GM's text (an NPC's GM notes) for the GM alone.
3. Those ids are read back through the record's own visibility rule, the one its pages use
   (``Note.objects.visible_to``, ``NPC.objects.visible_to``, ``Character.objects.visible_to``,
   ``Roll.objects.visible_to`` less the sealed rolls, published tally lines shown to players), in
   an order of the record's own fields (never the engine's rank, whose weights count every row
   of the index, hidden ones included), at most ``PER_KIND`` of them.
4. Snippets and highlights are cut from the visible record's text that the reader may read, in
   Python, escaped; the ``<mark>`` tags are the only markup.

So a hidden row changes neither which rows a reader gets, nor their order, counts or snippets: the
non-interference tests (tests/secrets/test_search.py) hold it byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from campaigns.chronicle import search_index
from campaigns.models import NPC, Campaign, Membership, Mission, Note, Roll, SignificanceEntry
from characters import registry
from characters.models import Character

#: The longest query read, in characters, and the most terms in it.
MAX_QUERY = 200
MAX_TERMS = 8
MAX_TERM = 60
#: The last term matches as a prefix ("ambu" finds "ambush") once it is this long.
PREFIX_FROM = 3
#: At most this many results of each kind are listed (one more is read to say there are more).
PER_KIND = 20
#: A snippet's length around its first match.
SNIPPET = 180

TERM = re.compile(r"[^\W_]+")


class QueryProblem(ValueError):
    """A query that cannot be searched, with the sentence that says why."""


@dataclass(frozen=True)
class Query:
    text: str
    terms: list[str]

    @property
    def prefix_last(self) -> bool:
        return len(self.terms[-1]) >= PREFIX_FROM


def parse(raw: str | None) -> Query:
    """The terms of a query, or a QueryProblem naming what is wrong with it."""
    text = (raw or "").strip()
    if not text:
        raise QueryProblem("Type a word to search for.")
    if len(text) > MAX_QUERY:
        raise QueryProblem(f"A search is at most {MAX_QUERY} characters long; this one has {len(text)}.")
    terms = [term.casefold() for term in TERM.findall(text)]
    if not terms:
        raise QueryProblem("Search for words or numbers: this search has no letters or digits.")
    if len(terms) > MAX_TERMS:
        raise QueryProblem(f"Search for at most {MAX_TERMS} words at a time; this search has {len(terms)}.")
    if any(len(term) > MAX_TERM for term in terms):
        raise QueryProblem(f"A word of a search is at most {MAX_TERM} characters long.")
    return Query(text, list(dict.fromkeys(terms)))


# --- highlighting --------------------------------------------------------------------------------------
def _pattern(query: Query) -> re.Pattern[str]:
    parts = []
    for index, term in enumerate(query.terms):
        prefix = query.prefix_last and index == len(query.terms) - 1
        parts.append(re.escape(term) + ("" if prefix else r"(?![^\W_])"))
    return re.compile(r"(?<![^\W_])(?:" + "|".join(parts) + ")", re.IGNORECASE)


@dataclass(frozen=True)
class Snippet:
    """A piece of a record's text around its first match, and the matches in it (start, end)."""

    text: str
    marks: tuple[tuple[int, int], ...]

    def html(self) -> SafeString:
        """The text escaped, each match in <mark> (the only markup)."""
        out, at = [], 0
        for start, end in self.marks:
            out.append(escape(self.text[at:start]))
            out.append(f"<mark>{escape(self.text[start:end])}</mark>")
            at = end
        out.append(escape(self.text[at:]))
        return mark_safe("".join(out))  # noqa: S308 - every piece of text is escaped above


def snippet(texts: list[str], query: Query) -> Snippet:
    """The first of ``texts`` (the fields the reader may read, in order) with a match, cut around
    it; or the first text's start when none matches as typed (the index folds accents)."""
    pattern = _pattern(query)
    chosen, first = "", None
    for text in texts:
        plain = " ".join(text.split())
        found = pattern.search(plain)
        if found:
            chosen, first = plain, found
            break
    if first is None:
        chosen = next((" ".join(t.split()) for t in texts if t.strip()), "")
    start = 0
    if first is not None and first.start() > SNIPPET // 3:
        start = chosen.rfind(" ", 0, first.start() - SNIPPET // 3) + 1
    piece = chosen[start : start + SNIPPET]
    lead = "… " if start else ""
    tail = " …" if start + SNIPPET < len(chosen) else ""
    shown = lead + piece + tail
    marks = tuple((m.start(), m.end()) for m in pattern.finditer(shown))
    return Snippet(shown, marks)


# --- results -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    kind: str
    title: str
    url: str
    snippet: Snippet
    meta: str = ""


@dataclass
class Group:
    kind: str
    label: str
    hits: list[Hit] = field(default_factory=list)
    more: bool = False


@dataclass
class Results:
    query: Query
    groups: list[Group]

    @property
    def found(self) -> bool:
        return any(group.hits for group in self.groups)


@dataclass(frozen=True)
class Reader:
    user: Any
    membership: Membership
    campaign: Campaign

    @property
    def is_gm(self) -> bool:
        return self.membership.is_gm

    @property
    def audiences(self) -> list[str]:
        return [search_index.TABLE, search_index.GM] if self.is_gm else [search_index.TABLE]


def _ids(reader: Reader, kind: str, query: Query):
    return search_index.matching(reader.campaign.pk, kind, reader.audiences, query.terms, query.prefix_last)


def _notes(reader: Reader, query: Query, ids) -> list[Hit]:
    rows = (
        Note.objects.visible_to(reader.user, reader.membership)
        .filter(pk__in=ids)
        .select_related("play_session", "author")
        .order_by("-play_session__number", "-created_at", "-id")[: PER_KIND + 1]
    )
    from campaigns.chronicle.notes import plain_text

    hits = []
    for note in rows:
        session = note.play_session
        url = reverse("play-session-detail", args=[reader.campaign.pk, session.number]) + f"#note-{note.pk}"
        author = note.author.username if note.author else "a former member"
        meta = f"Session {session.number}, by {author}, {note.get_visibility_display().lower()}"
        title = note.title or f"Note on session {session.number}"
        hits.append(Hit("note", title, url, snippet([plain_text(note.body), note.title], query), meta))
    return hits


def _sessions(reader: Reader, query: Query, ids) -> list[Hit]:
    rows = reader.campaign.play_sessions.filter(pk__in=ids).order_by("-number")[: PER_KIND + 1]
    return [
        Hit(
            "play_session",
            str(session),
            reverse("play-session-detail", args=[reader.campaign.pk, session.number]),
            snippet([f"Session {session.number} {session.title}"], query),
            f"{session.date:%d %b %Y}",
        )
        for session in rows
    ]


def _mission_url(reader: Reader, mission_id: int) -> str:
    app = registry.get(reader.campaign.system)
    if app is None or app.mission_rules() is None:
        return ""
    return reverse("missions-detail", args=[reader.campaign.pk, mission_id])


def _missions(reader: Reader, query: Query, ids) -> list[Hit]:
    rows = Mission.objects.filter(campaign=reader.campaign, pk__in=ids).order_by("-created_at", "-id")
    hits = []
    for mission in rows[: PER_KIND + 1]:
        status = mission.get_status_display() if reader.is_gm else mission.players_status_label
        texts = [mission.briefing, mission.place, mission.title]
        hits.append(
            Hit("mission", mission.title, _mission_url(reader, mission.pk), snippet(texts, query), status)
        )
    return hits


def _tally(reader: Reader, query: Query, ids) -> list[Hit]:
    rows = SignificanceEntry.objects.filter(mission__campaign=reader.campaign, pk__in=ids)
    if not reader.is_gm:
        # as the published after-action record shows them (campaigns.missions.visible_tally)
        rows = rows.filter(mission__published_at__isnull=False, shown_to_players=True).filter(
            Q(reverses__isnull=True) | Q(reverses__shown_to_players=True)
        )
    rows = rows.select_related("mission").order_by("-mission__created_at", "-mission_id", "id")
    return [
        Hit(
            "tally",
            f"{entry.mission.title}: {entry.get_kind_display()}",
            _mission_url(reader, entry.mission_id),
            snippet([entry.description], query),
            "" if entry.mission.is_published else "not yet published",
        )
        for entry in rows[: PER_KIND + 1]
    ]


def _npcs(reader: Reader, query: Query, ids) -> list[Hit]:
    rows = NPC.objects.visible_to(reader.user, reader.membership).filter(pk__in=ids).order_by("name", "id")
    hits = []
    for npc in rows.only("id", "name", "public_description", "gm_notes", "revealed")[: PER_KIND + 1]:
        # the title shows the name: the snippet is cut from the words under it first
        texts = [npc.public_description] + ([npc.gm_notes] if reader.is_gm else []) + [npc.name]
        meta = "" if not reader.is_gm else ("revealed" if npc.revealed else "not revealed")
        url = reverse("npc-detail", args=[reader.campaign.pk, npc.pk])
        hits.append(Hit("npc", npc.name, url, snippet(texts, query), meta))
    return hits


def _characters(reader: Reader, query: Query, ids) -> list[Hit]:
    rows = (
        Character.objects.visible_to(reader.user)
        .filter(campaign=reader.campaign, pk__in=ids)
        .select_related("owner")
        .order_by("name", "id")
    )
    return [
        Hit(
            "character",
            character.name,
            reverse("character-detail", args=[character.pk]),
            snippet([character.name], query),
            f"{character.get_status_display()}, played by {character.owner.username}",
        )
        for character in rows[: PER_KIND + 1]
    ]


#: Below this many matching rolls, the database reads them by id and sorts them.
FEW_ROLLS = 300

#: The roll log's order as an expression no index holds, per engine (see ``_newest_first``).
_UNINDEXED_ORDER = {
    "sqlite": '+"campaigns_roll"."created_at"',
    "postgresql": '("campaigns_roll"."created_at" + interval \'0 seconds\')',
}


def _newest_first(ids) -> tuple[Any, ...]:
    """The roll log's order, newest first, and the plan that reads it fastest. The planner cannot
    tell how many rolls a word matches (SQLite without statistics, PostgreSQL with them: its guess
    for a text search is a fixed share of the rows), so for a word found in few rolls both walked
    the campaign's log down its order index, testing each roll against the matches: 30 ms on
    SQLite and 165-180 ms on PostgreSQL at 50,000 rolls for a word found nowhere (bench/search.py).
    When the index names fewer than FEW_ROLLS matches (hidden ones included: this picks a plan,
    never a result), the order is given as an expression no index holds, so the database reads the
    matches through the text index and sorts those. The rows and their order are the same."""
    unindexed = _UNINDEXED_ORDER.get(connection.vendor)
    if unindexed is None:
        return ("-created_at", "-id")
    if connection.vendor == "sqlite":
        sql, params = ids.as_sql(None, connection)
        sql = sql[1:-1]
    else:
        sql, params = ids.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM ({sql} LIMIT {FEW_ROLLS}) few", params)
        if cursor.fetchone()[0] < FEW_ROLLS:
            return (RawSQL(unindexed, []).desc(), "-id")
    return ("-created_at", "-id")


def _rolls(reader: Reader, query: Query, ids) -> list[Hit]:
    rows = Roll.objects.visible_to(reader.user, reader.membership).filter(pk__in=ids)
    if not reader.is_gm:
        rows = rows.exclude(secret=True, revealed_at__isnull=True)  # a sealed roll is never found
    rows = rows.select_related("character", "roller").order_by(*_newest_first(ids))
    found = list(rows[: PER_KIND + 1])
    sessions = list(
        reader.campaign.play_sessions.filter(started_at__lte=found[0].created_at).order_by("-started_at")
        if found
        else []
    )
    hits = []
    for roll in found:
        url = reverse("campaign-dice", args=[reader.campaign.pk]) + f"#roll-{roll.pk}"
        for session in sessions:
            if session.started_at <= roll.created_at and (
                session.ended_at is None or roll.created_at <= session.ended_at
            ):
                url = (
                    reverse("play-session-detail", args=[reader.campaign.pk, session.number])
                    + f"#roll-{roll.pk}"
                )
                break
        who = roll.character.name if roll.character else (roll.roller.username if roll.roller else "")
        sealed = roll.sealed and not reader.is_gm
        result = "secret" if sealed else str(roll.total)
        meta = (
            ("secret roll, " if roll.secret and reader.is_gm else "")
            + f"{roll.kind} = {result}"
            + (f", {who}" if who else "")
            + f", {timezone.localtime(roll.created_at):%d %b %Y %H:%M}"  # the page's zone (kernel.zones)
        )
        hits.append(Hit("roll", roll.purpose or roll.kind, url, snippet([roll.purpose], query), meta))
    return hits


#: The kinds in the order their groups are shown: (kind, label, reader of the visible matches).
KINDS: tuple[tuple[str, str, Callable[[Reader, Query, Any], list[Hit]]], ...] = (
    ("note", "Notes", _notes),
    ("play_session", "Play sessions", _sessions),
    ("mission", "Missions", _missions),
    ("tally", "Significance tally", _tally),
    ("npc", "NPCs", _npcs),
    ("character", "Characters", _characters),
    ("roll", "Roll log", _rolls),
)


def search(campaign: Campaign, user, membership: Membership, query: Query) -> Results:
    """What this reader may find in the campaign, grouped by kind (every group, empty or not)."""
    reader = Reader(user, membership, campaign)
    groups = []
    for kind, label, read in KINDS:
        hits = read(reader, query, _ids(reader, kind, query))
        groups.append(Group(kind, label, hits[:PER_KIND], len(hits) > PER_KIND))
    return Results(query, groups)
