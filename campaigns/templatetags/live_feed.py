"""``{% live_attrs %}``: the attributes that connect a campaign page to its live feed (htmx's SSE
extension; campaigns/table/live_views.py). Drawn on <main> by base.html whenever the page is a
campaign's (its context has the campaign and the reader's membership of it), with the page's own
cursor, so that nothing that happens between drawing the page and connecting is lost."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

from campaigns.models import Membership
from campaigns.table import live

register = template.Library()


@register.simple_tag(takes_context=True)
def live_attrs(context) -> str:
    campaign, membership = context.get("campaign"), context.get("membership")
    request = context.get("request")
    if request is None or not isinstance(membership, Membership) or campaign is None:
        return ""
    if membership.campaign_id != getattr(campaign, "pk", None):
        return ""
    cursor = live.latest_public_id(request.user, membership)
    url = f"{reverse('campaign-live', args=[campaign.pk])}?after={cursor}"
    return format_html(' hx-ext="sse" sse-connect="{}" data-live-feed', url)


@register.filter
def live_topic(kind: str, pk) -> str:
    """A play record's topic in the live feed: ``{{ "d6-encounter"|live_topic:encounter.pk }}``."""
    return live.topic_of(kind, int(pk))


@register.simple_tag(takes_context=True)
def live_section(context, element_id: str, *topics) -> str:
    """The attributes of a part of a page that is drawn again, from the page's own URL, when the
    live feed names one of its topics (issue 44: a mission's page when its result is published):
    ``<section id="x" {% live_section "x" topic ... %}>``. Several topics, or a list of them, may be
    given; with none it is an ordinary part of the page. The page's view decides again what this
    reader sees: the message only says that something moved."""
    request = context.get("request")
    names = [t for topic in topics for t in ([topic] if isinstance(topic, str) else topic) if t]
    if request is None or not names:
        return ""
    trigger = ", ".join(f"sse:{name}" for name in names)
    return format_html(
        'hx-get="{}" hx-trigger="{}" hx-select="#{}" hx-swap="outerHTML"',
        request.get_full_path(),
        trigger,
        element_id,
    )


@register.filter
def live_topics(records, kind: str) -> list[str]:
    """The topics of several records: ``{% live_section "x" missions|live_topics:"mission" %}``."""
    return [live.topic_of(kind, record.pk) for record in records]
