"""Notes of play sessions (issue 50): Markdown rendered for each reader, sanitised, with
``[[mentions]]`` of the campaign's characters, NPCs and missions that link both ways.

Rendering: markdown-it-py (CommonMark, raw HTML off: a ``<script>`` typed in a note is text), then
the mentions become links, then nh3 sanitises the whole result (an allow-list of tags, attributes
and URL schemes): nothing a note says reaches a page as markup unless nh3 keeps it.

Mentions are resolved for the reader with the records' own visibility querysets
(``Character.objects.visible_to``, ``NPC.objects.visible_to``, the campaign's missions), so a
mention of a record the reader may not see reads exactly like a name that matches nothing: a
hidden NPC's name typed in a shared note is plain text to the players whether the NPC exists or
not. ``NoteMention`` keeps, for the pages' "mentioned in" lists, every record of the campaign a
note's mentions name (every kind that matches, so one kind's hidden records cannot change what
another kind's page lists).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import escape, unescape

import nh3
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from markdown_it import MarkdownIt

from campaigns.models import NPC, Membership, Mission, Note, NoteMention, NoteVisibility
from characters import registry
from characters.models import Character

#: ``[[name]]`` in a note: a name of 1 to 120 characters without brackets or line breaks.
MENTION = re.compile(r"\[\[([^\[\]\n]{1,120})\]\]")
#: At most this many different names are looked up per rendering (a note can name more: the rest
#: stay text).
MAX_NAMES = 100

_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li",
    "h1", "h2", "h3", "h4", "h5", "h6", "a", "span", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title", "class"},
    "span": {"class"},
    "ol": {"start"},
    "th": {"align"},
    "td": {"align"},
}
URL_SCHEMES = {"http", "https", "mailto"}


def sanitise(html: str) -> str:
    """nh3's clean with the notes' allow-list: no script, style, event handler or javascript: URL."""
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer nofollow",
        strip_comments=True,
    )


def _written(text: str) -> dict[str, str]:
    """The distinct names a text's ``[[mentions]]`` give, in order, trimmed: casefolded -> as first
    written."""
    seen: dict[str, str] = {}
    for match in MENTION.finditer(text):
        name = match.group(1).strip()
        if name:
            seen.setdefault(name.casefold(), name)
    return seen


def mention_names(text: str) -> list[str]:
    """The distinct names a text's ``[[mentions]]`` give, in order, trimmed (casefolded)."""
    return list(_written(text))[:MAX_NAMES]


@dataclass(frozen=True)
class Target:
    kind: str
    pk: int
    name: str
    url: str


def _names_q(field: str, names: list[str]) -> Q:
    query = Q(pk__in=[])
    for name in names:
        query |= Q(**{f"{field}__iexact": name})
    return query


def resolve(names: list[str], campaign, user, membership: Membership | None) -> dict[str, Target]:
    """casefolded name -> the record it names for this reader (a character, else an NPC, else a
    mission), among the records the reader may see; ``user=None`` reads as the GM (every record)."""
    if not names:
        return {}
    everyone = user is None
    characters = Character.objects.filter(campaign=campaign)
    if not everyone:
        characters = Character.objects.visible_to(user).filter(campaign=campaign)
    npcs = NPC.objects.filter(campaign=campaign) if everyone else NPC.objects.visible_to(user, membership)
    found: dict[str, Target] = {}
    missions_linked = _missions_have_pages(campaign)
    # later kinds first: an earlier kind's match wins (setdefault order reversed by overwriting)
    for mission in Mission.objects.filter(campaign=campaign).filter(_names_q("title", names)).order_by("id"):
        url = reverse("missions-detail", args=[campaign.pk, mission.pk]) if missions_linked else ""
        found.setdefault(mission.title.casefold(), Target("mission", mission.pk, mission.title, url))
    for npc in npcs.filter(_names_q("name", names)).order_by("-id"):
        url = reverse("npc-detail", args=[campaign.pk, npc.pk])
        found[npc.name.casefold()] = Target("npc", npc.pk, npc.name, url)
    for character in characters.filter(_names_q("name", names)).order_by("-id"):
        url = reverse("character-detail", args=[character.pk])
        found[character.name.casefold()] = Target("character", character.pk, character.name, url)
    return found


def unmatched(text: str, campaign, user, membership: Membership) -> list[str]:
    """The ``[[mentions]]`` of a text that name nothing this writer may see, as written (the note's
    page then shows them as plain words): what the writer is told after saving (stop 57's walk: a
    mistyped name went by without a word). Read as the writer reads, so a name of something the
    writer may not see is unmatched like a name of nothing: the warning tells no more than the page."""
    written = _written(text)
    names = mention_names(text)
    found = resolve(names, campaign, user, membership)
    return [written[key] for key in names if key not in found]


def _missions_have_pages(campaign) -> bool:
    """Whether the campaign's system shows missions on pages of their own (its mission rules)."""
    app = registry.get(campaign.system)
    return app is not None and app.mission_rules() is not None


def render(text: str, targets: dict[str, Target]) -> str:
    """A note's Markdown as sanitised HTML, its mentions linked to ``targets`` (for one reader)."""
    html = _MARKDOWN.render(text)

    def mention(match: re.Match) -> str:
        shown = unescape(match.group(1)).strip()
        target = targets.get(shown.casefold())
        if target is None or not target.url:
            return f'<span class="mention">{escape(shown)}</span>'
        return f'<a class="mention mention-{target.kind}" href="{escape(target.url)}">{escape(shown)}</a>'

    return sanitise(MENTION.sub(mention, html))


def plain_text(text: str) -> str:
    """A note's words without its Markdown (a search result's snippet): rendered, its tags
    dropped and entities read back; a mention reads as the name it gives."""
    from django.utils.html import strip_tags

    html = MENTION.sub(lambda match: match.group(1), _MARKDOWN.render(text))
    return unescape(strip_tags(html))


def render_for(notes, campaign, user, membership: Membership) -> list[tuple[Note, str]]:
    """Each note with its HTML as this reader reads it, the mentions of all resolved at once."""
    names: dict[str, None] = {}
    for note in notes:
        for name in mention_names(note.body):
            names.setdefault(name, None)
    targets = resolve(list(names)[:MAX_NAMES], campaign, user, membership)
    return [(note, render(note.body, targets)) for note in notes]


# --- writing -------------------------------------------------------------------------------------------
def allowed_visibilities(membership: Membership) -> list[tuple[str, str]]:
    """What this member may mark a note: the GM shared or GM-only, a player shared or private."""
    if membership.is_gm:
        return [(NoteVisibility.SHARED, "Shared with the table"), (NoteVisibility.GM, "Game master only")]
    return [(NoteVisibility.SHARED, "Shared with the table"), (NoteVisibility.PRIVATE, "Private (only me)")]


def may_write(membership: Membership) -> bool:
    """The GM and the players write notes; observers read."""
    return membership.at_least("player")


def may_edit(note: Note, user) -> bool:
    """A note is its author's to change or delete."""
    return note.author_id is not None and note.author_id == user.pk


def save_note(note: Note) -> Note:
    """Save a note and the records its mentions name; tell the table when it is (or was) shared."""
    from campaigns.table import live

    was_shared = False
    if not note._state.adding:
        was_shared = Note.objects.filter(pk=note.pk, visibility=NoteVisibility.SHARED).exists()
    with transaction.atomic():
        note.full_clean()
        note.save()
        keep_mentions(note)
        if was_shared or note.visibility == NoteVisibility.SHARED:
            live.publish_change(note.campaign_id, topic_of_notes(note.play_session.number))
    return note


def delete_note(note: Note) -> None:
    from campaigns.table import live

    with transaction.atomic():
        shared = note.visibility == NoteVisibility.SHARED
        campaign_id, number = note.campaign_id, note.play_session.number
        note.delete()
        if shared:
            live.publish_change(campaign_id, topic_of_notes(number))


def topic_of_notes(number: int) -> str:
    """The live topic of a play session's shared notes (a note shared, changed or deleted)."""
    return f"play-session-{number}-notes"


def keep_mentions(note: Note) -> None:
    """Record the campaign's records the note's mentions name (NoteMention), replacing the old."""
    names = mention_names(note.body)
    note.mentions.all().delete()
    if not names:
        return
    campaign = note.campaign
    rows = []
    for character in Character.objects.filter(campaign=campaign).filter(_names_q("name", names)):
        rows.append(NoteMention(note=note, kind=NoteMention.Kind.CHARACTER, target_id=character.pk))
    for npc in NPC.objects.filter(campaign=campaign).filter(_names_q("name", names)):
        rows.append(NoteMention(note=note, kind=NoteMention.Kind.NPC, target_id=npc.pk))
    for mission in Mission.objects.filter(campaign=campaign).filter(_names_q("title", names)):
        rows.append(NoteMention(note=note, kind=NoteMention.Kind.MISSION, target_id=mission.pk))
    NoteMention.objects.bulk_create(rows, ignore_conflicts=True)


def mentioned_in(kind: str, target_id: int, user, membership: Membership) -> list[Note]:
    """The notes mentioning a record that this reader may read, oldest session first. Only ever
    called on a page that already showed the reader the record."""
    return list(
        Note.objects.visible_to(user, membership)
        .filter(mentions__kind=kind, mentions__target_id=target_id)
        .select_related("play_session", "author")
        .order_by("play_session__number", "created_at", "id")
        .distinct()
    )
