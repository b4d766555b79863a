"""manage.py export_campaign <id> [-o file]: the campaign archive as JSON (stdout by default)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from archive import services
from campaigns.models import Campaign


class Command(BaseCommand):
    help = "Export a whole campaign (every section, GM-only records included) as one JSON archive."

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(self, *args, campaign_id: int, output: str | None = None, **options):
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        if campaign is None:
            raise CommandError(f"There is no campaign with id {campaign_id}.")
        pieces = services.stream_campaign(campaign)  # written as read: memory stays flat
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.writelines(pieces)
                handle.write("\n")
            self.stderr.write(f"Wrote {campaign.name!r} to {output}.")
        else:
            for piece in pieces:
                self.stdout.write(piece, ending="")
            self.stdout.write("")
