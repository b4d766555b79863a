"""Missions: title, briefing, status, and the destination, significance, Historical Changes Chart
and outcome a campaign's system may keep on them (GM-only until published); the campaign's system
checks its own fields (``MISSION_PROBLEMS`` of its ``archive_format`` module). The agents sent,
the check roll and the significance tally point at characters, NPCs and rolls, so they are the later section
``mission_records``; records the play apps hang on a mission are sections of their own."""

from __future__ import annotations

from archive import references, timestamps
from archive.problems import Checker, Problem, join
from campaigns.models import Mission

KEY = "missions"
REFERENCE = references.MISSION  # records point at this section's rows by key
REFERENCE_AS_TEXT = True  # the engines keep its ids as text
MAX_MISSIONS = 10_000
FIELDS = (
    "title",
    "briefing",
    "status",
    "parallel",
    "place",
    "start_year",
    "end_year",
    "significance_rating",
    "historical_changes_chart",
    "success",
    "outcome",
    "previous_outcomes",
)
MOMENTS = ("started_at", "closed_at", "published_at")
USERS = ("closed_by", "published_by")


def ordered(campaign):
    return Mission.objects.filter(campaign=campaign).order_by("created_at", "id")


def export(campaign, refs) -> list[dict]:
    rows = ordered(campaign).select_related(*USERS)
    out = []
    for position, mission in enumerate(rows):
        refs.remember(KEY, mission.pk, position)
        data = {name: getattr(mission, name) for name in FIELDS}
        data.update({name: timestamps.iso(getattr(mission, name)) for name in MOMENTS})
        data.update({name: getattr(getattr(mission, name), "username", None) for name in USERS})
        data["created_at"] = timestamps.iso(mission.created_at)
        out.append(references.mission(data, refs.keys.key, join(KEY, position)))
    return out


def _text_fields(check: Checker, mission: dict, path: str) -> None:
    for name in ("title", "briefing", "parallel", "place"):
        check.text(mission, name, path, Mission._meta.get_field(name).max_length, blank=name != "title")
    for name in USERS:
        if mission.get(name) is not None:
            check.text(mission, name, path, 150)


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_MISSIONS):
        return check.problems
    header = document.get("campaign") if isinstance(document, dict) else None
    system = header.get("system") if isinstance(header, dict) else None
    system_problems = getattr(references.archive_format(system), "MISSION_PROBLEMS", None)
    for index, mission in enumerate(data):
        path = join(KEY, index)
        if not check.obj(mission, path, ("title",)):
            continue
        _text_fields(check, mission, path)
        check.choice(mission, "status", path, Mission.Status.values)
        check.integer(mission, "start_year", path, minimum=-(2**31), maximum=2**31 - 1, null=True)
        check.integer(mission, "end_year", path, minimum=-(2**31), maximum=2**31 - 1, null=True)
        check.integer(mission, "significance_rating", path, minimum=1, maximum=1000, null=True)
        check.kind_of(mission, "success", path, (bool,), "true, false or null", null=True)
        check.kind_of(mission, "outcome", path, (dict,), "an object")
        check.kind_of(mission, "previous_outcomes", path, (list,), "a list")
        check.kind_of(mission, "historical_changes_chart", path, (list,), "a list")
        for name, message in system_problems(mission) if system_problems is not None else ():
            check.add(join(path, name), message)
        for name in (*MOMENTS, "created_at"):
            timestamps.check(check, mission, name, path)
    return check.problems


def load(campaign, data, refs) -> None:
    rows = Mission.objects.bulk_create(
        Mission(
            campaign=campaign,
            **{name: mission[name] for name in FIELDS if name in mission},
            **{name: timestamps.parse(mission.get(name)) for name in MOMENTS},
            **{name: refs.user(mission.get(name)) for name in USERS},
        )
        for mission in data
    )
    for position, row in enumerate(rows):
        refs.made(KEY, position, row)
    timestamps.restore_created_at(Mission, rows, [mission.get("created_at") for mission in data])
