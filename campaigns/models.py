"""Campaigns, who belongs to them and in which role, invitations, missions and the dice log."""

from __future__ import annotations

import datetime
import functools
import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings as django_settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from characters.systems import system_choices
from kernel.fields import ReadSafeJSONField, random_public_id


class Role(models.TextChoices):
    GM = "gm", "Game master"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


# What each role may do, from least to most: "need" in access.py names one of these.
ROLE_LEVEL = {Role.OBSERVER: 0, Role.PLAYER: 1, Role.GM: 2}


PAPER_CHOICES = [("letter", "US Letter"), ("a4", "A4")]
#: The papers' keys (the API's choice set, shared with the print requests: sheets.services.PAPERS).
PAPERS = tuple(key for key, _ in PAPER_CHOICES)


@functools.cache
def time_zone_names() -> tuple[str, ...]:
    """The IANA time zone names (the zoneinfo database: the system's, else the tzdata package),
    sorted; read once. Without "localtime" and "Factory", which name no place."""
    import zoneinfo

    return tuple(sorted(zoneinfo.available_timezones() - {"localtime", "Factory"}))


def time_zone_label(name: str) -> str:
    """A time zone's name as words read it: America/New York."""
    return name.replace("_", " ")


def validate_time_zone(value: str) -> None:
    from django.core.exceptions import ValidationError

    if value not in time_zone_names():
        raise ValidationError(f"{value!r} is not a time zone name (such as Europe/Paris or America/Chicago).")


class CampaignQuerySet(models.QuerySet):
    def visible_to(self, user):
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    system = models.CharField(max_length=20, choices=system_choices)
    module = models.CharField(max_length=40, blank=True, default="")
    description = models.TextField(blank=True, default="", max_length=5000)
    settings = ReadSafeJSONField(default=dict, blank=True)
    # The paper the group prints on: the print pickers start on it and the character page offers
    # its copy (issue 30). Both sizes are still rendered and either can be chosen. A new campaign
    # takes it from its creator's browser region (campaigns/paper.py); the default is for no region.
    paper = models.CharField(max_length=10, choices=PAPER_CHOICES, default="letter")
    # Where the group plays: a day of play starts at midnight here (a play session's date; the
    # first roll of a day starting a session, below). An IANA name.
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    # A roll the whole table sees, made while no play session is under way and none started
    # today (in ``time_zone``), starts one (campaigns/chronicle/play_sessions.py, issue 50).
    sessions_start_on_roll = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self):
        """The campaign's time zone (a ZoneInfo; UTC for a name this server no longer knows)."""
        import zoneinfo

        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            return datetime.UTC

    @property
    def time_zone_label(self) -> str:
        return time_zone_label(self.time_zone)

    @property
    def system_label(self) -> str:
        label = dict(system_choices()).get(self.system, self.system)
        return f"{label} ({self.module.title()})" if self.module else label


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]
        # The campaign list's order (a user's memberships, newest first): a page of it walks this
        # index and stops after 51 rows, however many campaigns the user is in (issue 22).
        indexes = [models.Index(fields=["user", "-id"], name="my_campaigns_newest_first")]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign} as {self.role}"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    def at_least(self, need: str) -> bool:
        return ROLE_LEVEL[Role(self.role)] >= ROLE_LEVEL[Role(need)]


def new_invitation_code() -> str:
    return secrets.token_urlsafe(16)


def default_expiry():
    return timezone.now() + timedelta(days=7)


class Invitation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    code = models.CharField(max_length=40, unique=True, default=new_invitation_code)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(default=default_expiry)
    revoked_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invitation to {self.campaign_id} (expires {self.expires_at:%Y-%m-%d})"

    def problem(self) -> str | None:
        """Why this invitation cannot be used now, or None."""
        if self.revoked_at:
            return "This invitation was revoked by the game master."
        if self.expires_at <= timezone.now():
            return "This invitation has expired. Ask the game master for a new one."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This invitation has been used as often as it may be."
        return None

    @property
    def is_active(self) -> bool:
        return self.problem() is None


class Mission(models.Model):
    """A mission (adventure) of a campaign. The system issues add their own records to it.

    TIMEMASTER missions also carry a destination, the adventure's significance, the agents sent,
    the GM's Historical Changes Chart and, once closed, the engine's outcome (timemaster-characters.md
    §6.1-§6.2, rulings 2-5). Significance, chart, tally and outcome are the GM's until published.
    """

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        ACTIVE = "active", "Active"
        COMPLETED = "completed", "Completed"
        FAILED = "failed", "Failed"
        ABORTED = "aborted", "Aborted"

    CLOSED_STATUSES = (Status.COMPLETED, Status.FAILED, Status.ABORTED)

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="missions")
    title = models.CharField(max_length=200)
    briefing = models.TextField(blank=True, default="", max_length=20000)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    created_at = models.DateTimeField(auto_now_add=True)
    # Destination (timemaster-characters.md §9.5): Parallel code, place, and the years entered and
    # left (negative = B.C., no year 0).
    parallel = models.CharField(max_length=12, blank=True, default="")
    place = models.CharField(max_length=200, blank=True, default="")
    start_year = models.IntegerField(null=True, blank=True)
    end_year = models.IntegerField(null=True, blank=True)
    significance_rating = models.PositiveSmallIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(1000)]
    )
    agents = models.ManyToManyField("characters.Character", blank=True, related_name="missions")
    # Lines {"low": int, "high": int | None, "text": str}, checked by significance.validate_chart.
    historical_changes_chart = ReadSafeJSONField(default=list, blank=True)
    success = models.BooleanField(null=True, blank=True)
    # significance.resolve_mission's outcome (check, verdict, pool, split, awards); GM-secret
    # until published. Earlier outcomes replaced by a correction after closing stay listed.
    outcome = ReadSafeJSONField(default=dict, blank=True)
    previous_outcomes = ReadSafeJSONField(default=list, blank=True)
    check_roll = models.ForeignKey("Roll", on_delete=models.RESTRICT, null=True, blank=True, related_name="+")
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    published_at = models.DateTimeField(null=True, blank=True)
    published_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title

    @property
    def is_closed(self) -> bool:
        return self.status in self.CLOSED_STATUSES

    @property
    def is_published(self) -> bool:
        return self.published_at is not None

    @property
    def players_status_label(self) -> str:
        """What players and observers read: success or failure is part of the result, so a
        closed mission is just "Closed" until the GM publishes it."""
        if self.is_closed and not self.is_published:
            return "Closed (result not yet published)"
        return self.get_status_display()


class SignificanceEntry(models.Model):
    """One line of a mission's significance tally (timemaster-characters.md §6.1, ruling 4).

    Append-only: a mistake recorded by error is undone by a new entry that reverses it (and, once
    the mission is closed, that is the only correction there is). GM-only until the mission's
    result is published; then players see the entries marked ``shown_to_players``.
    """

    class Kind(models.TextChoices):
        NPC_DEATH = "npc_death", "NPC death"
        EVENT_CHANGED = "event_changed", "Event changed"
        EQUIPMENT_LEFT_BEHIND = "equipment_left_behind", "Equipment left behind"
        OTHER = "other", "Other mistake"
        REVERSAL = "reversal", "Reversal"

    mission = models.ForeignKey(Mission, on_delete=models.CASCADE, related_name="tally_entries")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    description = models.TextField(blank=True, default="", max_length=2000)
    rating = models.PositiveSmallIntegerField(null=True, blank=True)  # None on a reversal
    npc = models.ForeignKey("NPC", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    equipment_item = models.CharField(max_length=30, blank=True, default="")  # a SEP_ITEMS key
    reverses = models.ForeignKey(
        "self", on_delete=models.RESTRICT, null=True, blank=True, related_name="reversed_by"
    )
    reason = models.CharField(max_length=500, blank=True, default="")
    after_close = models.BooleanField(default=False)
    shown_to_players = models.BooleanField(default=True)
    recorded_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "significance entries"
        constraints = [
            models.UniqueConstraint(
                fields=["reverses"],
                condition=models.Q(reverses__isnull=False),
                name="a_mistake_is_reversed_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.rating}) on mission {self.mission_id}"

    def save(self, *args, **kwargs):
        if not self._state.adding and not kwargs.pop("_allow_update", False):
            raise ValueError(
                "The significance tally is append-only: reverse an entry instead of changing it."
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("The significance tally is append-only: reverse an entry instead of deleting it.")


#: Rolls a game system shows only to some members: system key -> function(user, membership) giving
#: a Q of the rolls of that membership's campaign the (non-GM) user may not see, or None. A system
#: app registers its rule from its AppConfig.ready() (tempo_conflicts: a conflict's rolls only to
#: the players whose agents take part, as the conflict page).
HIDDEN_ROLLS: dict[str, Callable[[Any, Membership], models.Q | None]] = {}


#: Rolls a system shows some members only, by the roll alone (a Tempo conflict's): system key ->
#: function(roll) -> bool, registered with HIDDEN_ROLLS. Outside a dice scope's lanes such a roll
#: is in the GM's roll log only, never the table's (campaigns/table/rolllog.py).
PARTIAL_ROLLS: dict[str, Callable[[Any], bool]] = {}


def _hidden_rolls(user, membership: Membership) -> models.Q | None:
    rule = HIDDEN_ROLLS.get(membership.campaign.system)
    return rule(user, membership) if rule is not None else None


def seen_by_members_q(prefix: str = "") -> models.Q:
    """SEEN_BY_MEMBERS of the rolls reached through ``prefix`` ("roll__": a live event's roll)."""
    return (
        models.Q(**{f"{prefix}secret": False})
        | models.Q(**{f"{prefix}announced": True})
        | models.Q(**{f"{prefix}revealed_at__isnull": False})
    )


#: The rolls a member who is not the GM sees in the log: open ones, announced secret ones (sealed:
#: without their result) and revealed ones.
SEEN_BY_MEMBERS = seen_by_members_q()


def seen_by_members(roll: Roll) -> bool:
    """SEEN_BY_MEMBERS of one roll in hand (the live feed reads a batch's rolls once for the GM and
    the members; tests/live/test_feed.py holds the two to the same answer for every case)."""
    return not roll.secret or roll.announced or roll.revealed_at is not None


class RollQuerySet(models.QuerySet):
    def visible_to(self, user, membership: Membership | None = None):
        """GMs see every roll of their campaigns; everyone else sees only the open ones, less those
        their system keeps from them (HIDDEN_ROLLS)."""
        if not user.is_authenticated:
            return self.none()
        if membership is not None:
            qs = self.filter(campaign_id=membership.campaign_id)
            if membership.is_gm:
                return qs
            hidden = _hidden_rolls(user, membership)
            qs = qs.filter(SEEN_BY_MEMBERS)
            return qs.exclude(hidden) if hidden is not None else qs
        visible = models.Q(pk__in=[])
        for member in Membership.objects.filter(user=user).select_related("campaign"):
            mine = models.Q(campaign_id=member.campaign_id)
            if not member.is_gm:
                hidden = _hidden_rolls(user, member)
                mine &= SEEN_BY_MEMBERS & (~hidden if hidden is not None else models.Q())
            visible |= mine
        return self.filter(visible)


class Roll(models.Model):
    """One entry of the campaign's dice log. Append-only: never edited or deleted by the app, but
    for the moment the GM shares a secret roll's result (``revealed_at``).

    A secret roll's result is the GM's (timemaster-characters.md §4.2: the CM rolls secret checks).
    An announced secret roll shows everyone else that it was made, by whom, for whom and when, and
    nothing of its result until revealed; an unannounced one (the significance check, whose mere
    existence says the mission succeeded) shows nothing until revealed. Ids are random
    (kernel.fields.random_public_id): the rolls a member may not see leave no gaps.
    """

    id = models.BigIntegerField(primary_key=True, default=random_public_id, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    mission = models.ForeignKey(
        Mission, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    character = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    roller = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=30)
    count = models.PositiveSmallIntegerField(default=1)
    modifier = models.SmallIntegerField(default=0)
    faces = ReadSafeJSONField(default=list)
    kept = ReadSafeJSONField(default=list)
    total = models.IntegerField()
    purpose = models.CharField(max_length=200, blank=True, default="")
    detail = ReadSafeJSONField(default=dict, blank=True)  # e.g. a check's margin, column and result
    secret = models.BooleanField(default=False)
    announced = models.BooleanField(default=True)
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    objects = RollQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        # The log's order with its id tie-break: without "-id" SQLite with planner statistics
        # (ANALYZE) walks the created_at index and filters by campaign instead (docs/performance.md).
        indexes = [
            models.Index(fields=["campaign", "-created_at", "-id"], name="roll_log_order"),
            # A batch of the live feed's rolls (campaigns/table/live.py: the campaign's rolls whose ids
            # the events name): by campaign and id together, SQLite without planner statistics read
            # every roll of the campaign by its campaign index to find those few (issue 43).
            models.Index(fields=["campaign", "id"], name="roll_in_campaign_by_id"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} = {self.total}"

    def save(self, *args, **kwargs):
        if not self._state.adding and not kwargs.pop("_allow_update", False):
            raise ValueError("The roll log is append-only: a roll cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("The roll log is append-only: a roll cannot be deleted.")

    @property
    def sealed(self) -> bool:
        """The result is the GM's: a secret roll not yet revealed."""
        return self.secret and self.revealed_at is None

    def sealed_for(self, membership: Membership | None) -> bool:
        """Whether this reader gets the roll without its result (everyone but the GM)."""
        return self.sealed and not (membership is not None and membership.is_gm)


class NPCQuerySet(models.QuerySet):
    def visible_to(self, user, membership: Membership | None = None):
        """GMs see every NPC of their campaigns; everyone else sees only the revealed ones."""
        if not user.is_authenticated:
            return self.none()
        if membership is not None:
            qs = self.filter(campaign_id=membership.campaign_id)
            return qs if membership.is_gm else qs.filter(revealed=True)
        gm_of = Membership.objects.filter(user=user, role=Role.GM).values("campaign_id")
        member_of = Membership.objects.filter(user=user).values("campaign_id")
        return self.filter(campaign_id__in=member_of).filter(
            models.Q(revealed=True) | models.Q(campaign_id__in=gm_of)
        )


class NPC(models.Model):
    """A non-player character of a campaign.

    Name and public description are what players may see once the GM reveals the NPC; everything
    else (notes and statistics) is for the GM only. The statistics follow the rules of ``system``
    (the campaign's system when the NPC was made), checked by that system's engine; systems without
    NPC rules keep name, description and notes only. Ids are random (kernel.fields.random_public_id):
    the NPCs not yet revealed leave no gaps among the ones players see.
    """

    id = models.BigIntegerField(primary_key=True, default=random_public_id, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="npcs")
    system = models.CharField(max_length=20, choices=system_choices)
    name = models.CharField(max_length=120)
    public_description = models.TextField(blank=True, default="", max_length=5000)
    gm_notes = models.TextField(blank=True, default="", max_length=20000)
    revealed = models.BooleanField(default=False)
    # Statistics (GM only). For TIMEMASTER: kind human/demorean, the seven Abilities without Luck,
    # significance rating, optional status rating, skills and talents (timemaster-characters.md §8).
    kind = models.CharField(max_length=20, blank=True, default="")
    abilities = ReadSafeJSONField(default=dict, blank=True)
    significance_rating = models.IntegerField(null=True, blank=True)
    status_rating = models.SmallIntegerField(null=True, blank=True)
    skills = ReadSafeJSONField(default=dict, blank=True)
    talents = ReadSafeJSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = NPCQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["campaign", "revealed"])]
        verbose_name = "NPC"
        verbose_name_plural = "NPCs"

    def __str__(self) -> str:
        return self.name


#: A tally entry's kinds as (value, label) pairs, named in the API schema by ENUM_NAME_OVERRIDES.
SIGNIFICANCE_ENTRY_KIND_CHOICES = SignificanceEntry.Kind.choices


def _seed_hex() -> str:
    from characters.systems.fair_dice import new_seed_hex

    return new_seed_hex()


class RollSeed(models.Model):
    """One period of provably fair dice (characters/systems/fair_dice.py, docs/fair-dice.md).

    ``commitment`` and ``secret_commitment`` (SHA-256 of the two seeds) are shown to every member
    from the start; ``server_seed`` once the GM rotates to a new seed; ``secret_key`` once, after
    rotation, no secret roll made under it is still the GM's. Numbered within the campaign: every
    member sees every seed, so the numbers hide nothing."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roll_seeds")
    number = models.PositiveIntegerField()
    server_seed = models.CharField(max_length=64, default=_seed_hex)
    commitment = models.CharField(max_length=64)
    secret_key = models.CharField(max_length=64, default=_seed_hex)
    secret_commitment = models.CharField(max_length=64)
    next_open = models.PositiveIntegerField(default=0)
    next_secret = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    rotated_at = models.DateTimeField(null=True, blank=True)
    secret_released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_seed_number_per_campaign")
        ]

    def __str__(self) -> str:
        return f"seed {self.number} of {self.campaign_id}"


class DiceScope(models.Model):
    """A part of play that only some members see (a Tempo conflict, seen by its participants and
    the GM), on the fair dice: its rolls take lanes of their own (``open:<label>``,
    ``secret:<label>``), and its secret rolls a secret key of its own, so that nothing the campaign's
    other members see (the counters of the campaign's lanes, when its secret key comes out)
    depends on it. ``secret_commitment`` is shown to who sees the scope from its start;
    ``secret_key`` once the scope is closed and none of its secret rolls is still the GM's. The
    label is random (no database id) and travels in the archive."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="dice_scopes")
    label = models.CharField(max_length=40)
    secret_key = models.CharField(max_length=64, default=_seed_hex)
    secret_commitment = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    secret_released_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "label"], name="one_dice_scope_label_per_campaign")
        ]

    def __str__(self) -> str:
        return f"dice scope {self.label} of {self.campaign_id}"


class ClientSeed(models.Model):
    """A player's own entropy for the campaign's dice, changeable at any time; every roll takes
    every player's seed as it stands at that moment."""

    membership = models.OneToOneField(Membership, on_delete=models.CASCADE, related_name="client_seed")
    seed = models.CharField(max_length=64)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"seed of membership {self.membership_id}"


class RollProof(models.Model):
    """What recomputing a roll needs: its seed, lane and counter and the players' seeds of that
    moment; or that it was entered by hand (physical dice, not verifiable). A roll without a proof
    was made before fair dice or by an engine's own dice (a Tempo conflict, a Time to Kill turn)."""

    roll = models.OneToOneField(Roll, on_delete=models.CASCADE, primary_key=True, related_name="proof")
    seed = models.ForeignKey(RollSeed, on_delete=models.PROTECT, null=True, blank=True, related_name="proofs")
    lane = models.CharField(max_length=60, blank=True, default="")
    counter = models.PositiveIntegerField(null=True, blank=True)
    client_seeds = ReadSafeJSONField(default=list, blank=True)
    by_hand = models.BooleanField(default=False)
    #: What the roll was when it was made, as every checker compares it with the roll shown
    #: (characters/systems/fair_dice.py roll_record): the modifier, purpose, reading and kind bound
    #: with the dice, so that none is changed unnoticed later. Empty for a proof made before.
    record = ReadSafeJSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seed", "lane", "counter"], name="one_counter_per_lane"),
        ]

    def __str__(self) -> str:
        return "entered by hand" if self.by_hand else f"{self.lane} {self.counter} of seed {self.seed_id}"


def _webhook_secret() -> str:
    return secrets.token_hex(32)


class WebhookKind(models.TextChoices):
    DISCORD = "discord", "Discord"
    SLACK = "slack", "Slack"
    JSON = "json", "Generic JSON"


class Webhook(models.Model):
    """Where a campaign's public events go (a group's chat): set by the GM. ``secret`` signs every
    body (HMAC-SHA256 in X-Dossier-Signature); a hook that keeps failing is disabled and the GM told
    on the campaign page (``disabled_reason``). campaigns/table/webhooks.py sends; docs/webhooks.md."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    kind = models.CharField(max_length=10, choices=WebhookKind.choices, default=WebhookKind.JSON)
    secret = models.CharField(max_length=64, default=_webhook_secret)
    enabled = models.BooleanField(default=True)
    failures = models.PositiveIntegerField(default=0)  # failed deliveries in a row
    last_error = models.CharField(max_length=300, blank=True, default="")
    disabled_reason = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "id"]

    def __str__(self) -> str:
        return f"{self.kind} hook of {self.campaign_id}"


#: Live topics (a play record's panel: "tempo-conflict-12") a system shows only to some members:
#: system key -> function(user, membership) giving the topics of that membership's campaign the
#: (non-GM) user may not see, or None. Registered from a system app's AppConfig.ready(), as
#: HIDDEN_ROLLS (a Tempo conflict's turns reach its participants only).
HIDDEN_TOPICS: dict[str, Callable[[Any, Membership], list[str] | None]] = {}


class LiveEventQuerySet(models.QuerySet):
    def visible_to(self, user, membership: Membership):
        """The events of the membership's campaign this member may know of: a roll's events as the
        roll log shows the roll (Roll.objects.visible_to), a play record's as its page."""
        qs = self.filter(campaign_id=membership.campaign_id)
        if not user.is_authenticated:
            return self.none()
        # An event meant for one member (their render finished, their export is ready) is theirs
        # alone, the GM's included: no one else learns that it happened (issue 44).
        qs = qs.filter(models.Q(recipient__isnull=True) | models.Q(recipient_id=user.pk))
        if membership.is_gm:
            return qs
        # Roll.objects.visible_to's rule read on each event's own roll (joined by its primary key),
        # not "roll in <every roll of the campaign the member sees>": that list was built in full
        # on each read, 200,000 ids to find the one newest event (issue 43). This way the newest
        # visible event is found walking down the campaign's events (live_feed_order) and stops.
        qs = qs.filter(
            models.Q(roll__isnull=True)
            | (models.Q(roll__campaign_id=membership.campaign_id) & seen_by_members_q("roll__"))
        )
        hidden_rolls = _hidden_rolls(user, membership)
        if hidden_rolls is not None:
            qs = qs.exclude(models.Exists(Roll.objects.filter(hidden_rolls, pk=models.OuterRef("roll_id"))))
        rule = HIDDEN_TOPICS.get(membership.campaign.system)
        hidden_topics = rule(user, membership) if rule is not None else None
        return qs.exclude(topic__in=hidden_topics) if hidden_topics else qs


class LiveEvent(models.Model):
    """One thing the live feed tells (campaigns/table/live.py, docs/live.md): a roll made, a secret roll
    shared, a play record's turn changed. ``id`` is the campaign feed's order and never leaves the
    server; clients resume from ``public_id`` (random: the events a member may not see leave no
    gaps in what that member is sent). What a subscriber is sent is rendered for that subscriber."""

    class Kind(models.TextChoices):
        ROLL = "roll", "Roll made"
        REVEAL = "reveal", "Secret roll shared"
        CHANGE = "change", "Play record changed"
        READY = "ready", "A member's sheet or export is ready"

    id = models.BigAutoField(primary_key=True)
    public_id = models.BigIntegerField(unique=True, default=random_public_id, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="live_events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    roll = models.ForeignKey(Roll, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    topic = models.CharField(max_length=60, blank=True, default="")
    # The one member this event is for (a sheet they asked for is ready, their export is written):
    # no one else is sent it, nor counts it. Blank: whoever may see the roll or the topic.
    recipient = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LiveEventQuerySet.as_manager()

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["campaign", "id"], name="live_feed_order")]

    def __str__(self) -> str:
        return f"{self.kind} {self.topic or self.roll_id} in {self.campaign_id}"


class PlaySession(models.Model):
    """One evening (or afternoon) of play: its number in the campaign, its date, a title and who
    was there (issue 50). Not a login session. The GM starts it and ends it; its page gathers what
    the record holds between ``started_at`` and ``ended_at`` (campaigns/chronicle/play_sessions.py), each
    reader seeing only what the log and the pages already show them.

    Every member sees every play session, so the numbers (1, 2, 3 ... within the campaign) hide
    nothing; pages and the API name a session by its number, never by the database id."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="play_sessions")
    number = models.PositiveIntegerField()
    title = models.CharField(max_length=200, blank=True, default="")
    date = models.DateField()
    attendees = models.ManyToManyField(django_settings.AUTH_USER_MODEL, blank=True, related_name="+")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    started_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["campaign", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "number"], name="one_play_session_number_per_campaign"
            )
        ]

    def __str__(self) -> str:
        return f"Session {self.number}" + (f": {self.title}" if self.title else "")

    @property
    def is_open(self) -> bool:
        return self.ended_at is None


class NoteVisibility(models.TextChoices):
    SHARED = "shared", "Shared with the table"
    GM = "gm", "Game master only"
    PRIVATE = "private", "Private (only me)"


class NoteQuerySet(models.QuerySet):
    def visible_to(self, user, membership: Membership):
        """The notes of the membership's campaign this member may read: the shared ones, their own,
        and, for a GM, the GM-only ones. A player's private note is its author's alone."""
        if not user.is_authenticated:
            return self.none()
        qs = self.filter(campaign_id=membership.campaign_id)
        seen = models.Q(visibility=NoteVisibility.SHARED) | models.Q(author_id=user.pk)
        if membership.is_gm:
            seen |= models.Q(visibility=NoteVisibility.GM)
        return qs.filter(seen)


class Note(models.Model):
    """A note of a play session: the GM's (shared with the table, or GM-only) or a member's
    (private, or shared). Markdown, rendered and sanitised for each reader (campaigns/chronicle/notes.py);
    its ``[[mentions]]`` of characters, NPCs and missions are kept in NoteMention for the links
    back from their pages. Ids are random (kernel.fields.random_public_id): the notes a member
    may not read leave no gaps among the ids they see."""

    id = models.BigIntegerField(primary_key=True, default=random_public_id, editable=False)
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notes")
    play_session = models.ForeignKey(PlaySession, on_delete=models.CASCADE, related_name="notes")
    author = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    visibility = models.CharField(
        max_length=10, choices=NoteVisibility.choices, default=NoteVisibility.SHARED
    )
    title = models.CharField(max_length=200, blank=True, default="")
    body = models.TextField(max_length=20000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = NoteQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["play_session", "created_at"], name="notes_of_a_session")]

    def __str__(self) -> str:
        return self.title or f"note {self.pk}"


class NoteMention(models.Model):
    """A ``[[name]]`` of a note that named one of its campaign's characters, NPCs or missions when
    the note was saved: what the entity's page lists back ("mentioned in"), each reader seeing only
    the notes they may read on an entity page they may see."""

    class Kind(models.TextChoices):
        CHARACTER = "character", "Character"
        NPC = "npc", "NPC"
        MISSION = "mission", "Mission"

    note = models.ForeignKey(Note, on_delete=models.CASCADE, related_name="mentions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    target_id = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["note", "kind", "target_id"], name="one_mention_per_note_and_target"
            )
        ]
        indexes = [models.Index(fields=["kind", "target_id"], name="mentions_of_a_record")]

    def __str__(self) -> str:
        return f"{self.kind} {self.target_id} in note {self.note_id}"


class RollLog(models.Model):
    """One audience's append-only log of a campaign's rolls, a Merkle tree with RFC 9162's hashing
    (campaigns/table/rolllog.py, docs/fair-dice.md "The roll log"): ``table`` (what every member sees:
    open rolls, a sealed roll as a commitment, a shared one's opening), ``gm`` (every roll, the
    GM's), ``scope:<label>`` (a dice scope's: its participants' and the GM's). One tree per
    audience, so no reader's tree counts a roll the reader may not know of. ``frontier``: the hex
    roots of the perfect subtrees along the right edge (merkle.push), so an append reads nothing
    of the tree."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roll_logs")
    audience = models.CharField(max_length=60)
    size = models.PositiveIntegerField(default=0)
    frontier = ReadSafeJSONField(default=list, blank=True)
    # rolls made before (a campaign older than the log) are in no log: the checkers know it
    started_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "audience"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "audience"], name="one_roll_log_per_audience")
        ]

    def __str__(self) -> str:
        return f"{self.audience} roll log of {self.campaign_id}"


class LogLeaf(models.Model):
    """A leaf of a roll log: ``data`` is the leaf's content (canonical JSON is hashed: a roll's
    record, a sealed roll's commitment, or a shared roll's opening), ``hash`` its RFC 9162 leaf
    hash. ``salt``: the opening of a sealed roll's commitment, the GM's until the roll is shared."""

    log = models.ForeignKey(RollLog, on_delete=models.CASCADE, related_name="leaves")
    index = models.PositiveIntegerField()
    roll_id = models.BigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=10)
    data = ReadSafeJSONField(default=dict)
    hash = models.CharField(max_length=64)
    salt = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["log", "index"]
        constraints = [models.UniqueConstraint(fields=["log", "index"], name="one_leaf_per_log_index")]
        indexes = [models.Index(fields=["log", "roll_id"], name="log_leaf_of_roll")]

    def __str__(self) -> str:
        return f"leaf {self.index} of {self.log_id}"


class LogNode(models.Model):
    """The hash of a perfect subtree of a roll log above its leaves: the 2**level leaves from
    index * 2**level (merkle.push makes them as the leaves come); proofs are read off them."""

    log = models.ForeignKey(RollLog, on_delete=models.CASCADE, related_name="nodes")
    level = models.PositiveSmallIntegerField()
    index = models.PositiveIntegerField()
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["log", "level", "index"], name="one_node_per_log_place")
        ]

    def __str__(self) -> str:
        return f"node {self.level}/{self.index} of {self.log_id}"


class TreeHead(models.Model):
    """A roll log's signed tree head: its size and root at ``timestamp`` (ms since the epoch),
    signed with the server's Ed25519 key (settings.DICE_LOG_KEY). Made when first asked for at a
    size (rolllog.head): one head per batch of rolls, never one the log has not reached."""

    log = models.ForeignKey(RollLog, on_delete=models.CASCADE, related_name="heads")
    size = models.PositiveIntegerField()
    root = models.CharField(max_length=64)
    timestamp = models.BigIntegerField()
    signature = models.CharField(max_length=128)

    class Meta:
        ordering = ["log", "size"]
        constraints = [models.UniqueConstraint(fields=["log", "size"], name="one_tree_head_per_size")]

    def __str__(self) -> str:
        return f"head {self.size} of {self.log_id}"


class SearchEntry(models.Model):
    """One searchable text of a campaign's record, for one audience (campaigns/chronicle/search.py, issue 50):
    ``table`` holds what every member who may see the record reads (a note's title and body, an
    NPC's name and public description), ``gm`` what only the GM reads of it (an NPC's GM notes).
    Written by database triggers on the records' own tables (installed by migration 0020 for the
    database in use), so every way a record is written keeps it in step; read through SQLite's
    FTS5 table ``campaigns_searchentry_fts`` or, on PostgreSQL, a stored generated ``tsvector``
    column ``document`` with its GIN index (migration 0022; not a field of this model, so Django's
    INSERTs never name it; a change of ``text``'s type would first have to drop it). A search never
    answers from these rows alone: each kind's matches are read back through the record's own
    visibility queryset."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    object_id = models.BigIntegerField()
    audience = models.CharField(max_length=10)
    text = models.TextField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "object_id", "audience"], name="one_search_entry_per_record_and_audience"
            )
        ]
        indexes = [models.Index(fields=["campaign", "kind", "audience"], name="search_entries_of_a_kind")]
        verbose_name_plural = "search entries"

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} ({self.audience})"
