"""NPCs with their GM-only notes and statistics; the statistics are checked again by the engine."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from archive import timestamps
from archive.problems import ArchiveRefused, Checker, Problem, join
from campaigns import npc_services
from campaigns.models import NPC

KEY = "npcs"
MAX_NPCS = 10_000
TEXTS = ("name", "public_description", "gm_notes", "kind")
STATS = ("kind", "abilities", "significance_rating", "status_rating", "skills", "talents")


def export(campaign, refs) -> list[dict]:
    rows = list(
        NPC.objects.filter(campaign=campaign).select_related("created_by").order_by("created_at", "id")
    )
    for position, npc in enumerate(rows):
        refs.remember(KEY, npc.pk, position)
    return [
        {
            "name": npc.name,
            "public_description": npc.public_description,
            "gm_notes": npc.gm_notes,
            "revealed": npc.revealed,
            "kind": npc.kind,
            "abilities": npc.abilities,
            "significance_rating": npc.significance_rating,
            "status_rating": npc.status_rating,
            "skills": npc.skills,
            "talents": npc.talents,
            "created_by": npc.created_by.username if npc.created_by else None,
            "created_at": timestamps.iso(npc.created_at),
        }
        for npc in rows
    ]


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_NPCS):
        return check.problems
    for index, npc in enumerate(data):
        path = join(KEY, index)
        if not check.obj(npc, path, ("name",)):
            continue
        for name in TEXTS:
            check.text(npc, name, path, NPC._meta.get_field(name).max_length or 20000, blank=name != "name")
        check.boolean(npc, "revealed", path)
        check.kind_of(npc, "abilities", path, (dict,), "an object")
        check.kind_of(npc, "skills", path, (dict,), "an object")
        check.kind_of(npc, "talents", path, (list,), "a list")
        check.integer(npc, "significance_rating", path, null=True)
        check.integer(npc, "status_rating", path, null=True)
        if npc.get("created_by") is not None:
            check.text(npc, "created_by", path, 150)
        timestamps.check(check, npc, "created_at", path)
    return check.problems


def _problems(error: ValidationError, path: str) -> list[Problem]:
    if hasattr(error, "message_dict"):
        return [
            Problem(join(path, field) if field != "__all__" else path, message)
            for field, messages in error.message_dict.items()
            for message in messages
        ]
    return [Problem(path, message) for message in error.messages]


def load(campaign, data, refs) -> None:
    problems: list[Problem] = []
    rows = []
    for index, npc in enumerate(data):
        values = {name: npc[name] for name in (*TEXTS, *STATS, "revealed") if name in npc}
        try:
            rows.append(npc_services.create_npc(campaign, refs.user(npc.get("created_by")), values))
        except ValidationError as error:
            problems.extend(_problems(error, join(KEY, index)))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            problems.append(
                Problem(join(KEY, index), f"the NPC rules cannot read these statistics ({error}).")
            )
    if problems:
        raise ArchiveRefused(problems)
    for position, row in enumerate(rows):
        refs.made(KEY, position, row)
    timestamps.restore_created_at(NPC, rows, [npc.get("created_at") for npc in data])
