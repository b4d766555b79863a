"""DRF's parsers with the input boundary (kernel/input_boundary.py) built in: they are the
DEFAULT_PARSER_CLASSES, so every API body is checked once, before any view or serializer sees it.
A refusal is a ValidationError naming the field path, answered in the API's one error format."""

from __future__ import annotations

import json

from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError

from kernel import input_boundary


def refuse(problem: input_boundary.Problem) -> ValidationError:
    return ValidationError({problem.path: [f"This value {problem.message}"]})


def check_form(data) -> None:
    problem = input_boundary.form_problem(input_boundary.querydict_pairs(data), input_boundary.limits())
    if problem is not None:
        raise refuse(problem)


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = stream.read().decode(encoding)
            return input_boundary.loads(text, input_boundary.limits())
        except input_boundary.InputRefused as refused:
            raise refuse(refused.problem) from None
        except json.JSONDecodeError as error:
            raise ParseError(f"JSON parse error - {error}") from None
        except UnicodeDecodeError:
            raise ParseError(f"The body is not {encoding} text.") from None


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        check_form(data)
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        parsed = super().parse(stream, media_type, parser_context)
        check_form(parsed.data)
        return parsed
