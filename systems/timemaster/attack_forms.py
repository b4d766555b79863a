"""The GM's attack panel on the dice page: who attacks with what, who defends, and the situation.

No field asks for a column: the engine chooses it (systems.timemaster.engine.combat,
timemaster-play.md §4) and the log shows why. An agent attacker is chosen with one of its
scores; an NPC attacker of the campaign with one of the scores its statistics give (or, for an
NPC without a record, by the base chance the GM types). An agent defender brings its own Unskilled Melee,
melee skills, Luck and current Willpower; an NPC defender is described by the GM.
"""

from __future__ import annotations

from typing import Any

from django import forms

from systems.timemaster.engine import armor as armor_rules
from systems.timemaster.engine import modifiers as modifier_rules
from systems.timemaster.engine.tables import ARMOR

NPC = ""
NPC_SCORE = "npc:"  # an attacker_score choice "npc:<id>:<score key>": an NPC of the campaign
_GROUP_TITLES = {"missile": "Missile attack this round", "melee": "Melee attack this round"}


def _modifier_choices() -> list[Any]:
    """The named modifiers, grouped by attack form, each with its value (§13.3, §15)."""
    groups: dict[str, list[Any]] = {}
    for key, (label, value, _group, form, _rule) in modifier_rules.CHOICES.items():
        groups.setdefault(form, []).append((key, f"{label} ({value:+d})"))
    return [(_GROUP_TITLES[form], options) for form, options in groups.items()]


LOCATION_CHOICES = [(key, label) for key, label in armor_rules.LOCATION_LABELS.items()]


class AttackForm(forms.Form):
    form = forms.ChoiceField(
        label="Attack",
        choices=[
            ("melee", "Melee"),
            ("missile", "Missile (thrown or fired)"),
            ("paranormal", "Paranormal talent"),
        ],
    )
    results_key = forms.ChoiceField(
        label="Results key",
        required=False,
        choices=[("armed", "Armed combat (a weapon)"), ("unarmed", "Unarmed combat (the body only)")],
    )
    attacker_score = forms.ChoiceField(label="Attacker and score", required=False)
    strike_base = forms.IntegerField(
        label="NPC attacker's base chance",
        required=False,
        min_value=0,
        max_value=999,
        help_text="Only for an NPC not in the list above.",
    )
    modifiers = forms.MultipleChoiceField(
        label="What happened this round (each adds its modifier)",
        required=False,
        choices=_modifier_choices(),
        widget=forms.CheckboxSelectMultiple,
        help_text="Missile modifiers: TIMEMASTER §13.3; melee modifiers: §15. They add up.",
    )
    range_weapon = forms.ChoiceField(
        label="Missile weapon for the range",
        required=False,
        choices=[("", "—")] + [(k, v[0]) for k, v in modifier_rules.RANGE_PER_10_FT.items()],
    )
    covered_locations = forms.MultipleChoiceField(
        label="What the cover hides (a campaign that rolls hit location on every hit)",
        required=False,
        choices=LOCATION_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text="With the cover ticked: no -30, a hit landing on a part ticked here misses.",
    )
    range_feet = forms.IntegerField(
        label="Range in feet", required=False, min_value=1, max_value=modifier_rules.MAX_RANGE_FEET
    )
    modifier = forms.IntegerField(
        label="Other modifier (the GM's own ruling)",
        min_value=-200,
        max_value=200,
        initial=0,
        help_text="Only for what no choice above covers; the log shows it apart.",
    )
    called_location = forms.ChoiceField(
        label="Called shot: location", required=False, choices=[("", "No called location")] + LOCATION_CHOICES
    )
    called_severity = forms.ChoiceField(
        label="Called shot: severity",
        required=False,
        choices=[("", "No called severity")] + [(s, s) for s in armor_rules.CALLABLE_SEVERITIES],
        help_text="Granted only on a C result (TIMEMASTER §11).",
    )
    called_knockout = forms.BooleanField(label="Called knockout (Boxing or Blackjack, melee)", required=False)
    called_kill = forms.BooleanField(label="Called kill (helpless defender only)", required=False)
    called_joint = forms.BooleanField(label="Called shot at a joint of the armor (melee)", required=False)
    into_melee = forms.BooleanField(label="Firing into a melee", required=False)
    called_target = forms.BooleanField(label="Called: hit the intended target (into a melee)", required=False)
    called_hold = forms.ChoiceField(
        label="Called hold",
        required=False,
        choices=[("", "No hold"), ("hold", "Grab and hold"), ("strangle", "Strangle")],
        help_text="Made on a C result and kept; later rounds from the fight panel (TIMEMASTER §15).",
    )
    knockout_skill = forms.ChoiceField(
        label="NPC attacker's knockout skill",
        required=False,
        choices=[("", "—"), ("boxing", "Boxing"), ("blackjack", "Blackjack")],
    )
    attacker_penetration_bonus = forms.IntegerField(
        label="NPC attacker's penetration bonus (from STR)", required=False, min_value=0, max_value=100
    )
    defender = forms.TypedChoiceField(label="Defender", coerce=int, required=False, empty_value=None)
    defender_npc = forms.TypedChoiceField(
        label="NPC defender from the campaign's NPCs",
        coerce=int,
        required=False,
        empty_value=None,
        help_text="Its Unskilled Melee and condition come from its record; the hit goes to its condition.",
    )
    defender_skill = forms.ChoiceField(label="Melee skill the agent defender declared", required=False)
    unskilled_melee = forms.IntegerField(
        label="NPC defender's Unskilled Melee", required=False, min_value=0, max_value=999
    )
    declared_skill_score = forms.IntegerField(
        label="NPC defender's declared melee skill score", required=False, min_value=0, max_value=999
    )
    current_willpower = forms.IntegerField(
        label="NPC defender's current Willpower (paranormal)", required=False, min_value=0, max_value=999
    )
    defender_kind = forms.ChoiceField(
        label="NPC defender is",
        required=False,
        choices=[("npc", "one NPC"), ("troops", "NPC troops")],
        initial="npc",
    )
    missile_class = forms.ChoiceField(
        label="Missile",
        required=False,
        choices=[
            ("firearm", "Firearm (any gun, beam or stunner)"),
            ("missiles_a", "Sling, thrown weapon or short bow (Missiles A)"),
            ("missiles_b", "Longbow, crossbow or other missile"),
            ("catastrophe", "Fall or catastrophe"),
        ],
    )
    missile_weapon = forms.ChoiceField(
        label="Missile weapon (against armor)",
        required=False,
        choices=[("", "—")]
        + [
            (k, armor_rules.ATTACK_KIND_LABELS[k].removeprefix("a ").removeprefix("an "))
            for k in ("thrown", "sling", "short_bow", "fired", "firearm", "beam")
        ],
        help_text="Armor's immunity and the penetration bonus depend on it (TIMEMASTER §19).",
    )
    armor = forms.MultipleChoiceField(
        label="NPC defender's armor",
        required=False,
        choices=[(k, f"{v['name']} (AR {v['ar']}, type {v['immunity']})") for k, v in ARMOR.items()],
        widget=forms.CheckboxSelectMultiple,
        help_text="An agent defender's armor comes from the agent's condition.",
    )
    crumpled = forms.MultipleChoiceField(
        label="NPC defender's armor already crumpled at",
        required=False,
        choices=LOCATION_CHOICES,
        widget=forms.CheckboxSelectMultiple,
    )
    closed_helmet = forms.BooleanField(label="The helmet is closed (no bare part)", required=False)
    luck_spent = forms.TypedChoiceField(
        label="Luck the agent defender spends (missiles)",
        coerce=int,
        choices=[(0, "0"), (1, "1"), (2, "2")],
        initial=0,
    )
    shield = forms.ChoiceField(
        label="Defender's shield",
        choices=[("none", "No shield"), ("small", "Small shield"), ("large", "Large shield")],
        initial="none",
    )
    attack_number = forms.IntegerField(
        label="This is attack number … on the defender this round", min_value=1, max_value=99, initial=1
    )
    surprised = forms.BooleanField(label="Defender surprised", required=False)
    entangled = forms.BooleanField(label="Defender entangled in a net", required=False)
    helpless = forms.BooleanField(label="Defender helpless (bound, asleep …)", required=False)
    defender_advanced_self_defense = forms.BooleanField(
        label="Defender has Advanced Self-Defense", required=False
    )
    attacker_advanced_self_defense = forms.BooleanField(
        label="Attacker has Advanced Self-Defense", required=False
    )
    attacker_florentine = forms.BooleanField(label="Attacker fights Florentine style", required=False)
    defender_florentine = forms.BooleanField(label="Defender has Florentine style", required=False)
    mass_armor = forms.BooleanField(label="Troops: use the armor modifier", required=False)
    troop_armor_rating = forms.IntegerField(
        label="Troops' Armor Rating (no helmets)", required=False, min_value=0, max_value=999
    )
    apply_damage = forms.BooleanField(
        label="Apply the damage to the agent defender", required=False, initial=True
    )
    # Labels of their own: the dice page holds the roll and check forms too (one label, one field).
    mission = forms.TypedChoiceField(
        label="Mission of the attack", coerce=int, required=False, empty_value=None
    )
    purpose = forms.CharField(label="What the attack is for", max_length=200, required=False)
    secret = forms.BooleanField(label="Secret attack (the table sees only that it was made)", required=False)
    fight_round = forms.IntegerField(
        label="Round of the fight",
        required=False,
        min_value=1,
        max_value=9999,
        initial=1,
        help_text="A hold or a knockdown this attack makes is kept from this round (1 if empty).",
    )

    def __init__(
        self,
        *args: Any,
        agents: Any = (),
        scores: Any = None,
        missions: Any = (),
        npcs: Any = (),
        npc_scores: Any = None,
        cover_by_location: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # {npc id: [(score key, label, score)]}: the scores an NPC attacker is chosen with
        self.npc_scores = npc_scores or {}
        if not cover_by_location:  # only a campaign that rolls hit location on every hit (L1558)
            del self.fields["covered_locations"]
        scores = scores or {}
        attacker_choices: list[Any] = [(NPC, "An NPC (give the base chance)")]
        skill_choices: list[Any] = [(NPC, "No skill declared: Unskilled Melee")]
        for agent in agents:
            options = [(f"{agent.pk}:{s.key}", s.label) for s in scores.get(agent.pk, [])]
            if options:
                attacker_choices.append((agent.name, options))
            melee = [
                (f"{agent.pk}:{s.key.split(':', 1)[1]}", s.label)
                for s in scores.get(agent.pk, [])
                if s.key.startswith("skill:")
            ]
            if melee:
                skill_choices.append((agent.name, melee))
        for npc in npcs:
            options = [
                (f"{NPC_SCORE}{npc.pk}:{key}", label) for key, label, _ in self.npc_scores.get(npc.pk, [])
            ]
            if options:
                attacker_choices.append((f"{npc.name} (NPC)", options))
        self.fields["attacker_score"].choices = attacker_choices
        self.fields["defender_skill"].choices = skill_choices
        self.fields["defender"].choices = [("", "An NPC (describe below)")] + [(a.pk, a.name) for a in agents]
        self.fields["mission"].choices = [("", "—")] + [(m.pk, m.title) for m in missions]
        self.fields["defender_npc"].choices = [("", "—")] + [(n.pk, n.name) for n in npcs]

    #: The panel's parts, in order, each under its heading (_attack_panel.html): a title, its
    #: fields, and whether it is folded (a <details>, closed unless a field in it is set or wrong).
    SECTIONS = (
        (
            "Attacker",
            (
                "form",
                "results_key",
                "attacker_score",
                "strike_base",
                "knockout_skill",
                "attacker_penetration_bonus",
                "attacker_advanced_self_defense",
                "attacker_florentine",
            ),
            False,
        ),
        (
            "Defender",
            (
                "defender",
                "defender_npc",
                "defender_skill",
                "unskilled_melee",
                "declared_skill_score",
                "current_willpower",
                "defender_kind",
                "shield",
                "luck_spent",
                "attack_number",
                "surprised",
                "entangled",
                "helpless",
                "defender_advanced_self_defense",
                "defender_florentine",
                "apply_damage",
            ),
            False,
        ),
        (
            "Missile and range",
            ("missile_class", "missile_weapon", "range_weapon", "range_feet", "covered_locations"),
            False,
        ),
        ("Round modifiers", ("modifiers", "modifier"), True),
        (
            "Called shot",
            (
                "called_location",
                "called_severity",
                "called_knockout",
                "called_kill",
                "called_joint",
                "into_melee",
                "called_target",
                "called_hold",
            ),
            True,
        ),
        (
            "Armor of an NPC defender",
            ("armor", "crumpled", "closed_helmet", "mass_armor", "troop_armor_rating"),
            True,
        ),
        ("Log", ("fight_round", "mission", "purpose", "secret"), False),
    )

    def sections(self) -> list[dict[str, Any]]:
        """SECTIONS with their bound fields; a folded one is open when a field in it has a value
        other than its default or an error, so nothing set or wrong is hidden."""
        out = []
        for title, names, folded in self.SECTIONS:
            fields = [self[name] for name in names if name in self.fields]
            busy = any(f.errors for f in fields) or any(
                f.value() not in (None, "", [], False, 0, "0", self.fields[f.name].initial) for f in fields
            )
            out.append({"title": title, "fields": fields, "folded": folded, "open": busy})
        return out

    def modifier_groups(self) -> list[tuple[str, list[Any]]]:
        """The round's modifiers under their attack form's heading: (title, checkboxes)."""
        boxes = {str(w.data["value"]): w for w in self["modifiers"]}
        return [
            (title, [boxes[str(k)] for k, _ in options])
            for title, options in self.fields["modifiers"].choices
        ]

    #: What the round's one attack alone chose: these start blank again after an attack; every
    #: other field (who attacks with what, who defends and how, the armor, mission and purpose)
    #: keeps its value for the next attack of the round (walk, point 3).
    ONE_OFF = (
        "modifiers",
        "range_feet",
        "covered_locations",
        "modifier",
        "called_location",
        "called_severity",
        "called_knockout",
        "called_kill",
        "called_joint",
        "into_melee",
        "called_target",
        "called_hold",
        "luck_spent",
        "attack_number",
        "surprised",
        "entangled",
        "helpless",
    )

    def kept(self) -> dict[str, Any]:
        """The values of a valid form that the next attack starts with (``initial``)."""
        return {
            k: v for k, v in self.cleaned_data.items() if k not in self.ONE_OFF and v not in (None, "", [])
        }

    def attack_fields(self) -> dict[str, Any]:
        """The cleaned data in the shape the API takes (attacks.attack_from)."""
        data = dict(self.cleaned_data)
        attacker_score = data.pop("attacker_score") or ""
        if attacker_score.startswith(NPC_SCORE):
            # the NPC's score from its statistics is the base chance (the log names it "NPC")
            if data.get("strike_base") is not None:
                raise forms.ValidationError(
                    {"strike_base": "The NPC chosen above brings its own score: leave the base chance empty."}
                )
            npc_id, _, key = attacker_score.removeprefix(NPC_SCORE).partition(":")
            scores = {k: value for k, _label, value in self.npc_scores.get(int(npc_id), [])}
            data["strike_base"] = scores[key]
        elif attacker_score:
            agent_id, _, key = attacker_score.partition(":")
            data["attacker"], data["attacker_score"] = int(agent_id), key
        skill = data.pop("defender_skill") or ""
        if skill:
            agent_id, _, key = skill.partition(":")
            if data.get("defender") != int(agent_id):
                raise forms.ValidationError(
                    {"defender_skill": "That skill belongs to another agent than the defender."}
                )
            data["defender_skill"] = key
        if data.get("form") != "missile":
            data.pop("missile_class", None)
            data.pop("missile_weapon", None)
        elif data.get("missile_weapon"):
            data.pop("missile_class", None)  # the weapon names its class (attacks.MISSILE_WEAPON_CLASS)
        if data.get("shield") == "none":
            data.pop("shield")
        return data


class HoldForm(forms.Form):
    """A later round of a hold or strangle made with a called hold (TIMEMASTER §15)."""

    hold = forms.TypedChoiceField(label="Kept hold", coerce=int, required=False, empty_value=None)
    round = forms.IntegerField(
        label="Round of the hold",
        min_value=2,
        max_value=999,
        required=False,
        help_text="Only for a hold not kept above (one made before holds were kept).",
    )
    strangle = forms.BooleanField(label="It is a strangle (check against current Stamina)", required=False)
    holder = forms.TypedChoiceField(label="Agent holding", coerce=int, required=False, empty_value=None)
    defender = forms.TypedChoiceField(label="Held agent", coerce=int, required=False, empty_value=None)
    defender_npc = forms.TypedChoiceField(label="Held NPC", coerce=int, required=False, empty_value=None)
    secret = forms.BooleanField(label="Secret hold round", required=False)

    def __init__(self, *args: Any, agents: Any = (), npcs: Any = (), holds: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["hold"].choices = [("", "—")] + [(h["id"], h["title"]) for h in holds]
        self.fields["holder"].choices = [("", "An NPC")] + [(a.pk, a.name) for a in agents]
        self.fields["defender"].choices = [("", "—")] + [(a.pk, a.name) for a in agents]
        self.fields["defender_npc"].choices = [("", "—")] + [(n.pk, n.name) for n in npcs]


class SpecialDamageForm(forms.Form):
    """Damage that is not an attack (TIMEMASTER §18): falls, catastrophes, exposure, fire, smoke, poison."""

    kind = forms.ChoiceField(
        label="What happened",
        choices=[
            ("fall", "A fall (more than 10 ft)"),
            ("catastrophe", "A catastrophe (explosion, collapse …)"),
            ("exposure", "A day of exposure"),
            ("fire", "On fire (3 wounds a round)"),
            ("smoke", "Breathing smoke (2 wounds a round)"),
            ("poison", "Contact with a poison"),
        ],
    )
    feet = forms.IntegerField(label="Feet fallen", required=False, min_value=1, max_value=100_000)
    strike_number = forms.IntegerField(
        label="Catastrophe's strike number",
        required=False,
        min_value=1,
        max_value=999,
        help_text="100 if empty.",
    )
    rounds = forms.IntegerField(
        label="Rounds in fire or smoke", required=False, min_value=1, max_value=10_000
    )
    defender = forms.TypedChoiceField(
        label="Agent who takes it", coerce=int, required=False, empty_value=None
    )
    defender_npc = forms.TypedChoiceField(
        label="NPC who takes it", coerce=int, required=False, empty_value=None
    )
    luck_spent = forms.TypedChoiceField(
        label="Luck the agent spends (falls, catastrophes)",
        coerce=int,
        choices=[(0, "0"), (1, "1"), (2, "2")],
        initial=0,
    )
    secret = forms.BooleanField(label="Secret", required=False)

    def __init__(self, *args: Any, agents: Any = (), npcs: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["defender"].choices = [("", "—")] + [(a.pk, a.name) for a in agents]
        self.fields["defender_npc"].choices = [("", "—")] + [(n.pk, n.name) for n in npcs]
