"""The toy system's print documents besides the character sheet (SystemApp.sheet_kinds), written
to the convention the platform's sheet hooks are expected to read (issue 29; the hooks are built
on another branch at the same time): ``KINDS``, kind key -> (label, who may print it, a function
(campaign) -> SheetData); the blank sheet is the engine's ``blank_sheet()``.

A contest scorecard: every contest of the campaign and its score, for any member (the scores are
no secret in the toy game)."""

from __future__ import annotations

from characters.systems import SheetData

from .models import Contest

SCORECARD = "toy_scorecard"


def scorecard(campaign) -> SheetData:
    contests = Contest.objects.filter(campaign=campaign).order_by("created_at", "id")
    rows = [{"title": contest.title, "score": contest.score} for contest in contests]
    return SheetData("toy", "sheets/toy_scorecard.html", "Contest scorecard", {"contests": rows})


KINDS = {SCORECARD: ("Contest scorecard", "member", scorecard)}
