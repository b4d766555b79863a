"""Forms for TIMEMASTER missions: plan, tally entry, reversal, close, and the audit filters.

Forms only read and tidy what people type; the rules (chart overlaps, ratings, loop traps) are
checked by the engine through systems/timemaster/missions.py, whose errors land on the field they name.
"""

from __future__ import annotations

import re

from django import forms

from systems.timemaster.engine.advancement_tables import SEP_ITEMS, TALLY_KINDS

CHART_LINE = re.compile(r"^\s*(\d{1,7})\s*(?:(?:-|–|to)\s*(\d{1,7})|(\+|and up))\s*:\s*(.+?)\s*$")
CHART_HELP = (
    "One line per range of differences: “0-99: what changes”, and “500+: …” for an open end. "
    "Differences are the mistakes total minus the roll."
)


def chart_as_text(chart: list[dict]) -> str:
    lines = []
    for line in chart or []:
        span = f"{line['low']}+" if line.get("high") is None else f"{line['low']}-{line['high']}"
        lines.append(f"{span}: {line['text']}")
    return "\n".join(lines)


def parse_chart(text: str) -> tuple[list[dict], list[str]]:
    """Lines of "low-high: text" (or "low+: text") as chart lines, and what could not be read."""
    chart, problems = [], []
    for number, raw in enumerate((text or "").splitlines(), start=1):
        if not raw.strip():
            continue
        match = CHART_LINE.match(raw)
        if not match:
            problems.append(f"Line {number} should read like “0-99: text” or “500+: text”.")
            continue
        low, high, open_end, words = match.groups()
        chart.append({"low": int(low), "high": None if open_end else int(high), "text": words})
    return chart, problems


class AgentChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj) -> str:
        return f"{obj.name} ({obj.owner.username})"


class MissionForm(forms.Form):
    title = forms.CharField(max_length=200, label="Title")
    briefing = forms.CharField(
        max_length=20000, required=False, label="Briefing", widget=forms.Textarea(attrs={"rows": 4})
    )
    parallel = forms.CharField(
        max_length=12, required=False, label="Parallel", help_text="A class letter and a number, e.g. T-0."
    )
    place = forms.CharField(max_length=200, required=False, label="Place")
    start_year = forms.IntegerField(
        required=False, min_value=-99999, max_value=99999, label="Year entered", help_text="Negative for B.C."
    )
    end_year = forms.IntegerField(
        required=False, min_value=-99999, max_value=99999, label="Year left", help_text="Negative for B.C."
    )
    significance_rating = forms.IntegerField(
        required=False, min_value=1, max_value=1000, label="Significance rating (1-1000)"
    )
    agents = AgentChoiceField(
        queryset=None, required=False, label="Agents sent", widget=forms.CheckboxSelectMultiple
    )
    historical_changes_chart = forms.CharField(
        required=False,
        label="Historical Changes Chart",
        help_text=CHART_HELP,
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=20000,
    )

    PLAN_FIELDS = ("parallel", "place", "start_year", "end_year", "agents")
    OPEN_FIELDS = ("significance_rating", "historical_changes_chart")

    def __init__(self, *args, agents=None, mission=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["agents"].queryset = agents
        if mission is not None:
            locked = ()
            if mission.status != "planned":
                locked += self.PLAN_FIELDS
            if mission.is_closed:
                locked += self.OPEN_FIELDS
            for name in locked:
                self.fields[name].disabled = True

    @staticmethod
    def initial_for(mission) -> dict:
        return {
            "title": mission.title,
            "briefing": mission.briefing,
            "parallel": mission.parallel,
            "place": mission.place,
            "start_year": mission.start_year,
            "end_year": mission.end_year,
            "significance_rating": mission.significance_rating,
            "agents": list(mission.agents.all()),
            "historical_changes_chart": chart_as_text(mission.historical_changes_chart),
        }

    def clean_historical_changes_chart(self):
        chart, problems = parse_chart(self.cleaned_data.get("historical_changes_chart", ""))
        if problems:
            raise forms.ValidationError(problems)
        return chart

    def service_data(self) -> dict:
        data = {name: value for name, value in self.cleaned_data.items() if not self.fields[name].disabled}
        data["agents"] = list(data["agents"]) if "agents" in data else None
        if data.get("agents") is None:
            data.pop("agents", None)
        for name in ("parallel", "place", "briefing"):
            if name in data:
                data[name] = (data[name] or "").strip()
        return data


def _rating_label(rating) -> str:
    return "rating not given: enter one" if rating is None else f"rated {rating}"


class MistakeForm(forms.Form):
    # Starts on an empty "Choose…": no kind of mistake is picked for the GM (it started on the
    # first kind, NPC death), and a form sent as it came is refused with a word on what to choose.
    kind = forms.ChoiceField(
        label="Kind of mistake",
        choices=[("", "Choose…")] + [(key, spec["label"]) for key, spec in TALLY_KINDS.items()],
        error_messages={"required": "Choose the kind of mistake the team made."},
    )
    description = forms.CharField(
        max_length=2000, required=False, label="What happened", widget=forms.Textarea(attrs={"rows": 2})
    )
    rating = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=1000,
        label="Significance rating",
        help_text="Leave blank to take the NPC's or the equipment's rating.",
    )
    npc = forms.ModelChoiceField(queryset=None, required=False, label="NPC who died (optional)")
    equipment_item = forms.ChoiceField(required=False, label="Equipment left behind")
    # Unticked unless the GM ticks it: a GM who forgets must not reveal a line at publication
    # (a box left as it came posts nothing, so the entry stays GM-only).
    shown_to_players = forms.BooleanField(
        required=False, initial=False, label="Show this entry to the players once the result is published"
    )

    def __init__(self, *args, npcs=None, catalogue=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["npc"].queryset = npcs
        self.fields["npc"].label_from_instance = lambda npc: (
            f"{npc.name} (significance {npc.significance_rating})"
        )
        self.fields["equipment_item"].choices = [("", "—")] + [
            (item["item"], f"{item['name']} ({_rating_label(item['significance'])})") for item in catalogue
        ]

    def service_data(self) -> dict:
        data = dict(self.cleaned_data)
        if not data.get("equipment_item"):
            data["equipment_item"] = ""
        return data


class ReverseForm(forms.Form):
    reason = forms.CharField(max_length=500, label="Why is this entry reversed?")


class CloseForm(forms.Form):
    result = forms.ChoiceField(
        label="How did the mission end?",
        widget=forms.RadioSelect,
        choices=[
            ("success", "Completed as briefed (roll the secret significance check)"),
            ("failure", "Not completed as briefed"),
            ("aborted", "Aborted"),
        ],
    )


class AuditFilterForm(forms.Form):
    agent = forms.ModelChoiceField(queryset=None, required=False, label="Agent", empty_label="Every agent")
    closed_from = forms.DateField(
        required=False, label="Closed on or after", widget=forms.DateInput(attrs={"type": "date"})
    )
    closed_to = forms.DateField(
        required=False, label="Closed on or before", widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, agents=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["agent"].queryset = agents


SEP_NAMES = {key: spec["name"] for key, spec in SEP_ITEMS.items()}
