"""The browser picture (svg.py): well-formed SVG, clickable decisions that match ``legal``, nothing hidden shown."""

from __future__ import annotations

import random
import time
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import farmtable
from farmtable.games.farmers_finances.rules import canonical, decode
from farmtable.games.farmers_finances.svg import render_svg
from tests.games.farmers_finances.positions import position
from tests.games.farmers_finances.test_contract import _cases, secrets

GAME = farmtable.get_game("farmers-finances")
SVG_NS = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    assert svg.startswith("<svg")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert len(root.attrib["viewBox"].split()) == 4
    assert root.attrib["width"] == "100%"
    return root


def _actions(root: ET.Element) -> list[str]:
    return [el.attrib["data-action"] for el in root.iter() if "data-action" in el.attrib]


def _check(view: dict[str, Any], legal: list[str], player: int | None) -> tuple[str, list[str]]:
    """Render and check one position as ``player`` sees it; returns the SVG and its data-actions."""
    svg = render_svg(view, legal, player)
    root = _parse(svg)
    actions = _actions(root)
    # every tag is canonical Farmers Finances notation
    for action in actions:
        decoded = decode(action)
        assert decoded is not None and canonical(decoded) == action, action
    # every legal decision but 'pass' has its element, exactly one
    for action in legal:
        if action != "pass":
            assert actions.count(action) == 1, f"{action!r} is legal but tagged {actions.count(action)} times"
    # the chips of your own farm are drawn only for legal sales and bakes (no inert clutter)
    chips = [a for a in actions if a.split(" ")[0] in ("sell", "bake")]
    assert set(chips) <= set(legal), set(chips) - set(legal)
    # the market rows carry the decision that fits the phase
    rows = [a for a in actions if a.split(" ")[0] in ("move", "pick")]
    if view["phase"] == "pick":
        assert rows == [f"pick {r}" for r in range(1, 6)]
    elif view["players"] > 1:
        assert rows == [f"move {r}" for r in range(1, 6)]
    else:
        assert rows == []
    # buying: the marketplace stacks with cards (2-4 players); solo, the one pile each top card is bought from
    buys = [a for a in actions if a.startswith("buy ")]
    if "piles" in view:
        left, right = view["piles"]["left"]["top"], view["piles"]["right"]["top"]
        assert buys == ([f"buy {right}"] if left == right else [f"buy {left}", f"buy {right}"])
        assert "reroll" not in actions
    else:
        assert buys == [f"buy {s}" for s in ("wheat", "animal") if view["market"][s] > 0]
        assert actions.count("reroll") == 1
    # whose picture it is: the viewer's own farm is named and drawn first
    if player is not None:
        assert f"Player {player} (you)" in svg
        first = svg.index("Player ", svg.index("MONEY"))
        assert svg.startswith(f"Player {player} (you)", first)
    else:
        assert "(you)" not in svg
        assert not chips
    return svg, actions


@pytest.mark.parametrize(("players", "variants"), _cases())
def test_random_play_renders_every_seat_with_legal_tags(players: int, variants: tuple[str, ...]) -> None:
    seen: set[str] = set()
    for game in range(3):
        seed = 100 * players + game
        state = GAME.new_game(players=players, seed=seed, variants=variants)
        rng = random.Random(seed)
        steps = 0
        while True:
            # the spectator and the seat to act at every step; every seat now and then and at the end
            seats = range(players) if steps % 5 == 0 or state.is_over() else state.actors()
            for player in [None, *seats]:
                view = state.view(player)
                legal = [] if player is None else [str(a) for a in state.legal_actions(player)]
                svg, actions = _check(view, legal, player)
                if legal:
                    seen.add(view["phase"])
                    if set(legal) - {"pass"} <= set(actions):
                        seen.add("all-legal-tagged")
                    if any(a.startswith("sell ") for a in legal):
                        seen.add("sell")
                    if any(a.startswith("bake ") for a in legal):
                        seen.add("bake")
                if player is not None:
                    for secret in secrets(state, player):
                        assert secret not in svg, f"the picture shows {secret!r}"
                if state.is_over():
                    assert "Game over" in svg
            if state.is_over():
                seen.add("over")
                break
            actor = state.actors()[0]
            state.apply(actor, rng.choice(state.legal_actions(actor)))
            steps += 1
    # the checks above ran on the positions that matter, not on an empty loop
    expected = {"action", "sell", "bake", "all-legal-tagged", "over"}
    if players > 1:
        expected.add("market")
    assert expected <= seen, expected - seen


def test_every_phase_and_special_case_is_reached_and_tagged() -> None:
    """Rarer positions: a 6 (pick), the forced reroll of an empty marketplace, solo piles with equal tops."""
    found: set[str] = set()
    for seed in range(60):
        for players, variants in ((1, ("solo-six-choose",)), (2, ()), (3, ("empty-market-extra-change",))):
            state = GAME.new_game(players=players, seed=seed, variants=variants)
            rng = random.Random(seed)
            while not state.is_over():
                actor = state.actors()[0]
                view = state.view(actor)
                legal = [str(a) for a in state.legal_actions(actor)]
                if view["phase"] == "pick":
                    found.add(f"pick-{min(players, 2)}")
                    _, actions = _check(view, legal, actor)
                    assert [a for a in actions if a in legal] == [f"pick {r}" for r in range(1, 6)]
                if view.get("must_reroll") and view["phase"] == "market":
                    found.add("must-reroll")
                    _, actions = _check(view, legal, actor)
                    assert [a for a in actions if a in legal] == ["reroll"]
                if "piles" in view and view["piles"]["left"]["top"] == view["piles"]["right"]["top"]:
                    found.add("same-tops")
                    svg, _ = _check(view, legal, actor)
                    assert "you buy from the right pile" in svg
                state.apply(actor, rng.choice(legal))
        if found == {"pick-1", "pick-2", "must-reroll", "same-tops"}:
            break
    assert found == {"pick-1", "pick-2", "must-reroll", "same-tops"}


def test_a_hand_made_position_has_one_chip_per_sale_and_bake() -> None:
    state = position(3, money=[20, 30, 40], farms=[(3, 1, 2), (0, 2, 0), (1, 0, 0)], row=4)
    legal = [str(a) for a in state.legal_actions(0)]
    svg, actions = _check(state.view(0), legal, 0)
    # in drawing order: beside the wheat card its sales and bakes, then the bread, then the animals
    expected = ["sell wheat 1", "sell wheat 2", "sell wheat 3", "bake 1", "bake 2", "bake 3"]
    expected += ["sell bread 1", "sell animal 1", "sell animal 2"]
    assert [a for a in actions if a.split(" ")[0] in ("sell", "bake")] == expected
    assert {"buy wheat", "buy animal"} <= set(actions)
    assert ">3 · 6<" in svg and ">7 · 11<" in svg  # row 4 of the market card: wheat and animal buy · sell
    assert ">20 coins<" in svg and ">40 coins<" in svg
    # the other seats see the same farms but get no chips
    _, theirs = _check(state.view(1), [], 1)
    assert not [a for a in theirs if a.split(" ")[0] in ("sell", "bake")]


def test_game_over_names_the_winners_of_the_score_sheet() -> None:
    for players in (2, 3, 4):
        for seed in range(6):
            state = GAME.new_game(players=players, seed=seed)
            rng = random.Random(seed)
            while not state.is_over():
                actor = state.actors()[0]
                state.apply(actor, rng.choice(state.legal_actions(actor)))
            svg, _ = _check(state.view(None), [], None)
            winners = state.result().winners
            for p in range(players):
                assert (f"★ Player {p}<" in svg) == (p in winners)
            assert "▶ to act" not in svg
    # a hand-made tie on money, broken by the cards at base value (rulebook "Game End")
    tie = position(2, money=[72, 72], farms=[(1, 1, 1), (2, 0, 0)], phase="over")
    svg, _ = _check(tie.view(None), [], None)
    assert "★ Player 0<" in svg and "★ Player 1<" not in svg
    assert tie.result().winners == [0]


def test_solo_game_over_and_hidden_pile_order() -> None:
    state = GAME.new_game(players=1, seed=4)
    rng = random.Random(4)
    while not state.is_over():
        view = state.view(0)
        legal = [str(a) for a in state.legal_actions(0)]
        svg, _ = _check(view, legal, 0)
        # a determinized state (the piles' hidden cards dealt again) draws the very same picture
        assert render_svg(state.determinize(0, rng.randrange(1 << 30)).view(0), legal, 0) == svg
        state.apply(0, rng.choice(legal))
    svg, _ = _check(state.view(0), [], 0)
    assert f"Game over: {state.money[0]} coins after {state.turn} turns" in svg
    _check(state.view(None), [], None)


def test_text_is_escaped() -> None:
    view = GAME.new_game(players=2, seed=1).view(None)
    view["variants"] = ['<b>"x" & y</b>']
    root = _parse(render_svg(view, [], None))
    texts = "".join(el.text or "" for el in root.iter(f"{SVG_NS}text"))
    assert '<b>"x" & y</b>' in texts


def test_the_server_finds_the_hook() -> None:
    pytest.importorskip("fastapi")
    from farmtable.server.render import render

    state = GAME.new_game(players=2, seed=2)
    svg = render(GAME, state.view(0), [str(a) for a in state.legal_actions(0)], 0)
    assert svg == render_svg(state.view(0), [str(a) for a in state.legal_actions(0)], 0)
    assert "ft-fallback" not in svg


def test_render_is_fast() -> None:
    state = position(4, money=[20, 30, 40, 50], farms=[(3, 1, 2), (2, 1, 0), (1, 0, 0), (0, 0, 1)], row=2)
    view, legal = state.view(0), [str(a) for a in state.legal_actions(0)]
    render_svg(view, legal, 0)
    start = time.perf_counter()
    for _ in range(200):
        render_svg(view, legal, 0)
    per_call = (time.perf_counter() - start) / 200
    assert per_call < 0.005, f"{per_call * 1000:.2f} ms per call"
