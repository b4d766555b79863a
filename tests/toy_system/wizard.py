"""The toy system's builder: one step (the platform only reads STEP_KEYS before a step is shown)."""

STEP_KEYS = ("name",)


def resume_url(character):
    return f"/characters/{character.pk}/build/name/"


def wizard_step(request, character, membership, step):  # pragma: no cover - the test never opens a step
    raise NotImplementedError
