"""The 2-player player (``duel.py``): legal and repeatable choices, the own town rolled out with the
others set aside, the one-step choice when out of time, bad parameters refused, solo unchanged."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

import farmtable
import farmtable.agents
from farmtable.agents.greedy import GreedyAgent
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import duel
from farmtable.games.tiny_towns.duel import (
    DuelAgent,
    master_turns,
    move_candidates,
    name_candidates,
    play_game,
    play_town,
    set_aside_others,
)
from farmtable.games.tiny_towns.evaluation import best_placement_estimate
from farmtable.games.tiny_towns.rollout import RolloutAgent
from farmtable.games.tiny_towns.rules import BUILD_PHASE, NAME_PHASE, PLACE_PHASE, TinyTownsState
from tests.games.tiny_towns.positions import two_players_at_a_name

GAME = farmtable.get_game("tiny-towns")


@pytest.mark.parametrize("seed", [1, 2])
def test_every_choice_is_legal_and_a_seeded_agent_repeats(seed: int) -> None:
    state = GAME.new_game(players=2, seed=seed)
    first = DuelAgent(seed=seed, time=60.0, k=2, worlds=1, horizon=3)
    second = DuelAgent(seed=seed, time=60.0, k=2, worlds=1, horizon=3)
    other = GreedyAgent(seed=0)
    phases = set()
    for _ in range(14):  # the monuments, then whole rounds: name, place, build, from both seats
        p = state.actors()[0]
        if p == 1:
            state.apply(p, other.act(state, p))
            continue
        assert isinstance(state, TinyTownsState)
        phases.add(state.phase)
        legal = state.legal_actions(p)
        action = first.act(state, p)
        assert action in legal
        assert second.act(state, p) == action
        assert second.last == first.last
        state.apply(p, action)
    assert {NAME_PHASE, PLACE_PHASE, BUILD_PHASE} <= phases


def test_a_rollout_plays_the_own_town_to_its_end_and_leaves_the_others_standing() -> None:
    state = two_players_at_a_name(3, 6)
    me = state.mb
    copy = state.clone()
    set_aside_others(copy, me)
    other_grid = copy.towns[1 - me].grid[:]
    names = ["wood", "brick"]
    turns = master_turns(state, me)
    assert turns == [1 - me, me]  # the hat goes round: the other names next, then the player
    score = play_town(copy, me, names, turns)
    assert copy.is_over() and copy.towns[me].complete
    assert copy.towns[1 - me].grid == other_grid  # the other town never moved
    assert score == copy.result().totals[me]
    assert copy.towns[1 - me].mb_turns > state.towns[1 - me].mb_turns  # the other still named resources
    # a horizon stops the rollout after that many rounds and judges the town by the estimate
    short = state.clone()
    set_aside_others(short, me)
    play_town(short, me, names, turns, horizon=2)
    assert short.round == state.round + 2 and not short.is_over()


def test_names_are_ranked_by_own_gain_less_what_they_give_the_other() -> None:
    state = two_players_at_a_name(4, 5)
    me = state.mb
    ranked = name_candidates(state, me)
    resources = {c.action.what for c in ranked[:5]}
    assert resources == {a.what for a in state.legal_actions(me)}  # every resource's best pair comes first
    for cand in ranked[:5]:
        assert cand.gift == pytest.approx(best_placement_estimate(state, 1 - me, cand.action.what))
        assert cand.prior == max(c.prior for c in ranked if c.action == cand.action)
    moves = move_candidates(_after_name(state, ranked[0].action), 1 - me)
    assert [c.prior for c in moves] == sorted((c.prior for c in moves), reverse=True)


def _after_name(state: TinyTownsState, action: Any) -> TinyTownsState:
    copy = state.clone()
    copy.apply(copy.mb, action)
    return copy


def test_out_of_time_it_plays_the_first_candidate() -> None:
    state = two_players_at_a_name(5, 4)
    me = state.mb
    agent = DuelAgent(seed=0, time=1e-9, k=4, worlds=2)
    action = agent.act(state, me)
    assert agent.last["worlds"] == 0
    assert action == name_candidates(state, me)[0].action


class _Clock:
    """A CPU clock that moves on by ``step`` seconds every time it is read (no real timing)."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = itertools.count()

    def process_time(self) -> float:
        next(self.reads)
        self.now += self.step
        return self.now


def test_the_deadline_is_checked_before_every_rollout_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    state = two_players_at_a_name(6, 3)
    me = state.mb
    clock = _Clock(0.01)
    monkeypatch.setattr(duel, "time", clock)
    agent = DuelAgent(seed=0, time=0.2, k=3, worlds=2)
    agent.act(state, me)
    # every read moves the clock 0.01 s: the 0.18 s the rollouts may use last 18 reads, far less than
    # one whole rollout, so no world finishes and the decision ends within the budget of reads
    assert agent.last["worlds"] == 0
    assert clock.now <= 0.2 + 0.01


@pytest.mark.parametrize(
    ("params", "word"),
    [
        ({"time": 0}, "time"),
        ({"time": "fast"}, "time"),
        ({"k": 0}, "k"),
        ({"k": 2.5}, "k"),
        ({"worlds": 0}, "worlds"),
        ({"worlds": True}, "worlds"),
        ({"horizon": -1}, "horizon"),
        ({"gift": -0.5}, "gift"),
        ({"rival": 2}, "rival"),
        ({"rival": -1}, "rival"),
        ({"rival": 0.5}, "rival"),
        ({"win": -1}, "win"),
        ({"win": "big"}, "win"),
    ],
)
def test_bad_parameters_are_refused_with_their_name(params: dict[str, Any], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        DuelAgent(seed=0, **params)
    spec = "tiny-towns-duel:" + ",".join(f"{k}={v}" for k, v in params.items())
    with pytest.raises(ValueError, match=word):
        farmtable.agents.make(spec, seed=0)


def test_the_spec_makes_the_agent() -> None:
    agent = farmtable.agents.make("tiny-towns-duel:time=0.5,k=3,worlds=2,horizon=4", seed=4)
    assert isinstance(agent, DuelAgent)
    assert (agent.budget, agent.k, agent.worlds, agent.horizon) == (0.5, 3, 2, 4)


def test_solo_it_plays_like_the_solo_rollout_player() -> None:
    state = GAME.new_game(players=1, seed=7)
    for _ in range(4):
        mine = DuelAgent(seed=3, time=60.0).act(state, 0)
        assert mine == RolloutAgent(seed=3, time=60.0).act(state, 0)
        state.apply(0, mine)


class _Guard:
    """A state that lets the agent read only what its player may: the game, the player count, whose
    turn, the legal moves and determinizations (as ``tests/agents/test_hidden_info.py``)."""

    SAFE = frozenset({"actors", "legal_actions", "determinize", "players", "is_over", "game"})

    def __init__(self, state: TinyTownsState) -> None:
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name: str) -> Any:
        if name not in self.SAFE:
            raise AssertionError(f"the agent read state.{name}, which may show hidden information")
        return getattr(object.__getattribute__(self, "_state"), name)


def test_it_reads_only_what_its_player_may_see_and_not_the_others_hidden_placement() -> None:
    state = two_players_at_a_name(8, 4)
    state.apply(state.mb, state.legal_actions(state.mb)[0])  # named: both now place, hidden
    assert state.phase == PLACE_PHASE
    me = 1 - state.mb
    other = 1 - me
    state.apply(other, state.legal_actions(other)[0])  # the other has placed (hidden from me)
    action = DuelAgent(seed=2, time=60.0, k=2, worlds=1, horizon=2).act(_Guard(state), me)  # type: ignore[arg-type]
    assert action in state.legal_actions(me)
    elsewhere = state.determinize(me, random.Random(99))  # the same view, another hidden placement
    again = DuelAgent(seed=2, time=60.0, k=2, worlds=1, horizon=2).act(elsewhere, me)
    assert again == action


def _hand_built() -> TinyTownsState:
    """Deal 2000 with both monuments kept, then set by hand: round 20, the other player (the Master
    Builder) named glass; the player's town has two empty squares, A4 and D4. Glass on D4 completes a
    Cottage (wheat D3, brick C4) in the Orchard's column, so it can be built at once and fed (+3)."""
    state = GAME.new_game(players=2, seed=2000)
    assert isinstance(state, TinyTownsState)
    for p in (0, 1):
        state.apply(p, state.legal_actions(p)[0])
    state.towns[0].grid = [
        *("Inn", "Shed", "Theater", "Orchard"),
        *("Cottage", "Shed", "Cloister", "Shed"),
        *("Shed", "Cottage", "Shed", "wheat"),
        *("", "Shed", "brick", ""),
    ]
    state.towns[1].grid = ["Shed"] * 6 + ["wood", "stone"] + [""] * 8
    state.round, state.mb, state.named, state.phase = 20, 1, "glass", PLACE_PHASE
    state._cache.clear()
    return state


def test_in_a_hand_built_position_it_places_the_cube_that_completes_a_fed_cottage() -> None:
    state = _hand_built()
    agent = DuelAgent(seed=0, time=60.0, k=2, worlds=2, horizon=0)
    action = agent.act(state, 0)
    assert str(action) == "place glass D4"
    assert agent.last["values"][agent.last["chosen"]] == max(agent.last["values"])
    # the move is better by the rules: after it the Cottage is built and fed, 3 points more than before
    after = state.clone()
    after.apply(0, action)
    after.apply(1, after.legal_actions(1)[0])
    assert after.phase == BUILD_PHASE
    cottage = next(a for a in after.legal_actions(0) if a.what == "Cottage" and a.target == 15)
    before = after.result().totals[0]
    after.apply(0, cottage)
    assert after.result().totals[0] >= before + 3


def test_a_candidates_value_is_its_rollouts_mean() -> None:
    state = _hand_built()
    agent = DuelAgent(seed=5, time=60.0, k=2, worlds=1, horizon=0)
    agent.act(state, 0)
    # the same world and name stream as the agent's: a fresh agent with the same seed draws them alike
    rng = random.Random(5)
    world = state.determinize(0, random.Random(rng.getrandbits(64)))
    stream = random.Random(rng.getrandbits(64))
    names = [stream.choice(C.RESOURCES) for _ in range(duel.STREAM)]
    for cand, value in zip(move_candidates(world, 0), agent.last["values"], strict=False):
        copy = world.clone()
        set_aside_others(copy, 0)
        copy.apply(0, cand.action)
        assert play_town(copy, 0, names, master_turns(world, 0)) == value


def test_a_world_cut_short_rates_the_candidates_finished_in_it(monkeypatch: pytest.MonkeyPatch) -> None:
    state = two_players_at_a_name(9, 5)
    me = state.mb
    calls: list[int] = []

    def two_then_out(*args: Any, **kwargs: Any) -> float:
        calls.append(1)
        if len(calls) > 2:
            raise duel.OutOfTime
        return [5.0, 50.0][len(calls) - 1]  # the second candidate's town ends far better

    monkeypatch.setattr(duel, "play_town", two_then_out)
    agent = DuelAgent(seed=0, time=60.0, k=4, worlds=2, gift=0.0)
    action = agent.act(state, me)
    assert agent.last["worlds"] == 0 and agent.last["rated"] == 2
    assert action == name_candidates(state, me)[1].action  # the better of the two rated in the same world


def test_a_game_rollout_plays_every_town_to_the_end_of_the_game() -> None:
    state = two_players_at_a_name(3, 6)
    me = state.mb
    copy = state.clone()
    margin, share = play_game(copy, me)
    assert copy.is_over() and all(town.complete for town in copy.towns)
    result = copy.result()
    assert margin == result.totals[me] - result.totals[1 - me]
    assert share == (1.0 / len(result.winners) if me in result.winners else 0.0)
    assert copy.towns[1 - me].grid != state.towns[1 - me].grid  # the other town was played too
    again = state.clone()
    assert play_game(again, me) == (margin, share)  # the base policy is a pure function of its world


def test_with_rival_a_candidates_value_is_its_game_rollouts_margin_plus_the_win_bonus() -> None:
    state = _hand_built()
    agent = DuelAgent(seed=5, time=60.0, k=2, worlds=1, rival=1, win=7.0)
    agent.act(state, 0)
    rng = random.Random(5)  # the same world as the agent's: a fresh generator with the same seed
    world = state.determinize(0, random.Random(rng.getrandbits(64)))
    for cand, value in zip(move_candidates(world, 0), agent.last["values"], strict=False):
        copy = world.clone()
        copy.apply(0, cand.action)
        margin, share = play_game(copy, 0)
        assert value == margin + 7.0 * share


@pytest.mark.parametrize(("win", "chosen"), [(0.0, 0), (10.0, 1)])
def test_the_win_bonus_prefers_a_narrow_win_to_a_wide_margin_that_loses(
    monkeypatch: pytest.MonkeyPatch, win: float, chosen: int
) -> None:
    state = two_players_at_a_name(9, 5)
    me = state.mb
    outcomes = iter([(4.0, 0.0), (1.0, 1.0)] * 2)  # per world: the first candidate's margin is higher in
    # a lost game (a Feast Hall, a tie-break), the second one wins narrowly

    def fixed(*args: Any, **kwargs: Any) -> tuple[float, float]:
        return next(outcomes)

    monkeypatch.setattr(duel, "play_game", fixed)
    agent = DuelAgent(seed=0, time=60.0, k=2, worlds=2, rival=1, win=win)
    action = agent.act(state, me)
    assert agent.last["worlds"] == 2 and agent.last["chosen"] == chosen
    assert action == name_candidates(state, me)[chosen].action


def test_with_rival_the_deadline_is_checked_before_every_rollout_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    state = two_players_at_a_name(6, 3)
    me = state.mb
    clock = _Clock(0.01)
    monkeypatch.setattr(duel, "time", clock)
    agent = DuelAgent(seed=0, time=0.2, k=3, worlds=2, rival=1)
    agent.act(state, me)
    assert agent.last["worlds"] == 0
    assert clock.now <= 0.2 + 0.01


def test_with_rival_solo_it_still_plays_like_the_solo_rollout_player() -> None:
    state = GAME.new_game(players=1, seed=7)
    for _ in range(3):
        mine = DuelAgent(seed=3, time=60.0, rival=1, win=10.0).act(state, 0)
        assert mine == RolloutAgent(seed=3, time=60.0).act(state, 0)
        state.apply(0, mine)


def test_who_names_by_the_estimate_in_a_game_rollout(monkeypatch: pytest.MonkeyPatch) -> None:
    state = two_players_at_a_name(3, 6)
    me = state.mb
    real = duel._best_pair
    namers: list[int] = []

    def counted(st: TinyTownsState, p: int, deadline: float | None = None) -> Any:
        namers.append(p)
        return real(st, p, deadline)

    monkeypatch.setattr(duel, "_best_pair", counted)
    play_game(state.clone(), me, stream=["wood"], namers=frozenset())
    assert namers == []  # every Master Builder names the stream's resources
    play_game(state.clone(), me, stream=["wood"], namers=frozenset({me}))
    assert namers and set(namers) == {me}
    namers.clear()
    play_game(state.clone(), me)
    assert set(namers) == {0, 1}  # by default everyone names by the estimate


def test_the_spec_sets_the_rival_mode() -> None:
    agent = farmtable.agents.make("tiny-towns-duel:time=0.2,rival=1,win=5,names=1", seed=0)
    assert isinstance(agent, DuelAgent)
    assert (agent.rival, agent.win, agent.names) == (True, 5.0, 1)
    with pytest.raises(ValueError, match="names"):
        DuelAgent(seed=0, names=3)
