"""The Tempo roll: 3d6 + role rating, bonus/penalty dice, stacked modifiers, bands, help, hurry.

tempo-flashpoints.md §B1 (the roll), §B2 (bands, narrator, optional fumble), §B3 (numeric
modifiers), §B4 (bonus and penalty dice), §B5 (helping), §B6 (hurry), §B7 (aspect uses and the
Flashpoints one-own-aspect limit), §D5-§D7 (validation).

``roll(rng, request, settings=None, module=None)`` rolls a request (a JSON-able dict, see
README.md) and returns a ``RollResult``; ``roll_for_agent(build, role, request, rng, ...)`` also
takes the rating from a build, checks the agent's own aspects, benefits and fate points, and
returns the fate point ledger entries the roll causes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, cast

from characters.systems import dice
from characters.systems.base import Build, RuleError, RuleViolation, refuse
from characters.systems.wording import counted, is_are

from . import fate
from .campaign_settings import resolved
from .module_data import Benefit, TempoModule
from .modules import get_module
from .tables import (
    ASPECT_SOURCES,
    ASPECT_USES,
    BANDS_BY_KEY,
    CRIT_BAND,
    DICE_KEPT,
    DIE_FACES,
    FREE_USE_REASONS,
    FUMBLE_BAND,
    HELP_DIE_BANDS,
    HURRY_MODES,
    MAX_TEXT,
    NARRATORS,
    OUTCOME_BANDS,
)

RULE_ROLL = "tempo-flashpoints.md §B1-§B4"
RULE_HELP = "tempo-flashpoints.md §B5, §D7"
RULE_ASPECTS = "tempo-flashpoints.md §B7, §D6"
MAX_DICE = 20  # a sanity bound on any one count of dice in a request, not a rule


@dataclass(frozen=True)
class RollResult:
    """Everything about one roll, JSON-able through ``as_dict``."""

    faces: tuple[int, ...]  # fresh dice, in rolling order
    help_dice: tuple[int, ...]  # helpers' dice that joined the pool (after cancelling)
    kept: tuple[int, ...]  # the kept dice, highest first
    dropped: tuple[int, ...]
    keep_count: int
    keep: str  # "highest", "lowest" or "all"
    dice_total: int
    role: str
    rating: int
    numeric_modifier: int
    total: int
    band: str
    band_name: str
    narrator: str
    fumble: bool = False
    crit: bool = False
    bonus_dice: int = 0  # fresh bonus dice left after cancelling
    penalty_dice: int = 0  # penalty dice left after cancelling
    fate_spent: int = 0
    fate_gained: int = 0
    aspects: tuple[dict[str, Any], ...] = ()
    help: tuple[dict[str, Any], ...] = ()
    hurry: dict[str, Any] | None = None
    explanation: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("faces", "help_dice", "kept", "dropped", "aspects", "help", "explanation"):
            data[key] = list(data[key])
        return data


# -- pure pieces -------------------------------------------------------------------------------
def band_for(total: int) -> dict[str, Any]:
    """The outcome band of a total (§B2, §E1: ≤ 4 is Unmitigated; below 0 too)."""
    for band in OUTCOME_BANDS:
        if (band["low"] is None or total >= band["low"]) and (band["high"] is None or total <= band["high"]):
            return band
    raise AssertionError("the bands cover every integer")


def stacked(values: list[int]) -> int:
    """Several bonuses (or penalties, as magnitudes) count as the largest plus a flat 1 (§B3)."""
    if not values:
        return 0
    return max(values) + (1 if len(values) >= 2 else 0)


def numeric_modifier(
    bonuses: list[int], penalties: list[int], descriptive: int = 0, module: TempoModule | None = None
) -> tuple[int, list[str]]:
    """Net numeric modifier and how it came about (§B3; §E5 Flashpoints descriptive bonuses).

    ``penalties`` are magnitudes. ``descriptive`` is how many descriptive bonuses apply: where the
    module says they do not stack they join the bonus list as one single +1 entry.
    """
    notes: list[str] = []
    bonus_list = list(bonuses)
    if descriptive:
        size = module.descriptive_bonus if module else 1
        if module is not None and not module.descriptive_bonuses_stack:
            bonus_list.append(size)
            if descriptive > 1:
                notes.append(f"{descriptive} descriptive bonuses do not stack: together they give +{size}.")
        else:
            bonus_list.extend([size] * descriptive)
    up, down = stacked(bonus_list), stacked(penalties)
    if len(bonus_list) >= 2:
        notes.append(f"Bonuses {_signed_list(bonus_list)}: the highest +{max(bonus_list)} plus 1 = +{up}.")
    if len(penalties) >= 2:
        notes.append(
            f"Penalties {_signed_list([-p for p in penalties])}: the largest -{max(penalties)} "
            f"and 1 more = -{down}."
        )
    if up and down:
        notes.append(f"Bonus +{up} and penalty -{down} cancel to {up - down:+d}.")
    return up - down, notes


def _signed_list(values: list[int]) -> str:
    return ", ".join(f"{v:+d}" for v in values)


def help_die(kept: list[int] | tuple[int, ...], total: int) -> tuple[int | None, str]:
    """The die a helper hands over, chosen by the band of the helper's total (§B5, §D7).

    Returns (die or None, which): which is "lowest", "middle", "highest" or "none".
    """
    for band in HELP_DIE_BANDS:
        if (band["low"] is None or total >= band["low"]) and (band["high"] is None or total <= band["high"]):
            which = band["die"]
            break
    if which is None:
        return None, "none"
    ordered = sorted(kept)
    index = {"lowest": 0, "middle": len(ordered) // 2, "highest": len(ordered) - 1}[which]
    return ordered[index], which


@dataclass(frozen=True)
class DicePlan:
    """How many dice to roll and keep once bonus, penalty and help dice have cancelled (§B4)."""

    keep_count: int
    fresh_bonus: int
    penalty: int
    help_kept: tuple[int, ...]
    help_cancelled: tuple[int, ...]


def plan_dice(
    bonus_dice: int, penalty_dice: int, help_dice: list[int], keep_count: int = DICE_KEPT
) -> DicePlan:
    """Cancel one for one before rolling: penalty dice cancel fresh bonus dice first and the
    helpers' (already rolled) dice last, taking the worst help dice (§B4 reading, §E6)."""
    fresh_bonus = max(0, bonus_dice - penalty_dice)
    left = max(0, penalty_dice - bonus_dice)
    best_first = sorted(help_dice, reverse=True)
    cancelled = min(left, len(best_first))
    help_kept = tuple(best_first[: len(best_first) - cancelled])
    help_cancelled = tuple(best_first[len(best_first) - cancelled :])
    return DicePlan(keep_count, fresh_bonus, max(0, left - len(best_first)), help_kept, help_cancelled)


def roll_dice(rng: random.Random, plan: DicePlan) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    """Roll the plan: (fresh faces, kept dice highest first, keep mode). Uses ``dice.keep``."""
    k = plan.keep_count
    if plan.fresh_bonus or plan.help_kept:
        rolled = dice.keep(rng, k + plan.fresh_bonus, k, highest=True)
        pool = sorted((*rolled.faces, *plan.help_kept), reverse=True)
        return rolled.faces, tuple(pool[:k]), "highest"
    if plan.penalty:
        rolled = dice.keep(rng, k + plan.penalty, k, highest=False)
        return rolled.faces, tuple(sorted(rolled.kept, reverse=True)), "lowest"
    rolled = dice.keep(rng, k, k)
    return rolled.faces, tuple(sorted(rolled.kept, reverse=True)), "all"


# -- the request -------------------------------------------------------------------------------
def _count(request: dict[str, Any], key: str, problems: list[RuleViolation]) -> int:
    value = request.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DICE:
        problems.append(
            RuleViolation(
                key,
                f"{key.replace('_', ' ').capitalize()} must be a whole number from 0 to {MAX_DICE}.",
                RULE_ROLL,
            )
        )
        return 0
    return value


def _int_list(request: dict[str, Any], key: str, problems: list[RuleViolation], magnitude: bool) -> list[int]:
    values = request.get(key) or []
    if not isinstance(values, list):
        problems.append(RuleViolation(key, f"{key.capitalize()} must be a list of numbers.", RULE_ROLL))
        return []
    out = []
    for i, value in enumerate(values):
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or value == 0
            or (value < 0 and not magnitude)
        ):
            problems.append(
                RuleViolation(
                    f"{key}.{i}", f"{value!r} is not a usable {key[:-1]} (a whole number, not 0).", RULE_ROLL
                )
            )
            continue
        out.append(abs(value))
    return out


def _aspect_uses(
    request: dict[str, Any], module: TempoModule | None, problems: list[RuleViolation]
) -> list[dict[str, Any]]:
    """Check the aspect uses of a roll (§B7, §D6) and return them normalised."""
    raw = request.get("aspects") or []
    if not isinstance(raw, list):
        problems.append(RuleViolation("aspects", "Aspects must be a list.", RULE_ASPECTS))
        return []
    uses: list[dict[str, Any]] = []
    seen: Counter[Any] = Counter()
    for i, item in enumerate(raw):
        where = f"aspects.{i}"
        if not isinstance(item, dict):
            problems.append(RuleViolation(where, "Each aspect use must be an object.", RULE_ASPECTS))
            continue
        text = item.get("aspect")
        source, use = item.get("source", "own"), item.get("use", "invoke")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
            problems.append(RuleViolation(f"{where}.aspect", "Name the aspect being used.", RULE_ASPECTS))
            continue
        if source not in ASPECT_SOURCES:
            problems.append(
                RuleViolation(
                    f"{where}.source",
                    f"An aspect's source must be one of {', '.join(ASPECT_SOURCES)}.",
                    RULE_ASPECTS,
                )
            )
            continue
        if not isinstance(use, str) or use not in ASPECT_USES:
            problems.append(
                RuleViolation(
                    f"{where}.use", f"An aspect use must be one of {', '.join(ASPECT_USES)}.", RULE_ASPECTS
                )
            )
            continue
        if use == "trouble" and source != "own":
            problems.append(
                RuleViolation(
                    f"{where}.use",
                    f"{text}: only the agent's own aspects earn a fate "
                    "point for a penalty die; other trouble is the GM's penalty die.",
                    RULE_ASPECTS,
                )
            )
            continue
        reason = item.get("reason")
        if use == "free" and reason not in FREE_USE_REASONS:
            problems.append(
                RuleViolation(
                    f"{where}.reason",
                    f"{text}: a free use needs a reason ({' or '.join(FREE_USE_REASONS)}).",
                    RULE_ASPECTS,
                )
            )
            continue
        if use == "free" and reason == "tempo" and source not in ("scene", "campaign"):
            problems.append(
                RuleViolation(
                    f"{where}.reason",
                    f"{text}: a spent Edge frees a scene aspect, not a character's.",
                    "tempo-flashpoints.md §B9",
                )
            )
            continue
        if use == "free" and reason == "benefit" and source != "own":
            problems.append(
                RuleViolation(
                    f"{where}.reason",
                    f"{text}: a benefit frees one of the agent's own aspects.",
                    RULE_ASPECTS,
                )
            )
            continue
        if (
            source == "campaign"
            and module is not None
            and text.strip().upper() not in {a.upper() for a in module.campaign_aspects}
        ):
            problems.append(
                RuleViolation(
                    f"{where}.aspect", f"{text} is not a campaign aspect of {module.label}.", RULE_ASPECTS
                )
            )
            continue
        identity = (source, text.strip().casefold())
        seen[identity] += 1
        if seen[identity] == 2:
            problems.append(
                RuleViolation(where, f"{text} is used twice; each aspect counts once per roll.", RULE_ASPECTS)
            )
            continue
        entry = {"aspect": text.strip(), "source": source, "use": use}
        if use == "free":
            entry["reason"] = reason
            if reason == "benefit":
                entry["benefit"] = item.get("benefit")
        uses.append(entry)
    limit = module.own_aspects_per_roll if module else None
    helping_own = [u for u in uses if u["source"] == "own" and u["use"] in ("invoke", "free")]
    if limit is not None and len(helping_own) > limit:
        names = ", ".join(u["aspect"] for u in helping_own)
        problems.append(
            RuleViolation(
                "aspects",
                f"In {module.label} only {counted(limit, 'aspect')} from the agent's own "  # type: ignore[union-attr]
                f"sheet may help a roll; {len(helping_own)} {is_are(len(helping_own))} used ({names}).",
                RULE_ASPECTS,
            )
        )
    return uses


def _help(request: dict[str, Any], problems: list[RuleViolation]) -> list[dict[str, Any]]:
    raw = request.get("help") or []
    if not isinstance(raw, list):
        problems.append(RuleViolation("help", "Help must be a list of helpers' rolls.", RULE_HELP))
        return []
    helpers = []
    for i, item in enumerate(raw):
        where = f"help.{i}"
        kept = item.get("kept") if isinstance(item, dict) else None
        total = item.get("total") if isinstance(item, dict) else None
        if (
            not isinstance(kept, list)
            or not kept
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= DIE_FACES for d in kept)
            or isinstance(total, bool)
            or not isinstance(total, int)
        ):
            problems.append(
                RuleViolation(where, "A helper's roll needs its kept dice (1-6) and its total.", RULE_HELP)
            )
            continue
        die, which = help_die(kept, total)
        helpers.append(
            {
                "helper": str(item.get("helper", f"helper {i + 1}")),
                "total": total,
                "kept": list(kept),
                "die": die,
                "which": which,
            }
        )
    return helpers


def _hurry(request: dict[str, Any], problems: list[RuleViolation]) -> dict[str, Any] | None:
    hurry = request.get("hurry")
    if hurry is None:
        return None
    if (
        not isinstance(hurry, dict)
        or not isinstance(hurry.get("mode"), str)
        or hurry["mode"] not in HURRY_MODES
    ):
        problems.append(
            RuleViolation(
                "hurry.mode",
                "Hurry is either a guarantee (penalty die) or a qualifier (bonus die).",
                "tempo-flashpoints.md §B6",
            )
        )
        return None
    text = hurry.get("text", "")
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT:
        what = "guaranteed" if hurry["mode"] == "guarantee" else "given up"
        problems.append(
            RuleViolation("hurry.text", f"Say what is {what} by hurrying.", "tempo-flashpoints.md §B6")
        )
        return None
    return {"mode": hurry["mode"], "text": text.strip()}


def _module(module: TempoModule | str | None, request: dict[str, Any]) -> TempoModule | None:
    if isinstance(module, TempoModule):
        return module
    key = module if module is not None else request.get("module")
    return None if key is None else get_module(key)


# -- the roll ----------------------------------------------------------------------------------
def roll(
    rng: random.Random,
    request: dict[str, Any],
    settings: dict[str, Any] | None = None,
    module: TempoModule | str | None = None,
) -> RollResult:
    """Roll one Tempo roll (§B1-§B7). Raises RuleError listing every problem with the request."""
    if not isinstance(request, dict):
        raise refuse("request", "A roll request must be an object.", RULE_ROLL)
    options = resolved(settings)
    the_module = _module(module, request)
    problems: list[RuleViolation] = []
    rating = request.get("rating", 0)
    if isinstance(rating, bool) or not isinstance(rating, int) or not -20 <= rating <= 20:
        problems.append(RuleViolation("rating", "The role rating must be a whole number.", RULE_ROLL))
        rating = 0
    role = request.get("role") or ""
    bonuses = _int_list(request, "bonuses", problems, magnitude=False)
    penalties = _int_list(request, "penalties", problems, magnitude=True)
    descriptive = request.get("descriptive") or []
    if not isinstance(descriptive, list) or not all(isinstance(d, str) for d in descriptive):
        problems.append(
            RuleViolation("descriptive", "Descriptive bonuses are a list of short labels.", RULE_ROLL)
        )
        descriptive = []
    gm_bonus_dice = _count(request, "bonus_dice", problems)
    gm_penalty_dice = _count(request, "penalty_dice", problems)
    extra, lost = _count(request, "extra_dice", problems), _count(request, "lost_dice", problems)
    keep_count = DICE_KEPT + extra - lost
    if keep_count < 1:
        problems.append(
            RuleViolation(
                "lost_dice", f"Losing {lost} dice leaves nothing to roll.", "tempo-flashpoints.md §B4, §E4"
            )
        )
    uses = _aspect_uses(request, the_module, problems)
    helpers = _help(request, problems)
    hurry = _hurry(request, problems)
    if problems:
        raise RuleError(problems)

    explanation: list[str] = []
    modifier, notes = numeric_modifier(bonuses, penalties, len(descriptive), the_module)
    explanation.extend(notes)

    bonus_dice = gm_bonus_dice + sum(ASPECT_USES[u["use"]]["bonus_dice"] for u in uses)
    penalty_dice = gm_penalty_dice + sum(ASPECT_USES[u["use"]]["penalty_dice"] for u in uses)
    if hurry:
        bonus_dice += HURRY_MODES[hurry["mode"]]["bonus_dice"]
        penalty_dice += HURRY_MODES[hurry["mode"]]["penalty_dice"]
    help_given = [h["die"] for h in helpers if h["die"] is not None]
    explanation.extend(_help_notes(helpers))
    plan = plan_dice(bonus_dice, penalty_dice, help_given, keep_count)
    explanation.extend(_cancel_notes(bonus_dice, penalty_dice, plan))

    faces, kept, mode = roll_dice(rng, plan)
    pool = Counter((*faces, *plan.help_kept))
    pool.subtract(Counter(kept))
    dropped = tuple(sorted(pool.elements(), reverse=True))
    dice_total = sum(kept)
    total = dice_total + rating + modifier
    explanation.append(_dice_note(faces, plan, kept, dropped, mode))
    explanation.append(_total_note(dice_total, role, rating, modifier, total))

    band = band_for(total)
    fumble = bool(options["fumble_rule"]) and all(d == 1 for d in kept)
    crit = bool(options["crit_rule"]) and all(d == DIE_FACES for d in kept)
    if fumble:
        band = BANDS_BY_KEY[FUMBLE_BAND]
        explanation.append("Every kept die shows 1: a fumble, so Unmitigated Failure whatever the total.")
    elif crit:
        band = BANDS_BY_KEY[CRIT_BAND]
        explanation.append("Every kept die shows 6: Dramatic Success whatever the total.")
    explanation.append(f"{band['name']}: {NARRATORS[band['narrator']]} narrates. {band['effect']}")
    if hurry:
        explanation.append(_hurry_note(hurry, band["key"]))

    return RollResult(
        faces=faces,
        help_dice=plan.help_kept,
        kept=kept,
        dropped=dropped,
        keep_count=keep_count,
        keep=mode,
        dice_total=dice_total,
        role=str(role),
        rating=rating,
        numeric_modifier=modifier,
        total=total,
        band=band["key"],
        band_name=band["name"],
        narrator=band["narrator"],
        fumble=fumble,
        crit=crit,
        bonus_dice=plan.fresh_bonus,
        penalty_dice=plan.penalty,
        fate_spent=sum(1 for u in uses if u["use"] == "invoke"),
        fate_gained=sum(1 for u in uses if u["use"] == "trouble"),
        aspects=tuple(uses),
        help=tuple(helpers),
        hurry=hurry,
        explanation=tuple(explanation),
        extra={"module": the_module.key if the_module else None, "descriptive": list(descriptive)},
    )


def _help_notes(helpers: list[dict[str, Any]]) -> list[str]:
    notes = []
    for h in helpers:
        if h["die"] is None:
            notes.append(f"{h['helper']} totalled {h['total']}: 4 or less gives no help.")
        else:
            notes.append(
                f"{h['helper']} totalled {h['total']} and hands over the {h['which']} die, a {h['die']}."
            )
    return notes


def _cancel_notes(bonus_dice: int, penalty_dice: int, plan: DicePlan) -> list[str]:
    notes = []
    if bonus_dice and penalty_dice:
        net = bonus_dice - penalty_dice
        if net > 0:
            rest = f"{net} bonus {'die' if net == 1 else 'dice'}"
        elif net < 0:
            rest = f"{-net} penalty {'die' if net == -1 else 'dice'}"
        else:
            rest = "none"
        notes.append(f"{bonus_dice} bonus and {penalty_dice} penalty dice cancel, leaving {rest}.")
    if plan.help_cancelled:
        notes.append(f"Penalty dice left over cancel the weakest help dice: {_faces(plan.help_cancelled)}.")
    return notes


def _faces(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values) or "none"


def _dice_note(
    faces: Sequence[int], plan: DicePlan, kept: Sequence[int], dropped: Sequence[int], mode: str
) -> str:
    rolled = f"Rolled {len(faces)} {'die' if len(faces) == 1 else 'dice'}: {_faces(faces)}"
    if plan.help_kept:
        rolled += f", plus help {_faces(plan.help_kept)}"
    if mode == "all":
        return f"{rolled}; all {len(kept)} count."
    return f"{rolled}; kept the {mode} {plan.keep_count}: {_faces(kept)} (dropped {_faces(dropped)})."


def _total_note(dice_total: int, role: str, rating: int, modifier: int, total: int) -> str:
    note = f"Dice {dice_total}, {role or 'rating'} {rating:+d}"
    if modifier:
        note += f", modifier {modifier:+d}"
    return f"{note}: total {total}."


def _hurry_note(hurry: dict[str, Any], band: str) -> str:
    if hurry["mode"] == "guarantee":
        return f"Hurried (penalty die): no complication may touch this: {hurry['text']}."
    note = f"Hurried (bonus die): the result carries this drawback: {hurry['text']}."
    if band == "qualified_success":
        note += " A Qualified Success may carry a second qualifier on top."
    return note


# -- rolling for an agent ----------------------------------------------------------------------
def roll_for_agent(
    build: Build,
    role: str,
    request: dict[str, Any],
    rng: random.Random,
    settings: dict[str, Any] | None = None,
    instead_of: str | None = None,
) -> tuple[RollResult, list[dict[str, Any]]]:
    """Roll ``role`` for an agent (§B1): the rating comes from the build, own aspects must be the
    agent's, a free own aspect needs a benefit that grants it (§E9), paid invocations must be
    affordable (§D4), and ``instead_of`` needs a benefit allowing the swap (§B1 substitutions).
    Returns the result and the fate point ledger entries it causes (apply them in order)."""
    if not isinstance(build, dict):
        raise refuse("build", "A build must be an object.")
    if not isinstance(request, dict):
        raise refuse("request", "A roll request must be an object.", RULE_ROLL)
    if not isinstance(role, str):
        raise refuse("role", "Name the role to roll.", RULE_ROLL)
    module = get_module(build.get("module"))
    the_role = module.role(role)
    rank = module.rank((build.get("roles") or {}).get(role, ""))
    if the_role is None:
        raise refuse("role", f"{module.label} has no role called {role!r}.", RULE_ROLL)
    if rank is None:
        raise refuse(f"roles.{role}", f"{the_role.name} has no rating on this agent.", RULE_ROLL)
    held = _held_benefits(build)
    label = f"{rank.name} {the_role.name}"
    if instead_of is not None:
        allowed = [
            b
            for b in held
            if b.substitution and b.substitution.role == role and b.substitution.instead_of == instead_of
        ]
        if not allowed:
            raise refuse(
                "instead_of",
                f"This agent has no benefit that lets {the_role.name} stand in for {instead_of}.",
                "tempo-flashpoints.md §B1",
            )
        label += f" in place of {instead_of} ({allowed[0].name}, {allowed[0].substitution.when})"  # type: ignore[union-attr]
    request = {**request, "rating": rank.modifier, "role": label, "module": module.key}
    uses = request.get("aspects") or []
    # A list of uses is checked against the agent here; anything else is refused by roll() below.
    if isinstance(uses, list):
        request["aspects"] = _own_aspects_checked(build, role, uses, held)
    result = roll(rng, request, settings, module)
    balance = build.get("fate_points", 0)
    if result.fate_spent > balance:
        raise refuse(
            "fate_points",
            f"Invoking {result.fate_spent} aspect{'s' if result.fate_spent > 1 else ''} costs "
            f"{result.fate_spent} fate point{'s' if result.fate_spent > 1 else ''} and the agent has "
            f"{balance}: take an aspect as trouble to earn one, or ask the game master for one.",
            "tempo-flashpoints.md §D4",
        )
    return result, fate.entries_for_roll(result)


def _held_benefits(build: Build) -> list[Benefit]:
    module = get_module(build.get("module"))
    held = []
    for role_key, chosen in (build.get("benefits") or {}).items():
        role = module.role(role_key)
        for item in chosen or []:
            key = item.get("key") if isinstance(item, dict) else item
            benefit = role.benefit(cast(str, key)) if role else None
            if benefit is not None:
                held.append(benefit)
    return held


def _own_aspects_checked(
    build: Build, role: str, uses: list[dict[str, Any]], held: list[Benefit]
) -> list[dict[str, Any]]:
    """Own aspects may be named by slot key or by text; both become the aspect text."""
    aspects = build.get("aspects") or {}
    texts = {
        slot: (entry or {}).get("text", "") for slot, entry in aspects.items() if isinstance(entry, dict)
    }
    by_text = {text.strip().casefold(): text for text in texts.values() if text}
    frees = {b.key: b.free_own_aspect_on for b in held if b.free_own_aspect_on}
    out = []
    problems = []
    for i, use in enumerate(uses):
        if not isinstance(use, dict) or use.get("source", "own") != "own":
            out.append(use)
            continue
        name = use.get("aspect")
        text = texts.get(name) if isinstance(name, str) else None
        text = text or (by_text.get(name.strip().casefold()) if isinstance(name, str) else None)
        if not text:
            problems.append(
                RuleViolation(
                    f"aspects.{i}.aspect", f"{name!r} is not one of this agent's aspects.", RULE_ASPECTS
                )
            )
            continue
        if use.get("use") == "free" and use.get("reason") == "benefit":
            benefit = use.get("benefit")
            if not isinstance(benefit, str) or frees.get(benefit) != role:
                problems.append(
                    RuleViolation(
                        f"aspects.{i}.benefit",
                        "A free use of an own aspect needs Great Mind and a Scholar roll in its field.",
                        RULE_ASPECTS,
                    )
                )
                continue
        out.append({**use, "aspect": text})
    if problems:
        raise RuleError(problems)
    return out
