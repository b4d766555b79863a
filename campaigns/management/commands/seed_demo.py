"""Load the demo campaign: a GM and two players with known passwords. Safe to run again."""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns import services
from campaigns.models import Campaign, Membership, Mission, Role

DEMO_USERS = (
    ("gm", "dossier-gm", Role.GM),
    ("alice", "dossier-alice", Role.PLAYER),
    ("bob", "dossier-bob", Role.PLAYER),
)
DEMO_CAMPAIGN = "Demo: The Time Corps"


class Command(BaseCommand):
    help = "Create the demo campaign (users gm, alice, bob) unless it exists."

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for username, password, _ in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(password)
                user.save()
            users[username] = user
        campaign = Campaign.objects.filter(name=DEMO_CAMPAIGN).first()
        if campaign is None:
            campaign = services.create_campaign(
                users["gm"],
                name=DEMO_CAMPAIGN,
                system="timemaster",
                description="A demo campaign: agents of the Time Corps guard the true history.",
            )
            for username, _, role in DEMO_USERS[1:]:
                Membership.objects.create(campaign=campaign, user=users[username], role=role)
            mission = Mission.objects.create(
                campaign=campaign,
                title="The Lost Dispatch",
                briefing="Recover a message before it changes a battle.",
            )
            rng = random.Random(1984)
            gm = Membership.objects.get(campaign=campaign, user=users["gm"])
            alice = Membership.objects.get(campaign=campaign, user=users["alice"])
            services.record_roll(
                alice, kind="percent", purpose="Demo: a general check", mission=mission, rng=rng
            )
            services.record_roll(gm, kind="d1000", purpose="Demo: a secret check", secret=True, rng=rng)
        self.stdout.write(self.style.SUCCESS(f"Demo campaign ready: {campaign.name}"))
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {username:6} / {password:14} ({role.label})")
