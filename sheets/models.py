"""SheetRender: one printable PDF, the row that is the source of truth for its status.

A render is keyed by what it shows (kind, campaign, character or mission, the content key made
from the revisions it shows, the audience) and the template version. A second request for the same
key while one is queued, running or done gets that row back: no second render.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.db import models
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from kernel.fields import ReadSafeJSONField, random_public_id


class SheetKind(models.TextChoices):
    """The platform's own kinds; the systems add theirs (SystemApp.sheet_kinds, sheets.kinds)."""

    CHARACTER = "character", "Character sheet"
    BLANK = "blank", "Blank sheet"
    PARTY_BUNDLE = "party_bundle", "Party bundle"
    CAMPAIGN_REPORT = "campaign_report", "Campaign report"
    CHRONICLE = "chronicle", "Chronicle"


def kind_choices() -> list[tuple[str, str]]:
    """Every kind a render may be: the platform's, then each installed system's (a callable, so
    installing a system adds its kinds without a migration)."""
    from sheets import kinds

    return list(SheetKind.choices) + [(kind.key, kind.label) for _, kind in kinds.system_kinds()]


def gm_only_kinds() -> frozenset[str]:
    """Kinds only a campaign's GM may request or download (a system's kinds with readers "gm")."""
    from sheets import kinds

    return frozenset(kind.key for _, kind in kinds.system_kinds() if kind.readers == "gm")


#: A render (``render_id``) was asked for (``asked``), finished or failed: sent in the transaction
#: that says so, by the worker (sheets/tasks.py) and by services.request_render.
#: sheets.access.tell_readers puts it on the live feed for those who may read it (issue 44).
render_moved = Signal()


class RenderStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


LIVE_STATUSES = (RenderStatus.QUEUED, RenderStatus.RUNNING, RenderStatus.DONE)


def render_path(instance: SheetRender, filename: str) -> str:
    return f"sheets/{instance.campaign_id}/{filename}"


class SheetRenderQuerySet(models.QuerySet):
    def stuck(self, older_than):
        """Renders queued or running since before ``older_than`` (a lost job, a killed worker)."""
        return self.filter(
            Q(status=RenderStatus.QUEUED, queued_at__lt=older_than)
            | Q(status=RenderStatus.RUNNING, started_at__lt=older_than)
        )


class SheetRender(models.Model):
    # Random (kernel.fields.random_public_id): a player sees the ids of their own prints, and the
    # GM's prints in between (a Fate Record Sheet, a GM's copy) must leave no gaps among them.
    id = models.BigIntegerField(primary_key=True, default=random_public_id, editable=False)
    kind = models.CharField(max_length=20, choices=kind_choices)
    system = models.CharField(max_length=20)
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="sheet_renders")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, null=True, blank=True, related_name="sheet_renders"
    )
    mission = models.ForeignKey(
        "campaigns.Mission", on_delete=models.CASCADE, null=True, blank=True, related_name="sheet_renders"
    )
    # The record of a system's model a print shows (a play record: a mission run's Fate Record
    # Sheet, whose revision is the run's event count), set by a system kind through its
    # KindPlan.row ({"record": ...}). A generic relation, so the platform names no system's model;
    # the system's model declares a GenericRelation back to here, which deletes its prints with it.
    record_type = models.ForeignKey(
        "contenttypes.ContentType", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    record_id = models.PositiveBigIntegerField(null=True, blank=True)
    record = GenericForeignKey("record_type", "record_id")
    # A GM's copy may hold GM-only pages (a bundle with the Fate Record Sheet); a player's never does.
    gm_copy = models.BooleanField(default=False)
    # The character's revision shown (0 for sheets without a character; a bundle: the highest;
    # a mission run's Fate Record Sheet: the number of events the run had).
    revision = models.PositiveIntegerField(default=0)
    # What the PDF shows, as a short stable key: "c12@3" or, for a bundle, every "id@revision".
    content_key = models.CharField(max_length=64)
    template_version = models.CharField(max_length=20)
    # The data rendered, frozen at request time, so a later edit never changes what this row shows.
    snapshot = ReadSafeJSONField(default=dict, blank=True)

    status = models.CharField(max_length=10, choices=RenderStatus.choices, default=RenderStatus.QUEUED)
    error = models.CharField(max_length=500, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(default=0)
    file = models.FileField(upload_to=render_path, blank=True, max_length=200)
    size = models.PositiveIntegerField(default=0)
    pages = models.PositiveSmallIntegerField(default=0)

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    queued_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = SheetRenderQuerySet.as_manager()

    class Meta:
        ordering = ["-queued_at", "-id"]
        indexes = [
            models.Index(fields=["status", "queued_at"]),
            # A record's prints, found when it is deleted (its GenericRelation's cascade).
            models.Index(fields=["record_type", "record_id"], name="sheet_render_record"),
        ]
        constraints = [
            # Failed rows stay as a record; a new request after a failure makes a new row.
            models.UniqueConstraint(
                fields=["kind", "campaign", "content_key", "template_version", "gm_copy"],
                condition=Q(status__in=["queued", "running", "done"]),
                name="one_live_render_per_content",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status in (RenderStatus.DONE, RenderStatus.FAILED)

    @property
    def duration_seconds(self) -> float | None:
        if self.started_at and self.finished_at:
            return (self.finished_at - self.started_at).total_seconds()
        return None

    @property
    def stamp_label(self) -> str:
        """What the revision number counts: a character's revisions, or (a system kind's print)
        what its plan said, e.g. a mission run's events ("after event")."""
        return self.snapshot.get("stamp_label") or "revision"

    @property
    def stamp(self) -> str:
        """ "revision 3", "after event 12"; "" for a print that has no revision (a campaign report,
        a blank sheet, a mission's report: stored as revision 0, which a reader took for a number
        they should know; issue 44, walk point 16)."""
        if not self.revision and self.stamp_label == "revision":
            return ""
        return f"{self.stamp_label} {self.revision}"

    def download_name(self) -> str:
        """``<character>-<system>-sheet-r<revision>.pdf``, slugified (see ``download_name``); a
        campaign report or chronicle, which have no revision, ``<campaign>-report-<date>.pdf`` and
        ``<campaign>-chronicle-<date>.pdf`` (the day it was asked for)."""
        if self.kind in (SheetKind.CAMPAIGN_REPORT, SheetKind.CHRONICLE):
            from django.utils.text import slugify

            name = slugify(self.snapshot.get("campaign", "") or "campaign")[:60].strip("-") or "campaign"
            # the group's day (the campaign's time zone), the same from the page and the API
            zone = self.campaign.zone
            day = (
                timezone.localdate(self.queued_at, zone)
                if self.queued_at
                else timezone.localdate(timezone=zone)
            )
            word = "report" if self.kind == SheetKind.CAMPAIGN_REPORT else "chronicle"
            return f"{name}-{word}-{day:%Y-%m-%d}.pdf"
        return download_name(
            self.kind,
            self.snapshot.get("subject", ""),
            self.system,
            self.revision,
            self.snapshot.get("paper", ""),
        )


#: What the file name calls each of the platform's kinds (a character's sheet is just "sheet"); a
#: system's kind says its own (SheetKindSpec.file_word).
_KIND_WORDS = {
    SheetKind.CHARACTER: "sheet",
    SheetKind.BLANK: "blank-sheet",
    SheetKind.PARTY_BUNDLE: "party-sheets",
}


def _kind_word(kind: str) -> str:
    from sheets import kinds

    spec = kinds.spec(kind)
    return spec.file_word if spec is not None else _KIND_WORDS.get(kind, "sheet")


def download_name(kind: str, subject: str, system: str, revision: int, paper: str = "") -> str:
    """The PDF's file name: ``harry-adams-timemaster-sheet-r7-a4.pdf``; for sheets that are not one
    character's, what they show takes the character's place
    (``the-bell-tower-time-to-kill-fate-record-r12-letter.pdf``). The paper is in the name: the A4
    and the Letter print of one revision no longer land on one file in a Downloads folder.

    Markup in a name is dropped, accents are folded to ASCII, and nothing but letters, digits and
    hyphens remains, so the name is safe in every browser and file system.
    """
    from django.utils.html import strip_tags
    from django.utils.text import slugify

    word = _kind_word(kind)
    name = slugify(strip_tags(subject or ""))
    # The subject of a non-character sheet often ends in what it is ("The Bell Tower Fate Record").
    for tail in (word, "report", "party", "sheet"):
        if name.endswith(f"-{tail}") and name != tail:
            name = name[: -len(tail) - 1]
            break
    if kind == SheetKind.BLANK:
        name = ""
    system_slug = slugify(system.replace("_", "-"))
    name = name[:60].strip("-")
    parts = [part for part in (name, system_slug, word) if part]
    paper_slug = f"-{slugify(paper)}" if paper else ""
    return f"{'-'.join(parts)}-r{revision}{paper_slug}.pdf"
