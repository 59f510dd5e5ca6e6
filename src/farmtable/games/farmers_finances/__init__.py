"""Farmers Finances (Thomas Hünerbein): a 9-card trading game, 1–4 players; registers the game on import."""

from farmtable.core import register
from farmtable.games.farmers_finances.rules import GAME, FarmersFinancesGame, FarmersFinancesState

register(GAME)

__all__ = ["GAME", "FarmersFinancesGame", "FarmersFinancesState"]
