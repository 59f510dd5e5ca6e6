"""A two-player Farmini player that rates each card it may take against the other's reply.

In two-player Farmini both players take from the same four face-up cards and the same farmyard
tokens. The greedy agent (Easy; the search's priors) rates a take by its own farm after the turn
it completes, minus the other's estimate: it does not look at what it leaves on the table for
the other (the three cards left and the one revealed after its turn), at the farmyard tokens an
animal card uses up, or at a wolf revealed before the other's turn.

:class:`DuelAgent` (spec ``farmini-duel:time=0.2``) plays a take decision of a two-player game as
a short game against the other's reply. For each card it may take (greedy's order), in each of a
few sampled worlds (``state.determinize``: the unseen deck in a random order; the *same* worlds
for every card, common random numbers), it

1. takes the card and finishes its turn the way the evaluation's lookahead would play it
   (:func:`evaluation.completion_moves`), then the real refill follows in that world (a new card
   face up, wolves resolved);
2. lets the other reply as the greedy agent would (its take of best heuristic, the other's view
   of the same evaluation);
3. rates the position by the margin ``evaluate()[me] − evaluate()[other]`` (each estimate values a
   held card by the best way to play it); with ``plies=2`` the other finishes its turn and this
   player replies the same way before the rating.

The card of best mean margin is taken; it replaces greedy's card only when better by more than
``edge`` points (ties and near-ties keep greedy's move). The taken card is then played the way
the rollouts assume, as the evaluation's lookahead values it (:func:`evaluation.completion_moves`:
its best placement, its best free cell per token; a few milliseconds, where the greedy agent tries
every placement on a copy, up to 0.4 CPU s); ``place=0`` plays it the greedy agent's way;
``exact=1`` rates a fence card's placements the greedy agent's way (each laid on a copy) in the
lookahead's order, the lookahead's own choice first, while 70% of the budget lasts. ``width=w``
rates a card by its mean chance to win, ``σ(margin / w)`` per world, instead of its mean margin.
``endgame=1``: once the deck holds at most one card (nothing hidden), a take is the exact best of
the last takes under best play by both (:mod:`endgame`), while the budget lasts.
``playout=N`` (N ≥ 1) rates a card in each world by a longer look instead of the greedy reply:
the turn finished the same way, then N turns of both players by the cheap cached rule of
:mod:`playout` (:func:`playout.fast_turn`), then the evaluation's margin (exact if the game ends);
a large N plays each world to the end (perfect-information Monte Carlo over the sampled worlds).
A discard is the greedy agent's. With any other player count the agent plays exactly like the
greedy agent, with the same random numbers, so solo play does not change.

``time`` caps the CPU seconds of a decision (``time.process_time``): worlds are rated one after
another, each for every card, and a new world is started only while the budget allows another
as slow as the slowest so far, and a world still in progress at the stop (95% of the budget less
the collector's reserve, below) is abandoned, so every card is rated on the same worlds; with no
world rated the greedy agent's card is played. Without ``time``, ``worlds`` worlds are rated and a
seeded game replays exactly; with it, a run replays exactly as long as the budget never binds.

**The garbage collector** (session 15). A take decision makes and drops many objects (cloned worlds,
cached plans), and Python's automatic collector then runs a full collection in the middle of most
1-second decisions: a pause of 0.05–0.16 CPU s that grows as the evaluation's caches fill, which
fell after the last clock check and put 30 of 949 ``playout=4,time=1.0`` decisions over the cap
(session 14). With a budget of at least :data:`COLLECT_MIN_BUDGET` (Hard's and Expert's) the
automatic collector is paused for a take decision (:func:`collector_paused`; its former state
restored on the way out, an exception included), so no pause lands between two clock checks, and the
decision ends with one timed collection of the young generations (``gc.collect(1)``: the objects
made since the last collection that are still alive; the garbage the search made is mostly freed by
reference counting as it goes). The search's stop is moved forward by 1.5 times the last such
collection's measured CPU time in this process (:data:`MEASURED`; a twentieth of the budget before
one is measured; never less than a tenth of the budget once one is, since a game's last decisions
collect almost nothing and the next game's first one does not, session 16), and the collection is
made only if that reserve still fits. Full collections, whose cost is the whole heap's (0.05–0.19
CPU s in a probe, more under load and between games: a 1.14 s first decision of a game in the
session-15 pilot, where an earlier form of this rule made a full collection at the end of the take
decision), are left to the automatic collector outside the take decisions. Smaller budgets (Normal's
0.2 s) leave the collector alone. What is then left between two clock checks is one card's rating in
one world (up to ~0.016 CPU s in the probe) and, before the search, the greedy agent's rating of the
face-up cards (what Easy spends on a decision).

**Wins, not points** (session 15): with ``width=w`` each world is rated by a win chance, not the
margin: a world whose game ends (to the end with a large ``playout``, or near the end of the deck)
counts 1 for a win, ½ for a shared win and 0 for a loss (the scoring's winners, the tiebreaker
included), any other world ``σ(margin / w)`` (:func:`win_chance`).
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse
from farmtable.agents.greedy import greedy_choice, terminal_value
from farmtable.core import State, clock
from farmtable.games.farmini import endgame as exact_end
from farmtable.games.farmini import playout as fast
from farmtable.games.farmini.evaluation import completion_moves, evaluate, heuristic, placement_order
from farmtable.games.farmini.rules import FarminiState, Place, Take

DEFAULT_TIME: Final = 0.2
"""CPU seconds per decision (the Normal level's cap)."""
DEFAULT_WORLDS: Final = 64
"""Most sampled worlds per decision (the budget usually stops earlier)."""
SAFETY: Final = 0.9
"""Share of the budget within which a new world must be expected to finish."""
STOP_SHARE: Final = 0.95
"""Share of the budget after which a world in progress is abandoned (the worlds rated before it
decide, so every card is still rated on the same worlds)."""
MAX_PLIES: Final = 2
EXACT_SHARE: Final = 0.7
"""``exact=1``: share of the budget within which fence-card placements are rated exactly."""
COLLECT_MIN_BUDGET: Final = 0.5
"""Least budget (CPU s) at which a take decision pauses the collector and collects at its end."""
COLLECT_SHARE: Final = 0.3
"""Most share of the budget a decision reserves for its collection of the young generations."""
COLLECT_MARGIN: Final = 1.5
"""The reserve for the collection: this many times the last one's CPU seconds."""
FIRST_COLLECT_SHARE: Final = 0.05
"""The reserve's share of the budget before any collection has been measured."""
MIN_COLLECT_SHARE: Final = 0.1
"""The least reserve, as a share of the budget, once a collection has been measured (session 16: the
last take decisions of a game collect almost nothing, 0.001-0.007 CPU s, and the next game's first
take decision, whose collection costs ~0.04 CPU s and more under load, reserved 1.5 times that and
was one of 6 decisions over the 1 s cap in 20 pilot games: 5 of the 6 were a game's first)."""


MEASURED: Final[dict[int, float]] = {}
"""The CPU seconds of the last collection a duel decision made in this process, per generation
collected (1: the young generations); read for the next decision's reserve."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's automatic garbage collector inside the block; restore its former state after
    it (an exception included). Nothing is collected here: the caller collects when it chooses."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _check_params(time_budget: object, worlds: object, edge: object, plies: object, place: object) -> None:
    if isinstance(place, bool) or place not in (0, 1):
        raise ValueError(f"farmini-duel: place must be 1 (the lookahead's move) or 0 (greedy's), got {place!r}")
    if time_budget is not None and (
        isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)) or not time_budget > 0
    ):
        raise ValueError(f"farmini-duel: time must be a positive number of CPU seconds, got {time_budget!r}")
    if isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1:
        raise ValueError(f"farmini-duel: worlds must be a whole number of at least 1, got {worlds!r}")
    if isinstance(edge, bool) or not isinstance(edge, (int, float)) or not 0 <= edge < math.inf:
        raise ValueError(f"farmini-duel: edge must be a number of points of at least 0, got {edge!r}")
    if isinstance(plies, bool) or not isinstance(plies, int) or not 1 <= plies <= MAX_PLIES:
        raise ValueError(f"farmini-duel: plies must be 1 or {MAX_PLIES}, got {plies!r}")


def finish_turn(sim: FarminiState, player: int) -> None:
    """Play ``player``'s held card on ``sim`` as the evaluation's lookahead would (then the refill)."""
    for move in completion_moves(sim, player):
        sim.apply(player, move)
    # a card the lookahead cannot play (should not happen for a legal take): the first legal move
    for _ in range(8):
        if sim.is_over() or sim.current != player or sim.pending is None:
            return
        sim.apply(player, sim.legal_actions(player)[0])


def greedy_take(sim: FarminiState, player: int) -> None:
    """``player`` takes (or discards) the card of best heuristic on ``sim``, as the greedy agent
    would (ties to the first: the model needs no random numbers)."""
    legal = sim.legal_actions(player)
    best, best_value = legal[0], -math.inf
    if len(legal) > 1:
        for action in legal:
            child = sim.clone()
            child.apply(player, action)
            value = heuristic(child, player)
            if value > best_value:
                best, best_value = action, value
    sim.apply(player, best)


def margin(sim: FarminiState, me: int) -> float:
    """``me``'s expected final score minus the other's (``evaluate``; exact once the game is over)."""
    values = evaluate(sim)
    return values[me] - values[1 - me]


def reply_margin(world: FarminiState, me: int, take: Any, plies: int = 1) -> float:
    """``me``'s margin after taking ``take`` in ``world`` (a determinization), finishing the turn
    (:func:`finish_turn`) and the other's greedy reply (:func:`greedy_take`); ``plies=2``: the other
    finishes its turn and ``me`` replies greedily too. ``world`` is not changed."""
    sim = world.clone()
    sim.apply(me, take)
    finish_turn(sim, me)
    for ply in range(plies):
        if sim.is_over():
            break
        mover = 1 - me if ply % 2 == 0 else me
        if sim.current != mover:
            break
        greedy_take(sim, mover)
        if ply + 1 < plies and not sim.is_over():
            finish_turn(sim, mover)
    return margin(sim, me)


def world_value(sim: FarminiState, me: int, width: float) -> float:
    """The rating of a played-out world ``sim`` for ``me``: the margin (:func:`margin`) when ``width``
    is 0; else a win chance: 1 / ½ / 0 for a won / shared / lost game once it is over (the scoring's
    winners, the tiebreaker included), :func:`win_chance` of the margin before."""
    if width <= 0:
        return margin(sim, me)
    if sim.is_over():
        winners = sim.result().winners
        return 1.0 / len(winners) if me in winners else 0.0
    return win_chance(margin(sim, me), width)


def win_chance(margin: float, width: float) -> float:
    """``σ(margin / width)``: a rated margin read as a chance to win (``width`` points: how uncertain
    the rest of the game leaves the final margin)."""
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, margin / width))))


class DuelAgent(Agent):
    """The two-player Farmini player (spec ``farmini-duel:time=0.2``); see the module.

        Parameters: ``time`` (CPU seconds per decision, default 0.2; none: ``worlds`` worlds),
        ``worlds`` (most sampled worlds per decision, default 64), ``edge`` (points by which a card must
        beat greedy's card on the sampled worlds to replace it, default 0), ``plies`` (1: the other's
        reply; 2: the other's reply and this player's next take), ``place`` (1: play the taken card as
    the evaluation's lookahead would, default; 0: as the greedy agent would), ``exact`` (1: with
    ``place=1``, a fence card's placements rated the greedy agent's way, best first by the
    lookahead, while :data:`EXACT_SHARE` of the budget lasts; default 0), ``width`` (points > 0:
    each world's margin is read as a win chance :func:`win_chance` before the mean; default 0,
    the margin itself), ``endgame`` (1: with at most one card in the deck, the exact best take of
    :mod:`endgame` while the budget lasts; default 0), ``playout`` (N ≥ 1: each world rated after
    N fast turns of both players, :func:`playout.rollout_margin`, instead of the greedy reply;
    default 0).
    """

    name = "farmini-duel"

    def __init__(
        self,
        seed: int | None = None,
        time: float | None = DEFAULT_TIME,
        worlds: int = DEFAULT_WORLDS,
        edge: float = 0.0,
        plies: int = 1,
        place: int = 1,
        exact: int = 0,
        width: float = 0.0,
        endgame: int = 0,
        playout: int = 0,
    ) -> None:
        _check_params(time, worlds, edge, plies, place)
        if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 <= width < math.inf:
            raise ValueError(f"farmini-duel: width must be a number of points of at least 0, got {width!r}")
        if isinstance(exact, bool) or exact not in (0, 1):
            raise ValueError(f"farmini-duel: exact must be 0 or 1 (placements rated exactly), got {exact!r}")
        if isinstance(endgame, bool) or endgame not in (0, 1):
            raise ValueError(f"farmini-duel: endgame must be 0 or 1 (the last takes solved exactly), got {endgame!r}")
        if isinstance(playout, bool) or not isinstance(playout, int) or playout < 0:
            raise ValueError(f"farmini-duel: playout must be a whole number of turns >= 0, got {playout!r}")
        params: dict[str, Any] = {}
        if playout:
            params["playout"] = playout
        if endgame:
            params["endgame"] = endgame
        if not place:
            params["place"] = place
        if exact:
            params["exact"] = exact
        if worlds != DEFAULT_WORLDS:
            params["worlds"] = worlds
        if edge:
            params["edge"] = edge
        if width:
            params["width"] = width
        if plies != 1:
            params["plies"] = plies
        if time is not None:
            params["time"] = time
        super().__init__(seed, **params)
        self.budget = None if time is None else float(time)
        self.worlds = int(worlds)
        self.edge = float(edge)
        self.plies = int(plies)
        self.width = float(width)
        self.place = bool(place)
        self.exact = bool(exact)
        self.endgame = bool(endgame)
        self.playout = int(playout)
        self.rng = random.Random(seed)
        self.last_rated: dict[Any, float] = {}
        """Mean margin per card at the last take decision it rated (empty: greedy's move)."""
        self.last_worlds = 0
        """Worlds rated at the last take decision."""
        self.last_collect: float | None = None
        """CPU seconds of the last garbage collection this agent made (None: none yet)."""
        self.manage_gc = self.budget is not None and self.budget >= COLLECT_MIN_BUDGET
        """Take decisions pause the automatic collector and collect at their end (see the module)."""

    def act(self, state: State[Any], player: int) -> Any:
        """A take of a two-player game: the card of best margin against the reply; else greedy's move."""
        start = time.process_time()
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        if not isinstance(world, FarminiState) or world.players != 2:
            return legal[greedy_choice(world, player, self.rng)]
        if isinstance(legal[0], Take):
            if not self.manage_gc:
                return self._take(world, player, legal, start)
            with collector_paused():
                return self._take(world, player, legal, start)
        if self.place and world.pending is not None:
            moves = completion_moves(world, player)
            if moves and moves[0] in legal:
                if self.exact and isinstance(moves[0], Place):
                    return self._place_exactly(world, player, legal, moves[0], start)
                return moves[0]
        return legal[greedy_choice(world, player, self.rng)]

    def _place_exactly(self, world: FarminiState, player: int, legal: list[Any], first: Place, start: float) -> Any:
        """``exact=1``: the fence card's placements rated the greedy agent's way (each laid on a copy
        of the position, then ``heuristic``), the lookahead's choice ``first`` and then the others in
        the lookahead's order (:func:`evaluation.placement_order`), until :data:`EXACT_SHARE` of the
        budget has passed; the best rated (ties: the earlier)."""
        allowed = set(legal)
        order = [first, *(move for move in placement_order(world, player) if move != first)]
        stop = math.inf if self.budget is None else start + EXACT_SHARE * self.budget
        best, best_value = first, -math.inf
        for move in order:
            if move is not first and time.process_time() > stop:
                break
            if move not in allowed:
                continue
            child = world.clone()
            child.apply(player, move)
            value = terminal_value(child, player) if child.is_over() else heuristic(child, player)
            if value > best_value:
                best, best_value = move, value
        return best

    def _collect_reserve(self) -> tuple[float, int]:
        """CPU seconds the search leaves at the end of its budget for a garbage collection of the young
        generations, and the generation to collect (1): 1.5 times the last such collection's time in
        this process (:data:`MEASURED`; :data:`FIRST_COLLECT_SHARE` of the budget before one is
        measured), at least :data:`MIN_COLLECT_SHARE` and at most :data:`COLLECT_SHARE` of the budget.
        ``(0, 0)`` when the agent leaves the collector alone."""
        if self.budget is None or not self.manage_gc:
            return 0.0, 0
        last = MEASURED.get(1)
        if last is None:
            young = FIRST_COLLECT_SHARE * self.budget
        else:
            young = max(COLLECT_MARGIN * last, MIN_COLLECT_SHARE * self.budget)
        return min(young, COLLECT_SHARE * self.budget), 1

    def _collect(self, start: float, reserve: float, generation: int) -> None:
        """One timed garbage collection of ``generation`` (see :meth:`_collect_reserve`) when the agent
        manages the collector and the reserve still fits in the budget (the collector is paused
        during the decision; see the module)."""
        if self.budget is None or generation <= 0:
            return
        began = time.process_time()
        if began + reserve > start + self.budget:
            return  # a slow step ate the reserve: the automatic collector runs after the decision
        gc.collect(generation)
        spent = time.process_time() - began
        MEASURED[generation] = spent
        self.last_collect = spent

    def _take(self, world: FarminiState, player: int, legal: list[Any], start: float) -> Any:
        values: dict[Any, float] = {}
        for action in legal:
            child = world.clone()
            child.apply(player, action)
            values[action] = heuristic(child, player)
        top = max(values.values())
        greedy_move = next(a for a in legal if values[a] >= top)  # ties: the first (no random numbers)
        reserve, generation = self._collect_reserve()
        stop = math.inf if self.budget is None else start + STOP_SHARE * self.budget - reserve
        if self.endgame and exact_end.solvable(world):
            try:
                with clock.deadline_at(None if self.budget is None else stop):
                    move = exact_end.best_take(world, player, prefer=greedy_move)
            except clock.OutOfTime:
                move = greedy_move  # the budget is spent: greedy's card
            self._collect(start, reserve, generation)
            return move
        order = sorted(legal, key=lambda a: -values[a])
        sums = dict.fromkeys(order, 0.0)
        rated = 0
        slowest = 0.0
        sampler = random.Random(self.rng.getrandbits(64))
        self.last_rated, self.last_worlds = {}, 0
        cache = fast.PlanCache()
        own = {a: fast.own_moves(world, player, a) for a in order} if self.playout else {}
        for _ in range(self.worlds):
            began = time.process_time()
            if self.budget is not None and began + slowest > min(start + SAFETY * self.budget, stop):
                break
            sample = world.determinize(player, sampler)
            row: list[float] = []
            for action in order:
                if time.process_time() > stop:
                    break
                if self.playout:
                    end = fast.rollout(sample, player, action, self.playout, cache, own[action])
                    row.append(world_value(end, player, self.width))
                else:
                    value = reply_margin(sample, player, action, self.plies)
                    row.append(value if self.width <= 0 else win_chance(value, self.width))
            if len(row) < len(order):
                break  # abandoned: a world counts only when every card was rated on it
            for action, value in zip(order, row, strict=True):
                sums[action] += value
            rated += 1
            slowest = max(slowest, time.process_time() - began)
        del cache
        self._collect(start, reserve, generation)
        if not rated:
            return greedy_move
        means = {a: s / rated for a, s in sums.items()}
        self.last_rated, self.last_worlds = means, rated
        best = max(order, key=lambda a: means[a])  # ties: greedy's order
        if means[best] > means[greedy_move] + self.edge:
            return best
        return greedy_move
