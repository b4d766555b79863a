"""manage.py import_campaign <file> [--gm username]: a new campaign from an archive.

Without --gm, the archive's first game master who has an account here runs the new campaign."""

from __future__ import annotations

import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from archive import format as archive_format
from archive import services
from archive.problems import ArchiveRefused


class Command(BaseCommand):
    help = "Import a campaign archive as a new campaign; nothing is created if anything is wrong."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument(
            "--gm", help="username of the new campaign's game master (default: the archive's first GM)"
        )

    def handle(self, *args, file: str, gm: str | None = None, **options):
        try:
            size = os.path.getsize(file)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            if archive_format.too_large(size):
                raise archive_format.size_problem(size)  # refused before reading or parsing
            with open(file, "rb") as handle:
                raw = handle.read()
            document = archive_format.read(raw, archive_format.CAMPAIGN)
            user = self._game_master(document, gm)
            warnings: list[str] = []
            campaign = services.import_campaign(document, user, trusted=True, warnings=warnings)
        except ArchiveRefused as error:
            lines = "\n".join(f"  {problem}" for problem in error.problems)
            raise CommandError(f"The archive was refused; nothing was imported:\n{lines}") from None
        self.stdout.write(
            f"Imported {campaign.name!r} as campaign {campaign.pk}, game master {user.username}."
        )
        for line in warnings:
            self.stdout.write(f"  warning: {line}")

    def _game_master(self, document, gm: str | None):
        users = get_user_model().objects
        if gm:
            user = users.filter(username=gm).first()
            if user is None:
                raise CommandError(f"There is no account called {gm!r}.")
            return user
        members = document.get("members") if isinstance(document.get("members"), list) else []
        for member in members:
            if (
                isinstance(member, dict)
                and member.get("role") == "gm"
                and isinstance(member.get("username"), str)
            ):
                user = users.filter(username=member["username"]).first()
                if user is not None:
                    return user
        raise CommandError("None of the archive's game masters has an account here; name one with --gm.")
