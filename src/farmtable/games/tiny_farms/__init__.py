"""Tiny Farms: registers the game (rules in :mod:`.rules`, scoring in :mod:`.scoring`)."""

from farmtable.core import register
from farmtable.games.tiny_farms.rules import TinyFarmsGame, TinyFarmsState

GAME = TinyFarmsGame()
TinyFarmsState.game = GAME
register(GAME)

__all__ = ["GAME", "TinyFarmsGame", "TinyFarmsState"]
