"""A fair solo player that counts the cards: two whole turns deep, an exact expectation over the next card.

The solo player sees every action card except one: each new action stack is the previous stack's
cards (all seen) plus one unseen card from the supply stack (whose contents are known: the rulebook's
six cards less those already shuffled in and seen). So the next card's chances follow from public
facts: the cards of the current stack not yet revealed, with the unseen card weighted by how likely
it makes the cards revealed so far (Bayes; :func:`next_card_chances`).

:func:`lookahead_turn` rates each of the best few whole turns (ranked by ``planner.plan_value``) by
the expected value of the *next* turn's best outcome, over the next card revealed, and plays the
best. The next card matters: it sets which of Sow, Harvest and Water gets the action wheel's higher
number (and a Water card turns the action wheel on). Nothing hidden is read: the next turns are
played on determinizations (``state.determinize(0, ...)``), one per possible next card, and weighted
by the public chances.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from math import prod
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse
from farmtable.agents.greedy import greedy_choice
from farmtable.core import State, clock
from farmtable.core.memo import BoundedCache
from farmtable.games.farmerama.planner import _board_key, best_completion, plan_value, turn_outcomes
from farmtable.games.farmerama.rules import ACT, NO_CARD, SOLO_PICK, FarmeramaState

KEEP: Final = 6
"""Whole turns (the best by their one-turn plan value) rated two turns deep."""
MAX_TOKENS: int | None = None
"""Special Action tokens a rated turn may spend (None: any; a cap makes turns with several tokens
far cheaper to rate, see ``docs/games/farmerama-ai.md``)."""
REDRAW_KEEP: Final = 0
"""Turns rated after each card a redraw may reveal (0: redraws are not considered)."""
BUDGET_SHARE: Final = 0.8
"""Share of a ``budget`` after which no new turn is rated (the rest covers one turn completion in
progress, which is not cut short, and playing the turn's steps)."""
MAX_WORLDS: Final = 64
"""Determinizations drawn at most to find one world per possible next card."""
NEXT_CACHE_LIMIT: Final = 100_000
"""Positions whose best next turn is remembered (bounded memory: the oldest are forgotten first)."""

_next_cache: BoundedCache[tuple[object, ...], float] = BoundedCache(NEXT_CACHE_LIMIT)


def _falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): the ordered ways to draw k given cards of a kind from n of them."""
    return prod(range(n - k + 1, n + 1)) if k > 0 else 1


def next_card_chances(state: FarmeramaState) -> dict[int, float]:
    """The chance of each card to be revealed at the start of the next solo turn, from public facts
    only (``state``: a solo state at the start of a turn or during it, before its ``done``).

    The current stack's unrevealed cards are its known cards (``stack_base``) plus the unseen
    supply card, less those revealed since the shuffle; the unseen card's chances are its share of
    the supply cards left, times the chance it gives the cards revealed so far. When the stack is
    empty, the next stack is this stack's cards (all seen) plus one supply card.
    """
    if not state.solo:
        raise ValueError("next_card_chances is for the solo game")
    stack = state.action_stack
    if not stack:
        supply = _supply_left(state)
        if not supply:
            return {}
        seen = [*state.discard, *([state.revealed] if state.revealed != NO_CARD else [])]
        chances: dict[int, float] = {}
        for card, count in Counter(supply).items():
            pool = Counter(seen)
            pool[card] += 1
            total = sum(pool.values())
            for c, n in pool.items():
                chances[c] = chances.get(c, 0.0) + count / len(supply) * n / total
        return chances
    if len(stack) <= state.known_bottom:
        return {stack[-1]: 1.0}
    revealed = Counter(state.revealed_from_shuffle)
    base = Counter(state.stack_base)
    if state.unknown_card == NO_CARD:
        left = base - revealed
        total = sum(left.values())
        return {c: n / total for c, n in left.items()}
    weights: Counter[int] = Counter()
    unseen_options = Counter(_supply_left(state))
    results: dict[int, float] = {}
    for card, count in unseen_options.items():
        pool = base.copy()
        pool[card] += 1
        weight = count * prod(_falling(pool[c], k) for c, k in revealed.items())
        if weight == 0:
            continue
        weights[card] = weight
        left = pool - revealed
        total = sum(left.values())
        for c, n in left.items():
            results[c] = results.get(c, 0.0) + weight * n / total
    norm = sum(weights.values())
    return {c: w / norm for c, w in results.items()}


def _supply_left(state: FarmeramaState) -> list[int]:
    """The supply cards not yet seen: the supply stack and the card shuffled in unseen (as a
    multiset; their order is hidden and not read)."""
    cards = list(state.supply_stack)
    if state.unknown_card != NO_CARD and state.action_stack:
        cards.append(state.unknown_card)
    return sorted(cards)


def _public_key(state: FarmeramaState) -> tuple[object, ...]:
    """What the best next turn depends on: the board, the supply, the revealed card, the action
    wheel, tokens and the turn (never the hidden card order)."""
    return (
        state.phase,
        state.turn,
        state.tokens,
        state.revealed,
        state.action_wheel,
        state.wheel_variant,
        state.boards[0].product_values,
        len(state.action_stack),
        tuple(state.supply),
        *_board_key(state.boards[0]),
    )


def best_turn_value(state: FarmeramaState, tokens_to_spend: int | None = None, deadline: float | None = None) -> float:
    """The best :func:`planner.plan_value` after one whole turn from ``state`` (a solo state at the
    start of a turn; an ended game: its final stars), spending at most ``tokens_to_spend`` tokens
    before the card (default :data:`MAX_TOKENS`; None: any). Remembered by public facts only.

    With ``deadline`` (a ``time.process_time()`` reading; or the decision's deadline of
    :mod:`farmtable.core.clock`, whichever is earlier), raises :class:`farmtable.core.clock.OutOfTime`
    when it passes before the value is known (checked before each step, also inside a turn's
    completion; nothing unfinished is remembered)."""
    with clock.deadline_at(deadline):
        return _best_turn_value(state, tokens_to_spend)


def _best_turn_value(state: FarmeramaState, tokens_to_spend: int | None) -> float:
    if state.is_over():
        return plan_value(state)
    if tokens_to_spend is None:
        tokens_to_spend = MAX_TOKENS
    key = (tokens_to_spend, *_public_key(state))
    cached = _next_cache.get(key)
    if cached is not None:
        return cached
    value = float("-inf")
    for action in state.legal_actions(0):
        clock.check()
        if action == "redraw" or (action.startswith("token") and tokens_to_spend == 0):
            continue
        child = state.clone()
        child._do(0, action)  # from the legal list of this very position: legal, no check again
        if child.phase == SOLO_PICK and child.turn == state.turn:
            # a token spent before the card
            fewer = None if tokens_to_spend is None else tokens_to_spend - 1
            value = max(value, _best_turn_value(child, fewer))
        elif child.phase == ACT:
            value = max(value, best_completion(child))
        else:
            value = max(value, plan_value(child))
    _next_cache.put(key, value)
    return value


@dataclass
class Choice:
    """A chosen whole turn: its action line and its expected value two turns deep."""

    line: list[str]
    value: float


def lookahead_turn(
    state: FarmeramaState,
    seed: int = 0,
    keep: int = KEEP,
    budget: float | None = None,
    redraw_keep: int | None = None,
) -> Choice:
    """The card-counting player's whole turn from ``state`` (solo, at the start of a turn).

    Each of the ``keep`` best turns by one-turn plan value is rated by the expected best plan value
    after the next turn, over the next card (exact public chances, :func:`next_card_chances`), and
    the best is returned. Decides only from ``state.determinize(0, ...)``. With ``redraw_keep`` > 0
    (default :data:`REDRAW_KEEP`) and a token, a redraw is rated too: the expected value, over the
    card it reveals, of the best of the ``redraw_keep`` best turns after it (the line is then
    ``["redraw"]`` alone).
    With ``budget`` (CPU seconds), the rating stops when :data:`BUDGET_SHARE` of it is spent: the
    candidates still unrated are skipped (they are rated best first, so the choice degrades
    gracefully; if not even the first is rated, it is played, as the one-turn planner would), and a
    run with a budget may not replay. Listing the turn's lines is bounded by the same deadline: if it
    cannot finish, :class:`farmtable.core.clock.OutOfTime` is raised (the agent then plays a cheap
    step instead). Raises ``ValueError`` for a state that is not a solo state waiting for its turn's
    card.
    """
    if not state.solo or state.phase != SOLO_PICK:
        raise ValueError("lookahead_turn needs a solo state at the start of a turn (phase solo-pick)")
    if keep < 1:
        raise ValueError(f"keep must be at least 1, got {keep}")
    start = time.process_time()
    deadline = None if budget is None else start + BUDGET_SHARE * budget
    rng = random.Random(seed)
    world = state.determinize(0, rng.getrandbits(63))
    with clock.deadline_at(deadline):
        lines = turn_outcomes(world, max_tokens=MAX_TOKENS)
    outcomes = [(plan_value(child), line) for line, child in lines if "redraw" not in line]
    outcomes.sort(key=lambda item: -item[0])
    candidates = [line for _, line in outcomes[:keep]]
    if len(candidates) == 1:
        return Choice(candidates[0], outcomes[0][0])
    chances = next_card_chances(world)
    worlds = _worlds_by_next_card(state, candidates[0], set(chances), rng)
    best = Choice(candidates[0], float("-inf"))
    for line in candidates:
        total = 0.0
        weight = 0.0
        try:
            for card, base in worlds.items():
                child = base.clone()
                for action in line:
                    child.apply(0, action)
                total += chances[card] * best_turn_value(child, deadline=deadline)
                weight += chances[card]
        except clock.OutOfTime:
            break  # the candidates left are not rated; the best rated one (or the first) is played
        value = total / weight if weight else plan_value(_play(world, line))
        if value > best.value:
            best = Choice(line, value)
    if best.value == float("-inf"):
        return Choice(candidates[0], outcomes[0][0])
    redraw_keep = REDRAW_KEEP if redraw_keep is None else redraw_keep
    if redraw_keep > 0 and state.tokens and state.action_stack:
        over = deadline is not None and time.process_time() > deadline
        redraw = None if over else _redraw_value(state, rng, redraw_keep)
        if redraw is not None and redraw > best.value:
            return Choice(["redraw"], redraw)
    return best


def _redraw_value(state: FarmeramaState, rng: random.Random, keep: int) -> float | None:
    """The expected two-turn value of a redraw now: over the card it reveals (the top of the action
    stack, with its public chances), the best of ``keep`` turns rated by :func:`lookahead_turn`."""
    chances = next_card_chances(state.determinize(0, rng.getrandbits(63)))
    found: dict[int, FarmeramaState] = {}
    for _ in range(MAX_WORLDS):
        world = state.determinize(0, rng.getrandbits(63))
        top = world.action_stack[-1]
        if top in chances and top not in found:
            world.apply(0, "redraw")
            found[top] = world
            if len(found) == len(chances):
                break
    if not found:
        return None
    total = sum(chances[c] * lookahead_turn(w, rng.getrandbits(31), keep, None, 0).value for c, w in found.items())
    return total / sum(chances[c] for c in found)


def _play(state: FarmeramaState, line: list[str]) -> FarmeramaState:
    child = state.clone()
    for action in line:
        child.apply(0, action)
    return child


def _worlds_by_next_card(
    state: FarmeramaState, line: list[str], cards: set[int], rng: random.Random
) -> dict[int, FarmeramaState]:
    """One determinization of ``state`` for each card of ``cards`` that it reveals next (found by
    playing ``line``, which every world can play: a turn's steps do not depend on hidden cards)."""
    found: dict[int, FarmeramaState] = {}
    for _ in range(MAX_WORLDS):
        world = state.determinize(0, rng.getrandbits(63))
        after = _play(world, line)
        if after.is_over():
            return {}
        if after.revealed in cards and after.revealed not in found:
            found[after.revealed] = world
            if len(found) == len(cards):
                break
    return found


def play_game(state: FarmeramaState, seed: int = 0, keep: int = KEEP) -> FarmeramaState:
    """Play the solo game ``state`` to its end with :func:`lookahead_turn` (in place; returned)."""
    turn = 0
    while not state.is_over():
        choice = lookahead_turn(state, seed=seed * 1000 + turn, keep=keep)
        for action in choice.line:
            state.apply(0, action)
        turn += 1
    return state


class LookaheadAgent(Agent):
    """The card-counting player as an agent (solo Farmerama; spec ``farmerama-lookahead:keep=8,time=1.0``).

    At the start of a turn it chooses a whole turn with :func:`lookahead_turn` on a determinization
    and then plays that turn's steps; if the position is not the one it planned for (a turn it did
    not start), it plays like the greedy agent (the best completion of the turn). Any other game
    or player count is played like the greedy agent. ``time`` caps the CPU seconds of a turn's
    choice (candidates still unrated are skipped); without it a seeded game replays exactly.
    """

    name = "farmerama-lookahead"

    def __init__(self, seed: int | None = None, keep: int = KEEP, time: float | None = None) -> None:
        if not isinstance(keep, int) or keep < 1:
            raise ValueError(f"keep must be a whole number of at least 1, got {keep!r}")
        if time is not None and (not isinstance(time, (int, float)) or time <= 0):
            raise ValueError(f"time must be a positive number of CPU seconds, got {time!r}")
        params: dict[str, Any] = {"keep": keep}
        if time is not None:
            params["time"] = time
        super().__init__(seed, **params)
        self.keep = keep
        self.budget = None if time is None else float(time)
        self.rng = random.Random(seed)
        self._plan: list[str] = []
        self._expect: tuple[object, ...] | None = None

    def act(self, state: State[Any], player: int) -> Any:
        """The next step of the planned turn (a new plan at the start of every solo turn)."""
        start = time.process_time()
        legal = legal_actions_or_refuse(state, player)
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        # the whole budget bounds the fallbacks too: their evaluations value a turn's completion
        # that would pass it by the position as it stands (evaluation.solo_estimate)
        with clock.deadline_at(None if self.budget is None else start + self.budget):
            return self._step(world, player, legal)

    def _step(self, world: State[Any], player: int, legal: list[Any]) -> Any:
        if not isinstance(world, FarmeramaState) or not world.solo:
            return legal[greedy_choice(world, player, self.rng)] if len(legal) > 1 else legal[0]
        if world.phase == SOLO_PICK:
            try:
                choice = lookahead_turn(world, seed=self.rng.getrandbits(31), keep=self.keep, budget=self.budget)
            except clock.OutOfTime:  # listing this turn's lines alone used the budget
                self._plan = []
                return legal[greedy_choice(world, player, self.rng)] if len(legal) > 1 else legal[0]
            self._plan = list(choice.line)
        elif not (self._plan and _public_key(world) == self._expect and self._plan[0] in legal):
            self._plan = []
            return legal[greedy_choice(world, player, self.rng)] if len(legal) > 1 else legal[0]
        action = self._plan.pop(0)
        world.apply(player, action)
        self._expect = _public_key(world)
        return action
