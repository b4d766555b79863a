"""A toy game system, installed only by tests/test_toy_system.py: one folder and one line in
INSTALLED_APPS, and the platform offers it without a change of its own code. Its engine
(engine.py) and builder (wizard.py) are found by the folder's convention."""

from characters.registry import SystemApp, SystemAppConfig


class ToySystemConfig(SystemAppConfig):
    name = "tests.toy_system"
    label = "toy_system"
    system = SystemApp(key="toy", name="Toy Game", new_label="New toy hero")
