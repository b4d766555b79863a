"""Forms of the characters pages. They only collect input: the rules are checked by the engines,
whose violations are attached to the field they name (``attach_violations``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django import forms

from characters.systems import RuleViolation


def attach_violations(
    form: forms.Form, violations: Iterable[RuleViolation], field_for: Callable[[str], str | None]
) -> None:
    """Each engine violation next to the form field it names (else at the top of the form)."""
    for violation in violations:
        name = field_for(violation.field)
        if name in form.fields:
            form.add_error(name, violation.message)
        else:
            form.add_error(None, violation.message)


class ReasonForm(forms.Form):
    reason = forms.CharField(label="Why is this entry reverted?", max_length=500)


class FinalizeForm(forms.Form):
    """Only a button; kept as a form so the CSRF token and the POST are explicit."""
