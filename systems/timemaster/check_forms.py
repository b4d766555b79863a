"""The check panel of the dice page (players and the GM): which agent, which score, and how the
engine reads the roll (systems/timemaster/action_checks.py does the rest)."""

from __future__ import annotations

from django import forms


class CheckForm(forms.Form):
    """A check in the dice roller: an agent, one of its scores, and how to read the roll.

    ``scores`` are the chosen agent's (systems.timemaster.action_checks.Score); the agent select
    reloads them."""

    character = forms.TypedChoiceField(label="Agent", coerce=int)
    score = forms.ChoiceField(label="Score")
    kind = forms.ChoiceField(
        label="Check",
        choices=[("general", "General (success or failure)"), ("specific", "Specific (Action Table)")],
        initial="general",
    )
    defense_column = forms.TypedChoiceField(
        label="Defense column (specific)",
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "Usual for the score")] + [(n, str(n)) for n in range(1, 11)],
    )
    results_key = forms.ChoiceField(label="Results key (specific)", initial="ability")
    modifier = forms.IntegerField(label="Score modifier", min_value=-200, max_value=200, initial=0)
    mission = forms.TypedChoiceField(label="Mission", coerce=int, required=False, empty_value=None)
    purpose = forms.CharField(label="What for", max_length=200, required=False)
    secret = forms.BooleanField(label="Secret (the table sees only that it was made)", required=False)

    def __init__(
        self,
        *args,
        agents=(),
        scores=(),
        results_keys=(),
        missions=(),
        can_roll_secret=False,
        reload_url="",
        specific=False,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        self.fields["character"].choices = [(a.pk, a.name) for a in agents]
        if not specific:
            # A general check is success or failure: no column and no results key to read
            # (timemaster-play.md §2.1-§2.2), so the form does not offer them (issue 49, walk point 4).
            del self.fields["defense_column"], self.fields["results_key"]
        if reload_url:
            # Choosing another agent reloads this form with that agent's scores, sending all that
            # was entered in it (not the CSRF token: a GET's query lands in logs), which the new
            # form keeps (check_views._keep_entered); the agent's condition card comes with it.
            # Nothing else of the dice page is swapped, so the other forms keep what they hold.
            self.fields["character"].widget.attrs.update(
                {
                    "hx-get": reload_url,
                    "hx-target": "#check-panel",
                    "hx-select": "#check-panel",
                    "hx-swap": "outerHTML",
                    "hx-select-oob": "#dice-condition",
                    "hx-include": "closest form",
                    "hx-params": "not csrfmiddlewaretoken",
                    "hx-trigger": "change",
                }
            )
            # the kind of check reloads it too: a specific check brings its column and results key
            self.fields["kind"].widget.attrs.update(self.fields["character"].widget.attrs)
        groups: dict[str, list[tuple[str, str]]] = {}
        for score in scores:
            groups.setdefault(score.group, []).append((score.key, score.label))
        self.fields["score"].choices = list(groups.items())
        if "results_key" in self.fields:
            self.fields["results_key"].choices = list(results_keys)
        self.fields["mission"].choices = [("", "—")] + [(m.pk, m.title) for m in missions]
        if not can_roll_secret:
            del self.fields["secret"]
