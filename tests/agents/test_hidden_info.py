"""Agents never read what their player may not see.

Two checks: (1) on the real state an agent only calls the parts of the contract that
are safe for its player (whose turn, its own legal moves, ``determinize``); every
other access raises. (2) Two states that look the same to the player (one made from
the other with ``determinize``) get the same action, for games whose ``determinize``
does not depend on how the hidden parts happen to be arranged (checked separately:
a game failing that check leaks the hidden arrangement into the sample it draws).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import farmtable.agents
from farmtable.core import Rng, State
from tests.agents.helpers import game_ids, mid_game, players_for

AGENTS = ["random", "greedy", "ismcts:iters=12", "mcts:iters=12"]
GAMES = game_ids()
SAFE = frozenset({"actors", "legal_actions", "determinize", "players", "is_over", "game"})


class Guard:
    """A state wrapper that lets an agent call only what is safe for ``player``."""

    def __init__(self, state: State[Any]) -> None:
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name: str) -> Any:
        if name not in SAFE:
            raise AssertionError(f"the agent read state.{name}, which may show hidden information")
        return getattr(object.__getattribute__(self, "_state"), name)


def _positions(game_id: str) -> list[State[Any]]:
    n = players_for(game_id)
    return [mid_game(game_id, n, seed=s, steps=steps) for s, steps in ((1, 3), (2, 11), (3, 25))]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("spec", AGENTS)
def test_agent_reads_only_what_is_safe(game_id: str, spec: str) -> None:
    for state in _positions(game_id):
        p = state.actors()[0]
        action = farmtable.agents.make(spec, seed=5).act(Guard(state), p)  # type: ignore[arg-type]
        assert action in state.legal_actions(p)


def _canonical_determinize(state: State[Any], p: int) -> bool:
    other = state.determinize(p, Rng(99))
    return state.determinize(p, Rng(5)).to_json() == other.determinize(p, Rng(5)).to_json()


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("spec", AGENTS)
def test_agent_acts_the_same_when_hidden_parts_differ(game_id: str, spec: str) -> None:
    checked = 0
    for i, state in enumerate(_positions(game_id)):
        p = state.actors()[0]
        if not _canonical_determinize(state, p):
            continue
        other = state.determinize(p, Rng(1000 + i))
        assert json.dumps(other.view(p), sort_keys=True) == json.dumps(state.view(p), sort_keys=True)
        a = farmtable.agents.make(spec, seed=7).act(state, p)
        b = farmtable.agents.make(spec, seed=7).act(other, p)
        assert str(a) == str(b), f"{spec} chose {a} or {b} depending on hidden information"
        checked += 1
    if not checked:
        pytest.skip(f"{game_id}: determinize depends on the hidden arrangement (see the test below)")


@pytest.mark.parametrize("game_id", GAMES)
def test_determinize_does_not_depend_on_the_hidden_arrangement(game_id: str) -> None:
    """Two states that look the same to p must determinize to the same sample with the same rng.

    If this fails, the game's ``determinize`` builds its pool of unseen items from the
    hidden order (e.g. deck + opponent's hand as they lie) before shuffling: sort the
    pool first (or draw by a canonical order), so search agents cannot be steered by
    what they may not see.
    """
    for state in _positions(game_id):
        p = state.actors()[0]
        assert _canonical_determinize(state, p), f"{game_id}: determinize({p}) depends on hidden information"
