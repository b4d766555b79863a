"""The toy system's print documents (found by the folder's convention, characters.registry): its
blank character sheet (``blank_sheet``) and one sheet kind besides the character sheet, the contest
scorecard (``toy_scorecard``, declared in apps.py): every contest of the campaign and its score, for
any member (the scores are no secret in the toy game), with its section of the sheets page."""

from __future__ import annotations

from characters.systems import SheetData
from sheets.kinds import KindPage, KindPlan, Offer, SheetOrder, content_digest

from . import engine
from .models import Contest

SCORECARD = "toy_scorecard"


def blank_sheet(module: str = "") -> SheetData:
    """The character sheet with every box empty, for play on paper."""
    return engine.blank_sheet()


def _contests(campaign) -> list[dict]:
    contests = Contest.objects.filter(campaign=campaign).order_by("created_at", "id")
    return [{"title": contest.title, "score": contest.score} for contest in contests]


def toy_scorecard(order: SheetOrder) -> KindPlan:
    """The scorecard as it stands: the same contests give the same print (reused, not rendered
    again); a new contest or score is a new print."""
    contests = _contests(order.campaign)
    return KindPlan(
        [KindPage("Contest scorecard", {"contests": contests})],
        f"{order.campaign.name} scorecard",
        len(contests),
        [content_digest(contests)],
        stamp_label="contests",
    )


def toy_scorecard_offer(campaign, user, membership) -> Offer:
    """The sheets page's scorecard section, for every member."""
    return Offer(
        "Contest scorecard",
        "Every contest of the campaign and its score, on one page.",
        blank_button="Print the scorecard",
    )
