"""Issue 15 items 3 and 6, checked on what the server sends (the browser tests check them in chromium):
boards scale and expose their buttons to screen readers, replay buttons have words, dark mode, the
home page's picture and join box, the table's turn-alert toggles."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import farmtable
from farmtable.server import pages
from farmtable.server.render import render

GAMES = farmtable.list_games()
STATIC = Path(pages.__file__).parent / "static"


@pytest.mark.parametrize("game_id", [g for g in GAMES if g != "race"])
def test_every_board_scales_and_its_buttons_are_reachable(game_id: str) -> None:
    """A viewBox and no fixed width (the board fits any screen); the root is a group, never an image
    (``role="img"`` hides the buttons inside from screen readers); legal parts carry their notation."""
    game = farmtable.get_game(game_id)
    state = game.new_game(players=2, seed=4)
    rng = random.Random(game_id)
    for _ in range(8):
        actor = state.actors()[0]
        state.apply(actor, rng.choice(state.legal_actions(actor)))
    seat = state.actors()[0]
    legal = [str(a) for a in state.legal_actions(seat)]
    root = ET.fromstring(render(game, state.view(seat), legal, seat))
    assert root.get("viewBox"), "a board without a viewBox cannot scale"
    assert root.get("role") != "img"
    assert "min-width" not in (root.get("style") or "")
    drawn = {e.get("data-action") for e in root.iter() if e.get("data-action")}
    assert drawn & set(legal), "no legal move drawn on the board"


def test_replay_buttons_have_words_not_glyphs() -> None:
    html = pages.replay("t1", "Tiny Towns")
    for word in ("First", "Back", "Forward", "Last"):
        assert f">{word}</button>" in html
    assert "⏮" not in html and "⏭" not in html


def test_dark_mode_and_finger_sized_controls_are_in_the_style() -> None:
    css = (STATIC / "style.css").read_text()
    assert "@media (prefers-color-scheme: dark)" in css
    assert "min-height: 44px" in css


def test_the_home_page_has_its_picture_and_a_join_box() -> None:
    html = pages.home([])
    assert '<svg class="home-art"' in html and '<title id="home-art-title">' in html
    assert 'id="join-code"' in html and "join.js" in html


def test_the_table_page_offers_turn_alerts() -> None:
    html = pages.table("t1", farmtable.get_game(GAMES[0]).title)
    assert 'id="sound-toggle"' in html and 'id="notify-toggle"' in html
    assert 'aria-pressed="false"' in html
