"""A tiny game used to test the shared machinery of the contract on its own.

Race to ten: players take turns; on your turn you add 1 or 2 to the pile ("add 1",
"add 2"), or roll a die ("roll", chance: adds 1-3) — whoever makes the pile reach
ten or more wins. Each player also holds a secret number, seen only by them.
It is not registered with farmtable; tests use it directly.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from farmtable.core import Game, IllegalAction, Result, Rng, State, as_rng, rank_by

TARGET = 10


class RaceState(State[str]):
    """Pile size, whose turn, the winner, secrets, and the RNG."""

    def __init__(self, players: int, rng: Rng, secrets: list[int]) -> None:
        self.players = players
        self.rng = rng
        self.secrets = secrets
        self.pile = 0
        self.turn = 0
        self.winner: int | None = None
        self.rolls = 0

    def actors(self) -> list[int]:
        return [] if self.winner is not None else [self.turn]

    def legal_actions(self, player: int) -> list[str]:
        return ["add 1", "add 2", "roll"] if player in self.actors() else []

    def check_action(self, player: int, action: str) -> None:
        if action not in ("add 1", "add 2", "roll"):
            raise IllegalAction("you may add 1 or 2 to the pile, or roll")

    def _do(self, player: int, action: str) -> None:
        if action == "roll":
            self.pile += self.rng.randint(1, 3)
            self.rolls += 1
        else:
            self.pile += int(action.split()[1])
        if self.pile >= TARGET:
            self.winner = player
        else:
            self.turn = (self.turn + 1) % self.players

    def is_over(self) -> bool:
        return self.winner is not None

    def result(self) -> Result:
        totals = [1 if p == self.winner else 0 for p in range(self.players)]
        return Result(totals, [{"won": t} for t in totals], rank_by(totals))

    def view(self, player: int | None) -> dict[str, Any]:
        return {"pile": self.pile, "turn": self.turn, "my_secret": None if player is None else self.secrets[player]}

    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> RaceState:
        r = as_rng(rng)
        copy = self.clone()
        copy.rng = r.fork()
        copy.secrets = [s if p == player else r.randint(0, 99) for p, s in enumerate(self.secrets)]
        return copy

    def info_epoch(self) -> int:
        return self.rolls

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rng": self.rng.state,
            "secrets": self.secrets,
            "pile": self.pile,
            "turn": self.turn,
            "winner": self.winner,
            "rolls": self.rolls,
        }


class RaceGame(Game[RaceState]):
    """Race to ten, for 1-3 players."""

    id = "race"
    title = "Race to Ten"
    min_players = 1
    max_players = 3
    variants: ClassVar[dict[str, str]] = {"short": "only a note: no rule changes"}

    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> RaceState:
        if options:
            raise ValueError(f"Race to Ten takes no options: {', '.join(options)}")
        rng = Rng(seed)
        return RaceState(players, rng, [rng.randint(0, 99) for _ in range(players)])

    def _from_dict(self, data: dict[str, Any]) -> RaceState:
        state = RaceState(int(data["players"]), Rng(int(data["rng"])), [int(s) for s in data["secrets"]])
        state.pile = int(data["pile"])
        state.turn = int(data["turn"])
        state.winner = data["winner"]
        state.rolls = int(data["rolls"])
        if not 0 <= state.turn < state.players:
            raise ValueError(f"turn {state.turn} is not a seat")
        return state


RaceState.game = RACE = RaceGame()
