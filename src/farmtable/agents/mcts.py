"""The search core: information-set MCTS judged by each game's own evaluation (spec ``mcts``).

Like :mod:`farmtable.agents.ismcts` it plans only on ``state.determinize(player, rng)``: each
iteration samples a world the searching player cannot tell from the real one and walks one
shared tree down it (children keyed by move notation, UCB with availability counts). What is
new, following the issue "Computer players worth playing":

- **One reward scale per search.** Every leaf, finished or not, is mapped to [0, 1] by one
  transform fixed when the search starts (:class:`RewardScale`), never by bounds that drift.
  Several players: a logistic of the margin over the best opponent, ``σ(margin / width)``, for
  ``state.evaluate()`` estimates and final totals alike; a finished game adds a winner's bonus of
  ``WIN_BONUS`` widths (a shared first place adds none), so a win outweighs any estimate. Solo:
  ``σ((solo_score - centre) / width)`` with the centre the root's own estimate, so the search
  prefers moves that beat its expectation (``Result.solo_score`` is the game's real objective:
  the margin over Emma, fewest turns, or the score).
- **Leaf evaluation.** ``depth=0`` (the default) judges a new leaf by ``evaluate()`` at once;
  ``depth=N`` plays ``N`` rollout decisions first; ``depth=end`` plays to the end.
- **Progressive bias and widening at every node.** The first time the search leaves a node it
  rates each legal move by the evaluation one move ahead (in that world), expands moves best
  first, adds ``bias * prior / (visits + 1)`` to their UCB score, and considers only the best
  ``ceil(widen * visits ** alpha)`` of them (``widen=0``: all of them).
- **Informed rollouts.** ``rollout=sample`` (the default) plays, at each step, the best of ``k``
  random legal moves by the evaluation; ``greedy`` the best of all; ``random`` any.
- **Subtree reuse.** After its own move, if the player must decide again before anything is
  revealed (a compound turn: place, then build, then done), the next search starts from the
  child it just chose, recognised by the player's view of the position.
- **Chance** stays inside ``apply`` (open loop): a node averages over dice and draws, which is
  the grouped-chance-node view of expectimax; the game's ``evaluate()`` may itself average over
  chance exactly (Farmers Finances' solver does).
- **A CPU-time budget.** ``time=S`` is CPU seconds of this process (``time.process_time``) from
  the moment the decision is asked for. The search's deadline leaves ``TIME_MARGIN`` of the budget
  and the time the last decision needed after its search; it does not start an iteration, or a
  node's next move rating, as slow as the slowest one so far if that would pass the deadline (the
  first iteration and a node's first rating always run). Python's full garbage collections (50-65 ms with
  Farmini's caches) are kept out of the search (:func:`farmtable.agents.base.old_objects_set_aside`)
  and the games' caches forget one entry at a time (:class:`farmtable.core.memo.BoundedCache`), so
  no single pause lands inside a search. The deadline is also set for the games' evaluations
  (:mod:`farmtable.core.clock`): one whose cost varies a lot (Farmerama's turn completion) gives a
  cheaper estimate once it has passed. The game's one-off start-up (the first ``evaluate()`` of
  a process: imports, tables) is paid by :func:`farmtable.agents.base.warm_up` before the clock
  starts, once per process and game.

Parameters (spec ``mcts:time=1``, ``mcts:iters=400,depth=3,rollout=random``): ``iters``,
``time``, ``c`` (UCB exploration, default 0.35), ``bias`` (1.0), ``widen`` (2.0), ``alpha`` (0.5),
``virtual`` (0: the one-move-ahead prior counts as this many visits of its value in a move's mean,
so a small search keeps to the evaluation until its samples outweigh it),
``depth`` (0), ``rollout`` (``sample``), ``k`` (3), ``width`` (0: automatic: ``max(2.5, 10 % of
the root estimate)``), ``reuse`` (1), ``value`` (``evaluate``; ``heuristic`` judges positions by the
games' older per-player heuristics instead, for comparison), ``rate`` (0: rate every move of a node
at once; N: at most N new moves per visit, for nodes with very many moves; not yet measured),
``chance`` (0: open loop, every die result below a move shares one subtree; 1: closed loop, the
subtree below a move is keyed by the searching player's view after it, so the moves after a
reroll or a revealed card can depend on what it showed; subtree reuse is off with it; session 5,
not yet accepted: see benchmarks/ai/ladder.md).
"""

from __future__ import annotations

import json
import math
import random
import time as _time
from typing import Any

from farmtable.agents.base import Agent, legal_actions_or_refuse, old_objects_set_aside, register_agent, warm_up
from farmtable.agents.ismcts import MoveStat
from farmtable.core import Result, State, clock

DEFAULT_ITERS = 400
DEFAULT_C = 0.35
DEFAULT_BIAS = 1.0
DEFAULT_WIDEN = 2.0
DEFAULT_ALPHA = 0.5
DEFAULT_K = 3
MIN_WIDTH = 2.5
"""The narrowest reward width, in points of the game's own result."""
RELATIVE_WIDTH = 0.1
"""The automatic width as a share of the root's estimated result (when that is larger)."""
WIN_BONUS = 2.0
"""Widths of margin a finished game adds for the sole winner (and takes off every loser)."""
ROLLOUT_STEP_CAP = 20_000
ROLLOUTS = ("random", "sample", "greedy")
VALUES = ("evaluate", "heuristic")
UNRATED = -1.0
"""The sort key of a move not rated yet (priors are rewards in [0, 1], so it ranks last)."""
TIME_MARGIN = 0.03
"""Share of a ``time`` budget the search leaves unused, so a decision stays within its budget."""
KEEP_SAMPLES = 3
"""Sampled worlds whose views after the chosen move may match the next decision (subtree reuse)."""


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


class RewardScale:
    """The one transform from game values to rewards in [0, 1] used throughout a search.

    >>> s = RewardScale(players=2, centre=0.0, width=5.0)
    >>> [round(r, 3) for r in s.of_values([30.0, 25.0])]
    [0.731, 0.269]
    >>> solo = RewardScale(players=1, centre=-15.0, width=2.0)
    >>> solo.of_values([-15.0])
    [0.5]
    """

    __slots__ = ("centre", "players", "width")

    def __init__(self, players: int, centre: float, width: float) -> None:
        if width <= 0:
            raise ValueError(f"the reward width must be positive, got {width!r}")
        self.players = players
        self.centre = centre
        self.width = width

    def of_values(self, values: list[float]) -> list[float]:
        """Rewards of an estimated position (``State.evaluate()``), one per player."""
        w = self.width
        if self.players == 1:
            return [_sigmoid((values[0] - self.centre) / w)]
        if self.players == 2:
            m = (values[0] - values[1]) / w
            return [_sigmoid(m), _sigmoid(-m)]
        out = []
        for p, v in enumerate(values):
            other = max(x for q, x in enumerate(values) if q != p)
            out.append(_sigmoid((v - other) / w))
        return out

    def of_result(self, result: Result) -> list[float]:
        """Rewards of a finished game: the same transform of the final margin, plus the winner's bonus."""
        if self.players == 1:
            return [_sigmoid((result.solo_score - self.centre) / self.width)]
        totals = result.totals
        winners = result.winners
        bonus = WIN_BONUS * self.width
        out = []
        for p, t in enumerate(totals):
            margin = float(t - max(x for q, x in enumerate(totals) if q != p))
            if p in winners:
                margin = max(margin, 0.0) + (bonus if len(winners) == 1 else 0.0)
            else:
                margin = min(margin, 0.0) - bonus
            out.append(_sigmoid(margin / self.width))
        return out

    def of_state(self, world: State[Any]) -> list[float]:
        """Rewards of any position: final result if the game is over, else its evaluation."""
        if world.is_over():
            return self.of_result(world.result_totals())
        return self.of_values(self.estimate(world))

    def estimate(self, world: State[Any]) -> list[float]:
        """The values this scale judges an unfinished position by: ``world.evaluate()``."""
        return world.evaluate()


class HeuristicScale(RewardScale):
    """A reward scale that judges unfinished positions by each player's ``heuristic`` (``value=heuristic``).

    The old heuristics are not on the result's scale; this exists to compare against them.
    """

    __slots__ = ()

    def estimate(self, world: State[Any]) -> list[float]:
        """Each player's ``world.heuristic(p)``."""
        return [world.heuristic(p) for p in range(world.players)]


class Node:
    """One node of the tree: the statistics of the move into it, its children and their priors."""

    __slots__ = ("avail", "children", "mover", "outcomes", "priors", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the player who made the move into this node (-1 at the root)
        self.visits = 0
        self.total = 0.0  # summed reward of ``mover``
        self.avail = 1  # how often this move was available when its parent was left
        self.children: dict[str, Node] = {}
        self.priors: dict[str, float] | None = None  # move notation -> reward one move ahead, for the mover
        self.outcomes: dict[str, Node] | None = None  # ``chance=1``: what the searcher saw after this move -> subtree


class MctsAgent(Agent):
    """ISMCTS with one reward scale, evaluation at the leaves, priors and widening at every node."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        iters: int | None = None,
        time: float | None = None,
        c: float = DEFAULT_C,
        bias: float = DEFAULT_BIAS,
        widen: float = DEFAULT_WIDEN,
        alpha: float = DEFAULT_ALPHA,
        depth: int | str = 0,
        rollout: str = "sample",
        k: int = DEFAULT_K,
        width: float = 0.0,
        reuse: int = 1,
        value: str = "evaluate",
        rate: int = 0,
        virtual: float = 0.0,
        chance: int = 0,
    ) -> None:
        given = {
            "iters": iters,
            "time": time,
            "c": None if c == DEFAULT_C else c,
            "bias": None if bias == DEFAULT_BIAS else bias,
            "widen": None if widen == DEFAULT_WIDEN else widen,
            "alpha": None if alpha == DEFAULT_ALPHA else alpha,
            "depth": depth or None,
            "rollout": None if rollout == "sample" else rollout,
            "k": None if k == DEFAULT_K else k,
            "width": width or None,
            "reuse": None if reuse == 1 else reuse,
            "value": None if value == "evaluate" else value,
            "rate": rate or None,
            "virtual": virtual or None,
            "chance": chance or None,
        }
        super().__init__(seed, **{key: v for key, v in given.items() if v is not None})
        if iters is not None and (isinstance(iters, bool) or not isinstance(iters, int) or iters < 1):
            raise ValueError(f"iters must be a positive whole number, got {iters!r}")
        if time is not None and (isinstance(time, bool) or not isinstance(time, int | float) or time <= 0):
            raise ValueError(f"time must be a positive number of CPU seconds, got {time!r}")
        for label, number in (
            ("c", c),
            ("bias", bias),
            ("widen", widen),
            ("alpha", alpha),
            ("width", width),
            ("virtual", virtual),
        ):
            if isinstance(number, bool) or not isinstance(number, int | float) or number < 0:
                raise ValueError(f"{label} must be a number of 0 or more, got {number!r}")
        if depth != "end" and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
            raise ValueError(f"depth must be a whole number of rollout decisions or 'end', got {depth!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive whole number of sampled moves, got {k!r}")
        if value not in VALUES:
            raise ValueError(f"value must be one of {', '.join(VALUES)}, got {value!r}")
        if isinstance(rate, bool) or not isinstance(rate, int) or rate < 0:
            raise ValueError(f"rate must be a whole number of moves to rate per visit (0: all), got {rate!r}")
        if reuse not in (0, 1):
            raise ValueError(f"reuse must be 0 or 1, got {reuse!r}")
        if chance not in (0, 1):
            raise ValueError(f"chance must be 0 or 1, got {chance!r}")
        self.iters = iters if iters is not None or time is not None else DEFAULT_ITERS
        self.time = float(time) if time is not None else None
        self._deadline: float | None = None
        """The CPU-clock reading at which the search in progress must stop (None: no time budget)."""
        self.c = float(c)
        self.bias = float(bias)
        self.widen = float(widen)
        self.alpha = float(alpha)
        self.depth = ROLLOUT_STEP_CAP if depth == "end" else int(depth)
        self.rollout = rollout
        self.k = k
        self.width = float(width)
        self.reuse = bool(reuse)
        self.value = value
        self.rate = rate
        self.virtual = float(virtual)
        self.chance = bool(chance)
        self.rng = random.Random(seed)
        self.last_iterations = 0
        self.last_cpu = 0.0
        self.last_reused = 0
        self.last_warm = 0.0
        """CPU seconds the last search spent warming the game up (outside its clock; 0 when warm)."""
        self._kept: tuple[int, set[str], Node, RewardScale] | None = None
        self._slowest_rating = 0.0
        """CPU seconds of the slowest move rating of the search in progress (a rating that could
        overrun the deadline is not started)."""
        self._after_search = 0.0
        """CPU seconds the last decision spent after its search (kept back from the next budget)."""
        self._scale_in_use = RewardScale(1, 0.0, MIN_WIDTH)

    # --- the agent -----------------------------------------------------------------

    def act(self, state: State[Any], player: int) -> Any:
        """The root move the search visited most."""
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        stats = self.analyze(state, player)
        by_notation = {str(a): a for a in legal}
        return by_notation[stats[0].notation]

    def analyze(self, state: State[Any], player: int) -> list[MoveStat]:
        """Search from ``player``'s point of view; the root moves, the chosen one first.

        ``value`` is the mean reward of the move for ``player`` in [0, 1]: with several players a
        win-probability-like number, solo the chance-like share of beating the root's estimate.
        """
        began = _time.process_time()
        legal = [str(a) for a in state.legal_actions(player)]
        with old_objects_set_aside():
            root, _ = self._search(state, player, began)
        after = _time.process_time()
        priors = root.priors or {}
        stats = []
        for key in legal:
            node = root.children.get(key)
            visits = node.visits if node else 0
            stats.append(MoveStat(key, visits, node.total / node.visits if node and node.visits else 0.0))
        if self.virtual:
            stats.sort(key=lambda s: (-self._blended(root, s.notation), -s.visits))
        else:
            stats.sort(key=lambda s: (-s.visits, -s.value, -priors.get(s.notation, 0.0)))
        self._keep(root, state, player, stats[0].notation)
        self._after_search = _time.process_time() - after
        return stats

    def _blended(self, root: Node, key: str) -> float:
        """A root move's mean reward with its prior counted as ``virtual`` visits (-1: never seen)."""
        node = root.children.get(key)
        prior = (root.priors or {}).get(key)
        visits = node.visits if node else 0
        total = node.total if node else 0.0
        if prior is None:
            return total / visits if visits else UNRATED
        return (total + self.virtual * prior) / (visits + self.virtual)

    # --- the search ----------------------------------------------------------------

    def _world(self, state: State[Any], player: int) -> State[Any]:
        return state.determinize(player, random.Random(self.rng.getrandbits(64)))

    def _search(self, state: State[Any], player: int, start: float | None = None) -> tuple[Node, State[Any]]:
        """Search from ``player``'s point of view; the clock started at ``start`` (now if None) and
        leaves the time the last decision spent after its search (ranking, keeping the subtree)."""
        start = _time.process_time() if start is None else start
        first = self._world(state, player)
        # the game's one-off start-up (its evaluation's imports and tables) is not this decision's
        # thinking: paid once per process, outside the clock (see base.warm_up)
        self.last_warm = warm_up(first)
        start += self.last_warm
        root, scale = self._reused_root(first, player)
        self.last_reused = root.visits
        self._scale_in_use = scale
        budget = self.iters
        # the search's share of the decision: the budget less a margin for an iteration slower than
        # the slowest so far and the time the last decision needed after its search
        limit = None if self.time is None else max(self.time / 2, self.time * (1 - TIME_MARGIN) - self._after_search)
        self._deadline = None if limit is None else start + limit
        self._slowest_rating = 0.0
        done = 0
        slowest = 0.0
        world: State[Any] | None = first.clone()
        # the games' evaluations see the deadline too (core.clock): one whose cost varies a lot
        # gives a cheaper estimate rather than carry the decision past its budget
        with clock.deadline_at(self._deadline):
            while True:
                if budget is not None and done >= budget:
                    break
                began = _time.process_time()
                if limit is not None and done > 0 and began - start + slowest > limit:
                    break  # the next iteration could overrun: stop as soon as the slowest one so far would
                if world is None:
                    world = self._world(state, player)
                self._iterate(root, world, player, scale)
                world = None
                done += 1
                slowest = max(slowest, _time.process_time() - began)
        self._deadline = None
        self.last_iterations = done
        self.last_cpu = _time.process_time() - start
        return root, first

    def _scale(self, world: State[Any]) -> RewardScale:
        """The reward scale of a search from ``world``: fixed before the first iteration."""
        kind = HeuristicScale if self.value == "heuristic" else RewardScale
        probe = kind(world.players, 0.0, 1.0)
        if world.is_over():
            result = world.result_totals()
            values = [float(result.solo_score)] if world.players == 1 else [float(t) for t in result.totals]
        else:
            values = probe.estimate(world)
        centre = values[0] if world.players == 1 else 0.0
        width = self.width or max(MIN_WIDTH, RELATIVE_WIDTH * max(abs(v) for v in values))
        return kind(world.players, centre, width)

    def _priors(
        self,
        node: Node,
        world: State[Any],
        mover: int,
        legal: list[Any],
        keys: list[str],
        scale: RewardScale,
        cache: dict[str, list[float]],
    ) -> dict[str, float]:
        """The node's priors (each move's reward one move ahead, for ``mover``), rating moves new to it.

        With ``rate=N`` at most N unrated moves are rated per visit (in random order), so a node with
        many moves is rated progressively; unrated moves rank after every rated one.
        """
        priors = node.priors
        if priors is None:
            priors = node.priors = {}
        todo = [i for i, key in enumerate(keys) if key not in priors]
        if self.rate and len(todo) > self.rate:
            todo = self.rng.sample(todo, self.rate)
        deadline = self._deadline
        for n, i in enumerate(todo):
            if deadline is not None:
                now = _time.process_time()
                if n and now + self._slowest_rating > deadline:
                    break  # out of time: the moves not rated yet rank after the rated ones
            child = world.clone()
            child._do(mover, legal[i])
            rewards = scale.of_state(child)
            cache[keys[i]] = rewards
            priors[keys[i]] = rewards[mover]
            if deadline is not None:
                self._slowest_rating = max(self._slowest_rating, _time.process_time() - now)
        return priors

    def _iterate(self, root: Node, world: State[Any], player: int, scale: RewardScale) -> None:
        rng = self.rng
        path = [root]
        node = root
        informed = self.bias > 0 or self.widen > 0 or self.virtual > 0
        rewards: list[float] | None = None
        while True:
            if world.is_over():
                rewards = scale.of_result(world.result_totals())
                break
            actors = world.actors()
            mover = player if node is root and player in actors else min(actors)
            legal = world.legal_actions(mover)
            keys = [str(a) for a in legal]
            cache: dict[str, list[float]] = {}
            priors = self._priors(node, world, mover, legal, keys, scale, cache) if informed else None
            order = list(range(len(keys)))
            if priors is not None:
                ranked = priors
                order.sort(key=lambda i: -ranked.get(keys[i], UNRATED))
                if self.widen > 0:
                    order = order[: max(1, math.ceil(self.widen * (node.visits + 1) ** self.alpha))]
            children = node.children
            untried = -1
            best_i = -1
            best_score = -math.inf
            for i in order:
                child = children.get(keys[i])
                if child is None:
                    if untried < 0:
                        untried = i
                    continue
                child.avail += 1
            if untried >= 0:
                if priors is None and len(order) > 1:
                    fresh = [i for i in order if keys[i] not in children]
                    untried = fresh[rng.randrange(len(fresh))]
                key = keys[untried]
                child = Node(mover)
                children[key] = child
                path.append(child)
                if self.depth == 0 and key in cache:
                    rewards = cache[key]
                    break
                world._do(mover, legal[untried])
                self._rollout(world, scale)
                rewards = scale.of_state(world)
                break
            c = self.c
            bias = self.bias
            virtual = self.virtual
            for i in order:
                child = children[keys[i]]
                explore = c * math.sqrt(math.log(child.avail) / child.visits)
                prior = priors.get(keys[i]) if priors is not None else None
                if virtual and prior is not None:  # the prior counts as ``virtual`` visits of its value
                    score = (child.total + virtual * prior) / (child.visits + virtual) + explore
                else:
                    score = child.total / child.visits + explore
                if prior is not None and bias:
                    score += bias * prior / (child.visits + 1)
                if score > best_score:
                    best_score, best_i = score, i
            world._do(mover, legal[best_i])
            node = children[keys[best_i]]
            path.append(node)
            if self.chance:  # closed loop: the subtree below a move depends on what the searcher then sees
                seen = repr(world.view(player))
                outcomes = node.outcomes
                if outcomes is None:
                    outcomes = node.outcomes = {}
                after = outcomes.get(seen)
                if after is None:
                    after = outcomes[seen] = Node(-1)
                node = after
                path.append(node)
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.total += rewards[n.mover]

    def _rollout(self, world: State[Any], scale: RewardScale) -> None:
        rng = self.rng
        steps = 0
        while steps < self.depth and not world.is_over():
            mover = world.actors()[0]
            legal = world.legal_actions(mover)
            n = len(legal)
            if n == 1:
                world._do(mover, legal[0])
            elif self.rollout == "random":
                world._do(mover, legal[rng.randrange(n)])
            else:
                picks = range(n) if self.rollout == "greedy" or n <= self.k else rng.sample(range(n), self.k)
                best, best_value = legal[0], -math.inf
                for i in picks:
                    child = world.clone()
                    child._do(mover, legal[i])
                    value = scale.of_state(child)[mover]
                    if value > best_value:
                        best, best_value = legal[i], value
                world._do(mover, best)
            steps += 1

    # --- subtree reuse -------------------------------------------------------------

    @staticmethod
    def _view_key(world: State[Any], player: int) -> str:
        return json.dumps(world.view(player), sort_keys=True, default=str)

    def _keep(self, root: Node, state: State[Any], player: int, chosen: str) -> None:
        """Keep the chosen move's subtree if this player decides right after it (a compound turn).

        The subtree is open loop (it averages over chance), so it stays valid whatever a die or a
        card turns up; it is recognised by the player's view of the position after the move, as
        seen in a few sampled worlds (a deterministic move has one such view).
        """
        self._kept = None
        child = root.children.get(chosen)
        if not self.reuse or self.chance or child is None or not child.children:
            return
        views: set[str] = set()
        for _ in range(KEEP_SAMPLES):
            after = self._world(state, player)
            action = next(a for a in after.legal_actions(player) if str(a) == chosen)
            after._do(player, action)
            if after.is_over() or after.actors() != [player]:
                return
            views.add(self._view_key(after, player))
        self._kept = (player, views, child, self._scale_in_use)

    def _reused_root(self, world: State[Any], player: int) -> tuple[Node, RewardScale]:
        """The kept subtree and its reward scale if ``world`` is the position it was kept for, else a new root."""
        kept, self._kept = self._kept, None
        if (
            kept is not None
            and kept[0] == player
            and world.actors() == [player]
            and self._view_key(world, player) in kept[1]
        ):
            root = kept[2]
            root.mover = -1
            return root, kept[3]
        return Node(-1), self._scale(world)


register_agent("mcts", MctsAgent)
