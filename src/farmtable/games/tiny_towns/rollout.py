"""A solo Tiny Towns player that plays whole games ahead: Bertsekas' rollout algorithm over greedy.

Solo Tiny Towns is almost a deterministic puzzle: the picked resource card goes under the deck, so
the card sequence follows from the player's own picks (after 12 picks the whole deck order is
known) and only the order of the never-seen top of the deck is hidden. In a deterministic problem
the *rollout algorithm* (Bertsekas, Tsitsiklis and Wu, "Rollout algorithms for combinatorial
optimization", Journal of Heuristics, 1997)
provably does no worse than its base policy: for each candidate move, play the rest of the game
with the base policy and keep the move whose game ends best.

:class:`RolloutAgent` (spec ``tiny-towns-rollout:time=1.0,k=6,worlds=2``):

- **Candidates**: the best ``k`` moves by the greedy agent's one-step value (the shipped fitted
  evaluation, ``state.heuristic``). At a *name* decision (pick a face-up card) the candidates are
  (card, square) pairs: the card and where its cube goes, ranked by the evaluation of the board with
  the cube on it (what the greedy agent computes for each card), each card's best pair first
  (``spread``); the square chosen is remembered and played at the following *place* decision
  without a new search.
- **Worlds**: up to ``worlds`` determinizations (``state.determinize(player, rng)``; the same ones for
  every candidate: common random numbers); worlds with the same deck are played once (after 12
  picks every world is the same).
- **Base policy** (:func:`play_out`): the greedy agent's choices, computed without copies where
  it can (a card and its square together, from the board alone), ties to the first move; the
  rollout's value is the game's final solo score.
- **Anytime within a CPU budget**: ``time`` CPU seconds (``time.process_time``) from the moment
  ``act`` is called, less a reserve (:data:`SAFETY`, :data:`RESERVE`). A world is used only when
  every candidate has been played in it; a rollout that would pass the deadline stops
  (:class:`OutOfTime`, checked before every base-policy decision) and its world is dropped; with no
  finished world the agent plays greedy's choice (the first candidate). Ties go to greedy's order.

Outside solo Tiny Towns it plays exactly like the greedy agent.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse, old_objects_set_aside
from farmtable.agents.greedy import GreedyAgent, greedy_choice
from farmtable.core import State
from farmtable.games.tiny_towns.evaluation import estimate, solo_model, solo_models
from farmtable.games.tiny_towns.rules import (
    BUILD_PHASE,
    DONE,
    NAME_PHASE,
    PLACE,
    PLACE_PHASE,
    Action,
    TinyTownsState,
    Town,
)

DEFAULT_TIME: Final = 1.0
"""CPU seconds per decision (Expert's budget)."""
DEFAULT_K: Final = 6
"""Candidate moves rated by rollouts."""
DEFAULT_WORLDS: Final = 2
"""Determinizations each candidate is played in (fewer when the deck order is known)."""
SAFETY: Final = 0.95
"""Share of the budget the rollouts may use (the rest covers choosing and returning)."""
RESERVE: Final = 0.03
"""CPU seconds kept free at least: one base-policy decision (a card pick rates every card on every
empty square: up to ~20 ms when none of the boards is cached) may run past the deadline."""
NEAR: Final = 1.0
"""Default ``near``: the polish changes step ``1 + (steps - 1) * u ** near`` of the trajectory (``u``
uniform in [0, 1)): 1 draws every later step alike, more favours the next few (played soon, then fixed)."""
MAX_STEPS: Final = 5_000
"""Decisions a rollout may take before it is treated as broken (a solo game takes about 130)."""


class OutOfTime(Exception):
    """Raised by a rollout (:func:`play_out`; the 2-player ``duel.play_town`` and ``duel.play_game``) when
    its deadline (CPU clock) has passed."""


@dataclass(frozen=True)
class Candidate:
    """A move to rate: ``action`` now, and at a name decision the ``square`` its cube goes on."""

    action: Action
    square: int = -1
    prior: float = 0.0
    """The greedy one-step value (for ranking and reports)."""


@dataclass(frozen=True)
class Step:
    """One decision of a recorded trajectory: the position before it (a copy, never changed), its key
    (:func:`state_key`), the move, and at a card pick the square the card's cube goes on."""

    key: StateKey
    state: TinyTownsState
    action: Action
    square: int = -1


StateKey = tuple[object, ...]
"""A position's key (:func:`state_key`): equal exactly for equal positions."""


def state_key(state: TinyTownsState) -> StateKey:
    """The complete position as a tuple of its fields (the random generator left out: solo play never
    draws from it once the game is dealt), so that two equal positions have the same key.

    The same fields as ``state.to_dict()`` (the saved game) in the same order, without writing them out
    as text: two positions get equal keys exactly when their saves (less the generator) are equal."""
    return (
        state.players,
        state.variants,
        state.buildings,
        state.phase,
        state.round,
        state.mb,
        state.named,
        state.free_round,
        tuple(state.deck),
        tuple(state.discard),
        tuple(state.removed),
        tuple(state.face_up),
        state.unknown,
        state.epoch,
        tuple(_town_key(town) for town in state.towns),
    )


def _town_key(town: Town) -> StateKey:
    """One town's part of :func:`state_key` (the fields its save holds, in its order)."""
    return (
        tuple(town.grid),
        tuple(town.statue),
        tuple((square, tuple(cubes)) for square, cubes in town.stored.items()),
        tuple(town.factory.items()),
        tuple(town.bank.items()),
        tuple(town.cavern),
        tuple(town.dealt),
        town.monument,
        town.built,
        town.shrine_vp,
        tuple(town.opaleye),
        town.mb_turns,
        town.completed,
        tuple(town.pending),
        town.done,
        str(town.choice) if town.choice is not None else None,
    )


def _plain_place(legal: list[Action], resource: str, square: int) -> Action | None:
    """The legal action that puts ``resource`` on ``square`` (the listed object itself), if any."""
    for action in legal:
        if action.verb == PLACE and action.target == square and action.what == resource:
            return action
    return None


def name_candidates(state: TinyTownsState, spread: bool = False) -> list[Candidate]:
    """Every (card, square) pair of a solo name decision, best first by the evaluation of the board
    with that card's cube on that square (greedy's value of naming the card is the best of its pairs).

    ``spread``: each face-up card's best pair first (best card first), then the other pairs by value,
    so that every card is among the candidates of a rollout with ``k`` at least the cards offered."""
    town = state.towns[0]
    grid = town.grid[:]
    empties = [sq for sq, v in enumerate(grid) if not v]
    out: list[Candidate] = []
    for action in state.legal_actions(0):
        if not empties:
            out.append(Candidate(action, -1, estimate(state, 0)))
            continue
        for sq in empties:
            grid[sq] = action.what
            out.append(Candidate(action, sq, estimate(state, 0, grid)))
            grid[sq] = ""
    out.sort(key=lambda c: -c.prior)  # stable: equal values keep the legal order
    if spread:
        firsts: dict[str, Candidate] = {}
        for cand in out:
            firsts.setdefault(cand.action.what, cand)
        heads = list(firsts.values())
        out = heads + [c for c in out if c not in heads]
    return out


def move_candidates(state: TinyTownsState) -> list[Candidate]:
    """Every legal move of player 0, best first by greedy's one-step value (``heuristic`` after it)."""
    out: list[Candidate] = []
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, _listed(child, action))
        value = float(child.result().solo_score) if child.is_over() else child.heuristic(0)
        out.append(Candidate(action, -1, value))
    out.sort(key=lambda c: -c.prior)
    return out


def _base_name(state: TinyTownsState) -> tuple[Action, int]:
    """The base policy's card and square at a name decision (greedy's, ties to the first)."""
    best = name_candidates(state)[0]
    return best.action, best.square


def _base_build(state: TinyTownsState, legal: list[Action]) -> Action:
    """The base policy's build-step move: the best board after it, ``done`` judged as it stands."""
    best: Action = legal[0]
    best_value = float("-inf")
    for action in legal:
        if action.verb == DONE:
            value = estimate(state, 0)
        else:
            child = state.clone()
            child.apply(0, _listed(child, action))
            value = child.heuristic(0)
        if value > best_value:
            best, best_value = action, value
    return best


def play_out(
    state: TinyTownsState,
    deadline: float | None = None,
    square: int = -1,
    record: list[Step] | None = None,
    guide: dict[tuple[int, str, int], Step] | None = None,
) -> int:
    """Play the solo game ``state`` (changed in place) to its end with the base policy; its solo score.

    ``square``: where the cube of the card just named goes (a candidate's square), if the state
    waits for that placement. Raises :class:`OutOfTime` when ``deadline`` (a ``process_time``
    reading) passes, checked before each decision. ``record``: when given, every decision with a
    choice is appended to it (the position before it, a copy, and the move: the game's trajectory).
    ``guide`` (with ``record``): moves of another trajectory by :func:`slot`; at each decision the
    guide's move in the same slot is played when it is legal (a card pick's square too when it is
    still empty), the base policy's otherwise.
    """
    rng = random.Random(0)  # ties in the rare decisions played by ``greedy_choice``
    counts: dict[tuple[int, str], int] = {}
    if guide is not None and record is not None:
        for step in record:
            here = (step.state.round, step.state.phase)
            counts[here] = counts.get(here, 0) + 1
    steps = 0
    while not state.is_over():
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"a Tiny Towns rollout did not end after {MAX_STEPS} decisions")
        if deadline is not None and time.process_time() > deadline:
            raise OutOfTime
        legal = state.legal_actions(0)
        phase = state.phase
        follow: Step | None = None
        if guide is not None and len(legal) > 1:
            here = (state.round, phase)
            follow = guide.get((*here, counts.get(here, 0)))
            counts[here] = counts.get(here, 0) + 1
            if follow is not None and follow.action not in legal:
                follow = None
        if len(legal) == 1:
            action = legal[0]
        elif phase == NAME_PHASE:
            if follow is not None:
                action = follow.action
                square = follow.square if follow.square >= 0 and not state.towns[0].grid[follow.square] else -1
            else:
                action, square = _base_name(state)
            if record is not None:
                record.append(Step(state_key(state), state.clone(), action, square))
            state.apply(0, _listed(state, action))
            continue
        elif phase == PLACE_PHASE and square >= 0:
            planned = _plain_place(legal, state.named, square)
            action = planned if planned is not None else legal[greedy_choice(state, 0, rng)]
        elif follow is not None:
            action = follow.action
        elif phase == BUILD_PHASE and all(a.verb in ("build", DONE) for a in legal):
            action = _base_build(state, legal)
        else:
            action = legal[greedy_choice(state, 0, rng)]
        square = -1
        if record is not None and len(legal) > 1:
            record.append(Step(state_key(state), state.clone(), action))
        state.apply(0, _listed(state, action))  # the listed object: ``apply`` skips its legality check
    return int(state.result().solo_score)


def slots(steps: list[Step]) -> dict[tuple[int, str, int], Step]:
    """A trajectory's moves by slot: (round, phase, how many decisions of that round and phase came
    before it in the trajectory), the places :func:`play_out` follows a guide by."""
    counts: dict[tuple[int, str], int] = {}
    out: dict[tuple[int, str, int], Step] = {}
    for step in steps:
        here = (step.state.round, step.state.phase)
        n = counts.get(here, 0)
        counts[here] = n + 1
        out[(*here, n)] = step
    return out


def check_param(agent: str, name: str, value: Any, low: float, whole: bool) -> None:
    """Refuse a parameter of ``agent`` (its spec name) that is not a number (``whole``: an int) of at least
    ``low``, with a message that names the parameter (``bool`` is refused: ``True`` is not a count)."""
    kind_ok = isinstance(value, int) if whole else isinstance(value, (int, float))
    if isinstance(value, bool) or not kind_ok or not value >= low:
        what = "a whole number" if whole else "a number"
        raise ValueError(f"{agent}: {name} must be {what} of at least {low:g}, not {value!r}")


def check_budget(agent: str, time_budget: Any, k: Any, worlds: Any) -> tuple[float, int, int]:
    """The parameters every Tiny Towns rollout player shares, checked: ``time`` (CPU seconds per decision,
    > 0), ``k`` (candidates, >= 1) and ``worlds`` (determinizations, >= 1); ``ValueError`` naming the
    parameter otherwise. Returns them as (float, int, int)."""
    if isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)) or not time_budget > 0:
        raise ValueError(f"{agent}: time must be a positive number of CPU seconds, not {time_budget!r}")
    check_param(agent, "k", k, 1, True)
    check_param(agent, "worlds", worlds, 1, True)
    return float(time_budget), int(k), int(worlds)


def decision_deadline(start: float, budget: float, safety: float, reserve: float) -> float:
    """The CPU-clock reading a decision that started at ``start`` must stop searching by: ``budget`` less
    the larger of the unused share (``1 - safety``) and ``reserve`` seconds."""
    return start + budget - max((1.0 - safety) * budget, reserve)


class RolloutAgent(Agent):
    """Solo Tiny Towns: rates greedy's best ``k`` moves by whole games played with the greedy base
    policy in up to ``worlds`` determinizations, within ``time`` CPU seconds; greedy elsewhere.

    Parameters (spec ``tiny-towns-rollout:time=1.0,k=6,worlds=2``): ``time`` (CPU seconds per
    decision, > 0), ``k`` (candidates, ≥ 1), ``worlds`` (determinizations, ≥ 1), ``spread`` (0 or 1,
    default 1: at a card pick, every face-up card's best square is a candidate before any card's second
    square), ``widen`` (0 or 1, default 0: with 1, once the ``k`` candidates are rated in every world,
    the next moves in greedy's order are rated too while the budget lasts).

    Once the deck order is known (every card seen: the game is deterministic) and ``polish`` > 0 or
    ``tries`` > 0, the agent keeps the best whole trajectory found and improves it by local search
    (:meth:`_polished`): ``polish`` (CPU seconds a decision, ≥ 0, default 0 = off) and ``tries``
    (changes tried a decision, ≥ 0, 0 = no cap) bound the search; ``guided`` (0 or 1, default 1: after
    a change, play the trajectory's own later moves where still legal, greedy's elsewhere, and accept
    equal endings; 0: greedy's moves after a change, better endings only); ``wide`` (≥ 1, default 1:
    a change picks among the ``k × wide`` best moves of its position); ``near`` (≥ 1, default 1: the
    step changed is drawn as ``1 + (steps - 1) * u ** near``, so more favours the next few moves).

    ``model`` (default ``solo``, the shipped evaluation): the model of the Tiny Towns weights that orders
    the candidates and drives the base policy, so that two evaluations can be compared as two agents in
    one paired run (``evaluation.solo_model``; ``weights.json`` ships only ``solo``: session 11's refits,
    ``benchmarks/fit/tiny_towns_rank.py``, did not make greedy stronger).
    """

    name = "tiny-towns-rollout"

    def __init__(
        self,
        seed: int | None = None,
        time: float = DEFAULT_TIME,
        k: int = DEFAULT_K,
        worlds: int = DEFAULT_WORLDS,
        widen: int = 0,
        spread: int = 1,
        polish: float = 0.0,
        tries: int = 0,
        guided: int = 1,
        wide: int = 1,
        near: float = NEAR,
        model: str = "solo",
    ) -> None:
        budget, k, worlds = check_budget(self.name, time, k, worlds)
        if model not in solo_models():
            raise ValueError(f"tiny-towns-rollout: model must be one of {', '.join(solo_models())}, not {model!r}")
        for name, flag in (("widen", widen), ("spread", spread), ("guided", guided)):
            if flag not in (0, 1) or isinstance(flag, bool):
                raise ValueError(f"tiny-towns-rollout: {name} must be 0 or 1, not {flag!r}")
        if isinstance(polish, bool) or not isinstance(polish, (int, float)) or not polish >= 0:
            raise ValueError(f"tiny-towns-rollout: polish must be CPU seconds, 0 or more, not {polish!r}")
        if isinstance(tries, bool) or not isinstance(tries, int) or tries < 0:
            raise ValueError(f"tiny-towns-rollout: tries must be a whole number, 0 or more, not {tries!r}")
        if isinstance(near, bool) or not isinstance(near, (int, float)) or not near >= 1:
            raise ValueError(f"tiny-towns-rollout: near must be a number, 1 or more, not {near!r}")
        check_param(self.name, "wide", wide, 1, True)
        super().__init__(
            seed,
            time=time,
            k=k,
            worlds=worlds,
            widen=widen,
            spread=spread,
            polish=polish,
            tries=tries,
            guided=guided,
            wide=wide,
            near=near,
            model=model,
        )
        self.model = model
        self.near = float(near)
        self.guided = guided
        self.wide = wide
        self.polish = float(polish)
        self.tries = tries
        self.prng = random.Random(seed)
        """Draws the trajectory changes tried by the polish (its own stream: worlds stay as without it)."""
        self.best: list[Step] = []
        """The best trajectory known from the current position on (polish; the deck order known)."""
        self.best_score = 0
        self.index: dict[StateKey, int] = {}
        """Position key -> its step in :attr:`best`."""
        self.widen = widen
        self.spread = spread
        self.budget = budget
        self.k = k
        self.worlds = worlds
        self.rng = random.Random(seed)
        self.greedy = GreedyAgent(seed)
        self.planned: tuple[tuple[object, ...], Action] | None = None
        """The placement chosen with the last card: (the position it is for, the action)."""
        self.last: dict[str, Any] = {}
        """What the last decision did (candidates' mean scores, worlds finished), for reports and tests."""

    def act(self, state: State[Any], player: int) -> Any:
        """The move whose rolled-out games end best (greedy's choice when none finished in time).

        Reads only the game's id, the player count, the legal moves and determinizations."""
        start = time.process_time()
        if state.players != 1 or state.game.id != "tiny-towns":
            return self.greedy.act(state, player)
        with solo_model(self.model):  # the evaluation the candidates and the base policy use
            return self._act(state, player, start)

    def _act(self, state: State[Any], player: int, start: float) -> Any:
        """:meth:`act` in solo Tiny Towns, the solo model chosen."""
        legal = legal_actions_or_refuse(state, player)
        if len(legal) == 1:
            return legal[0]
        deadline = decision_deadline(start, self.budget, SAFETY, RESERVE)
        if self.polish > 0 or self.tries > 0:
            known = state.determinize(player, random.Random(0))
            if isinstance(known, TinyTownsState) and known.unknown == 0:  # no hidden card left
                self.planned = None
                with old_objects_set_aside():
                    return self._polished(known, legal, deadline)
        if self.planned is not None:  # the square chosen with the card: the public position is checked
            key, planned = self.planned
            self.planned = None
            probe = state.determinize(player, random.Random(0))  # (not the agent's rng: worlds repeat)
            same = isinstance(probe, TinyTownsState) and probe.phase == PLACE_PHASE and key == self._key(probe)
            if same and planned in legal:
                return legal[legal.index(planned)]
        with old_objects_set_aside():  # no full garbage collection of the caches inside the budget
            return self._search(state, player, legal, deadline)

    def _search(self, state: State[Any], player: int, legal: list[Any], deadline: float) -> Any:
        """Rate the candidates by rollouts until ``deadline``; the best one's legal action."""
        worlds = self._worlds(state, player)
        first = worlds[0]
        naming = first.phase == NAME_PHASE
        ranked = name_candidates(first, bool(self.spread)) if naming else move_candidates(first)
        candidates = ranked[: self.k]
        totals = [0.0] * len(candidates)
        done = 0
        for world in worlds:
            scores: list[int] = []
            try:
                for cand in candidates:
                    copy = world.clone()
                    copy.apply(0, _listed(copy, cand.action))
                    scores.append(play_out(copy, deadline, cand.square))
            except OutOfTime:
                break
            done += 1
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
        if self.widen and done == len(worlds):
            for cand in ranked[self.k :]:
                try:
                    total = 0.0
                    for world in worlds:
                        copy = world.clone()
                        copy.apply(0, _listed(copy, cand.action))
                        total += play_out(copy, deadline, cand.square)
                except OutOfTime:
                    break
                candidates.append(cand)
                totals.append(total)
        best = 0
        if done:
            for i in range(1, len(candidates)):
                if totals[i] > totals[best]:
                    best = i
        choice = candidates[best]
        self.last = {
            "worlds": done,
            "means": [t / done for t in totals] if done else [],
            "candidates": [(str(c.action), c.square, c.prior) for c in candidates],
            "chosen": best,
        }
        if naming and choice.square >= 0:
            self.planned = (
                (first.round, tuple(first.towns[0].grid), choice.action.what),
                Action(PLACE, choice.action.what, target=choice.square),
            )
        return legal[legal.index(choice.action)]

    def _polished(self, world: TinyTownsState, legal: list[Any], deadline: float) -> Any:
        """The deck order is known, so the game is deterministic and a trajectory's score is exactly
        what following it scores. Keep the best trajectory found so far (the *fortified* rollout:
        never follow a move whose rollout ends below a trajectory already in hand), rate the ``k``
        candidates, then for up to ``polish`` CPU seconds (or ``tries`` changes) change one later move
        of the best trajectory to another of that position's best ``k`` and play greedily on from
        there; a better ending becomes the trajectory. The move played is the trajectory's next one.
        A placement that follows the trajectory is played without a new search."""
        key = state_key(world)
        at = self.index.get(key)
        if at is not None:
            self._adopt(self.best[at:], self.best_score)
            if world.phase == PLACE_PHASE:
                return legal[legal.index(self.best[0].action)]
        else:
            self._adopt([], -(10**9))
        naming = world.phase == NAME_PHASE
        ranked = name_candidates(world, bool(self.spread)) if naming else move_candidates(world)
        rated: list[float] = []
        for cand in ranked[: self.k]:
            record = [Step(key, world, cand.action, cand.square)]
            copy = world.clone()
            copy.apply(0, _listed(copy, cand.action))
            try:
                score = play_out(copy, deadline, cand.square, record)
            except OutOfTime:
                break
            rated.append(score)
            if score > self.best_score:
                self._adopt(record, score)
        tried = better = 0
        stop = min(deadline, time.process_time() + self.polish) if self.polish > 0 else deadline
        options: dict[StateKey, list[Candidate]] = {}
        guide = slots(self.best)
        while self.best and len(self.best) > 1 and (self.tries == 0 or tried < self.tries):
            if time.process_time() > stop:
                break
            j = 1 + int((len(self.best) - 1) * self.prng.random() ** self.near)
            step = self.best[j]
            if step.key not in options:
                pick = step.state.phase == NAME_PHASE
                found = name_candidates(step.state, True) if pick else move_candidates(step.state)
                options[step.key] = found[: self.k * self.wide]
            others = [c for c in options[step.key] if (c.action, c.square) != (step.action, step.square)]
            if not others:
                tried += 1
                continue
            cand = others[self.prng.randrange(len(others))]
            record = [*self.best[:j], Step(step.key, step.state, cand.action, cand.square)]
            copy = step.state.clone()
            copy.apply(0, _listed(copy, cand.action))
            try:
                score = play_out(copy, deadline, cand.square, record, guide if self.guided else None)
            except OutOfTime:
                break
            tried += 1
            if score > self.best_score or (self.guided and score == self.best_score):
                better += score > self.best_score
                self._adopt(record, score)  # an equal ending too (guided: a sideways step of the search)
                guide = slots(self.best)
        self.last = {"worlds": 1, "means": rated, "tried": tried, "better": better, "best": self.best_score}
        if not self.best:  # nothing finished in time: greedy's choice
            return legal[legal.index(ranked[0].action)]
        return legal[legal.index(self.best[0].action)]

    def _adopt(self, steps: list[Step], score: int) -> None:
        """Make ``steps`` (from the current position on) the trajectory to follow, scoring ``score``."""
        self.best = steps
        self.best_score = score
        self.index = {s.key: i for i, s in enumerate(steps)}

    def _key(self, state: TinyTownsState) -> tuple[object, ...]:
        return (state.round, tuple(state.towns[0].grid), state.named)

    def _worlds(self, state: State[Any], player: int) -> list[TinyTownsState]:
        """Up to ``worlds`` determinizations, those with the same deck and face-up cards kept once."""
        seen: set[tuple[str, ...]] = set()
        out: list[TinyTownsState] = []
        for _ in range(self.worlds):
            world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
            if not isinstance(world, TinyTownsState):
                raise TypeError(f"tiny-towns-rollout: a determinization of {state.game.id} is not a Tiny Towns state")
            key = (*world.deck, "|", *world.face_up)
            if key in seen:
                continue
            seen.add(key)
            out.append(world)
        return out


def _listed(state: TinyTownsState, action: Action) -> Action:
    """The object in ``state``'s legal list equal to ``action`` (so ``apply`` takes its fast path)."""
    legal = state.legal_actions(0)
    return legal[legal.index(action)]


__all__ = [
    "Candidate",
    "OutOfTime",
    "RolloutAgent",
    "StateKey",
    "Step",
    "check_budget",
    "check_param",
    "decision_deadline",
    "move_candidates",
    "name_candidates",
    "play_out",
    "slots",
    "state_key",
]
