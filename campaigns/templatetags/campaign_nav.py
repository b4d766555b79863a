"""The campaign's tabs, with the one the page belongs to marked (aria-current="page")."""

from __future__ import annotations

from django import template
from django.urls import reverse

register = template.Library()

#: (tab label, URL name of its page, the systems that have it (None: all), URL-name prefixes of
#: the pages that belong to it). The first tab whose prefix starts the page's URL name is current.
TABS = (
    ("Overview", "campaign-detail", None, ("campaign-detail", "campaign-settings")),
    ("Characters", "character-list", None, ("character-", "tempo-roll", "tempo-fate-gain")),
    ("Members", "campaign-members", None, ("campaign-members", "invitation-", "member-")),
    ("Dice", "campaign-dice", None, ("campaign-dice",)),
    ("NPCs", "npc-list", None, ("npc-",)),
    ("Encounters", "d6-encounter-list", {"d6"}, ("d6-encounter-",)),
    ("Missions", "missions-list", {"timemaster"}, ("missions-",)),
    ("Conflicts", "tempo-conflict-list", {"tempo"}, ("tempo-conflict-", "tempo-fate-refresh")),
    ("Missions", "ttk-run-list", {"time_to_kill"}, ("ttk-run",)),
    ("Export", "campaign-archive", None, ("campaign-archive", "character-import", "character-export")),
    ("Sheets", "campaign-sheets", None, ("campaign-sheets", "sheet-")),
)


def current_tab(url_name: str | None) -> str | None:
    """The URL name of the tab a page belongs to (None for a page outside every tab)."""
    for _label, tab_url, _systems, prefixes in TABS:
        if url_name and url_name.startswith(prefixes):
            return tab_url
    return None


@register.inclusion_tag("campaigns/_campaign_tabs.html", takes_context=True)
def campaign_tabs(context, campaign):
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    here = current_tab(match.url_name if match else None)
    tabs = [
        {"label": label, "url": reverse(tab_url, args=[campaign.pk]), "current": tab_url == here}
        for label, tab_url, systems, _prefixes in TABS
        if systems is None or campaign.system in systems
    ]
    return {"tabs": tabs}
