"""The campaign's tabs, with the one the page belongs to marked (aria-current="page"): the
platform's own, and the play pages the campaign's system registered (characters.registry)."""

from __future__ import annotations

from django import template
from django.urls import reverse

from characters import registry

register = template.Library()

#: The platform's tabs: (label, URL name of its page, URL-name prefixes of the pages that belong
#: to it). A system's play pages come after the first SYSTEM_TABS_AFTER of them.
TABS = (
    ("Overview", "campaign-detail", ("campaign-detail", "campaign-settings")),
    ("Sessions", "play-session-list", ("play-session-",)),
    ("Timeline", "campaign-timeline", ("campaign-timeline",)),
    ("Characters", "character-list", ("character-",)),
    ("Members", "campaign-members", ("campaign-members", "invitation-", "member-")),
    ("Dice", "campaign-dice", ("campaign-dice",)),
    ("NPCs", "npc-list", ("npc-",)),
    ("Export", "campaign-archive", ("campaign-archive", "character-import", "character-export")),
    ("Sheets", "campaign-sheets", ("campaign-sheets", "sheet-")),
)
SYSTEM_TABS_AFTER = 7
#: The campaign report's tab, before Export, for a system that supplies charts (SystemApp.charts).
REPORT_TAB = ("Report", "campaign-report", ("campaign-report",))


def tabs_of(system: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """The campaign's tabs in order, for a campaign of ``system``."""
    app = registry.get(system)
    play = [
        (page.label, page.url_name, page.prefixes or (page.url_name,))
        for page in (app.play_pages if app else ())
    ]
    tabs = [
        (label, url, prefixes + (app.character_page_prefixes if app and url == "character-list" else ()))
        for label, url, prefixes in TABS
    ]
    report = [REPORT_TAB] if app and app.charts else []
    return tabs[:SYSTEM_TABS_AFTER] + play + report + tabs[SYSTEM_TABS_AFTER:]


def current_tab(url_name: str | None, system: str = "") -> str | None:
    """The URL name of the tab a page belongs to (None for a page outside every tab): the tab with
    the longest prefix the page's URL name starts with, the system's own tabs first among equals.
    (The first match marked "Characters" on the import page, "character-import", which Export holds.)"""
    if not url_name:
        return None
    tabs = tabs_of(system)
    best, longest = None, -1
    for _label, tab_url, prefixes in tabs[SYSTEM_TABS_AFTER:-2] + tabs:
        for prefix in prefixes:
            if url_name.startswith(prefix) and len(prefix) > longest:
                best, longest = tab_url, len(prefix)
    return best


@register.inclusion_tag("campaigns/_campaign_tabs.html", takes_context=True)
def campaign_tabs(context, campaign):
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    here = current_tab(match.url_name if match else None, campaign.system)
    tabs = [
        {"label": label, "url": reverse(tab_url, args=[campaign.pk]), "current": tab_url == here}
        for label, tab_url, _prefixes in tabs_of(campaign.system)
    ]
    # the campaign's search box (issue 50), holding the query on the search page itself
    searching = match is not None and match.url_name == "campaign-search"
    search_q = request.GET.get("q", "") if searching and request is not None else ""
    return {
        "tabs": tabs,
        "search_url": reverse("campaign-search", args=[campaign.pk]),
        "search_q": search_q,
        "searching": searching,
    }


@register.filter
def has_campaign_report(system: str) -> bool:
    """Whether the campaign's system supplies charts (SystemApp.charts) for the campaign report."""
    app = registry.get(system)
    return bool(app and app.charts)
