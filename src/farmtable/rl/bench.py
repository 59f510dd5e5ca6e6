"""RL adapter overhead: random play through each adapter against the native contract, in decisions/s.

    .venv/bin/python -m farmtable.rl.bench --seconds 3

For each ready game (2 players; solo for Gymnasium) it plays uniformly random legal moves for about
``--seconds`` of CPU time per cell (``time.process_time``: other programs on the machine do not count),
whole games, and counts decisions per CPU second. Every column draws its move with the same
sampler, ``random.Random(seed).randrange(count)`` over the legal moves in catalogue order (the masked
columns first turn the mask into its indices with ``np.flatnonzero``, which any masked agent does).
The columns:

- ``native``: ``actors()``, ``legal_actions(p)``, ``apply`` (the floor every adapter stands on);
- ``native+view``: the same plus ``view(p)`` of the actor (what any observing adapter must call);
- ``pettingzoo AEC``: ``agent_iter``, ``env.last()`` (observation + mask) and ``env.step``, with the
  usual checks (``env()``) and without them (``raw_env()``);
- ``pettingzoo parallel``: ``parallel_env.step`` (observations and masks for every seat each step);
- ``gymnasium solo``: ``env.step`` (observation + mask in ``info``);
- ``openspiel``: ``legal_actions()``, ``observation_tensor(p)``, ``apply_action``.

The native column uses ``random_game``'s loop (``legal[rng.randrange(len(legal))]``); the masked
columns pick with :func:`_pick`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

import farmtable
from farmtable.rl.catalogue import rl_games, spec


def _rate(play_one: Callable[[int], int], seconds: float) -> float:
    """Decisions per CPU second of whole games played by ``play_one(seed)`` for about ``seconds``."""
    play_one(10**6)  # warm-up: caches, first imports
    decisions, start, seed = 0, time.process_time(), 0
    while time.process_time() - start < seconds or decisions == 0:
        decisions += play_one(seed)
        seed += 1
    return decisions / (time.process_time() - start)


_INDICES: dict[int, tuple[np.ndarray, list[int]]] = {}
_INDICES_SIZE = 50_000


def _pick(rng: random.Random, mask: np.ndarray) -> int:
    """The masked sampler: a uniform legal index, by the same ``randrange`` the native column uses.

    The indices of a mask are found with ``np.flatnonzero`` (what any masked agent does) and remembered
    for that mask object: the adapters hand out the same read-only array for the same legal set, so a
    repeated legal set costs about what the native column's ``legal[randrange(len(legal))]`` costs
    (the issue's bench gave the masked columns a 7 µs numpy sampler the native one did not pay). The
    mask is kept alive beside its indices, so its ``id`` cannot be reused while remembered.
    """
    known = _INDICES.get(id(mask))
    if known is None or known[0] is not mask:
        if len(_INDICES) >= _INDICES_SIZE:
            _INDICES.clear()
        known = _INDICES[id(mask)] = (mask, np.flatnonzero(mask).tolist())
    legal = known[1]
    return legal[rng.randrange(len(legal))]


def native(game_id: str, players: int, with_view: bool) -> Callable[[int], int]:
    """Random play on the bare contract."""
    game = farmtable.get_game(game_id)

    def play(seed: int) -> int:
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_over():
            player = state.actors()[0]
            if with_view:
                state.view(player)
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
            n += 1
        return n

    return play


def aec(game_id: str, players: int, raw: bool = False) -> Callable[[int], int]:
    """Random masked play through the PettingZoo AEC env (``raw``: without PettingZoo's wrappers)."""
    from farmtable.rl.pettingzoo import env, raw_env

    e = raw_env(game_id, players) if raw else env(game_id, players)

    def play(seed: int) -> int:
        e.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(_pick(rng, obs["action_mask"]))
            n += 1
        return n

    return play


def parallel(game_id: str, players: int) -> Callable[[int], int]:
    """Random masked play through the PettingZoo Parallel env."""
    from farmtable.rl.pettingzoo import parallel_env

    e = parallel_env(game_id, players)

    def play(seed: int) -> int:
        obs, _ = e.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        while e.agents:
            actions = {}
            for a in e.agents:
                mask = obs[a]["action_mask"]
                moving = bool(mask.any())
                actions[a] = _pick(rng, mask) if moving else 0
                n += moving
            obs, *_ = e.step(actions)
        return n

    return play


def gym_solo(game_id: str) -> Callable[[int], int]:
    """Random masked play through the Gymnasium solo env."""
    import gymnasium as gym

    from farmtable.rl.gymnasium import env_id

    e = gym.make(env_id(game_id))

    def play(seed: int) -> int:
        _, info = e.reset(seed=seed)
        rng = random.Random(seed)
        n, done = 0, False
        while not done:
            _, _, term, trunc, info = e.step(_pick(rng, info["action_mask"]))
            done = term or trunc
            n += 1
        return n

    return play


def openspiel(game_id: str, players: int) -> Callable[[int], int]:
    """Random play through the pyspiel game, reading the actor's observation tensor each step."""
    import pyspiel

    from farmtable.rl.openspiel import short_name

    def play(seed: int) -> int:
        game = pyspiel.load_game(short_name(game_id), {"players": players, "seed": seed})
        state = game.new_initial_state()
        rng = random.Random(seed)
        n = 0
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return play


def main() -> None:
    """Print the Markdown table."""
    parser = argparse.ArgumentParser(description="RL adapter overhead (decisions/s)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args()
    games = args.games or rl_games()
    print("decisions per CPU second; in brackets: share of the native column\n")
    print(
        "| game | obs size | actions | native | native+view | PZ AEC | PZ AEC raw | PZ parallel | OpenSpiel "
        "| gym solo |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game_id in games:
        players = max(2, farmtable.get_game(game_id).min_players)
        sp = spec(game_id, players)
        row = [
            _rate(native(game_id, players, False), args.seconds),
            _rate(native(game_id, players, True), args.seconds),
            _rate(aec(game_id, players), args.seconds),
            _rate(aec(game_id, players, raw=True), args.seconds),
            _rate(parallel(game_id, players), args.seconds),
            _rate(openspiel(game_id, players), args.seconds),
        ]
        solo = farmtable.get_game(game_id).min_players == 1
        cells = [f"{row[0]:,.0f}"] + [f"{r:,.0f} ({r / row[0]:.0%})" for r in row[1:]]
        if solo:
            solo_rate = _rate(gym_solo(game_id), args.seconds)
            solo_native = _rate(native(game_id, 1, False), args.seconds)
            cells.append(f"{solo_rate:,.0f} ({solo_rate / solo_native:.0%} of native solo {solo_native:,.0f})")
        else:
            cells.append("–")
        print(f"| {game_id} | {sp.obs_size} | {sp.num_actions} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
