"""The solo rollout player (``rollout.py``): legal and repeatable choices, a position where it finds
what greedy misses, parameters checked, greedy's choice when out of time, greedy outside solo."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import farmtable
import farmtable.agents
from farmtable.agents.greedy import GreedyAgent, greedy_choice
from farmtable.games.tiny_towns.rollout import RolloutAgent, move_candidates, name_candidates, play_out
from farmtable.games.tiny_towns.rules import NAME_PHASE, PLACE, PLACE_PHASE, TinyTownsState

GAME = farmtable.get_game("tiny-towns")

# Deal 3102 after 17 rounds of greedy play (the deck order is known: every card has been seen). Greedy
# names wood and puts it on square 11; the rest of the game played greedily from there ends at -5.
LATE: dict[str, Any] = {
    "players": 1,
    "variants": [],
    "buildings": ["Cottage", "Orchard", "Millstone", "Tailor", "Abbey", "Feast Hall", "Trading Post"],
    "rng": 14334736817860873918,
    "phase": "name",
    "round": 17,
    "master_builder": -1,
    "named": "",
    "free_round": False,
    "deck": ["brick", "stone", "wood", "stone", "brick", "stone", "glass", "wheat", "wheat", "glass", "wheat", "brick"],
    "discard": [],
    "removed": [],
    "face_up": ["wood", "wood", "glass"],
    "unknown": 0,
    "epoch": 35,
    "towns": [
        {
            "grid": [
                *("Millstone", "", "wheat", "Cottage"),
                *("glass", "", "wood", "brick"),
                *("glass", "", "", ""),
                *("wheat", "brick", "wheat", "Abbey"),
            ],
            "statue": [],
            "stored": {},
            "factory": {},
            "bank": {},
            "cavern": [],
            "dealt": ["Shrine of the Elder Tree", "The Sky Baths"],
            "monument": "The Sky Baths",
            "built": False,
            "shrine_vp": 0,
            "opaleye": [],
            "mb_turns": 0,
            "completed": -1,
            "pending": [],
            "done": True,
            "choice": None,
        }
    ],
}


def _late() -> TinyTownsState:
    envelope = json.loads(GAME.new_game(players=1, seed=0).to_json())
    envelope["state"] = LATE
    state = GAME.from_json(json.dumps(envelope))
    assert isinstance(state, TinyTownsState)
    return state


def _score_after(state: TinyTownsState, *actions: Any) -> int:
    """The greedy base policy's final score after ``actions`` from a copy of ``state``."""
    copy = state.clone()
    for action in actions:
        copy.apply(0, action)
    return play_out(copy)


def test_in_a_late_position_the_rollout_finds_the_square_greedy_misses() -> None:
    state = _late()
    agent = RolloutAgent(seed=0, time=120.0, k=6, worlds=2)
    name = agent.act(state, 0)
    assert agent.last["worlds"] == 1  # the deck order is known: every world is the same
    greedy_name = state.legal_actions(0)[greedy_choice(state, 0, random.Random(0))]
    after = state.clone()
    after.apply(0, name)
    assert after.phase == PLACE_PHASE
    place = agent.act(after, 0)  # the square chosen with the card, played without a new search
    assert place.verb == PLACE and place in after.legal_actions(0)
    greedy_after = state.clone()
    greedy_after.apply(0, greedy_name)
    greedy_place = greedy_after.legal_actions(0)[greedy_choice(greedy_after, 0, random.Random(0))]
    assert (str(name), place.target) != (str(greedy_name), greedy_place.target)
    mine = _score_after(state, name, place)
    greedy = _score_after(state, greedy_name, greedy_place)
    assert mine >= greedy + 10  # the rollout's move is worth many points over greedy's
    assert mine == max(agent.last["means"])  # and it is the best of the candidates it rated


def test_the_base_policy_plays_like_greedy_and_a_rollout_never_scores_below_it() -> None:
    state = _late()
    candidates = name_candidates(state)
    best = candidates[0]
    copy = state.clone()
    copy.apply(0, best.action)
    assert copy.legal_actions(0)[greedy_choice(copy, 0, random.Random(0))].target == best.square
    agent = RolloutAgent(seed=0, time=120.0, k=3, worlds=1)
    agent.act(state, 0)
    assert max(agent.last["means"]) >= agent.last["means"][0]  # greedy's own move is a candidate


@pytest.mark.parametrize("seed", [1, 2])
def test_every_choice_is_legal_and_a_seeded_agent_repeats(seed: int) -> None:
    state = GAME.new_game(players=1, seed=seed)
    assert isinstance(state, TinyTownsState)
    first = RolloutAgent(seed=seed, time=60.0, k=2, worlds=1)
    second = RolloutAgent(seed=seed, time=60.0, k=2, worlds=1)
    for _ in range(8):  # the monument, then whole rounds: name, place, build
        legal = state.legal_actions(0)
        action = first.act(state, 0)
        assert action in legal
        assert second.act(state, 0) == action
        state.apply(0, action)


@pytest.mark.parametrize(
    ("params", "word"),
    [
        ({"time": 0}, "time"),
        ({"time": -1.0}, "time"),
        ({"time": "fast"}, "time"),
        ({"k": 0}, "k"),
        ({"k": 2.5}, "k"),
        ({"worlds": 0}, "worlds"),
        ({"worlds": True}, "worlds"),
        ({"widen": 2}, "widen"),
        ({"spread": -1}, "spread"),
    ],
)
def test_bad_parameters_are_refused_with_their_name(params: dict[str, Any], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        RolloutAgent(seed=0, **params)
    spec = "tiny-towns-rollout:" + ",".join(f"{k}={v}" for k, v in params.items())
    with pytest.raises(ValueError, match=word):
        farmtable.agents.make(spec, seed=0)


def test_the_spec_makes_the_agent() -> None:
    agent = farmtable.agents.make("tiny-towns-rollout:time=0.5,k=3,worlds=1", seed=4)
    assert isinstance(agent, RolloutAgent)
    assert (agent.budget, agent.k, agent.worlds) == (0.5, 3, 1)


def test_out_of_time_it_plays_greedys_choice() -> None:
    state = GAME.new_game(players=1, seed=5)
    assert isinstance(state, TinyTownsState)
    while state.phase != NAME_PHASE:
        state.apply(0, state.legal_actions(0)[0])
    agent = RolloutAgent(seed=0, time=1e-9, k=4, worlds=2)
    action = agent.act(state, 0)
    assert agent.last["worlds"] == 0
    assert action == name_candidates(state)[0].action  # greedy's card, its best square remembered
    after = state.clone()
    after.apply(0, action)
    place = agent.act(after, 0)
    assert place.target == name_candidates(state)[0].square


def test_greedy_ranks_the_candidates_of_a_build_step() -> None:
    state = _late()
    state.apply(0, name_candidates(state)[0].action)
    state.apply(0, state.legal_actions(0)[0])
    ranked = move_candidates(state)
    assert sorted(str(c.action) for c in ranked) == sorted(str(a) for a in state.legal_actions(0))
    assert [c.prior for c in ranked] == sorted((c.prior for c in ranked), reverse=True)


def test_outside_solo_tiny_towns_it_plays_like_greedy() -> None:
    state = GAME.new_game(players=2, seed=7)
    for _ in range(6):
        p = state.actors()[0]
        mine = RolloutAgent(seed=3, time=0.5).act(state, p)
        assert mine == GreedyAgent(seed=3).act(state, p)
        state.apply(p, mine)


def test_widening_rates_every_move_when_time_allows_and_keeps_the_best() -> None:
    state = _late()
    narrow = RolloutAgent(seed=0, time=120.0, k=2, worlds=1)
    wide = RolloutAgent(seed=0, time=120.0, k=2, worlds=1, widen=1)
    narrow.act(state, 0)
    wide.act(state, 0)
    assert len(narrow.last["means"]) == 2
    assert len(wide.last["means"]) == len(name_candidates(state))  # every (card, square) pair
    assert wide.last["means"][:2] == narrow.last["means"]  # the same games for the first two
    assert max(wide.last["means"]) >= max(narrow.last["means"])
    assert wide.last["means"][wide.last["chosen"]] == max(wide.last["means"])


def test_spread_puts_every_cards_best_square_first() -> None:
    state = _late()
    plain = name_candidates(state)
    spread = name_candidates(state, spread=True)
    cards = sorted({str(a) for a in state.legal_actions(0)})
    assert sorted(str(c.action) for c in spread[: len(cards)]) == cards
    assert spread[0] == plain[0]  # greedy's own pair stays first
    assert sorted(spread, key=lambda c: (c.action, c.square)) == sorted(plain, key=lambda c: (c.action, c.square))
    for cand in spread[: len(cards)]:  # each is its card's best pair
        assert cand.prior == max(c.prior for c in plain if c.action == cand.action)


class _Guard:
    """A solo state that lets the agent read only what its player may: the game, the player count,
    whose turn, the legal moves and determinizations (as ``tests/agents/test_hidden_info.py``)."""

    SAFE = frozenset({"actors", "legal_actions", "determinize", "players", "is_over", "game"})

    def __init__(self, state: TinyTownsState) -> None:
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name: str) -> Any:
        if name not in self.SAFE:
            raise AssertionError(f"the agent read state.{name}, which may show hidden information")
        return getattr(object.__getattribute__(self, "_state"), name)


def test_it_reads_only_what_its_player_may_see_and_ignores_the_hidden_deck_order() -> None:
    state = GAME.new_game(players=1, seed=11)
    assert isinstance(state, TinyTownsState)
    state.apply(0, state.legal_actions(0)[0])  # the monument kept; now a card pick, the deck unseen
    assert state.unknown > 0
    guarded = RolloutAgent(seed=2, time=60.0, k=2, worlds=1)
    name = guarded.act(_Guard(state), 0)  # type: ignore[arg-type]
    assert name in state.legal_actions(0)
    after = state.clone()
    after.apply(0, name)
    assert guarded.act(_Guard(after), 0) in after.legal_actions(0)  # the remembered square
    other = state.determinize(0, 1234)  # the same view, the unseen cards in another order
    assert other.deck != state.deck
    plain = RolloutAgent(seed=2, time=60.0, k=2, worlds=1)
    assert plain.act(state, 0) == RolloutAgent(seed=2, time=60.0, k=2, worlds=1).act(other, 0) == name
