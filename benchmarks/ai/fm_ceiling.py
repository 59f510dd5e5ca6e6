"""How much can skill decide a 2-player Farmini game? A clairvoyant ceiling (benchmark only).

``fm-clairvoyant`` is **not a fair player and never a level**: it reads the real deck order (the
state ``compare.py`` hands to ``act`` is the true one; every fair agent calls ``determinize``
first). At a take decision it plays the rest of the game ahead on the *true* deck once per card it
may take: it takes the card, finishes the turn the evaluation's lookahead way
(:func:`duel.finish_turn`), and then both players play on greedily (:func:`duel.greedy_take` +
:func:`duel.finish_turn`: the model of the Easy opponent, which it meets). The card whose playout
ends best is taken: a win first (``1`` won, ``0.5`` tie on points, ``0`` lost), then the final margin.
With ``place=K`` a taken fence card's K best placements by the lookahead's order
(:func:`evaluation.placement_order`) are each played out the same way and the best kept (default 1:
the lookahead's placement). Animal tokens go where the lookahead puts them.

``fm-playout:worlds=K`` is its **fair** twin, to tell the deck knowledge from the playouts: the same
playouts, but on K sampled worlds (``state.determinize``: the unseen deck shuffled) instead of the
true deck, the mean over the worlds deciding (win share first, then margin). It sees only what a
player sees; it is a benchmark probe, with no time cap (about K times the clairvoyant's cost).

Against a greedy opponent whose moves it can nearly replay, it sees what every take leads to at the
end of the game: an upper bound on what a fair player (who sees only the deck's contents) can gain
from the same evaluation's moves. If even it stays near 50%, no fair player climbs far above greedy.

This script registers ``fm-clairvoyant`` and then runs ``compare.py`` with the given arguments, so
the raw files and the summary are compare.py's own:

    PYTHONPATH=src nice -n 10 python benchmarks/ai/fm_ceiling.py --game farmini --players 2 --deals 10 \\
        --seed 2000 --workers 1 --agents fm-clairvoyant easy --raw benchmarks/ai/out/s13/fm13/clair_2000.jsonl
"""

from __future__ import annotations

import math
import os
import random
import sys
from typing import Any

import farmtable.agents
from farmtable.agents.base import Agent, legal_actions_or_refuse, register_agent
from farmtable.agents.greedy import greedy_choice
from farmtable.core import State
from farmtable.games.farmini.duel import finish_turn, greedy_take
from farmtable.games.farmini.evaluation import completion_moves, placement_order
from farmtable.games.farmini.rules import FarminiState, Place, Take

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def playout(sim: FarminiState) -> None:
    """Both players play greedily to the end of the game on ``sim`` (its deck order is the truth)."""
    while not sim.is_over():
        mover = sim.current
        if sim.pending is None:
            greedy_take(sim, mover)
        finish_turn(sim, mover)


def outcome(sim: FarminiState, me: int) -> tuple[float, float]:
    """(win 1 / tie 0.5 / loss 0 on final points, final margin) of a finished ``sim`` for ``me``."""
    totals = sim.result().totals
    diff = totals[me] - totals[1 - me]
    return (1.0 if diff > 0 else 0.5 if diff == 0 else 0.0), float(diff)


class ClairvoyantAgent(Agent):
    """Benchmark-only: rates each take by a greedy playout on the true deck (see the module)."""

    name = "fm-clairvoyant"

    def __init__(self, seed: int | None = None, place: int = 1, worlds: int = 0) -> None:
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise ValueError(f"fm-clairvoyant: place must be a whole number >= 1, got {place!r}")
        if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 0:
            raise ValueError(f"fm-playout: worlds must be a whole number >= 0, got {worlds!r}")
        params: dict[str, Any] = {}
        if place != 1:
            params["place"] = place
        if worlds:
            params["worlds"] = worlds
        super().__init__(seed, **params)
        self.name = "fm-playout" if worlds else "fm-clairvoyant"
        self.place = place
        self.worlds = worlds
        self.rng = random.Random(seed)

    def act(self, state: State[Any], player: int) -> Any:
        """The take whose playout ends best; a fence card's best of ``place`` placements; else greedy's."""
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        assert isinstance(state, FarminiState)
        if self.worlds:  # fair: only what the player sees (the deck's contents, not its order)
            sampler = random.Random(self.rng.getrandbits(64))
            worlds = [state.determinize(player, sampler) for _ in range(self.worlds)]
            state = worlds[0]
        else:
            worlds = [state]  # clairvoyant: the true deck
        if state.players != 2:
            return legal[greedy_choice(state, player, self.rng)]
        if isinstance(legal[0], Take):
            return self._best(worlds, player, legal, take=True)
        if state.pending is not None:
            moves = completion_moves(state, player)
            if moves and isinstance(moves[0], Place) and self.place > 1:
                order = [moves[0], *(m for m in placement_order(state, player) if m != moves[0])]
                allowed = set(legal)
                return self._best(worlds, player, [m for m in order if m in allowed][: self.place], take=False)
            if moves and moves[0] in legal:
                return moves[0]
        return legal[greedy_choice(state, player, self.rng)]

    def _best(self, worlds: list[FarminiState], player: int, moves: list[Any], take: bool) -> Any:
        best, best_key = moves[0], (-math.inf, -math.inf)
        for move in moves:
            wins = margins = 0.0
            for world in worlds:
                sim = world.clone()
                sim.apply(player, move)
                if take or (not sim.is_over() and sim.current == player):
                    finish_turn(sim, player)
                playout(sim)
                win, diff = outcome(sim, player)
                wins, margins = wins + win, margins + diff
            key = (wins, margins)
            if key > best_key:
                best, best_key = move, key
        return best


register_agent("fm-clairvoyant", lambda **params: ClairvoyantAgent(**params))
register_agent("fm-playout", lambda **params: ClairvoyantAgent(**{"worlds": 1, **params}))


if __name__ == "__main__":
    import compare  # benchmarks/ai/compare.py

    assert farmtable.agents.make("fm-clairvoyant") is not None
    raise SystemExit(compare.main())
