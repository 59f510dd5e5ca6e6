"""The cheaper parts of the solo rollout (session 18) give what the costlier ones gave.

- ``state_key`` is a tuple of the save's fields, not the save written out as text: on every position
  of real games it tells positions apart exactly as the text did.
- ``evaluation.layout_facts``: what a town's features take from its buildings alone is computed once
  per layout of buildings; it is the same as scoring the board with its cubes, and the same for every
  board that differs only in cubes.
- The feature rows and the rollout's decisions are the ones the old code gave (values recorded with
  main ``5435969``).

The first two tests use functions that are new (a tuple key, ``layout_facts``) and fail on the old code;
the last two are regressions that pass on it too, and must keep passing.
"""

from __future__ import annotations

import hashlib
from typing import Any

import farmtable
import farmtable.agents
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import evaluation as E
from farmtable.games.tiny_towns.rollout import RolloutAgent, state_key
from farmtable.games.tiny_towns.rules import CAVERN, TinyTownsState
from farmtable.games.tiny_towns.scoring import TownFacts, best_feeding
from tests.games.tiny_towns.test_rollout import _late

GAME = farmtable.get_game("tiny-towns")


def _positions(seeds: range, variants: tuple[str, ...] = ()) -> list[TinyTownsState]:
    """Every position (a copy) of solo games played by the greedy agent, one game per seed."""
    out: list[TinyTownsState] = []
    for seed in seeds:
        state = GAME.new_game(players=1, seed=seed, variants=variants)
        assert isinstance(state, TinyTownsState)
        agent = farmtable.agents.make("greedy", seed=seed, game="tiny-towns", players=1)
        while not state.is_over():
            out.append(state.clone())
            state.apply(0, agent.act(state, 0))
        out.append(state.clone())
    return out


def _save_text(state: TinyTownsState) -> str:
    """The old key: the save as text, the random generator left out."""
    data = state.to_dict()
    del data["rng"]
    return repr(data)


def test_state_key_is_a_tuple_that_splits_positions_as_the_save_does() -> None:
    positions = _positions(range(21, 25)) + _positions(range(25, 27), (CAVERN,))
    # equal positions reached twice: a copy, and the first position of a game played again
    positions += [p.clone() for p in positions[::7]] + _positions(range(21, 22))
    by_text: dict[str, set[Any]] = {}
    by_key: dict[Any, set[str]] = {}
    for state in positions:
        key = state_key(state)
        assert isinstance(key, tuple)
        text = _save_text(state)
        by_text.setdefault(text, set()).add(key)
        by_key.setdefault(key, set()).add(text)
    assert all(len(keys) == 1 for keys in by_text.values())
    assert all(len(texts) == 1 for texts in by_key.values())
    assert len(by_key) < len(positions)  # some positions were met twice, and got one key


def test_layout_facts_are_the_buildings_scored_alone_whatever_cubes_stand() -> None:
    checked = 0
    for state in _positions(range(31, 34)):
        town = state.towns[0]
        kinds, _patterns = E._kinds_of(state, town)
        monument = town.monument if town.built else ""
        stored = town.warehouse_cubes()
        board = town.grid
        facts = E.layout_facts(board, kinds, monument, town.shrine_vp, stored, state._readings)
        whole = TownFacts(grid=board, monument=monument or None, warehouse_cubes=stored, shrine_vp=town.shrine_vp)
        whole.starloom_place = 1
        sheet, fed = best_feeding(whole, None, state._readings)
        assert facts.score == sum(sheet.values())
        assert facts.counts == {v: sum(1 for w in board if w == v) for v in board if v in C.ALL_CARDS}
        assert facts.unfed == sum(1 for sq, v in enumerate(board) if v == "Cottage" and sq not in fed) + sum(
            C.BARRETT_COTTAGE_WEIGHT for sq, v in enumerate(board) if v == "Barrett Castle" and sq not in fed
        )
        # without its cubes, or with a cube on another square, the layout of buildings is the same
        bare = [v if v in C.ALL_CARDS else "" for v in board]
        assert E.layout_facts(bare, kinds, monument, town.shrine_vp, stored, state._readings) == facts
        empties = [sq for sq, v in enumerate(board) if not v]
        if empties:
            more = list(board)
            more[empties[0]] = C.RESOURCES[checked % len(C.RESOURCES)]
            assert E.layout_facts(more, kinds, monument, town.shrine_vp, stored, state._readings) == facts
        checked += 1
    assert checked > 100


def test_feature_rows_are_the_old_ones() -> None:
    """Every feature row of the boards of two greedy games, with each cube on each empty square too,
    hashed bit for bit: the value was computed with main ``5435969`` (the evaluation before the layout
    cache)."""
    digest = hashlib.sha256()
    for state in _positions(range(41, 43)):
        grid = state.towns[0].grid[:]
        digest.update(E.town_features(state, 0).tobytes())
        for sq, v in enumerate(grid):
            if v:
                continue
            for resource in C.RESOURCES:
                grid[sq] = resource
                digest.update(E.town_features(state, 0, grid).tobytes())
            grid[sq] = ""
    assert digest.hexdigest() == ROWS_DIGEST


def test_the_polish_makes_the_old_decisions_at_a_fixed_number_of_tries() -> None:
    """Late in a game (the deck order known) the agent with ``tries`` fixed plays the moves and finds
    the best score that main ``5435969`` did (recorded), decision after decision to the end."""
    state = _late()
    agent = RolloutAgent(seed=5, time=1000.0, tries=15, near=3)
    moves: list[str] = []
    bests: list[int] = []
    while not state.is_over():
        action = agent.act(state, 0)
        moves.append(str(action))
        bests.append(int(agent.last.get("best", -1)))
        state.apply(0, action)
    played = hashlib.sha256("\n".join(moves).encode()).hexdigest()
    assert (played, bests[:POLISH_BESTS_SHOWN], int(state.result().solo_score)) == POLISH_RECORD


ROWS_DIGEST = "775ec4fc76db4eece74b2a6c8c2be571d04eb9ef3d7ef3e35797c15b2dac9f5d"
POLISH_BESTS_SHOWN = 12
POLISH_RECORD: tuple[str, list[int], int] = (
    "23a2b43c71e0d92b2ba4c7e7b9722e9f7ae3451159533897494bc0f442832ac1",
    [20] * POLISH_BESTS_SHOWN,
    21,
)
