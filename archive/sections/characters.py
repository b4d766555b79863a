"""Characters of every system with their builds, wizard choices and ledgers (see archive.characters)."""

from __future__ import annotations

from archive import characters as character_data
from archive import references
from archive.problems import ArchiveRefused, Checker, Problem, join, length_of
from characters.models import AdvancementEntry, Character

KEY = "characters"
REFERENCE = references.CHARACTER  # records point at this section's rows by key
REFERENCE_AS_TEXT = True  # the engines keep its ids as text
#: Ledger entries by position in their character's ledger (export) and per character (import:
#: ``refs.row(LEDGER, character_position)`` is that character's list of entries, in ledger order).
LEDGER = "ledger"
MAX_CHARACTERS = 5_000


def export(campaign, refs) -> list[dict]:
    characters = list(ordered(campaign).select_related("owner"))
    ledgers: dict[int, list] = {c.pk: [] for c in characters}
    entries = AdvancementEntry.objects.filter(character__campaign=campaign).select_related("recorded_by")
    for entry in entries.order_by("id"):
        ledgers[entry.character_id].append(entry)
    out = []
    for position, character in enumerate(characters):
        refs.remember(KEY, character.pk, position)
        for index, entry in enumerate(ledgers[character.pk]):
            refs.remember(LEDGER, entry.pk, index)  # a play record points at its ninja's entry
        out.append(
            character_data.character_data(
                character, ledgers[character.pk], lambda pk: refs.position("missions", pk), refs.keys
            )
        )
    return out


def ordered(campaign):
    """The characters in archive order (their positions)."""
    return Character.objects.filter(campaign=campaign).order_by("id")


def validate(data, document) -> list[Problem]:
    check = Checker()
    if not check.array(data, KEY, MAX_CHARACTERS):
        return check.problems
    mission_count = length_of(document, "missions")
    listed = document.get("members") if isinstance(document.get("members"), list) else []
    members = {m["username"] for m in listed if isinstance(m, dict) and isinstance(m.get("username"), str)}
    for index, character in enumerate(data):
        path = join(KEY, index)
        problems = character_data.validate(character, path, mission_count)
        check.problems.extend(problems)
        owner = character.get("owner") if not problems else None
        if not problems and (not isinstance(owner, str) or owner not in members):
            check.add(join(path, "owner"), f"{character.get('owner')!r} is not one of the archive's members.")
    return check.problems


def load(campaign, data, refs) -> None:
    problems: list[Problem] = []
    for index, character in enumerate(data):
        problems.extend(character_data.check_rules(character, join(KEY, index), campaign))
    if problems:
        raise ArchiveRefused(problems)
    for index, character in enumerate(data):
        entries: list = []
        owner = refs.user(character["owner"]) or refs.by  # a member left out: the importer's now
        row = character_data.create(campaign, character, owner, refs, join(KEY, index), entries)
        refs.made(KEY, index, row)
        refs.made(LEDGER, index, entries)
