"""The D6 System's part of the chronicle (campaigns.chronicle.recap.ChronicleProvider), found by the
registry by this module's name.

- Who advanced: a trait raised, a skill added, a special ability gained (the ledger's entries,
  engine/ledger.py ENTRY_SHAPES; d6-game-time.md §A1, §A2), one sentence each. Points gained or
  spent are a bank, not an advance, and are left out.
- Notable rolls: a Wild Die that came up 6 at least twice in a row (its chain's second face is a
  6: it is rolled again only after a 6; d6-game-time.md §B2, §E3, the campaign's exploding Wild
  Die), with who rolled, what for and the total.
- Scenes: the encounters that ended in the session (over, their last event in it), with the round
  they ended in and the reason the GM gave. Every member sees the campaign's encounters
  (``Encounter.objects.visible_to``), and the end's round and reason are in the players' view.
- No "who fell": the encounter tracker keeps no health, and the ledger no wound.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from campaigns.chronicle.recap import ended_scenes
from characters.systems import RuleError
from systems.d6.engine.dicecode import format_code, parse
from systems.d6.models import Encounter

#: The entries entry_highlight reads (the platform asks for these only).
HIGHLIGHT_ENTRY_KINDS = ("trait_raised", "skill_added", "special_ability_gained")
#: The rolls notable_roll may name: the Wild Die's chain has a second face, and it is a 6 (the
#: platform filters on this, in the query; the JSON path reads the same on SQLite and PostgreSQL).
NOTABLE_ROLLS = Q(detail__wild__1=6)


def _text(value: Any) -> str:
    return str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""


def _code(value: Any) -> str:
    """A die code as the sheet writes it ("4d +1" typed is 4D+1); "" for none."""
    try:
        return format_code(parse(value)) if value not in (None, "") else ""
    except RuleError:
        return _text(value)


def entry_highlight(entry: Any) -> tuple[str, str] | None:
    """("advanced", a sentence) for a trait raised, a skill added or a special ability gained."""
    payload = entry.payload if isinstance(entry.payload, dict) else {}
    name = entry.character.name
    if entry.kind == "trait_raised" and _text(payload.get("trait")) and _code(payload.get("to")):
        return "advanced", f"{name} raised {_text(payload['trait'])} to {_code(payload['to'])}."
    if entry.kind == "skill_added" and _text(payload.get("skill")):
        code = _code(payload.get("code"))
        based = _text(payload.get("attribute"))
        sentence = f"{name} learned a new skill, {_text(payload['skill'])}"
        sentence += f" ({based}{', ' + code if code else ''})" if based else f" ({code})" if code else ""
        return "advanced", sentence + "."
    if entry.kind == "special_ability_gained" and _text(payload.get("name")):
        ranks = payload.get("ranks", 1)
        many = isinstance(ranks, int) and not isinstance(ranks, bool) and ranks > 1
        return "advanced", f"{name} gained the special ability {_text(payload['name'])}" + (
            f" ({ranks} ranks)." if many else "."
        )
    return None


def _times(count: int) -> str:
    return {2: "twice", 3: "three times", 4: "four times"}.get(count, f"{count} times")


def notable_roll(roll: Any) -> str:
    """A Wild Die that came up 6 twice or more in a row: who, what for, how often and the total."""
    detail = roll.detail if isinstance(roll.detail, dict) else {}
    wild = detail.get("wild") if isinstance(detail.get("wild"), list) else []
    sixes = 0
    for face in wild:
        if face != 6:
            break
        sixes += 1
    if sixes < 2:
        return ""
    who = roll.character.name if roll.character_id else ""
    purpose = (roll.purpose or "").strip()
    said = f"{who}: " if who and who not in purpose else ""
    said += f"{purpose}, the" if purpose else "The"
    total = detail.get("total", roll.total)
    return f"{said} Wild Die came up 6 {_times(sixes)} in a row (total {total})."


def outcome_sentence(encounter: Encounter) -> str:
    """How the encounter ended: the round it ended in and the GM's reason, if one was given."""
    outcome = (encounter.state or {}).get("outcome") or {}
    rounds = outcome.get("round")
    sentence = f"{encounter.name} ended"
    if isinstance(rounds, int) and not isinstance(rounds, bool):
        sentence += (
            f" after {rounds} round{'s' if rounds != 1 else ''}" if rounds else " before its first round"
        )
    reason = str(outcome.get("reason") or "").strip().rstrip(".")
    return sentence + (f": {reason}." if reason else ".")


def scene_highlights(campaign, user, membership, start, stop) -> list[tuple[str, str]]:
    """The encounters that ended in the window: over, their last event in it, oldest first."""
    visible = Encounter.objects.visible_to(user).filter(campaign=campaign)
    ended = ended_scenes(visible, start, stop, "name", "state")
    return [
        (outcome_sentence(encounter), reverse("d6-encounter-detail", args=[campaign.pk, encounter.pk]))
        for encounter in ended
    ]
