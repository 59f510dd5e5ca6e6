"""Every game's board picture stays exactly as it was: seeded positions drawn again, compared by digest.

The fixture (``tests/server/golden_renders.py``) holds each position's view, legal moves and seat, and the
SHA-256 of the SVG the renderers drew when it was written; a faster renderer must draw the same bytes.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.server.golden_renders import GAMES, digest, draw, load

ITEMS = load()


def test_the_fixture_covers_every_game_seat_and_the_end() -> None:
    per_game = Counter(item["game"] for item in ITEMS)
    assert set(per_game) == set(GAMES)
    assert min(per_game.values()) >= 40
    assert any(item["seat"] is None for item in ITEMS)
    assert sum(1 for item in ITEMS if item["legal"]) >= 100  # positions with buttons to draw
    assert len({item["sha256"] for item in ITEMS}) > len(ITEMS) // 2  # not the same picture over and over


@pytest.mark.parametrize("game", GAMES)
def test_every_picture_is_byte_identical(game: str) -> None:
    mine = [(i, item) for i, item in enumerate(ITEMS) if item["game"] == game]
    # twice, the second time backwards: the renderers remember parts, and a part remembered under too
    # small a key would show up drawn for another position
    changed = [(i, item["seat"]) for i, item in [*mine, *mine[::-1]] if digest(draw(item)) != item["sha256"]]
    assert not changed, f"{game}: {len(changed)} pictures changed, e.g. position/seat {changed[:5]}"


def test_a_changed_picture_is_caught() -> None:
    item = next(item for item in ITEMS if item["legal"])
    svg = draw(item)
    assert digest(svg) == item["sha256"]
    assert digest(svg.replace(">", "> ", 1)) != item["sha256"]
