"""A readable score sheet for any game's ``Result``: one column per player, headed by the names.

One piece for every place that shows a score sheet (``farmtable score``, the terminal game, the
web's scoring helper and end-of-game sheet)::

    sheet = score_sheet(result)             # names from the result (typed in the helper) or given
    sheet.to_dict()                         # JSON for the web
    sheet_text(sheet)                       # plain text for the terminal
    sheet_html(sheet)                       # an HTML <table> plus notes, everything escaped

The sheet never shows raw data: score lines get their words (``feed_tiles`` -> "Feed tiles",
or the game's own label from ``details["labels"]``), per-player facts the game adds become rows
of a "details" block, simple facts become sentences, and structured values that are not meant for
people (nested lists, ``None`` for "no monument") are left out or said in words. A game says what
a tie-break or a solo outcome means with ``details["notes"]`` (sentences) and can add a column
for a solo opponent with ``details["opponent_sheet"] = {"name", "lines", "total"}``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from farmtable.core.result import Result

NAME_KEYS = ("names", "players")
"""``details`` keys that may carry the players' names (the scoring helpers put them there)."""
SKIPPED_DETAILS = frozenset(
    {
        "names",
        "players",
        "notes",
        "labels",
        "opponent_sheet",
        "over",
        "note",
        "variants",
    }
)
"""``details`` keys the sheet does not print as such (used above, or internal)."""
ORDINALS = ("1st", "2nd", "3rd")


@dataclass(frozen=True)
class SheetLine:
    """One row of the sheet: its words and one cell per column (``""`` where it does not apply)."""

    label: str
    cells: list[str]
    section: str = "score"
    """``"score"`` for the lines that make the total, ``"details"`` for facts beside it."""


@dataclass(frozen=True)
class ScoreSheet:
    """A score sheet ready to show: columns headed by names, lines in words, the standing, notes."""

    title: str
    columns: list[str]
    lines: list[SheetLine]
    totals: list[str]
    standing: str
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (what the web renders)."""
        return {
            "title": self.title,
            "columns": list(self.columns),
            "lines": [{"label": ln.label, "cells": list(ln.cells), "section": ln.section} for ln in self.lines],
            "totals": list(self.totals),
            "standing": self.standing,
            "notes": list(self.notes),
        }


def words(key: str) -> str:
    """A score-line or detail key in words: ``riding_lessons`` -> "Riding lessons"."""
    text = key.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def player_names(result: Result, names: Sequence[str] | None = None) -> list[str]:
    """The column names: ``names`` if given, else the names in the result, else "Player 1".."Player n"."""
    count = len(result.totals)
    if names is not None and len(names) == count and all(isinstance(n, str) and n for n in names):
        return list(names)
    for key in NAME_KEYS:
        found = result.details.get(key)
        if isinstance(found, list) and len(found) == count and all(isinstance(n, str) and n for n in found):
            return list(found)
    return [f"Player {p + 1}" for p in range(count)]


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _detail_rows(result: Result, count: int) -> list[SheetLine]:
    """Per-player facts (a list with one plain value per player, not all empty) as detail rows."""
    rows = []
    labels = result.details.get("labels", {})
    for key, value in result.details.items():
        if key in SKIPPED_DETAILS or not isinstance(value, list) or len(value) != count or count < 1:
            continue
        if not all(_plain(v) for v in value) or all(v is None for v in value):
            continue
        label = labels.get(key, words(key)) if isinstance(labels, dict) else words(key)
        rows.append(SheetLine(label, [_cell(v) for v in value], "details"))
    return rows


def _detail_notes(result: Result, count: int) -> list[str]:
    """Plain single facts and lists of words as sentences (``Solo goal: 150``)."""
    notes = []
    for key, value in result.details.items():
        if key in SKIPPED_DETAILS:
            continue
        if _plain(value) and value is not None:
            notes.append(f"{words(key)}: {_cell(value)}")
        elif (
            isinstance(value, list)
            and value
            and all(isinstance(v, str) for v in value)
            and (len(value) != count or count == 1)
        ):
            notes.append(f"{words(key)}: {', '.join(value)}")
    return notes


def standing(result: Result, names: Sequence[str]) -> str:
    """The ranking in words: "Winner: Anna. Ranking: 1st Anna 40, 2nd Ben 38" (shared places said so)."""
    if not result.ranking:
        return ""
    if len(names) == 1:
        return f"{names[0]}: {result.totals[0]}"
    winners = result.ranking[0]
    head = ("Shared win: " if len(winners) > 1 else "Winner: ") + " and ".join(names[p] for p in winners)
    parts = []
    place = 0
    for group in result.ranking:
        label = ORDINALS[place] if place < len(ORDINALS) else f"{place + 1}th"
        who = " and ".join(names[p] for p in group)
        shared = " (shared)" if len(group) > 1 else ""
        parts.append(f"{label} {who} {result.totals[group[0]]}{shared}")
        place += len(group)
    return f"{head}. Ranking: {', '.join(parts)}"


def score_sheet(
    result: Result, names: Sequence[str] | None = None, title: str = "Score sheet", final: bool = True
) -> ScoreSheet:
    """Turn a ``Result`` into a readable sheet (``final=False``: the score as it stands, no standing)."""
    columns = player_names(result, names)
    count = len(columns)
    labels = result.details.get("labels", {})
    opponent = result.details.get("opponent_sheet")
    has_opponent = isinstance(opponent, dict) and isinstance(opponent.get("lines"), dict)
    keys: list[str] = []
    for sheet in result.breakdown:
        keys += [k for k in sheet if k not in keys]
    if has_opponent:
        assert isinstance(opponent, dict)
        keys += [k for k in opponent["lines"] if k not in keys]
    lines = []
    for key in keys:
        cells = [_cell(sheet[key]) if key in sheet else "" for sheet in result.breakdown]
        if has_opponent:
            assert isinstance(opponent, dict)
            cells.append(_cell(opponent["lines"][key]) if key in opponent["lines"] else "")
        label = labels.get(key, words(key)) if isinstance(labels, dict) else words(key)
        lines.append(SheetLine(label, cells))
    totals = [str(t) for t in result.totals]
    if has_opponent:
        assert isinstance(opponent, dict)
        columns = [*columns, str(opponent.get("name", "Opponent"))]
        totals.append(_cell(opponent.get("total")))
    for row in _detail_rows(result, count):
        lines.append(SheetLine(row.label, row.cells + ([""] if has_opponent else []), row.section))
    notes = [str(n) for n in result.details.get("notes", []) if isinstance(n, str)]
    if not notes:
        notes = _detail_notes(result, count)
    return ScoreSheet(
        title=title if final else "Score as it stands",
        columns=columns,
        lines=lines,
        totals=totals,
        standing=standing(result, columns[:count]) if final else "",
        notes=notes,
    )


def sheet_text(sheet: ScoreSheet) -> str:
    """The sheet as plain monospaced text: a table, then the standing and the notes."""
    header = ["", *sheet.columns]
    rows = [[ln.label, *ln.cells] for ln in sheet.lines if ln.section == "score"]
    rows.append(["Total", *sheet.totals])
    details = [[ln.label, *ln.cells] for ln in sheet.lines if ln.section == "details"]
    widths = [max(len(r[i]) for r in [header, *rows, *details]) for i in range(len(header))]

    def fmt(row: list[str]) -> str:
        return "  ".join([row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))])

    rule = "-" * len(fmt(header))
    out = [sheet.title, fmt(header), rule, *(fmt(r) for r in rows[:-1]), rule, fmt(rows[-1])]
    if details:
        out += ["", *(fmt(r) for r in details)]
    if sheet.standing:
        out += ["", sheet.standing]
    out += sheet.notes
    return "\n".join(line.rstrip() for line in out)


def sheet_html(sheet: ScoreSheet) -> str:
    """The sheet as an HTML fragment (a ``<table class="score-sheet">`` and the notes), all text escaped."""
    esc = html.escape
    head = "".join(f"<th scope='col'>{esc(c)}</th>" for c in sheet.columns)
    parts = [
        f"<table class='score-sheet'><caption>{esc(sheet.title)}</caption>",
        f"<thead><tr><th></th>{head}</tr></thead>",
    ]
    parts.append("<tbody>")
    for ln in sheet.lines:
        if ln.section != "score":
            continue
        cells = "".join(f"<td>{esc(c)}</td>" for c in ln.cells)
        parts.append(f"<tr><th scope='row'>{esc(ln.label)}</th>{cells}</tr>")
    parts.append("</tbody>")
    total = "".join(f"<td>{esc(t)}</td>" for t in sheet.totals)
    parts.append(f"<tfoot><tr><th scope='row'>Total</th>{total}</tr>")
    for ln in sheet.lines:
        if ln.section == "details":
            cells = "".join(f"<td>{esc(c)}</td>" for c in ln.cells)
            parts.append(f"<tr class='detail'><th scope='row'>{esc(ln.label)}</th>{cells}</tr>")
    parts.append("</tfoot></table>")
    if sheet.standing:
        parts.append(f"<p class='standing'>{esc(sheet.standing)}</p>")
    if sheet.notes:
        parts.append("<ul class='notes'>" + "".join(f"<li>{esc(n)}</li>" for n in sheet.notes) + "</ul>")
    return "".join(parts)
