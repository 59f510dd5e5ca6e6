"""The batched Tiny Farms simulator plays the engine's games, move by move, from the same seeds."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")

import numpy as np

import farmtable
from farmtable.core import Rng
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import scoring
from farmtable.rl import tiny_farms_vector as v

POLICY = 0x5DEECE66D


def _engine_game(players: int, seed: int) -> tuple[list[str], object]:
    """The engine's random game: ``legal[agent.below(len(legal))]`` with ``agent = Rng(seed ^ POLICY)``."""
    state = farmtable.get_game("tiny-farms").new_game(players=players, seed=seed)
    agent = Rng(seed ^ POLICY)
    moves = []
    while not state.is_over():
        player = state.actors()[0]
        legal = state.legal_actions(player)
        action = legal[agent.below(len(legal))]
        moves.append(action)
        state.apply(player, action)
    return moves, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_batch_plays_the_engine_games_move_by_move(players: int) -> None:
    seeds = list(range(100, 112))
    games = [_engine_game(players, seed) for seed in seeds]
    state = v.new_games(players, seeds)
    policy = np.array([seed ^ POLICY for seed in seeds], dtype=np.uint64)
    played: list[list[str]] = [[] for _ in seeds]
    for _ in range(2000):
        count = v.legal_count(state)
        if not count.any():
            break
        for i, (moves, _) in enumerate(games):
            position = len(played[i])
            assert (count[i] > 0) == (position < len(moves)), (seeds[i], position)
        kind, a, b = v.step(state, v.pick_random(policy, count))
        for i in np.flatnonzero(count):
            played[i].append(v.notation(int(kind[i]), int(a[i]), int(b[i])))
            assert played[i][-1] == games[i][0][len(played[i]) - 1], (seeds[i], len(played[i]))
    for i, (moves, final) in enumerate(games):
        engine: object = final
        assert played[i] == moves
        assert state["boards"][i].tolist() == engine.boards  # type: ignore[attr-defined]
        assert state["milk"][i].tolist() == engine.milk  # type: ignore[attr-defined]
        assert int(state["rotation"][i]) == engine.rotation  # type: ignore[attr-defined]
        totals = scoring.score_players([list(b) for b in state["boards"][i].tolist()], state["milk"][i].tolist())
        assert totals.totals == engine.result().totals  # type: ignore[attr-defined]
    assert all(state["phase"] == v.OVER)


def test_play_random_ends_in_the_engine_positions() -> None:
    """Whole games at once (finished games leave the working batch): same decisions, same end."""
    seeds = list(range(7, 27))
    out = v.play_random(3, seeds, [s ^ POLICY for s in seeds])
    for i, seed in enumerate(seeds):
        moves, engine = _engine_game(3, seed)
        assert out["decisions"][i] == len(moves)
        assert out["state"]["boards"][i].tolist() == engine.boards  # type: ignore[attr-defined]
        assert out["state"]["milk"][i].tolist() == engine.milk  # type: ignore[attr-defined]
    assert len(set(out["decisions"].tolist())) > 1  # games of different lengths: the batch shrank


def test_bad_setups_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        v.new_games(1, [0])
    with pytest.raises(ValueError, match="standard rules"):
        v.check_setup(2, ("emma-hard",))
    v.check_setup(2, ("horses-zero-ranks",))  # changes only the scoring: played


@pytest.mark.parametrize("players", [2, 3])
def test_batch_observations_and_masks_are_the_adapters(players: int) -> None:
    """``observe``/``action_mask`` of the batch = ``Spec.observe``/``legal_and_mask`` of the engine's position."""
    from farmtable.rl.catalogue import spec

    sp = spec("tiny-farms", players)
    layout = v.Layout(players)
    seeds = [3, 4, 5, 6]
    engines = [farmtable.get_game("tiny-farms").new_game(players=players, seed=s) for s in seeds]
    state = v.new_games(players, seeds)
    policy = np.array([s ^ POLICY for s in seeds], dtype=np.uint64)
    checked = 0
    while True:
        found = v.options(state)
        count = found.legal
        if not count.any():
            break
        obs = v.observe(state, layout)
        mask = v.action_mask(state, layout, found)
        for i in np.flatnonzero(count):
            engine = engines[i]
            seat = engine.actors()[0]
            assert np.array_equal(obs[i], sp.observe(engine, seat)), (seeds[i], checked)
            assert np.array_equal(mask[i], sp.legal_and_mask(engine, seat)[1]), (seeds[i], checked)
            checked += 1
        kind, a, b = v.step(state, v.pick_random(policy, count), found)
        for i in np.flatnonzero(count):
            engine = engines[i]
            engine.apply(engine.actors()[0], v.notation(int(kind[i]), int(a[i]), int(b[i])))
    assert checked > 200


def test_viewer_observations_kept_move_by_move_equal_the_stateless_ones() -> None:
    """``ViewerObs`` (updated from what ``step`` reports, games restarted midway) = ``observe`` of the state."""
    players = 3
    layout = v.Layout(players)
    state = v.new_games(players, list(range(30)))
    views = v.ViewerObs(state, layout)
    policy = np.arange(30, dtype=np.uint64) + np.uint64(POLICY)
    for turn in range(150):
        assert np.array_equal(views.observe(state), v.observe(state, layout)), turn
        count = v.legal_count(state)
        mover = state["current"].copy()
        views.update(mover, *v.step(state, v.pick_random(policy, count)))
        if turn == 70:  # a third of the games start over
            lanes = np.arange(0, 30, 3)
            for key, value in v.new_games(players, lanes + 1000).items():
                state[key][lanes] = value
            views.restart(state, lanes)
    assert (state["boards"] != 0).sum() > 30 * players * 10  # boards filled: the puts were followed


@pytest.mark.parametrize("players", [2, 4])
def test_kept_mask_and_int8_viewer_observations_equal_the_stateless_ones(players: int) -> None:
    """``KeptMask`` (brought up to date in place) = ``action_mask``, and an int8 ``ViewerObs`` = ``observe``,
    step by step through whole games and games restarted midway (their dice drawn when made)."""
    n = 24
    layout = v.Layout(players)
    state = v.new_games(players, list(range(n)))
    masks = v.KeptMask(layout, n)
    views = v.ViewerObs(state, layout, np.int8)
    policy = np.arange(n, dtype=np.uint64) + np.uint64(POLICY)
    placed = 0
    for turn in range(60 * players):
        kept = masks.write(state)
        assert np.array_equal(kept, v.action_mask(state, layout)), turn
        assert np.array_equal(views.observe(state), v.observe(state, layout).astype(np.int8)), turn
        count = v.legal_count(state)
        mover = state["current"].copy()
        kind, a, b = v.step(state, v.pick_random(policy, count))
        views.update(mover, kind, a, b)
        placed += int((kind == v.K_PUT).sum())
        if turn == 25 * players:  # every other game starts over
            lanes = np.arange(0, n, 2)
            for key, value in v.new_games(players, lanes + 500).items():
                state[key][lanes] = value
            views.restart(state, lanes)
    assert placed > n * 20
    assert (state["phase"] == v.OVER).any()  # some games played to the end (the final observation and mask)


@pytest.mark.parametrize("n", [8, 9])
def test_kept_mask_put_block_windows_at_the_row_edges(n: int) -> None:
    """``KeptMask`` writes a put block as an aligned window that spills a few zeros either side: into the row's
    own move actions (block 0), the next row's (the last block; past the last row, the buffer's spare word).
    Rows of every alignment (a row is 366 bytes: four rows to a cycle) place there next to rows that move, then
    the other way round (last step's windows cleared), then all move: the kept mask = ``action_mask`` each time."""
    layout = v.Layout(2)
    state = v.new_games(2, list(range(n)))
    masks = v.KeptMask(layout, n)
    first, last = c.ANIMALS[0], c.ANIMALS[-1]
    steps = [
        (slice(1, None, 2), 1, [last, first]),  # blocks 21 and 1 (farm 1)
        (slice(0, None, 2), 0, [first, last]),  # blocks 0 and 20 (farm 0)
        (slice(0, 0), 0, [first, first]),  # everybody moves
    ]
    placed = 0
    for lanes, farm, pending in steps:
        state["phase"][:] = v.MOVE
        state["pending_n"][:] = 0
        state["phase"][lanes] = v.PLACE
        state["farm"][lanes] = farm
        state["pending"][lanes] = pending
        state["pending_n"][lanes] = 2
        kept = masks.write(state)
        assert np.array_equal(kept, v.action_mask(state, layout))
        assert kept[:, : layout.put_at].any(axis=1).sum() == n - len(range(n)[lanes])  # the movers' moves survive
        placed += int(kept[:, layout.put_at :].sum())
    assert placed == 2 * 2 * c.FARM_CELLS * (n // 2) + 2 * c.FARM_CELLS * (n % 2)


def test_decode_names_every_legal_catalogue_action() -> None:
    """``decode`` of each legal catalogue index is the move of that name (``notation``), in every game."""
    from farmtable.rl.catalogue import spec

    sp = spec("tiny-farms", 2)
    layout = v.Layout(2)
    state = v.new_games(2, list(range(20)))
    policy = np.arange(20, dtype=np.uint64) + np.uint64(POLICY)
    checked = 0
    for _ in range(70):
        mask = v.action_mask(state, layout).astype(bool)
        for column in np.flatnonzero(mask.any(axis=0)):
            games = np.flatnonzero(mask[:, column])
            kind, a, b = v.decode(v.take(state, games), layout, np.full(len(games), column))
            assert {v.notation(int(x), int(y), int(z)) for x, y, z in zip(kind, a, b, strict=True)} == {
                sp.actions[column]
            }
            checked += len(games)
        v.step(state, v.pick_random(policy, v.legal_count(state)))
    assert checked > 2000


def test_pick_random_and_the_round_dice_draw_what_the_engine_rng_draws() -> None:
    """``pick_random`` (its limit table, counts 1..1023, and ``below`` past it) and ``_rolls`` (a round's dice
    in one pass) give the engine ``Rng``'s draws, one after the other, and leave the generators where it does."""
    rng = np.random.default_rng(2)
    counts = rng.integers(0, 3000, size=300)
    counts[:9] = [0, 1, 2, 4, 1023, 1024, 366, 65536, 6]
    seeds = rng.integers(0, 2**63, size=300, dtype=np.uint64)
    engines = [Rng(int(s)) for s in seeds]
    state = seeds.copy()
    for _ in range(3):
        k = v.pick_random(state, counts)
        assert k.tolist() == [e.below(int(n)) if n else 0 for e, n in zip(engines, counts, strict=True)]
    rolls = v._rolls(state, 5)
    assert rolls.tolist() == [[e.randint(1, 6) for _ in range(5)] for e in engines]
    after = v.pick_random(state, np.full(300, 2**40))  # the generators' states, compared through the next draw
    assert after.tolist() == [e.below(2**40) for e in engines]
