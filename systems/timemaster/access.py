"""Access to TIMEMASTER's pages and endpoints: a campaign of another system is a 404."""

from __future__ import annotations

from campaigns.access import get_campaign_for_user
from campaigns.models import Campaign, Membership

SYSTEM = "timemaster"


def get_timemaster_campaign_for_user(user, campaign_id, need: str = "member") -> tuple[Campaign, Membership]:
    """The campaign and the user's membership, as campaigns.access.get_campaign_for_user gives
    them, for a TIMEMASTER campaign only (missions with a significance tally, checks, attacks)."""
    return get_campaign_for_user(user, campaign_id, need, need_system=SYSTEM)
