"""Print the campaign archive's JSON Schema for the installed systems, or write it to
docs/schemas/campaign.schema.json (--write). See archive/schema.py."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from archive import schema


class Command(BaseCommand):
    help = "Print the campaign archive's JSON Schema: the platform's part and each system's sections."

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help=f"Write it to {schema.PUBLISHED}.")

    def handle(self, *args, write=False, **options):
        try:
            text = schema.campaign_schema_text()
        except schema.MissingSectionSchema as error:
            raise CommandError(str(error)) from error
        if write:
            schema.PUBLISHED.write_text(text)
            self.stdout.write(f"Wrote {schema.PUBLISHED}.")
        else:
            self.stdout.write(text, ending="")
