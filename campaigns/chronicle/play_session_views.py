"""Pages of play sessions and their notes (issue 50). Thin: campaigns/chronicle/play_sessions.py and
campaigns/chronicle/notes.py do the work; access through campaigns.access (a non-member gets 404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns.access import get_campaign_for_user, require
from campaigns.chronicle import notes, play_sessions
from campaigns.forms import NoteForm, PlaySessionForm
from campaigns.models import Note, NoteVisibility, PlaySession
from kernel import keyset


def _session(campaign, number) -> PlaySession:
    session = play_sessions.by_number(campaign, number)
    if session is None:
        raise Http404("No such play session.")
    return session


def _note(campaign, user, membership, note_pk) -> Note:
    """A note this member may read (404 otherwise, as for an id nobody holds)."""
    note = Note.objects.visible_to(user, membership).select_related("play_session").filter(pk=note_pk).first()
    if note is None:
        raise Http404("No such note.")
    return note


def _errors(request, error: ValidationError) -> None:
    for problems in getattr(error, "message_dict", {"": error.messages}).values():
        for problem in problems:
            messages.error(request, problem)


def _members(campaign):
    return list(campaign.memberships.select_related("user").order_by("role", "user__username"))


@login_required
@require_GET
def play_session_list(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    sessions = list(campaign.play_sessions.prefetch_related("attendees").order_by("-number"))
    context = {
        "campaign": campaign,
        "membership": membership,
        "sessions": sessions,
        "open_session": next((s for s in sessions if s.is_open), None),
    }
    if membership.is_gm:
        members = _members(campaign)
        context["start_form"] = PlaySessionForm(
            members=members,
            initial={
                "date": timezone.localdate(),
                "attendees": [str(m.user_id) for m in members if m.role != "observer"],
            },
        )
    return render(request, "campaigns/play_sessions.html", context)


@login_required
@require_POST
def play_session_start(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
    membership.user = request.user
    form = PlaySessionForm(request.POST, members=_members(campaign))
    if not form.is_valid():
        for field, problems in form.errors.items():
            for problem in problems:
                messages.error(
                    request, f"{form.fields[field].label if field in form.fields else ''}: {problem}"
                )
        return redirect("play-session-list", campaign.pk)
    data = form.cleaned_data
    try:
        session = play_sessions.start(
            membership, title=data["title"], date=data["date"], attendees=[int(u) for u in data["attendees"]]
        )
    except ValidationError as error:
        _errors(request, error)
        return redirect("play-session-list", campaign.pk)
    messages.success(request, f"Session {session.number} started.")
    return redirect("play-session-detail", campaign.pk, session.number)


@login_required
@require_GET
def play_session_detail(request, pk, number):
    campaign, membership = get_campaign_for_user(request.user, pk)
    session = _session(campaign, number)
    readable = (
        Note.objects.visible_to(request.user, membership)
        .filter(play_session=session)
        .select_related("author")
        .order_by("created_at", "id")
    )
    after = keyset.position(request.GET, "rolls_after")
    rolls, more_rolls = play_sessions.rolls_page(session, request.user, membership, after)
    context = {
        "campaign": campaign,
        "membership": membership,
        "session": session,
        "attendees": play_sessions.attendee_names(session),
        "notes": notes.render_for(list(readable), campaign, request.user, membership),
        "happenings": play_sessions.happenings(session, request.user, membership),
        "rolls": rolls,
        "more_rolls": more_rolls,
        "rolls_after": after,
        "next_after": rolls[-1].pk if more_rolls else None,
        "may_write": notes.may_write(membership),
        "note_form": NoteForm(visibilities=notes.allowed_visibilities(membership)),
        "live_topics": f"{play_sessions.TOPIC} {notes.topic_of_notes(session.number)}",
    }
    return render(request, "campaigns/play_session.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def play_session_edit(request, pk, number):
    campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
    membership.user = request.user
    session = _session(campaign, number)
    members = _members(campaign)
    initial = {
        "title": session.title,
        "date": session.date,
        "attendees": [str(u.pk) for u in session.attendees.all()],
    }
    form = PlaySessionForm(request.POST or None, members=members, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        play_sessions.update(
            membership,
            session,
            title=data["title"],
            date=data["date"],
            attendees=[int(u) for u in data["attendees"]],
        )
        messages.success(request, f"Session {session.number} saved.")
        return redirect("play-session-detail", campaign.pk, session.number)
    status = 400 if request.method == "POST" else 200
    context = {"campaign": campaign, "membership": membership, "session": session, "form": form}
    return render(request, "campaigns/play_session_edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def play_session_end(request, pk, number):
    """The GM ends the session; what else ending may do is offered as separate choices."""
    campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
    membership.user = request.user
    session = _session(campaign, number)
    if not session.is_open:
        messages.info(request, f"Session {session.number} has already ended.")
        return redirect("play-session-detail", campaign.pk, session.number)
    choices = play_sessions.end_choices(session, membership)
    if request.method == "POST":
        try:
            done = play_sessions.end(membership, session, request.POST.getlist("choice"))
        except ValidationError as error:
            _errors(request, error)
        else:
            for sentence in done:
                messages.success(request, sentence)
            return redirect("play-session-detail", campaign.pk, session.number)
    context = {
        "campaign": campaign,
        "membership": membership,
        "session": session,
        # ticked, done as the session ends; the others are pages of their own (an award form),
        # listed apart: following one does not end the session (stop 57's walk)
        "actions": [choice for choice in choices if choice.is_action],
        "pages": [choice for choice in choices if not choice.is_action],
    }
    return render(request, "campaigns/play_session_end.html", context)


@login_required
@require_POST
def note_add(request, pk, number):
    campaign, membership = get_campaign_for_user(request.user, pk, need="player")
    session = _session(campaign, number)
    form = NoteForm(request.POST, visibilities=notes.allowed_visibilities(membership))
    if form.is_valid():
        note = Note(campaign=campaign, play_session=session, author=request.user, **form.cleaned_data)
        try:
            notes.save_note(note)
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(request, "Note saved.")
            _tell_unmatched(request, note, membership)
            return redirect(f"{_detail_url(campaign, session)}#note-{note.pk}")
    else:
        for field, problems in form.errors.items():
            for problem in problems:
                messages.error(
                    request, f"{form.fields[field].label if field in form.fields else ''}: {problem}"
                )
    return redirect("play-session-detail", campaign.pk, session.number)


def _tell_unmatched(request, note, membership) -> None:
    """Say which of a saved note's mentions name nothing the writer may see (notes.unmatched)."""
    names = notes.unmatched(note.body, note.campaign, request.user, membership)
    if names:
        listed = ", ".join(f"[[{name}]]" for name in names[:10]) + (" …" if len(names) > 10 else "")
        messages.warning(
            request,
            f"{listed}: no character, NPC or mission you can see has "
            f"{'this name' if len(names) == 1 else 'these names'}, so "
            f"{'it shows' if len(names) == 1 else 'they show'} as plain words. "
            "Check the spelling, or edit the note once the record exists.",
        )


def _detail_url(campaign, session) -> str:
    from django.urls import reverse

    return reverse("play-session-detail", args=[campaign.pk, session.number])


@login_required
@require_http_methods(["GET", "POST"])
def note_edit(request, pk, note_pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    note = _note(campaign, request.user, membership, note_pk)
    require(membership, "player")
    if not notes.may_edit(note, request.user):
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied("A note is changed by the member who wrote it.")
    visibilities = notes.allowed_visibilities(membership)
    initial = {"title": note.title, "body": note.body, "visibility": note.visibility}
    form = NoteForm(request.POST or None, visibilities=visibilities, initial=initial)
    if request.method == "POST" and form.is_valid():
        for name, value in form.cleaned_data.items():
            setattr(note, name, value)
        notes.save_note(note)
        messages.success(request, "Note saved.")
        _tell_unmatched(request, note, membership)
        return redirect(f"{_detail_url(campaign, note.play_session)}#note-{note.pk}")
    status = 400 if request.method == "POST" else 200
    context = {"campaign": campaign, "membership": membership, "note": note, "form": form}
    return render(request, "campaigns/note_edit.html", context, status=status)


@login_required
@require_POST
def note_delete(request, pk, note_pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    note = _note(campaign, request.user, membership, note_pk)
    require(membership, "player")
    if not notes.may_edit(note, request.user):
        from django.core.exceptions import PermissionDenied

        raise PermissionDenied("A note is deleted by the member who wrote it.")
    session = note.play_session
    notes.delete_note(note)
    messages.success(request, "Note deleted.")
    return redirect("play-session-detail", campaign.pk, session.number)


#: Shown next to a note's visibility on the page.
VISIBILITY_WORDS = dict(NoteVisibility.choices)
