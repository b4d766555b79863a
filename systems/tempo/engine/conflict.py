"""Conflict as a pure state machine: two sides roll, the tempo moves (tempo-flashpoints.md §B8-§B11,
§D8, §D9, §E15-§E24).

``new_conflict(sides, settings=None, module=None, scene_aspects=())`` makes the starting state;
``apply_event(state, event)`` returns a NEW state or raises RuleError naming what is wrong;
``replay(state, events)`` folds a list. States and events are JSON-able dicts; roll events carry
their roll results, so replaying never rolls dice. Shapes are listed in README.md.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, cast

from characters.systems.base import refuse, replay_events

from .campaign_settings import resolved
from .modules import get_module
from .tables import (
    HOLDER_RESULT,
    MARGIN_LEVELS,
    MAX_TEXT,
    SPEND_BENEFITS,
    SPEND_RESULT,
    SUPERIORITY_MAX,
    SUPERIORITY_OFFSET,
    TEMPO_LEVELS,
    TEMPO_LOSS_RULES,
    TEMPO_NAMES,
)

RULE_TEMPO = "tempo-flashpoints.md §B8"
RULE_SPEND = "tempo-flashpoints.md §B9"
RULE_CONCEDE = "tempo-flashpoints.md §B10, §E21"
RULE_SUPERIORITY = "tempo-flashpoints.md §B11"
STATE_VERSION = 1
CONTROLLERS = ("player", "gm")
EVENT_TYPES = (
    "roll",
    "spend",
    "concede",
    "accept_concession",
    "refuse_concession",
    "veto_concession",
    "set_superiority",
    "set_cap",
    "end",
)


# -- pure pieces -------------------------------------------------------------------------------
def level_for(margin: int) -> str:
    """The tempo level a winning margin reaches from Even (§B8)."""
    margin = abs(margin)
    for low, high, level in MARGIN_LEVELS:
        if margin >= low and (high is None or margin <= high):
            return level
    return "even"


def _rank(level: str) -> int:
    return TEMPO_LEVELS.index(level)


def capped(level: str, max_level: str) -> str:
    """A side lacking what it needs never rises above its cap (§B8 cap, §D8)."""
    return level if _rank(level) <= _rank(max_level) else max_level


def next_tempo(
    holder: str | None,
    level: str,
    winner: str | None,
    margin: int,
    caps: dict[str, str],
    loss_rule: str = "winner_takes",
) -> tuple[str | None, str]:
    """(holder, level) after a roll won by ``winner`` by ``margin`` (§B8 tables, §E16)."""
    if winner is None:  # a tie changes nothing
        return holder, level
    reached = level_for(margin)
    if holder is None:
        return winner, capped(reached, caps[winner])
    if winner == holder:
        return holder, capped(HOLDER_RESULT[level][reached], caps[holder])
    if loss_rule == "reset_to_even":
        return None, "even"
    return winner, capped(reached, caps[winner])


def diminishing(values: Iterable[int]) -> int:
    """Several axes of superiority: the best counts in full, each next one is halved again,
    rounding down (§B11, §E23)."""
    return sum(value // 2**i for i, value in enumerate(sorted(values, reverse=True)))


def effective_superiority(state: dict[str, Any], side: str) -> int:
    """A side's superiority after the opponent's offsets, never below 0 (§B11, §E20)."""
    data = state["sides"][side]
    return max(0, diminishing(data["superiority"]) - cast(int, data["offset"]))


def net_superiority(state: dict[str, Any]) -> dict[str, int]:
    """What each side adds to its roll: only the side ahead, by the difference (§E24)."""
    first, second = state["order"]
    diff = effective_superiority(state, first) - effective_superiority(state, second)
    return {first: max(diff, 0), second: max(-diff, 0)}


def opponent(state: dict[str, Any], side: str) -> str:
    first, second = state["order"]
    return cast(str, second if side == first else first)


# -- building a state --------------------------------------------------------------------------
def _superiority(value: Any, where: str) -> list[int]:
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= SUPERIORITY_MAX for v in values):
        raise refuse(
            where,
            f"Superiority is a whole number from 0 to {SUPERIORITY_MAX} (one per axis).",
            RULE_SUPERIORITY,
        )
    return list(values)


def _max_level(value: Any, where: str) -> str:
    if value not in TEMPO_LEVELS[1:]:
        raise refuse(where, "A cap is edge, advantage or decisive.", RULE_TEMPO)
    return cast(str, value)


def _text(value: Any, where: str, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise refuse(where, f"Say {what} (at most {MAX_TEXT} characters).")
    return value.strip()


def new_conflict(
    sides: list[dict[str, Any]],
    settings: dict[str, Any] | None = None,
    module: str | None = None,
    scene_aspects: Iterable[str] = (),
) -> dict[str, Any]:
    """The starting state: two sides at Even (§B8). Side: {"key", "name", "controlled_by":
    "player"|"gm", "superiority": int or [int per axis] (default 0), "max_level": "edge"|
    "advantage"|"decisive" (default decisive), "aspects": [str]}. A module adds its campaign
    aspects to the scene (§D9)."""
    options = resolved(settings)
    if not isinstance(sides, list) or len(sides) != 2:
        raise refuse("sides", "A conflict has exactly two sides.", RULE_TEMPO)
    state_sides: dict[str, dict[str, Any]] = {}
    for i, side in enumerate(sides):
        where = f"sides.{i}"
        if not isinstance(side, dict):
            raise refuse(where, "Each side must be an object.")
        key = _text(side.get("key"), f"{where}.key", "the side's key")
        if key in state_sides:
            raise refuse(f"{where}.key", "The two sides need different keys.")
        controlled_by = side.get("controlled_by", "player")
        if controlled_by not in CONTROLLERS:
            raise refuse(f"{where}.controlled_by", "A side is run by a player or by the GM.")
        aspects = side.get("aspects", [])
        state_sides[key] = {
            "key": key,
            "name": _text(side.get("name", key), f"{where}.name", "the side's name"),
            "controlled_by": controlled_by,
            "superiority": _superiority(side.get("superiority", 0), f"{where}.superiority"),
            "offset": 0,
            "max_level": _max_level(side.get("max_level", "decisive"), f"{where}.max_level"),
            "aspects": [_text(a, f"{where}.aspects", "the aspect") for a in aspects],
            "free_scene_aspects": [],
        }
    campaign = list(get_module(module).campaign_aspects) if module else []
    return {
        "version": STATE_VERSION,
        "module": module,
        "status": "running",
        "round": 0,
        "loss_rule": options["tempo_loss_rule"],
        "order": list(state_sides),
        "sides": state_sides,
        "tempo": {"holder": None, "level": "even"},
        "spent_this_narration": False,
        "concession": None,
        "outcome": None,
        "goals_won": [],
        "scene_aspects": [_text(a, "scene_aspects", "the aspect") for a in scene_aspects],
        "campaign_aspects": campaign,
        "margins": [],
        "log": [],
    }


# -- events ------------------------------------------------------------------------------------
def _side(state: dict[str, Any], event: dict[str, Any], field: str = "side") -> str:
    side = event.get(field)
    if not isinstance(side, str) or side not in state["sides"]:
        raise refuse(
            field, f"There is no side {side!r} in this conflict (sides: {', '.join(state['order'])})."
        )
    return side


def _running(state: dict[str, Any], *, settle_concession: bool = True) -> None:
    if state["status"] != "running":
        raise refuse("status", "This conflict is over.", RULE_TEMPO)
    if settle_concession and state["concession"] is not None:
        who = state["sides"][state["concession"]["side"]]["name"]
        raise refuse(
            "concession",
            f"There is an offer to concede from {who}: accept, refuse or veto it first.",
            RULE_CONCEDE,
        )


def _tempo_text(state: dict[str, Any]) -> str:
    holder, level = state["tempo"]["holder"], state["tempo"]["level"]
    if holder is None:
        return "Even"
    return f"{state['sides'][holder]['name']} holds {TEMPO_NAMES[level]}"


def _set_tempo(state: dict[str, Any], holder: str | None, level: str) -> None:
    state["tempo"] = {"holder": None if level == "even" else holder, "level": level}


def _total(result: Any, where: str) -> int:
    total = result.get("total") if isinstance(result, dict) else None
    if isinstance(total, bool) or not isinstance(total, int):
        raise refuse(where, "Each side's roll result needs its total.", RULE_TEMPO)
    return total


def _consume_free_uses(state: dict[str, Any], side: str, result: dict[str, Any], where: str) -> None:
    """Scene aspects freed by an Edge spend (§B9 E4) are used up by the side's next roll."""
    pending = state["sides"][side]["free_scene_aspects"]
    for use in result.get("aspects", ()) or ():
        if isinstance(use, dict) and use.get("use") == "free" and use.get("reason") == "tempo":
            match = next((a for a in pending if a.casefold() == str(use.get("aspect", "")).casefold()), None)
            if match is None:
                raise refuse(
                    where, f"{use.get('aspect')!r} was not freed by a tempo spend of this side.", RULE_SPEND
                )
            pending.remove(match)


def _roll(state: dict[str, Any], event: dict[str, Any]) -> None:
    """Both sides roll; superiority is added to the side ahead; the margin moves the tempo (§B8)."""
    _running(state)
    results = event.get("results")
    if not isinstance(results, dict) or set(results) != set(state["order"]):
        raise refuse(
            "results", f"A round needs a roll result for each side ({', '.join(state['order'])}).", RULE_TEMPO
        )
    totals = {side: _total(results[side], f"results.{side}") for side in state["order"]}
    for side in state["order"]:
        _consume_free_uses(state, side, results[side], f"results.{side}")
    bonus = net_superiority(state)
    scores = {side: totals[side] + bonus[side] for side in state["order"]}
    first, second = state["order"]
    margin = scores[first] - scores[second]
    winner = None if margin == 0 else (first if margin > 0 else second)
    before = dict(state["tempo"])
    caps = {side: state["sides"][side]["max_level"] for side in state["order"]}
    holder, level = next_tempo(
        before["holder"], before["level"], winner, abs(margin), caps, state["loss_rule"]
    )
    _set_tempo(state, holder, level)
    state["round"] += 1
    state["spent_this_narration"] = False
    state["margins"].append({"round": state["round"], "winner": winner, "margin": abs(margin)})
    state["log"].append(
        {
            "type": "roll",
            "round": state["round"],
            "results": copy.deepcopy(results),
            "totals": totals,
            "superiority": bonus,
            "scores": scores,
            "winner": winner,
            "margin": abs(margin),
            "tempo_before": before,
            "tempo_after": dict(state["tempo"]),
            "summary": _roll_summary(state, winner, abs(margin)),
        }
    )


def _roll_summary(state: dict[str, Any], winner: str | None, margin: int) -> str:
    if winner is None:
        return f"A tie: nothing changes. {_tempo_text(state)}."
    return f"{state['sides'][winner]['name']} wins by {margin}. {_tempo_text(state)}."


def _spend(state: dict[str, Any], event: dict[str, Any]) -> None:
    """The holder gives up tempo for a benefit of its tier and steps down (§B9, §E17, §E19)."""
    _running(state)
    side = _side(state, event)
    holder, level = state["tempo"]["holder"], state["tempo"]["level"]
    if holder != side:
        raise refuse("side", f"{state['sides'][side]['name']} holds no tempo to spend.", RULE_SPEND)
    if state["spent_this_narration"]:
        raise refuse("side", "Tempo is spent once per narration; roll again first.", RULE_SPEND)
    tier = event.get("tier", level)
    if not isinstance(tier, str) or tier not in SPEND_RESULT[level]:
        raise refuse(
            "tier",
            f"Holding {TEMPO_NAMES[level]}, the benefits on offer are those of "
            f"{', '.join(TEMPO_NAMES[t] for t in SPEND_RESULT[level])}.",
            RULE_SPEND,
        )
    benefit = event.get("benefit")
    if not isinstance(benefit, str) or benefit not in SPEND_BENEFITS[tier]:
        raise refuse(
            "benefit",
            f"Spending {TEMPO_NAMES[tier]} gives one of: {', '.join(SPEND_BENEFITS[tier])}.",
            RULE_SPEND,
        )
    other = opponent(state, side)
    record: dict[str, Any] = {
        "type": "spend",
        "round": state["round"],
        "side": side,
        "tier": tier,
        "benefit": benefit,
        "tempo_before": dict(state["tempo"]),
    }
    if benefit == "add_scene_aspect":
        record["aspect"] = _text(event.get("aspect"), "aspect", "the new scene aspect")
        state["scene_aspects"].append(record["aspect"])
    elif benefit == "opponent_aspect":
        record["aspect"] = _text(event.get("aspect"), "aspect", "the aspect put on the opponent")
        state["sides"][other]["aspects"].append(record["aspect"])
    elif benefit == "use_scene_aspect":
        aspect = _text(event.get("aspect"), "aspect", "which scene aspect")
        on_scene = {a.casefold(): a for a in (*state["scene_aspects"], *state["campaign_aspects"])}
        if aspect.casefold() not in on_scene:
            raise refuse("aspect", f"{aspect!r} is not an aspect of this scene.", RULE_SPEND)
        record["aspect"] = on_scene[aspect.casefold()]
        state["sides"][side]["free_scene_aspects"].append(record["aspect"])
    elif benefit == "offset_superiority":
        if effective_superiority(state, other) == 0:
            raise refuse(
                "benefit",
                f"{state['sides'][other]['name']} has no superiority left to offset.",
                RULE_SUPERIORITY,
            )
        record["offset"] = SUPERIORITY_OFFSET[tier]
        state["sides"][other]["offset"] += SUPERIORITY_OFFSET[tier]
    elif benefit == "minor_benefit":
        record["note"] = _text(event.get("note"), "note", "what the small benefit is")
    elif benefit == "win_conflict":
        record["goal"] = _text(event.get("goal"), "goal", "the goal won")
        state["goals_won"].append({"side": side, "goal": record["goal"], "round": state["round"]})
        if event.get("ends_conflict", True):
            state["status"] = "over"
            state["outcome"] = {"winner": side, "how": "decisive", "goal": record["goal"]}
    _set_tempo(state, side, SPEND_RESULT[level][tier])
    if state["status"] == "over":
        _set_tempo(state, None, "even")
    state["spent_this_narration"] = True
    record["tempo_after"] = dict(state["tempo"])
    state["log"].append(record)


def _concede(state: dict[str, Any], event: dict[str, Any]) -> None:
    """A side offers to lose on terms it names, between rounds (§B10)."""
    _running(state)
    side = _side(state, event)
    terms = _text(event.get("terms"), "terms", "the terms of the concession")
    state["concession"] = {"side": side, "terms": terms}
    state["log"].append({"type": "concede", "round": state["round"], "side": side, "terms": terms})


def _pending(state: dict[str, Any]) -> dict[str, Any]:
    _running(state, settle_concession=False)
    if state["concession"] is None:
        raise refuse("concession", "No concession is on the table.", RULE_CONCEDE)
    return cast("dict[str, Any]", state["concession"])


def _accept(state: dict[str, Any], event: dict[str, Any]) -> None:
    offer = _pending(state)
    winner = opponent(state, offer["side"])
    state["status"] = "over"
    state["outcome"] = {
        "winner": winner,
        "loser": offer["side"],
        "how": "concession",
        "terms": offer["terms"],
    }
    state["concession"] = None
    _set_tempo(state, None, "even")
    state["log"].append({"type": "accept_concession", "round": state["round"], **state["outcome"]})


def _refuse(state: dict[str, Any], event: dict[str, Any]) -> None:
    """Refusing a concession costs the refuser its tempo; a side at Even cannot refuse, and the GM
    does not refuse a player's concession (§B10, §E21)."""
    offer = _pending(state)
    side = _side(state, event)
    name = state["sides"][side]["name"]
    if side == offer["side"]:
        raise refuse(
            "side", f"{name} offered the concession; the other side accepts or refuses it.", RULE_CONCEDE
        )
    if state["sides"][side]["controlled_by"] == "gm":
        raise refuse(
            "side", "The GM does not refuse a concession; a lame one can be vetoed instead.", RULE_CONCEDE
        )
    if state["tempo"]["holder"] != side:
        raise refuse("side", f"Refusing a concession costs tempo, and {name} holds none.", RULE_CONCEDE)
    before = dict(state["tempo"])
    _set_tempo(state, None, "even")
    state["concession"] = None
    state["log"].append(
        {
            "type": "refuse_concession",
            "round": state["round"],
            "side": side,
            "tempo_before": before,
            "tempo_after": dict(state["tempo"]),
        }
    )


def _veto(state: dict[str, Any], event: dict[str, Any]) -> None:
    """The GM turns down a lame concession; the conflict goes on (§B10)."""
    offer = _pending(state)
    reason = _text(event.get("reason"), "reason", "why the concession is vetoed")
    state["concession"] = None
    state["log"].append(
        {"type": "veto_concession", "round": state["round"], "side": offer["side"], "reason": reason}
    )


def _set_superiority(state: dict[str, Any], event: dict[str, Any]) -> None:
    """The situation changed: new superiority for a side; offsets against it lapse (§B11, §E20)."""
    _running(state)
    side = _side(state, event)
    values = _superiority(event.get("values", event.get("superiority", 0)), "values")
    state["sides"][side]["superiority"] = values
    state["sides"][side]["offset"] = 0
    state["log"].append({"type": "set_superiority", "round": state["round"], "side": side, "values": values})


def _set_cap(state: dict[str, Any], event: dict[str, Any]) -> None:
    """Mark a side as lacking what it needs (max Edge) or lift that (§B8 cap)."""
    _running(state)
    side = _side(state, event)
    max_level = _max_level(event.get("max_level"), "max_level")
    state["sides"][side]["max_level"] = max_level
    if state["tempo"]["holder"] == side:
        _set_tempo(state, side, capped(state["tempo"]["level"], max_level))
    state["log"].append({"type": "set_cap", "round": state["round"], "side": side, "max_level": max_level})


def _end(state: dict[str, Any], event: dict[str, Any]) -> None:
    _running(state, settle_concession=False)
    reason = _text(event.get("reason"), "reason", "why the conflict ends")
    state["status"] = "over"
    state["concession"] = None
    state["outcome"] = {"winner": None, "how": "ended", "reason": reason}
    state["log"].append({"type": "end", "round": state["round"], "reason": reason})


_HANDLERS = {
    "roll": _roll,
    "spend": _spend,
    "concede": _concede,
    "accept_concession": _accept,
    "refuse_concession": _refuse,
    "veto_concession": _veto,
    "set_superiority": _set_superiority,
    "set_cap": _set_cap,
    "end": _end,
}


def apply_event(state: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """The state after ``event``; the input is never changed. Illegal events raise RuleError."""
    if (
        not isinstance(event, dict)
        or not isinstance(event.get("type"), str)
        or event["type"] not in _HANDLERS
    ):
        raise refuse("type", f"An event's type is one of: {', '.join(EVENT_TYPES)}.")
    if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
        raise refuse("state", "This is not a Tempo conflict state.")
    if state.get("loss_rule") not in TEMPO_LOSS_RULES:
        raise refuse("state", "The conflict state has no valid tempo loss rule.")
    new = copy.deepcopy(state)
    _HANDLERS[event["type"]](new, event)
    return new


def replay(state: dict[str, Any], events: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Fold events in order; a RuleError names the failing event's position."""
    return replay_events(state, events, apply_event)


def public_view(state: dict[str, Any], reveal_sides: Iterable[str] = ()) -> dict[str, Any]:
    """The state as players may see it (hidden information): the raw rolls and totals of GM-run
    sides are removed unless listed in ``reveal_sides`` (the reveal_npc_rolls setting, or Faces Are
    an Open Book after a deception roll), and with them the rounds' margins, from which a player's
    own total would give the hidden one away (docs/rulings-tempo.md). Winners and tempo stay visible."""
    if isinstance(reveal_sides, str) or not isinstance(reveal_sides, Iterable):
        raise refuse("reveal_sides", "The sides to reveal are a list of side keys.")
    shown = {side for side in reveal_sides if isinstance(side, str)}
    view = copy.deepcopy(state)
    hidden = [s for s in view["order"] if view["sides"][s]["controlled_by"] == "gm" and s not in shown]
    if not hidden:
        return view
    for record in view["log"]:
        if record["type"] != "roll":
            continue
        for side in hidden:
            record["results"][side] = {"hidden": True}
            record["totals"][side] = None
            record["scores"][side] = None
        # The margin less a side's own score is the other side's: with a side hidden, its margin
        # goes too, and the round reads as its outcome and the change of tempo (docs/rulings-tempo.md).
        if record.get("winner") is not None and record.get("margin") is not None:
            record["summary"] = str(record.get("summary", "")).replace(
                f" wins by {record['margin']}.", " wins."
            )
        record["margin"] = None
    for entry in view["margins"]:
        entry["margin"] = None
    return view


def tracker(state: dict[str, Any]) -> dict[str, Any]:
    """What the GM conflict tracker shows (§C2), already computed."""
    return {
        "status": state["status"],
        "round": state["round"],
        "tempo": _tempo_text(state),
        "tempo_holder": state["tempo"]["holder"],
        "tempo_level": state["tempo"]["level"],
        "sides": [
            {
                "key": side,
                "name": state["sides"][side]["name"],
                "controlled_by": state["sides"][side]["controlled_by"],
                "superiority": effective_superiority(state, side),
                "capped_at": None
                if state["sides"][side]["max_level"] == "decisive"
                else TEMPO_NAMES[state["sides"][side]["max_level"]],
                "aspects": list(state["sides"][side]["aspects"]),
            }
            for side in state["order"]
        ],
        "margins": list(state["margins"]),
        "concession": state["concession"],
        "scene_aspects": [*state["campaign_aspects"], *state["scene_aspects"]],
        "outcome": state["outcome"],
    }
