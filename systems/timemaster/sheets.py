"""TIMEMASTER's print documents besides the character sheet (registry: SystemApp.blank_sheet and
sheet_kinds): its blank agent record, and a mission's after-action report as plain data for its
print template (templates/sheets/timemaster_after_action.html).

The after-action report has two audiences (timemaster-characters.md §6.1-§6.2, rulings 2-4):
- the GM's copy: the significance rating, the whole tally (hidden and reversed lines too), the
  check (roll against the mistakes total, the difference and the chart line), the verdict, the pool
  with its split and remainder, and every agent's award;
- a player's copy: only once the GM has published, and only what ``systems.timemaster.missions.after_action``
  gives a player (the verdict, the roll and chart line, the tally lines shown to players, the
  awards of their own agents). The significance rating and the split never appear in it.

The record is frozen into the render's snapshot at request time, so it prints what was true then.
"""

from __future__ import annotations

from typing import Any

from campaigns import charts, missions
from campaigns.models import Mission, SignificanceEntry
from characters.systems import SheetData
from sheets.blanks import TITLE, rows
from sheets.kinds import KindPage, KindPlan, Offer, SheetOrder, SheetRequestError, content_digest
from systems.timemaster import missions as tm_missions
from systems.timemaster.engine import counterfactual
from systems.timemaster.engine.tables import ABILITY_NAMES, SHEET_ABILITY_ORDER, WOUND_BOXES_ON_SHEET


def blank_sheet(module: str = "") -> SheetData:
    fields: dict[str, Any] = {
        "blank": True,
        "character": "",
        "player": "",
        "rank_grade": "",
        "success_points": "",
        "basic_statistics": [
            {"code": code, "name": ABILITY_NAMES[code], "score": ""} for code in SHEET_ABILITY_ORDER
        ],
        "unskilled_melee_formula": "(Str+Agl)÷2",
        "wound_boxes": [
            {"number": n, "struck": False, "marked": False} for n in range(1, WOUND_BOXES_ON_SHEET + 1)
        ],
        "background": {},
        "skills": [],
        "talents": [],
        "times_visited": [],
        "blank_rows": {"skills": rows(14), "talents": rows(4), "times_visited": rows(6)},
    }
    return SheetData("timemaster", "sheets/timemaster.html", TITLE, fields)


def _years(mission: Mission) -> str:
    def label(year: int | None) -> str:
        if year is None:
            return ""
        return f"{-year} B.C." if year < 0 else f"{year} A.D."

    start, end = label(mission.start_year), label(mission.end_year)
    return start if start == end else f"{start} to {end}".strip()


def _tally_rows(entries: list[SignificanceEntry], gm: bool) -> list[dict[str, Any]]:
    """The tally lines numbered 1, 2, 3 ... in the order they were recorded (never database ids).

    ``entries`` is what this reader may see (``tm_missions.after_action``): a player's copy numbers
    the shown lines among themselves, so no gap gives away that the GM keeps other lines, and a
    line is marked reversed only by a reversal the player sees too.
    """
    rows = []
    for line in missions.numbered_tally(entries):
        entry = line["entry"]
        row = {
            "number": line["number"],
            "kind": entry.get_kind_display(),
            "rating": entry.rating,
            "description": entry.description,
            "reversed": line["reversed"],
            "reverses": line["reverses_number"],
        }
        if gm:
            row.update(
                reason=entry.reason, shown_to_players=entry.shown_to_players, after_close=entry.after_close
            )
        rows.append(row)
    return rows


def _award_rows(awards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "name": award.get("name", ""),
            "regular": award.get("regular", 0),
            "forgone": award.get("forgone", 0),
            "reason": str(award.get("reason", "")).replace("_", " "),
            "grade_advance": "yes" if award.get("grade_advances") else "no",
        }
        for award in awards
    ]


def report(mission: Mission, user, is_gm: bool) -> dict[str, Any] | None:
    """The report's fields for this reader, or None when a player asks before publishing."""
    record = tm_missions.after_action(mission, user, is_gm)
    if record is None:
        return None
    entries = list(record["tally"])
    fields: dict[str, Any] = {
        "gm_copy": is_gm,
        "title": mission.title,
        "status": mission.get_status_display() if is_gm else mission.players_status_label,
        "published": record["published"],
        "destination": {"parallel": mission.parallel, "place": mission.place, "years": _years(mission)},
        "agents": sorted(a.name for a in mission.agents.all()),
        "verdict": record["verdict_label"],
        "history_changed": record["history_changed"],
        "roll": record["roll"],
        "chart_line": record["chart_line"],
        # The GM's copy: the mission's total. A player's: the total of the lines printed on it
        # (tm_missions.after_action works it out from those lines alone).
        "mistakes_total": record["mistakes_total"],
        "tally": _tally_rows(entries, is_gm),
        "awards": _award_rows(record["awards"]),
        # The mission's pictures as the system draws them for this reader (a player's: the shown
        # lines by kind and the published verdict, nothing of the roll or the significance).
        "charts": [
            charts.for_print(chart, "gm" if is_gm else "player", charts.print_font(mission.campaign.system))
            for chart in charts.mission_charts(mission, user, is_gm)
        ],
    }
    if is_gm:
        outcome = mission.outcome or {}
        check = outcome.get("check") or {}
        fields["gm"] = {
            "significance": outcome.get("significance", mission.significance_rating),
            # one Difference, the audit's and the chart's (issue 46): mistakes − roll, below 0 when
            # history held; the check itself keeps one only for a change of history (§6.2)
            "difference": counterfactual.difference(
                outcome.get("mistakes_total", record["mistakes_total"]), check.get("roll")
            ),
            "faces": check.get("faces") or [],
            "mistakes_by_kind": [
                {
                    "kind": SignificanceEntry.Kind(kind).label
                    if kind in SignificanceEntry.Kind.values
                    else kind,
                    "total": total,
                }
                for kind, total in (outcome.get("mistakes_by_kind") or {}).items()
            ],
            "pool": outcome.get("pool"),
            "share": outcome.get("share"),
            "remainder": outcome.get("remainder"),
            "chart": [dict(line) for line in mission.historical_changes_chart or []],
        }
    return fields


def after_action(order: SheetOrder) -> KindPlan:
    """A closed mission's report for this reader; a player's copy holds the awards of their own
    agents only, so it is one print per reader (the GM's: one for the mission's state)."""
    mission = order.target
    if not mission.is_closed:
        raise SheetRequestError("mission", "The mission is not closed yet; its report comes after closing.")
    record = report(mission, order.user, order.is_gm)
    if record is None:
        raise SheetRequestError("mission", "The GM has not published this mission's result yet.")
    parts = [f"m{mission.pk}", content_digest(record)] + ([] if order.is_gm else [f"u{order.user.pk}"])
    return KindPlan(
        [KindPage(record["title"], record)],
        f"{mission.title} report",
        0,
        parts,
        gm_copy=order.is_gm,
        target_title=mission.title,
        row={"mission": mission},
    )


def find_after_action(campaign, mission_id: int) -> Mission | None:
    """The campaign's mission whose report to print (None: another campaign's, or none)."""
    return Mission.objects.filter(pk=mission_id, campaign=campaign).first()


def after_action_offer(campaign, user, membership) -> Offer | None:
    """The sheets page's reports section: closed missions with a report this member may print
    (players: published ones), newest first."""
    closed = Mission.objects.filter(campaign=campaign, status__in=Mission.CLOSED_STATUSES)
    if not membership.is_gm:
        closed = closed.filter(published_at__isnull=False)
    found = list(closed.order_by("-closed_at", "-id")[:20])
    if not found:
        return None
    return Offer(
        "Mission after-action reports",
        "Your copy has the whole tally, the check and every award."
        if membership.is_gm
        else "The published result, with the awards of your own agents.",
        [{"id": mission.pk, "label": mission.title, "detail": ""} for mission in found],
        button="Print the report",
    )
