"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples a world the searching player cannot tell apart from the real
one (``state.determinize(player, rng)``), walks the one shared tree down that world
with UCT, expands one new move, finishes the game with random (or greedy) play, and
backs the result up. The agent never looks at the real state beyond whose turn it is
and what its own player may do, so hidden cards and other players' secret choices
stay hidden.

How the contract's features map onto the tree:

- **Chance** happens inside ``apply``, from the determinized state's own RNG, so a
  node's children are keyed by action *notation* and re-walked in every world; the
  subset-armed UCB counts how often each child was available.
- **Simultaneous steps**: when several players must decide, the tree lets one of them
  act at a node (the searching player at the root, otherwise the lowest-numbered
  actor) and the others below it. Their choices stay hidden until the step resolves;
  the planning player treats the others as moving after it (a standard simplification).
- **Rewards**: with several players, a win is 1 (shared wins split), else 0, each
  player maximizing its own; a solo game is scored by ``Result.solo_score`` (the total, or
  the game's own objective such as fewest turns), scaled to [0, 1] by the lowest and highest
  seen in this search.

Parameters (spec string ``ismcts:iters=400,rollout=greedy``): ``iters`` iterations per
decision (default 200) or ``time`` seconds per decision; ``c`` the UCT exploration
constant (default 0.7); ``rollout`` ``random`` (default) or ``greedy``; ``depth`` the
number of rollout decisions before the game's heuristic judges the position (0, the
default: play every rollout to the end). A rollout cut short rewards each player with
its heuristic, scaled to [0, 1] by the lowest and highest values seen in this search;
``prior`` the weight of the greedy
agent's one-step evaluation of the root moves (default 1; 0 turns it off): the root
expands its best-looking moves first and adds ``prior * value / (visits + 1)`` to their
UCB score (progressive bias), so a small budget plays at least about as well as greedy
and a large one outgrows it.
"""

from __future__ import annotations

import math
import random
import time as _time
from dataclasses import dataclass
from typing import Any

from farmtable.agents.base import Agent, legal_actions_or_refuse, register_agent
from farmtable.agents.greedy import greedy_choice, terminal_value
from farmtable.core import State

DEFAULT_ITERS = 200
DEFAULT_C = 0.7
DEFAULT_PRIOR = 1.0
ROLLOUT_STEP_CAP = 20_000
"""A rollout that has not ended after this many decisions is scored as it stands (a safety net)."""


class Node:
    """One node of the tree: the statistics of the move that leads here, and its children."""

    __slots__ = ("avail", "children", "mover", "visits", "wins")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the player who made the move into this node
        self.visits = 0
        self.wins = 0.0  # total reward of ``mover``
        self.avail = 1  # how often this move was legal when its parent was visited
        self.children: dict[str, Node] = {}

    def ucb(self, c: float) -> float:
        """The UCB1 score with availability counts (ISMCTS's subset-armed bandit)."""
        return self.wins / self.visits + c * math.sqrt(math.log(self.avail) / self.visits)


@dataclass(frozen=True)
class MoveStat:
    """What the search thinks of one root move: its notation, visits and mean reward."""

    notation: str
    visits: int
    value: float


class IsmctsAgent(Agent):
    """Information-set MCTS: UCT over determinizations, random or greedy rollouts."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iters: int | None = None,
        time: float | None = None,
        c: float = DEFAULT_C,
        rollout: str = "random",
        depth: int = 0,
        prior: float = DEFAULT_PRIOR,
    ) -> None:
        params: dict[str, Any] = {}
        if iters is not None:
            params["iters"] = iters
        if time is not None:
            params["time"] = time
        if c != DEFAULT_C:
            params["c"] = c
        if rollout != "random":
            params["rollout"] = rollout
        if depth:
            params["depth"] = depth
        if prior != DEFAULT_PRIOR:
            params["prior"] = prior
        super().__init__(seed, **params)
        if iters is not None and (not isinstance(iters, int) or iters < 1):
            raise ValueError(f"iters must be a positive whole number, got {iters!r}")
        if time is not None and (not isinstance(time, int | float) or time <= 0):
            raise ValueError(f"time must be a positive number of seconds, got {time!r}")
        if rollout not in ("random", "greedy"):
            raise ValueError(f"rollout must be 'random' or 'greedy', got {rollout!r}")
        self.iters = iters if iters is not None or time is not None else DEFAULT_ITERS
        self.time = float(time) if time is not None else None
        self.c = float(c)
        if not isinstance(depth, int) or depth < 0:
            raise ValueError(f"depth must be a whole number of decisions (0: play to the end), got {depth!r}")
        if not isinstance(prior, int | float) or prior < 0:
            raise ValueError(f"prior must be a weight of 0 or more, got {prior!r}")
        self.rollout = rollout
        self.depth = depth
        self.prior = float(prior)
        self.rng = random.Random(seed)
        self.last_iterations = 0
        self.last_prior: dict[str, float] = {}

    # --- the agent -----------------------------------------------------------------

    def act(self, state: State[Any], player: int) -> Any:
        """The root move visited most often by the search."""
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        stats = self.analyze(state, player)
        best = stats[0].notation
        by_notation = {str(a): a for a in legal}
        return by_notation[best]

    def analyze(self, state: State[Any], player: int) -> list[MoveStat]:
        """Search from ``player``'s point of view; the root moves, most visited first.

        ``value`` is the mean reward of the move for ``player``: the estimated chance of
        winning with several players, a scaled score in a solo game.
        """
        root = self.search(state, player)
        stats = [MoveStat(k, n.visits, n.wins / n.visits if n.visits else 0.0) for k, n in root.children.items()]
        prior = self.last_prior
        stats.sort(key=lambda s: (-s.visits, -prior.get(s.notation, 0.0), -s.value))
        return stats

    # --- the search ----------------------------------------------------------------

    def search(self, state: State[Any], player: int) -> Node:
        """Run the search budget from ``state`` for ``player``; returns the root of the tree."""
        root = Node(mover=-1)
        deadline = None if self.time is None else _time.process_time() + self.time
        root_prior: dict[str, float] = {}
        if self.prior > 0:
            root_prior = self._root_prior(state.determinize(player, random.Random(self.rng.getrandbits(64))), player)
        solo = state.players == 1
        bounds = [math.inf, -math.inf]  # lowest and highest solo total seen
        cut_bounds = [math.inf, -math.inf]  # lowest and highest heuristic seen at a cut-off rollout
        budget = self.iters
        done = 0
        while True:
            if budget is not None and done >= budget:
                break
            if deadline is not None and done > 0 and _time.process_time() >= deadline:
                break
            world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
            self._iterate(root, world, player, solo, bounds, cut_bounds, root_prior)
            done += 1
        self.last_iterations = done
        self.last_prior = root_prior
        return root

    def _root_prior(self, world: State[Any], player: int) -> dict[str, float]:
        """The greedy agent's one-step evaluation of each root move, scaled to [0, 1] (best = 1)."""
        values: dict[str, float] = {}
        for action in world.legal_actions(player):
            child = world.clone()
            child._do(player, action)
            values[str(action)] = terminal_value(child, player) if child.is_over() else child.heuristic(player)
        low, high = min(values.values()), max(values.values())
        span = high - low
        return {k: (v - low) / span if span else 1.0 for k, v in values.items()}

    def _iterate(
        self,
        root: Node,
        world: State[Any],
        player: int,
        solo: bool,
        bounds: list[float],
        cut_bounds: list[float],
        root_prior: dict[str, float],
    ) -> None:
        rng = self.rng
        path = [root]
        node = root
        first = True
        # selection and expansion
        while not world.is_over():
            actors = world.actors()
            mover = player if first else min(actors)
            prior = root_prior if first else None
            first = False
            legal = world.legal_actions(mover)
            children = node.children
            untried = []
            best: Node | None = None
            best_action: Any = None
            best_score = -math.inf
            for action in legal:
                key = str(action)
                child = children.get(key)
                if child is None:
                    untried.append((key, action))
                    continue
                child.avail += 1
                if untried:
                    continue
                score = child.ucb(self.c)
                if prior:
                    score += self.prior * prior.get(key, 0.0) / (child.visits + 1)
                if score > best_score:
                    best_score, best, best_action = score, child, action
            if untried:
                if prior:  # the root expands its moves best-looking first
                    key, action = max(untried, key=lambda u: prior.get(u[0], 0.0))
                else:
                    key, action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = Node(mover)
                children[key] = child
                world._do(mover, action)
                path.append(child)
                break
            assert best is not None
            world._do(mover, best_action)
            path.append(best)
            node = best
        # simulation
        self._rollout(world)
        rewards = self._rewards(world, solo, bounds) if world.is_over() else self._estimate(world, solo, cut_bounds)
        # backpropagation
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.wins += rewards[n.mover]

    def _rollout(self, world: State[Any]) -> None:
        rng = self.rng
        greedy = self.rollout == "greedy"
        cap = self.depth or ROLLOUT_STEP_CAP
        steps = 0
        # ``_do`` is the contract's "carry out an action already known to be legal": every action
        # here comes straight from ``legal_actions`` of the player to act, so ``apply``'s checks
        # (which recompute the legal list) would only repeat themselves.
        while steps < cap and not world.is_over():
            mover = world.actors()[0]
            legal = world.legal_actions(mover)
            if greedy:
                world._do(mover, legal[greedy_choice(world, mover, rng)])
            else:
                world._do(mover, legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])
            steps += 1

    @staticmethod
    def _rewards(world: State[Any], solo: bool, bounds: list[float]) -> list[float]:
        result = world.result_totals()
        if solo:
            total = float(result.solo_score)
            bounds[0] = min(bounds[0], total)
            bounds[1] = max(bounds[1], total)
            span = bounds[1] - bounds[0]
            return [0.5 if span == 0 else (total - bounds[0]) / span]
        rewards = [0.0] * world.players
        winners = result.winners
        for p in winners:
            rewards[p] = 1.0 / len(winners)
        return rewards

    @staticmethod
    def _estimate(world: State[Any], solo: bool, bounds: list[float]) -> list[float]:
        """Rewards of a rollout cut short: each player's heuristic, scaled to [0, 1] by the lowest
        and highest heuristic values seen in this search (so the game's scale does not matter)."""
        values = [world.heuristic(p) for p in range(world.players)]
        bounds[0] = min(bounds[0], *values)
        bounds[1] = max(bounds[1], *values)
        span = bounds[1] - bounds[0]
        return [0.5 if span == 0 else (v - bounds[0]) / span for v in values]


register_agent("ismcts", IsmctsAgent)
