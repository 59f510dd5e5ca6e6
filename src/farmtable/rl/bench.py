"""RL adapter overhead: random play through each adapter against the native contract, in decisions/s.

    nice -n 10 .venv/bin/python -W ignore -m farmtable.rl.bench --rounds 5 --seconds 0.3

For each ready game (2 players; solo for Gymnasium) it plays whole games of uniformly random legal
moves and counts decisions per CPU second (``time.process_time``: other programs on the machine do not
count). Every cell is measured *side by side* with the engine: in each of ``--rounds`` rounds the
native column and the adapter play the same seeds (as many games as the adapter fits in about
``--seconds``), one after the other, and the cell shows the adapter's median rate and the median of
its per-round ratios to the native column with a ~95% interval. Every column draws its move with the same
sampler, ``random.Random(seed).randrange(count)`` over the legal moves in catalogue order (the masked
columns first turn the mask into its indices with ``mask.nonzero()``, which any masked agent does).
The columns:

- ``native``: ``actors()``, ``legal_actions(p)``, ``apply`` (the floor every adapter stands on);
- ``native+view``: the same plus ``view(p)`` of the actor (what any observing adapter must call);
- ``native+obs+mask``: the native loop plus what every observing, masked adapter pays per decision and
  nothing else: ``Spec.observe`` (the fast encoder) and ``Spec.legal_entry`` of the actor, the move
  drawn by the masked sampler: the ceiling of any per-decision adapter on this engine;
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
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import farmtable
from farmtable.rl.catalogue import rl_games, spec

_INDICES: dict[int, tuple[np.ndarray, list[int]]] = {}
_INDICES_SIZE = 50_000


_BOOL_VIEW_FROM = 64
"""Masks longer than this are scanned as booleans (see :func:`_ones`)."""


def _ones(mask: np.ndarray) -> list[int]:
    """The indices of a 0/1 ``int8`` mask's ones, ascending.

    A long mask is read through a ``bool`` view of its bytes: numpy's ``nonzero`` has a fast path for
    booleans that ``int8`` does not take (session 15, a pilot: Tiny Towns' 22,521-entry mask 3.5 µs
    against 56 µs, Farmini's 5,008 entries 2.0 against 15.5); short masks are cheaper as they are.
    Any masked agent can read its mask this way; the indices are the same.
    """
    if mask.size > _BOOL_VIEW_FROM:
        return mask.view(np.bool_).nonzero()[0].tolist()
    return mask.nonzero()[0].tolist()


def _pick(rng: random.Random, mask: np.ndarray) -> int:
    """The masked sampler: a uniform legal index, by the same ``randrange`` the native column uses.

    The indices of a mask are found with ``nonzero()`` (:func:`_ones`: what any masked agent does) and remembered
    for that mask object: the adapters hand out the same read-only array for the same legal set, so a
    repeated legal set costs about what the native column's ``legal[randrange(len(legal))]`` costs
    (the issue's bench gave the masked columns a 7 µs numpy sampler the native one did not pay). The
    mask is kept alive beside its indices, so its ``id`` cannot be reused while remembered. A writable
    mask is a fresh copy (Gymnasium's ``info``) and is not remembered.
    """
    known = _INDICES.get(id(mask))
    if known is None or known[0] is not mask:
        if mask.flags.writeable:  # a fresh copy (Gymnasium's info): never seen again, nothing to remember
            legal = _ones(mask)
            return legal[rng.randrange(len(legal))]
        if len(_INDICES) >= _INDICES_SIZE:
            _INDICES.clear()
        known = _INDICES[id(mask)] = (mask, _ones(mask))
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


def observed(game_id: str, players: int) -> Callable[[int], int]:
    """The native loop plus the actor's observation and mask (``Spec.observe``, ``Spec.legal_entry`` of the
    legal list) and the masked sampler: what any per-decision adapter pays on top of the engine, without
    its own bookkeeping."""
    game = farmtable.get_game(game_id)
    sp = spec(game_id, players)

    def play(seed: int) -> int:
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_over():
            player = state.actors()[0]
            legal = state.legal_actions(player)
            slots, mask = sp.legal_entry(legal)
            sp.observe(state, player)
            state.apply(player, legal[slots[_pick(rng, mask)]])
            n += 1
        return n

    return play


def aec(game_id: str, players: int, raw: bool = False) -> Callable[[int], int]:
    """Random masked play through the PettingZoo AEC env (``raw``: without PettingZoo's wrappers, observations
    written in place)."""
    from farmtable.rl.pettingzoo import env, raw_env

    e = raw_env(game_id, players, copy=False) if raw else env(game_id, players)

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


def _games_rate(play_one: Callable[[int], int], seeds: range) -> float:
    """Decisions per CPU second over the whole games ``seeds``."""
    decisions, start = 0, time.process_time()
    for seed in seeds:
        decisions += play_one(seed)
    return decisions / max(time.process_time() - start, 1e-9)


def median_ci(values: list[float]) -> tuple[float, float, float]:
    """The median of ``values`` and a distribution-free ~95% interval for it (binomial order statistics;
    with fewer than 6 values, the smallest and largest)."""
    xs = sorted(values)
    n = len(xs)
    med = statistics.median(xs)
    if n < 6:
        return med, xs[0], xs[-1]
    half = 1.96 * math.sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half) - 1)
    hi = min(n - 1, math.ceil(n / 2 + half))
    return med, xs[lo], xs[hi]


@dataclass
class Cell:
    """One adapter column of one game: its rates and its paired ratios to the native column."""

    rates: list[float]
    ratios: list[float]
    native: list[float]

    def text(self, against: str = "") -> str:
        """``rate (ratio% [low–high])``; ``against`` names the native column if it is not the row's."""
        rate = median_ci(self.rates)[0]
        ratio, low, high = median_ci(self.ratios)
        tail = f" of {against} {median_ci(self.native)[0]:,.0f}" if against else ""
        return f"{rate:,.0f} ({ratio:.0%} [{low:.0%}–{high:.0%}]{tail})"


def paired(
    play: Callable[[int], int], base: Callable[[int], int], rounds: int, seconds: float, first_seed: int = 0
) -> Cell:
    """``play`` against ``base`` on the same games, alternating, for ``rounds`` rounds.

    Each round plays the same seeds in both (as many whole games as ``play`` fits in about ``seconds``
    of CPU), ``base`` first; a round's ratio is ``play``'s rate over ``base``'s on those games. Round ``r``
    plays the deals from ``first_seed + r * games`` on, so cells with ``first_seed`` values at least
    ``COLUMN_SEEDS`` apart share no game (as long as a cell plays fewer than that many games).
    """
    play(10**6)  # first imports
    base(10**6)
    start = time.process_time()
    play(10**6 + 1)
    per_game = max(time.process_time() - start, 1e-6)
    games = max(1, round(seconds / per_game))
    # warm-up of one round on other seeds: the caches of catalogue indices, masks and boards fill up
    # as a long training run's would (what is measured is the steady state, not the first games)
    _games_rate(play, range(10**6 + 2, 10**6 + 2 + games))
    cell = Cell([], [], [])
    for r in range(rounds):
        seeds = range(first_seed + r * games, first_seed + (r + 1) * games)
        native_rate = _games_rate(base, seeds)
        rate = _games_rate(play, seeds)
        cell.native.append(native_rate)
        cell.rates.append(rate)
        cell.ratios.append(rate / native_rate)
    return cell


COLUMNS = ("native+view", "native+obs+mask", "PZ AEC", "PZ AEC raw", "PZ parallel", "OpenSpiel", "gym solo")
"""The adapter columns, in table order (each paired with the native column on the same games)."""

COLUMN_SEEDS = 100_000
"""Seeds a column may use: column ``i`` of a row plays deals from ``(i + 1) * COLUMN_SEEDS`` on.

Each column is paired with the native column on *its own* games, so the columns are independent samples of
the game rather than the same first few deals measured again (before session 18 every column started at
deal 0, so a row's cells all rested on the same handful of games and one unusual deal moved every cell)."""


def row(game_id: str, rounds: int, seconds: float, columns: tuple[str, ...] = COLUMNS) -> list[str]:
    """The table cells of one game: obs size, actions, native rate, then each column."""
    game = farmtable.get_game(game_id)
    players = max(2, game.min_players)
    sp = spec(game_id, players)
    base = native(game_id, players, False)
    makers: dict[str, Callable[[], Callable[[int], int]]] = {
        "native+view": lambda: native(game_id, players, True),
        "native+obs+mask": lambda: observed(game_id, players),
        "PZ AEC": lambda: aec(game_id, players),
        "PZ AEC raw": lambda: aec(game_id, players, raw=True),
        "PZ parallel": lambda: parallel(game_id, players),
        "OpenSpiel": lambda: openspiel(game_id, players),
    }
    natives: list[float] = []
    cells = []
    for index, column in enumerate(columns):
        first_seed = (index + 1) * COLUMN_SEEDS
        if column == "gym solo":
            if game.min_players != 1:
                cells.append("–")
                continue
            cell = paired(gym_solo(game_id), native(game_id, 1, False), rounds, seconds, first_seed)
            cells.append(cell.text(against="native solo"))
            continue
        cell = paired(makers[column](), base, rounds, seconds, first_seed)
        natives += cell.native
        cells.append(cell.text())
    native_cell = f"{median_ci(natives)[0]:,.0f}" if natives else "–"
    return [game_id, str(sp.obs_size), str(sp.num_actions), native_cell, *cells]


def main() -> None:
    """Print the Markdown table: every adapter column side by side with the engine (native)."""
    parser = argparse.ArgumentParser(description="RL adapter overhead (decisions per CPU second)")
    parser.add_argument("--seconds", type=float, default=0.3, help="CPU seconds per round and cell (about)")
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds per cell")
    parser.add_argument("--games", nargs="*", default=None, help="game ids (default: every game with an RL adapter)")
    parser.add_argument("--columns", nargs="*", default=list(COLUMNS), choices=COLUMNS, help="adapter columns")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    games = args.games or rl_games()
    unknown = sorted(set(games) - set(rl_games()))
    if unknown:
        parser.error(f"no RL adapter for: {', '.join(unknown)} (choose from {', '.join(rl_games())})")
    columns = tuple(args.columns)
    print(
        f"decisions per CPU second, median of {args.rounds} paired rounds; in brackets: the median share of "
        "the native column on the same games, with its ~95% interval\n"
    )
    print("| game | obs size | actions | native | " + " | ".join(columns) + " |")
    print("|---|---|---|---|" + "---|" * len(columns))
    for game_id in games:
        print("| " + " | ".join(row(game_id, args.rounds, args.seconds, columns)) + " |", flush=True)


if __name__ == "__main__":
    main()
