"""Load the demo: a GM and two players with known passwords, and one campaign per game system, each
with a finished character for alice and for bob and play in progress. Safe to run again.

Everything is made through the apps' own services and rule engines (no hand-written builds), the
way a GM and players would make it in the pages; each piece is looked up by name first, so a second
run changes nothing and a database seeded by an older version gets only what it lacks.

Each game system's part (its campaign, the builder choices of alice's and bob's characters, its
play in progress) is its folder's ``demo`` module, found through the registry (``SystemApp.demo``);
the systems are seeded in INSTALLED_APPS order with one random generator, so the demo is the same
on every run.
"""

from __future__ import annotations

import importlib
import random
from functools import partial

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from campaigns import services
from campaigns.demo import DEMO_USERS, with_play_sessions
from campaigns.models import Campaign, Membership
from characters import registry
from characters import services as character_services
from characters.models import Character


class Command(BaseCommand):
    help = "Create the demo (users gm, alice, bob; one campaign per system) where it is missing."

    def add_arguments(self, parser):
        parser.add_argument(
            "--logins", action="store_true", help="Only print the demo logins (run.sh ends with them)."
        )
        parser.add_argument(
            "--system",
            action="append",
            default=[],
            metavar="KEY",
            help="Seed only this system's demo campaign (repeat for several; default: every system).",
        )

    def handle(self, *args, **options):
        if options["logins"]:
            self._print_logins()
            return
        keys = [app.key for app in registry.installed()]
        unknown = [key for key in options["system"] if key not in keys]
        if unknown:
            raise CommandError(
                f"No installed system called {', '.join(unknown)}; installed: {', '.join(keys)}."
            )
        self._seed(options["system"])
        self._print_logins()

    def _print_logins(self) -> None:
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {username:6} / {password:14} ({role.label})")

    @transaction.atomic
    def _seed(self, only: list[str]) -> None:
        User = get_user_model()
        users = {}
        for username, password, _ in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(password)
                user.save()
            users[username] = user
        rng = random.Random(1984)
        for app in registry.installed():
            if not app.demo or (only and app.key not in only):
                continue
            demo = importlib.import_module(app.demo)
            name, module, description = demo.CAMPAIGN
            campaign = self._campaign(users, app.key, name, module, description)
            alice_name, bob_name = demo.CHARACTERS
            heroes = [
                self._character(campaign, users["alice"], demo.choices(alice_name, "alice"), users["gm"]),
                self._character(campaign, users["bob"], demo.choices(bob_name, "bob"), users["gm"]),
            ]
            gm = Membership.objects.select_related("campaign", "user").get(
                campaign=campaign, user=users["gm"]
            )
            # two played sessions with notes, the first around the system's play (issue 50)
            with_play_sessions(
                campaign, gm, users, heroes, partial(demo.play, campaign, gm, users, heroes, rng)
            )
            self.stdout.write(self.style.SUCCESS(f"Demo campaign ready: {campaign.name}"))

    def _campaign(self, users, system, name, module, description) -> Campaign:
        campaign = Campaign.objects.filter(name=name, system=system).first()
        if campaign is None:
            campaign = services.create_campaign(
                users["gm"], name=name, system=system, module=module, description=description
            )
        for username, _, role in DEMO_USERS[1:]:
            Membership.objects.get_or_create(campaign=campaign, user=users[username], defaults={"role": role})
        return campaign

    def _character(self, campaign, owner, choices, gm) -> Character:
        """A finished character, built by the engine from the player's choices; the GM confirms
        what the rules leave to the GM (as the builder's last step does)."""
        found = Character.objects.filter(campaign=campaign, owner=owner, name=choices["name"]).first()
        if found is not None:
            return found
        draft = character_services.create_draft(campaign, owner, choices=choices)
        return character_services.finalize(draft, is_gm=True, rng=random.Random(3))
