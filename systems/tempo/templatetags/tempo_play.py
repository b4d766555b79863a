"""Template tags that put Tempo play on the character page (the roll panel)."""

from django import template

register = template.Library()


@register.inclusion_tag("tempo_conflicts/_roll_panel.html", takes_context=True)
def tempo_roll_panel(context):
    """The roll panel of a finished agent, for its owner and the GM; nothing for anyone else."""
    from systems.tempo.views import panel_context

    character, membership, request = context["character"], context.get("membership"), context["request"]
    if membership is None or character.is_draft:
        return {"hidden": True}
    values = panel_context(character, membership, request.user)
    return {**values, "request": request, "csrf_token": context.get("csrf_token")}
