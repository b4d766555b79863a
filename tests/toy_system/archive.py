"""The toy system's campaign-archive section (archive.sections: KEY, export, validate, load): its
contests, each with its title, score, who made it and when. Found by the folder's convention
(SystemApp.archive_sections: the app's ``archive`` module)."""

from __future__ import annotations

from archive import timestamps
from archive.problems import Checker, Problem, join

from .models import Contest

KEY = "toy_contests"
MAX_CONTESTS = 1000
SCORES = (-(10**6), 10**6)


def export(campaign, refs) -> list[dict]:
    rows = Contest.objects.filter(campaign=campaign).select_related("created_by").order_by("created_at", "id")
    return [
        {
            "title": row.title,
            "score": row.score,
            "created_by": row.created_by.username if row.created_by else None,
            "created_at": timestamps.iso(row.created_at),
        }
        for row in rows
    ]


def usernames(data) -> set:
    return {item.get("created_by") for item in data or [] if isinstance(item, dict)} - {None}


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_CONTESTS):
        return check.problems
    for index, contest in enumerate(data):
        path = join(KEY, index)
        if not check.obj(contest, path, ("title",)):
            continue
        check.text(contest, "title", path, Contest._meta.get_field("title").max_length, blank=False)
        check.integer(contest, "score", path, minimum=SCORES[0], maximum=SCORES[1])
        if contest.get("created_by") is not None:
            check.text(contest, "created_by", path, 150)
        timestamps.check(check, contest, "created_at", path)
        for name in sorted(set(contest) - {"title", "score", "created_by", "created_at"}):
            check.add(join(path, name), "is not a field of a toy contest.")
    return check.problems


def load(campaign, data, refs) -> None:
    rows = Contest.objects.bulk_create(
        Contest(
            campaign=campaign,
            title=contest["title"],
            score=contest.get("score", 0),
            created_by=refs.user(contest.get("created_by")),
        )
        for contest in data
    )
    timestamps.restore_created_at(Contest, rows, [contest.get("created_at") for contest in data])
