"""What is waiting for this user in a campaign, shown in the campaign page's header (issue 21):
a draft to finish, a result to publish, a sheet still rendering.

The platform apps above campaigns (sheets) add what they know from their AppConfig.ready()
through SOURCES, as the systems add their roll rules to campaigns.models.HIDDEN_ROLLS.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from campaigns.models import Mission
from characters.systems.wording import possessive


@dataclass(frozen=True)
class Pending:
    text: str
    url: str


#: Functions (user, campaign, membership) -> list of Pending, added by the apps that know them.
SOURCES: list[Callable[[Any, Any, Any], list[Pending]]] = []


#: At most this many players' drafts are checked for what waits on the GM (each is a dry build).
DRAFTS_CHECKED = 10


def drafts_awaiting_gm(user, campaign, membership) -> list[Pending]:
    """For the GM: the players' drafts the rules accept but that wait for the game master's
    confirmation (the builder's review tells the player to ask for it; issue 30)."""
    if not membership.is_gm:
        return []
    from django.core.exceptions import ValidationError

    from characters import services
    from characters.models import Character

    drafts = (
        Character.objects.filter(campaign=campaign, status=Character.Status.DRAFT)
        .exclude(owner=user)
        .select_related("owner", "campaign")
        .order_by("updated_at", "id")[:DRAFTS_CHECKED]
    )
    items = []
    for draft in drafts:
        try:
            build = services.preview_build(draft, random.Random(0))
            waiting = services.pending_confirmations(
                services.system_of(draft), build, campaign.settings or None
            )
        except ValidationError:
            continue  # the rules still refuse it: the player's to fix, not the GM's
        if waiting:
            items.append(
                Pending(
                    f"Confirm and finalize {possessive(draft.owner.get_username())} draft “{draft.name}”",
                    _resume(draft),
                )
            )
    return items


def _resume(draft) -> str:
    """Where the builder picks the draft up (its review, once the rules accept it)."""
    from characters import builder
    from characters.views import WIZARDS

    return (
        builder.resume_url(draft) if draft.system in WIZARDS else reverse("character-detail", args=[draft.pk])
    )


def for_user(user, campaign, membership, characters) -> list[Pending]:
    """Every pending item of ``user`` in ``campaign``. ``characters``: the characters the page
    already loaded (the drafts among them cost no query)."""
    items = [
        Pending(f"Finish your draft “{character.name}”", reverse("character-detail", args=[character.pk]))
        for character in characters
        if character.is_draft and character.owner_id == user.pk
    ]
    if membership.is_gm:
        unpublished = Mission.objects.filter(
            campaign=campaign, status__in=Mission.CLOSED_STATUSES, published_at__isnull=True
        ).only("id", "title")[:5]
        from characters import registry

        app = registry.get(campaign.system)
        where = app.play_pages[0].url_name if app and app.play_pages else "campaign-detail"
        items += [
            Pending(f"Publish the result of “{mission.title}”", reverse(where, args=[campaign.pk]))
            for mission in unpublished
        ]
    for source in SOURCES:
        items += source(user, campaign, membership)
    return items
