"""What an import found wrong: a list of (JSON path, message), raised together so nothing is saved."""

from __future__ import annotations

from dataclasses import dataclass

from kernel.errors import Refusal


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an archive, where it is (``characters[2].ledger[0].kind``) and why."""

    path: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.path, "message": self.message}

    def __str__(self) -> str:
        return f"{self.path or '(document)'}: {self.message}"


class ArchiveRefused(Refusal):
    """The archive cannot be imported; ``problems`` says everything that is wrong."""

    detail = "The archive was refused; nothing was imported."

    def __init__(self, problems: list[Problem] | Problem, status: int = 400):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        self.status = status
        super().__init__("; ".join(str(p) for p in self.problems))

    def errors(self) -> list[dict[str, str]]:
        return [problem.as_dict() for problem in self.problems]


def join(path: str, key: str | int) -> str:
    """``join("characters", 2)`` -> ``characters[2]``; ``join("campaign", "name")`` -> ``campaign.name``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Checker:
    """Small type checks that collect problems instead of raising, so one pass reports them all."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def obj(self, value, path: str, required: tuple[str, ...] = ()) -> bool:
        if not isinstance(value, dict):
            self.add(path, "must be an object.")
            return False
        for key in required:
            if key not in value:
                self.add(join(path, key), "is missing.")
        return True

    def array(self, value, path: str, limit: int | None = None) -> bool:
        if not isinstance(value, list):
            self.add(path, "must be a list.")
            return False
        if limit is not None and len(value) > limit:
            self.add(path, f"holds {len(value)} items; at most {limit} are allowed.")
            return False
        return True

    def text(self, data: dict, key: str, path: str, max_length: int, blank: bool = True) -> None:
        if key not in data:
            return
        value = data[key]
        where = join(path, key)
        if not isinstance(value, str):
            self.add(where, "must be text.")
        elif len(value) > max_length:
            self.add(where, f"is {len(value)} characters long; at most {max_length} are allowed.")
        elif not blank and not value.strip():
            self.add(where, "must not be empty.")

    def integer(self, data: dict, key: str, path: str, minimum=None, maximum=None, null=False) -> None:
        if key not in data:
            return
        value = data[key]
        where = join(path, key)
        if value is None and null:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(where, "must be a whole number" + (" or null." if null else "."))
        elif minimum is not None and value < minimum:
            self.add(where, f"must be at least {minimum}.")
        elif maximum is not None and value > maximum:
            self.add(where, f"must be at most {maximum}.")

    def boolean(self, data: dict, key: str, path: str) -> None:
        if key in data and not isinstance(data[key], bool):
            self.add(join(path, key), "must be true or false.")

    def choice(self, data: dict, key: str, path: str, choices, null=False) -> None:
        if key not in data or (null and data[key] is None):
            return
        if data[key] not in choices:
            self.add(join(path, key), f"must be one of: {', '.join(map(str, choices))}.")

    def kind_of(self, data: dict, key: str, path: str, types: tuple, label: str, null=False) -> None:
        if key not in data or (null and data[key] is None):
            return
        if not isinstance(data[key], types) or isinstance(data[key], bool) and bool not in types:
            self.add(join(path, key), f"must be {label}.")

    def reference(self, data: dict, key: str, path: str, count: int, what: str) -> None:
        """An optional position into another list of the archive (``null`` = none)."""
        if key not in data or data[key] is None:
            return
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
            self.add(join(path, key), f"must be the position of one of the {count} {what}, or null.")


def length_of(document: dict, key: str) -> int:
    """How many items the archive's list ``key`` holds (0 if it is not a list), for references."""
    value = document.get(key)
    return len(value) if isinstance(value, list) else 0
