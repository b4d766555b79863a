"""A toy game system, installed only by tests/test_toy_system.py: one folder and one line in
INSTALLED_APPS, and the platform offers it without a change of its own code."""

from django.apps import AppConfig


class ToySystemConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tests.toy_system"
    label = "toy_system"

    def ready(self):
        from characters import registry

        registry.register(
            registry.SystemApp(
                key="toy",
                name="Toy Game",
                engine="tests.toy_system.engine",
                wizard="tests.toy_system.wizard",
                new_label="New toy hero",
            )
        )
