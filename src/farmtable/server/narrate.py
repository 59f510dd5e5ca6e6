"""What the table page says beside the board: the log's words and the extras of an update
(live score, …). The hub calls these; they read only what the seat may see.

The live score of every game is computed from the seat's view (what that seat may see), never
from hidden parts of the state; the property test ``tests/server/test_indistinguishable.py``
builds the whole update, extras included, for two states that differ only in what the seat has
not seen, and requires them to be identical.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

from farmtable.core import Game, State

# --- the log in words ----------------------------------------------------------------------------

_SQUARE = r"([A-D][1-4])"
_Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


def _rule(pattern: str, words: Callable[[re.Match[str]], str]) -> _Rule:
    return re.compile(pattern + r"$", re.IGNORECASE), words


_FACE = {"red": "red", "blue": "blue"}

RULES: list[_Rule] = [
    # Tiny Towns
    _rule(r"place (\w+) " + _SQUARE, lambda m: f"placed {m[1]} on {m[2]}"),
    _rule(
        r"build (.+?) ((?:[A-D][1-4] ?)+) at " + _SQUARE, lambda m: f"built a {m[1]} on {m[3]} (from {m[2].strip()})"
    ),
    _rule(r"name (\w+)", lambda m: f"named {m[1]} as the resource"),
    _rule(r"keep (.+)", lambda m: f"kept the monument {m[1]}"),
    _rule(
        r"store (\w+) " + _SQUARE + r" take (\w+) " + _SQUARE,
        lambda m: f"stored {m[1]} on {m[2]}, took {m[3]} to {m[4]}",
    ),
    _rule(r"store (\w+) " + _SQUARE, lambda m: f"stored {m[1]} on the Warehouse at {m[2]}"),
    _rule(r"cavern (\w+)", lambda m: f"put {m[1]} in the Cavern"),
    _rule(r"add (.+) " + _SQUARE, lambda m: f"added a {m[1]} on {m[2]}"),
    _rule(r"swap " + _SQUARE + r" (.+)", lambda m: f"swapped {m[1]} for a {m[2]}"),
    _rule(r"choose (.+)", lambda m: f"chose {m[1]}"),
    _rule(r"done", lambda m: "finished for now"),
    # Farmini
    _rule(
        r"place (\w+) at (-?\d+),(-?\d+)(?: rot (\d+))?",
        lambda m: f"laid card {m[1]} at {m[2]},{m[3]}" + (f" turned {m[4]}°" if m[4] and m[4] != "0" else ""),
    ),
    _rule(r"animal (\w+) at (-?\d+),(-?\d+)/(\w+)", lambda m: f"put a {m[1]} at {m[2]},{m[3]} ({m[4]})"),
    _rule(r"discard (\d)", lambda m: f"discarded face-up card {m[1]}"),
    _rule(r"take (\d)", lambda m: f"took {m[1]}"),
    # Farmerama
    _rule(r"card ([\w-]+)", lambda m: f"chose the {m[1]} card"),
    _rule(r"gain (\w+)", lambda m: f"gained {m[1]}"),
    _rule(r"start ([\w-]+)", lambda m: f"started {m[1]}"),
    _rule(r"sow (\w+) (A\d)", lambda m: f"sowed {m[1]} in {m[2]}"),
    _rule(r"harvest (\w+) (A\d)", lambda m: f"harvested {m[1]} from {m[2]}"),
    _rule(r"water", lambda m: "watered"),
    _rule(r"feed (\w+)", lambda m: f"fed a {m[1]}"),
    _rule(r"turn-wheel", lambda m: "turned the player wheel"),
    _rule(r"pay-water", lambda m: "paid a water"),
    _rule(r"token (\w+)", lambda m: f"took a {m[1]} token"),
    _rule(r"redraw", lambda m: "redrew"),
    # Farmers Finances
    _rule(r"buy (\w+)", lambda m: f"bought {'an' if m[1][:1].lower() in 'aeiou' else 'a'} {m[1]} card"),
    _rule(r"sell (\w+) (\d+)", lambda m: f"sold {m[2]} {m[1]} card" + ("s" if m[2] != "1" else "")),
    _rule(r"bake (\d+)", lambda m: f"baked {m[1]} wheat into bread"),
    _rule(r"move (\d+)", lambda m: f"moved the market die to row {m[1]}"),
    _rule(r"reroll", lambda m: "rerolled the market die"),
    _rule(r"pick (\d+)", lambda m: f"picked market row {m[1]}"),
    # Tiny Farms
    _rule(r"milk ([+-]1)", lambda m: f"spent a milk ({m[1]} to a die)"),
    _rule(r"die (\d) (red|blue)", lambda m: f"used the {m[1]} for the {_FACE[m[2].lower()]} farmer"),
    _rule(r"put (\w+) ([RB])-" + _SQUARE, lambda m: f"put a {m[1]} on {m[2]}-{m[3]}"),
    _rule(r"plant ([RB]-[A-D][1-4])", lambda m: f"planted a crop on {m[1]}"),
    _rule(r"cross ([RB]-[A-D][1-4])", lambda m: f"crossed out {m[1]}"),
    _rule(r"pass", lambda m: "passed"),
]
"""Notation → words, tried in order (the verbs of the five games; an unknown move keeps its notation)."""


@functools.lru_cache(maxsize=16_384)
def words(notation: str) -> str:
    """A decision in words ("placed wood on B3"); its notation if it has no words yet.

    Remembered (a pure function of the notation): every update carries the last lines of the log,
    so the same notations are put into words again and again."""
    text = " ".join(notation.split())
    for pattern, say in RULES:
        match = pattern.match(text)
        if match:
            return say(match)
    return text


@functools.lru_cache(maxsize=16_384)
def log_text(kind: str, player: int, notation: str, hidden: bool) -> str:
    """One log line as a seat may read it; ``hidden`` when the notation is still secret to that seat
    (remembered, like :func:`words`)."""
    if kind == "undo":
        return f"Player {player} took back a decision" + ("" if hidden else f" ({words(notation)})")
    if hidden:
        return f"Player {player} chose (secret)"
    said = words(notation)
    return f"Player {player}: {said}" if said == " ".join(notation.split()) else f"Player {player} {said}"


# --- automatic events: what changed between two public views -----------------------------------


def _new_entries(before: list[Any], after: list[Any]) -> list[Any]:
    """The entries of ``after`` that ``before`` did not end with (a list the game appends to, and may
    clear at a turn's start): the longest end of ``before`` that begins ``after`` is old news."""
    if after == before:
        return []
    for k in range(min(len(before), len(after)), 0, -1):
        if before[-k:] == after[:k]:
            return after[k:]
    return list(after)


def _sentence(text: str) -> str:
    text = re.sub(r"\bplayer (\d+)", r"Player \1", text.strip())
    return text[:1].upper() + text[1:] if text else text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _ff_events(before: dict[str, Any], after: dict[str, Any], player: int | None, notation: str) -> list[str]:
    out: list[str] = []
    verb = notation.split(" ")[0] if notation else ""
    farms_b, farms_a = before.get("farms") or [], after.get("farms") or []
    money_b, money_a = before.get("money") or [], after.get("money") or []
    sold_all = [
        q
        for q, (fb, fa) in enumerate(zip(farms_b, farms_a, strict=False))
        if (any(fb.get(k, 0) for k in fb) or (q == player and verb == "buy"))
        and not any(fa.get(k, 0) for k in fa)
        and not (q == player and verb == "sell")
    ]
    if sold_all:
        out.append("The market is empty: everyone sells all their cards at the current prices")
        for q in sold_all:
            fb = dict(farms_b[q])
            if q == player and verb == "buy" and " " in notation:  # the card just bought was sold too
                sort = notation.split(" ")[1]
                fb[sort] = fb.get(sort, 0) + 1
            cards = ", ".join(f"{n} {k}" for k, n in fb.items() if n)
            gain = (money_a[q] - money_b[q]) if q < len(money_a) and q < len(money_b) else 0
            out.append(f"Player {q} sold {cards} for {gain} coins")
    roll_b, roll_a = before.get("last_roll"), after.get("last_roll")
    rolled = roll_a != roll_b or (verb == "reroll" and roll_a is not None)
    if rolled and roll_a:
        if after.get("row") != before.get("row"):
            out.append(f"The market die rolled {roll_a}: the market moves to row {after.get('row')}")
        elif after.get("phase") == "pick" or roll_a == 6:
            out.append(f"The market die rolled {roll_a}: the player picks the new row")
        else:
            out.append(f"The market die rolled {roll_a}: the market stays on row {after.get('row')}")
    elif after.get("row") != before.get("row") and verb not in ("move", "pick"):
        out.append(f"The market moves to row {after.get('row')}")
    if after.get("end_triggered") and not before.get("end_triggered"):
        out.append(f"A player reached {after.get('goal', 70)} coins: the game ends after this round")
    return out


def _farmerama_events(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out: list[str] = []
    choices_b, choices_a = before.get("card_choices") or [], after.get("card_choices") or []
    if choices_a != choices_b and choices_a and all(" chose " in str(c) for c in choices_a):
        said = "; ".join(re.sub(r"^P(\d+) ", r"Player \1 ", str(c)) for c in choices_a)
        out.append(f"The action cards are revealed: {said}")
    if after.get("round") != before.get("round") and after.get("round") is not None:
        out.append(f"Round {int(after['round'])} begins")  # Farmerama counts rounds from 1
    wheel_b = (before.get("action_wheel") or {}).get("section")
    wheel_a = (after.get("action_wheel") or {}).get("section")
    if wheel_a != wheel_b and wheel_a is not None:
        out.append("The action wheel turns")
    return out


def events(
    game_id: str, before: dict[str, Any], after: dict[str, Any], player: int | None = None, notation: str = ""
) -> list[str]:
    """What happened by itself between two *public* views (spectator's: ``state.view(None)``) around
    one decision of ``player`` (``notation``): rolls, wheel turns, wolves, an empty market's sale, the
    reveal of simultaneous choices. The decision itself is the log line before these; secrets never
    appear, since public views hold none."""
    out: list[str] = []
    ended = (after.get("over") or after.get("phase") == "over") and not (
        before.get("over") or before.get("phase") == "over"
    )
    if isinstance(after.get("events"), list):  # Tiny Farms and Farmini say what happened themselves
        fresh = _new_entries(list(before.get("events") or []), list(after["events"]))
        out += [_sentence(str(e)) for e in fresh if not re.search(r"scatters 0 ", str(e))]
    if game_id == "farmers-finances":
        out += _ff_events(before, after, player, notation)
    elif game_id == "farmerama" and not ended:  # the last round's end turns no wheel any more
        out += _farmerama_events(before, after)
    elif game_id == "tiny-towns" and not ended:
        if after.get("named") and after.get("named") != before.get("named") and not notation.startswith("name"):
            out.append(f"The resource this turn is {after['named']}")
        if after.get("round") != before.get("round") and after.get("round") is not None:
            out.append(f"Round {int(after['round']) + 1} begins")
    if ended:
        out.append("The game is over")
    return out


# --- the live score -----------------------------------------------------------------------------


def _farmerama(view: dict[str, Any], seats: int) -> tuple[list[int], str] | None:
    from farmtable.games.farmerama.svg import _stars_now

    boards = view.get("boards")
    if not isinstance(boards, list) or not boards:
        return None
    by_seat = {int(b.get("seat", i)): _stars_now(b)[0] for i, b in enumerate(boards)}
    return [by_seat.get(p, 0) for p in range(seats)], "stars"


def _farmers_finances(view: dict[str, Any], seats: int) -> tuple[list[int], str] | None:
    money = view.get("money")
    if not isinstance(money, list):
        return None
    return [int(m) for m in money][:seats], "coins"


def _farmini(view: dict[str, Any], seats: int) -> tuple[list[int], str] | None:
    scores = view.get("scores")
    if not isinstance(scores, list):
        return None
    return [int(s) for s in scores][:seats], "points"


def _tiny_towns(view: dict[str, Any], seats: int) -> tuple[list[int], str] | None:
    towns = view.get("towns")
    if not isinstance(towns, list) or not towns:
        return None
    done_rounds = [t["completed_round"] for t in towns if t.get("complete")]
    facts = []
    for t in towns:
        mine = t["completed_round"] if t.get("complete") else view.get("round", 0)
        facts.append(
            (
                tuple(t["grid"]),
                t.get("monument_built"),
                sum(len(v) for v in t.get("warehouses", {}).values()),
                int(t.get("shrine_vp", 0)),
                1 + sum(1 for r in done_rounds if r < mine),
                int(t.get("master_builder_turns", 0)),
            )
        )
    try:
        totals = _town_totals(tuple(facts), tuple(view.get("buildings", {})), frozenset(view.get("variants", [])))
    except TypeError:  # something unhashable in a view shaped otherwise: score it without remembering
        totals = _town_totals.__wrapped__(
            tuple(facts), tuple(view.get("buildings", {})), frozenset(view.get("variants", []))
        )
    return list(totals)[:seats], "points"


@functools.lru_cache(maxsize=1024)
def _town_totals(
    facts: tuple[tuple[tuple[str, ...], str | None, int, int, int, int], ...],
    buildings: tuple[str, ...],
    variants: frozenset[str],
) -> tuple[int, ...]:
    """The Tiny Towns totals of these towns (remembered: each seat's update and the spectators' read
    the same public towns, so one version is scored once, not once per seat)."""
    from farmtable.games.tiny_towns.scoring import TownFacts, score_towns

    towns = [
        TownFacts(grid=list(g), monument=m, warehouse_cubes=c, shrine_vp=v, starloom_place=p, mb_turns=t)
        for g, m, c, v, p, t in facts
    ]
    return tuple(score_towns(towns, list(buildings), variants).totals)


def _tiny_farms(totals: Sequence[int], seats: int) -> tuple[list[int], str] | None:
    # Tiny Farms hides nothing (its determinize redraws only the future dice), so the score as it
    # stands is the rules' own mid-game result.
    return list(totals)[:seats], "points"


def live_score(
    game: Game[Any], state: State[Any], view: dict[str, Any], memo: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """Each player's score as it stands, from what the seat may see: ``{"totals", "unit", "note"}``.

    ``memo``: a dict kept for one position (one version of a table) and passed for every seat's update;
    what does not depend on the seat is worked out once into it (Tiny Farms scores the state itself,
    the same for every seat: one ``state.result()`` per position instead of one per update)."""
    farms_totals: Sequence[int] = ()
    if game.id == "tiny-farms":
        if memo is None:
            farms_totals = state.result().totals
        else:
            if "tiny-farms totals" not in memo:
                memo["tiny-farms totals"] = tuple(state.result().totals)
            farms_totals = memo["tiny-farms totals"]
    players = len(farms_totals) if game.id == "tiny-farms" else int(view.get("players", 0) or 0)
    if not players:
        boards = view.get("boards") or view.get("towns") or view.get("farms") or []
        players = len(boards)
    found: tuple[list[int], str] | None
    if game.id == "farmerama":
        found = _farmerama(view, players)
    elif game.id == "farmers-finances":
        found = _farmers_finances(view, players)
    elif game.id == "farmini":
        found = _farmini(view, players)
    elif game.id == "tiny-towns":
        found = _tiny_towns(view, players)
    elif game.id == "tiny-farms":
        found = _tiny_farms(farms_totals, players)
    else:
        found = None
    if found is None:
        return None
    totals, unit = found
    notes = {
        "farmerama": "stars if the game ended now",
        "farmers-finances": "money (70 coins ends the game)",
        "farmini": "points as the farms stand",
        "tiny-towns": "points as the towns stand (a secret monument counts once built)",
        "tiny-farms": "points as the farms stand",
    }
    return {"totals": totals, "unit": unit, "note": notes.get(game.id, "")}


def table_extras(
    game: Game[Any], state: State[Any], view: dict[str, Any], seat: int | None, memo: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Extra data for the table page beside the board picture, from ``seat``'s view (None: spectator);
    ``memo`` as in :func:`live_score` (one dict per position, shared by its seats)."""
    extras: dict[str, Any] = {}
    try:
        score = live_score(game, state, view, memo)
    except (KeyError, TypeError, ValueError):  # a view shaped otherwise: no live score rather than no table
        score = None
    if score is not None:
        extras["score"] = score
    return extras
