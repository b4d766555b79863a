"""Writing rows that point at each other within one import."""

from __future__ import annotations

from django.db.models import BigIntegerField, Case, Value, When


def link_reversals(model, made: list, items: list[dict], batch: int = 500) -> None:
    """Point each reversal (``items[i]["reverses"]`` = position) at the row it undoes, one UPDATE
    per batch. The rows were inserted in one batch first, so their ids keep the archive's order
    (ledgers and tallies are read by id); append-only models are written with update(), not save()."""
    links = [
        (made[i].pk, made[item["reverses"]].pk)
        for i, item in enumerate(items)
        if item.get("reverses") is not None
    ]
    for start in range(0, len(links), batch):
        chunk = links[start : start + batch]
        model.objects.filter(pk__in=[pk for pk, _ in chunk]).update(
            reverses_id=Case(
                *(When(pk=pk, then=Value(target)) for pk, target in chunk), output_field=BigIntegerField()
            )
        )
