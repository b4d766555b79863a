"""Members by username and role. The user importing becomes (or stays) game master.

Through the web or the API, the importer is the new campaign's only member: joining a campaign
takes the member's consent (accepting an invitation), which an archive cannot give, so nobody is put
into a campaign, made its GM, or named by its records by someone else's import. The other members
are left out (``refs.left_out``: the import's report lists them, in words that do not tell whether
such an account exists); the GM invites them afterwards. ``manage.py import_campaign`` is the
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
    if not refs.trusted:
        refs.users = {refs.by.username: refs.by}
        for member in data:
            refs.user(member["username"])  # noted as left out unless it is the importer
        return
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
    Membership.objects.bulk_create(
        Membership(campaign=campaign, user=refs.users[m["username"]], role=m["role"])
        for m in data
        if m["username"] != refs.by.username
    )
