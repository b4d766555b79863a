"""The demo's accounts and first campaign: seeded by ``manage.py seed_demo``, hinted at on the login
page while ``settings.DEMO_MODE`` is on (never in production: it needs DEBUG)."""

from __future__ import annotations

from campaigns.models import Campaign, Role

DEMO_USERS = (
    ("gm", "dossier-gm", Role.GM),
    ("alice", "dossier-alice", Role.PLAYER),
    ("bob", "dossier-bob", Role.PLAYER),
)
#: The first campaign keeps the name earlier versions of the demo used.
DEMO_CAMPAIGN = "Demo: The Time Corps"


def demo_logins() -> list[dict]:
    """The demo accounts to show on the login page: only in demo mode, and only once seeded."""
    from django.conf import settings

    if not getattr(settings, "DEMO_MODE", False) or not Campaign.objects.filter(name=DEMO_CAMPAIGN).exists():
        return []
    return [{"username": u, "password": p, "role": r.label} for u, p, r in DEMO_USERS]
