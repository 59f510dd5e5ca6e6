"""The Tiny Farms scoring helper: score farms typed as text (``farmtable score tiny-farms FILE``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from farmtable.core import BadInput, Result
from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import scoring

HELPER_FORMAT: Final = """\
Tiny Farms end position, one block per player (1-4 players):

    player Lilly                 <- starts a player; the name is optional
    milk 2                       <- unused milk tokens, 0-3 (default 0)
    S  S  S  P   | S  S  .  .    <- four rows: the red farm's 4 spaces | the blue farm's 4 spaces
    S  Ch C  cc  | H  FF-r . .
    cc H  FF-r FF-e | .  .  .  .
    FF-s . .  .  | .  .  .  .

Spaces are the rulebook's abbreviations, any case: P pig, S sheep, Ch chicken, C cow,
cc calves (one space, two calves), H horse, FF-r raccoon, FF-e eagle, FF-s squirrel,
FF-b bear, FF-bu bunny; full names work too (pig, sheep, ..., bunny); '.' or '-' is an empty
space. Blank lines and text after '#' are ignored.

Solo against Farmer Emma: one player, whose farms may also hold 'crop' and 'x' (crossed out),
plus one line of Emma's filled circles, for example:

    emma forest 4 sheep 3 pigs 2 horses 2 cows 1 calves 6 chickens 1

(calves counts calves: a 'cc' she takes fills two circles). Emma is then scored as one farm.
"""

MAX_ANIMALS: Final = c.ROUNDS * c.WINDOW_SIZE  # 10 rounds x 2 animals: a player writes at most 20 spaces
MAX_SOLO_ANIMALS: Final = c.SOLO_ROUNDS * c.WINDOW_SIZE
MAX_SOLO_CROPS: Final = c.SOLO_ROUNDS  # one crop (or cross) per round

TOKENS: Final[dict[str, int]] = {
    **{abbr.lower(): code for code, abbr in c.ABBREVIATIONS.items()},
    **{name: code for code, name in c.NAMES.items() if code != c.EMPTY},
    "-": c.EMPTY,
}
EMMA_WORDS: Final = {name.split()[0]: t for t, (name, _, _) in enumerate(c.EMMA_TRACKS)}
"""Emma line words: forest, sheep, pigs, horses, cows, calves, chickens."""


@dataclass
class _Player:
    """One player's block while it is read."""

    name: str
    line: int
    milk: int | None = None
    rows: list[list[int]] = field(default_factory=list)


def _parse_row(text: str, line: int) -> list[int]:
    """One board row: four red spaces '|' four blue spaces, as cell codes (red first)."""
    if text.count("|") != 1:
        raise BadInput("a farm row is the red farm's 4 spaces, '|', then the blue farm's 4 spaces", line)
    halves = []
    for farm, part in zip(c.FARM_NAMES, text.split("|"), strict=True):
        tokens = part.split()
        if len(tokens) != c.FARM_SIDE:
            raise BadInput(f"the {farm} farm row has {len(tokens)} spaces; it needs {c.FARM_SIDE}", line)
        for token in tokens:
            code = TOKENS.get(token.lower())
            if code is None:
                raise BadInput(f"'{token}' is not an animal: use P, S, Ch, C, cc, H, FF-r/e/s/b/bu or '.'", line)
            halves.append(code)
    return halves


def _parse_emma(words: list[str], line: int) -> list[int]:
    """Emma's filled circles per track from 'emma forest 4 sheep 3 ...'."""
    if len(words) % 2:
        raise BadInput("the emma line is pairs of a track and a number: 'emma sheep 3 horses 2'", line)
    filled = [0] * len(c.EMMA_TRACKS)
    seen: set[str] = set()
    for word, number in zip(words[::2], words[1::2], strict=True):
        track = EMMA_WORDS.get(word.lower())
        if track is None:
            raise BadInput(f"Emma has no '{word}' track; her tracks: {', '.join(EMMA_WORDS)}", line)
        if word.lower() in seen:
            raise BadInput(f"Emma's {word} track is given twice", line)
        seen.add(word.lower())
        if not number.isdigit():
            raise BadInput(f"'{number}' is not a number of circles", line)
        name, _, capacity = c.EMMA_TRACKS[track]
        if int(number) > capacity:
            raise BadInput(f"Emma's {name} track has only {capacity} circles, not {number}", line)
        filled[track] = int(number)
    return filled


def _board(player: _Player, solo: bool, last_line: int) -> list[int]:
    """Check a player's block and turn its rows into a board (red cells then blue cells)."""
    if len(player.rows) != c.FARM_SIDE:
        raise BadInput(f"{player.name} has {len(player.rows)} farm rows; each player needs {c.FARM_SIDE}", last_line)
    red = [code for row in player.rows for code in row[: c.FARM_SIDE]]
    blue = [code for row in player.rows for code in row[c.FARM_SIDE :]]
    board = red + blue
    animals = sum(1 for v in board if v in c.ANIMALS)
    marks = sum(1 for v in board if v in (c.CROP, c.CROSSED))
    if marks and not solo:
        raise BadInput(f"{player.name} has crops or crossed-out spaces: those exist only in the solo game", player.line)
    limit = MAX_SOLO_ANIMALS if solo else MAX_ANIMALS
    rounds = c.SOLO_ROUNDS if solo else c.ROUNDS
    if animals > limit:
        raise BadInput(
            f"{player.name} has {animals} animals; {rounds} rounds of two animals give at most {limit}", player.line
        )
    if marks > MAX_SOLO_CROPS:
        raise BadInput(f"{player.name} has {marks} crops and crosses; a solo game plants {MAX_SOLO_CROPS}", player.line)
    return board


def score_text(text: str) -> Result:
    """Score the position in ``text`` (format: :data:`HELPER_FORMAT`); raise BadInput for impossible input."""
    players: list[_Player] = []
    emma: list[int] | None = None
    emma_line = 0
    lines = text.splitlines()
    for number, raw in enumerate(lines, start=1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        words = content.split()
        keyword = words[0].lower()
        if keyword == "player":
            players.append(_Player(" ".join(words[1:]) or f"player {len(players)}", number))
            if len(players) > c.MAX_PLAYERS:
                raise BadInput(f"Tiny Farms takes at most {c.MAX_PLAYERS} players", number)
        elif keyword == "emma":
            if emma is not None:
                raise BadInput("Farmer Emma's line is given twice", number)
            emma, emma_line = _parse_emma(words[1:], number), number
        elif not players:
            raise BadInput("start with a 'player' line (then 'milk N' and four farm rows)", number)
        elif keyword == "milk":
            if players[-1].milk is not None:
                raise BadInput(f"{players[-1].name}'s milk is given twice", number)
            if len(words) != 2 or not words[1].isdigit() or int(words[1]) > c.START_MILK:
                raise BadInput(f"'milk N' needs N from 0 to {c.START_MILK} (everyone starts with 3)", number)
            players[-1].milk = int(words[1])
        else:
            if len(players[-1].rows) == c.FARM_SIDE:
                raise BadInput(f"{players[-1].name} already has {c.FARM_SIDE} farm rows", number)
            players[-1].rows.append(_parse_row(content, number))
    if not players:
        raise BadInput("no players: start each one with a 'player' line")
    solo = emma is not None
    if solo and len(players) != 1:
        raise BadInput("Farmer Emma plays the solo game: give exactly one player with her", emma_line)
    boards = []
    for index, player in enumerate(players):
        next_line = players[index + 1].line if index + 1 < len(players) else len(lines)
        boards.append(_board(player, solo, next_line))
    milk = [p.milk or 0 for p in players]
    names = [p.name for p in players]
    if emma is not None:
        result = scoring.score_solo(boards[0], milk[0], emma, difficulty="(typed)")
    else:
        result = scoring.score_players(boards, milk)
    result.details["names"] = names
    return result
