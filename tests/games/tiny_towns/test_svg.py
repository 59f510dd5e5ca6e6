"""The Tiny Towns SVG for the browser (svg.py): well-formed, clickable exactly where legal, no secrets."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

import pytest

from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.rules import GAME, TinyTownsState
from farmtable.games.tiny_towns.svg import render_svg
from tests.games.tiny_towns.builder import position
from tests.games.tiny_towns.test_contract_tiny_towns import _cases, monument_secrets

SVG_NS = "{http://www.w3.org/2000/svg}"
E = ". . . ."
EMPTY = " ".join([E] * 4)
HEADING = re.compile(r"^(?:▶ )?Player (\d)(?: — you)?$")
NOT_DRAWN = {"done", "pass"}
"""Decisions without a place on the picture: the page's notation list offers them."""


def town(*rows: str) -> str:
    return " ".join(rows)


def legal_of(state: TinyTownsState, player: int | None) -> list[str]:
    return [] if player is None else [str(a) for a in state.legal_actions(player)]


def draw(state: TinyTownsState, player: int | None) -> tuple[str, ET.Element]:
    """The SVG for ``player`` and its parsed root, checked for the hook's outer form."""
    svg = render_svg(state.view(player), legal_of(state, player), player)
    assert svg.startswith("<svg")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert root.get("width") == "100%" and root.get("height") is None
    box = [float(v) for v in (root.get("viewBox") or "").split()]
    assert len(box) == 4 and box[2] > 0 and box[3] > 0
    return svg, root


def actions_in(root: ET.Element) -> list[str]:
    return [str(el.get("data-action")) for el in root.iter() if el.get("data-action") is not None]


def texts_in(root: ET.Element) -> str:
    return " ".join(el.text or "" for el in root.iter(f"{SVG_NS}text"))


def check_clickable(state: TinyTownsState, player: int | None, svg: str = "") -> list[str]:
    """Every data-action is legal now, and every legal decision with a place on the picture is tagged."""
    root = ET.fromstring(svg) if svg else draw(state, player)[1]
    tagged = actions_in(root)
    legal = legal_of(state, player)
    assert set(tagged) <= set(legal), sorted(set(tagged) - set(legal))
    missing = set(legal) - NOT_DRAWN - set(tagged)
    assert not missing, sorted(missing)
    return tagged


def check_no_secrets(state: TinyTownsState, player: int | None, svg: str = "") -> None:
    """Other players' monuments (kept or discarded, not built) appear nowhere in the picture."""
    svg = svg or draw(state, player)[0]
    seats = range(state.players) if player is None else [player]
    hidden: set[str] = set()
    for seat in seats:
        hidden |= set(monument_secrets(state, seat))
    for name in hidden:
        for form in {name, escape(name), name.replace("'", "&apos;"), name.replace("'", "&#x27;")}:
            assert form not in svg, f"{name} leaks into the picture of {player}"


# --- seeded random play: every player count and variant -----------------------------------------


@pytest.mark.parametrize(("players", "variants"), _cases())
def test_random_play_every_step_sampled(players: int, variants: tuple[str, ...]) -> None:
    rng = random.Random(1000 + players)
    state = GAME.new_game(players=players, seed=rng.randrange(10**6), variants=variants)
    step = 0
    kinds: set[str] = set()
    while not state.is_over():
        actor = rng.choice(state.actors())
        legal = state.legal_actions(actor)
        builds = [a for a in legal if a.verb == "build"]
        if step % 8 == 0 or step < 3 or (builds and "build" not in kinds):
            for seat in [*range(players), None]:
                svg, _ = draw(state, seat)
                kinds |= {a.split()[0] for a in check_clickable(state, seat, svg)}
                check_no_secrets(state, seat, svg)
        state.apply(actor, rng.choice(builds) if builds and rng.random() < 0.7 else rng.choice(legal))
        step += 1
    for seat in [*range(players), None]:
        _, root = draw(state, seat)
        assert actions_in(root) == []
        assert "game over" in texts_in(root)
        check_no_secrets(state, seat)
    assert "place" in kinds and "build" in kinds
    if "no-monuments" not in variants:
        assert "keep" in kinds
    if players > 1 and "town-hall" not in variants:
        assert "name" in kinds


def test_the_picture_depends_only_on_what_the_seat_may_know() -> None:
    """A determinized copy (others' monuments, placements, deck order re-dealt) draws the same picture."""
    checked = 0
    for players in range(1, 7):
        state = GAME.new_game(players=players, seed=players)
        rng = random.Random(players)
        step = 0
        while not state.is_over():
            if step % 6 == 0:
                for seat in range(players):
                    copy = state.determinize(seat, step)
                    mine = render_svg(state.view(seat), legal_of(state, seat), seat)
                    assert render_svg(copy.view(seat), legal_of(copy, seat), seat) == mine
                    checked += 1
            actor = rng.choice(state.actors())
            state.apply(actor, rng.choice(state.legal_actions(actor)))
            step += 1
    assert checked > 100


def test_hidden_placements_stay_hidden_until_everyone_has_placed() -> None:
    pictures: dict[int | None, set[str]] = {0: set(), 2: set(), None: set()}
    for square in ("C3", "A1", "D4"):
        state = position([EMPTY, EMPTY, EMPTY], phase="place", named="glass", mb=0)
        state.apply(1, f"place glass {square}")
        _, mine = draw(state, 1)
        assert "your pick" in texts_in(mine) and f"place glass {square}" in texts_in(mine)
        for seat in pictures:
            svg, root = draw(state, seat)
            assert "your pick" not in texts_in(root) and "has placed (hidden)" in texts_in(root)
            pictures[seat].add(svg)
    # where player 1 placed changes nothing in the others' pictures
    assert all(len(svgs) == 1 for svgs in pictures.values())


# --- every kind of decision, from hand-built positions ---------------------------------------------


def factory_place() -> tuple[TinyTownsState, int]:
    state = position([town("W . . .", "B S S B", E, E), EMPTY], variants=("cavern", "no-monuments"))
    state.apply(0, "build Factory A1 A2 B2 C2 D2 at A1")
    state.apply(0, "choose stone")
    state.apply(0, "done")
    state.apply(1, "done")
    state.apply(1, "name stone")
    return state, 0


def factory_choice() -> tuple[TinyTownsState, int]:
    state = position([town("W . . .", "B S S B", E, E), EMPTY])
    state.apply(0, "build Factory A1 A2 B2 C2 D2 at A1")
    return state, 0


def warehouse() -> tuple[TinyTownsState, int]:
    buildings = ("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Warehouse")
    state = position(
        [town("WAR . . .", E, E, "W W W W"), EMPTY], phase="place", named="glass", mb=1, buildings=buildings
    )
    state.towns[0].stored = {0: ["brick", "wheat"]}
    state._cache.clear()
    return state, 0


def guild() -> tuple[TinyTownsState, int]:
    state = position(
        [town(". . G .", ". H S .", "W B . .", "COT FAR . .")], variants=(), monuments=[("Architect's Guild", False)]
    )
    state.apply(0, "build Architect's Guild A3 B2 B3 C1 C2 at C1")
    return state, 0


def grove() -> tuple[TinyTownsState, int]:
    state = position([town(". B . .", "S G S .", E, E)], variants=(), monuments=[("Grove University", False)])
    state.apply(0, "build Grove University A2 B1 B2 C2 at B2")
    return state, 0


def opaleye_pick() -> tuple[TinyTownsState, int]:
    watch = town("W . . .", "B G H H", "S . . .", E)
    cottage = town(". H . .", "B G . .", E, E)
    state = position(
        [watch, cottage, cottage, cottage],
        variants=(),
        monuments=[("Opaleye's Watch", False), ("", False), ("", False), ("", False)],
    )
    state.apply(0, "build Opaleye's Watch A1 A2 A3 B2 C2 D2 at A1")
    state.apply(0, "choose Cottage")
    return state, 0


def opaleye_arrival() -> tuple[TinyTownsState, int]:
    state, _ = opaleye_pick()
    state.apply(0, "choose Farm")
    state.apply(0, "choose Well")
    state.apply(0, "done")
    state.apply(1, "build Cottage A2 B1 B2 at A2")
    return state, 0


def statue() -> tuple[TinyTownsState, int]:
    state = position(
        [town("MON COT COT .", E, E, E), EMPTY],
        variants=(),
        monuments=[("Statue of the Bondmaker", True), ("", False)],
        phase="place",
        named="brick",
        mb=1,
    )
    return state, 0


def bank_choice() -> tuple[TinyTownsState, int]:
    buildings = ("Cottage", "Farm", "Well", "Theater", "Chapel", "Tavern", "Bank")
    state = position([town("H H . .", "W G B .", E, E), EMPTY], buildings=buildings)
    state.apply(0, "build Bank A1 A2 B1 B2 C2 at A1")
    return state, 0


def keep_step() -> tuple[TinyTownsState, int]:
    return GAME.new_game(players=3, seed=5), 1


def naming() -> tuple[TinyTownsState, int]:
    state = position([EMPTY, EMPTY], phase="name", mb=1)
    return state, 1


def solo_pick() -> tuple[TinyTownsState, int]:
    return GAME.new_game(players=1, seed=3, variants=("no-monuments",)), 0


def free_choice() -> tuple[TinyTownsState, int]:
    state = GAME.new_game(players=2, seed=4, variants=("town-hall", "no-monuments"))
    rng = random.Random(4)
    while not (state.free_round and state.phase == "place" and 0 in state.actors()):
        assert not state.is_over()
        actor = rng.choice(state.actors())
        state.apply(actor, rng.choice(state.legal_actions(actor)))
    return state, 0


def many_builds() -> tuple[TinyTownsState, int]:
    return position([town("H . W S", "B G S W", "H S G .", "B G W S"), EMPTY]), 0


POSITIONS: dict[str, Callable[[], tuple[TinyTownsState, int]]] = {
    f.__name__: f
    for f in (
        factory_place,
        factory_choice,
        warehouse,
        guild,
        grove,
        opaleye_pick,
        opaleye_arrival,
        statue,
        bank_choice,
        keep_step,
        naming,
        solo_pick,
        free_choice,
        many_builds,
    )
}


@pytest.mark.parametrize("name", POSITIONS)
def test_every_decision_of_a_position_is_clickable(name: str) -> None:
    state, seat = POSITIONS[name]()
    tagged = check_clickable(state, seat)
    assert tagged, "the position has drawable decisions"
    for other in [q for q in range(state.players) if q != seat] + [None]:
        check_clickable(state, other)
        check_no_secrets(state, other)


def _by_action(root: ET.Element) -> dict[str, ET.Element]:
    return {str(el.get("data-action")): el for el in root.iter() if el.get("data-action") is not None}


def test_several_decisions_on_one_square_are_separate_chips() -> None:
    state, seat = factory_place()
    legal = legal_of(state, seat)
    on_b1 = [a for a in legal if a.startswith("place ") and a.endswith(" B1")]
    assert len(on_b1) == 5  # the Factory lets player 0 take any resource
    _, root = draw(state, seat)
    chips = _by_action(root)
    labels = {"".join(chips[a].itertext()).replace(a, "") for a in on_b1}  # the chip's letter, not its tooltip
    assert labels == {"W", "H", "B", "G", "S"}
    assert "cavern stone" in chips


def test_one_decision_on_a_square_tags_the_square_itself() -> None:
    state = position([EMPTY, EMPTY], phase="place", named="glass", mb=0)
    _, root = draw(state, 0)
    chips = _by_action(root)
    assert len(chips) == 16
    rects = [el for el in chips["place glass B3"] if el.tag == f"{SVG_NS}rect"]
    assert len(rects) == 1 and float(rects[0].get("width", 0)) > 80  # a whole (large) square


def test_builds_offer_one_button_per_target_square() -> None:
    state, seat = many_builds()
    builds = [a for a in legal_of(state, seat) if a.startswith("build ")]
    assert len(builds) > 5
    _, root = draw(state, seat)
    chips = _by_action(root)
    for action in builds:
        target = action.rsplit(" ", 1)[1]
        assert target in "".join(chips[action].itertext())


def test_keep_tags_the_two_dealt_cards_and_only_the_owner_sees_them() -> None:
    state, seat = keep_step()
    dealt = state.towns[seat].dealt
    _, root = draw(state, seat)
    assert sorted(a for a in actions_in(root)) == sorted(f"keep {m}" for m in dealt)
    for name in dealt:
        assert name in texts_in(root)
    for other in (0, 2, None):
        svg, _ = draw(state, other)
        for name in dealt:
            assert name not in svg


def test_opaleye_pick_tags_the_building_cards() -> None:
    state, seat = opaleye_pick()
    _, root = draw(state, seat)
    chips = _by_action(root)
    assert set(chips) == {a for a in legal_of(state, seat) if a.startswith("choose ")}
    assert "choose Cottage" not in chips  # already on the card


def test_spectator_has_nothing_to_click_and_sees_every_town() -> None:
    state, _ = factory_place()
    _, root = draw(state, None)
    assert actions_in(root) == []
    assert "▶ Player 0" in texts_in(root) and "Player 1" in texts_in(root)
    assert "Waiting for Player 0, Player 1" in texts_in(root)


def test_a_seat_that_is_not_to_act_has_nothing_to_click() -> None:
    state = position([EMPTY, EMPTY], phase="name", mb=1)
    _, root = draw(state, 0)
    assert actions_in(root) == [] and "Waiting for Player 1" in texts_in(root)


def test_viewers_own_town_comes_first() -> None:
    state = GAME.new_game(players=4, seed=2)
    for seat in range(4):
        _, root = draw(state, seat)
        headings = [t for t in (el.text or "" for el in root.iter(f"{SVG_NS}text")) if HEADING.match(t)]
        assert headings[0] == f"Player {seat} — you"
        assert [int(HEADING.match(h).group(1)) for h in headings] == [(seat + k) % 4 for k in range(4)]  # type: ignore[union-attr]


def test_text_is_escaped() -> None:
    state = position([EMPTY, EMPTY], phase="build")
    view: dict[str, Any] = state.view(None)
    view["towns"][1]["monument_built"] = "<script>&\"'"
    view["towns"][1]["grid"][0] = "Bad <b> & Co"
    view["buildings"]["<Odd & Card>"] = "W S"
    svg = render_svg(view, ["place <x> & A1", 'done"'], 0)
    root = ET.fromstring(svg)
    assert "<script>" not in svg and "<Odd & Card>" in texts_in(root)


def test_the_server_finds_the_hook() -> None:
    from farmtable.server.render import find_renderer, render

    assert find_renderer(GAME) is render_svg
    state = GAME.new_game(players=2, seed=1)
    assert 'class="ft-board tiny-towns"' in render(GAME, state.view(0), legal_of(state, 0), 0)


def test_every_building_and_monument_card_draws() -> None:
    """All 25 building cards and the 15 monuments (all their patterns) draw as cards without error."""
    view = position([EMPTY]).view(0)
    names = list(C.BUILDINGS)
    for start in range(0, len(names), 7):
        view["buildings"] = {n: C.BUILDINGS[n].pattern for n in names[start : start + 7]}
        root = ET.fromstring(render_svg(view, [], 0))
        for name in view["buildings"]:
            assert name in texts_in(root)
    for monument in C.MONUMENTS:
        state = position([EMPTY], variants=(), monuments=[(monument, False)])
        _, root = draw(state, 0)
        assert monument in texts_in(root)
