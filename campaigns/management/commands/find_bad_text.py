"""Find (and with --fix repair) stored values that the input boundary now refuses.

Rows written before the boundary (kernel/input_boundary.py) may hold lone surrogates, NUL or
other control characters, JSON nested too deep, numbers out of range or over-long text. This
command reads every text and JSON column of every Dossier model straight from the database (not
through the read-safe field, which would hide what is stored), prints one line per value at fault
(model, pk, field, path, why) and, with --fix, replaces the refused characters by U+FFFD and every
list or object nested deeper than the limit by the string U+FFFD, through the ORM, writing that
one column of that one row and nothing else. Over-long text and numbers out of range are reported
for a person to decide; they are not changed.
"""

from __future__ import annotations

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connection, models

from kernel import input_boundary

TEXT_FIELDS = (models.CharField, models.TextField)
CHUNK = 500


def project_models():
    base = str(settings.BASE_DIR)
    for config in apps.get_app_configs():
        if config.path.startswith(base) and ".venv" not in config.path:
            yield from config.get_models()


def checked_fields(model):
    return [f for f in model._meta.concrete_fields if isinstance(f, (models.JSONField, *TEXT_FIELDS))]


def stored_rows(model, fields):
    """(pk, raw values) of every row, read with SQL so nothing is decoded on the way."""
    quote = connection.ops.quote_name
    pk = model._meta.pk.column
    columns = ", ".join(quote(f.column) for f in fields)
    sql = f"SELECT {quote(pk)}, {columns} FROM {quote(model._meta.db_table)} ORDER BY {quote(pk)}"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        while rows := cursor.fetchmany(CHUNK):
            yield from rows


def problem_of(field, raw, limit):
    """(problem or None, repaired value or None) for one stored value."""
    if raw is None:
        return None, None
    if isinstance(field, models.JSONField):
        if isinstance(raw, str):
            value, problem = input_boundary.decode_stored(raw, limit)
        else:  # a driver that hands out decoded JSON
            value, problem = raw, input_boundary.value_problem(raw, "", limit)
    else:
        value = raw
        message = input_boundary.text_problem(raw, limit)
        problem = input_boundary.Problem("", message) if message else None
    if problem is None or value is None:
        return problem, None
    repaired = input_boundary.replace_bad_characters(input_boundary.prune_depth(value, limit))
    if input_boundary.value_problem(repaired, "", limit) is not None:
        return problem, None  # text too long or a number out of range: leave it for a person
    return problem, repaired


class Command(BaseCommand):
    help = "Report stored text and JSON values the input boundary refuses; --fix replaces bad characters."

    def add_arguments(self, parser):
        parser.add_argument("--fix", action="store_true", help="replace refused characters with U+FFFD")

    def handle(self, *args, fix: bool = False, **options):
        limit = input_boundary.limits(items=None)
        found = fixed = 0
        for model in project_models():
            fields = checked_fields(model)
            if not fields:
                continue
            for pk, *values in stored_rows(model, fields):
                for field, raw in zip(fields, values, strict=True):
                    problem, repaired = problem_of(field, raw, limit)
                    if problem is None:
                        continue
                    found += 1
                    path = problem.path
                    where = field.name + (path if not path or path.startswith("[") else f".{path}")
                    line = f"{model._meta.label} pk={pk} {where}: {problem.message}"
                    if fix and repaired is not None:
                        model._default_manager.filter(pk=pk).update(**{field.name: repaired})
                        fixed += 1
                        line += " -> fixed"
                    elif repaired is None:
                        line += " (fix it by hand)"
                    self.stdout.write(line)
        summary = f"{found} stored value(s) the input boundary refuses"
        if fix:
            summary += f"; {fixed} fixed"
        self.stdout.write(summary + ".")
