"""API v1 for play sessions and their notes (issue 50). Thin views over campaigns.chronicle.play_sessions
and campaigns.chronicle.notes; access through campaigns.access (a non-member gets 404).

- ``/api/v1/campaigns/{c}/play_sessions/``: every member lists and reads the sessions (by number);
  the GM starts one (POST), changes it (PATCH) and ends it (``end/``: GET lists what ending may
  also do, POST ends it and does the choices named). ``record/`` is what the session's page
  gathers, for the asking member: what happened, and the rolls as the roll log shows them.
- ``/api/v1/campaigns/{c}/notes/``: the notes the asking member may read (``?play_session=<n>``);
  the GM and players write them; a note is changed and deleted by its author. Each note comes with
  its HTML as the asking member reads it (mentions resolved for them).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from campaigns.access import get_campaign_for_user, require
from campaigns.chronicle import notes, play_sessions
from campaigns.models import Membership, Note, NoteVisibility, PlaySession
from campaigns.table.api_rolls import ROLL_COLUMNS, RollSerializer, roll_representation

#: The visibilities of notes as (value, label) pairs, named in the API schema by ENUM_NAME_OVERRIDES.
NOTE_VISIBILITY_CHOICES = NoteVisibility.choices


def _as_drf(error: DjangoValidationError) -> serializers.ValidationError:
    return serializers.ValidationError(getattr(error, "message_dict", {"non_field_errors": error.messages}))


# --- serializers ---------------------------------------------------------------------------------
class PlaySessionSerializer(serializers.ModelSerializer):
    attendees = serializers.SerializerMethodField()
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = PlaySession
        fields = ["number", "title", "date", "attendees", "started_at", "ended_at", "is_open"]
        read_only_fields = fields

    def get_attendees(self, session) -> list[str]:
        return sorted(user.username for user in session.attendees.all())


class PlaySessionWriteSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=200, required=False, allow_blank=True)
    date = serializers.DateField(required=False)
    attendees = serializers.ListField(
        child=serializers.CharField(max_length=150),
        required=False,
        max_length=200,
        help_text="Usernames of the campaign's members who were there.",
    )


class PlaySessionEndSerializer(serializers.Serializer):
    choices = serializers.ListField(
        child=serializers.CharField(max_length=60),
        required=False,
        default=list,
        max_length=20,
        help_text="Keys of the end choices to do as well (GET end/ lists them).",
    )


class PlaySessionEndChoiceSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    help = serializers.CharField()
    action = serializers.BooleanField(help_text="True: done when named; false: a page to go on to (url).")
    url = serializers.CharField()


class PlaySessionHappeningSerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    kind = serializers.CharField()
    text = serializers.CharField()
    url = serializers.CharField()


class NoteSerializer(serializers.ModelSerializer):
    play_session = serializers.IntegerField(source="play_session.number", read_only=True)
    author = serializers.CharField(source="author.username", read_only=True, default=None)
    html = serializers.SerializerMethodField()

    class Meta:
        model = Note
        fields = [
            "id",
            "play_session",
            "author",
            "visibility",
            "title",
            "body",
            "html",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_html(self, note) -> str:
        return self.context.get("html", {}).get(note.pk, "")


class NoteWriteSerializer(serializers.Serializer):
    play_session = serializers.IntegerField(min_value=1, required=False, help_text="The session's number.")
    visibility = serializers.ChoiceField(choices=NOTE_VISIBILITY_CHOICES, required=False)
    title = serializers.CharField(max_length=200, required=False, allow_blank=True)
    body = serializers.CharField(max_length=20000, required=False)


# --- views ---------------------------------------------------------------------------------------
def _session(campaign, number) -> PlaySession:
    session = play_sessions.by_number(campaign, number)
    if session is None:
        raise Http404("No such play session.")
    return session


def _attendee_ids(campaign, usernames) -> list[int] | None:
    if usernames is None:
        return None
    members = dict(campaign.memberships.values_list("user__username", "user_id"))
    unknown = sorted(set(usernames) - set(members))
    if unknown:
        raise serializers.ValidationError(
            {"attendees": [f"Not members of this campaign: {', '.join(unknown)}."]}
        )
    return [members[name] for name in usernames]


class PlaySessionViewSet(viewsets.ViewSet):
    lookup_field = "number"
    # As long as every id in the API's URLs (18 digits), so a signed-out caller gets the 401 of
    # every other route for a long number, not a 404 from the URL conf.
    lookup_value_regex = r"[0-9]{1,18}"

    def _campaign(self, request, campaign_pk, need="member"):
        campaign, membership = get_campaign_for_user(request.user, campaign_pk, need=need)
        membership.user = request.user
        return campaign, membership

    @extend_schema(responses=PlaySessionSerializer(many=True))
    def list(self, request, campaign_pk=None):
        campaign, _ = self._campaign(request, campaign_pk)
        sessions = campaign.play_sessions.prefetch_related("attendees").order_by("-number")
        return Response(PlaySessionSerializer(sessions, many=True).data)

    @extend_schema(request=PlaySessionWriteSerializer, responses={201: PlaySessionSerializer})
    def create(self, request, campaign_pk=None):
        """Start the campaign's next play session (the GM). Without ``attendees``: the players and you."""
        campaign, membership = self._campaign(request, campaign_pk, need="gm")
        body = PlaySessionWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            session = play_sessions.start(
                membership,
                title=data.get("title", ""),
                date=data.get("date"),
                attendees=_attendee_ids(campaign, data.get("attendees")),
            )
        except DjangoValidationError as error:
            raise _as_drf(error) from None
        return Response(PlaySessionSerializer(session).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=PlaySessionSerializer)
    def retrieve(self, request, campaign_pk=None, number=None):
        campaign, _ = self._campaign(request, campaign_pk)
        return Response(PlaySessionSerializer(_session(campaign, number)).data)

    @extend_schema(request=PlaySessionWriteSerializer, responses=PlaySessionSerializer)
    def partial_update(self, request, campaign_pk=None, number=None):
        campaign, membership = self._campaign(request, campaign_pk, need="gm")
        session = _session(campaign, number)
        body = PlaySessionWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        try:
            play_sessions.update(
                membership,
                session,
                title=data.get("title"),
                date=data.get("date"),
                attendees=_attendee_ids(campaign, data.get("attendees")),
            )
        except DjangoValidationError as error:
            raise _as_drf(error) from None
        return Response(PlaySessionSerializer(_session(campaign, number)).data)

    @extend_schema(
        methods=["GET"], request=None, responses=PlaySessionEndChoiceSerializer(many=True),
        description="What ending the session may also do, each a separate choice (the GM).",
    )  # fmt: skip
    @extend_schema(
        methods=["POST"],
        request=PlaySessionEndSerializer,
        responses=inline_serializer(
            "PlaySessionEnded",
            {
                "play_session": PlaySessionSerializer(),
                "done": serializers.ListField(child=serializers.CharField()),
            },
        ),
        description="End the session (the GM), then do each choice named, each on its own.",
    )
    @action(detail=True, methods=["get", "post"])
    def end(self, request, campaign_pk=None, number=None):
        campaign, membership = self._campaign(request, campaign_pk, need="gm")
        session = _session(campaign, number)
        if request.method == "GET":
            return Response(
                [
                    {
                        "key": c.key,
                        "label": c.label,
                        "help": c.help,
                        "action": c.run is not None,
                        "url": c.url,
                    }
                    for c in play_sessions.end_choices(session, membership)
                ]
            )
        body = PlaySessionEndSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            done = play_sessions.end(membership, session, body.validated_data["choices"])
        except DjangoValidationError as error:
            raise _as_drf(error) from None
        return Response(
            {"play_session": PlaySessionSerializer(_session(campaign, number)).data, "done": done}
        )

    @extend_schema(
        request=None,
        responses=inline_serializer(
            "PlaySessionRecord",
            {
                "happenings": PlaySessionHappeningSerializer(many=True),
                "rolls": RollSerializer(many=True),
                "more_rolls": serializers.BooleanField(),
            },
        ),
    )
    @action(detail=True, methods=["get"])
    def record(self, request, campaign_pk=None, number=None):
        """What happened during the session, as the asking member may see it: the ledger, missions,
        prints and the system's play records, and the rolls as the roll log shows them."""
        campaign, membership = self._campaign(request, campaign_pk)
        session = _session(campaign, number)
        happenings = play_sessions.happenings(session, request.user, membership)
        rows = list(
            play_sessions.rolls(session, request.user, membership).values(*ROLL_COLUMNS)[
                : play_sessions.MAX_ROLLS + 1
            ]
        )
        return Response(
            {
                "happenings": [
                    {"at": h.at, "kind": h.kind, "text": h.text, "url": h.url} for h in happenings
                ],
                "rolls": [
                    roll_representation(row, membership.is_gm) for row in rows[: play_sessions.MAX_ROLLS]
                ],
                "more_rolls": len(rows) > play_sessions.MAX_ROLLS,
            }
        )


class NoteViewSet(viewsets.ViewSet):
    lookup_value_regex = r"[0-9]{1,18}"

    def _readable(self, request, campaign_pk) -> tuple[object, Membership, object]:
        campaign, membership = get_campaign_for_user(request.user, campaign_pk)
        membership.user = request.user
        qs = (
            Note.objects.visible_to(request.user, membership)
            .select_related("play_session", "author")
            .order_by("play_session__number", "created_at", "id")
        )
        return campaign, membership, qs

    def _note(self, qs, pk) -> Note:
        note = qs.filter(pk=pk).first()
        if note is None:
            raise Http404("No such note.")
        return note

    def _out(self, found, campaign, request, membership, many=False):
        items = list(found) if many else [found]
        html = {note.pk: text for note, text in notes.render_for(items, campaign, request.user, membership)}
        return NoteSerializer(found, many=many, context={"html": html}).data

    @extend_schema(
        parameters=[
            OpenApiParameter("play_session", int, description="Only this session's notes (its number).")
        ],
        responses=NoteSerializer(many=True),
    )
    def list(self, request, campaign_pk=None):
        campaign, membership, qs = self._readable(request, campaign_pk)
        number = request.query_params.get("play_session")
        if number is not None:
            if not number.isdigit() or len(number) > 9:
                raise serializers.ValidationError({"play_session": ["A session's number."]})
            qs = qs.filter(play_session__number=int(number))
        return Response(self._out(qs[:500], campaign, request, membership, many=True))

    @extend_schema(request=NoteWriteSerializer, responses={201: NoteSerializer})
    def create(self, request, campaign_pk=None):
        campaign, membership, _ = self._readable(request, campaign_pk)
        require(membership, "player")
        body = NoteWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        missing = [name for name in ("play_session", "body") if name not in data]
        if missing:
            raise serializers.ValidationError({name: ["This field is required."] for name in missing})
        note = Note(
            campaign=campaign,
            play_session=_session(campaign, data["play_session"]),
            author=request.user,
            title=data.get("title", ""),
            body=data["body"],
            visibility=self._visibility(membership, data.get("visibility")),
        )
        try:
            notes.save_note(note)
        except DjangoValidationError as error:
            raise _as_drf(error) from None
        return Response(self._out(note, campaign, request, membership), status=status.HTTP_201_CREATED)

    def _visibility(self, membership, wanted) -> str:
        allowed = [value for value, _ in notes.allowed_visibilities(membership)]
        if wanted is None:
            return allowed[0]
        if wanted not in allowed:
            raise serializers.ValidationError(
                {"visibility": [f"You may mark a note {' or '.join(allowed)}."]}
            )
        return wanted

    @extend_schema(responses=NoteSerializer)
    def retrieve(self, request, campaign_pk=None, pk=None):
        campaign, membership, qs = self._readable(request, campaign_pk)
        return Response(self._out(self._note(qs, pk), campaign, request, membership))

    def _own(self, request, campaign_pk, pk):
        campaign, membership, qs = self._readable(request, campaign_pk)
        note = self._note(qs, pk)
        require(membership, "player")
        if not notes.may_edit(note, request.user):
            raise PermissionDenied("A note is changed by the member who wrote it.")
        return campaign, membership, note

    @extend_schema(request=NoteWriteSerializer, responses=NoteSerializer)
    def partial_update(self, request, campaign_pk=None, pk=None):
        campaign, membership, note = self._own(request, campaign_pk, pk)
        body = NoteWriteSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if "play_session" in data:
            note.play_session = _session(campaign, data["play_session"])
        for name in ("title", "body"):
            if name in data:
                setattr(note, name, data[name])
        if "visibility" in data:
            note.visibility = self._visibility(membership, data["visibility"])
        try:
            notes.save_note(note)
        except DjangoValidationError as error:
            raise _as_drf(error) from None
        return Response(self._out(note, campaign, request, membership))

    @extend_schema(responses={204: None})
    def destroy(self, request, campaign_pk=None, pk=None):
        _, _, note = self._own(request, campaign_pk, pk)
        notes.delete_note(note)
        return Response(status=status.HTTP_204_NO_CONTENT)
