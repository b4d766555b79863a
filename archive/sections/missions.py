"""Missions: title, briefing and status. Records the system apps hang on a mission (tallies,
time stones, conflicts, encounters) are sections of their own that point at these positions."""

from __future__ import annotations

from archive import timestamps
from archive.problems import Checker, join
from campaigns.models import Mission

KEY = "missions"
MAX_MISSIONS = 10_000
FIELDS = ("title", "briefing", "status")


def export(campaign, refs) -> list[dict]:
    rows = Mission.objects.filter(campaign=campaign).order_by("created_at", "id")
    out = []
    for position, mission in enumerate(rows):
        refs.remember(KEY, mission.pk, position)
        out.append(
            {
                **{name: getattr(mission, name) for name in FIELDS},
                "created_at": timestamps.iso(mission.created_at),
            }
        )
    return out


def validate(data, document) -> list:
    check = Checker()
    if not check.array(data, KEY, MAX_MISSIONS):
        return check.problems
    for index, mission in enumerate(data):
        path = join(KEY, index)
        if not check.obj(mission, path, ("title",)):
            continue
        check.text(mission, "title", path, Mission._meta.get_field("title").max_length, blank=False)
        check.text(mission, "briefing", path, Mission._meta.get_field("briefing").max_length)
        check.choice(mission, "status", path, Mission.Status.values)
        timestamps.check(check, mission, "created_at", path)
    return check.problems


def load(campaign, data, refs) -> None:
    rows = Mission.objects.bulk_create(
        Mission(campaign=campaign, **{name: mission[name] for name in FIELDS if name in mission})
        for mission in data
    )
    for position, row in enumerate(rows):
        refs.made(KEY, position, row)
    timestamps.restore_created_at(Mission, rows, [mission.get("created_at") for mission in data], KEY)
