"""Draw a campaign's report pictures when its play changes, not on the next view (issue 46,
finding 9): the GM's report of a 50-mission campaign paid every picture's drawing on the first
view after a mission closed (212 ms p95 on a busy machine, against a goal of 100 ms).

- What changes the charts: a system's charts module names the models its charts are drawn from
  and when a save of one changes them (``DRAWN_FROM``: model class -> predicate on the saved
  row, e.g. a run that is over). One ``post_save`` receiver for every model looks the sender up
  in that table (built once from the registry), so this module names no system.
- After the commit it schedules one job per campaign, debounced: the first save of a burst adds
  a cache key for CHARTS_WARM_DEBOUNCE_SECONDS and schedules the job that far ahead; saves while
  the key lives schedule nothing, the job reads the campaign as it is when it runs.
- The job draws each member's report as that member reads it (``campaigns.charts.svg`` for the
  reader's audience): the same cache entries the page reads, keyed by the drawn data's digest, so
  a job that runs late draws pictures nobody asks for, never a wrong one, and a player's picture
  is only ever drawn from that player's own charts.
- A broker that is down loses nothing but the head start: the page draws what is missing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)

_WATCHED: dict[type, Callable[[Any], bool]] | None = None


def watched() -> dict[type, Callable[[Any], bool]]:
    """Model class -> "does this saved row change what the charts draw", from every system's
    charts module's ``DRAWN_FROM`` (built on first use: systems register after this app)."""
    global _WATCHED
    if _WATCHED is None:
        from campaigns import charts
        from characters import registry

        found: dict[type, Callable[[Any], bool]] = {}
        for app in registry.installed():
            module = charts.provider(app.key)
            found.update(getattr(module, "DRAWN_FROM", None) or {})
        _WATCHED = found
    return _WATCHED


def forget() -> None:
    """Build the table again on next use (a test's toy system registered or removed)."""
    global _WATCHED
    _WATCHED = None


def saved(sender: type, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    """post_save of any model: schedule the campaign's drawing when the row changes its charts."""
    changes = watched().get(sender)
    if changes is None or raw or not changes(instance):
        return
    campaign_id = getattr(instance, "campaign_id", None)
    if campaign_id is None:
        return
    transaction.on_commit(lambda: schedule(campaign_id))


def schedule(campaign_id: int) -> bool:
    """One job per campaign per debounce window; False when one is already on its way. The save
    is committed and stands whatever the broker does."""
    delay = settings.CHARTS_WARM_DEBOUNCE_SECONDS
    if not cache.add(f"charts-warm:{campaign_id}", 1, max(1, int(delay) + 1)):
        return False
    try:
        warm_charts.apply_async((campaign_id,), countdown=delay)
    except Exception:  # noqa: BLE001 - the broker is down or unreachable: the page draws them
        log.warning("could not schedule the chart drawing of campaign %s", campaign_id, exc_info=True)
        return False
    return True


def warm(campaign_id: int) -> int:
    """Draw every member's report pictures that are not in the cache yet; returns how many were
    drawn. Each member's charts are their own (a player's: what that player may see)."""
    from campaigns import charts
    from campaigns.models import Campaign

    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None or charts.provider(campaign.system) is None:
        return 0
    drawn = 0
    for membership in campaign.memberships.select_related("user").order_by("id"):
        audience = "gm" if membership.is_gm else "player"
        for chart in charts.campaign_charts(campaign, membership.user, membership.is_gm):
            if chart.is_empty or charts.is_cached(chart, audience):
                continue
            charts.svg(chart, audience)
            drawn += 1
    return drawn


@shared_task(name="campaigns.warm_charts", acks_late=True, soft_time_limit=60, time_limit=90)
def warm_charts(campaign_id: int) -> int:
    return warm(int(campaign_id))
