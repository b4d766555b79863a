"""Members by username and role. The user importing becomes (or stays) game master.

Through the web or the API, an import may only bring back people who already play with the
importer (members of a campaign the importer runs): nobody is put into a campaign, or given
characters, by someone they have never played with. ``manage.py import_campaign`` is the
administrator's and restores every member (``refs.trusted``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model

from archive.problems import ArchiveRefused, Checker, Problem, join
from campaigns.models import Membership, Role

KEY = "members"
MAX_MEMBERS = 1000


def export(campaign, refs) -> list[dict]:
    memberships = campaign.memberships.select_related("user").order_by("joined_at", "id")
    return [{"username": m.user.username, "role": m.role} for m in memberships]


def validate(data, document) -> list:
    check = Checker()
    if not check.array(data, KEY, MAX_MEMBERS):
        return check.problems
    seen: set[str] = set()
    for index, member in enumerate(data):
        path = join(KEY, index)
        if not check.obj(member, path, ("username", "role")):
            continue
        check.text(member, "username", path, 150, blank=False)
        check.choice(member, "role", path, Role.values)
        username = member.get("username")
        if isinstance(username, str):
            if username in seen:
                check.add(join(path, "username"), f"{username!r} is listed twice.")
            seen.add(username)
    return check.problems


def load(campaign, data, refs) -> None:
    wanted = [m["username"] for m in data]
    users = get_user_model().objects.filter(username__in=wanted)
    refs.users.update({user.username: user for user in users})
    refs.users.setdefault(refs.by.username, refs.by)
    missing = [
        Problem(join(join(KEY, index), "username"), f"There is no account called {m['username']!r} here.")
        for index, m in enumerate(data)
        if m["username"] not in refs.users
    ]
    if missing:
        raise ArchiveRefused(missing)
    if not refs.trusted:
        _refuse_strangers(data, refs)
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=refs.users[m["username"]], role=m["role"])
        for m in data
        if m["username"] != refs.by.username
    )


def _refuse_strangers(data, refs) -> None:
    runs = Membership.objects.filter(user=refs.by, role=Role.GM).values("campaign_id")
    known = set(Membership.objects.filter(campaign_id__in=runs).values_list("user__username", flat=True)) | {
        refs.by.username
    }
    strangers = [
        Problem(
            join(join(KEY, index), "username"),
            f"{m['username']!r} is not in any campaign you run; invite them after the import, "
            "or ask an administrator to import with manage.py import_campaign.",
        )
        for index, m in enumerate(data)
        if m["username"] not in known
    ]
    if strangers:
        raise ArchiveRefused(strangers)
