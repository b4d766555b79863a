"""The GM's attack panel on the dice page: who attacks with what, who defends, and the situation.

No field asks for a column: the engine chooses it (systems.timemaster.engine.combat,
timemaster-play.md §4) and the log shows why. An agent attacker is chosen with one of its
scores; an NPC attacker by its base chance. An agent defender brings its own Unskilled Melee,
melee skills, Luck and current Willpower; an NPC defender is described by the GM.
"""

from __future__ import annotations

from typing import Any

from django import forms

NPC = ""


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
        help_text="When no agent attacks.",
    )
    modifier = forms.IntegerField(label="Strike number modifier", min_value=-200, max_value=200, initial=0)
    defender = forms.TypedChoiceField(label="Defender", coerce=int, required=False, empty_value=None)
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

    def __init__(
        self, *args: Any, agents: Any = (), scores: Any = None, missions: Any = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
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
        self.fields["attacker_score"].choices = attacker_choices
        self.fields["defender_skill"].choices = skill_choices
        self.fields["defender"].choices = [("", "An NPC (describe below)")] + [(a.pk, a.name) for a in agents]
        self.fields["mission"].choices = [("", "—")] + [(m.pk, m.title) for m in missions]

    def attack_fields(self) -> dict[str, Any]:
        """The cleaned data in the shape the API takes (attacks.attack_from)."""
        data = dict(self.cleaned_data)
        attacker_score = data.pop("attacker_score") or ""
        if attacker_score:
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
        if data.get("shield") == "none":
            data.pop("shield")
        return data
