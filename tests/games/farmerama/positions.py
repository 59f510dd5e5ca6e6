"""Small builders for hand-made Farmerama positions used by the scenario tests."""

from __future__ import annotations

import farmtable
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.farmerama.components import BUILDING_INDEX, GOODS
from farmtable.games.farmerama.rules import CHOOSE, FarmeramaState


def new(players: int = 2, seed: int = 1, profi: bool = False, variants: tuple[str, ...] = ()) -> FarmeramaState:
    """A fresh game (``variants`` besides ``profi``, e.g. ``("wheel-v1",)`` for DA-FR1's numbers)."""
    chosen = (*variants, "profi") if profi else variants
    state = farmtable.get_game("farmerama").new_game(players=players, seed=seed, variants=chosen)
    assert isinstance(state, FarmeramaState)
    return state


def choose(state: FarmeramaState, *cards: str | tuple[str, ...]) -> None:
    """Phase 1: player p chooses ``cards[p]`` (a card name or a tuple of two)."""
    for p, chosen in enumerate(cards):
        for card in (chosen,) if isinstance(chosen, str) else chosen:
            state.apply(p, f"card {card}")


def move_good(state: FarmeramaState, player: int, good: str, amount: int) -> None:
    """Set a barn to hold ``amount`` of ``good``, moving tiles to/from the supply (conserves tiles)."""
    g = GOODS.index(good)
    board = state.boards[player]
    delta = amount - board.barn[g]
    assert state.supply[g] >= delta
    state.supply[g] -= delta
    board.barn[g] = amount
    state._legal = {}


def give_buildings(state: FarmeramaState, player: int, count: int) -> None:
    """Move ``count`` buildings from the face-down stack into ``player``'s garden."""
    for _ in range(count):
        state.boards[player].garden.append(state.stack.pop(0))
    state._legal = {}


def set_display(state: FarmeramaState, *ids: str) -> None:
    """Make the face-up buildings exactly ``ids`` (swapping with the stack/removed/set-aside tiles)."""
    wanted = [BUILDING_INDEX[i] for i in ids]
    pools = [state.stack, state.removed, state.set_aside]
    for b in wanted:
        for pool in pools:
            if b in pool:
                pool.remove(b)
                break
        else:
            assert b in state.display, f"{b} is not available"
            state.display.remove(b)
    state.stack.extend(state.display)
    state.display = wanted
    state._legal = {}


def sow_directly(state: FarmeramaState, player: int, bed: int, good: str) -> None:
    """Put a 2-tile stack of ``good`` on ``bed`` from the supply (conserves tiles)."""
    g = GOODS.index(good)
    state.supply[g] -= 2
    state.boards[player].beds[bed] = g
    state._legal = {}


def tile_totals(state: FarmeramaState) -> list[int]:
    """Supply + box + barns + farmlands, per good."""
    totals = []
    for g in range(len(GOODS)):
        total = state.supply[g] + state.box[g] + sum(b.barn[g] for b in state.boards)
        total += 2 * sum(1 for b in state.boards for crop in b.beds if crop == g)
        totals.append(total)
    return totals


def duel_position() -> FarmeramaState:
    """A two-player round start where the pairs differ: player 1 holds a horse's feed and player 0
    already has two ornamental buildings (a shared card's building goes to player 1)."""
    state = new(players=2, seed=4)
    for good in ("carrots", "oats"):
        move_good(state, 1, good, 4)
    give_buildings(state, 0, 2)
    return state


def greedy_round_start(seed: int, round_no: int) -> FarmeramaState:
    """The start of round ``round_no`` of a two-player game played by two greedy agents."""
    state = new(players=2, seed=seed)
    agents = [GreedyAgent(seed=1), GreedyAgent(seed=2)]
    while state.round < round_no or state.phase != CHOOSE or any(b.cards for b in state.boards):
        p = state.actors()[0]
        state.apply(p, agents[p].act(state, p))
    return state
