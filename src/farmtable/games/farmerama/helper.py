"""The Farmerama scoring helper: score a physical game's end position typed as text."""

from __future__ import annotations

from farmtable.core.errors import BadInput
from farmtable.core.result import Result
from farmtable.games.farmerama.components import (
    ANIMALS,
    PRODUCT_KEYS,
    PRODUCT_TRACK_MAX,
    PRODUCT_VALUE,
    PRODUCT_VALUES_DA_FR5,
    PRODUCTS,
)
from farmtable.games.farmerama.scoring import ScoreInput, score

SCORING_HELPER_FORMAT = """\
One block per player, each starting with a 'player:' line; then 'key: value' lines in any order.
Blank lines and text after '#' are ignored. Before the first block, an optional line
'product values: 3, 5, 7, 9' gives the stars per wool, truffles, milk and riding lessons printed
on your score boards (default 9, 10, 14, 18: assumption DA-FR5b; 3, 5, 7, 9 is the variant
products-3-5-7-9). Keys (a missing key counts 0 / none):

  player: <name>
  wool: <markers on the wool track, 0-12>
  truffles: <0-12>
  milk: <0-12>
  riding lessons: <0-12>
  feed tiles: <feed tiles in the barn plus on the farmland (water is not feed)>
  star buildings: <ornamental buildings with a star symbol>
  pasture: <animals still on a pasture, e.g. 'sheep, cow'; '-' for none>
  water: <water in the barn: the tie-break>

Example (the rulebook's final-scoring example, 153 stars):

  player: Anna
  wool: 3
  truffles: 3
  milk: 3
  riding lessons: 2
  feed tiles: 7
  star buildings: 1
  pasture: sheep, pig, cow, horse
  water: 2
"""

_COUNT_KEYS = {
    **{name: ("product", i) for i, name in enumerate(PRODUCTS)},
    "feed tiles": ("feed", 0),
    "star buildings": ("stars", 0),
    "water": ("water", 0),
}
MAX_VALUE = 100
"""The most stars per product the helper accepts (more is surely a typing error)."""
MAX_COUNT = 1000
"""The largest count the helper accepts on a line (more is surely a typing error)."""


class _Block:
    def __init__(self, name: str) -> None:
        self.name = name
        self.products = [0] * len(PRODUCT_KEYS)
        self.feed = 0
        self.stars = 0
        self.water = 0
        self.pasture: list[int] = []
        self.seen: set[str] = set()

    def entry(self, values: tuple[int, ...]) -> ScoreInput:
        return ScoreInput(self.products, self.feed, self.stars, self.pasture, self.water, values)


def _count(value: str, line: int, key: str, high: int) -> int:
    if not value.isdigit():
        raise BadInput(f"'{key}' needs a whole number, got '{value}'", line=line)
    number = int(value)
    if number > high:
        raise BadInput(f"'{key}' can be at most {high}, got {number}", line=line)
    return number


def score_text(text: str) -> Result:
    """Read the helper format (see ``SCORING_HELPER_FORMAT``) and score it; BadInput names the line."""
    blocks: list[_Block] = []
    values: tuple[int, ...] = PRODUCT_VALUE
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise BadInput(f"expected 'key: value', got '{line[:40]}'", line=number)
        key, value = (part.strip() for part in line.split(":", 1))
        key = " ".join(key.lower().split())
        if key == "product values":
            if blocks:
                raise BadInput("'product values' goes before the first 'player:' line", line=number)
            values = _values(value, number)
            continue
        if key == "player":
            blocks.append(_Block(value or f"player {len(blocks)}"))
            continue
        if not blocks:
            raise BadInput("start with a 'player: <name>' line", line=number)
        block = blocks[-1]
        if key in block.seen:
            raise BadInput(f"'{key}' is given twice for {block.name}", line=number)
        block.seen.add(key)
        if key == "pasture":
            names = [] if value in ("", "-") else [n.strip().lower() for n in value.split(",")]
            for name in names:
                if name not in ANIMALS:
                    raise BadInput(f"unknown animal '{name}'; the animals: {', '.join(ANIMALS)}", line=number)
            if len(set(names)) != len(names):
                raise BadInput("each player has one animal of each kind", line=number)
            block.pasture = [ANIMALS.index(n) for n in names]
            continue
        if key not in _COUNT_KEYS:
            known = ", ".join(["player", *_COUNT_KEYS, "pasture"])
            raise BadInput(f"unknown key '{key}'; the keys: {known}", line=number)
        kind, index = _COUNT_KEYS[key]
        if kind == "product":
            block.products[index] = _count(value, number, key, PRODUCT_TRACK_MAX)
        elif kind == "feed":
            block.feed = _count(value, number, key, MAX_COUNT)
        elif kind == "stars":
            block.stars = _count(value, number, key, MAX_COUNT)
        else:
            block.water = _count(value, number, key, MAX_COUNT)
    if not blocks:
        raise BadInput("no player: type at least one 'player: <name>' block")
    extra: dict[str, object] = {"names": [b.name for b in blocks]}
    if values != PRODUCT_VALUE:
        extra["product_values"] = "3/5/7/9 (first assumption)" if values == PRODUCT_VALUES_DA_FR5 else "typed"
    return score([b.entry(values) for b in blocks], extra)


def _values(value: str, line: int) -> tuple[int, ...]:
    """Read 'product values: w, t, m, r' (four whole numbers, stars per product)."""
    parts = [p for p in value.replace(",", " ").split() if p]
    if len(parts) != len(PRODUCTS) or not all(p.isdigit() for p in parts):
        raise BadInput(
            f"'product values' needs {len(PRODUCTS)} whole numbers (wool, truffles, milk, riding lessons), "
            f"got '{value}'",
            line=line,
        )
    numbers = tuple(int(p) for p in parts)
    if max(numbers) > MAX_VALUE:
        raise BadInput(f"a product is worth at most {MAX_VALUE} stars, got {max(numbers)}", line=line)
    return numbers
