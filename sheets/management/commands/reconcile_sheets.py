"""Re-queue sheet renders stuck queued or running past SHEET_RENDER_DEADLINE_SECONDS (cron or by hand)."""

from django.core.management.base import BaseCommand

from sheets.tasks import requeue_stuck


class Command(BaseCommand):
    help = "Re-queue sheet renders stuck queued or running past the deadline; fail those tried too often."

    def handle(self, *args, **options):
        requeued = requeue_stuck()
        self.stdout.write(f"re-queued {len(requeued)} render(s): {', '.join(map(str, requeued)) or '-'}")
