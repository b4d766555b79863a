"""``{% mentioned_in "npc" npc %}``: the notes of play sessions that mention a record (issue 50),
as far as the reader may read them, on the record's own page (which already showed it to them)."""

from __future__ import annotations

from django import template

from campaigns.chronicle import notes
from characters.access import membership_for

register = template.Library()


@register.inclusion_tag("campaigns/_mentioned_in.html", takes_context=True)
def mentioned_in(context, kind: str, record):
    request = context.get("request")
    user = getattr(request, "user", None)
    membership = context.get("membership")
    campaign_id = record.campaign_id
    if user is None or not user.is_authenticated:
        return {"found": []}
    if membership is None or getattr(membership, "campaign_id", None) != campaign_id:
        membership = membership_for(user, campaign_id)
    if membership is None:
        return {"found": []}
    return {"found": notes.mentioned_in(kind, record.pk, user, membership), "campaign_id": campaign_id}
