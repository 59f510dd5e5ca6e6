"""The fixed action catalogues cover every legal action; observations hold only what a seat may see."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")

import random

import numpy as np

import farmtable
from farmtable.rl import spec, variant_sets
from farmtable.rl.catalogue import final_rewards, rl_game
from tests.rl.conftest import all_games, ready_or_skip

GAMES_PER_SETTING = 3


def settings(game_id: str) -> list[tuple[int, tuple[str, ...]]]:
    """Every player count with no variant and each variant on its own."""
    game = farmtable.get_game(game_id)
    return [(n, vs) for n in range(game.min_players, game.max_players + 1) for vs in variant_sets(game_id, n)]


@pytest.mark.parametrize("game_id", all_games())
def test_catalogue_covers_every_legal_action(game_id: str) -> None:
    """Random games of every player count and variant: each legal notation has a fixed index."""
    ready_or_skip(game_id)
    for players, variants in settings(game_id):
        sp = spec(game_id, players, variants)
        assert len(set(sp.actions)) == sp.num_actions
        for g in range(GAMES_PER_SETTING):
            state = sp.new_game(1000 + g)
            rng = random.Random(g)
            while not state.is_over():
                player = rng.choice(state.actors())
                legal = state.legal_actions(player)
                missing = [str(a) for a in legal if sp.entry(a) not in sp.index]
                assert not missing, f"{game_id} {players}p {variants}: not in the catalogue: {missing}"
                assert len(sp.legal(state, player)) == len(legal), "two legal actions share a catalogue index"
                state.apply(player, rng.choice(legal))


@pytest.mark.parametrize("game_id", all_games())
def test_observations_fit_their_space(game_id: str) -> None:
    """Every observation has the fixed length and stays within the declared bounds."""
    ready_or_skip(game_id)
    game = farmtable.get_game(game_id)
    # every player count without variants, every variant at the smallest and largest count
    chosen = [(n, vs) for n, vs in settings(game_id) if not vs or n in (game.min_players, game.max_players)]
    for players, variants in chosen:
        sp = spec(game_id, players, variants)
        assert sum(r.stop - r.start for r in sp.rows()) == sp.obs_size
        state = sp.new_game(7)
        rng = random.Random(7)
        step = 0
        while not state.is_over():
            if step % 5 == 0:
                for p in range(players):
                    obs = sp.observe(state, p)
                    assert obs.shape == (sp.obs_size,) and obs.dtype == np.float32
                    bad = [
                        r.name
                        for r in sp.rows()
                        if not (sp.low[r.start : r.stop] <= obs[r.start : r.stop]).all()
                        or not (obs[r.start : r.stop] <= sp.high[r.start : r.stop]).all()
                    ]
                    assert not bad, f"{game_id}: out of bounds: {bad}"
            player = rng.choice(state.actors())
            state.apply(player, rng.choice(state.legal_actions(player)))
            step += 1


@pytest.mark.parametrize("game_id", all_games())
def test_observation_ignores_others_hidden_information(game_id: str) -> None:
    """Re-sampling everything a seat has not seen (``determinize``) never changes its observation."""
    ready_or_skip(game_id)
    game = farmtable.get_game(game_id)
    for players in sorted({game.min_players, min(3, game.max_players)}):
        sp = spec(game_id, players)
        state = sp.new_game(11)
        rng = random.Random(11)
        step = 0
        while not state.is_over():
            if step % 3 == 0:
                for p in range(players):
                    seen = sp.observe(state, p)
                    for k in range(2):
                        det = state.determinize(p, random.Random(step * 10 + k))
                        assert np.array_equal(sp.observe(det, p), seen), f"{game_id}: seat {p} saw hidden info"
            player = rng.choice(state.actors())
            state.apply(player, rng.choice(state.legal_actions(player)))
            step += 1


@pytest.mark.parametrize("game_id", all_games())
def test_simultaneous_choice_does_not_leak(game_id: str) -> None:
    """In a simultaneous step, what one actor chose is invisible to the others until it resolves."""
    ready_or_skip(game_id)
    if not rl_game(game_id).simultaneous:
        pytest.skip(f"{game_id} has no simultaneous steps")
    game = farmtable.get_game(game_id)
    players = min(3, game.max_players)
    sp = spec(game_id, players)
    checked = 0
    for seed in range(3):
        state = sp.new_game(seed)
        rng = random.Random(seed)
        while not state.is_over() and checked < 20:
            actors = state.actors()
            if len(actors) > 1:
                first = actors[0]
                legal = state.legal_actions(first)
                if len(legal) > 1:
                    a, b = state.clone(), state.clone()
                    a.apply(first, legal[0])
                    b.apply(first, legal[-1])
                    for other in range(players):
                        if other != first:
                            assert np.array_equal(sp.observe(a, other), sp.observe(b, other)), (
                                f"{game_id}: seat {other} sees seat {first}'s face-down choice"
                            )
                    checked += 1
            player = rng.choice(actors)
            state.apply(player, rng.choice(state.legal_actions(player)))
    assert checked, "no simultaneous step was met"


def test_rewards() -> None:
    """Score rewards are differences to the others' mean (zero-sum); win rewards count places."""
    from farmtable.core import Result, rank_by

    rl = rl_game("farmers-finances")
    totals = [50, 70, 70]
    result = Result(totals, [{} for _ in totals], rank_by(totals))
    score = final_rewards(rl, result, 3, "score")
    assert score == pytest.approx([-20.0, 10.0, 10.0]) and sum(score) == pytest.approx(0)
    assert final_rewards(rl, result, 3, "win") == [-1.0, 0.5, 0.5]
    with pytest.raises(ValueError, match="reward must be"):
        final_rewards(rl, result, 3, "money")


def test_catalogue_is_stable() -> None:
    """Index i always means the same move: a few pinned indices of Farmers Finances (2 players)."""
    sp = spec("farmers-finances", 2)
    assert sp.actions[:3] == ("buy wheat", "buy animal", "sell wheat 1")
    assert sp.actions[-1] == "pick 5"
    assert sp.num_actions == 28


def test_farmini_window_limit_is_explicit() -> None:
    """Known limitation: a Farmini farm grown past the RL window fails loudly, never silently.

    Always taking the first legal move grows a straight line of cards past ``REACH``.
    """
    from farmtable.rl.farmini import REACH

    sp = spec("farmini", 2)
    state = sp.new_game(3)
    with pytest.raises(KeyError, match=f"-?{REACH + 1}.* is not in the RL catalogue"):
        while not state.is_over():
            player = state.actors()[0]
            sp.legal(state, player)
            state.apply(player, state.legal_actions(player)[0])


def test_tiny_towns_rare_moves_are_in_the_catalogue() -> None:
    """Moves random play hardly reaches (Warehouse swaps, Factory, Architect's Guild, Bank and Factory choices)."""
    ready_or_skip("tiny-towns")
    from tests.games.tiny_towns.builder import position

    empty = ". . . ."
    full = ("WAR W W W", "W W W W", "W W W W", "W W . .")
    warehouse = position([" ".join(full), " ".join([empty] * 4)], phase="place", named="wood", mb=1)
    warehouse.towns[0].stored = {0: ["brick", "glass"]}
    factory = position(["FAC W W W W W W W W W W W W . . .", " ".join([empty] * 4)], phase="place", mb=1)
    factory.towns[0].factory = {0: "wood"}
    guild = position(["COT FAR MON . " + " ".join([empty] * 3)], variants=(), monuments=[("Architect's Guild", True)])
    guild.towns[0].pending = [("guild", 2, "")]
    choices = position(
        ["FAC BAN . . " + " ".join([empty] * 3), " ".join([empty] * 4)],
        buildings=("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Bank"),
    )
    choices.towns[0].pending = [("bank", 1, "")]
    grove = position(["COT FAR MON . " + " ".join([empty] * 3)], variants=(), monuments=[("Grove University", True)])
    grove.towns[0].pending = [("grove", 0, "")]
    opaleye = position(
        ["COT FAR MON . " + " ".join([empty] * 3), " ".join([empty] * 4)],
        variants=(),
        monuments=[("Opaleye's Watch", True), ("", False)],
    )
    opaleye.towns[0].pending = [("opaleye-pick", 3, "")]
    checked = set()
    for state in (warehouse, factory, guild, choices, grove, opaleye):
        state._cache.clear()
        sp = spec("tiny-towns", state.players, tuple(state.variants))
        legal = state.legal_actions(0)
        assert legal
        missing = [str(a) for a in legal if str(a) not in sp.index]
        assert not missing, f"not in the catalogue: {missing}"
        checked |= {str(a).split()[0] for a in legal}
    assert {"store", "swap", "pass", "place", "choose", "add"} <= checked
