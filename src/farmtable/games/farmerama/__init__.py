"""Farmerama: secret action cards, the action wheel and the player wheel, animals and their products."""

from farmtable.core import register
from farmtable.games.farmerama.rules import GAME, FarmeramaGame, FarmeramaState

register(GAME)

__all__ = ["GAME", "FarmeramaGame", "FarmeramaState"]
