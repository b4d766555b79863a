"""The toy system's pure engine: a hero is a name and a knack (1 to 3 at creation); a ledger entry
``knack_raised`` raises the knack by one, up to 5. No Django here (tests/systems/test_purity.py
checks every engine the same way)."""

from __future__ import annotations

import random
from typing import Any

from characters.systems.base import GameSystem, RuleViolation, SheetData, refuse

MAX_NAME = 120
START_KNACK = (1, 3)
MAX_KNACK = 5


class ToyGame(GameSystem):
    key = "toy"
    label = "Toy Game"
    entry_kinds = ("knack_raised", "reversal")

    def new_build(
        self, choices: dict[str, Any], rng: random.Random, settings: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        knack = choices.get("knack", 1)
        build = {"name": str(choices.get("name") or "").strip(), "player": str(choices.get("player") or "")}
        build["knack"] = knack if isinstance(knack, int) and not isinstance(knack, bool) else 0
        return build

    def validate(self, build: dict[str, Any], settings: dict[str, Any] | None = None) -> list[RuleViolation]:
        problems = []
        if not build.get("name"):
            problems.append(RuleViolation("name", "A toy hero needs a name."))
        elif len(build["name"]) > MAX_NAME:
            problems.append(RuleViolation("name", f"A name has at most {MAX_NAME} characters."))
        low, high = START_KNACK
        if not low <= build.get("knack", 0) <= MAX_KNACK:
            problems.append(RuleViolation("knack", f"The knack is {low} to {high} at creation."))
        return problems

    def derive(self, build: dict[str, Any]) -> dict[str, Any]:
        return {"dice": build["knack"] + 1}

    def apply(self, build: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
        if entry.get("kind") != "knack_raised":
            raise refuse("kind", f"The toy game keeps no {entry.get('kind')!r} entries.")
        if build["knack"] >= MAX_KNACK:
            raise refuse("knack", f"The knack is already {MAX_KNACK}, the most it gets.")
        return {**build, "knack": build["knack"] + 1}

    def sheet(self, build: dict[str, Any]) -> SheetData:
        fields = {"name": build["name"], "player": build.get("player", ""), "knack": build["knack"]}
        return SheetData(self.key, "sheets/toy.html", build["name"], {**fields, **self.derive(build)})


SYSTEM = ToyGame()


def blank_sheet() -> SheetData:
    """The blank sheet for paper play: the character sheet's template with every box empty."""
    fields = {"blank": True, "name": "", "player": "", "knack": "", "dice": ""}
    return SheetData(SYSTEM.key, "sheets/toy.html", "Blank sheet", fields)
