"""Web pages: accounts, campaigns, members and invitations, the dice roller and its log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from campaigns import pending, services
from campaigns.access import get_campaign_for_user, require
from campaigns.demo import demo_logins
from campaigns.forms import (
    PLATFORM_FIELDS,
    CampaignForm,
    InvitationForm,
    RoleForm,
    RollForm,
    SignupForm,
    platform_initial,
    settings_form_class,
)
from campaigns.models import Invitation, Membership, Role, Roll
from campaigns.paper import paper_for_request
from campaigns.table import fairness, live, rolling
from characters import display_names, registry
from characters.models import Character
from characters.systems import get_system
from kernel.abuse import SignupThrottle, throttle_web_post
from kernel.confirm import confirm_first
from kernel.keyset import keyset_page

ROLL_LOG_SIZE = 50
LATEST_ROLLS = 8  # on the campaign page


def _errors_of(error: ValidationError) -> list[str]:
    return display_names.error_messages(error)


# --- accounts -------------------------------------------------------------------------------------
def safe_next(request) -> str | None:
    """The ``next`` the request asks to go to after the form, if it stays on this site (Django's
    url_has_allowed_host_and_scheme: no other host, no javascript: or other scheme), else None."""
    target = request.POST.get("next") or request.GET.get("next")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else None


@require_http_methods(["GET", "POST"])
@throttle_web_post(SignupThrottle, "created accounts")
def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.username}.")
            return redirect(safe_next(request) or "campaign-list")
        return render(request, "registration/signup.html", {"form": form}, status=400)
    return render(request, "registration/signup.html", {"form": form})


class LoginView(auth_views.LoginView):
    """Django's login page, plus the demo accounts while the site runs in demo mode."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "demo_logins": demo_logins()}


def favicon(request):
    """Browsers ask for /favicon.ico whatever the page says: send them to the static file."""
    return redirect(static("favicon.ico"))


def home(request):
    return redirect("campaign-list" if request.user.is_authenticated else "login")


# --- campaigns ------------------------------------------------------------------------------------
CAMPAIGNS_PER_PAGE = 50
ROLE_LABELS = dict(Role.choices)


@login_required
def campaign_list(request):
    # A page at a time, newest membership first, by position: a player of many years is in
    # hundreds of campaigns, and the (user, id) index of memberships holds this order, so a page
    # reads 51 memberships and their campaigns, with no sort and no count, at any length or depth.
    memberships = Membership.objects.filter(user=request.user).select_related("campaign")
    page = keyset_page(memberships, request.GET, CAMPAIGNS_PER_PAGE)
    campaigns = []
    for membership in page:
        campaign = membership.campaign
        # The label here: the template asking for a get_my_role_display the model lacks cost a
        # failed attribute lookup per card.
        campaign.my_role_label = ROLE_LABELS.get(membership.role, membership.role)
        campaigns.append(campaign)
    return render(request, "campaigns/list.html", {"campaigns": campaigns, "page": page})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request):
    form = CampaignForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            system, module = form.system_and_module()
            try:
                campaign = services.create_campaign(
                    request.user,
                    name=form.cleaned_data["name"],
                    system=system,
                    module=module,
                    description=form.cleaned_data["description"],
                    paper=paper_for_request(request),  # from the browser's region (campaigns/paper.py)
                )
            except ValidationError as error:
                for message in _errors_of(error):
                    form.add_error(None, message)
            else:
                messages.success(
                    request,
                    f"Campaign “{campaign.name}” created. You are its game master. Its sheets print on "
                    f"{campaign.get_paper_display()} paper; change that in its settings.",
                )
                return redirect("campaign-detail", campaign.pk)
        return render(request, "campaigns/create.html", {"form": form}, status=400)
    return render(request, "campaigns/create.html", {"form": form})


@login_required
def campaign_detail(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    system = get_system(campaign.system)
    system_app = registry.get(campaign.system)
    settings_rows = [
        {
            "label": spec.label,
            "value": display_names.setting_value(
                campaign.system, spec, campaign.settings.get(spec.name, spec.default)
            ),
            # The GM reads the full note (with where the rules leave it open); a player one plain line.
            "help": display_names.setting_help(campaign.system, spec)
            if membership.is_gm
            else (spec.meaning or display_names.setting_help(campaign.system, spec)),
        }
        for spec in system.settings
    ]
    # Only what the page shows: a character's build document is the bulk of its row.
    characters = (
        Character.objects.visible_to(request.user)
        .filter(campaign=campaign)
        .select_related("owner")
        .only("id", "name", "status", "owner_id", "owner__username")
    )
    characters = list(characters)
    # The system's play records under way (characters.registry: the platform names no system).
    play = system_app.records_in_progress(campaign, request.user, membership) if system_app else []
    waiting = pending.for_user(request.user, campaign, membership, characters)
    waiting += [
        pending.Pending(f"{record.turn}: {record.title}", record.url) for record in play if record.yours
    ]
    missions = list(campaign.missions.all()[:20])
    context = {
        "campaign": campaign,
        "membership": membership,
        "pending": waiting,
        "play": play,
        # a system whose play is its own records shows no empty Missions box
        "show_missions": bool(missions) or not (system_app and system_app.play_in_progress),
        "members": campaign.memberships.select_related("user").only(
            "id", "campaign", "role", "user__username"
        ),
        "settings_rows": settings_rows,
        "missions": missions,
        "characters": characters,
        # The system's builder, if its app registered one (characters.registry).
        "builder_label": system_app.new_label if system_app and system_app.wizard else "",
        # The table's latest rolls, as the dice page's log shows them; the live feed adds new ones.
        "rolls": _roll_log(request, membership)[:LATEST_ROLLS],
        # "Previously on…" (issue 50): the last ended session's recap, as this reader may read it
        "recap": _recap(campaign, request.user, membership),
    }
    return render(request, "campaigns/detail.html", context)


def _recap(campaign, user, membership):
    from campaigns.chronicle import recap

    session = recap.last_ended(campaign)
    return recap.recap(session, user, membership) if session is not None else None


@login_required
@require_http_methods(["GET", "POST"])
def campaign_settings(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk, need="gm")
    system = get_system(campaign.system)
    Form = settings_form_class(system.settings, campaign.system, with_paper=True)
    # An empty POST is a bound form too (every field missing), not the page shown again.
    initial = {**campaign.settings, **platform_initial(campaign)}
    form = Form(request.POST if request.method == "POST" else None, initial=initial)
    if request.method == "POST":
        if form.is_valid():
            values = dict(form.cleaned_data)
            own = {column: values.pop(field) for field, column in PLATFORM_FIELDS.items()}
            try:
                with transaction.atomic():
                    services.update_campaign_settings(campaign, values)
                    changed = [column for column, value in own.items() if getattr(campaign, column) != value]
                    for column in changed:
                        setattr(campaign, column, own[column])
                    if changed:
                        campaign.save(update_fields=changed)
            except ValidationError as error:
                for message in _errors_of(error):
                    form.add_error(None, message)
            else:
                messages.success(request, "Settings saved.")
                return redirect("campaign-detail", campaign.pk)
        _show_saved_choices(form, initial)
        return campaign_settings_page(request, campaign, form=form, status=400)
    return campaign_settings_page(request, campaign, form=form)


def _show_saved_choices(form, initial) -> None:
    """A refused choice that is not on its list (an edited form) would show the list's first entry,
    as if chosen, and a second save would keep it (stop 57's walk: a time zone refused showed
    Africa/Abidjan): the saved value is shown instead, beside the error naming what was sent."""
    from django import forms as django_forms

    data = form.data.copy()
    for name, field in form.fields.items():
        if isinstance(field, django_forms.ChoiceField) and name in form.errors and name in initial:
            data[name] = initial[name]
    form.data = data


def campaign_settings_page(request, campaign, *, form=None, status=200):
    """The settings page: the system's settings and the chat webhooks (campaigns/table/fair_views.py); after
    a refused webhook add, its form as posted, with its errors (kept once in the session)."""
    from campaigns.table.fair_views import kept_refused_form, webhook_card

    webhook_form = kept_refused_form(request, campaign)

    if form is None:  # the settings form as campaign_settings shows it, the group's paper included
        form = settings_form_class(get_system(campaign.system).settings, campaign.system, with_paper=True)(
            initial={**campaign.settings, **platform_initial(campaign)}
        )
    context = {"campaign": campaign, "form": form, **webhook_card(campaign, webhook_form)}
    return render(request, "campaigns/settings.html", context, status=status)


# --- members and invitations ----------------------------------------------------------------------
@login_required
def campaign_members(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    context = {
        "campaign": campaign,
        "membership": membership,
        "members": campaign.memberships.select_related("user"),
        "invitations": campaign.invitations.all() if membership.is_gm else [],
        "invitation_form": InvitationForm(),
        "role_choices": RoleForm.base_fields["role"].choices,
    }
    return render(request, "campaigns/members.html", context)


@login_required
@require_POST
def invitation_create(request, pk):
    campaign, _ = get_campaign_for_user(request.user, pk, need="gm")
    form = InvitationForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(request, f"{form.fields[field].label}: {' '.join(errors)}")
        return redirect("campaign-members", campaign.pk)
    invitation = services.create_invitation(
        campaign, request.user, days=form.cleaned_data["days"], max_uses=form.cleaned_data["max_uses"]
    )
    link = request.build_absolute_uri(reverse("join", args=[invitation.code]))
    messages.success(request, f"Invitation created. Share this link: {link}")
    return redirect("campaign-members", campaign.pk)


@login_required
@require_POST
def invitation_revoke(request, pk, invitation_pk):
    campaign, _ = get_campaign_for_user(request.user, pk, need="gm")
    services.revoke_invitation(get_object_or_404(Invitation, campaign=campaign, pk=invitation_pk))
    messages.success(request, "Invitation revoked: its link no longer works.")
    return redirect("campaign-members", campaign.pk)


@login_required
@require_POST
def member_role(request, pk, member_pk):
    campaign, _ = get_campaign_for_user(request.user, pk, need="gm")
    member = get_object_or_404(Membership, campaign=campaign, pk=member_pk)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a role: game master, player or observer.")
        return redirect("campaign-members", campaign.pk)
    try:
        services.change_role(campaign, member.pk, form.cleaned_data["role"])
        messages.success(request, f"{member.user.username} is now {form.cleaned_data['role']}.")
    except ValidationError as error:
        for message in _errors_of(error):
            messages.error(request, message)
    return redirect("campaign-members", campaign.pk)


@login_required
@require_POST
def member_remove(request, pk, member_pk):
    campaign, _ = get_campaign_for_user(request.user, pk, need="gm")
    member = get_object_or_404(Membership, campaign=campaign, pk=member_pk)
    ask = confirm_first(
        request,
        question=f"Remove {member.user.username} from {campaign.name}?",
        detail="They lose access to the campaign at once; an invitation can bring them back.",
        button=f"Remove {member.user.username}",
        cancel=reverse("campaign-members", args=[campaign.pk]),
    )
    if ask:
        return ask
    try:
        services.remove_member(campaign, member.pk)
        messages.success(request, f"{member.user.username} was removed from the campaign.")
    except ValidationError as error:
        for message in _errors_of(error):
            messages.error(request, message)
    return redirect("campaign-members", campaign.pk)


@require_http_methods(["GET", "POST"])
def join(request, code):
    invitation = Invitation.objects.select_related("campaign").filter(code=code[:40]).first()
    member = (
        invitation is not None
        and request.user.is_authenticated
        and Membership.objects.filter(campaign=invitation.campaign, user=request.user).exists()
    )
    if invitation is None or (invitation.problem() and not member):
        # Revoked, expired or used up: the same answer as an unknown code, naming no campaign.
        return render(request, "campaigns/join.html", {"problem": services.INVALID_INVITATION}, status=404)
    if not request.user.is_authenticated:
        return render(request, "campaigns/join.html", {"invitation": invitation, "need_login": True})
    if request.method == "POST":
        try:
            membership = services.accept_invitation(request.user, code)
        except ValidationError as error:
            problem = " ".join(_errors_of(error)).removeprefix("code: ")
            return render(request, "campaigns/join.html", {"problem": problem}, status=404)
        messages.success(request, f"You joined “{membership.campaign.name}” as {membership.role}.")
        return redirect("campaign-detail", membership.campaign_id)
    return render(request, "campaigns/join.html", {"invitation": invitation, "already": member})


# --- dice ------------------------------------------------------------------------------------------
def _roll_form(campaign, membership, request, data=None):
    characters = Character.objects.visible_to(request.user).filter(campaign=campaign).only("id", "name")
    if not membership.is_gm:  # a player attaches rolls to their own characters (rolling.record_roll)
        characters = characters.filter(owner=request.user)
    return RollForm(
        data,
        missions=campaign.missions.only("id", "title", "campaign"),
        characters=characters,
        can_roll_secret=membership.is_gm,
    )


def _roll_log(request, membership):
    # Only what the log shows: a character's build and a closed mission's outcome are large JSON
    # documents that each row would otherwise load and decode.
    rolls = live.log_lines(request.user, membership)
    mission, character = request.GET.get("mission"), request.GET.get("character")
    if mission and mission.isdigit():
        rolls = rolls.filter(mission_id=int(mission))
    if character and character.isdigit():
        rolls = rolls.filter(character_id=int(character))
    return rolls[:ROLL_LOG_SIZE]


def dice_page(request, campaign, membership, *, form=None, status=200, **extra):
    """The dice page (or its panel, for htmx) with the roll form, the log and the panels the
    campaign's system adds (SystemApp.dice_panels); ``extra`` goes into the context, where a
    system's view puts its own bound form and result."""
    context = {
        "campaign": campaign,
        "membership": membership,
        "form": form if form is not None else _roll_form(campaign, membership, request),
        "rolls": _roll_log(request, membership),
        "missions": campaign.missions.only("id", "title", "campaign"),
        "fair_seed": fairness.current_seed(campaign),  # its commitment is shown before any roll under it
        # what became checkable, for the marker beside it (the full page only, not a panel swap)
        "fair_news": [] if request.htmx else fairness.checkable_news(campaign, request.user, membership),
        **extra,
    }
    app = registry.get(campaign.system)
    if app is not None:
        extras = app.dice_extras(request, campaign, membership, context)
        context.update(extras.context)
        context["dice_panel_templates"] = extras.templates
        context["dice_jumps"] = extras.jumps
    template = "campaigns/_dice_panel.html" if request.htmx else "campaigns/dice.html"
    return render(request, template, context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def dice(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    status = 200
    last_roll = None
    form = None
    if request.method == "POST":
        require(membership, "player")
        form = _roll_form(campaign, membership, request, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                last_roll = rolling.record_roll(
                    membership,
                    kind=data["kind"],
                    count=data["count"],
                    modifier=data["modifier"],
                    purpose=data["purpose"],
                    secret=data.get("secret", False),
                    mission=campaign.missions.filter(pk=data["mission"]).first() if data["mission"] else None,
                    character=Character.objects.visible_to(request.user)
                    .filter(campaign=campaign, pk=data["character"])
                    .first()
                    if data["character"]
                    else None,
                )
            except ValidationError as error:
                for field, problems in error.message_dict.items():
                    for problem in problems:
                        form.add_error(field if field in form.fields else None, problem)
                status = 400
            except PermissionDenied as error:
                form.add_error(None, str(error))
                status = 400
            else:
                form = None  # a fresh form after a roll
        else:
            status = 400
    return dice_page(request, campaign, membership, form=form, status=status, last_roll=last_roll)


@login_required
def dice_log(request, pk):
    campaign, membership = get_campaign_for_user(request.user, pk)
    return render(
        request,
        "campaigns/_roll_log.html",
        {
            "rolls": _roll_log(request, membership),
            "campaign": campaign,
            "membership": membership,
        },
    )


@login_required
@require_POST
def dice_reveal(request, pk, roll_pk):
    """Share a secret roll's result with the table (the GM only)."""
    campaign, membership = get_campaign_for_user(request.user, pk)
    require(membership, "gm")
    roll = get_object_or_404(Roll, campaign=campaign, pk=roll_pk)
    try:
        rolling.reveal_roll(membership, roll)
    except ValidationError as error:
        for problems in error.message_dict.values():
            for problem in problems:
                messages.error(request, problem)
    else:
        messages.success(request, "The roll's result is shared with the table.")
    return redirect("campaign-dice", campaign.pk)


# --- error pages ------------------------------------------------------------------------------------
def _error(request, status: int, title: str, message: str):
    if request.path.startswith("/api/"):
        import json

        body = json.dumps({"status": status, "detail": title, "errors": [{"field": "", "message": message}]})
        return HttpResponse(body, status=status, content_type="application/json")
    context = {"title": title, "message": message}
    if request.htmx:
        # A live panel asked: answer with the message alone, marked, so static/js/htmx-errors.js
        # shows it inside the panel instead of swapping a whole page into it.
        response = render(request, "_refusal.html", context, status=status)
        response["X-Dossier-Refusal"] = "1"
        return response
    return render(request, "error.html", context, status=status)


def bad_request(request, exception=None):
    # Our own refusals of a query (BadRequest: a page position, a filter) say what was wrong; the
    # rest Django raises (SuspiciousOperation and its kin) keep the general words.
    if type(exception) is BadRequest and str(exception):
        return _error(request, 400, "Bad request", str(exception))
    return _error(request, 400, "Bad request", "The request could not be understood.")


def forbidden(request, exception=None):
    message = str(exception) if exception and str(exception) else "You are not allowed to do that."
    return _error(request, 403, "Not allowed", message)


def not_found(request, exception=None):
    return _error(request, 404, "Not found", "There is nothing here, or you do not have access to it.")


def server_error(request):
    return _error(request, 500, "Something went wrong", "The error was logged. Please try again.")
