"""The SVG hook and its fallback: any view drawn readably, legal moves clickable, text escaped."""

from __future__ import annotations

import sys
import types
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from farmtable.server import render
from tests.toygame import RACE


def parse(svg: str) -> ET.Element:
    """The SVG as XML (it must be well-formed)."""
    return ET.fromstring(svg)


def actions(svg: str) -> list[str]:
    """The data-action values of the SVG's clickable elements."""
    return [str(e.get("data-action")) for e in parse(svg).iter() if e.get("data-action") is not None]


def test_the_fallback_draws_any_view_and_the_legal_moves() -> None:
    view: dict[str, Any] = {
        "round": 3,
        "grid": ["wood", "", "", "brick", "", "", "", "", "glass", "", "", "", "", "", "", "stone"],
        "rows": [[1, 2, 3], [4, 5, 6]],
        "players": [{"coins": 7, "hand": ["a", "b"]}, {"coins": 9, "hand": []}],
        "flag": True,
        "nothing": None,
    }
    svg = render.fallback_svg(view, ["take 1", "pass"], 0, title="Test")
    root = parse(svg)
    assert root.tag.endswith("svg")
    text = " ".join(t.text or "" for t in root.iter() if t.tag.endswith("text"))
    for shown in ("round: 3", "wood", "stone", "Player 0 (you)", "coins: 7", "hand: a, b", "flag: yes", "nothing: —"):
        assert shown in text, shown
    assert actions(svg) == ["take 1", "pass"]


def test_the_fallback_escapes_everything() -> None:
    svg = render.fallback_svg({"name": "<script>alert(1)</script>", "x": 'a"b'}, ['say "<hi>"'], None)
    assert "<script>" not in svg
    assert actions(svg) == ['say "<hi>"']


def test_a_game_renderer_is_found_and_used(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("farmtable.games.race.svg")
    calls: list[Any] = []

    def render_svg(view: dict[str, Any], legal: list[str], player: int | None) -> str:
        calls.append((view, legal, player))
        return '<svg xmlns="http://www.w3.org/2000/svg"><rect data-action="roll"/></svg>'

    module.render_svg = render_svg  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "farmtable.games.race", types.ModuleType("farmtable.games.race"))
    monkeypatch.setitem(sys.modules, "farmtable.games.race.svg", module)
    monkeypatch.setattr(render, "_cache", {})
    svg = render.render(RACE, {"pile": 1}, ["roll"], 0)
    assert actions(svg) == ["roll"] and calls == [({"pile": 1}, ["roll"], 0)]


def test_a_failing_renderer_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(view: dict[str, Any], legal: list[str], player: int | None) -> str:
        raise RuntimeError("oops")

    monkeypatch.setattr(render, "_cache", {RACE.id: broken})
    svg = render.render(RACE, {"pile": 1}, ["roll"], 0)
    assert "ft-fallback" in svg and actions(svg) == ["roll"]


def test_without_a_hook_the_fallback_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "_cache", {})
    assert render.find_renderer(RACE) is None
    assert "ft-fallback" in render.render(RACE, {"pile": 1}, [], None)


BOARD_GAMES = ["farmerama", "farmers-finances", "farmini", "tiny-farms", "tiny-towns"]


@pytest.mark.parametrize("game_id", BOARD_GAMES)
def test_game_boards_are_groups_with_marked_cells_per_player(game_id: str) -> None:
    """The board's buttons are reachable by screen readers (no ``role="img"`` around them), and every
    player's board carries ``data-cell``/``data-content`` marks the page uses to outline last moves."""
    import random

    import farmtable

    if game_id not in farmtable.list_games():
        pytest.skip(f"{game_id} is not registered")
    game = farmtable.get_game(game_id)
    state = game.new_game(players=2, seed=5)
    rng = random.Random(5)
    for _ in range(25):
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    p = state.actors()[0]
    svg = render.render(game, state.view(p), [str(a) for a in state.legal_actions(p)], p)
    root = parse(svg)
    assert root.get("role") == "group"
    assert all(e.get("role") != "img" for e in root.iter())
    boards = {e.get("data-board") for e in root.iter() if e.get("data-board") is not None}
    assert boards == {"0", "1"}
    for board in root.iter():
        if board.get("data-board") is None:
            continue
        cells = [e for e in board.iter() if e.get("data-cell") is not None]
        assert cells and all(e.get("data-content") is not None for e in cells)


def test_tiny_towns_every_build_can_be_made_by_clicking_its_squares() -> None:
    """Each build's pattern squares and its target square (a Shed goes on any empty square) can be
    clicked on the board (``data-pick``), so building never needs the move list."""
    import random

    import farmtable

    if "tiny-towns" not in farmtable.list_games():
        pytest.skip("tiny-towns is not registered")
    game = farmtable.get_game("tiny-towns")
    checked = 0
    for seed in range(6):
        state = game.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            p = state.actors()[0]
            legal = [str(a) for a in state.legal_actions(p)]
            builds = [a for a in legal if a.startswith("build ")]
            if builds:
                root = parse(render.render(game, state.view(p), legal, p))
                picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick")}
                for action in builds:
                    head, _, target = action.rpartition(" at ")
                    squares = [w for w in head.split() if len(w) == 2 and w[0] in "ABCD" and w[1] in "1234"]
                    assert {*squares, target} <= picks, action
                    checked += 1
            state.apply(p, rng.choice(legal))
    assert checked > 0


@pytest.mark.parametrize(
    ("players", "variants"),
    [(1, ()), (2, ()), (4, ()), (2, ("town-hall", "shrine-excludes-self")), (1, ("cavern",)), (3, ("cavern",))],
)
def test_the_tiny_towns_terminal_board_fits_in_80_columns(players: int, variants: tuple[str, ...]) -> None:
    """Issue 15: the card row (7 cards, 93 columns before) and every other line of the terminal board
    stay within 80 columns, whatever the deal, for every seat and a spectator, through a whole game."""
    import random

    import farmtable
    from farmtable.games.tiny_towns.render import TERMINAL_WIDTH, render_text

    game = farmtable.get_game("tiny-towns")
    widest: dict[int, str] = {}
    for seed in range(6):
        state = game.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        for _ in range(400):
            for seat in (None, 0):
                for line in render_text(state, seat).splitlines():
                    if len(line) > TERMINAL_WIDTH:
                        widest[len(line)] = line
            if state.is_over():
                break
            actor = state.actors()[0]
            state.apply(actor, rng.choice(state.legal_actions(actor)))
    assert TERMINAL_WIDTH == 80
    assert widest == {}, widest
