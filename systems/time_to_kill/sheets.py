"""Time to Kill's print documents besides the character sheet (registry: SystemApp.blank_sheet and
sheet_kinds): its blank character sheet, and the GM's Fate Record Sheet, blank for play at the
table or filled with a mission run's current turn (its secret Fates: GM only)."""

from __future__ import annotations

from typing import Any

from characters.systems import SheetData
from sheets.blanks import TITLE, rows
from sheets.kinds import KindPage, KindPlan, Offer, SheetOrder
from systems.time_to_kill import services as ttk_services
from systems.time_to_kill.engine import fate_record_sheet_data
from systems.time_to_kill.engine import sheet as ttk_sheet
from systems.time_to_kill.engine.tables import ABILITIES, ABILITY_KEYS, GAME_TITLE, NON_COMBAT
from systems.time_to_kill.models import MissionRun
from systems.time_to_kill.views import TARGET_LABEL

#: How many turns the printed turn record holds: the most recent ones, so the sheet stays one page
#: (Letter: 20 filled rows and one to write in).
FATE_RECORD_GRID_TURNS = 20


def _blank_rows(group: str) -> list[dict]:
    found = []
    for key in ABILITY_KEYS:
        info = ABILITIES[key]
        if info["group"] != group:
            continue
        row = {
            "key": key,
            "name": info["name"],
            "scope": info["scope"],
            "creation": "",
            "track": [{"rating": r, "marked": False} for r in ttk_sheet.TRACK],
        }
        if group == NON_COMBAT:
            row.update(disabled_box=True, disabled=False)
        found.append(row)
    return found


def blank_sheet(module: str = "") -> SheetData:
    fields = {
        "blank": True,
        "header": {"game": GAME_TITLE, "character": "", "player": "", "campaign": "", "status": ""},
        "creation": {},
        "ability_groups": ttk_sheet.ability_groups(_blank_rows),
        "mission": {"revealed_fates": []},
        "record": {},
        "missions": [],
        "blank_rows": {"missions": rows(6)},
        "reference": ttk_sheet.reference(),
    }
    return SheetData("time_to_kill", ttk_sheet.TEMPLATE, TITLE, fields)


def _run_fields(run: MissionRun) -> dict[str, Any]:
    """The run's current turn as the mission pages give it to the GM, plus the print's own labels."""
    fields = ttk_services.fate_record_sheet_for_run(run)
    mission = fields["mission"]
    mission["target_label"] = TARGET_LABEL.get(mission.get("target"), "")
    if run.outcome == ttk_services.ABANDONED:
        mission["outcome"] = ttk_services.ABANDONED_LABEL
    grid = fields["grid"]
    fields["grid"] = grid[-FATE_RECORD_GRID_TURNS:]
    fields["earlier_turns"] = len(grid) - len(fields["grid"])
    fields["run"] = {"title": run.title, "event_count": run.event_count, "status": run.get_status_display()}
    return fields


def fate_record(order: SheetOrder) -> KindPlan:
    """The Fate Record Sheet: blank without a run; with one, keyed like a character's revision by
    the run's event count (a new event is a new print, the same state reuses the stored one)."""
    run = order.target
    if run is None:
        blank = fate_record_sheet_data(None)
        return KindPlan(
            [KindPage(blank.title, blank.fields)], "Fate Record Sheet", 0, ["blank"], gm_copy=True
        )
    page = KindPage(
        "Fate Record Sheet", _run_fields(run), run.ninja.name, run.event_count, stamp_label="after event"
    )
    return KindPlan(
        [page],
        f"{run.title} Fate Record",
        run.event_count,
        [f"run{run.pk}@{run.event_count}"],
        gm_copy=True,
        stamp_label="after event",
        target_title=run.title,
        row={"record": run},
    )


def find_fate_record(campaign, run_id: int) -> MissionRun | None:
    """The campaign's mission run whose Fate Record Sheet to print (None: another's, or none)."""
    return MissionRun.objects.select_related("ninja").filter(pk=run_id, campaign=campaign).first()


def fate_record_offer(campaign, user, membership) -> Offer:
    """The sheets page's Fate Record Sheet section (for the GM): the campaign's mission runs, newest
    first, each printed filled with its current turn, and the blank sheet."""
    runs = [
        {
            "id": run.pk,
            "label": run.title,
            "detail": f"{run.ninja.name}, {run.get_status_display().lower()}, event {run.event_count}",
        }
        for run in MissionRun.objects.filter(campaign=campaign).select_related("ninja")[:20]
    ]
    return Offer(
        "Fate Record Sheet",
        "Filled with the current turn's Fates of a mission run, or blank for play at the table."
        if runs
        else "",
        runs,
        button="Print Fate Record Sheet",
        blank_button="Print a blank Fate Record Sheet",
    )
