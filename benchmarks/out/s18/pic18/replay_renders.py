"""The pictures a server draws in a row, CPU per picture: the measurement behind ``replay_renders.txt``.

``record`` runs ``benchmarks/server_push_ab.py``'s in-process workload (5 games x 2 tables x 60 decisions,
seed 1) once and keeps every ``render`` call it makes (game, view, legal moves, seat: 1845 pictures after
600 decisions) in a pickle; ``draw`` draws them again in order in this process and prints the CPU
microseconds per picture per game. Run ``draw`` in fresh processes with ``PYTHONPATH`` set to the sources
to compare (before and after alternately), so what the renderers remember is only what earlier pictures
of the same run left, as in a server.

    PYTHONPATH=src nice -n 10 python benchmarks/out/s18/pic18/replay_renders.py record /tmp/calls.pkl
    PYTHONPATH=/tmp/base/src nice -n 10 python benchmarks/out/s18/pic18/replay_renders.py draw /tmp/calls.pkl
"""

from __future__ import annotations

import contextlib
import copy
import io
import pickle
import sys
import time
from pathlib import Path
from typing import Any


def record(path: str) -> None:
    """Run the in-process workload once, keeping a copy of every picture's inputs, and pickle them."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # benchmarks/
    import server_push_ab

    import farmtable.server.hub as hub
    import farmtable.server.render as render

    calls: list[tuple[str, Any, list[str], int | None]] = []
    original = render.render

    def keep(game: Any, view: dict[str, Any], legal: list[str], player: int | None) -> str:
        calls.append((game.id, copy.deepcopy(view), list(legal), player))
        return original(game, view, legal, player)

    render.render = keep
    hub.render = keep  # type: ignore[attr-defined]
    sys.argv = ["workload", ",".join(server_push_ab.GAMES), "60", "2", "1"]
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(server_push_ab.WORKLOAD, "<workload>", "exec"), {"__name__": "__workload__"})
    with open(path, "wb") as f:
        pickle.dump(calls, f)
    print(f"{len(calls)} pictures kept in {path}")


def draw(path: str) -> None:
    """Draw the kept pictures in order; print the CPU microseconds per picture, per game and over all."""
    from farmtable.core.registry import get_game
    from farmtable.server.render import find_renderer

    with open(path, "rb") as f:
        calls = pickle.load(f)
    renderers = {g: find_renderer(get_game(g)) for g in {c[0] for c in calls}}
    cpu: dict[str, float] = {}
    count: dict[str, int] = {}
    for game, view, legal, player in calls:
        renderer = renderers[game]
        assert renderer is not None
        start = time.process_time()
        renderer(view, legal, player)
        cpu[game] = cpu.get(game, 0.0) + time.process_time() - start
        count[game] = count.get(game, 0) + 1
    per_game = {g: round(cpu[g] / count[g] * 1e6) for g in cpu}
    print(per_game, "total us/picture", round(sum(cpu.values()) / len(calls) * 1e6))


if __name__ == "__main__":
    {"record": record, "draw": draw}[sys.argv[1]](sys.argv[2])
