"""Tempo's part of the chronicle (campaigns.chronicle.recap.ChronicleProvider), found by the
registry by this module's name.

- Notable rolls: a roll in the top or the bottom outcome band, Dramatic Success or Unmitigated
  Failure (tempo-flashpoints.md §B2, §E1), named by who rolled, the role and the total. A
  conflict's roll is among the rolls the reader sees only if the reader sees its conflict (the dice
  log's rule, ``services.hidden_conflict_rolls``), and a GM side's sealed roll never is.
- Scenes: the conflicts that ended in the session (over, their last event in it), told by their
  outcome (§B8-§B10: a goal won by a decisive spend, a concession and its terms, or the GM's end),
  for the readers who see the conflict (the GM; a player with an agent in it:
  ``Conflict.objects.visible_to``). Another player or an observer reads no line for it.
- No "who advanced" and no "who fell": core Tempo has no advancement and no health track
  (tempo-flashpoints.md §A1); fate points are a currency spent and regained in play.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.urls import reverse

from campaigns.chronicle.recap import ended_scenes
from systems.tempo.engine.tables import BANDS_BY_KEY, CRIT_BAND, FUMBLE_BAND
from systems.tempo.models import Conflict

#: The bands worth a recap line: the top and the bottom one (§B2: Dramatic Success, Unmitigated Failure).
NOTABLE_BANDS = (CRIT_BAND, FUMBLE_BAND)
#: The rolls notable_roll may name (the platform filters on this, in the query).
NOTABLE_ROLLS = Q(detail__band__in=NOTABLE_BANDS)


def notable_roll(roll: Any) -> str:
    """A Dramatic Success or an Unmitigated Failure: who, the role, the band and the total."""
    detail = roll.detail or {}
    band = detail.get("band")
    if band not in NOTABLE_BANDS:
        return ""
    role = str(detail.get("role") or "")  # the role's label, or a GM side's name
    # an agent's roll is named by the agent; a GM side's by its name alone (not the GM's account)
    who = (
        roll.character.name
        if roll.character_id
        else ""
        if role
        else roll.roller.username
        if roll.roller_id
        else ""
    )
    name = detail.get("band_name") or BANDS_BY_KEY[band]["name"]
    total = detail.get("total", roll.total)
    return f"{who + ': ' if who else ''}{role + ', ' if role else ''}{name} ({total})."


def _said(text: Any) -> str:
    """Free text of the outcome as a parenthesis's content: no full stop of its own."""
    return str(text or "").strip().rstrip(".")


def _side(state: dict[str, Any], key: Any) -> str:
    side = (state.get("sides") or {}).get(key) if isinstance(key, str) else None
    return str(side.get("name") or key) if isinstance(side, dict) else ""


def outcome_sentence(conflict: Conflict) -> str:
    """How the conflict ended, in a sentence (the engine's ``outcome``)."""
    state = conflict.state or {}
    outcome = state.get("outcome") or {}
    how = outcome.get("how")
    if how == "decisive":
        winner = _side(state, outcome.get("winner"))
        goal = _said(outcome.get("goal"))
        return f"{conflict.title}: {winner} won" + (f" (goal: {goal})." if goal else ".")
    if how == "concession":
        winner, loser = _side(state, outcome.get("winner")), _side(state, outcome.get("loser"))
        terms = _said(outcome.get("terms"))
        return f"{conflict.title}: {loser} conceded to {winner}" + (f" (terms: {terms})." if terms else ".")
    reason = _said(outcome.get("reason")) if how == "ended" else ""
    return f"{conflict.title}: the GM ended it" + (f" ({reason})." if reason else ".")


def scene_highlights(campaign, user, membership, start, stop) -> list[tuple[str, str]]:
    """The conflicts this reader sees that ended in the window: over, their last event in it."""
    visible = Conflict.objects.visible_to(user, membership).filter(campaign=campaign)
    ended = ended_scenes(visible, start, stop, "title", "state")
    return [
        (outcome_sentence(conflict), reverse("tempo-conflict-detail", args=[conflict.pk]))
        for conflict in ended
    ]
