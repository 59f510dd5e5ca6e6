"""Seeded positions of every game and the board picture each seat is drawn, kept as a fixture.

``tests/server/test_render_golden.py`` draws every stored (view, legal moves, seat) again and compares
the SVG with the digest stored when the fixture was written, so any change to a picture fails a test
(the renderers were sped up under the rule that every picture stays byte-identical). The fixture keeps
the *inputs* too (the views are written by the rules, not by the renderers), so a change of the rules
does not touch this test; a deliberate change of a picture is made by writing the fixture again:

    PYTHONPATH=src python -m tests.server.golden_renders    # rewrites tests/server/data/render_golden.json.gz
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from farmtable.core.registry import get_game
from farmtable.server.render import find_renderer

FIXTURE = Path(__file__).parent / "data" / "render_golden.json.gz"
GAMES = ("tiny-farms", "farmini", "farmerama", "tiny-towns", "farmers-finances")
TABLES: tuple[tuple[int, tuple[str, ...], int], ...] = ((2, (), 11), (2, (), 12), (3, (), 13), (1, (), 14))
"""(players, variants, seed) of the games played for every game id."""
VARIANT_TABLES: dict[str, tuple[tuple[int, tuple[str, ...], int], ...]] = {
    "farmerama": ((2, ("profi",), 21), (2, ("simultaneous",), 22)),
    "farmini": ((2, ("second-variant",), 21),),
    "tiny-farms": ((1, ("emma-hard",), 21),),
    "tiny-towns": ((2, ("cavern", "town-hall"), 21),),
}
"""Extra games with variants that draw something of their own."""
SAMPLES = 6
"""Positions kept per played game (spread over the game, the last one the end)."""


def digest(svg: str) -> str:
    """The SHA-256 of a picture's UTF-8 bytes."""
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()


def positions(game_id: str) -> list[dict[str, Any]]:
    """Seeded random games of ``game_id``: at SAMPLES moments, each seat's (and a spectator's) view and
    legal moves, as JSON-ready dicts (views pass through JSON as they do on their way to the renderer)."""
    game = get_game(game_id)
    out: list[dict[str, Any]] = []
    for players, variants, seed in TABLES + VARIANT_TABLES.get(game_id, ()):
        if not game.min_players <= players <= game.max_players:
            continue
        state = game.new_game(players, seed=seed, variants=variants)
        rng = random.Random(seed)
        snapshots = []
        while True:
            seats: list[int | None] = [*range(players), None]
            actors = state.actors()
            snapshots.append(
                [
                    {
                        "game": game_id,
                        "seat": seat,
                        "view": json.loads(json.dumps(state.view(seat), default=str)),
                        "legal": [str(a) for a in state.legal_actions(seat)] if seat in actors else [],
                    }
                    for seat in seats
                ]
            )
            if state.is_over() or len(snapshots) > 400:
                break
            actor = actors[0]
            legal = state.legal_actions(actor)
            state.apply(actor, legal[rng.randrange(len(legal))])
        step = max(1, (len(snapshots) - 1) // (SAMPLES - 1))
        picked = [*snapshots[::step][: SAMPLES - 1], snapshots[-1]]
        for snap in picked:
            out.extend(snap)
    return out


def draw(item: dict[str, Any]) -> str:
    """The game's own renderer's picture of a stored position."""
    renderer = find_renderer(get_game(item["game"]))
    assert renderer is not None, f"{item['game']} has no render_svg"
    return renderer(item["view"], item["legal"], item["seat"])


def load() -> list[dict[str, Any]]:
    """The stored positions, each with the ``sha256`` of its picture."""
    with gzip.open(FIXTURE, "rt", encoding="utf-8") as f:
        data: list[dict[str, Any]] = json.load(f)
    return data


def write() -> int:
    """Play the seeded games, draw every position and store them with their digests; returns how many."""
    items = [item for game_id in GAMES for item in positions(game_id)]
    for item in items:
        item["sha256"] = digest(draw(item))
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(FIXTURE, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(items, f, separators=(",", ":"))  # keys in the views' own order
    return len(items)


if __name__ == "__main__":
    print(f"{write()} positions written to {FIXTURE}")
