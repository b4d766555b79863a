"""The only way the D6 encounter pages and endpoints fetch a campaign for a user (the contract of
campaigns/access.py): not a member -> 404, a member without the right -> 403, and a campaign of
another game system -> 404 for every role."""

from __future__ import annotations

from campaigns import access as campaign_access

SYSTEM = "d6"


def get_campaign_for_user(user, campaign_id, need: str = "member"):
    """campaigns.access.get_campaign_for_user for this app's pages and endpoints: a campaign of
    another game system is 404 for every role, as if it did not exist."""
    return campaign_access.get_campaign_for_user(user, campaign_id, need, need_system=SYSTEM)
