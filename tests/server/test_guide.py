"""The teaching pages (rules, symbol key, how to play) and what the table says beside the board
(the log in words, the live score): one source with the docs, every board symbol explained."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import farmtable
from farmtable.server import guide, narrate
from farmtable.server.render import render
from tests.server.conftest import new_table

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
GAMES = [g for g in guide.GAMES if g in farmtable.list_games()]


@pytest.mark.parametrize("game", guide.GAMES)
def test_the_shipped_rules_are_the_docs_page_exactly(game: str) -> None:
    shipped = guide.rules_markdown(game)
    source = (DOCS / f"{game}.md").read_text("utf-8")
    assert shipped == source, f"run: python -m farmtable.server.guide (the rules of {game} differ from the docs)"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_has_the_docs_sections_and_links_the_key(client: Any, game: str) -> None:
    res = client.get(f"/rules/{game}")
    assert res.status_code == 200
    html = res.text
    for heading in re.findall(r"^## (.+)$", (DOCS / f"{game}.md").read_text("utf-8"), re.M):
        title = heading.replace("`", "")
        assert re.sub(r"<[^>]+>", "", title) in re.sub(r"<[^>]+>", "", html).replace("&amp;", "&"), heading
    assert f'href="/rules/{game}/key"' in html
    assert "<script" not in html.split("</head>")[1].split("<footer")[0]  # no raw HTML from the source
    assert "<table" in html  # the docs' tables are drawn as tables


def test_links_between_game_pages_stay_in_the_app_and_others_become_text() -> None:
    text = "see [the AI](tiny-towns-ai.md) and [Farmini](farmini.md#notation)"
    assert guide._relink(text) == "see the AI and [Farmini](/rules/farmini#notation)"


def test_an_unknown_game_has_no_rules_page_and_says_which_exist(client: Any) -> None:
    res = client.get("/rules/chess")
    assert res.status_code == 404
    assert "No rules for" in res.text and "chess" in res.text
    assert client.get("/rules/chess/key").status_code == 404


def _board_texts(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {(t.text or "").strip() for t in root.iter() if t.tag.endswith("text")}


SYMBOLS = {
    "farmerama": ["Ca", "Hy", "Oa", "Co", "W", "Sh", "Pg", "Cw", "Hr", "k0 sow carrots", "2Hy 2Oa", "A0 … A6"],
    "tiny-towns": ["Wd", "Wh", "B", "G", "S", "A1 … D4"],
    "tiny-farms": ["P", "S", "Ch", "C", "cc", "H", "FF-r, FF-e, FF-s, FF-b, FF-bu"],
    "farmers-finances": ["W / WHEAT", "B / BREAD", "A / ANIMAL"],
    "farmini": ["P", "G", "C", "H"],
}


@pytest.mark.parametrize("game", GAMES)
def test_the_key_explains_the_letters_the_board_draws(client: Any, game: str) -> None:
    keyed = {symbol for _, entries in guide.KEYS[game] for symbol, _ in entries}
    for symbol in SYMBOLS[game]:
        assert symbol in keyed, symbol
    # the short letters a mid-game board of this game actually draws are all in the key
    g = farmtable.get_game(game)
    state = g.new_game(players=2, seed=4)
    rng = random.Random(4)
    seen: set[str] = set()
    for _ in range(60):
        if state.is_over():
            break
        p = state.actors()[0]
        legal = [str(a) for a in state.legal_actions(p)]
        seen |= _board_texts(render(g, state.view(p), legal, p))
        state.apply(p, rng.choice(legal))
    letters = {t for t in seen if re.fullmatch(r"[A-Z][a-z]?|[a-z]{2}|FF-[a-z]+", t)}
    explained = " ".join(keyed)
    missing = {t for t in letters if not re.search(rf"(^|[\s/,(]){re.escape(t)}($|[\s/,)])", explained)}
    assert not missing, f"{game}: the board shows {sorted(missing)} but the key does not explain them"
    page = client.get(f"/rules/{game}/key")
    assert page.status_code == 200
    assert "<caption>" in page.text


@pytest.mark.parametrize(
    ("notation", "said"),
    [
        ("place wood B3", "placed wood on B3"),
        ("build Cottage A1 A2 B2 at A2", "built a Cottage on A2 (from A1 A2 B2)"),
        ("sow hay A1", "sowed hay in A1"),
        ("sell wheat 2", "sold 2 wheat cards"),
        ("die 4 red", "used the 4 for the red farmer"),
        ("place C7 at 1,-1 rot 90", "laid card C7 at 1,-1 turned 90°"),
        ("add 2", "add 2"),
    ],
)
def test_the_log_speaks_words(notation: str, said: str) -> None:
    assert narrate.words(notation) == said


def test_a_log_line_hides_a_secret_and_keeps_unknown_notation() -> None:
    assert narrate.log_text("move", 1, "place wood B3", hidden=True) == "Player 1 chose (secret)"
    assert narrate.log_text("move", 1, "place wood B3", hidden=False) == "Player 1 placed wood on B3"
    assert narrate.log_text("move", 0, "add 2", hidden=False) == "Player 0: add 2"


@pytest.mark.parametrize("game", GAMES)
def test_the_live_score_ends_as_the_final_score(game: str) -> None:
    g = farmtable.get_game(game)
    state = g.new_game(players=2, seed=11)
    rng = random.Random(11)
    middle: dict[str, Any] | None = None
    for step in range(5000):
        if state.is_over():
            break
        if step == 20:
            middle = narrate.table_extras(g, state, state.view(0), 0)
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    assert middle is not None and len(middle["score"]["totals"]) == 2
    end = narrate.table_extras(g, state, state.view(None), None)
    assert end["score"]["totals"] == list(state.result().totals)


def test_the_table_page_links_rules_key_and_how_to_play(client: Any) -> None:
    if "tiny-towns" not in farmtable.list_games():
        pytest.skip("tiny-towns is not registered")
    table = new_table(client, game="tiny-towns", seats=[{"kind": "you"}, {"kind": "ai", "agent": "random"}])
    html = client.get(f"/t/{table['id']}").text
    assert 'href="/rules/tiny-towns"' in html and 'href="/rules/tiny-towns/key"' in html
    assert 'id="how-to"' in html and "How to play Tiny Towns" in html


def test_variant_labels_on_the_new_table_form_cite_no_initials() -> None:
    """Issue 15: "DB's reading", "(RH)" become plain words where people choose variants."""
    import re

    from farmtable.server.app import games_info
    from farmtable.server.guide import plain_variant

    assert plain_variant("Market counts both (DB's reading)") == "Market counts both (one reading of the rules)"
    assert plain_variant("Mandras counts 8 squares (RH)") == "Mandras counts 8 squares (one reading of the rules)"
    assert plain_variant("Cottage (3 VP) if fed") == "Cottage (3 VP) if fed"  # not initials: kept
    for game in games_info():
        for name, text in game["variants"].items():
            assert not re.search(r"\b[A-Z]{2,3}(?:'s)?\b(?! VP)", text.replace("VP", "")), (game["id"], name, text)
