"""The demo's accounts and first campaign: seeded by ``manage.py seed_demo``, hinted at on the login
page while ``settings.DEMO_MODE`` is on (never in production: it needs DEBUG)."""

from __future__ import annotations

from campaigns.models import Campaign, Role
from campaigns.table import rolling

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


def with_play_sessions(campaign: Campaign, gm, users: dict, heroes: list, play) -> None:
    """The demo's two played sessions of a campaign (issue 50), with notes: the first wraps the
    system's demo play (``play()``, so its page gathers the rolls, ledger and missions it made),
    the second a few rolls after it. A campaign that has sessions already gets none (the demo is
    safe to run again); its play is still run (the system's demo makes only what it lacks)."""
    import random

    from campaigns.chronicle import notes, play_sessions
    from campaigns.models import NPC, Note, NoteVisibility

    if campaign.play_sessions.exists():
        play()
        return
    # Both are dated by the day they are played on, today: the demo's play is made now, and a
    # session dated a week back would read "played from 20:31 to 20:31" (stop 57's walk).
    first = play_sessions.start(gm, title="Into the field")
    play()
    play_sessions.end(gm, first)
    alice, bob = (hero.name for hero in heroes)
    npc = NPC.objects.filter(campaign=campaign, revealed=True).order_by("name").first()
    mission = campaign.missions.order_by("created_at", "id").first()
    met = f" and met [[{npc.name}]]" if npc else ""
    went = f" on [[{mission.title}]]" if mission else ""

    def note(session, author, body, visibility=NoteVisibility.SHARED, title=""):
        notes.save_note(
            Note(
                campaign=campaign,
                play_session=session,
                author=author,
                body=body,
                visibility=visibility,
                title=title,
            )
        )

    note(
        first, users["gm"],
        f"## Where we are\n\n[[{alice}]] and [[{bob}]] set out{went}{met}.\n\n"
        "- The table agreed to meet weekly.\n- Bring the printed sheets next time.",
        title="Recap",
    )  # fmt: skip
    note(
        first,
        users["gm"],
        "Next time: the rival team makes its move. *Do not* tip them off.",
        NoteVisibility.GM,
        "Plans",
    )
    note(
        first,
        users["alice"],
        f"Ask the GM what [[{bob}]] saw in the archive.",
        NoteVisibility.PRIVATE,
        "To ask",
    )
    note(first, users["bob"], "I owe the table snacks. **Remember the dice bag.**", title="Bob's list")

    second = play_sessions.start(gm, title="Loose ends")
    members = {m.user.username: m for m in campaign.memberships.select_related("user", "campaign")}
    rng = random.Random(50)
    rolling.record_roll(members["alice"], kind="d6", count=2, purpose="Search the room", rng=rng)
    rolling.record_roll(members["bob"], kind="d6", count=1, purpose="Keep watch", rng=rng)
    rolling.record_roll(gm, kind="d6", count=2, secret=True, purpose="Is anyone following?", rng=rng)
    play_sessions.end(gm, second)
    note(
        second,
        users["gm"],
        f"Short evening: [[{alice}]] searched, [[{bob}]] kept watch. Nobody noticed a thing.",
        title="Recap",
    )
    note(second, users["gm"], "Somebody *was* following them.", NoteVisibility.GM, "The secret roll")
