"""The browser picture (``svg.render_svg``): well-formed SVG, clickable legal decisions, nothing hidden."""

from __future__ import annotations

import random
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import farmtable
from farmtable.games.tiny_farms.rules import TinyFarmsState
from farmtable.games.tiny_farms.svg import render_svg
from farmtable.server.render import find_renderer, render

GAME = farmtable.get_game("tiny-farms")
SVG_NS = "{http://www.w3.org/2000/svg}"

CASES = [
    *((players, ()) for players in range(GAME.min_players, GAME.max_players + 1)),
    *((1, (v,)) for v in GAME.variants),
    (1, ("emma-hard", "emma-advanced")),
]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    box = root.get("viewBox")
    assert box is not None
    assert [float(v) for v in box.split()][2:] > [0.0, 0.0]
    assert root.get("width") == "100%"
    return root


def actions_of(root: ET.Element) -> list[str]:
    return [a for el in root.iter() if (a := el.get("data-action")) is not None]


def texts_of(root: ET.Element) -> set[str]:
    return {"".join(el.itertext()) for el in root.iter(f"{SVG_NS}text")}


def states(players: int, variants: tuple[str, ...], seed: int) -> Iterator[TinyFarmsState]:
    """Every state of one seeded random game, the final one included."""
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    assert isinstance(state, TinyFarmsState)
    rng = random.Random(seed)
    while True:
        yield state
        if state.is_over():
            return
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))


def draw(state: TinyFarmsState, player: int | None) -> tuple[ET.Element, list[str]]:
    legal = state.legal_actions(player) if player is not None else []
    return parse(render_svg(state.view(player), legal, player)), legal


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_every_legal_decision_is_on_the_picture_and_nothing_else_is_clickable(
    players: int, variants: tuple[str, ...]
) -> None:
    phases: set[str] = set()
    for seed in (1, 2):
        for state in states(players, variants, seed * 31 + players):
            phases.add(state.phase)
            acting = state.actors()
            for seat in [None, *range(players)]:
                root, legal = draw(state, seat)
                clickable = actions_of(root)
                assert set(clickable) <= set(legal), (seat, set(clickable) - set(legal))
                if seat in acting:
                    # every decision has its place (a die chip, a milk button, a farm space); only 'pass' is not drawn
                    assert {a for a in legal if a != "pass"} <= set(clickable), set(legal) - set(clickable)
                    assert len(clickable) == len(set(clickable)), "one element per notation"
                else:
                    assert clickable == []
    assert {"move", "place", "over"} <= phases
    if players == 1:
        assert "crop" in phases


def test_farm_spaces_wheel_and_turn_are_drawn_as_text() -> None:
    for state in states(3, (), 8):
        if state.round == 5 and state.phase == "move":
            break
    view = state.view(1)
    root, _ = draw(state, 1)
    texts = texts_of(root)
    for space in view["wheel"]["spaces"]:
        assert set(space) <= texts
    marks = {m for p in view["players"] for farm in ("red", "blue") for row in p[farm] for m in row if m != "."}
    assert marks and marks <= texts
    assert {"Player 0", "Player 1 (you)", "Player 2"} <= texts
    assert any("to act" in t for t in texts)
    assert f"turned {view['wheel']['rotation']}" in texts
    assert {"R", "B"} <= texts  # the two farmers, by letter not only by colour


def test_the_viewing_seat_comes_first() -> None:
    state = GAME.new_game(players=4, seed=3)
    for seat in range(4):
        root, _ = draw(state, seat)
        names = [t for t in (("".join(el.itertext())) for el in root.iter(f"{SVG_NS}text")) if t.startswith("Player ")]
        assert names[0] == f"Player {seat} (you)"
        assert len(names) == 4


def test_two_different_animals_give_one_chip_each_per_empty_space() -> None:
    for state in states(2, (), 11):
        if state.phase == "place" and len(set(state.pending)) == 2:
            break
    else:
        pytest.fail("no turn with two different animals")
    p = state.actors()[0]
    root, legal = draw(state, p)
    puts = [a for a in actions_of(root) if a.startswith("put ")]
    assert sorted(puts) == sorted(legal)
    cells = {a.split()[-1] for a in puts}
    assert len(puts) == 2 * len(cells)


def test_solo_crop_spaces_are_clickable_and_emma_card_is_drawn() -> None:
    for state in states(1, ("emma-medium",), 4):
        if state.phase == "crop":
            break
    root, legal = draw(state, 0)
    assert any(a.startswith(("plant ", "cross ")) for a in legal)
    assert {a for a in legal if a.startswith(("plant ", "cross "))} <= set(actions_of(root))
    texts = texts_of(root)
    assert "Farmer Emma (medium)" in texts
    assert any(t.startswith("Round end: plant a crop in ") for t in texts)
    emma = state.view(0)["emma"]
    for filled, cap in emma["tracks"].values():
        assert f"{filled}/{cap}" in texts


@pytest.mark.parametrize(("players", "variants"), [(1, ("emma-easy",)), (2, ()), (3, ()), (4, ())])
def test_game_over_shows_the_final_scores(players: int, variants: tuple[str, ...]) -> None:
    *_, state = states(players, variants, 5)
    assert state.is_over()
    result = state.result()
    for seat in [None, 0]:
        root, legal = draw(state, seat)
        assert legal == [] and actions_of(root) == []
        texts = texts_of(root)
        if players == 1:
            assert any(
                t.startswith(f"Game over — you {result.totals[0]}, Farmer Emma {result.details['emma_total']}")
                for t in texts
            )
        else:
            assert {f"final score {t}" for t in result.totals} <= {part for t in texts for part in t.split(" · ")}
            assert any(t.startswith("Game over — player ") for t in texts)


def secrets(state: TinyFarmsState) -> list[str]:
    """What no picture may show: the RNG state (every future roll follows from it)."""
    return [str(state.rng.state)]


def test_no_hidden_value_appears() -> None:
    for players, variants in CASES:
        for i, state in enumerate(states(players, variants, 77)):
            if i % 9:
                continue
            hidden = [s for s in secrets(state) if len(s) >= 6]
            assert hidden
            for seat in [None, *range(players)]:
                legal = state.legal_actions(seat) if seat is not None else []
                svg = render_svg(state.view(seat), legal, seat)
                for secret in hidden:
                    assert secret not in svg


def test_text_from_the_view_is_escaped() -> None:
    state = GAME.new_game(players=2, seed=1)
    view: dict[str, Any] = state.view(0)
    view["events"] = ['<script>alert("x")</script> & ]]>', "a 'quoted' <b>"]
    svg = render_svg(view, state.legal_actions(0), 0)
    root = parse(svg)
    assert "<script>" not in svg
    assert any("<script>" in t for t in texts_of(root))


def test_the_server_finds_the_hook_and_does_not_fall_back() -> None:
    state = GAME.new_game(players=2, seed=2)
    assert find_renderer(GAME) is render_svg
    svg = render(GAME, state.view(0), state.legal_actions(0), 0)
    assert 'class="ft-board"' in svg and "ft-fallback" not in svg


def test_it_is_fast() -> None:
    views = []
    for state in states(4, (), 9):
        p = state.actors()[0] if state.actors() else None
        views.append((state.view(p), state.legal_actions(p) if p is not None else [], p))
    start = time.process_time()  # CPU time: the test machine may be busy with other work
    for view, legal, p in views:
        render_svg(view, legal, p)
    per_call = (time.process_time() - start) / len(views)
    assert per_call < 0.003, f"{per_call * 1000:.2f} ms per call"
