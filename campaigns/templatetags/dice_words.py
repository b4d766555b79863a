"""The roll log's words as template filters (campaigns.table.log_words says what each does).
``{{ roll.kind|dice_kind }}``: a dice kind of the log in words ("3d6 with bonus dice", not the
roller's code ``3d6_bonus``); ``{{ r|roll_words:campaign.system }}``: the whole "rolled ..."
phrase, the system's words first. ``{{ campaign.system|roll_detail_template }}``: the system's
template of a roll's detail."""

from __future__ import annotations

from django import template

from campaigns.table import log_words

register = template.Library()
register.filter("dice_kind", log_words.dice_kind)
register.filter("roll_words", log_words.roll_words)
register.filter("roll_detail_template", log_words.roll_detail_template)
