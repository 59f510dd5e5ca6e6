"""Pages that teach the games: rules, the symbol key and the "how to play" card (one router, kept
apart from the table API so it can grow without touching it).

The rules page of a game is drawn from the same Markdown as the docs (``docs/games/<game>.md``).
The installed package cannot reach ``docs/``, so an exact copy of each page ships as package data
(``server/static/rules-<game>.md``); ``python -m farmtable.server.guide`` refreshes the copies and a
test fails whenever a copy and its page differ, so the two never disagree.
"""

from __future__ import annotations

import re
import sys
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token

import farmtable
from farmtable.server import pages

router = APIRouter()
"""Routes of the teaching pages; ``create_app`` includes it."""

RULES_PREFIX = "rules-"
"""Package data name of a game's rules page: ``static/rules-<game id>.md``."""

GAMES = ("farmerama", "farmers-finances", "farmini", "tiny-farms", "tiny-towns")
"""The games with a page in ``docs/games/`` (its file name is the game id)."""

KEYS: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {
    "farmerama": [
        (
            "Goods (barn, supply, costs)",
            [
                ("Ca", "carrots"),
                ("Hy", "hay"),
                ("Oa", "oats"),
                ("Co", "corn"),
                ("W", "water (on a tile or a cost)"),
                ("2Hy 2Oa", "a cost or a reward: 2 hay and 2 oats (number, then the good)"),
                ("×14, milk ×14", "each product on its track is worth this many stars"),
            ],
        ),
        (
            "Animals",
            [("Sh", "sheep (gives wool)"), ("Pg", "pig (truffles)"), ("Cw", "cow (milk)"), ("Hr", "horse (riding)")],
        ),
        (
            "Action cards (the letters on your cards)",
            [
                ("S", "Sow: plant seeds from your barn"),
                ("H", "Harvest: take grown plants into your barn"),
                ("W", "Water: turn your player wheel one step"),
                ("F", "Feed: feed an animal for a product"),
                ("$", "Seed store: buy from the supply"),
                ("3 / 2", "on the action wheel: how many you may do alone / when another player chose the same card"),
                ("chosen, played, to do", "the state of your card this round"),
            ],
        ),
        (
            "Your farmland and player wheel",
            [
                ("A0 … A6", "the seven areas of your farmland (A0 has 3 beds, the others 2)"),
                ("k0 sow carrots", "player-wheel sector k0: carrots may be sown in the area under it"),
                ("k1 sow hay, k2 sow oats, k3 sow corn", "the other sowing sectors"),
                ("k4, k5, k6 harvest", "plants in the areas under these sectors may be harvested"),
                ("pacifier", "an animal under k6 becomes a product when fed"),
                ("horse head, cow head …", "the animal that may arrive in that area's pasture"),
                ("bar", "the bar between k6 and k0: an area may pass it only when empty"),
                ("scarecrow (cross)", "shown on an empty first bed"),
                ("turn-wheel", "turn your player wheel one step (costs 1 water)"),
            ],
        ),
        (
            "Buildings and stars",
            [
                ("OB01 … OB20", "ornamental buildings (the reward is written under the number)"),
                ("Garden (n)", "ornamental buildings you own"),
                ("12 stars now", "the stars this farm would score if the game ended now"),
                ("P0, P1", "player 0, player 1"),
            ],
        ),
    ],
    "farmers-finances": [
        (
            "Cards",
            [
                ("W / WHEAT", "a wheat card (sells for wheat price)"),
                ("B / BREAD", "a bread card (bake wheat into bread)"),
                ("A / ANIMAL", "an animal card"),
                ("× 2", "how many of that card a farm holds"),
            ],
        ),
        (
            "The market",
            [
                ("row", "the market card's row the die sits on: it sets today's prices"),
                ("BUY / SELL", "the price columns of the market card"),
                ("+1, −1", "how the die may move (to the next row up or down)"),
                ("last roll", "the face of the last rolled die"),
                ("1 · 3", "die faces that lead to that row"),
                ("MONEY, 23 coins", "a player's money; the first to 70 coins ends the game"),
                ("goal 70", "the money that ends the game"),
                ("▶ to act", "the player whose decision it is"),
            ],
        ),
    ],
    "farmini": [
        (
            "Cards",
            [
                ("A1 … P4", "card ids (the letter is the card's kind, the number its copy)"),
                ("fence, gap", "a fence side, and a gap (pasture open to the next card)"),
                ("G / C", "quarter of a card: G grass, C cornfield"),
                ("corn", "a cornfield quarter (scores at the end)"),
                ("rot 90", "the card turned 90° clockwise"),
                ("x=1, y=-1", "where a card goes on your farm (column, row)"),
                ("NE, SE, SW, NW", "the four quarters of a card (north-east …)"),
            ],
        ),
        (
            "Animals",
            [
                ("P", "pig"),
                ("G", "goat"),
                ("C", "chicken"),
                ("H", "the farmhouse card"),
                ("take 1 … take 4", "take face-up card 1–4"),
            ],
        ),
    ],
    "tiny-farms": [
        (
            "Animals in your farms",
            [
                ("P", "pig"),
                ("S", "sheep"),
                ("Ch", "chicken"),
                ("C", "cow"),
                ("cc", "calves"),
                ("H", "horse"),
                ("FF-r, FF-e, FF-s, FF-b, FF-bu", "Forest Friends: raccoon, eagle, squirrel, bear, bunny"),
                (".", "an empty space"),
            ],
        ),
        (
            "Farms and dice",
            [
                ("R / Red farm", "your red farm (cells R-A1 … R-D4)"),
                ("B / Blue farm", "your blue farm (cells B-A1 … B-D4)"),
                ("A B C D, 1 2 3 4", "a farm's column letters and row numbers (R-B2: red farm, column B, row 2)"),
                ("R → 5", "use this die for the red farmer: he moves to space 5 of the wheel"),
                ("milk 2", "milk tokens left: spend one to change a die by 1"),
                ("turned 3", "how far the barn wheel has turned"),
                ("M", "a milk token"),
            ],
        ),
    ],
    "tiny-towns": [
        (
            "Resources (cubes)",
            [
                ("Wd", "wood (brown); written W in building patterns and notation"),
                ("Wh", "wheat (yellow); written H in building patterns and notation"),
                ("B", "brick (red)"),
                ("G", "glass (blue)"),
                ("S", "stone (grey)"),
            ],
        ),
        (
            "Your town",
            [
                ("A1 … D4", "squares: column A–D left to right, row 1–4 top to bottom"),
                ("A B C D, 1 2 3 4", "the column letters above the town and the row numbers beside it"),
                ("COT, GRA, MIL …", "a building on a square: the first letters of its name"),
                ("blue · COT", "the building's colour and code on its card"),
                (". H / B G", "a building pattern: rows split by /, '.' any square; rotate or mirror it"),
                ("★ Cathedral", "a monument"),
                ("done", "end your building for this round"),
            ],
        ),
    ],
}
"""Every symbol and abbreviation the game's board shows, with its meaning."""

HOW_TO: dict[str, list[str]] = {
    "farmerama": [
        "Every round everyone picks an action card in secret: Sow, Harvest, Water, Feed or Seed store.",
        "Sow plants in the areas under the matching sector of your player wheel; turning the wheel "
        "(Water) moves areas into the harvest sectors.",
        "Harvest plants into your barn; feed animals to make products, which earn stars.",
        "The player with the most stars at the end wins.",
    ],
    "farmers-finances": [
        "On your turn do one action: buy a card, sell cards, or bake wheat into bread.",
        "Then move the market die one row (or reroll it): the row sets the prices.",
        "Buy cheap, sell dear; the first farm to 70 coins ends the game and the richest wins.",
    ],
    "farmini": [
        "On your turn take one face-up card and add it to your farm.",
        "Fence cards must match their neighbours side by side (fence to fence, pasture to pasture).",
        "Animal cards put animals into your fenced pastures; cornfields score at the end.",
        "Most points wins.",
    ],
    "tiny-farms": [
        "Roll the dice; use each die to move your red or your blue farmer around the barn wheel.",
        "Collect the animals where the farmer stops and write them into that farm.",
        "Groups and patterns of animals score; keep both farms equally full.",
        "Most points after ten rounds wins.",
    ],
    "tiny-towns": [
        "Each round the Master Builder names a resource; everyone places that cube in their town at once.",
        "When cubes form a building's pattern (rotated or mirrored), build it on one of those squares.",
        "Buildings score in different ways; every empty square costs 1 point at the end.",
        "When no one can place any more, the most points wins.",
    ],
}
"""The "how to play" card shown on a first visit to a table: a few sentences a newcomer needs."""


TUTORIALS: dict[str, dict[str, Any]] = {
    "tiny-towns": {
        "seed": 7,
        "intro": "A first game of Tiny Towns against a gentle computer player, explained step by step.",
        "steps": [
            {
                "verbs": ["keep"],
                "title": "Keep a secret monument",
                "text": "You were dealt two monuments. Keep one: only you know which. Click one of the two "
                "cards on the right of your town.",
            },
            {
                "verbs": ["name"],
                "title": "Name a resource",
                "text": "You are the Master Builder this round: name the resource every player must place. "
                "Click one of the coloured resource buttons.",
            },
            {
                "verbs": ["place"],
                "title": "Place the resource",
                "text": "Put the named resource on an empty square of your town: click a square. Everyone "
                "places at the same time, so the others' choices stay hidden until all have placed.",
            },
            {
                "verbs": ["build"],
                "title": "Build",
                "optional": True,
                "text": "Your cubes form a building's pattern! Click the outlined cubes in your town, then "
                "the building in the Build box above the board, then the square it goes on.",
            },
            {
                "verbs": ["done"],
                "title": "End your building",
                "text": "When you do not want to build (more) this round, click 'done' under your town.",
            },
        ],
        "end": "That is a whole round. Keep playing: the game ends when nobody can place any more; each "
        "empty square costs a point. The symbol key explains every letter on the board.",
    },
    "farmers-finances": {
        "seed": 7,
        "intro": "A first game of Farmers Finances against a gentle computer player, explained step by step.",
        "steps": [
            {
                "verbs": ["buy", "sell", "bake", "pass"],
                "title": "Your action",
                "text": "On your turn you do one thing: buy a card, sell cards of one sort, or bake wheat into "
                "bread. Today's prices are on the row of the market card where the die sits. Click a buy "
                "or sell button.",
            },
            {
                "verbs": ["move", "reroll", "pick"],
                "title": "Change the market",
                "text": "Now move the market die one row up or down, or reroll it: the row sets the prices "
                "for the next player. Click a row or 'reroll die'.",
            },
            {
                "verbs": ["sell"],
                "title": "Sell",
                "text": "Sell when the price on the market row is high: your coins are your score.",
            },
        ],
        "end": "You know the whole game now: buy cheap, sell dear. The first farm with 70 coins ends the "
        "game and the richest farm wins.",
    },
}
"""The tutorials: a seeded first game against an easy AI, with a coach that explains each kind of
decision the first time it comes up (``verbs``: the first words of the moves it is about). The
tutorial is complete when every step that is not ``optional`` has been done."""


def game_ids() -> list[str]:
    """The installed games with a rules page."""
    return [g for g in GAMES if g in farmtable.list_games()]


def rules_markdown(game_id: str) -> str:
    """The Markdown source of a game's rules page (package data copied from ``docs/games/``)."""
    if game_id not in GAMES:
        raise KeyError(f"no rules page for {game_id!r}; the games are {', '.join(GAMES)}")
    return resources.files("farmtable.server").joinpath("static", f"{RULES_PREFIX}{game_id}.md").read_text("utf-8")


_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+?\.md)(#[^)]*)?\)")


def _relink(text: str) -> str:
    """Links between game pages point to their rules pages; links to other docs become plain text."""

    def swap(match: re.Match[str]) -> str:
        label, target, anchor = match.group(1), match.group(2), match.group(3) or ""
        name = Path(target).stem
        return f"[{label}](/rules/{name}{anchor})" if name in GAMES else label

    return _LINK.sub(swap, text)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


_md = MarkdownIt("commonmark", {"html": False}).enable("table")


def rules_html(game_id: str) -> tuple[str, list[tuple[str, str]]]:
    """The rules page body as HTML (raw HTML in the source is escaped) and its sections (id, title)."""
    tokens: list[Token] = _md.parse(_relink(rules_markdown(game_id)))
    sections: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            title = tokens[i + 1].content
            slug = _slug(title)
            while slug in seen:
                slug += "-x"
            seen.add(slug)
            token.attrSet("id", slug)
            if token.tag == "h2":
                sections.append((slug, title))
        elif token.type == "table_open":
            token.attrSet("class", "rules-table")
    return _md.renderer.render(tokens, _md.options, {}), sections


COMMON_KEY: tuple[str, list[tuple[str, str]]] = (
    "On every board",
    [
        ("dashed vermilion outline", "a decision you can make now: click or tap it"),
        ("solid purple outline", "what a player's last decision changed on their board"),
        ("▶", "the player who decides now"),
        ("★", "the leader (live score) or the winner (score sheet)"),
    ],
)
"""The marks the table page adds to every game's board."""


def key_html(game_id: str) -> str:
    """The symbol key of a game as HTML: one table per group of symbols (the common marks last)."""
    out = []
    for group, entries in [*KEYS.get(game_id, []), COMMON_KEY]:
        rows = "".join(
            f'<tr><th scope="row"><code>{escape(s)}</code></th><td>{escape(m)}</td></tr>' for s, m in entries
        )
        out.append(f'<table class="key"><caption>{escape(group)}</caption><tbody>{rows}</tbody></table>')
    return "".join(out)


def how_to_html(game_id: str) -> str:
    """The "how to play" sentences of a game as a list (empty for a game without them)."""
    items = HOW_TO.get(game_id, [])
    return "<ol>" + "".join(f"<li>{escape(s)}</li>" for s in items) + "</ol>" if items else ""


def _unknown(game_id: str) -> HTMLResponse:
    known = ", ".join(game_ids())
    return HTMLResponse(pages.error(404, f"No rules for '{game_id}'. The games are: {known}."), status_code=404)


def _title(game_id: str) -> str:
    return farmtable.get_game(game_id).title


@router.get("/rules", response_class=HTMLResponse)
async def rules_index() -> HTMLResponse:
    """Every game's rules page and key."""
    items = "".join(
        f'<li><a href="/rules/{g}">{escape(_title(g))}</a> · <a href="/rules/{g}/key">symbol key</a></li>'
        for g in game_ids()
    )
    body = f'<h1>Rules</h1><ul class="rules-list">{items}</ul>'
    return HTMLResponse(pages.layout("Rules", body))


@router.get("/rules/{game_id}", response_class=HTMLResponse)
async def rules_page(game_id: str) -> HTMLResponse:
    """A game's rules, from the same source as ``docs/games/<game>.md``, with a contents list."""
    if game_id not in game_ids():
        return _unknown(game_id)
    html, sections = rules_html(game_id)
    toc = "".join(f'<li><a href="#{s}">{escape(t)}</a></li>' for s, t in sections)
    body = f"""<nav class="crumbs" aria-label="breadcrumb"><a href="/rules">Rules</a> › {escape(_title(game_id))}</nav>
<section class="panel how-to"><h2>How to play, in short</h2>{how_to_html(game_id)}
<p class="row"><a class="button" href="/rules/{game_id}/key">Symbol key</a>
<a class="button secondary" href="/new?game={game_id}">New table</a></p></section>
<nav class="panel toc" aria-label="contents"><h2>Contents</h2><ol>{toc}</ol></nav>
<article class="rules">{html}</article>"""
    return HTMLResponse(pages.layout(f"{_title(game_id)} rules", body))


@router.get("/rules/{game_id}/key", response_class=HTMLResponse)
async def key_page(game_id: str) -> HTMLResponse:
    """The key to every symbol and abbreviation on the game's board."""
    if game_id not in game_ids():
        return _unknown(game_id)
    body = f"""<nav class="crumbs" aria-label="breadcrumb"><a href="/rules">Rules</a> ›
<a href="/rules/{game_id}">{escape(_title(game_id))}</a> › Symbol key</nav>
<h1>{escape(_title(game_id))}: symbol key</h1>
<p class="lead">What every letter, number and abbreviation on the board means.</p>
<div class="keys">{key_html(game_id)}</div>"""
    return HTMLResponse(pages.layout(f"{_title(game_id)} symbol key", body))


@router.get("/tutorial", response_class=HTMLResponse)
async def tutorial_index() -> HTMLResponse:
    """The games with a tutorial."""
    items = "".join(
        f'<li><a href="/tutorial/{g}">{escape(_title(g))}</a></li>' for g in TUTORIALS if g in farmtable.list_games()
    )
    return HTMLResponse(pages.layout("Tutorials", f'<h1>Tutorials</h1><ul class="rules-list">{items}</ul>'))


@router.get("/tutorial/{game_id}", response_class=HTMLResponse)
async def tutorial_page(game_id: str) -> HTMLResponse:
    """Start a game's tutorial: a seeded table against an easy AI, with the coach on (``tutorial.js``)."""
    if game_id not in TUTORIALS or game_id not in farmtable.list_games():
        known = ", ".join(g for g in TUTORIALS if g in farmtable.list_games())
        return HTMLResponse(pages.error(404, f"No tutorial for '{game_id}'. Tutorials: {known}."), status_code=404)
    tutorial = TUTORIALS[game_id]
    steps = "".join(f"<li>{escape(step['title'])}</li>" for step in tutorial["steps"])
    body = f"""<h1>Learn {escape(_title(game_id))}</h1>
<p class="lead">{escape(tutorial["intro"])}</p>
<section class="panel"><h2>What you will learn</h2><ol>{steps}</ol>
<p class="error" id="tutorial-error" role="alert"></p>
<p class="row"><button id="start-tutorial" type="button">Start the tutorial</button>
<a class="button secondary" href="/rules/{game_id}">Read the rules instead</a></p></section>"""
    data = {"game": game_id, "seed": tutorial["seed"]}
    return HTMLResponse(pages.layout(f"Learn {_title(game_id)}", body, "tutorial.js", data))


def coach_data(game_id: str | None) -> dict[str, Any] | None:
    """The coach steps of a game's tutorial for the table page (None: the game has no tutorial)."""
    if game_id is None or game_id not in TUTORIALS:
        return None
    tutorial = TUTORIALS[game_id]
    return {"steps": tutorial["steps"], "end": tutorial["end"]}


def sync(docs: Path) -> list[str]:
    """Copy every ``docs/games/<game>.md`` to the package data; returns the games whose copy changed."""
    target = Path(__file__).parent / "static"
    changed = []
    for g in GAMES:
        text = (docs / f"{g}.md").read_text("utf-8")
        out = target / f"{RULES_PREFIX}{g}.md"
        if not out.exists() or out.read_text("utf-8") != text:
            out.write_text(text, "utf-8")
            changed.append(g)
    return changed


if __name__ == "__main__":  # pragma: no cover - a maintenance command
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path.cwd()
    print("refreshed:", ", ".join(sync(root / "docs" / "games")) or "nothing (all in sync)")


_CITATION = re.compile(r"\s*\((?:[A-Z]{1,4}(?:'s)?(?: reading)?)(?:, [A-Z]{1,4})*\)")


def plain_variant(text: str) -> str:
    """A variant's description without the initials of whoever proposed a reading ("(DB's reading)",
    "(RH)" become "(one reading of the rules)"): people choosing variants do not know those initials;
    the rules page names its sources."""
    return _CITATION.sub(" (one reading of the rules)", text)
