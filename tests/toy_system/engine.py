"""The toy system's pure engine: the smallest GameSystem (no settings, a name is a build)."""

from characters.systems.base import GameSystem


class ToyGame(GameSystem):
    key = "toy"
    label = "Toy Game"


SYSTEM = ToyGame()
