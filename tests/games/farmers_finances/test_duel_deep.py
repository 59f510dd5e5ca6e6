"""The duel player's search on tuples (``deep.py``): the rules it plays by hand and the values it finds."""

from __future__ import annotations

import random

import pytest

import farmtable
import farmtable.agents
from farmtable.games.farmers_finances import deep, duel, race
from farmtable.games.farmers_finances.rules import OVER, FarmersFinancesState
from tests.games.farmers_finances.positions import position

GAME = farmtable.get_game("farmers-finances")


@pytest.fixture(scope="module")
def table() -> race.RaceTable:
    return race.solve(race.DEFAULT_ADVERSITY)


def played_positions(seed: int, count: int) -> list[FarmersFinancesState]:
    """Positions of a seeded game between two random players: every decision with a choice."""
    rng = random.Random(seed)
    state = GAME.new_game(players=2, seed=seed)
    out: list[FarmersFinancesState] = []
    while not state.is_over() and len(out) < count:
        p = state.current
        legal = state.legal_actions(p)
        if len(legal) > 1:
            assert isinstance(state, FarmersFinancesState)
            out.append(state.clone())
        state.apply(p, rng.choice(legal))
    return out


HAND_BUILT = [
    # the empty-market sale: buying the last wheat sells both farms at row 5
    dict(money=[63, 40], farms=[(0, 1, 0), (2, 0, 2)], row=5, market=(1, 0), current=0),
    # player 2's last turn after player 1 reached 70 (exact)
    dict(money=[73, 60], farms=[(0, 0, 0), (0, 0, 2)], row=5, current=1, end_triggered=True),
    # a market change that decides the game, and a forced reroll
    dict(money=[30, 50], farms=[(0, 0, 0), (0, 0, 2)], row=4, phase="market", current=0),
    dict(money=[30, 50], farms=[(0, 0, 0), (0, 0, 0)], row=2, phase="market", current=1, forced_reroll=True),
    # a rolled 6: the row picked freely
    dict(money=[41, 38], farms=[(1, 1, 0), (0, 0, 1)], row=3, phase="pick", current=0),
    # nothing possible but a pass
    dict(money=[0, 12], farms=[(0, 0, 0), (1, 0, 0)], row=1, current=0),
]


def test_actions_are_the_rules_own(table: race.RaceTable) -> None:
    """Every legal action played through the rules leaves the position the tuple rules predict, in order."""
    states = played_positions(7, 60) + [position(**kw) for kw in HAND_BUILT]  # type: ignore[arg-type]
    checked = 0
    for state in states:
        if state.phase != "action":
            continue
        pos = deep.position_of(state)
        legal = state.legal_actions(state.current)
        afters = deep.actions(pos)
        assert len(afters) == len(legal)
        for action, after in zip(legal, afters, strict=True):
            child = state.clone()
            child.apply(state.current, action)
            assert child.phase != OVER
            assert deep.after_of(child) == after, action
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("depth", [1, 2])
def test_the_same_values_as_the_state_search(table: race.RaceTable, depth: int) -> None:
    """The tuple search values every legal action exactly as :class:`duel.Search` (both leaves)."""
    states = played_positions(3, 12 if depth == 1 else 6) + [position(**kw) for kw in HAND_BUILT]  # type: ignore[arg-type]
    for spread in (3.0, 0.0):
        for state in states:
            mover = state.current
            old = duel.Search(table, None, spread)
            expected = [old.action_value(state, mover, a, depth) for a in state.legal_actions(mover)]
            assert deep.root_values(deep.Deep(table, None, spread), state, depth) == expected


def test_kept_memories_do_not_change_a_choice(table: race.RaceTable) -> None:
    """A search that starts from the previous decisions' memories chooses as a fresh one."""
    kept: deep.Deep | None = None
    for state in played_positions(5, 10):
        kept = deep.Deep(table, None, 3.0, kept)
        fresh = duel.choose_deep(state, 3, deep.Deep(table, None, 3.0), None)
        assert duel.choose_deep(state, 3, kept, None) == fresh
    assert kept is not None and kept.memory


def test_depth_four_finds_the_winning_sale_and_the_saving_reroll() -> None:
    """Hand-built positions with a known answer, searched four turns deep."""
    spec = "farmers-finances-duel:depth=4,spread=3"
    sell = position(money=[63, 40], farms=[(0, 1, 0), (2, 0, 2)], row=5, market=(1, 0), current=0)
    assert farmtable.agents.make(spec, seed=1).act(sell, 0) == "sell bread 1"
    reroll = position(money=[30, 50], farms=[(0, 0, 0), (0, 0, 2)], row=4, phase="market", current=0)
    assert farmtable.agents.make(spec, seed=1).act(reroll, 0) == "reroll"


def test_a_passed_deadline_keeps_the_first_level(table: race.RaceTable) -> None:
    """Depth 1 always finishes; deeper levels started after the deadline are dropped (no timing involved)."""
    state = GAME.new_game(players=2, seed=4)
    assert isinstance(state, FarmersFinancesState)
    index, reached = duel.choose_deep(state, 4, deep.Deep(table, None, 3.0), deadline=-1.0)
    assert reached == 1
    assert index == duel.choose_deep(state, 1, deep.Deep(table, None, 3.0), None)[0]


def test_variants_keep_the_state_search() -> None:
    """With a rules variant the tuple rules do not apply: the player searches the game state instead."""
    plain = GAME.new_game(players=2, seed=4)
    variant = GAME.new_game(players=2, seed=4, variants=("last-card-of-a-pile",))
    assert isinstance(plain, FarmersFinancesState) and isinstance(variant, FarmersFinancesState)
    assert deep.covers(plain) and not deep.covers(variant)
    agent = duel.DuelAgent(seed=1, depth=2, spread=3.0)
    assert agent.act(variant, 0) in variant.legal_actions(0)
    assert agent.search is None
    agent.act(plain, 0)
    assert agent.search is not None


def test_pickled_without_its_memories() -> None:
    """The web pickles the agent to a worker and back at every move: the kept search stays behind."""
    import pickle

    state = GAME.new_game(players=2, seed=4)
    agent = duel.DuelAgent(seed=1, depth=2, spread=3.0)
    first = agent.act(state, 0)
    assert agent.search is not None
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.search is None
    assert len(pickle.dumps(agent)) < 10_000
    assert copy.act(state, 0) == first
