"""The RL fast path (issue 16) says exactly what the view-based path says.

- each fast encoder writes the vector the schema encodes from ``view(p)``, on random positions of
  every player count and variant set (the hidden-information tests in ``test_catalogue.py`` run
  on ``Spec.observe``, which is the fast encoder where a game has one);
- cached legal sets and masks agree with the legal actions, and the shared masks are read-only;
- ``env()`` keeps the checks of PettingZoo's wrappers without the wrappers.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

import numpy as np

import farmtable
from farmtable.rl.catalogue import rl_game, spec, variant_sets
from farmtable.rl.pettingzoo import env
from tests.rl.conftest import all_games, ready_or_skip

SEEDS = 3
"""Random games per player count and variant set."""
STRIDE = 2
"""Every seat's observation is compared at every ``STRIDE``-th position (the first one shifts per seed)."""


def _fast_games() -> list[str]:
    out = []
    for game_id in all_games():
        try:
            if rl_game(game_id).fast is not None:
                out.append(game_id)
        except KeyError:
            continue
    return out


@pytest.mark.parametrize("game_id", _fast_games())
def test_fast_encoder_equals_the_view_encoding(game_id: str) -> None:
    """Every fast encoder (and its in-place ``into``, where it has one, across games) writes the view's
    encoding on random positions of every player count and variant set."""
    ready_or_skip(game_id)
    game = farmtable.get_game(game_id)
    checked = 0
    for players in range(game.min_players, game.max_players + 1):
        for variants in variant_sets(game_id, players):
            sp = spec(game_id, players, variants)
            assert sp.fast is not None
            into = getattr(sp.fast, "into", None)
            # ``into`` (in place: only what changed since its last write into that array) gets one array per
            # seat for every game of this player count and variant set; they start as NaN
            kept = [np.full(sp.obs_size, np.nan, dtype=np.float32) for _ in range(players)]
            for seed in range(SEEDS):
                state = sp.new_game(seed)
                rng = random.Random(seed)
                out = np.full(sp.obs_size, np.nan, dtype=np.float32)  # every entry must be written
                step = 0
                while True:
                    if step % STRIDE == seed % STRIDE or state.is_over():
                        for p in range(players):
                            expected = sp.observe_view(state, p)
                            out.fill(np.nan)
                            sp.observe_into(state, p, out)
                            assert np.array_equal(out, expected), (players, variants, p, state.to_json())
                            assert np.array_equal(sp.observe(state, p), expected)
                            if into is not None:
                                into(state, p, kept[p])
                                assert np.array_equal(kept[p], expected), (players, variants, p, state.to_json())
                            checked += 1
                    if state.is_over():
                        break
                    player = rng.choice(state.actors())  # any actor: simultaneous steps get every order
                    state.apply(player, rng.choice(state.legal_actions(player)))
                    step += 1
    assert checked > 500


@pytest.mark.parametrize("game_id", all_games())
def test_cached_legal_sets_and_masks_match_the_legal_actions(game_id: str) -> None:
    ready_or_skip(game_id)
    players = max(2, farmtable.get_game(game_id).min_players)
    sp = spec(game_id, players)
    state = sp.new_game(5)
    rng = random.Random(5)
    for _ in range(80):
        if state.is_over():
            break
        for p in range(players):
            legal, mask = sp.legal_and_mask(state, p)
            actions = state.legal_actions(p)
            assert sorted(map(str, legal.values())) == sorted(map(str, actions))
            assert all(sp.actions[i] == sp.entry(a) for i, a in legal.items())
            assert np.array_equal(np.flatnonzero(mask), sorted(legal))
            assert not mask.flags.writeable
            with pytest.raises(ValueError):
                mask[0] = 1
        player = state.actors()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))


@pytest.mark.parametrize("game_id", all_games())
def test_adapters_play_the_engines_current_legal_objects(game_id: str) -> None:
    """``legal_entry`` maps each catalogue index to its position in the legal list, and the action objects
    the adapters hand to ``apply`` are the very objects of the list the engine just returned (what lets
    ``apply`` skip its second parse and check: ``core.game._memo``), not equal ones from an older list."""
    import farmtable.core.game as core_game

    ready_or_skip(game_id)
    players = max(2, farmtable.get_game(game_id).min_players)
    sp = spec(game_id, players)
    rng = random.Random(8)
    e = env(game_id, players)
    for seed in range(2):
        state = sp.new_game(seed)
        for _ in range(60):
            if state.is_over():
                break
            player = state.actors()[0]
            legal = state.legal_actions(player)
            slots, mask = sp.legal_entry(legal)
            assert sorted(slots.values()) == list(range(len(legal)))
            assert all(sp.actions[i] == sp.entry(legal[k]) for i, k in slots.items())
            assert np.array_equal(np.flatnonzero(mask), sorted(slots))
            indexed, _ = sp.legal_and_mask(state, player)
            memo = core_game._memo
            assert memo is not None and memo[0] is state and memo[1] == player
            listed = {id(a) for a in memo[2]}
            assert all(id(a) in listed for a in indexed.values())
            state.apply(player, legal[rng.randrange(len(legal))])
        # the AEC env: the object ``step`` plays is one of the list ``last()`` asked the engine for
        e.reset(seed=seed)
        played: list[bool] = []
        real_apply = e.state.apply

        def spy(seat: int, action: object, played: list[bool] = played, real_apply: Any = real_apply) -> None:
            memo = core_game._memo
            played.append(memo is not None and any(a is action for a in memo[2]))
            real_apply(seat, action)

        e.state.apply = spy
        for _ in range(40):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                break
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert played and all(played)


def test_checked_env_keeps_the_wrapper_rules() -> None:
    e = env("farmers-finances", 2)
    with pytest.raises(Exception, match="reset"):
        e.step(0)
    e.reset(seed=1)
    with pytest.raises(AssertionError, match="action space"):
        e.step(10_000)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert e.rewards["player_0"] == -1.0 and e.rewards["player_1"] == 0.0
    assert all(e.terminations.values())
    for _agent in e.agent_iter():
        e.step(None)
    assert e.agents == []


def test_openspiel_observing_does_not_change_the_next_games() -> None:
    """pyspiel's generic observation path built a new initial state per call, drawing a game seed."""
    pyspiel = pytest.importorskip("pyspiel")
    import farmtable.rl.openspiel  # noqa: F401  (registers the games)

    watched = pyspiel.load_game("python_farmtable_farmers_finances", {"seed": 3})
    plain = pyspiel.load_game("python_farmtable_farmers_finances", {"seed": 3})
    first = watched.new_initial_state()
    for _ in range(3):
        first.observation_tensor(0)
        first.observation_string(1)
    plain.new_initial_state()
    assert str(watched.new_initial_state()) == str(plain.new_initial_state())
    sp = spec("farmers-finances", 2)
    assert np.array_equal(np.asarray(first.observation_tensor(), np.float32), sp.observe(first.inner, 0))


def test_bench_sampler_reads_the_masks_ones() -> None:
    """``rl.bench._ones`` (a bool view for long masks) gives the indices ``np.flatnonzero`` gives."""
    from farmtable.rl.bench import _ones

    rng = np.random.default_rng(3)
    for size in (1, 28, 64, 65, 366, 5008, 22521):
        for ones in (0, 1, 7):
            mask = np.zeros(size, dtype=np.int8)
            mask[rng.choice(size, min(ones, size), replace=False)] = 1
            assert _ones(mask) == np.flatnonzero(mask).tolist()


def test_bench_columns_measure_different_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each column of an ``rl.bench`` row is paired with the native column on its own deals, not on the same
    first deals every other column measured (session 18: before, every column started at deal 0)."""
    from farmtable.rl import bench

    deals_by_column: list[set[int]] = []
    real_rate, real_paired = bench._games_rate, bench.paired

    def recording_paired(*args: Any, **kwargs: Any) -> Any:
        deals_by_column.append(set())
        return real_paired(*args, **kwargs)

    def recording_rate(play_one: Any, seeds: range) -> float:
        deals_by_column[-1].update(seed for seed in seeds if seed < 10**6)  # not the warm-up deals
        return float(real_rate(play_one, seeds))

    monkeypatch.setattr(bench, "paired", recording_paired)
    monkeypatch.setattr(bench, "_games_rate", recording_rate)
    bench.row("farmers-finances", rounds=2, seconds=0.01, columns=("native+view", "native+obs+mask"))
    assert len(deals_by_column) == 2 and all(deals_by_column)
    assert not deals_by_column[0] & deals_by_column[1], "two columns measured the same deals"


def test_bench_cells_with_other_first_seeds_share_no_game() -> None:
    """``paired`` plays deals from ``first_seed`` on (after its warm-up deals from 10**6), so two cells
    ``COLUMN_SEEDS`` apart play no deal in common."""
    from farmtable.rl import bench

    def deals_of(first_seed: int) -> set[int]:
        played: set[int] = set()

        def play(seed: int) -> int:
            played.add(seed)
            return 1

        bench.paired(play, play, rounds=3, seconds=1e-9, first_seed=first_seed)
        return {seed for seed in played if seed < 10**6}

    first, second = deals_of(bench.COLUMN_SEEDS), deals_of(2 * bench.COLUMN_SEEDS)
    assert first and second
    assert min(first) == bench.COLUMN_SEEDS and min(second) == 2 * bench.COLUMN_SEEDS
    assert not first & second
