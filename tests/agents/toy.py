"""A tiny game with everything the contract has (hidden hands, a hidden deck, chance, a
simultaneous secret step, solo play), so the agents and the arena can be tested before
and independently of the five real games.

Secret bids: each round a prize card (1-6) is turned up; the lead player may first
``draw`` a card or ``pass``; then every player secretly bids one card from hand
(``bid N``); the highest unique bid wins the prize's points; everyone draws back to
three cards. Solo: a bid of at least the prize + 2 wins it. Four rounds.
"""

from __future__ import annotations

import random
from typing import Any

from farmtable.core import Game, Rng, State, as_rng, rank_by
from farmtable.core import registry as _registry
from farmtable.core.result import Result

ROUNDS = 4
HAND = 3
GAME_ID = "toy-bids"


class ToyState(State[str]):
    """The position of a secret-bids game."""

    def __init__(self, players: int, rng: Rng) -> None:
        self.players = players
        self.rng = rng
        deck = list(range(1, 10)) * 2
        prizes = [1, 2, 3, 4, 5, 6]
        rng.shuffle(deck)
        rng.shuffle(prizes)
        self.deck = deck
        self.prizes = prizes
        self.hands = [sorted(deck.pop() for _ in range(HAND)) for _ in range(players)]
        self.bids: list[int | None] = [None] * players
        self.scores = [0] * players
        self.round = 0
        self.prize = self.prizes.pop()
        self.phase = "lead"
        self.epoch = 0

    def lead(self) -> int:
        return self.round % self.players

    def actors(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.phase == "lead":
            return [self.lead()]
        return [p for p in range(self.players) if self.bids[p] is None]

    def legal_actions(self, player: int) -> list[str]:
        if player not in self.actors():
            return []
        if self.phase == "lead":
            return ["draw", "pass"] if self.deck else ["pass"]
        return [f"bid {c}" for c in sorted(set(self.hands[player]))]

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result:
        return Result(
            totals=list(self.scores),
            breakdown=[{"prizes": s} for s in self.scores],
            ranking=rank_by([(s,) for s in self.scores]),
        )

    def view(self, player: int | None) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "prize": self.prize,
            "scores": list(self.scores),
            "deck": len(self.deck),
            "prizes_left": len(self.prizes),
            "hand": list(self.hands[player]) if player is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "my_bid": self.bids[player] if player is not None else None,
            "has_bid": [b is not None for b in self.bids],
        }

    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> ToyState:
        r = as_rng(rng)
        det = self.clone()
        others = [q for q in range(self.players) if q != player]
        pool = sorted(
            self.deck
            + [c for q in others for c in self.hands[q]]
            + [b for q in others if (b := self.bids[q]) is not None]
        )
        r.shuffle(pool)
        for q in others:
            if det.bids[q] is not None:
                det.bids[q] = pool.pop()
            det.hands[q] = sorted(pool.pop() for _ in range(len(self.hands[q])))
        det.deck = pool
        det.prizes = sorted(self.prizes)
        r.shuffle(det.prizes)
        det.rng = r.fork()
        return det

    def info_epoch(self) -> int:
        return self.epoch

    def to_dict(self) -> dict[str, Any]:
        return {k: (v.state if isinstance(v, Rng) else v) for k, v in vars(self).items()}

    def _do(self, player: int, action: str) -> None:
        if self.phase == "lead":
            if action == "draw":
                self.hands[player].append(self.deck.pop())
                self.hands[player].sort()
                self.epoch += 1
            self.phase = "bid"
            return
        card = int(action.split()[1])
        self.hands[player].remove(card)
        self.bids[player] = card
        if all(b is not None for b in self.bids):
            self._resolve()

    def _resolve(self) -> None:
        bids = [b for b in self.bids if b is not None]
        if self.players == 1:
            if bids[0] >= self.prize + 2:
                self.scores[0] += self.prize
        else:
            unique = [b for b in bids if bids.count(b) == 1]
            if unique:
                self.scores[bids.index(max(unique))] += self.prize
        self.bids = [None] * self.players
        for hand in self.hands:
            while len(hand) < HAND and self.deck:
                hand.append(self.deck.pop())
            hand.sort()
        self.round += 1
        self.epoch += 1
        if self.round >= ROUNDS or not self.prizes:
            self.phase = "over"
        else:
            self.prize = self.prizes.pop()
            self.phase = "lead"


class ToyGame(Game[ToyState]):
    """Secret bids: a test game."""

    id = GAME_ID
    title = "Secret Bids (test game)"
    min_players = 1
    max_players = 3

    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> ToyState:
        return ToyState(players, Rng(seed))

    def _from_dict(self, data: dict[str, Any]) -> ToyState:
        state = ToyState.__new__(ToyState)
        for key, value in data.items():
            setattr(state, key, Rng(value) if key == "rng" else value)
        return state


ToyState.game = ToyGame()


def register() -> None:
    """Put the toy game in the registry (tests remove it again: see ``unregister``)."""
    _registry.register(ToyState.game)


def unregister() -> None:
    """Take the toy game out of the registry."""
    _registry._GAMES.pop(GAME_ID, None)
