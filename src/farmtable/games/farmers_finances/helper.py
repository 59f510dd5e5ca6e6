"""The Farmers Finances scoring helper: score a physical game's end position typed as text."""

from __future__ import annotations

import re
from typing import Final

from farmtable.core import BadInput, Result
from farmtable.games.farmers_finances import components as c
from farmtable.games.farmers_finances.scoring import score_sheet

HELPER_FORMAT: Final = """\
One line per player, in seat order: a name, a colon, the coins, then the cards still in the
farm, separated by commas (a sort left out counts 0; 'animal' or 'animals', 'coin' or 'coins'):

    Anna: 72 coins, 1 wheat, 1 bread, 1 animal
    Ben: 72 coins, 2 wheat

1 to 4 players. Solo, add the number on the turn tracker on a line of its own:

    Me: 74 coins
    turns: 23

Blank lines and lines starting with # are ignored. Ties are broken by the rulebook's tie rule
(the tied players' cards sold at base value: wheat 5, bread 7, animal 10); a tie after that is
a shared win. The card counts may not exceed the cards of the copies in play (one copy up to
2 players: 4 wheat/bread and 2 animals; two copies for 3-4 players).
"""
"""The text format :func:`score_text` reads (``Game.scoring_helper_format``)."""

_PLAYER_LINE = re.compile(r"^(?P<name>[^:]+):(?P<rest>.*)$")
_ITEM = re.compile(r"^(?P<count>\d{1,6})\s+(?P<what>[a-z]+)$")
_TURNS_LINE = re.compile(r"^turns\s*:\s*(?P<turns>\d{1,6})$", re.IGNORECASE)
_WORDS: Final[dict[str, str]] = {
    "coin": "coins",
    "coins": "coins",
    c.WHEAT: c.WHEAT,
    c.BREAD: c.BREAD,
    c.ANIMAL: c.ANIMAL,
    "animals": c.ANIMAL,
}


def _read_player(rest: str, line: int) -> tuple[int, list[int]]:
    """Read "72 coins, 1 wheat, ..." into (coins, [wheat, bread, animal])."""
    found: dict[str, int] = {}
    for part in rest.split(","):
        item = _ITEM.match(part.strip().lower())
        if item is None:
            raise BadInput(f"cannot read '{part.strip()}': write a count and a word, like '3 wheat'", line=line)
        word = _WORDS.get(item["what"])
        if word is None:
            raise BadInput(f"'{item['what']}' is not coins, wheat, bread or animal", line=line)
        if word in found:
            raise BadInput(f"{word} is given twice", line=line)
        found[word] = int(item["count"])
    if "coins" not in found:
        raise BadInput("say how many coins the player has, like '72 coins'", line=line)
    return found["coins"], [found.get(sort, 0) for sort in c.SORTS]


def score_text(text: str) -> Result:
    """Score a typed end position (format: :data:`HELPER_FORMAT`); BadInput names the line and the problem."""
    names: list[str] = []
    money: list[int] = []
    hands: list[list[int]] = []
    turns: int | None = None
    turns_line = 0
    lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        turns_match = _TURNS_LINE.match(line)
        if turns_match:
            if turns is not None:
                raise BadInput("the turn count is given twice", line=number)
            turns, turns_line = int(turns_match["turns"]), number
            continue
        player = _PLAYER_LINE.match(line)
        if player is None:
            raise BadInput("write 'name: 72 coins, 1 wheat, ...' or 'turns: 23'", line=number)
        name = player["name"].strip()
        if not name:
            raise BadInput("the player has no name before the colon", line=number)
        if name in names:
            raise BadInput(f"'{name}' is listed twice", line=number)
        if len(names) == c.MAX_PLAYERS:
            raise BadInput(f"Farmers Finances takes at most {c.MAX_PLAYERS} players", line=number)
        coins, hand = _read_player(player["rest"], number)
        names.append(name)
        money.append(coins)
        hands.append(hand)
        lines.append(number)
    if not names:
        raise BadInput("no players: write one line per player, like 'Anna: 72 coins, 1 wheat'")
    if turns is not None and len(names) != 1:
        raise BadInput("the turn count belongs to a solo game (one player)", line=turns_line)
    if turns is not None and turns < c.FIRST_SOLO_TURN:
        raise BadInput("a solo game has played at least one turn", line=turns_line)
    _check_cards(hands, lines)
    result = score_sheet(money, hands, solo_turns=turns if len(names) == 1 else None)
    result.details["names"] = names
    return result


def _check_cards(hands: list[list[int]], lines: list[int]) -> None:
    """The farms cannot hold more cards than the copies in play; names the line where the count runs over."""
    copies = c.copies_for(len(hands))
    wheat_cards, animal_cards = c.WHEAT_CARDS_PER_COPY * copies, c.ANIMAL_CARDS_PER_COPY * copies
    game = f"a {len(hands)}-player game has {wheat_cards} wheat/bread and {animal_cards} animal cards"
    wheat = animals = 0
    for hand, line in zip(hands, lines, strict=True):
        wheat += hand[0] + hand[1]
        animals += hand[2]
        if wheat > wheat_cards:
            raise BadInput(f"{wheat} wheat/bread cards in the farms so far; {game}", line=line)
        if animals > animal_cards:
            raise BadInput(f"{animals} animal cards in the farms so far; {game}", line=line)
