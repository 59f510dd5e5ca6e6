"""A solo turn planner: every distinct way to play one solo turn, and a beam search over whole turns.

The solo game has one player and one kind of chance (the order of the action cards). A turn is a
short sequence of small decisions (a redraw or a token, the action card, its steps, wheel turns,
``done``); many orders of the same steps lead to the same position. :func:`turn_outcomes` walks
them depth first and keeps each distinct end-of-turn position once, so a search can compare whole
turns instead of single steps.

:func:`best_completion` is the solo evaluation's core (``evaluation.solo_estimate``): the value of
a position in the middle of a turn is the best way to finish that turn.

:func:`beam_plan` searches whole games turn by turn on one *complete* state. Given the real state
it knows the order of the action cards: it is **clairvoyant**, an optimistic reference for the
analysis of the product values (issue 14; not a bound, since a beam can miss lines), not a fair
player. :func:`plan_turn` is a fair use: it plans on several determinizations
(``state.determinize``: the unseen card order re-sampled) and plays the first turn that does best
on average.

Positions are ranked by :func:`plan_value`: the stars now, plus the products of the animals on
their way (counted fully when the water in the barn can turn the wheel far enough now, past empty
areas only), plus small values for water, tokens and ready feed. Every number comes from
``components.py``; the five constants below were checked by paired runs
(``docs/games/farmerama-ai.md``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from farmtable.core import clock
from farmtable.core.memo import BoundedCache
from farmtable.games.farmerama.components import (
    BAR_AFTER_SECTOR,
    BEDS_OF_AREA,
    FEED_COST,
    HEAD_SECTOR,
    PACIFIER_SECTOR,
    PRODUCT_TRACK_MAX,
    SECTOR_COUNT,
    SOLO_TURNS,
    STABLE_VALUE,
    WATER,
    WHEEL_TURN_COST,
)
from farmtable.games.farmerama.rules import (
    ACT,
    EMPTY_BED,
    IN_STABLE,
    SOLO_PICK,
    Board,
    FarmeramaState,
    area_of_sector,
    sector_of_area,
)
from farmtable.games.farmerama.scoring import score_sheet

MAX_WHEEL_TURNS_PER_TURN: Final = 4
"""Wheel turns tried within one solo turn (more are legal; they are not searched)."""
WATER_VALUE: Final = 0.4
"""Plan value of a water in the barn beyond what the animals on the wheel need (it turns the wheel)."""
TOKEN_VALUE: Final = 1.5
"""Plan value of a Special Action token (a good of choice, or a redraw)."""
LATE_SHARE: Final = 0.85
"""Share of a product counted when the wheel cannot bring the animal to the pacifier yet."""
SHORT_TURN_COST: Final = 1.5
"""Solo turns a missing wheel turn costs (fetching water, harvesting the bar's way free)."""
FEED_READY_SHARE: Final = 0.35
"""Share of its product's gain over its feed counted for a stabled animal whose feed is in the barn."""
MISSING_COST: Final = 0.0
"""Share of a product lost per wheel turn the animal still needs beyond what the barn's water can
turn now (each missing turn is water still to fetch: a later product, a slower pipeline)."""


def board_key(board: Board) -> tuple[object, ...]:
    """What carrying out cards reads and changes on ``board``: the barn, the beds, the farm wheel's
    position, the pastures and the product tracks. Every memo key of the Farmerama AI that depends
    on a board is built from it (the planner's, :mod:`evaluation`'s and the duel player's)."""
    return (tuple(board.barn), tuple(board.beds), board.wheel, tuple(board.pasture), tuple(board.products))


def _board_key(board: Board) -> tuple[object, ...]:
    """The parts of a player's board a plan depends on (shared by the cache keys below)."""
    return (*board_key(board), board.current, board.remaining)


def _key(state: FarmeramaState) -> tuple[object, ...]:
    board = state.boards[0]
    return (
        state.phase,
        state.turn,
        state.tokens,
        state.revealed,
        state.wheel_variant,
        state.action_wheel,
        tuple(state.action_stack),
        tuple(state.supply),
        *_board_key(board),
    )


def turn_outcomes(
    state: FarmeramaState, max_wheel_turns: int = MAX_WHEEL_TURNS_PER_TURN, max_tokens: int | None = None
) -> list[tuple[list[str], FarmeramaState]]:
    """Every distinct position at the start of the next solo turn (or the end) reachable from
    ``state`` (a solo state at the start of a turn), each with one action line that reaches it.

    Tokens are spent only before the card is chosen (a good of choice is the same whenever it is
    taken), and at most ``max_wheel_turns`` wheel turns are tried within the turn.
    Raises ``ValueError`` for a state that is not a solo state waiting for its turn's card, and
    :class:`farmtable.core.clock.OutOfTime` when the decision's deadline passes first.
    """
    if not state.solo or state.phase != SOLO_PICK:
        raise ValueError("turn_outcomes needs a solo state at the start of a turn (phase solo-pick)")
    start_turn = state.turn
    seen: set[tuple[object, ...]] = set()
    found: dict[tuple[object, ...], tuple[list[str], FarmeramaState]] = {}
    stack: list[tuple[FarmeramaState, list[str], int]] = [(state, [], 0)]
    while stack:
        clock.check()
        node, line, wheel_turns = stack.pop()
        for action in node.legal_actions(0):
            if action.startswith("token") and (
                node.phase == ACT or (max_tokens is not None and state.tokens - node.tokens >= max_tokens)
            ):
                continue
            turns = wheel_turns + (action == "turn-wheel")
            if turns > max_wheel_turns:
                continue
            child = node.clone()
            child._do(0, action)  # from the legal list of this very position: legal, no check again
            key = _key(child)
            if key in seen:
                continue
            seen.add(key)
            child_line = [*line, action]
            if child.is_over() or (child.phase == SOLO_PICK and child.turn != start_turn):
                found[key] = (child_line, child)
            else:
                stack.append((child, child_line, turns))
    return list(found.values())


def free_wheel_turns(board: Board) -> int:
    """Wheel turns ``board`` could make right now, one after another, with the water in its barn
    and without harvesting first (the bar must pass over completely empty areas)."""
    water = board.barn[WATER]
    wheel = board.wheel
    turns = 0
    while water >= WHEEL_TURN_COST and turns < SECTOR_COUNT:
        bar_area = area_of_sector(wheel, BAR_AFTER_SECTOR)
        if any(board.beds[bed] != EMPTY_BED for bed in BEDS_OF_AREA[bar_area]):
            break
        water -= WHEEL_TURN_COST
        wheel += 1
        turns += 1
    return turns


def plan_value(state: FarmeramaState) -> float:
    """How good a solo position looks to the planner, in stars (the final stars once it is over)."""
    board = state.boards[0]
    if state.is_over():
        return float(sum(score_sheet(board.score_input()).values()))
    return board_value(board, max(0, SOLO_TURNS - state.turn), state.tokens)


def board_value(board: Board, turns_left: float, tokens: int = 0) -> float:
    """The planner's value of one board with ``turns_left`` of its owner's turns (actions) still to
    come, in stars: the stars now, the products on their way (less when water is missing or the
    game is nearly over), spare water, ``tokens`` Special Action tokens and ready feed.

    Used for the solo game (:func:`plan_value`) and, with an estimate of the actions left, for
    several players (``evaluation.multi_estimate``).
    """
    stars = float(sum(score_sheet(board.score_input()).values()))
    water = board.barn[WATER]
    free = free_wheel_turns(board)
    most = 0
    for animal, where in enumerate(board.pasture):
        if where == IN_STABLE:
            continue
        turns = PACIFIER_SECTOR - sector_of_area(board.wheel, where)
        most = max(most, turns)
        product = board.product_values[animal] if board.products[animal] < PRODUCT_TRACK_MAX else 0
        # Water still to fetch or stacks to harvest first: the later in the game, the less sure.
        missing = turns - free
        share = 1.0
        if missing > 0:
            share = LATE_SHARE * min(1.0, turns_left / (SHORT_TURN_COST * missing + 1.0))
            share *= max(0.0, 1.0 - MISSING_COST * missing)
        stars += share * (product - STABLE_VALUE[animal])
    stars += WATER_VALUE * max(0, water - most) * min(1.0, turns_left / 6.0)
    stars += TOKEN_VALUE * tokens * min(1.0, turns_left / 3.0)
    for animal, where in enumerate(board.pasture):
        ready = where == IN_STABLE and all(h >= n for h, n in zip(board.barn, FEED_COST[animal], strict=True))
        if ready and turns_left > (PACIFIER_SECTOR - HEAD_SECTOR[animal]) // 2:
            stars += FEED_READY_SHARE * (board.product_values[animal] - sum(FEED_COST[animal]))
    return stars


@dataclass
class Plan:
    """The result of a beam search: the best final stars found and the action line to them."""

    stars: float
    line: list[str]


def beam_plan(state: FarmeramaState, width: int = 64, max_wheel_turns: int = MAX_WHEEL_TURNS_PER_TURN) -> Plan:
    """Search the solo game from ``state`` to its end, turn by turn, keeping the ``width`` best
    positions by :func:`plan_value` after every turn. Plans on ``state`` as given: with the real
    state it knows the card order (clairvoyant), with a determinization it plans on that sample.
    """
    if width < 1:
        raise ValueError(f"beam width must be at least 1, got {width}")
    beam: list[tuple[float, list[str], FarmeramaState]] = [(plan_value(state), [], state)]
    finished: list[tuple[float, list[str]]] = []
    while beam:
        children: dict[tuple[object, ...], tuple[float, list[str], FarmeramaState]] = {}
        for _, line, node in beam:
            for steps, child in turn_outcomes(node, max_wheel_turns):
                if child.is_over():
                    finished.append((plan_value(child), line + steps))
                    continue
                key = _key(child)
                if key not in children:
                    children[key] = (plan_value(child), line + steps, child)
        beam = sorted(children.values(), key=lambda item: -item[0])[:width]
    best = max(finished, key=lambda item: item[0]) if finished else (plan_value(state), [])
    return Plan(best[0], best[1])


def plan_turn(state: FarmeramaState, samples: int = 4, width: int = 8, seed: int = 0) -> list[str]:
    """The fair planner's choice of one whole solo turn: plan each candidate first turn on
    ``samples`` determinizations (beam ``width`` for the rest of the game) and return the
    candidate with the best mean. Decides only from ``state.determinize(0, ...)``; redraws are not
    planned (their outcome is the hidden next card).
    """
    rng = random.Random(seed)
    worlds = [state.determinize(0, rng.getrandbits(31)) for _ in range(samples)]
    best_line: list[str] = []
    best_mean = float("-inf")
    # A redraw reveals a card the player has not seen: its outcome differs between the worlds.
    candidates = [line for line, _ in turn_outcomes(worlds[0]) if "redraw" not in line]
    for line in candidates:
        total = 0.0
        for world in worlds:
            probe = world.clone()
            for action in line:
                probe.apply(0, action)
            total += beam_plan(probe, width).stars if not probe.is_over() else plan_value(probe)
        if total > best_mean:
            best_mean, best_line = total, line
    return best_line


COMPLETION_CACHE_LIMIT: Final = 200_000
"""Positions remembered by :func:`best_completion` (bounded memory: the oldest are forgotten first)."""
_completion_cache: BoundedCache[tuple[object, ...], float] = BoundedCache(COMPLETION_CACHE_LIMIT)


def best_completion(state: FarmeramaState) -> float:
    """The best :func:`plan_value` reachable by finishing the solo turn in progress (``state`` in
    phase 3 of a solo turn): every order of the card's steps, wheel turns and ``done`` is tried,
    each distinct position once (remembered across calls). Tokens are not spent mid-turn.

    The value does not depend on the hidden card order: the next card's reveal changes nothing
    :func:`plan_value` reads. Raises ``ValueError`` for a state that is not a solo turn in phase 3,
    and :class:`farmtable.core.clock.OutOfTime` when the decision's deadline passes first (a turn
    with several sowings and wheel turns has up to ~4,000 distinct positions, 0.1-0.3 CPU s; what
    was finished stays remembered, exact).
    """
    if not state.solo or state.phase != ACT:
        raise ValueError("best_completion needs a solo state in phase 3 (a card being carried out)")
    return _complete(state)


def _completion_key(state: FarmeramaState) -> tuple[object, ...]:
    """What the best completion of a turn in phase 3 depends on: the board, the supply, the card
    in progress and the public counts (stack sizes, tokens, turn), never the hidden card order, so
    every determinization of a position shares one entry; the product values, the action wheel
    and the wheel option keep games of different variants apart."""
    board = state.boards[0]
    return (
        board.product_values,
        state.wheel_variant,
        state.animals_block_wheel,
        state.turn,
        state.tokens,
        len(state.action_stack),
        len(state.supply_stack),
        tuple(state.supply),
        *_board_key(board),
    )


def _complete(state: FarmeramaState) -> float:
    key = _completion_key(state)
    cached = _completion_cache.get(key)
    if cached is not None:
        return cached
    clock.check()
    best = float("-inf")
    for action in state.legal_actions(0):
        if action.startswith("token"):
            continue
        child = state.clone()
        child._do(0, action)  # from the legal list of this very position: legal, no check again
        value = _complete(child) if child.phase == ACT else plan_value(child)
        best = max(best, value)
    _completion_cache.put(key, best)
    return best
