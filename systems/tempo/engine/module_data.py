"""What a Tempo module is: plain data, loaded and checked by ``module_from_data``.

tempo-flashpoints.md §A1: a module defines the roles, the rating ladder, its creation rules and any
special rules. Everything the engine needs from a module lives in a ``TempoModule``; creation,
validation, rolls and the sheet read only this, so a new module is a new data dict and nothing else.

Data shape (JSON-able; every key listed, optional ones marked):

    {"key": str, "label": str, "rule": str (digest citation),
     "ranks": [{"key", "name", "modifier": int, "count": int | None (exact number of roles at
               this rank, None = any), "benefit_picks": int (default 0),
               "variants_allowed": bool (default false)}, ...]          # best rank first
     "roles": [{"key", "name", "summary",
                "benefits": [benefit, ...], "variants": [benefit, ...] (optional)}, ...],
     "aspect_slots": [{"key", "label", "summary", "anchor_required": bool}, ...],
     "anchor_kinds": str (optional: what an anchor may be),
     "campaign_aspects": [str, ...] (optional),
     "own_aspects_per_roll": int | None (optional, None = no limit),
     "descriptive_bonuses_stack": bool (optional, default true),
     "descriptive_bonus": int (optional, default 1)}

    benefit = {"key", "name", "summary", "needs_field": bool, "needs_approval": bool,
               "substitution": {"role": str, "instead_of": str, "when": str} (optional),
               "free_own_aspect_on": role key (optional: one own aspect is free on that role's rolls)}

A variant is a single benefit that a role at a rank with ``variants_allowed`` may take *instead of*
its ``benefit_picks`` ordinary benefits (Flashpoints: the World Class variants, §A2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Substitution:
    """A benefit letting one role be rolled in place of another (§B1)."""

    role: str
    instead_of: str
    when: str = ""


@dataclass(frozen=True)
class Benefit:
    key: str
    name: str
    summary: str
    needs_field: bool = False
    needs_approval: bool = False
    variant: bool = False
    substitution: Substitution | None = None
    free_own_aspect_on: str | None = None


@dataclass(frozen=True)
class Rank:
    key: str
    name: str
    modifier: int
    count: int | None = None
    benefit_picks: int = 0
    variants_allowed: bool = False


@dataclass(frozen=True)
class Role:
    key: str
    name: str
    summary: str
    benefits: tuple[Benefit, ...] = ()
    variants: tuple[Benefit, ...] = ()

    def benefit(self, key: str) -> Benefit | None:
        for benefit in (*self.benefits, *self.variants):
            if benefit.key == key:
                return benefit
        return None


@dataclass(frozen=True)
class AspectSlot:
    key: str
    label: str
    summary: str = ""
    anchor_required: bool = False


@dataclass(frozen=True)
class TempoModule:
    key: str
    label: str
    ranks: tuple[Rank, ...]
    roles: tuple[Role, ...]
    aspect_slots: tuple[AspectSlot, ...]
    campaign_aspects: tuple[str, ...] = ()
    anchor_kinds: str = ""
    own_aspects_per_roll: int | None = None
    descriptive_bonuses_stack: bool = True
    descriptive_bonus: int = 1
    rule: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # -- look-ups ----------------------------------------------------------
    def rank(self, key: str) -> Rank | None:
        return next((rank for rank in self.ranks if rank.key == key), None)

    def role(self, key: str) -> Role | None:
        return next((role for role in self.roles if role.key == key), None)

    def slot(self, key: str) -> AspectSlot | None:
        return next((slot for slot in self.aspect_slots if slot.key == key), None)

    @property
    def role_keys(self) -> tuple[str, ...]:
        return tuple(role.key for role in self.roles)

    @property
    def rank_keys(self) -> tuple[str, ...]:
        return tuple(rank.key for rank in self.ranks)

    @property
    def slot_keys(self) -> tuple[str, ...]:
        return tuple(slot.key for slot in self.aspect_slots)

    def forced_benefits(self, role_key: str, rank_key: str) -> tuple[str, ...]:
        """Benefits a role gets without choosing: when a rank's picks equal the options and no
        variant is on offer (Flashpoints: World Class Athlete, §A2)."""
        role, rank = self.role(role_key), self.rank(rank_key)
        if role is None or rank is None or not rank.benefit_picks:
            return ()
        if rank.variants_allowed and role.variants:
            return ()
        if rank.benefit_picks == len(role.benefits):
            return tuple(b.key for b in role.benefits)
        return ()


_MODULE_KEYS = {
    "key",
    "label",
    "rule",
    "ranks",
    "roles",
    "aspect_slots",
    "anchor_kinds",
    "campaign_aspects",
    "own_aspects_per_roll",
    "descriptive_bonuses_stack",
    "descriptive_bonus",
}


class ModuleDataError(ValueError):
    """The module data itself is malformed (a programming error, not a player's mistake)."""


def _benefit(data: dict[str, Any], variant: bool, where: str) -> Benefit:
    if not isinstance(data, dict) or not data.get("key") or not data.get("name"):
        raise ModuleDataError(f"{where}: a benefit needs a key and a name")
    substitution = data.get("substitution")
    return Benefit(
        key=str(data["key"]),
        name=str(data["name"]),
        summary=str(data.get("summary", "")),
        needs_field=bool(data.get("needs_field", False)),
        needs_approval=bool(data.get("needs_approval", False)),
        variant=variant,
        substitution=Substitution(**substitution) if substitution else None,
        free_own_aspect_on=data.get("free_own_aspect_on"),
    )


def module_from_data(data: dict[str, Any]) -> TempoModule:
    """Build a TempoModule from plain data, checking that it hangs together."""
    unknown = set(data) - _MODULE_KEYS
    if unknown:
        raise ModuleDataError(f"unknown module keys: {sorted(unknown)}")
    for needed in ("key", "label", "ranks", "roles", "aspect_slots"):
        if not data.get(needed):
            raise ModuleDataError(f"a module needs {needed!r}")
    ranks = tuple(
        Rank(
            key=str(r["key"]),
            name=str(r["name"]),
            modifier=int(r["modifier"]),
            count=None if r.get("count") is None else int(r["count"]),
            benefit_picks=int(r.get("benefit_picks", 0)),
            variants_allowed=bool(r.get("variants_allowed", False)),
        )
        for r in data["ranks"]
    )
    roles = []
    for r in data["roles"]:
        where = f"role {r.get('key')!r}"
        benefits = tuple(_benefit(b, False, where) for b in r.get("benefits", ()))
        variants = tuple(_benefit(b, True, where) for b in r.get("variants", ()))
        roles.append(
            Role(
                key=str(r["key"]),
                name=str(r["name"]),
                summary=str(r.get("summary", "")),
                benefits=benefits,
                variants=variants,
            )
        )
    slots = tuple(
        AspectSlot(
            key=str(s["key"]),
            label=str(s["label"]),
            summary=str(s.get("summary", "")),
            anchor_required=bool(s.get("anchor_required", False)),
        )
        for s in data["aspect_slots"]
    )
    module = TempoModule(
        key=str(data["key"]),
        label=str(data["label"]),
        ranks=ranks,
        roles=tuple(roles),
        aspect_slots=slots,
        campaign_aspects=tuple(str(a) for a in data.get("campaign_aspects", ())),
        anchor_kinds=str(data.get("anchor_kinds", "")),
        own_aspects_per_roll=data.get("own_aspects_per_roll"),
        descriptive_bonuses_stack=bool(data.get("descriptive_bonuses_stack", True)),
        descriptive_bonus=int(data.get("descriptive_bonus", 1)),
        rule=str(data.get("rule", "")),
        data=data,
    )
    _check_consistent(module)
    return module


def _unique(keys: list[str], what: str) -> None:
    if len(set(keys)) != len(keys):
        raise ModuleDataError(f"{what} keys must be unique: {keys}")


def _check_consistent(module: TempoModule) -> None:
    _unique(list(module.rank_keys), "rank")
    _unique(list(module.role_keys), "role")
    _unique(list(module.slot_keys), "aspect slot")
    counts = [rank.count for rank in module.ranks]
    if all(c is not None for c in counts) and sum(counts) != len(module.roles):  # type: ignore[arg-type]
        raise ModuleDataError(f"rank counts add up to {sum(counts)}, not the {len(module.roles)} roles")  # type: ignore[arg-type]
    for role in module.roles:
        _unique([b.key for b in (*role.benefits, *role.variants)], f"{role.key} benefit")
        for rank in module.ranks:
            if rank.benefit_picks > len(role.benefits):
                raise ModuleDataError(f"{role.key} offers fewer benefits than a {rank.key} role picks")
