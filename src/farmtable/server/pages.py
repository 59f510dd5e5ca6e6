"""The HTML pages: a shared layout and one small function per page (no template engine needed).

Pages carry no game state: the table, replay and scoring pages fetch it with JavaScript
from the JSON API and the WebSocket, which send each seat only what it may see. Every
text that comes from data is escaped.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

import farmtable
from farmtable import __version__


def _json_attr(data: Any) -> str:
    return escape(json.dumps(data), quote=True)


def layout(title: str, body: str, script: str | list[str] | None = None, data: Any = None) -> str:
    """A complete page: header with navigation, ``body``, and optional page scripts."""
    data_attr = f' data-page="{_json_attr(data)}"' if data is not None else ""
    extra = [script] if isinstance(script, str) else list(script or [])
    scripts = ["common.js", *extra] if extra else []
    script_tag = "".join(f'<script src="/static/{name}?v={__version__}" defer></script>' for name in scripts)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)} · farmtable</title>
<link rel="stylesheet" href="/static/style.css?v={__version__}">
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
{script_tag}
</head>
<body{data_attr}>
<header class="top"><a class="brand" href="/">farmtable</a>
<nav><a href="/new">New table</a><a href="/join">Join</a><a href="/rules">Rules</a>
<a href="/score">Score a game</a></nav></header>
<main>
{body}
</main>
<footer>farmtable {escape(__version__)} · five small farm games</footer>
</body>
</html>
"""


def home(games: list[dict[str, Any]]) -> str:
    """The home page: each game with its summary, a new-table button and its scoring helper."""
    cards = []
    for g in games:
        players = (
            f"{g['min_players']}" if g["min_players"] == g["max_players"] else f"{g['min_players']}–{g['max_players']}"
        )
        solo = " · solo" if g["min_players"] == 1 else ""
        helper = (
            f'<a class="button secondary" href="/score#{escape(g["id"])}">Score a physical game</a>'
            if g["scoring_helper"]
            else ""
        )
        cards.append(
            f"""<article class="card" data-game="{escape(g["id"])}">
<h2>{escape(g["title"])}</h2>
<p class="meta">{players} players{solo}</p>
<p>{escape(g["summary"] or "")}</p>
<p class="actions"><a class="button" href="/new?game={escape(g["id"])}">New table</a>
<a class="button secondary" href="/rules/{escape(g["id"])}">Rules</a> {helper}</p>
</article>"""
        )
    if not cards:
        cards.append('<p class="empty">No games are installed yet.</p>')
    body = f"""{HOME_ART}<h1>Play a farm game</h1>
<p class="lead">Pick a game, choose who sits at the table — you, friends with a link, or the computer — and play.
New to a game? Read its <a href="/rules">rules</a> or play a <a href="/tutorial">tutorial</a>.</p>
<section id="your-tables" class="panel" hidden><h2>Your tables</h2>
<p class="meta">Tables this browser opened or joined (kept only in this browser).</p>
<ul id="your-tables-list" class="your-tables"></ul></section>
{JOIN_FORM}
<section class="cards">{"".join(cards)}</section>"""
    return layout("Games", body, ["home.js", "join.js"])


JOIN_FORM = """<form id="join-form" class="panel join-form" action="/join" method="get">
<label for="join-code">Join a friend's table with a code</label>
<p class="row"><input id="join-code" name="code" maxlength="12" autocomplete="off" autocapitalize="characters"
spellcheck="false" placeholder="e.g. K7P-3QX" aria-describedby="join-hint">
<button type="submit" id="join-go">Join</button></p>
<p id="join-hint" class="meta">The table's creator sees the code beside your invitation link.</p>
<p class="error" id="join-error" role="alert"></p></form>"""


def join() -> str:
    """The join page: type the short code of an invitation, land at your seat (``join.js``)."""
    body = f"""<h1>Join a table</h1>{JOIN_FORM}"""
    return layout("Join a table", body, "join.js")


HOME_ART = """<svg class="home-art" viewBox="0 0 640 150" role="img" aria-labelledby="home-art-title">
<title id="home-art-title">A little farm: fields, a barn, a windmill, a cow and a sheep under the sun</title>
<rect width="640" height="150" fill="#cfe8f5"/>
<circle cx="560" cy="38" r="22" fill="#E69F00"/>
<path d="M0 110 Q120 78 250 104 T520 96 T640 100 V150 H0Z" fill="#8cc084"/>
<path d="M0 124 Q160 104 330 122 T640 118 V150 H0Z" fill="#5f9e57"/>
<g stroke="#d8b85a" stroke-width="3">
<path d="M20 140 L60 118"/><path d="M40 146 L86 120"/><path d="M64 150 L110 124"/><path d="M92 150 L132 128"/></g>
<g transform="translate(300 62)"><rect x="0" y="26" width="74" height="48" fill="#D55E00"/>
<path d="M-6 28 L37 0 L80 28Z" fill="#9b3d12"/><rect x="26" y="46" width="22" height="28" fill="#fff3d6"/>
<path d="M26 46 L48 74 M48 46 L26 74" stroke="#9b3d12" stroke-width="3"/></g>
<g transform="translate(440 50)"><path d="M8 60 L14 10 L26 10 L32 60Z" fill="#f1ead8" stroke="#8a7f65"/>
<g transform="translate(20 14)" stroke="#555" stroke-width="5" stroke-linecap="round">
<path d="M0 0 L0 -26"/><path d="M0 0 L26 0"/><path d="M0 0 L0 26"/><path d="M0 0 L-26 0"/></g></g>
<g transform="translate(170 104)"><ellipse cx="20" cy="10" rx="22" ry="12" fill="#fff" stroke="#333" stroke-width="2"/>
<circle cx="10" cy="6" r="4" fill="#333"/><circle cx="28" cy="12" r="5" fill="#333"/>
<ellipse cx="44" cy="6" rx="8" ry="6" fill="#f2c9c9" stroke="#333" stroke-width="2"/>
<path d="M6 20 V30 M34 20 V30" stroke="#333" stroke-width="3"/></g>
<g transform="translate(240 116)"><circle cx="10" cy="6" r="9" fill="#f4f1e8"/>
<circle cx="20" cy="4" r="9" fill="#f4f1e8"/>
<circle cx="28" cy="8" r="8" fill="#f4f1e8"/><circle cx="34" cy="2" r="5" fill="#333"/>
<path d="M12 14 V22 M26 14 V22" stroke="#333" stroke-width="3"/></g>
</svg>"""
"""The home page's picture (drawn here: no image files, no licences to track)."""


def new_table(games: list[dict[str, Any]], levels: list[dict[str, str]]) -> str:
    """The new-table form (filled in by ``new.js`` from the game list)."""
    body = """<h1>New table</h1>
<form id="new-table" class="panel">
<label>Your name <input id="your-name" name="name" maxlength="24" autocomplete="nickname"
placeholder="shown to the other players"></label>
<label>Game <select id="game" name="game"></select></label>
<p id="game-summary" class="meta"></p>
<label>Players <select id="players" name="players"></select></label>
<fieldset id="variants"><legend>Variants</legend></fieldset>
<fieldset id="seats"><legend>Seats</legend></fieldset>
<p class="error" id="form-error" role="alert"></p>
<button type="submit" id="create">Open the table</button>
</form>
<section id="invites" class="panel" hidden>
<h2>Invite your friends</h2>
<p>Send each friend their own link: it carries the secret token of their seat.</p>
<ul id="invite-links"></ul>
<p><a class="button" id="go-table" href="#">Go to the table</a></p>
</section>"""
    return layout("New table", body, "new.js", {"games": games, "levels": levels})


def game_id_of(title: str) -> str | None:
    """The id of the installed game with this title (None if there is none)."""
    for gid in farmtable.list_games():
        if farmtable.get_game(gid).title == title:
            return gid
    return None


def _how_to_dialog(game_id: str, title: str) -> str:
    """The "how to play" card of a table page: open on a first visit, dismissed for good (``table.js``)."""
    from farmtable.server import guide  # guide imports this module: import it when a page is drawn

    how = guide.how_to_html(game_id)
    if not how:
        return ""
    return f"""<div id="how-to" class="overlay" hidden><section class="dialog" role="dialog" aria-modal="true"
aria-labelledby="how-to-title"><h2 id="how-to-title">How to play {escape(title)}</h2>{how}
<p>Click a highlighted part of the board (or a move in the list) to decide. The symbol key explains
every letter on the board.</p>
<p class="row"><button id="how-to-close" type="button">Got it, let's play</button>
<a class="button secondary" href="/rules/{escape(game_id)}" target="_blank" rel="noopener">Full rules</a>
<a class="button secondary" href="/rules/{escape(game_id)}/key" target="_blank" rel="noopener">Symbol key</a></p>
</section></div>"""


def table(table_id: str, title: str) -> str:
    """The table page: board, legal moves, whose turn, log, score sheet, undo and rematch (``table.js``)."""
    game_id = game_id_of(title)
    help_links = (
        f"""<p class="row help-links"><a id="rules-link" class="button secondary" href="/rules/{escape(game_id)}"
target="_blank" rel="noopener">Rules</a><a id="key-link" class="button secondary" href="/rules/{escape(game_id)}/key"
target="_blank" rel="noopener">Symbol key</a>
<button id="how-to-open" class="secondary" type="button">How to play</button>
<button id="sound-toggle" class="secondary" type="button" aria-pressed="false"
title="a short sound when it becomes your turn">Sound: off</button>
<button id="notify-toggle" class="secondary" type="button" aria-pressed="false" hidden
title="a browser notification when it becomes your turn and this tab is hidden">Notify me: off</button></p>"""
        if game_id
        else ""
    )
    body = f"""<div class="table-head"><h1>{escape(title)}</h1>
<p id="status" class="status" role="status" aria-live="polite">Connecting…</p></div>
{help_links}
<p id="notice" class="notice" role="alert" hidden></p>
<p id="seeded" class="notice" hidden></p>
<form id="name-box" class="panel name-box" hidden><label for="name-input">Your name at this table</label>
<p class="row"><input id="name-input" maxlength="24" autocomplete="nickname" placeholder="e.g. Sam">
<button type="submit">Save name</button><button id="name-skip" class="secondary" type="button">Skip</button></p>
<p class="error" id="name-error" role="alert"></p></form>
<p class="skip-moves"><a class="button secondary" href="#moves-panel">Jump to your moves</a></p>
<section id="coach" class="panel coach" aria-live="polite" hidden></section>
<section id="scores" class="scores" aria-label="score now" hidden></section>
<div class="table-grid">
<section class="board-wrap"><section id="builder" class="panel builder" aria-live="polite" hidden></section>
<div id="board" class="board" aria-label="board"></div></section>
<aside class="side">
<section class="panel" id="moves-panel" tabindex="-1"><h2>Your moves</h2>
<p id="moves-hint" class="meta"></p>
<input id="move-filter" type="search" placeholder="Filter moves…" aria-label="Filter moves" hidden>
<ul id="moves" class="moves"></ul>
<p class="error" id="move-error" role="alert"></p>
<p class="row"><button id="undo" class="secondary" type="button" disabled>Undo</button>
<button id="rematch" type="button" hidden>Rematch</button>
<a id="to-rematch" class="button" hidden href="#">Go to the rematch</a>
<a id="to-replay" class="button secondary" hidden href="/replay/{escape(table_id)}">Replay</a></p>
<p id="undo-why" class="meta" hidden></p>
</section>
<section class="panel" id="score-panel" hidden><h2>Score sheet</h2><div id="score"></div></section>
<section class="panel"><h2>Seats</h2><ul id="seats" class="seats"></ul>
<div id="invites" hidden><h3>Invite links</h3><ul id="invite-links"></ul></div></section>
<section class="panel"><h2>Game log</h2><ol id="log" class="log" tabindex="0" aria-label="game log"></ol></section>
</aside>
</div>
{_how_to_dialog(game_id, title) if game_id else ""}"""
    from farmtable.server import guide

    return layout(title, body, "table.js", {"table": table_id, "game": game_id, "coach": guide.coach_data(game_id)})


def replay(table_id: str, title: str) -> str:
    """The replay page: step forward and back through a finished game (``replay.js``)."""
    body = f"""<div class="table-head"><h1>Replay: {escape(title)}</h1>
<p id="step-text" class="status" role="status" aria-live="polite">Loading…</p></div>
<p class="row replay-controls">
<button id="first" type="button" class="secondary">First</button>
<button id="prev" type="button">Back</button>
<span id="counter" class="meta"></span>
<button id="next" type="button">Forward</button>
<button id="last" type="button" class="secondary">Last</button></p>
<p class="error" id="replay-error" role="alert"></p>
<div class="table-grid"><section class="board-wrap"><div id="board" class="board"></div></section>
<aside class="side"><section class="panel"><h2>Score sheet</h2><div id="score"></div></section>
<section class="panel"><a class="button secondary" href="/t/{escape(table_id)}">Back to the table</a></section>
</aside></div>"""
    return layout("Replay", body, "replay.js", {"table": table_id})


def score(games: list[dict[str, Any]]) -> str:
    """The scoring helper: type an end position of a physical game, get its score sheet (``score.js``)."""
    if not games:
        body = "<h1>Score a game</h1><p class='empty'>No game has a scoring helper yet.</p>"
        return layout("Score a game", body)
    body = """<h1>Score a physical game</h1>
<form id="score-form" class="panel">
<label>Game <select id="game"></select></label>
<details id="format-box" open><summary>How to type the position</summary><pre id="format"></pre></details>
<label for="text">End position</label>
<textarea id="text" rows="12" spellcheck="false"></textarea>
<p class="error" id="score-error" role="alert"></p>
<button type="submit">Score it</button>
</form>
<section class="panel" id="score-panel" hidden><h2>Score sheet</h2><div id="score"></div></section>"""
    return layout("Score a game", body, "score.js", {"games": games})


def error(status: int, message: str) -> str:
    """A page for a refused page request (an unknown table)."""
    body = f'<h1>Sorry</h1><p class="error">{escape(message)}</p><p><a class="button" href="/">Home</a></p>'
    return layout(f"Error {status}", body)
