"""Rolls entered by hand (physical dice, not verifiable): the positions of those rolls in ``rolls``
(a section before this one). Additive: a file without it imports with no roll marked so."""

from __future__ import annotations

from archive.problems import Checker, Problem, join, length_of
from campaigns.models import RollProof

KEY = "rolls_by_hand"
ROLLS = "rolls"


def export(campaign, refs) -> list[dict]:
    pks = RollProof.objects.filter(roll__campaign=campaign, by_hand=True).values_list("roll_id", flat=True)
    positions = (refs.position(ROLLS, pk) for pk in pks.iterator(chunk_size=2000))
    return [{"roll": p} for p in sorted(p for p in positions if p is not None)]


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, length_of(document, ROLLS)):
        return check.problems
    rolls = length_of(document, ROLLS)
    seen: set[int] = set()
    for index, mark in enumerate(data):
        path = join(KEY, index)
        if not check.obj(mark, path, ("roll",)):
            continue
        if mark.get("roll") is None or mark.get("roll") in seen:
            check.add(join(path, "roll"), "must name a roll of the archive, once.")
        check.reference(mark, "roll", path, rolls, "rolls of the archive")
        if isinstance(mark.get("roll"), int):
            seen.add(mark["roll"])
    return check.problems


def load(campaign, data, refs) -> None:
    rows = (refs.row(ROLLS, mark["roll"]) for mark in data)
    RollProof.objects.bulk_create([RollProof(roll=row, by_hand=True) for row in rows if row is not None])
