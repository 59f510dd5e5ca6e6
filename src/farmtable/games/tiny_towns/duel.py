"""A Tiny Towns player for 2 or more players: rollouts of the player's own town over a cheap greedy policy.

In a Tiny Towns game with other players a town's score is almost all its own: the others matter
through the resources they name as Master Builder (and a few cards: Feast Hall, the Starloom). So a
move can be rated by playing the player's *own town* on to the end with a cheap base policy while the
other towns stand still and name resources drawn at random (Bertsekas' rollout algorithm, as in the
solo player ``rollout.py``, with the opponents reduced to a stream of named resources).

:class:`DuelAgent` (spec ``tiny-towns-duel:time=0.2,k=4,worlds=3``):

- **Candidates**: the best ``k`` moves by a one-step value. Placing: the own town's estimate
  (``evaluation.estimate``) with the cube on each square (the greedy agent's order). Building: the
  estimate of the board after each build (``done``: the board as it stands). Naming (the Master
  Builder): (resource, square) pairs by the own estimate with the cube there *minus* what the
  resource gives the best other player (their estimate with it on their best square): each resource's
  best pair first. Other decisions (Factory, Bank, Warehouse, monuments ...): the greedy agent's.
- **Worlds**: up to ``worlds`` determinizations (``state.determinize(player, rng)``), each with its own
  stream of resources the others name; the same for every candidate (common random numbers).
- **Rollout** (:func:`play_town`): in a copy, every other town is set aside (it stands still and takes
  no turn); the Master Builder's hat still goes round the table: on an other player's turn the next
  resource of the stream is named, on the own turn the base policy names the (resource, square) pair
  its estimate likes best. The base policy places on the best square by the estimate and builds
  while a build raises the estimate (``done`` otherwise). The rollout ends with the own town complete
  (its final score) or, with ``horizon`` > 0, after that many rounds (the estimate of the town then).
- A candidate's value is its mean rollout result; a name also loses what it gives the best other
  player (above). Ties go to the one-step order.
- **Anytime within a CPU budget**: ``time`` CPU seconds (``time.process_time``) from the moment
  ``act`` is called, less a reserve; a world counts only when every candidate finished in it, and
  with no finished world the first candidate (greedy's order) is played.

**Rival mode** (``rival=1``, tenth session; spec ``tiny-towns-duel:time=0.2,k=4,worlds=4,rival=1``):
the rollout plays *every* town to the end of the game (:func:`play_game`), each with the same base
policy on its own town, and a candidate is rated by the mean of ``margin + win * share``: the own
final score less the best other's, plus ``win`` points for a won game (a shared win split). In two
players the town that is complete first loses about nine games in ten (its owner stops naming, and
the other town gets every resource it asks for until it is full), which a rollout with the other
towns set aside cannot see. ``names`` says who names by the estimate in a rival rollout: 2 (default)
every Master Builder, 1 only the player, 0 nobody (the world's random stream; naming by the estimate
is most of a rollout's cost). A name's ``gift`` is not subtracted in rival mode (the other towns take
it in the rollout).

**Race mode** (``race=1``, fifteenth session; spec ``tiny-towns-duel:time=1.0,race=1,iters=800``): with
2 players the decision is the general search's (``mcts:iters=ITERS,time=TIME``, the same seed) judged
by the completion race's win probability instead of the estimated margin (``race.py``: a logistic model
of both towns' estimates, empty squares, cubes, stranded cubes and who is complete, fitted on 2-player
self-play); with 3 or more players, the rollouts above.

Solo it plays like the solo rollout player (``tiny-towns-rollout`` with the same ``time``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse, old_objects_set_aside
from farmtable.agents.greedy import GreedyAgent
from farmtable.core import State
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.evaluation import best_placement_estimate, estimate
from farmtable.games.tiny_towns.race import RaceSearch
from farmtable.games.tiny_towns.rollout import (
    OutOfTime,
    RolloutAgent,
    check_budget,
    check_param,
    decision_deadline,
)
from farmtable.games.tiny_towns.rules import (
    BUILD,
    DONE,
    KEEP_PHASE,
    NAME_PHASE,
    PLACE,
    PLACE_PHASE,
    Action,
    TinyTownsState,
)

DEFAULT_TIME: Final = 0.2
"""CPU seconds per decision (Normal's budget)."""
DEFAULT_K: Final = 4
"""Candidate moves rated by rollouts."""
DEFAULT_WORLDS: Final = 3
"""Determinizations (each with its own stream of resources named by the others)."""
SAFETY: Final = 0.75
"""Share of the budget the rollouts may use. The rest covers ranking leftovers, returning, and what the
CPU clock shows beyond the deadline on a loaded machine: with 0.85 a 0.2 s decision was seen taking
0.215 s once in about 300 (2 cores shared by six busy processes)."""
RESERVE: Final = 0.04
"""CPU seconds kept free at least (the deadline is checked before every estimate of a rollout)."""
SET_ASIDE: Final = 10**6
"""The completion round given to a town set aside in a rollout (it never acts; it counts as finishing last)."""
MAX_STEPS: Final = 5_000
"""Decisions a rollout may take before it is treated as broken (a town takes about 90)."""
STREAM: Final = 64
"""Resources drawn for the others' names in one world (a game has fewer rounds)."""


@dataclass(frozen=True)
class Candidate:
    """A move to rate: ``action`` now, at a name decision the ``square`` its cube goes on, its one-step
    value ``prior``, and (a name) ``gift``: the best other player's estimate with that resource."""

    action: Action
    square: int = -1
    prior: float = 0.0
    gift: float = 0.0


def _build_grid(grid: list[str], action: Action) -> list[str]:
    """The board after ``action`` (a build) without its effects: cubes used go, the building stands."""
    after = grid[:]
    for sq in action.squares:
        if after[sq] in C.RESOURCES:
            after[sq] = ""
    after[action.target] = action.what
    return after


def _plain(action: Action) -> bool:
    return action.verb == PLACE and not action.squares and not action.other


def _one_step(state: TinyTownsState, me: int, action: Action) -> float:
    """The one-step value of ``me`` playing ``action`` (own estimate; by the board alone where it can)."""
    town = state.towns[me]
    if _plain(action) and not town.grid[action.target]:
        grid = town.grid[:]
        grid[action.target] = action.what
        return estimate(state, me, grid)
    if action.verb == DONE:
        return estimate(state, me)
    if action.verb == BUILD and action.what in C.BUILDINGS:
        return estimate(state, me, _build_grid(town.grid, action))
    child = state.clone()
    child.apply(me, _listed(child, me, action))
    return child.heuristic(me) if not child.is_over() else float(child.result().totals[me])


def name_candidates(state: TinyTownsState, me: int) -> list[Candidate]:
    """Every (resource, square) pair of a name decision, by own estimate with the cube there minus what
    the resource gives the best other player; each resource's best pair first (best first), then the rest."""
    town = state.towns[me]
    grid = town.grid[:]
    empties = [sq for sq, v in enumerate(grid) if not v]
    others = [q for q in range(state.players) if q != me and not state.towns[q].complete]
    out: list[Candidate] = []
    for action in state.legal_actions(me):
        gift = max((best_placement_estimate(state, q, action.what) for q in others), default=0.0)
        if not empties:
            out.append(Candidate(action, -1, estimate(state, me) - gift, gift))
            continue
        for sq in empties:
            grid[sq] = action.what
            out.append(Candidate(action, sq, estimate(state, me, grid) - gift, gift))
            grid[sq] = ""
    out.sort(key=lambda c: -c.prior)
    firsts: dict[str, Candidate] = {}
    for cand in out:
        firsts.setdefault(cand.action.what, cand)
    heads = list(firsts.values())
    return heads + [c for c in out if c not in heads]


def move_candidates(state: TinyTownsState, me: int, deadline: float | None = None) -> list[Candidate]:
    """Every legal move of ``me`` (not a name), best first by its one-step value. When ``deadline`` passes
    (a Warehouse's many moves are rated on copies), the moves not yet rated are left out (never the first)."""
    out: list[Candidate] = []
    for action in state.legal_actions(me):
        if out and deadline is not None and time.process_time() > deadline:
            break
        out.append(Candidate(action, -1, _one_step(state, me, action)))
    out.sort(key=lambda c: -c.prior)
    return out


def set_aside_others(state: TinyTownsState, me: int) -> None:
    """Take every other town out of ``state`` (a copy): it stands still, takes no turn, names nothing."""
    for q, town in enumerate(state.towns):
        if q != me and not town.complete:
            town.completed = SET_ASIDE
            town.choice = None
            town.pending = []
            town.done = True
    state._cache.clear()


def _listed(state: TinyTownsState, player: int, action: Action) -> Action:
    """The object in ``state``'s legal list equal to ``action`` (``apply`` takes its fast path)."""
    legal = state.legal_actions(player)
    return legal[legal.index(action)]


def _on_time(deadline: float | None) -> None:
    """Raise :class:`OutOfTime` when ``deadline`` (a ``process_time`` reading) has passed."""
    if deadline is not None and time.process_time() > deadline:
        raise OutOfTime


def _best_pair(state: TinyTownsState, me: int, deadline: float | None = None) -> tuple[Action, int]:
    """The base policy's name: the (resource, square) pair whose board the own estimate likes best
    (the deadline checked before each resource)."""
    town = state.towns[me]
    grid = town.grid[:]
    best: tuple[Action, int] | None = None
    best_value = float("-inf")
    for action in state.legal_actions(me):
        _on_time(deadline)
        for sq, v in enumerate(town.grid):
            if v:
                continue
            grid[sq] = action.what
            value = estimate(state, me, grid)
            grid[sq] = ""
            if value > best_value:
                best, best_value = (action, sq), value
    if best is None:
        return state.legal_actions(me)[0], -1
    return best


def _best_move(state: TinyTownsState, me: int, legal: list[Action], deadline: float | None = None) -> Action:
    """The base policy's placement, build-step or pending move: the best by its one-step value (the own
    estimate of the board after it; a Warehouse, Factory or monument move on a copy), the deadline
    checked before each move rated; ties to the first."""
    best = legal[0]
    best_value = float("-inf")
    for action in legal:
        _on_time(deadline)
        value = _one_step(state, me, action)
        if value > best_value:
            best, best_value = action, value
    return best


def play_town(
    state: TinyTownsState,
    me: int,
    names: list[str],
    turns: list[int],
    deadline: float | None = None,
    square: int = -1,
    horizon: int = 0,
) -> float:
    """Play ``me``'s town in ``state`` (a copy with the others set aside: :func:`set_aside_others`; changed
    in place) to its end with the base policy; the town's final score (or, ``horizon`` > 0, its estimate
    after that many more rounds).

    ``turns``: who is Master Builder in the coming rounds (seat numbers, the first for the next round;
    repeated cyclically); ``names``: what the others name on their turns, in order (cyclically).
    ``square``: where the cube of the resource just named goes. Raises :class:`OutOfTime` when
    ``deadline`` (a ``process_time`` reading) passes, checked before each decision.
    """
    start_round = state.round
    named = 0
    steps = 0
    while not state.is_over():
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"a Tiny Towns town rollout did not end after {MAX_STEPS} decisions")
        _on_time(deadline)
        phase = state.phase
        if phase == NAME_PHASE:
            done_rounds = state.round - start_round
            if horizon and done_rounds >= horizon:
                return estimate(state, me)
            master = turns[(done_rounds - 1) % len(turns)] if turns else me
            if master != me:
                state._name(master, names[named % len(names)])
                state._cache.clear()
                named += 1
                square = -1
                continue
            action, square = _best_pair(state, me, deadline)
            state.apply(me, _listed(state, me, action))
            continue
        legal = state.legal_actions(me)
        if not legal:
            raise RuntimeError(f"a Tiny Towns town rollout is stuck in the {phase} step")
        if len(legal) == 1:
            action = legal[0]
        elif phase == PLACE_PHASE and square >= 0 and Action(PLACE, state.named, target=square) in legal:
            action = Action(PLACE, state.named, target=square)
        else:
            action = _best_move(state, me, legal, deadline)
        square = -1
        state.apply(me, _listed(state, me, action))
    return float(state.result().totals[me])


def play_game(
    state: TinyTownsState,
    me: int,
    deadline: float | None = None,
    square: int = -1,
    stream: list[str] | None = None,
    namers: frozenset[int] | None = None,
) -> tuple[float, float]:
    """Play every town in ``state`` (a copy; changed in place) to the end of the game with the base policy;
    ``me``'s margin over the best other town and ``me``'s share of the win (1, a shared win split, or 0).

    Every player plays the base policy of :func:`play_town` on their own town: the Master Builder names
    the (resource, square) pair its own estimate likes best and puts that cube there, every town places
    on its best square and builds while a build raises its estimate. ``square``: where ``me``'s cube of
    the resource just named goes. ``stream`` and ``namers``: a Master Builder not in ``namers`` (default:
    every player) names the next resource of ``stream`` (cyclically) instead, which costs no estimate
    (naming by the estimate rates every resource on every empty square: most of a rollout's cost).
    Raises :class:`OutOfTime` when ``deadline`` passes (checked before each decision and each estimate
    of a name)."""
    squares = [-1] * state.players
    named = 0
    if state.phase == PLACE_PHASE:
        squares[me] = square
    steps = 0
    while not state.is_over():
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"a Tiny Towns game rollout did not end after {MAX_STEPS} decisions")
        _on_time(deadline)
        phase = state.phase
        p = state.actors()[0]
        if phase == NAME_PHASE:
            if stream and namers is not None and p not in namers:
                legal = state.legal_actions(p)
                want = stream[named % len(stream)]
                named += 1
                action = next((a for a in legal if a.what == want), legal[0])
                squares[p] = -1
            else:
                action, squares[p] = _best_pair(state, p, deadline)
            state.apply(p, _listed(state, p, action))
            continue
        legal = state.legal_actions(p)
        if not legal:
            raise RuntimeError(f"a Tiny Towns game rollout is stuck in the {phase} step")
        if len(legal) == 1:
            action = legal[0]
        elif phase == PLACE_PHASE and squares[p] >= 0 and Action(PLACE, state.named, target=squares[p]) in legal:
            action = Action(PLACE, state.named, target=squares[p])
        else:
            action = _best_move(state, p, legal, deadline)
        if phase == PLACE_PHASE:
            squares[p] = -1
        state.apply(p, _listed(state, p, action))
    result = state.result()
    best_other = max(t for q, t in enumerate(result.totals) if q != me)
    share = 1.0 / len(result.winners) if me in result.winners else 0.0
    return float(result.totals[me] - best_other), share


def master_turns(state: TinyTownsState, me: int) -> list[int]:
    """Who names in the rounds after this one, in order (one lap of the table from the next Master Builder).

    The hat passes left among the towns still building; towns already complete never name again."""
    if state.town_hall or state.mb < 0:
        return []
    still = [p for p in range(state.players) if not state.towns[p].complete]
    if me not in still:
        return [me]
    at = still.index(state.mb) if state.mb in still else 0
    return [still[(at + i) % len(still)] for i in range(1, len(still) + 1)]


class DuelAgent(Agent):
    """Tiny Towns with 2+ players: rates the ``k`` best moves by rollouts of the own town (the others set
    aside, naming random resources) in up to ``worlds`` determinizations, within ``time`` CPU seconds.

    Parameters (spec ``tiny-towns-duel:time=0.2,k=4,worlds=3,horizon=0``): ``time`` (CPU seconds per
    decision, > 0), ``k`` (candidates, ≥ 1), ``worlds`` (determinizations, ≥ 1), ``horizon`` (rounds a
    rollout plays before the estimate judges the town; 0, the default: to the end), ``gift`` (≥ 0,
    default 1: how much of what a named resource gives the best other player counts against it),
    ``rival`` (0, the default: the other towns set aside; 1: every town played to the game's end and
    a candidate rated by its margin plus ``win`` (≥ 0, default 0) points per won game), ``names``
    (rival mode: 2, the default, every Master Builder names by the estimate; 1 only the player; 0
    nobody, the world's random stream), ``race`` (0, the default; 1: with 2 players the general search
    ``mcts:iters=ITERS,time=TIME`` judged by the race model's win probability, ``race.py``), ``iters``
    (that search's iterations, default 800), ``ahead`` (0, the default; 1 with ``race=1``: a town that
    still has to place the named resource is judged with it on its best square, so a name is rated by
    what each town can do with it: ``race.pending_grid``). Solo: the solo rollout player with the same ``time``.
    """

    name = "tiny-towns-duel"

    def __init__(
        self,
        seed: int | None = None,
        time: float = DEFAULT_TIME,
        k: int = DEFAULT_K,
        worlds: int = DEFAULT_WORLDS,
        horizon: int = 0,
        gift: float = 1.0,
        rival: int = 0,
        win: float = 0.0,
        names: int = 2,
        race: int = 0,
        iters: int = 800,
        ahead: int = 0,
    ) -> None:
        budget, k, worlds = check_budget(self.name, time, k, worlds)
        check_param(self.name, "horizon", horizon, 0, True)
        check_param(self.name, "gift", gift, 0, False)
        check_param(self.name, "rival", rival, 0, True)
        if rival > 1:
            raise ValueError(
                f"tiny-towns-duel: rival must be 0 (own town only) or 1 (every town played), not {rival!r}"
            )
        check_param(self.name, "win", win, 0, False)
        check_param(self.name, "names", names, 0, True)
        if names > 2:
            raise ValueError(f"tiny-towns-duel: names must be 0, 1 or 2 (who names by the estimate), not {names!r}")
        check_param(self.name, "race", race, 0, True)
        if race > 1:
            raise ValueError(f"tiny-towns-duel: race must be 0 (off) or 1 (the race-judged search), not {race!r}")
        check_param(self.name, "iters", iters, 1, True)
        check_param(self.name, "ahead", ahead, 0, True)
        if ahead > 1 or (ahead and not race):
            raise ValueError(
                f"tiny-towns-duel: ahead must be 0, or 1 with race=1 (pending placements looked at), not {ahead!r}"
            )
        extra: dict[str, Any] = {"race": race, "iters": iters} if race else {}
        if ahead:
            extra["ahead"] = ahead
        super().__init__(
            seed, time=time, k=k, worlds=worlds, horizon=horizon, gift=gift, rival=rival, win=win, names=names, **extra
        )
        self.budget = budget
        self.k = k
        self.worlds = worlds
        self.horizon = horizon
        self.gift = float(gift)
        self.rival = bool(rival)
        self.win = float(win)
        self.names = names
        self.rng = random.Random(seed)
        self.greedy = GreedyAgent(seed)
        self.solo = RolloutAgent(seed, time=self.budget)
        self.race: RaceSearch | None = (
            RaceSearch(seed, iters=iters, time=self.budget, ahead=bool(ahead)) if race else None
        )
        """With ``race``: the race-judged general search that decides in 2-player games."""
        self.last: dict[str, Any] = {}
        """What the last searched decision did (candidates, mean results, worlds finished), for reports and tests."""

    def act(self, state: State[Any], player: int) -> Any:
        """The move whose rollouts end best (the one-step order's first when none finished in time).

        Reads only the game's id, the player count, the legal moves and determinizations."""
        start = time.process_time()
        if state.game.id != "tiny-towns":
            return self.greedy.act(state, player)
        if state.players == 1:
            return self.solo.act(state, player)
        if self.race is not None and state.players == 2:
            self.last = {}
            return self.race.act(state, player)
        deadline = decision_deadline(start, self.budget, SAFETY, RESERVE)
        with old_objects_set_aside():  # first: no full garbage collection of the caches inside the budget
            legal = legal_actions_or_refuse(state, player)
            if len(legal) == 1:
                return legal[0]
            return self._search(state, player, legal, deadline)

    def _search(self, state: State[Any], player: int, legal: list[Any], deadline: float) -> Any:
        """Rate the candidates by rollouts, world after world, until ``deadline``; the best one's action.

        A world cut short by the deadline still counts for the candidates finished in it: the choice is
        among the candidates rated in as many worlds as the first (the same worlds for all of them)."""
        worlds = [state.determinize(player, random.Random(self.rng.getrandbits(64))) for _ in range(self.worlds)]
        streams = []
        for _ in range(self.worlds):
            stream = random.Random(self.rng.getrandbits(64))
            streams.append([stream.choice(C.RESOURCES) for _ in range(STREAM)])
        first = worlds[0]
        if not isinstance(first, TinyTownsState):
            raise TypeError(f"tiny-towns-duel: a determinization of {state.game.id} is not a Tiny Towns state")
        if first.phase == KEEP_PHASE:
            return self.greedy.act(state, player)
        naming = first.phase == NAME_PHASE
        ranked = name_candidates(first, player) if naming else move_candidates(first, player, deadline)
        candidates = ranked[: self.k]
        turns = master_turns(first, player)
        namers = [frozenset(), frozenset({player}), None][self.names]
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        done = 0
        try:
            for world, names in zip(worlds, streams, strict=True):
                if not isinstance(world, TinyTownsState):
                    raise TypeError(f"tiny-towns-duel: a determinization of {state.game.id} is not a Tiny Towns state")
                for i, cand in enumerate(candidates):
                    _on_time(deadline)
                    copy = world.clone()
                    if self.rival:
                        copy.apply(player, _listed(copy, player, cand.action))
                        margin, share = play_game(copy, player, deadline, cand.square, names, namers)
                        totals[i] += margin + self.win * share
                    else:
                        set_aside_others(copy, player)
                        copy.apply(player, _listed(copy, player, cand.action))
                        totals[i] += play_town(copy, player, names, turns, deadline, cand.square, self.horizon)
                    counts[i] += 1
                done += 1
        except OutOfTime:
            pass
        rated = [i for i in range(len(candidates)) if counts[i] and counts[i] == counts[0]]
        gift = 0.0 if self.rival else self.gift  # played out, the other towns take their gifts themselves
        values = [totals[i] / counts[i] - gift * candidates[i].gift for i in rated]
        best = 0
        for i in range(1, len(values)):
            if values[i] > values[best]:
                best = i
        self.last = {
            "worlds": done,
            "rated": len(rated),
            "values": values,
            "candidates": [(str(c.action), c.square, c.prior) for c in candidates],
            "chosen": best,
        }
        return legal[legal.index(candidates[best].action)]


__all__ = [
    "Candidate",
    "DuelAgent",
    "OutOfTime",
    "master_turns",
    "move_candidates",
    "name_candidates",
    "play_game",
    "play_town",
    "set_aside_others",
]
