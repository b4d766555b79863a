"""The form renderer: Django's own, with ``<select>`` written in Python.

Django renders a select widget through a template that includes one more template per option and
one more per option's attributes. A form with a long select (the dice page's check form lists
every score an agent has; the builders list the whole Skills Chart) spent most of its rendering
time in those includes (bench/pages.py --profile "page: dice log"). ``SelectRenderer`` writes the
same markup directly: byte for byte what the templates give (tests/test_form_renderer.py compares
the two for the selects of the project's forms and for edge cases, so an override of the widget
templates would fail that test), and falls back to the templates for a widget or option with a
template of its own.
"""

from __future__ import annotations

from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime

SELECT_TEMPLATE = "django/forms/widgets/select.html"
OPTION_TEMPLATE = "django/forms/widgets/select_option.html"


def _shown(value) -> str:
    """``{{ value }}`` in a template: local time, localized, escaped unless already safe."""
    value = localize(template_localtime(value))
    return conditional_escape(value if isinstance(value, str) else str(value))


def _formatted(value) -> str:
    """``{{ value|stringformat:'s' }}``: the value as text, escaped unless it was safe."""
    return conditional_escape(value) if hasattr(value, "__html__") else conditional_escape(f"{value}")


def _attrs(attrs: dict) -> str:
    """django/forms/widgets/attrs.html."""
    parts = []
    for name, value in attrs.items():
        if value is False:
            continue
        parts.append(f" {_shown(name)}" if value is True else f' {_shown(name)}="{_formatted(value)}"')
    return "".join(parts)


def render_select(widget: dict) -> str:
    """django/forms/widgets/select.html with its option template, for a widget context."""
    out = [f'<select name="{_shown(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            out.append(f'\n  <optgroup label="{_shown(group_name)}">')
        for option in group_choices:
            out.append(
                f'\n  <option value="{_formatted(option["value"])}"{_attrs(option["attrs"])}>'
                f"{_shown(option['label'])}</option>\n"  # the option template ends in a newline
            )
        if group_name:
            out.append("\n  </optgroup>")
    out.append("\n</select>")
    return "".join(out)


class SelectRenderer(DjangoTemplates):
    """Django's default renderer; a plain select is written without its per-option templates."""

    def render(self, template_name, context, request=None):
        if template_name == SELECT_TEMPLATE and self._plain(context.get("widget")):
            return mark_safe(render_select(context["widget"]))
        return super().render(template_name, context, request=request)

    @staticmethod
    def _plain(widget) -> bool:
        if not isinstance(widget, dict) or widget.get("template_name") != SELECT_TEMPLATE:
            return False
        return all(
            option.get("template_name") == OPTION_TEMPLATE
            for _name, options, _index in widget.get("optgroups", ())
            for option in options
        )
