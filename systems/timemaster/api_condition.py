"""API v1 for TIMEMASTER play at the table: an agent's condition, and attacks resolved by the GM.

Routes:
  campaigns/<campaign_pk>/characters/<pk>/condition/
        GET   every member who may see the agent: current Stamina, wounds, Willpower, status,
              critical state, recovery rate, running and swimming
        POST  a condition entry (damage, Luck check against death, came to, treatment, rest,
              bedrest, sleep, Luck spent): the GM; the agent's player for rest, sleep and Luck
  campaigns/<campaign_pk>/attacks/
        POST  the GM: one attack, its column chosen by the engine (timemaster-play.md §4)
  campaigns/<campaign_pk>/holds/
        POST  the GM: a later round of a hold or strangle (timemaster-play.md §15)
  campaigns/<campaign_pk>/fight/[<state_pk>/(end|reopen|revert)/]
        GET   the GM: holds, strangles and knockdowns kept (who, since which round); POST ends
              one, takes an ended one up again, or reverts one made by mistake (GM only)
  campaigns/<campaign_pk>/special-damage/
        POST  the GM: a fall, catastrophe, exposure, fire, smoke or poison (timemaster-play.md §18)
  campaigns/<campaign_pk>/npcs/<npc_pk>/condition/[<entry_pk>/revert/]
        GET   the GM: an NPC's condition in a fight and its changes; POST a change (damage, armor
              worn, came to, rest ...); .../<entry_pk>/revert/ POST reverts one (GM only)
Reverting an entry is the ledger's own (``.../characters/<pk>/revert/``).
Thin views: access through characters.access and campaigns.access, writes through
systems.timemaster.condition_services and systems.timemaster.attacks.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.urls import re_path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from campaigns.table.api_rolls import RollSerializer
from characters import access
from characters.api import EntrySerializer
from systems.timemaster import action_checks as checks
from systems.timemaster import advancement_services as adv
from systems.timemaster import attacks, fight_states
from systems.timemaster import condition_services as cond
from systems.timemaster import npc_condition_services as npc_cond
from systems.timemaster.access import get_timemaster_campaign_for_user
from systems.timemaster.engine import armor as armor_rules
from systems.timemaster.engine import combat, npc_condition, recovery, special
from systems.timemaster.engine import modifiers as modifier_rules
from systems.timemaster.engine.play_tables import UNKNOWN_LIMIT
from systems.timemaster.engine.tables import ARMOR

MAX_ID = 2**63 - 1


class ConditionEntrySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(cond.KINDS))
    stamina = serializers.IntegerField(required=False, min_value=0, max_value=UNKNOWN_LIMIT)
    wounds = serializers.IntegerField(required=False, min_value=0, max_value=UNKNOWN_LIMIT)
    willpower = serializers.IntegerField(required=False, min_value=0, max_value=UNKNOWN_LIMIT)
    source = serializers.CharField(required=False, allow_blank=True, max_length=200)
    crumple = serializers.ChoiceField(required=False, choices=list(armor_rules.LOCATIONS))
    armor = serializers.ListField(
        child=serializers.ChoiceField(choices=list(ARMOR)), required=False, max_length=len(ARMOR)
    )
    cause = serializers.ChoiceField(required=False, choices=list(recovery.FATAL_CAUSES))
    points = serializers.IntegerField(required=False, min_value=1, max_value=2)
    how = serializers.ChoiceField(required=False, choices=list(recovery.CRITICAL_TREATMENTS))
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=UNKNOWN_LIMIT)
    days = serializers.IntegerField(required=False, min_value=1, max_value=UNKNOWN_LIMIT)
    medical_days = serializers.IntegerField(required=False, min_value=0, max_value=UNKNOWN_LIMIT)
    hours = serializers.IntegerField(required=False, min_value=1, max_value=UNKNOWN_LIMIT)
    talent = serializers.CharField(required=False, max_length=80)
    extra_willpower = serializers.IntegerField(required=False, min_value=0, max_value=20)
    mission = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)
    revision = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)

    def validate(self, data):
        kind = data["kind"]
        allowed = set(cond.FIELDS[kind]) | {"kind", "mission", "reason", "revision"}
        if kind == "damage_taken":
            allowed.add("source")
        extra = sorted(set(self.initial_data) - allowed)
        if extra:
            raise serializers.ValidationError({extra[0]: [f"{kind} does not take {extra[0]!r}."]})
        needed = [
            name for name in cond.FIELDS[kind] if name not in data and name not in recovery.OPTIONAL_FIELDS
        ]
        if kind == "death_check":
            needed = []  # the server rolls it
        if needed:
            raise serializers.ValidationError({needed[0]: ["This field is required."]})
        return data


class AttackSerializer(serializers.Serializer):
    form = serializers.ChoiceField(choices=list(combat.ATTACK_FORMS))
    results_key = serializers.ChoiceField(choices=list(combat.DAMAGE_KEYS), default="armed")
    attacker = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    attacker_score = serializers.CharField(required=False, allow_blank=True, max_length=80)
    strike_base = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    modifier = serializers.IntegerField(
        default=0, min_value=-checks.MODIFIER_LIMIT, max_value=checks.MODIFIER_LIMIT
    )
    defender = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    defender_skill = serializers.CharField(required=False, allow_blank=True, max_length=80)
    defender_npc = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    defender_kind = serializers.ChoiceField(choices=["npc", "troops"], default="npc")
    missile_class = serializers.ChoiceField(required=False, choices=list(combat.MISSILE_CLASSES))
    shield = serializers.ChoiceField(required=False, choices=["none", *combat.SHIELDS])
    attack_number = serializers.IntegerField(default=1, min_value=1, max_value=99)
    surprised = serializers.BooleanField(default=False)
    entangled = serializers.BooleanField(default=False)
    helpless = serializers.BooleanField(default=False)
    defender_advanced_self_defense = serializers.BooleanField(default=False)
    attacker_advanced_self_defense = serializers.BooleanField(default=False)
    attacker_florentine = serializers.BooleanField(default=False)
    defender_florentine = serializers.BooleanField(default=False)
    mass_armor = serializers.BooleanField(default=False)
    troop_armor_rating = serializers.IntegerField(required=False, min_value=0, max_value=999)
    unskilled_melee = serializers.IntegerField(required=False, min_value=0, max_value=999)
    declared_skill_score = serializers.IntegerField(required=False, min_value=0, max_value=999)
    current_willpower = serializers.IntegerField(required=False, min_value=0, max_value=999)
    defense_die = serializers.IntegerField(required=False, min_value=1, max_value=10)
    luck_spent = serializers.IntegerField(default=0, min_value=0, max_value=10)
    apply_damage = serializers.BooleanField(default=True)
    secret = serializers.BooleanField(default=False)
    mission = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    purpose = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    modifiers = serializers.ListField(
        child=serializers.ChoiceField(choices=list(modifier_rules.MODIFIER_KEYS)),
        required=False,
        max_length=40,
    )
    range_weapon = serializers.ChoiceField(required=False, choices=list(modifier_rules.RANGE_WEAPONS))
    range_feet = serializers.IntegerField(
        required=False, min_value=1, max_value=modifier_rules.MAX_RANGE_FEET
    )
    missile_weapon = serializers.ChoiceField(
        required=False, choices=["thrown", "sling", "short_bow", "fired", "firearm", "beam"]
    )
    armor = serializers.ListField(
        child=serializers.ChoiceField(choices=list(ARMOR)), required=False, max_length=len(ARMOR)
    )
    crumpled = serializers.ListField(
        child=serializers.ChoiceField(choices=list(armor_rules.LOCATIONS)), required=False, max_length=11
    )
    closed_helmet = serializers.BooleanField(default=False)
    attacker_penetration_bonus = serializers.IntegerField(required=False, min_value=0, max_value=100)
    knockout_skill = serializers.ChoiceField(required=False, choices=list(armor_rules.KNOCKOUT_SKILLS))
    called_location = serializers.ChoiceField(required=False, choices=list(armor_rules.LOCATIONS))
    called_severity = serializers.ChoiceField(required=False, choices=list(armor_rules.CALLABLE_SEVERITIES))
    called_knockout = serializers.BooleanField(default=False)
    called_kill = serializers.BooleanField(default=False)
    called_hold = serializers.ChoiceField(required=False, choices=["hold", "strangle"])
    called_joint = serializers.BooleanField(default=False)
    called_target = serializers.BooleanField(default=False)
    into_melee = serializers.BooleanField(default=False)
    fight_round = serializers.IntegerField(default=1, min_value=1, max_value=9999)
    covered_locations = serializers.ListField(
        child=serializers.ChoiceField(choices=list(armor_rules.LOCATIONS)), required=False, max_length=11
    )


class HoldRoundSerializer(serializers.Serializer):
    hold = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    round = serializers.IntegerField(required=False, allow_null=True, min_value=2, max_value=999)
    strangle = serializers.BooleanField(default=False)
    holder = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    defender = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    defender_npc = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    secret = serializers.BooleanField(default=False)
    mission = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)


class SpecialDamageSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(special.SPECIAL_KINDS))
    defender = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    defender_npc = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)
    feet = serializers.IntegerField(required=False, min_value=1, max_value=100_000)
    strike_number = serializers.IntegerField(required=False, min_value=1, max_value=999)
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=UNKNOWN_LIMIT)
    luck_spent = serializers.IntegerField(default=0, min_value=0, max_value=2)
    secret = serializers.BooleanField(default=False)
    mission = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_ID)


class ConditionView(APIView):
    def agent(self):
        character, membership = access.get_character_for_user(
            self.request.user,
            self.kwargs["pk"],
            campaign_id=self.kwargs["campaign_pk"],
            need_system=adv.SYSTEM,
        )
        if not adv.has_advancement(character):
            raise Http404("A draft has no condition yet.")
        return character, membership

    @extend_schema(responses=OpenApiResponse(description="recovery.condition_summary of the agent"))
    def get(self, request, campaign_pk=None, pk=None):
        """The agent's condition: current Stamina, wounds, Willpower, status, critical state."""
        character, _ = self.agent()
        summary = cond.summary(character)
        if summary is None:
            raise Http404("This agent's record cannot be read.")
        return Response({**summary, "revision": character.revision})

    @extend_schema(request=ConditionEntrySerializer, responses={201: OpenApiResponse(description="entry")})
    def post(self, request, campaign_pk=None, pk=None):
        """Record a condition change (a ledger entry the GM can revert)."""
        character, membership = self.agent()
        body = ConditionEntrySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        kind = data.pop("kind")
        if not cond.can_record(character, membership, kind):
            raise PermissionDenied(
                "Only the game master (or, for rest, sleep and Luck, the agent's player) can do this."
            )
        mission = None
        if data.get("mission"):
            mission = character.campaign.missions.filter(pk=data.pop("mission")).first()
            if mission is None:
                raise serializers.ValidationError({"mission": ["No such mission in this campaign."]})
        revision, reason = data.pop("revision", None), data.pop("reason", "")
        row, rolls = cond.record(
            character, membership, kind, data, revision=revision, mission=mission, reason=reason
        )
        return Response(
            {
                "entry": EntrySerializer(row, context={"reversed_ids": set()}).data,
                "revision": character.revision,
                "condition": cond.summary(character),
                # the secret rolls stay in the GM's log; the answer names only the open ones
                "rolls": [RollSerializer(r).data for r in rolls if not r.secret],
            },
            status=status.HTTP_201_CREATED,
        )


class AttackView(APIView):
    @extend_schema(request=AttackSerializer, responses={201: RollSerializer})
    def post(self, request, campaign_pk=None):
        """GM only: resolve one attack; the roll log shows the column and why."""
        campaign, membership = get_timemaster_campaign_for_user(request.user, campaign_pk, need="gm")
        body = AttackSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        roll, entries = attacks.resolve(
            membership, attacks.attack_from(dict(body.validated_data), membership, campaign)
        )
        return Response(
            {
                **RollSerializer(roll).data,
                "entries": [EntrySerializer(e, context={"reversed_ids": set()}).data for e in entries],
            },
            status=status.HTTP_201_CREATED,
        )


class HoldRoundView(APIView):
    @extend_schema(request=HoldRoundSerializer, responses={201: RollSerializer})
    def post(self, request, campaign_pk=None):
        """GM only: one later round of a hold or strangle (1d10 Stamina; the strangle check)."""
        campaign, membership = get_timemaster_campaign_for_user(request.user, campaign_pk, need="gm")
        body = HoldRoundSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        roll, entries = attacks.hold_round(
            membership, **attacks.hold_from(dict(body.validated_data), membership, campaign)
        )
        return Response(
            {
                **RollSerializer(roll).data,
                "entries": [EntrySerializer(e, context={"reversed_ids": set()}).data for e in entries],
            },
            status=status.HTTP_201_CREATED,
        )


class SpecialDamageView(APIView):
    @extend_schema(
        request=SpecialDamageSerializer, responses={201: OpenApiResponse(description="roll and entries")}
    )
    def post(self, request, campaign_pk=None):
        """GM only: a fall, catastrophe, exposure, fire, smoke or poison on an agent or an NPC."""
        campaign, membership = get_timemaster_campaign_for_user(request.user, campaign_pk, need="gm")
        body = SpecialDamageSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        roll, entries = attacks.special_damage(
            membership, **attacks.special_from(dict(body.validated_data), membership, campaign)
        )
        return Response(
            {
                "roll": RollSerializer(roll).data if roll is not None else None,
                "entries": [EntrySerializer(e, context={"reversed_ids": set()}).data for e in entries],
            },
            status=status.HTTP_201_CREATED,
        )


class _NPCConditionBase(APIView):
    def npc(self):
        campaign, membership = get_timemaster_campaign_for_user(
            self.request.user, self.kwargs["campaign_pk"], need="gm"
        )
        npc = campaign.npcs.filter(pk=self.kwargs["npc_pk"]).first()
        if npc is None:
            raise Http404("No such NPC.")
        return npc, membership


class NPCEntrySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=list(npc_condition.NPC_KINDS))
    stamina = serializers.IntegerField(required=False, min_value=0, max_value=UNKNOWN_LIMIT)
    wounds = serializers.IntegerField(required=False, min_value=0, max_value=UNKNOWN_LIMIT)
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=UNKNOWN_LIMIT)
    how = serializers.ChoiceField(required=False, choices=list(recovery.CRITICAL_TREATMENTS))
    cause = serializers.ChoiceField(required=False, choices=list(recovery.FATAL_CAUSES))
    armor = serializers.ListField(
        child=serializers.ChoiceField(choices=list(ARMOR)), required=False, max_length=len(ARMOR)
    )
    source = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class NPCConditionView(_NPCConditionBase):
    @extend_schema(responses=OpenApiResponse(description="the NPC's condition and its changes (GM only)"))
    def get(self, request, campaign_pk=None, npc_pk=None):
        """GM only: the NPC's condition in a fight and every change to it."""
        npc, _ = self.npc()
        return Response(
            {
                "condition": npc_cond.summary(npc),
                "entries": [npc_cond.describe(row) for row in npc_cond.history(npc)],
            }
        )

    @extend_schema(
        request=NPCEntrySerializer, responses={201: OpenApiResponse(description="the NPC's condition")}
    )
    def post(self, request, campaign_pk=None, npc_pk=None):
        """GM only: record a change (damage, armor worn, came to, rest ...) on the NPC's condition."""
        npc, membership = self.npc()
        body = NPCEntrySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        kind, source = data.pop("kind"), data.pop("source", "")
        npc_cond.record(npc, membership, kind, data, source)
        return Response(
            {
                "condition": npc_cond.summary(npc),
                "entries": [npc_cond.describe(row) for row in npc_cond.history(npc)],
            },
            status=status.HTTP_201_CREATED,
        )


class NPCConditionRevertView(_NPCConditionBase):
    @extend_schema(request=None, responses=OpenApiResponse(description="the NPC's condition after"))
    def post(self, request, campaign_pk=None, npc_pk=None, entry_pk=None):
        """GM only: revert one change to the NPC's condition."""
        npc, membership = self.npc()
        npc_cond.revert(npc, membership, int(entry_pk))
        return Response(
            {
                "condition": npc_cond.summary(npc),
                "entries": [npc_cond.describe(row) for row in npc_cond.history(npc)],
            }
        )


class FightView(APIView):
    @extend_schema(responses=OpenApiResponse(description="holds, strangles and knockdowns kept (GM only)"))
    def get(self, request, campaign_pk=None):
        """GM only: what lasts in the fight (who holds whom since which round, who is down) and
        what ended or was reverted lately."""
        campaign, _ = get_timemaster_campaign_for_user(request.user, campaign_pk, need="gm")
        return Response(fight_states.fight(campaign.pk))


class FightStateEndSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class FightStateChangeView(APIView):
    action = "end"

    @extend_schema(request=FightStateEndSerializer, responses=OpenApiResponse(description="the state after"))
    def post(self, request, campaign_pk=None, state_pk=None):
        """GM only: end a hold or knockdown (broken, got up), take an ended one up again, or
        revert one made by mistake."""
        _, membership = get_timemaster_campaign_for_user(request.user, campaign_pk, need="gm")
        if self.action == "end":
            body = FightStateEndSerializer(data=request.data)
            body.is_valid(raise_exception=True)
            row = fight_states.end(membership, int(state_pk), body.validated_data["reason"])
        elif self.action == "reopen":
            row = fight_states.reopen(membership, int(state_pk))
        else:
            row = fight_states.revert(membership, int(state_pk))
        return Response(fight_states.describe(row))


BASE = r"^campaigns/(?P<campaign_pk>[0-9]{1,18})/"
urlpatterns = [
    re_path(
        BASE + r"characters/(?P<pk>[0-9]{1,18})/condition/$",
        ConditionView.as_view(),
        name="api-character-condition",
    ),
    re_path(BASE + r"attacks/$", AttackView.as_view(), name="api-campaign-attacks"),
    re_path(BASE + r"holds/$", HoldRoundView.as_view(), name="api-campaign-holds"),
    re_path(BASE + r"special-damage/$", SpecialDamageView.as_view(), name="api-campaign-special-damage"),
    re_path(BASE + r"fight/$", FightView.as_view(), name="api-campaign-fight"),
    *(
        re_path(
            BASE + rf"fight/(?P<state_pk>[0-9]{{1,18}})/{action}/$",
            FightStateChangeView.as_view(action=action),
            name=f"api-campaign-fight-{action}",
        )
        for action in ("end", "reopen", "revert")
    ),
    re_path(
        BASE + r"npcs/(?P<npc_pk>[0-9]{1,18})/condition/$",
        NPCConditionView.as_view(),
        name="api-npc-condition",
    ),
    re_path(
        BASE + r"npcs/(?P<npc_pk>[0-9]{1,18})/condition/(?P<entry_pk>[0-9]{1,18})/revert/$",
        NPCConditionRevertView.as_view(),
        name="api-npc-condition-revert",
    ),
]
