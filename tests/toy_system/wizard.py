"""The toy system's builder: a name, then the platform's review (characters/builder.py runs the flow)."""

STEPS = (("name", "Name"), ("review", "Review"))
TEMPLATES = "characters/toy"
WELCOME = "{name} is ready."


def first_open_step(character) -> str:
    return "review" if str(character.choices.get("name") or "").strip() else "name"


def step_of(field: str) -> str:
    return "name"


def step_name(request, character, membership):  # pragma: no cover - slice 5 gives it a page
    raise NotImplementedError
