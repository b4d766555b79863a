"""When rows were made: exported as ISO 8601, and put back after import so the dice log and the
ledger keep their order and dates (``auto_now_add`` would stamp the moment of the import)."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db.models import Case, DateTimeField, Value, When
from django.utils import timezone
from django.utils.dateparse import parse_datetime


def parse(value) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = parse_datetime(value)
    except ValueError:
        return None
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment, UTC)
    return moment


def check(check, data: dict, key: str, path: str) -> None:
    """Add a problem unless ``data[key]`` is absent, null or an ISO 8601 date and time."""
    from archive.problems import join

    if data.get(key) is not None and parse(data[key]) is None:
        check.add(join(path, key), "must be a date and time such as 2026-01-31T20:15:00Z.")


def restore_created_at(model, rows, values, path: str = "", batch: int = 500) -> None:
    """Set each row's created_at to its exported value, one UPDATE per batch of rows (rows without
    a value keep the moment of the import)."""
    pairs = [(row.pk, parse(value)) for row, value in zip(rows, values, strict=True)]
    pairs = [(pk, moment) for pk, moment in pairs if moment is not None]
    for start in range(0, len(pairs), batch):
        chunk = pairs[start : start + batch]
        model.objects.filter(pk__in=[pk for pk, _ in chunk]).update(
            created_at=Case(
                *(When(pk=pk, then=Value(moment)) for pk, moment in chunk), output_field=DateTimeField()
            )
        )


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with a Z, e.g. 2026-01-31T20:15:00.123456Z."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
