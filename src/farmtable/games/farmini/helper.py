"""The scoring helper: score Farmini farms typed as text (``farmtable score farmini FILE``).

The format is :data:`HELPER_FORMAT`; errors are :class:`BadInput` naming the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from farmtable.core import BadInput, Result
from farmtable.core.notation import normalize, shorten
from farmtable.games.farmini.components import (
    ALL_CARDS,
    ANIMAL_CELL,
    CARDS_V1,
    FARM_CARDS,
    KINDS,
    TOKENS_PER_KIND,
    FenceCard,
)
from farmtable.games.farmini.farm import QUARTER_INDEX, ROTATIONS, Faces, Farm, cell_name, faces_for
from farmtable.games.farmini.scoring import (
    GAPS_OPEN,
    PER_CELL_PENALTY,
    SECOND_VARIANT,
    ScoringRules,
    score_farms,
)

HELPER_FORMAT: Final = """\
Farmini farms as text, one farm per player (1 to 4 farms). One item per line; blank lines and
text after '#' are ignored; case and extra spaces do not matter.

  variant second-variant         optional, before the first farm: pens of one kind score double
  variant penalty-per-empty-cell optional: -1 per empty animal cell instead of per pen with one
  variant gaps-not-enclosed      optional: a ring of fences around a missing card is not a pen
  variant cards-v1               optional: the first assumed card faces (before the review)
  player Alice                   starts a farm (may be left out when there is only one farm)
  farm at 0,0                    the farm card (all four are alike; or give its id H1..H4)
  C7 at 1,0 rot 90               a fence card: its id, where it lies, and how far it is turned
                                 clockwise (0, 90, 180, 270; 'rot 0' may be left out)
  pig at 0,0/SE                  an animal on the animal cell in quarter NE, SE, SW or NW of the
                                 card at that position (pig, goat or chicken)

Positions are x,y with x growing to the east and y to the north. Unrotated, a card shows its
fences (arms N, E, S, W from the centre to the middle of each side) and its quarters as printed
in the card list (docs/games/farmini.md). Every touching side must match (fence to fence,
pasture to pasture) and the cards of a farm must be connected.

Example (one pen of four cornfields around the point where the four cards meet, 4 points,
and a pig outside it, 1 point: total 5):
  player Ann
  farm at 0,0
  C1 at 1,0 rot 270
  C3 at 0,1 rot 90
  C7 at 1,1 rot 180
  pig at 0,0/SE
"""
"""The text format read by :func:`score_text` (``Game.scoring_helper_format``)."""

_COORD = r"(-?\d{1,3}) ?, ?(-?\d{1,3})"
_CARD_RE: Final = re.compile(rf"^(?:card |place )?([a-z]{{1,4}}\d{{0,2}}) at {_COORD}(?: rot (\d{{1,3}}))?$")
_ANIMAL_RE: Final = re.compile(rf"^(?:animal )?([a-z]+) at {_COORD} ?/ ?([a-z]+)$")
_FARM_ALIAS: Final = "farm"
_HELPER_VARIANTS: Final = (SECOND_VARIANT, PER_CELL_PENALTY, GAPS_OPEN, CARDS_V1)
"""The variants a helper text may name (scoring readings and the card faces)."""


class _FarmBeingRead:
    """One farm under construction, with the line each card came from."""

    def __init__(self, name: str, line: int, gaps_enclose: bool, faces: Faces) -> None:
        self.name = name
        self.line = line
        self.farm = Farm(gaps_enclose=gaps_enclose, faces=faces)
        self.card_lines: dict[tuple[int, int], int] = {}


@dataclass(frozen=True)
class TypedFarms:
    """Farms read from text: the farms, their players' names and the variants named."""

    farms: list[Farm]
    names: list[str]
    variants: tuple[str, ...]


def score_text(text: str) -> Result:
    """Score the farms described in ``text`` (format: :data:`HELPER_FORMAT`)."""
    typed = read_farms(text)
    rules = ScoringRules.from_variants(typed.variants)
    return score_farms(typed.farms, rules, {"players": typed.names, "variants": list(typed.variants)})


def read_farms(text: str) -> TypedFarms:
    """Read farms typed in the helper format (also used to build positions in tests)."""
    variants: set[str] = set()
    farms: list[_FarmBeingRead] = []
    used_cards: dict[str, int] = {}
    tokens = dict.fromkeys(KINDS, 0)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = normalize(raw.split("#", 1)[0])
        if not line:
            continue
        if line.startswith("variant "):
            name = line.split(" ", 1)[1]
            if name not in _HELPER_VARIANTS:
                raise BadInput(f"unknown variant '{name}': use {', '.join(_HELPER_VARIANTS)}", number)
            if farms:
                raise BadInput("variants go before the first farm", number)
            variants.add(name)
            continue
        if line.startswith("player"):
            if len(farms) == len(FARM_CARDS):
                raise BadInput(f"a fifth farm: Farmini has at most {len(FARM_CARDS)} players", number)
            name = raw.split("#", 1)[0].strip()[len("player") :].strip() or f"player {len(farms) + 1}"
            farms.append(_FarmBeingRead(name, number, GAPS_OPEN not in variants, faces_for(frozenset(variants))))
            continue
        if not farms:
            farms.append(_FarmBeingRead("player 1", number, GAPS_OPEN not in variants, faces_for(frozenset(variants))))
        current = farms[-1]
        m = _ANIMAL_RE.match(line)
        if m and m.group(1) in KINDS:
            _read_animal(current, m, number, tokens)
            continue
        m = _CARD_RE.match(line)
        if m:
            _read_card(current, m, number, used_cards, len(farms) - 1)
            continue
        raise BadInput(
            f"cannot read '{shorten(raw.strip())}': expected 'C7 at 1,0 rot 90', 'pig at 0,0/SE', "
            "'player NAME' or 'variant NAME'",
            number,
        )
    if not farms:
        raise BadInput("no farm given: type at least 'farm at 0,0'")
    for fr in farms:
        _check_farm(fr)
    return TypedFarms([fr.farm for fr in farms], [fr.name for fr in farms], tuple(sorted(variants)))


def _read_card(fr: _FarmBeingRead, m: re.Match[str], number: int, used: dict[str, int], farm_no: int) -> None:
    """A card line: check the id, the rotation, the position and that its sides match."""
    card_id = m.group(1).upper()
    if card_id.lower() == _FARM_ALIAS:
        free = [c.id for c in FARM_CARDS if c.id not in used]
        if not free:
            raise BadInput("all four farm cards are already used", number)
        card_id = FARM_CARDS[farm_no].id if FARM_CARDS[farm_no].id in free else free[0]
    card = ALL_CARDS.get(card_id)
    if not isinstance(card, FenceCard):
        raise BadInput(f"'{card_id}' is not a fence or farm card (see the card list)", number)
    if card_id in used:
        raise BadInput(f"card {card_id} is already on line {used[card_id]}: each card exists once", number)
    rot = int(m.group(4) or 0)
    if rot not in ROTATIONS:
        raise BadInput(f"rot must be 0, 90, 180 or 270 (degrees clockwise), not {rot}", number)
    pos = (int(m.group(2)), int(m.group(3)))
    if pos in fr.farm.cards:
        raise BadInput(f"{pos[0]},{pos[1]} already holds a card (line {fr.card_lines[pos]})", number)
    oriented = fr.farm.faces.oriented[card_id, rot]
    if fr.farm.cards:
        problem = fr.farm.misfit(oriented, pos)
        if problem and "must touch" not in problem:
            raise BadInput(problem, number)
    fr.farm.put_card(card_id, pos, rot)
    fr.card_lines[pos] = number
    used[card_id] = number


def _read_animal(fr: _FarmBeingRead, m: re.Match[str], number: int, tokens: dict[str, int]) -> None:
    """An animal line: it must sit alone on an animal cell of a card already given."""
    kind = m.group(1)
    qname = m.group(4).upper()
    if qname not in QUARTER_INDEX:
        raise BadInput(f"'{qname}' is not a quarter: use NE, SE, SW or NW", number)
    cell = (int(m.group(2)), int(m.group(3)), QUARTER_INDEX[qname])
    content = fr.farm.content(cell)
    if content is None:
        raise BadInput(f"no card at {cell[0]},{cell[1]} (give the card on a line before its animals)", number)
    if content != ANIMAL_CELL:
        raise BadInput(f"{cell_name(cell)} is not an animal cell: animals go only on animal cells", number)
    if cell in fr.farm.animals:
        raise BadInput(f"{cell_name(cell)} already holds a {fr.farm.animals[cell]}: one animal per cell", number)
    tokens[kind] += 1
    if tokens[kind] > TOKENS_PER_KIND:
        raise BadInput(f"more than {TOKENS_PER_KIND} {kind}s: the game has {TOKENS_PER_KIND} {kind} tokens", number)
    fr.farm.animals[cell] = kind


def _check_farm(fr: _FarmBeingRead) -> None:
    """A whole farm: it has a farm card and its cards are connected."""
    if not fr.farm.cards:
        raise BadInput(f"{fr.name}'s farm has no cards", fr.line)
    if not any(getattr(ALL_CARDS[o.card_id], "farm", False) for o in fr.farm.cards.values()):
        raise BadInput(f"{fr.name}'s farm has no farm card: add 'farm at 0,0'", fr.line)
    if not fr.farm.is_connected():
        raise BadInput(f"{fr.name}'s cards do not form one farm: every card must touch another", fr.line)
