"""The Farmini SVG picture for the browser (``farmini/svg.py``, the hook in docs/web.md).

Checked on positions reached by seeded random play for every player count and variant: the
output is one well-formed ``<svg>`` with the svg namespace, a viewBox and ``width="100%"``;
exactly the legal decisions are clickable (every ``data-action`` is legal and every legal
notation has its element: face-up cards, rotation chips at free places, free animal cells);
spectators and waiting seats get no buttons; finished games render; no face-down card ever
appears in the picture.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from farmtable.games.farmini.rules import GAME, FarminiState
from farmtable.games.farmini.svg import render_svg
from farmtable.server.render import render
from tests.games.farmini.builders import PEN_2X2, make_state
from tests.games.farmini.test_contract import _cases

SVG = "{http://www.w3.org/2000/svg}"
SAMPLE_EVERY = 2
"""Check every 2nd decision of a random game (and the first ones and the end)."""


def parse(svg: str) -> ET.Element:
    """The SVG as an element tree, after the checks every picture must pass."""
    assert svg.startswith("<svg")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert re.fullmatch(r"0 0 \d+(\.\d+)? \d+(\.\d+)?", root.get("viewBox", ""))
    assert root.get("width") == "100%"
    assert root.get("height") is None
    return root


def actions(root: ET.Element) -> list[str]:
    return [e.get("data-action", "") for e in root.iter() if e.get("data-action") is not None]


def words(root: ET.Element) -> set[str]:
    """Every word of the visible text, the tooltips and the actions."""
    found: set[str] = set()
    for e in root.iter():
        for text in (e.text, e.get("data-action")):
            if text:
                found.update(re.findall(r"[A-Za-z0-9]+", text))
    return found


def legal_notations(state: FarminiState, player: int) -> list[str]:
    return [str(a) for a in state.legal_actions(player)]


def random_positions(players: int, variants: tuple[str, ...], seed: int) -> list[FarminiState]:
    """Positions of one seeded random game: the first decisions, every 7th, and the end."""
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over():
        if step < 4 or step % SAMPLE_EVERY == 0:
            out.append(state.clone())
        player = state.actors()[0]
        state.apply(player, rng.choice(state.legal_actions(player)))
        step += 1
    out.append(state)
    return out


@pytest.mark.parametrize(("players", "variants"), _cases())
def test_random_play_clickable_exactly_the_legal_moves(players: int, variants: tuple[str, ...]) -> None:
    kinds: set[str] = set()
    for state in random_positions(players, variants, seed=players * 7 + len(variants)):
        deck = set(state.deck)
        for seat in [*range(players), None]:
            legal = legal_notations(state, seat) if seat is not None else []
            root = parse(render_svg(state.view(seat), legal, seat))
            tagged = actions(root)
            assert len(tagged) == len(set(tagged)), "one element per notation"
            assert set(tagged) <= set(legal), "only legal decisions are clickable"
            assert set(tagged) == set(legal), "every legal decision has its element"
            assert not deck & words(root), "a face-down card is in the picture"
            kinds.update(n.split()[0] for n in legal)
    # the game reaches every kind of decision, so the equality above covered each of them
    assert {"take", "place", "animal"} <= kinds


def test_discard_cards_are_clickable() -> None:
    # a farm card alone is fenced on every side and F1-F4 have pasture on every side: none fits,
    # so the only moves are discards (the rulebook's forced discard)
    state = make_state(["farm at 0,0", "farm at 0,0"], table=["F1", "F2", "F3", "F4"])
    legal = legal_notations(state, 0)
    assert sorted(legal) == ["discard 1", "discard 2", "discard 3", "discard 4"]
    svg = render_svg(state.view(0), legal, 0)
    assert sorted(actions(parse(svg))) == legal
    assert ">discard 3</text>" in svg  # the caption under the card says what a click does


def test_placement_chips_and_animal_cells_sit_on_the_players_farm() -> None:
    state = make_state([PEN_2X2, "farm at 0,0"], table=["D1", "D2", "D3"], pending="C8", pending_left=1)
    legal = legal_notations(state, 0)
    assert legal and all(n.startswith("place C8 at ") for n in legal)
    svg = render_svg(state.view(0), legal, 0)
    root = parse(svg)
    assert sorted(actions(root)) == sorted(legal)
    # each chip shows its rotation; the taken card is drawn in each of its rotations above
    assert "rot 90" in svg and "270°" in svg and "Player 0 places C8" in svg

    state = make_state([PEN_2X2, "farm at 0,0"], table=["D1", "D2", "D3"], pending="G4", pending_left=2)
    legal = legal_notations(state, 0)
    assert legal and all(n.startswith("animal goat at ") for n in legal)
    root = parse(render_svg(state.view(0), legal, 0))
    assert sorted(actions(root)) == sorted(legal)
    for element in root.iter():
        if element.get("data-action"):
            # the page restyles every shape inside a button: free cells are a lone ring
            shapes = [child.tag for child in element if child.tag != f"{SVG}title"]
            assert shapes == [f"{SVG}circle"]


def test_pens_corn_animals_and_the_farmhouse_are_drawn() -> None:
    state = make_state([PEN_2X2 + "pig at 0,0/SE\n", "farm at 0,0"], table=["D1", "D2", "D3", "D4"])
    svg = render_svg(state.view(1), legal_notations(state, 1), 1)
    parse(svg)
    frames = svg.count('stroke="#009E73"')
    assert frames == 4 + 1, "one green frame per quarter of the 2x2 pen, plus the legend"
    # player 0: 4 cornfields in the pen + 2 outside; player 1: the farm card's; loose cards have no label
    assert svg.count(">corn</text>") == 4 + 2 + 1
    assert ">P</text>" in svg and ">H</text>" in svg
    assert "1 pen · animals 1 · corn 4" in svg  # the score sheet line of player 0
    # the viewing seat's farm comes first, marked as theirs
    titles = re.findall(r">((?:▶ |★ )?Player \d[^<]*)<", svg)
    assert titles == ["Player 1 (you)", "▶ Player 0 — to play"]


def test_whose_turn_and_game_over() -> None:
    state = GAME.new_game(players=3, seed=2)
    assert "▶ Your turn" in render_svg(state.view(0), legal_notations(state, 0), 0)
    assert "player 0 to play" in render_svg(state.view(1), [], 1)
    assert "player 0 to play" in render_svg(state.view(None), [], None)
    for players in (1, 2, 4):
        state = random_positions(players, (), seed=11)[-1]
        assert state.is_over()
        for seat in (0, None):
            svg = render_svg(state.view(seat), [], seat)
            root = parse(svg)
            assert actions(root) == []
            assert "Game over" in svg
            if players == 1:
                assert "Solo achievement: " in svg
            else:
                assert "★ player" in svg


def test_text_is_escaped() -> None:
    state = GAME.new_game(players=2, seed=1)
    view: dict[str, Any] = state.view(0)
    view["events"] = ["wolf <b>&\"' scatters"]
    view["variants"] = ["<script>"]
    svg = render_svg(view, legal_notations(state, 0), 0)
    root = parse(svg)
    assert any(e.text == "• wolf <b>&\"' scatters" for e in root.iter())
    assert "<script>" not in svg and "<b>" not in svg


def test_the_secret_probe_would_catch_a_leak() -> None:
    state = GAME.new_game(players=2, seed=3)
    view = state.view(0)
    hidden = state.deck[-1]
    view["table"][0] = {**view["table"][0], "card": hidden}  # a face-down card drawn face up
    root = parse(render_svg(view, [], 0))
    assert hidden in words(root)


def test_the_server_uses_this_renderer() -> None:
    state = GAME.new_game(players=2, seed=1)
    svg = render(GAME, state.view(0), legal_notations(state, 0), 0)
    assert 'class="ft-board ft-farmini"' in svg


def test_a_farms_key_is_its_repr_whether_found_again_or_written_out() -> None:
    """``farm_key`` finds a farm seen before by equality: what it returns is that farm's ``repr`` for equal
    copies (each seat's view brings its own) and for farms that differ, through a seeded game."""
    from farmtable.games.farmini.svg import RECENT_FARMS, farm_key

    state = GAME.new_game(2, seed=31)
    rng = random.Random(31)
    seen: set[str] = set()
    for _ in range(60):
        if state.is_over():
            break
        for viewer in (0, 1, None):
            for farm in state.view(viewer)["farms"]:
                assert farm_key(farm) == repr(farm)
                seen.add(repr(farm))
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert len(seen) > RECENT_FARMS  # more farms than it remembers: old ones are written out again
