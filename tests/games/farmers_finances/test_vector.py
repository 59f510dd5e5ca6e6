"""The batched numpy simulator plays the engine's rules: move by move on random games, from the same seeds."""

from __future__ import annotations

import numpy as np
import pytest

import farmtable
from farmtable.core import Rng
from farmtable.games.farmers_finances import vector as v
from farmtable.games.farmers_finances.rules import PHASES


def _engine_view(state: object, tables: v.Tables) -> dict[str, object]:
    s: object = state
    return {
        "row": s.row,  # type: ignore[attr-defined]
        "last_roll": s.last_roll,  # type: ignore[attr-defined]
        "phase": PHASES.index(s.phase),  # type: ignore[attr-defined]
        "current": s.current,  # type: ignore[attr-defined]
        "turn": s.turn,  # type: ignore[attr-defined]
        "money": list(s.money),  # type: ignore[attr-defined]
        "hands": [list(h) for h in s.hands],  # type: ignore[attr-defined]
        "market": list(s.market),  # type: ignore[attr-defined]
        "end_triggered": s.end_triggered,  # type: ignore[attr-defined]
        "forced_reroll": s.forced_reroll,  # type: ignore[attr-defined]
        "rng": s.rng.state,  # type: ignore[attr-defined]
    }


def _lane(state: dict[str, np.ndarray], i: int) -> dict[str, object]:
    return {
        "row": int(state["row"][i]),
        "last_roll": int(state["last_roll"][i]),
        "phase": int(state["phase"][i]),
        "current": int(state["current"][i]),
        "turn": int(state["turn"][i]),
        "money": state["money"][i].tolist(),
        "hands": state["hands"][i].tolist(),
        "market": state["market"][i].tolist(),
        "end_triggered": bool(state["end_triggered"][i]),
        "forced_reroll": bool(state["forced_reroll"][i]),
        "rng": int(state["rng"][i]),
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_match_the_engine_move_by_move(players: int) -> None:
    """Same seeds, same random policy (``Rng.below`` over the legal list): identical games to the end."""
    game = farmtable.get_game("farmers-finances")
    tables = v.Tables(players)
    lanes = 24
    seeds = np.array([1000 * players + i for i in range(lanes - 2)] + [2**64 - 1, 2**63 + 12345], dtype=np.uint64)
    policy_seeds = seeds ^ np.uint64(0x5DEECE66D)
    state = v.new_games(players, seeds)
    policy = policy_seeds.copy()
    engines = [game.new_game(players=players, seed=int(s)) for s in seeds]
    agents = [Rng(int(s)) for s in policy_seeds]
    moves = special = 0
    while any(not e.is_over() for e in engines):
        special += int(state["forced_reroll"].any()) + int((state["phase"] == v.PICK).any())
        mask = v.legal_mask(state, tables)
        for i, engine in enumerate(engines):
            assert _lane(state, i) == _engine_view(engine, tables), f"game {i} after {moves} moves"
            legal = [str(a) for a in engine.legal_actions(engine.actors()[0])] if not engine.is_over() else []
            assert [tables.names[j] for j in np.flatnonzero(mask[i])] == legal, f"game {i} move {moves}"
        chosen = v.pick_random(policy, mask)
        for i, engine in enumerate(engines):
            if engine.is_over():
                continue
            player = engine.actors()[0]
            legal = engine.legal_actions(player)
            action = legal[agents[i].below(len(legal))]
            assert tables.names[chosen[i]] == action
            engine.apply(player, action)
        v.step(state, tables, chosen)
        moves += 1
    for i, engine in enumerate(engines):
        assert _lane(state, i) == _engine_view(engine, tables)
        assert v.totals(state)[i].tolist() == engine.result().totals
    assert moves > 50
    assert special > 0  # the empty-market reroll and the free pick after a 6 were met


def test_play_random_ends_every_game_and_counts_decisions() -> None:
    out = v.play_random(2, np.arange(200, dtype=np.uint64), np.arange(200, dtype=np.uint64) + 7)
    assert (out["state"]["phase"] == v.OVER).all()
    assert (out["state"]["money"].max(axis=1) >= 70).all()
    assert out["decisions"].min() > 0


def test_the_catalogue_is_the_rl_catalogue() -> None:
    pytest.importorskip("numpy")
    from farmtable.rl.farmers_finances import actions as rl_actions

    for players in (2, 3, 4):
        assert v.actions(players) == rl_actions(players, ())


def test_unsupported_setups_are_refused() -> None:
    with pytest.raises(ValueError, match="2–4 players"):
        v.Tables(1)
    with pytest.raises(ValueError, match="standard rules"):
        v.check_setup(2, ("empty-market-extra-change",))
    with pytest.raises(ValueError, match="seeds"):
        v.new_games(2, np.array([-1]))
