"""The SVG picture (``farmerama.svg.render_svg``): well-formed, clickable exactly where legal, no secrets."""

from __future__ import annotations

import copy
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import farmtable
from farmtable.games.farmerama.components import BUILDINGS, CARDS
from farmtable.games.farmerama.rules import CHOOSE, FarmeramaState
from farmtable.games.farmerama.svg import render_svg
from farmtable.server.render import find_renderer, render

GAME = farmtable.get_game("farmerama")
NS = "{http://www.w3.org/2000/svg}"
CASES = [(1, ()), *((n, v) for v in ((), ("profi",), ("simultaneous",)) for n in (2, 3, 4))]


def play(
    players: int, variants: tuple[str, ...], seed: int, every: int = 7, until: int | None = None
) -> Iterator[FarmeramaState]:
    """States reached by seeded random play: every ``every``-th decision (up to decision ``until``),
    and the final one."""
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    assert isinstance(state, FarmeramaState)
    rng = random.Random(seed)
    step = 0
    while not state.is_over():
        if step % every == 0 and (until is None or step <= until):
            yield state
        actor = rng.choice(state.actors())
        state.apply(actor, rng.choice(state.legal_actions(actor)))
        step += 1
    yield state


def draw(state: FarmeramaState, player: int | None) -> tuple[str, list[str]]:
    legal = [str(a) for a in state.legal_actions(player)] if player is not None else []
    return render_svg(state.view(player), legal, player), legal


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    box = root.get("viewBox", "").split()
    assert len(box) == 4 and float(box[2]) > 0 and float(box[3]) > 0
    assert root.get("width") == "100%"
    return root


def actions(root: ET.Element) -> list[str]:
    return [str(e.get("data-action")) for e in root.iter() if e.get("data-action") is not None]


def quick_actions(svg: str) -> set[str]:
    """The data-action values, without parsing (for the long searches)."""
    return set(re.findall(r'data-action="([^"]*)"', svg))


def texts(root: ET.Element) -> list[str]:
    return ["".join(e.itertext()) for e in root.iter(f"{NS}text")]


def secrets(state: FarmeramaState, player: int | None) -> list[str]:
    """What ``player`` must not see: others' unrevealed cards (as the picture words them) and the
    ids of face-down buildings."""
    found = []
    if state.phase == CHOOSE:
        for q, board in enumerate(state.boards):
            if q != player:
                found += [f"chose {CARDS[c]}" for c in board.cards]
    found += [BUILDINGS[b].id for b in state.stack + state.removed]
    return found


def leaks(svg: str, hidden: list[str]) -> set[str]:
    """The ``hidden`` strings that occur in ``svg`` (one scan instead of one per secret)."""
    if not hidden:
        return set()
    return set(re.findall("|".join(re.escape(h) for h in hidden), svg))


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_random_play_pictures_are_valid_clickable_exactly_where_legal_and_keep_secrets(
    players: int, variants: tuple[str, ...]
) -> None:
    seen: set[str] = set()
    for state in play(players, variants, seed=100 + players, every=4, until=200):
        actors = state.actors()
        for p in [*range(players), None]:
            svg, legal = draw(state, p)
            # parsing is the slow part: the XML checks for an actor and the spectator, the rest for all
            tagged = actions(parse(svg)) if p is None or (actors and p == actors[0]) else sorted(quick_actions(svg))
            # every element tagged is a legal move of that seat, and every legal move has its place
            assert set(tagged) <= set(legal), (p, sorted(set(tagged) - set(legal)))
            assert set(legal) <= set(tagged), (p, sorted(set(legal) - set(tagged)))
            if p is None or p not in actors:
                assert tagged == []
            assert not leaks(svg, secrets(state, p)), p
            seen.update(a.split()[0] for a in tagged)
    assert {"card", "sow", "done"} <= seen


def test_sow_and_harvest_are_beds_and_feed_is_a_stable_animal() -> None:
    checked = {"sow": 0, "harvest": 0, "feed": 0}
    for players in (1, 2):
        for state in play(players, (), seed=5, every=1):
            if state.is_over():
                break
            p = state.actors()[0]
            root = parse(draw(state, p)[0])
            for group in root.iter(f"{NS}g"):
                action = group.get("data-action")
                if action is None or action.split()[0] not in checked:
                    continue
                checked[action.split()[0]] += 1
                if action.startswith(("sow", "harvest")):
                    rects = [r for r in group.iter(f"{NS}rect") if r.get("width") == "22.0"]
                    assert rects, f"{action} is not drawn on a bed"
                else:
                    words = [t for t in texts(group) if t == action.split()[1]]
                    assert words, f"{action} is not the animal in the stable"
    assert all(n > 0 for n in checked.values()), checked


def test_the_probe_would_catch_a_leak() -> None:
    state = next(play(2, (), seed=1))
    state.apply(0, "card sow")
    view = state.view(1)
    view["card_choices"][0] = "P0 chose sow"  # a view that leaked P0's hidden card
    svg = render_svg(view, [str(a) for a in state.legal_actions(1)], 1)
    assert leaks(svg, secrets(state, 1)) == {"chose sow"}
    honest, _ = draw(state, 1)
    assert not leaks(honest, secrets(state, 1))
    hidden_id = BUILDINGS[state.stack[0]].id
    assert leaks(honest + hidden_id, secrets(state, 1)) == {hidden_id}


@pytest.mark.parametrize(("players", "variants"), CASES)
def test_the_stars_shown_are_the_score_and_game_over_names_the_winner(players: int, variants: tuple[str, ...]) -> None:
    for state in play(players, variants, seed=7 + players, every=23):
        totals = state.result().totals
        suffix = " stars" if state.is_over() else " stars now"
        for p in (0, None):
            svg, _ = draw(state, p)
            shown = texts(parse(svg))
            for q in range(players):
                assert f"{totals[q]}{suffix}" in shown, (q, totals)
    assert state.is_over()
    svg, _ = draw(state, None)
    head = " ".join(texts(parse(svg)))
    assert "Game over" in head
    if players == 1:
        assert f"Game over: {state.result().totals[0]} stars" in head
    else:
        winners = ", ".join(f"P{w}" for w in state.result().winners)
        assert f"winner {winners}" in head or f"shared win {winners}" in head


def test_the_viewing_seat_is_drawn_first_and_marked() -> None:
    state = next(play(4, (), seed=3))
    for p in range(4):
        shown = texts(parse(draw(state, p)[0]))
        titles = [t for t in shown if re.fullmatch(r"P\d( · .*)?", t)]
        assert len(titles) == 4 and titles[0].startswith(f"P{p} · you")
        assert sum("· you" in t for t in titles) == 1
    shown = texts(parse(draw(state, None)[0]))
    assert "spectator" in shown and not any("· you" in t for t in shown)


def test_awards_gain_and_solo_tokens_and_redraw_are_clickable() -> None:
    wanted = {"gain", "take", "token", "redraw", "start", "feed", "water", "pay-water", "harvest", "turn-wheel"}
    found: set[str] = set()
    games = [(players, variants, seed) for seed in range(6) for players, variants in ((3, ("profi",)), (1, ()))]
    for players, variants, seed in games:
        for state in play(players, variants, seed=seed, every=1):
            if state.is_over():
                break
            p = state.actors()[0]
            svg, legal = draw(state, p)
            tagged = quick_actions(svg)
            assert tagged == set(legal)
            found.update(a.split()[0] for a in tagged)
        if wanted <= found:
            break
    assert wanted <= found, wanted - found


def test_text_is_escaped() -> None:
    state = next(play(2, (), seed=2))
    view = copy.deepcopy(state.view(0))
    view["buildings_face_up"][0]["reward"] = "<b>&'\""
    view["card_choices"][1] = "P1 <script>"
    svg = render_svg(view, [], 0)
    parse(svg)
    assert "<script>" not in svg and "<b>" not in svg


def test_the_server_finds_this_renderer() -> None:
    assert find_renderer(GAME) is render_svg
    state = next(play(2, (), seed=4))
    svg = render(GAME, state.view(0), [str(a) for a in state.legal_actions(0)], 0)
    assert "ft-fallback" not in svg and 'class="ft-board farmerama"' in svg


def test_every_view_of_a_profi_game_renders() -> None:
    """Was a wall-clock test (< 10 ms a picture), which failed on the loaded shared machine; speed
    belongs to benchmarks (DESIGN.md), so this only checks every view of a 4-player game renders."""
    views: list[tuple[dict[str, Any], list[str], int]] = []
    for state in play(4, ("profi",), seed=9, every=5):
        if not state.is_over():
            p = state.actors()[0]
            views.append((state.view(p), [str(a) for a in state.legal_actions(p)], p))
    assert views
    for view, legal, p in views:
        assert 'class="ft-board farmerama"' in render_svg(view, legal, p)


def test_a_boards_key_is_its_repr_whether_found_again_or_written_out() -> None:
    """``board_key`` finds a board seen before by equality: what it returns is that board's ``repr`` for
    equal copies (each seat's view and live score bring their own) and for boards that differ."""
    from farmtable.games.farmerama.svg import RECENT_BOARDS, board_key

    state = farmtable.get_game("farmerama").new_game(2, seed=31)
    rng = random.Random(31)
    seen: set[str] = set()
    for _ in range(60):
        if state.is_over():
            break
        for viewer in (0, 1, None):
            for board in state.view(viewer)["boards"]:
                assert board_key(board) == repr(board)
                seen.add(repr(board))
        seat = state.actors()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    assert len(seen) > RECENT_BOARDS
