"""Creating and validating a Tempo agent from its module's data (tempo-flashpoints.md §A, §D1-§D4).

Nothing here names a Flashpoints role or rank: slots, ranks, distribution, benefit picks and
variants all come from the module (``module_data``). Two stages:

- "final" (``validate``): the agent is complete and legal.
- "draft" (``validate_partial``): only what is filled in so far is checked; nothing is reported
  as missing, but too many of something, unknown names and broken entries are.
"""

from __future__ import annotations

import copy
import random
from typing import Any, cast

from characters.systems.base import Build, RuleError, RuleViolation
from characters.systems.wording import possessive

from .fate import starting_fate_points
from .module_data import Rank, Role, TempoModule
from .modules import get_module
from .tables import MAX_NOTES, MAX_TEXT

SYSTEM_KEY = "tempo"
DEFAULT_MODULE = "flashpoints"
STAGES = ("final", "draft")
RULE_ASPECTS = "tempo-flashpoints.md §D1"
RULE_ROLES = "tempo-flashpoints.md §D2"
RULE_BENEFITS = "tempo-flashpoints.md §D3"
RULE_FATE = "tempo-flashpoints.md §D4"

TOP_LEVEL_KEYS = (
    "system",
    "module",
    "name",
    "codename",
    "player",
    "aspects",
    "roles",
    "benefits",
    "fate_points",
    "veto_cards",
    "notes",
)
TEXT_KEYS = ("name", "codename", "player")
BENEFIT_KEYS = ("key", "field", "table_approved")


def _v(problems: list[RuleViolation], field: str, message: str, rule: str) -> None:
    problems.append(RuleViolation(field, message, rule))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _a(word: str) -> str:
    """The word with its indefinite article."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _text_ok(value: Any, limit: int = MAX_TEXT) -> bool:
    return isinstance(value, str) and len(value) <= limit


def _filled(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


# -- aspects (§D1) -----------------------------------------------------------------------------
def check_aspects(module: TempoModule, aspects: Any, final: bool) -> list[RuleViolation]:
    problems: list[RuleViolation] = []
    if aspects is None:
        aspects = {}
    if not isinstance(aspects, dict):
        return [RuleViolation("aspects", "Aspects must be given slot by slot.", RULE_ASPECTS)]
    for slot_key in aspects:
        if module.slot(slot_key) is None:
            slots = ", ".join(s.label for s in module.aspect_slots)
            _v(
                problems,
                f"aspects.{slot_key}",
                f"{module.label} has no aspect slot {slot_key!r} (its slots: {slots}).",
                RULE_ASPECTS,
            )
    anchor_note = f" ({module.anchor_kinds})" if module.anchor_kinds else ""
    for slot in module.aspect_slots:
        entry = aspects.get(slot.key) or {}
        where = f"aspects.{slot.key}"
        if not isinstance(entry, dict):
            _v(problems, where, f"The {slot.label} aspect must have a text and an anchor.", RULE_ASPECTS)
            continue
        text, anchor = entry.get("text", ""), entry.get("anchor", "")
        for part, value in (("text", text), ("anchor", anchor)):
            if value is not None and not _text_ok(value):
                _v(
                    problems,
                    f"{where}.{part}",
                    f"The {slot.label} {part} must be text of at most {MAX_TEXT} characters.",
                    RULE_ASPECTS,
                )
        if not final:
            continue
        if not _filled(text):
            _v(problems, f"{where}.text", f"The {slot.label} aspect is still empty.", RULE_ASPECTS)
        if slot.anchor_required and not _filled(anchor):
            named = f" ({text.strip()})" if _filled(text) else ""
            _v(
                problems,
                f"{where}.anchor",
                f"The {slot.label} aspect{named} needs an anchor{anchor_note}.",
                RULE_ASPECTS,
            )
    return problems


# -- roles (§D2) -------------------------------------------------------------------------------
def rank_of(module: TempoModule, roles: dict[str, Any], role_key: str) -> Rank | None:
    value = roles.get(role_key)
    return module.rank(value) if isinstance(value, str) else None


def distribution(module: TempoModule, roles: Any) -> list[dict[str, Any]]:
    """Per rank: how many roles the module needs there and which roles have it now (§C1 check line)."""
    roles = roles if isinstance(roles, dict) else {}
    rows = []
    for rank in module.ranks:
        holders = [role.name for role in module.roles if roles.get(role.key) == rank.key]
        rows.append(
            {
                "rank": rank.key,
                "name": rank.name,
                "modifier": rank.modifier,
                "need": rank.count,
                "have": len(holders),
                "roles": holders,
            }
        )
    return rows


def check_roles(module: TempoModule, roles: Any, final: bool) -> list[RuleViolation]:
    problems: list[RuleViolation] = []
    if roles is None:
        roles = {}
    if not isinstance(roles, dict):
        return [RuleViolation("roles", "Roles must map each role to its rating.", RULE_ROLES)]
    rank_names = ", ".join(r.name for r in module.ranks)
    for role_key, rank_key in roles.items():
        role = module.role(role_key)
        if role is None:
            _v(problems, f"roles.{role_key}", f"{module.label} has no role called {role_key!r}.", RULE_ROLES)
        elif rank_key is not None and module.rank(rank_key) is None:
            _v(
                problems,
                f"roles.{role_key}",
                f"{rank_key!r} is not a rating for {role.name}; choose one of {rank_names}.",
                RULE_ROLES,
            )
    unrated = [role for role in module.roles if module.rank(cast(str, roles.get(role.key))) is None]
    if final:
        for role in unrated:
            if role.key not in roles or roles.get(role.key) is None:
                _v(
                    problems,
                    f"roles.{role.key}",
                    f"{role.name} has no rating yet; every role needs one.",
                    RULE_ROLES,
                )
    all_rated = not unrated
    for row in distribution(module, roles):
        need, have = row["need"], row["have"]
        if need is None or have == need:
            continue
        holders = f" ({', '.join(row['roles'])})" if row["roles"] else ""
        if have > need:
            _v(
                problems,
                "roles",
                f"{row['name']}: {_plural(have, 'role')}{holders}, but an agent has exactly "
                f"{need}. Move {have - need} to another rating.",
                RULE_ROLES,
            )
        elif final or all_rated:
            _v(
                problems,
                "roles",
                f"{row['name']}: {_plural(have, 'role')}{holders}, but an agent has exactly "
                f"{need}. {need - have} missing.",
                RULE_ROLES,
            )
    return problems


# -- benefits (§D3) ----------------------------------------------------------------------------
def normalised_benefits(items: Any) -> list[dict[str, Any]] | None:
    """Benefit choices as dicts ({"key", "field"?, "table_approved"?}); a bare key is accepted."""
    if not isinstance(items, list):
        return None
    out: list[dict[str, Any]] = []
    for item in items:
        if isinstance(item, str):
            out.append({"key": item})
        elif isinstance(item, dict):
            out.append(dict(item))
        else:
            out.append({"key": None})
    return out


def _pick_phrase(module: TempoModule, role: Role, rank: Rank) -> str:
    if module.forced_benefits(role.key, rank.key):
        names = " and ".join(b.name for b in role.benefits)
        return f"{_cap(_a(rank.name))} {role.name} has {names}"
    return f"{_cap(_a(rank.name))} {role.name} takes {_plural(rank.benefit_picks, 'different benefit')}"


def check_role_benefits(
    module: TempoModule, role: Role, roles: dict[str, Any], items: Any, final: bool
) -> list[RuleViolation]:
    where = f"benefits.{role.key}"
    problems: list[RuleViolation] = []
    chosen = normalised_benefits(items)
    if chosen is None:
        return [RuleViolation(where, f"{possessive(role.name)} benefits must be a list.", RULE_BENEFITS)]
    known: list[Any] = []
    for i, item in enumerate(chosen):
        key = item.get("key")
        benefit = role.benefit(key) if isinstance(key, str) else None
        if benefit is None:
            options = ", ".join(b.name for b in (*role.benefits, *role.variants))
            _v(
                problems,
                f"{where}.{i}",
                f"{key!r} is not a benefit of {role.name} (choose from {options}).",
                RULE_BENEFITS,
            )
            continue
        extra = set(item) - set(BENEFIT_KEYS)
        if extra:
            _v(
                problems,
                f"{where}.{i}",
                f"{benefit.name} has no detail called {', '.join(sorted(extra))}.",
                RULE_BENEFITS,
            )
        if "table_approved" in item and not isinstance(item["table_approved"], bool):
            _v(problems, f"{where}.{i}.table_approved", "Table approval is yes or no.", RULE_BENEFITS)
        if benefit.needs_field:
            if not _filled(item.get("field")) or not _text_ok(item.get("field")):
                _v(
                    problems,
                    f"{where}.{i}.field",
                    f"{benefit.name} needs the academic field it covers.",
                    RULE_BENEFITS,
                )
        elif item.get("field") not in (None, ""):
            _v(problems, f"{where}.{i}.field", f"{benefit.name} takes no field.", RULE_BENEFITS)
        if final and benefit.needs_approval and item.get("table_approved") is not True:
            _v(
                problems,
                f"{where}.{i}.table_approved",
                f"{benefit.name} needs the table's approval before the agent is final.",
                RULE_BENEFITS,
            )
        if any(b.key == benefit.key for b in known):
            _v(
                problems,
                f"{where}.{i}",
                f"{benefit.name} is chosen twice; the benefits must differ.",
                RULE_BENEFITS,
            )
            continue
        known.append(benefit)

    rank = rank_of(module, roles, role.key)
    if rank is None:
        return problems  # the rating is missing or wrong; check_roles says so
    if not rank.benefit_picks:
        if known:
            ranks = " and ".join(r.name for r in module.ranks if r.benefit_picks)
            _v(
                problems,
                where,
                f"Only {ranks} roles have benefits; {role.name} is {rank.name}. Remove "
                f"{', '.join(b.name for b in known)}.",
                RULE_BENEFITS,
            )
        return problems
    variants = [b for b in known if b.variant]
    ordinary = [b for b in known if not b.variant]
    if variants:
        if not rank.variants_allowed:
            names = ", ".join(b.name for b in variants)
            ranks = " or ".join(r.name for r in module.ranks if r.variants_allowed)
            _v(problems, where, f"{names} is only for {_a(ranks)} {role.name}.", RULE_BENEFITS)
        elif len(variants) > 1:
            _v(problems, where, f"Choose only one of {', '.join(b.name for b in variants)}.", RULE_BENEFITS)
        elif ordinary:
            _v(
                problems,
                where,
                f"{variants[0].name} is taken on its own; remove {', '.join(b.name for b in ordinary)}.",
                RULE_BENEFITS,
            )
        return problems
    have, picks = len(ordinary), rank.benefit_picks
    phrase = _pick_phrase(module, role, rank)
    alone = (
        " (or one of " + ", ".join(b.name for b in role.variants) + " alone)"
        if (rank.variants_allowed and role.variants)
        else ""
    )
    if have > picks:
        _v(problems, where, f"{phrase}{alone}; {have} are chosen. Remove {have - picks}.", RULE_BENEFITS)
    elif final and have < picks:
        _v(
            problems,
            where,
            f"{phrase}{alone}; {have} {'is' if have == 1 else 'are'} chosen. Choose {picks - have} more.",
            RULE_BENEFITS,
        )
    return problems


def check_benefits(module: TempoModule, roles: Any, benefits: Any, final: bool) -> list[RuleViolation]:
    if benefits is None:
        benefits = {}
    if not isinstance(benefits, dict):
        return [RuleViolation("benefits", "Benefits must be listed role by role.", RULE_BENEFITS)]
    roles = roles if isinstance(roles, dict) else {}
    problems: list[RuleViolation] = []
    for role_key in benefits:
        if module.role(role_key) is None:
            _v(
                problems,
                f"benefits.{role_key}",
                f"{module.label} has no role called {role_key!r}.",
                RULE_BENEFITS,
            )
    for role in module.roles:
        if role.key in benefits or final:
            problems += check_role_benefits(module, role, roles, benefits.get(role.key, []), final)
    return problems


# -- the rest of the document ------------------------------------------------------------------
def check_other(build: dict[str, Any], final: bool) -> list[RuleViolation]:
    problems: list[RuleViolation] = []
    for key in build:
        if key not in TOP_LEVEL_KEYS:
            _v(problems, key, f"An agent has no entry called {key!r}.", "tempo README")
    system = build.get("system")
    if (final or system is not None) and system != SYSTEM_KEY:
        _v(problems, "system", f"This is not a Tempo agent (system {system!r}).", "tempo README")
    for key in TEXT_KEYS:
        if build.get(key) is not None and not _text_ok(build[key]):
            _v(problems, key, f"The {key} must be text of at most {MAX_TEXT} characters.", "tempo README")
    fate_points = build.get("fate_points")
    bad_fate = isinstance(fate_points, bool) or not isinstance(fate_points, int) or fate_points < 0
    if (final or fate_points is not None) and bad_fate:
        _v(problems, "fate_points", "Fate points must be a whole number, 0 or more.", RULE_FATE)
    vetoes = build.get("veto_cards", [])
    if not isinstance(vetoes, list) or not all(
        isinstance(v, dict) and _text_ok(v.get("note", "")) for v in vetoes
    ):
        _v(problems, "veto_cards", "VETO cards are a list of notes.", "tempo-flashpoints.md §B2")
    if build.get("notes") is not None and not _text_ok(build["notes"], MAX_NOTES):
        _v(problems, "notes", f"Notes must be text of at most {MAX_NOTES} characters.", "tempo README")
    return problems


def validate(build: Any, stage: str = "final") -> list[RuleViolation]:
    """Every broken rule of a build (§D1-§D4); ``stage="draft"`` checks only what is filled in."""
    if stage not in STAGES:
        raise ValueError(f"unknown stage {stage!r}")
    if not isinstance(build, dict):
        return [RuleViolation("build", "An agent must be a document of named entries.", "tempo README")]
    final = stage == "final"
    module_key = build.get("module", None if final else DEFAULT_MODULE)
    try:
        module = get_module(module_key)
    except RuleError as error:
        return error.violations + check_other(build, final)
    return (
        check_other(build, final)
        + check_aspects(module, build.get("aspects"), final)
        + check_roles(module, build.get("roles"), final)
        + check_benefits(module, build.get("roles"), build.get("benefits"), final)
    )


def validate_partial(choices: Any) -> list[RuleViolation]:
    """Live-builder check: problems in what is filled in so far, nothing about untouched parts."""
    return validate(choices, "draft")


def new_build(
    choices: dict[str, Any], rng: random.Random | None = None, settings: dict[str, Any] | None = None
) -> Build:
    """A finished agent from the builder's choices, or RuleError with every violation.

    Forced benefits (a rank whose picks equal the role's options) are filled in when left out;
    fate points start at the campaign's setting (ruling 7), whatever the choices say. ``rng`` is
    unused: Tempo creation rolls no dice.
    """
    if not isinstance(choices, dict):
        raise RuleError(RuleViolation("choices", "The choices must be a document of named entries."))
    build: dict[str, Any] = copy.deepcopy(choices)
    build["system"] = SYSTEM_KEY
    build.setdefault("module", DEFAULT_MODULE)
    module = get_module(build["module"])
    build.setdefault("aspects", {})
    build.setdefault("roles", {})
    benefits = build.setdefault("benefits", {})
    if isinstance(benefits, dict) and isinstance(build["roles"], dict):
        for role in module.roles:
            chosen = normalised_benefits(benefits.get(role.key, []))
            if chosen is None:
                continue
            rank_key = build["roles"].get(role.key)
            forced = module.forced_benefits(role.key, rank_key) if isinstance(rank_key, str) else ()
            if forced and not chosen:
                chosen = [{"key": key} for key in forced]
            rank = rank_of(module, build["roles"], role.key)
            if chosen or (rank is not None and rank.benefit_picks):
                benefits[role.key] = chosen
    if isinstance(build["aspects"], dict):
        for entry in build["aspects"].values():
            if isinstance(entry, dict):
                for part in ("text", "anchor"):
                    if isinstance(entry.get(part), str):
                        entry[part] = entry[part].strip()
    build["fate_points"] = starting_fate_points(settings)
    build.setdefault("veto_cards", [])
    problems = validate(build, "final")
    if problems:
        raise RuleError(problems)
    return build
