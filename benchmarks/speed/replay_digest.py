"""Same seeds, same games: this checkout's engines replay a snapshot's seeded random games exactly.

    nice -n 10 .venv/bin/python benchmarks/speed/replay_digest.py --base /tmp/farmtable-main/src --games 30
    nice -n 10 .venv/bin/python benchmarks/speed/replay_digest.py --games 50 --agents "greedy/random"

The engine speed-ups of issue 16 must not change a single decision: for every game, player count
and variant, ``--games`` seeded random games are played (a ``random.Random(seed)`` picks among
``legal_actions``; several actors of a simultaneous step decide in seat order) and every legal list
(its notation, in order), every view of the deciding player, the result and the final save
(``to_json``: the RNG state included) are hashed. The digests of this checkout and of ``--base`` (a
snapshot of the reference commit's ``src``, exported like ``common.ensure_base`` does) are compared
and every difference is listed; exit status 1 if any. With ``--agents``, seeded 2-player games between
agents whose play repeats from a seed (iteration budgets, not time) are hashed instead: every move, the
result and the final save.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from common import HERE_SRC, ensure_base

WORKER = r"""
import hashlib, json, random, sys
import farmtable
games = int(sys.argv[1])
only = sys.argv[2:] or farmtable.list_games()
out = {}
for game_id in only:
    game = farmtable.get_game(game_id)
    for players in range(game.min_players, game.max_players + 1):
        for variants in [()] + [(v,) for v in game.variants]:
            for seed in range(games):
                try:
                    state = game.new_game(players=players, seed=seed, variants=variants)
                except ValueError:
                    break
                h = hashlib.sha256()
                rng = random.Random(seed)
                steps = 0
                while not state.is_over() and steps < 5000:
                    for player in state.actors():
                        legal = state.legal_actions(player)
                        h.update(repr([str(a) for a in legal]).encode())
                        if steps % 7 == 0:
                            h.update(json.dumps(state.view(player), sort_keys=True, default=str).encode())
                        state.apply(player, legal[rng.randrange(len(legal))])
                        steps += 1
                        if state.is_over():
                            break
                h.update(json.dumps(state.result().to_dict(), sort_keys=True, default=str).encode())
                h.update(state.to_json().encode())
                key = f"{game_id} players={players} variants={','.join(variants) or '-'} seed={seed}"
                out[key] = h.hexdigest()[:16]
print(json.dumps(out))
"""


AGENT_WORKER = r"""
import hashlib, json, sys
import farmtable
from farmtable.agents import make
games, matchups = int(sys.argv[1]), sys.argv[2].split(";")
only = sys.argv[3:] or farmtable.list_games()
out = {}
for game_id in only:
    game = farmtable.get_game(game_id)
    for matchup in matchups:
        specs = matchup.split("/")
        for seed in range(games):
            state = game.new_game(players=len(specs), seed=seed)
            agents = [make(spec, seed=seed * 10 + seat) for seat, spec in enumerate(specs)]
            h = hashlib.sha256()
            steps = 0
            while not state.is_over() and steps < 5000:
                for player in state.actors():
                    action = agents[player].act(state, player)
                    h.update(str(action).encode())
                    state.apply(player, action)
                    steps += 1
                    if state.is_over():
                        break
            h.update(json.dumps(state.result().to_dict(), sort_keys=True, default=str).encode())
            h.update(state.to_json().encode())
            out[f"{game_id} agents={matchup} seed={seed}"] = h.hexdigest()[:16]
print(json.dumps(out))
"""
"""Seeded games between agents (``--agents``, e.g. ``greedy/random;ismcts:iters=8/greedy``): every move, the
result and the final save hashed. Only agents whose play repeats from a seed (no time budget) belong here."""


def digests(src: Path, games: int, only: list[str], agents: str = "") -> dict[str, str]:
    """The digest of every seeded game played by the engines in ``src`` (of the games ``only`` names, or all):
    random play, or with ``agents`` (``spec/spec;spec/spec``) games between those agents."""
    env = dict(os.environ, PYTHONPATH=str(src))
    args = [AGENT_WORKER, str(games), agents] if agents else [WORKER, str(games)]
    out = subprocess.run([sys.executable, "-c", *args, *only], env=env, capture_output=True, text=True, check=True)
    data: dict[str, str] = json.loads(out.stdout)
    return data


def main() -> None:
    """Compare and print the differences."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="seeded games per game, player count and variant")
    parser.add_argument("--base", type=Path, default=Path("/tmp/farmtable-main/src"))
    parser.add_argument("--only", nargs="*", default=[], help="game ids (default: every game)")
    parser.add_argument("--commit", default="HEAD", help="commit of /work/main to export when --base is missing")
    parser.add_argument(
        "--agents",
        default="",
        help="seeded agent games instead of random play: matchups 'spec/spec' joined by ';' (seeds 0..games-1 each)",
    )
    parser.add_argument("--this", type=Path, default=HERE_SRC, help="src folder to compare (default: this checkout)")
    args = parser.parse_args()
    base = ensure_base(args.base, commit=args.commit)
    mine = digests(args.this, args.games, args.only, args.agents)
    theirs = digests(base, args.games, args.only, args.agents)
    differ = sorted(k for k in theirs if mine.get(k) != theirs[k])
    missing = sorted(set(mine) ^ set(theirs))
    for key in differ:
        print(f"DIFFERS  {key}")
    for key in missing:
        print(f"ONLY ONE {key}")
    print(f"{len(theirs)} seeded games compared: {len(differ)} differ, {len(missing)} only on one side")
    sys.exit(1 if differ or missing else 0)


if __name__ == "__main__":
    main()
