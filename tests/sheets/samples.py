"""Every printable sheet kind with three kinds of data: the demo (the engines' test characters), the
longest data the forms accept (max-length names and texts, full lists), and the emptiest.

Shared by the layout-invariant tests, the gallery (scripts/sheets_gallery.py) and bench/sheets.py.
Each case is pages of ``sheets.rendering.SheetPage``, the number of pages the document must have,
and values its text must hold.
"""

from __future__ import annotations

import copy
import functools
import random
from dataclasses import dataclass, field

from characters.systems import SheetData, get_system
from sheets.blanks import blank_sheet
from tests.sheets.conftest import BUILDERS

VARIANTS = ("demo", "long", "empty")


def _limit(form_class, field: str, **kwargs) -> int:
    """A form field's max_length: the longest text that builder accepts (issue 45: the long samples
    read their limits from the forms, serializers and engines, never copy them)."""
    form = form_class(**kwargs) if kwargs else None
    fields = form.fields if form is not None else form_class.base_fields
    return fields[field].max_length


def _name_max() -> int:
    """The longest name the platform keeps for a character (Character.name)."""
    from characters.models import Character

    return Character._meta.get_field("name").max_length


def long_name(limit: int) -> str:
    """A name of exactly ``limit`` characters in long words, the hardest to wrap."""
    words = "Maximilian-Alexander Theodore Fitzgerald-Montgomery-Wolfeschlegel Bartholomew "
    base = (words * (limit // len(words) + 1))[: limit - 10]
    return (base[:-1] + "y" if base.endswith(" ") else base) + " of Saxony"


LONG_PLAYER = "Christabel Montgomery-Featherstonehaugh"


def long_player(limit: int) -> str:
    """A player's name of exactly ``limit`` characters."""
    text = ((LONG_PLAYER + " ") * (limit // len(LONG_PLAYER) + 1))[:limit]
    return text[:-1] + "h" if text.endswith(" ") else text


#: Character.name's max_length: the longest name the platform keeps for a character.
NAME_MAX = _name_max()
#: A name of NAME_MAX characters in long words.
LONG_NAME = long_name(NAME_MAX)


def _text(limit: int, word: str = "Unbreakable") -> str:
    """``limit`` characters of ordinary words (a long word now and then)."""
    words = ["the", "night", word, "watch", "on", "Kestrel", "bridge", "and", "its", "river"]
    out = []
    while len(" ".join(out)) < limit:
        out.append(words[len(out) % len(words)])
    return " ".join(out)[:limit].strip()


@dataclass
class Case:
    kind: str
    system: str
    variant: str
    pages: list = field(default_factory=list)
    declared_pages: int = 1
    values: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.kind}-{self.system}-{self.variant}"


def _page(sheet: SheetData, character: str = "", revision: int | None = None, campaign: str = "Night Work"):
    from sheets.rendering import SheetPage

    return SheetPage(sheet, campaign=campaign, character=character, revision=revision)


# -- character builds ------------------------------------------------------------------------------
def timemaster_build(variant: str) -> dict:
    from systems.timemaster.engine.advancement import apply_entry, times_visited_entry
    from systems.timemaster.engine.formulas import wound_count
    from systems.timemaster.engine.sheet import CONDITION_STATES
    from systems.timemaster.engine.tables import ARMOR
    from systems.timemaster.mission_forms import MissionForm
    from systems.timemaster.tests.helpers import background
    from systems.timemaster.wizard_forms import BackgroundForm, SkillsForm

    if variant == "empty":
        return BUILDERS["timemaster"](name="Al", player="")
    if variant == "demo":
        build = BUILDERS["timemaster"](name="Harry Adams")
        visits = [("T-0", 1863, 1863, "Gettysburg"), ("T-0", 1912, 1912, "Southampton")]
    else:
        texts = ("birth_place", "nationality", "profession", "education", "reputation", "height", "weight")
        long_bg = background(
            **{key: _text(_limit(BackgroundForm, key)) for key in (*texts, "eyes", "hair")},
            native_parallel="T-0",  # a Parallel is a class letter and a number (checked)
        )
        cultures = [_text(_limit(SkillsForm, f"culture_{n}"), f"Culture{n}") for n in (1, 2)]
        build = BUILDERS["timemaster"](
            name=long_name(_limit(BackgroundForm, "name")),
            player=long_player(_limit(BackgroundForm, "player")),
            background=long_bg,
            historical_specialty={"cultures": cultures},  # the Historical Specialty's longest name
        )
        place = _text(_limit(MissionForm, "place"))
        visits = [("T-0", 1000 + 40 * i, 1001 + 40 * i, place) for i in range(14)]
        # Every wound marked, critically wounded, the longest state in words, every armor worn.
        longest_state = max(
            (flag for flag, _ in CONDITION_STATES), key=lambda f: len(dict(CONDITION_STATES)[f])
        )
        build["condition"] = {
            "wounds_marked": wound_count(build["abilities"]["STA"]),
            "armor": list(ARMOR),
            longest_state: True,
        }
    for parallel, start, end, place in visits:
        entry, _ = times_visited_entry(build, parallel, start, end, mission="17", place=place)
        build = apply_entry(build, entry)
    return build


def tempo_build(variant: str) -> dict:
    from systems.tempo.tests.helpers import BENEFITS, agent

    if variant == "demo":
        build = agent(fate_points=2, name="Finn Marlowe")
        build["veto_cards"] = [{"note": "No, the safe house was never in Leipzig"}]
        return build
    if variant == "empty":
        return agent(fate_points=0, name="Jo", codename="", player="")
    from systems.tempo.engine.modules import get_module
    from systems.tempo.engine.tables import MAX_NOTES, MAX_TEXT
    from systems.tempo.wizard import AspectsForm

    module = get_module("flashpoints")
    limit = functools.partial(_limit, AspectsForm, module=module)
    aspects = {
        slot.key: {
            "text": _text(limit(f"{slot.key}_text")).upper(),
            "anchor": _text(limit(f"{slot.key}_anchor")),
        }
        for slot in module.aspect_slots
    }
    # The benefits are printed whole (issue 44, finding 12): the World Class Observer's two (Cold
    # Read is the module's longest) and Great Mind's academic field at the builder's limit.
    benefits = copy.deepcopy(BENEFITS)
    benefits["scholar"] = [{"key": "great_mind", "field": _text(MAX_TEXT)}]
    build = agent(
        fate_points=12,
        name=long_name(limit("name")),
        codename=_text(limit("codename")).upper(),
        player=long_player(limit("player")),
        benefits=benefits,
    )
    build["aspects"] = aspects
    build["veto_cards"] = [{"note": _text(MAX_TEXT)} for _ in range(12)]  # the engine's limit on a note
    build["notes"] = _text(MAX_NOTES)
    return build


def d6_build(variant: str) -> dict:
    from systems.d6.tests.helpers import build

    if variant == "demo":
        return build(
            "Ana",
            player="Rosa",
            special_abilities=[
                {"name": "Fast Reactions", "ranks": 1, "affects": ["Reflexes"], "goes_first": True}
            ],
            equipment=[{"name": "Laser pistol", "note": "blaster, 4D"}, {"name": "Climbing rope"}],
            notes="Owes the Cartel a favour.",
            move=10,
        )
    if variant == "empty":
        return build("Bo")
    from systems.d6.engine import tables
    from systems.d6.wizard import AttributesForm, ExtrasForm, IdentityForm, SkillsForm

    rows = {"rows": [{}]}
    attribute_name = _limit(AttributesForm, "name_0", **rows)
    skill_name = _limit(SkillsForm, "name_0", attributes=[], **rows)
    ability_name = _limit(ExtrasForm, "ability_name_0", abilities=[{}], items=[])
    item_name = _limit(ExtrasForm, "item_name_0", abilities=[], items=[{}])
    # Every attribute the engine takes (MAX_ATTRIBUTES), the two initiative needs first, each named
    # at the form's limit, and every skill it takes (MAX_SKILLS) spread over them.
    names = ["Perception", "Reflexes"] + [
        f"{i:02d} {_text(attribute_name, 'Xenolinguistics')}"[:attribute_name]
        for i in range(tables.MAX_ATTRIBUTES - 2)
    ]
    attributes = dict.fromkeys(names, "3D+2")
    largest_move = IdentityForm.base_fields["move"].max_value  # the Move box must hold it
    skills = {
        f"{i:03d} {_text(skill_name, 'Xenolinguistics')}"[:skill_name]: {
            "attribute": names[i % len(names)],
            "code": "12D+2",
        }
        for i in range(tables.MAX_SKILLS - 2)
    }
    skills.update(
        search={"attribute": "Perception", "code": "3D"}, dodge={"attribute": "Reflexes", "code": "3D"}
    )
    return build(
        long_name(_limit(IdentityForm, "name")),
        player=long_player(_limit(IdentityForm, "player")),
        attributes=attributes,
        skills=skills,
        special_abilities=[
            {
                "name": f"{i:03d} {_text(ability_name)}"[:ability_name],
                "ranks": tables.MAX_RANKS,
                "affects": ["Perception"],
                "note": _text(tables.MAX_TEXT),
            }
            for i in range(tables.MAX_LIST)
        ],
        equipment=[
            {"name": f"{i:03d} {_text(item_name)}"[:item_name], "note": _text(tables.MAX_TEXT)}
            for i in range(tables.MAX_LIST)
        ],
        notes=_text(_limit(IdentityForm, "notes")),
        move=largest_move,
        character_points=IdentityForm.base_fields["character_points"].max_value,
        action_allotment=IdentityForm.base_fields["action_allotment"].max_value,
        fate_points=IdentityForm.base_fields["fate_points"].max_value,
    )


def time_to_kill_build(variant: str) -> dict:
    from systems.time_to_kill.wizard import NinjaForm

    name = {"long": long_name(_limit(NinjaForm, "name")), "demo": "Kage", "empty": "Ko"}[variant]
    build = get_system("time_to_kill").new_build({"name": name, "abilities": {}}, random.Random(0))
    if variant == "long":
        build["player"] = long_player(_limit(NinjaForm, "player"))
        build["campaign"] = _text(_limit(NinjaForm, "campaign"))
    if variant != "empty":
        from systems.time_to_kill.engine.ledger import apply_entry

        for number in range(12 if variant == "long" else 2):
            build = apply_entry(
                build,
                {"kind": "mission_result", "outcome": "victory", "die_rolls": 4, "mission": 900 + number},
            )
    return build


BUILD_OF = {
    "timemaster": timemaster_build,
    "tempo": tempo_build,
    "d6": d6_build,
    "time_to_kill": time_to_kill_build,
}
KEY_VALUES = {
    "timemaster": ["Strength", "Trainee/0", "Paranormal Memory", "Times visited"],
    "time_to_kill": ["Armed", "Stealth", "Fatally wounded", "Budget"],
    "tempo": ["Observer", "Fate points", "VETO", "Tempo"],
    "d6": ["Perception", "brawling", "Move", "Multi-action penalty"],
}


BLANK_VALUES = {
    "timemaster": ["Strength", "Times visited", "per round of rest"],
    "time_to_kill": ["Armed", "Stealth", "Fatally wounded"],
    "tempo": ["Observer", "VETO", "TRUST NO ONE"],
    "d6": ["Perception", "Move", "Multi-action penalty"],
}


def _kit(system: str):
    from tests import system_kit

    return system_kit.extras(system)


def build_of(system: str, variant: str) -> dict:
    """The sample build: the system's testkit's ``sheet_build`` where it has one (a system added
    later brings its samples in its folder), else the builders above."""
    made = getattr(_kit(system), "sheet_build", None)
    return made(variant) if made is not None else BUILD_OF[system](variant)


def key_values(system: str) -> list[str]:
    return list(getattr(_kit(system), "SHEET_VALUES", None) or KEY_VALUES[system])


def blank_values(system: str) -> list[str]:
    return list(BLANK_VALUES.get(system) or _kit(system).BLANK_LABELS)


def sample_systems() -> list[str]:
    """Every installed system, in key order."""
    from tests import system_kit

    return sorted(system_kit.installed_keys())


def character_case(system: str, variant: str) -> Case:
    build = build_of(system, variant)
    sheet = get_system(system).sheet(build)
    name = build.get("name", "")[:NAME_MAX]  # the character's record keeps no longer name
    values = key_values(system) + [name.split()[0]]
    return Case("character", system, variant, [_page(sheet, name, 7)], 1, values + ["revision 7"])


def blank_case(system: str) -> Case:
    return Case("blank", system, "empty", [_page(blank_sheet(system))], 1, blank_values(system))


def fate_record_case(variant: str) -> Case:
    from systems.time_to_kill.engine import fate_record_sheet_data
    from systems.time_to_kill.engine.mission import apply_event, new_mission
    from systems.time_to_kill.engine.visibility import fate_record_sheet

    if variant == "empty":
        return Case("fate_record", "time_to_kill", variant, [_page(fate_record_sheet_data(None))], 1, ["GM"])
    long = variant == "long"
    ninja = time_to_kill_build(variant)
    briefing = {
        "victory_conditions": _text(500) if long else "Silence the abbot",
        "gm_notes": _text(500) if long else "The key is under the bell",
        "brief": _text(500) if long else "A monastery in the hills",
    }
    rng = random.Random(3)
    state = new_mission([{"id": "1", "build": ninja}], {"mission_stones": 12}, briefing=briefing)
    for by, kind in (("1", "prepare_draw"), ("1", "end_preparation"), ("gm", "roll_fates")):
        state = apply_event(state, {"type": kind, "by": by}, rng)
    fields = fate_record_sheet(state)
    fields["run"] = {"title": _text(200) if long else "The Bell Tower", "event_count": 3, "status": "Running"}
    sheet = SheetData("time_to_kill", "sheets/time_to_kill_fate_record.html", "Fate Record Sheet", fields)
    page = _page(sheet, ninja["name"], 3)
    page.stamp_label = "after event"
    return Case("fate_record", "time_to_kill", variant, [page], 1, ["Opposition", "Terrain", "GM"])


def after_action_fields(variant: str, gm: bool) -> dict:
    long = variant == "long"
    count = {"demo": 3, "long": 24, "empty": 0}[variant]
    tally = [
        {
            "number": n + 1,
            "kind": "Event changed",
            "rating": 10 * (n + 1),
            "description": _text(2000 if long else 40),
            "reversed": False,
            "reverses": None,
        }
        for n in range(count)
    ]
    if gm:
        for row in tally:
            row.update(reason="", shown_to_players=True, after_close=False)
    fields = {
        "gm_copy": gm,
        "title": _text(200) if long else "The Lost Dispatch",
        "status": "Success",
        "published": True,
        "destination": {
            "parallel": "T-0",
            "place": _text(200) if long else "Gettysburg",
            "years": "1863 A.D.",
        },
        "agents": [_text(120) if long else "Harry Adams", "Ida Brandt"],
        "verdict": "History intact",
        "history_changed": False,
        "roll": 391,
        "chart_line": "",
        "mistakes_total": sum(r["rating"] for r in tally),
        "tally": tally,
        "awards": [
            {
                "name": _text(120) if long else "Harry Adams",
                "regular": 170,
                "forgone": 0,
                "reason": "",
                "grade_advance": "no",
            }
        ],
    }
    if gm:
        fields["gm"] = {
            "significance": 700,
            "difference": 201,
            "faces": [3, 9, 1],
            "mistakes_by_kind": [{"kind": "Event changed", "total": fields["mistakes_total"]}],
            "pool": 510,
            "share": 170,
            "remainder": 0,
            "chart": [{"low": 1, "high": 100, "text": "Minor ripples"}],
        }
    return fields


def after_action_case(variant: str, gm: bool) -> Case:
    fields = after_action_fields(variant, gm)
    sheet = SheetData("timemaster", "sheets/timemaster_after_action.html", fields["title"], fields)
    pages = 3 if variant == "long" else 1  # a report flows: 24 tally lines of 400 characters fill three
    return Case(
        "after_action",
        "timemaster-gm" if gm else "timemaster-player",
        variant,
        [_page(sheet)],
        pages,
        ["Verdict"],
    )


def bundle_case(variant: str) -> Case:
    pages = [character_case(system, variant).pages[0] for system in sorted(BUILD_OF)]
    return Case("party_bundle", "mixed", variant, pages, len(pages), ["revision 7"])


def all_cases() -> list[Case]:
    cases = []
    for system in sample_systems():
        for variant in VARIANTS:
            cases.append(character_case(system, variant))
        cases.append(blank_case(system))
    for variant in VARIANTS:
        cases.append(fate_record_case(variant))
        cases.append(after_action_case(variant, gm=True))
        cases.append(after_action_case(variant, gm=False))
    cases.append(bundle_case("demo"))
    return cases


@functools.cache
def cases_by_id() -> dict[str, Case]:
    """Every case, built once per test run."""
    return {case.id: case for case in all_cases()}


@functools.cache
def layout(case_id: str, paper: str):
    """The case laid out once per test run (the invariant and defect tests share it)."""
    from sheets.rendering import layout_report

    return layout_report(cases_by_id()[case_id].pages, paper)
