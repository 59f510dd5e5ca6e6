"""Farmini for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/farmini.md``; data: ``games/farmini/components.py`` and the card geometry in
``games/farmini/farm.py``.

Two choices make the catalogue fixed and finite:

- **The card and the animal kind are implied.** ``place C7 at 1,-1 rot 90`` can only place the card
  just taken, and ``animal pig at 0,1/SE`` only a token of the animal card just taken. So the
  catalogue entries are ``place at X,Y rot R`` and ``animal at X,Y/Q`` ("the card / token you hold"),
  and index ``i`` still always means the same move.
- **The farm is seen through a window** of ``|x|, |y| <= REACH`` around the farm card. A farm may in
  principle stretch further (a line of pasture-sided cards), but random play never got past 9 in
  210 games of 1–4 players; a legal move outside the window raises ``KeyError`` naming it (the
  coverage test would show it).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import numpy as np

from farmtable.core import Result, State
from farmtable.games.farmini import components as c
from farmtable.games.farmini.farm import QUARTER_INDEX, faces_for
from farmtable.games.farmini.scoring import score_sheet
from farmtable.rl import fast as f
from farmtable.rl.catalogue import FastEncode, RLGame, Spec
from farmtable.rl.encoding import BySeat, Counts, Ctx, Custom, Fields, Flag, Items, Num, SeatSet

REACH = 12
"""The window of farm positions: ``-REACH <= x, y <= REACH`` around the farm card at 0,0."""
SIDE = 2 * REACH + 1
POSITIONS = tuple((x, y) for y in range(REACH, -REACH - 1, -1) for x in range(-REACH, REACH + 1))
"""Window positions, north row first, west to east."""
ROTATIONS = (0, 90, 180, 270)
CARD_IDS = tuple(sorted(c.ALL_CARDS))
N_QUARTERS = len(c.QUARTERS)
CELL_WIDTH = 1 + len(c.SIDES) + N_QUARTERS * len(c.QUARTER_CONTENTS) + N_QUARTERS * len(c.KINDS) + N_QUARTERS
"""Per position: card present, fence per arm (N E S W), quarter contents (G C A) per quarter,
animal kind per quarter, quarter in a pen."""

_PLACE = re.compile(r"^place \S+ at (-?\d+),(-?\d+) rot (\d+)$")
_ANIMAL = re.compile(r"^animal \S+ at (-?\d+),(-?\d+)/([A-Z]+)$")


def key(notation: str) -> str:
    """The catalogue entry of a notation: the card id / animal kind left out (the state implies them)."""
    m = _PLACE.match(notation)
    if m:
        return f"place at {m.group(1)},{m.group(2)} rot {m.group(3)}"
    m = _ANIMAL.match(notation)
    if m:
        return f"animal at {m.group(1)},{m.group(2)}/{m.group(3)}"
    return notation


def actions(players: int, variants: tuple[str, ...]) -> list[str]:
    """Take / discard a slot; place the held card at a window position and rotation; put a held token."""
    out = [f"take {slot}" for slot in range(1, c.FACE_UP_CARDS + 1)]
    out += [f"discard {slot}" for slot in range(1, c.FACE_UP_CARDS + 1)]
    out += [f"place at {x},{y} rot {r}" for x, y in POSITIONS for r in ROTATIONS]
    out += [f"animal at {x},{y}/{q}" for x, y in POSITIONS for q in c.QUARTERS]
    return out


def _cell(x: int, y: int) -> int:
    if abs(x) > REACH or abs(y) > REACH:
        raise KeyError(f"farm position {x},{y} is outside the RL window (|x|, |y| <= {REACH})")
    return ((REACH - y) * SIDE + (x + REACH)) * CELL_WIDTH


_QUARTERS_AT = 1 + len(c.SIDES)
_ANIMALS_AT = _QUARTERS_AT + N_QUARTERS * len(c.QUARTER_CONTENTS)
_PENS_AT = _ANIMALS_AT + N_QUARTERS * len(c.KINDS)


@cache
def _card_ones(variants: tuple[str, ...]) -> dict[tuple[str, int], tuple[int, ...]]:
    """Per (card id, rotation) of the faces these variants play: the offsets of its ones in a position's
    block (card present, its fenced arms, its quarter contents)."""
    out = {}
    for key, card in faces_for(variants).oriented.items():
        ones = [0]
        ones += [1 + side for side, fence in enumerate(card.arms) if fence]
        ones += [
            _QUARTERS_AT + q * len(c.QUARTER_CONTENTS) + c.QUARTER_CONTENTS.index(content)
            for q, content in enumerate(card.quarters)
        ]
        out[key] = tuple(ones)
    return out


def _farm_ones(value: Any, variants: tuple[str, ...]) -> list[int]:
    """The indices of the ones of a farm's block (every other entry is 0)."""
    card_ones = _card_ones(variants)
    ones = []
    for x, y, card_id, rot in value["cards"]:
        base = _cell(x, y)
        ones += [base + k for k in card_ones[(card_id, rot)]]
    for x, y, quarter, kind in value["animals"]:
        ones.append(_cell(x, y) + _ANIMALS_AT + QUARTER_INDEX[quarter] * len(c.KINDS) + c.KINDS.index(kind))
    for pen in value["pens"]:
        ones += [_cell(x, y) + _PENS_AT + q for x, y, q in pen]
    return ones


def _farm(value: Any, ctx: Ctx) -> np.ndarray:
    out = np.zeros(SIDE * SIDE * CELL_WIDTH, dtype=np.float32)
    out[_farm_ones(value, ctx.variants)] = 1.0  # the faces this game plays (variant cards-v1 or the default)
    return out


def _card(value: Any, ctx: Ctx) -> list[float]:
    out = [0.0] * len(CARD_IDS)
    out[CARD_IDS.index(value)] = 1.0
    return out


def schema(players: int, variants: tuple[str, ...]) -> Fields:
    """The observation: the face-up cards, discard, farmyard, the held card, and every farm in the window."""
    card = Custom(len(CARD_IDS), _card, "one-hot card id (" + " ".join(CARD_IDS) + ")", high=1)
    farm_doc = (
        f"{SIDE}×{SIDE} positions (north row first, x from −{REACH}), {CELL_WIDTH} per position: card present, "
        "fence on arm N E S W, quarter NE SE SW NW contents one-hot G C A, animal per quarter one-hot "
        + " ".join(c.KINDS)
        + ", quarter inside a pen"
    )
    return Fields(
        (
            ("turn", Num(doc="turn")),
            ("actors", SeatSet("seats to act")),
            ("over", Flag("game over")),
            ("table", Items(Fields((("card", card),)), c.FACE_UP_CARDS)),
            ("deck_size", Num(high=len(CARD_IDS), doc="cards in the deck")),
            ("discard", Counts(CARD_IDS, high=1, doc="discarded cards")),
            ("farmyard", Fields(tuple((k, Num(high=c.TOKENS_PER_KIND, doc=f"{k} tokens")) for k in c.KINDS))),
            ("pending", Fields((("card", card), ("left", Num(high=2, doc="tokens still to put"))))),
            ("farms", BySeat(Custom(SIDE * SIDE * CELL_WIDTH, _farm, farm_doc, high=1))),
            ("scores", BySeat(Num(low=-100, high=200, doc="score as it stands"))),
        )
    )


def fast_encoder(sp: Spec) -> FastEncode:
    """The observation written straight from the state: the same numbers ``view(p)`` gives the schema.

    It reads the fields ``FarminiState.view`` reads (everything but the deck order, of which only the
    size is shown). A farm's 0/1 block and its score are computed once per farm content (its cards,
    their orientation and its animals: a farm only changes by a move) with the schema's own ``_farm``,
    and kept as the indices of its ones: the array is zeroed, then one numpy call per farm sets them.
    """
    players = sp.players
    seats = f.rotations(players)
    actors_of = f.seat_set_memo(players)
    num, small, floats, counts = f.num, f.NUM, f.floats, f.counts
    variants = sp.variants
    at = {row.name: row.start for row in sp.rows()}
    farm_size = SIDE * SIDE * CELL_WIDTH
    farms_at = at["farms[self]"]
    head_bytes = farms_at * f.WIDTH
    scores_bytes = at["scores[self]"] * f.WIDTH
    card_of = f.one_hots(CARD_IDS)
    no_card = card_of[None]
    no_pending = no_card + f.ZERO
    discard_memo = f.Memo()
    farm_memo: dict[Any, tuple[np.ndarray, bytes]] = {}

    def farm_entry(farm: Any, scoring_rules: Any) -> tuple[np.ndarray, bytes]:
        """The indices of a farm's ones in its block, and its score as it stands (the spec fixes the
        variants, so the scoring rules are the same for every state it sees)."""
        cards = farm.cards
        key = (tuple(cards), tuple([(o.card_id, o.rot) for o in cards.values()]), tuple(farm.animals.items()))
        known = farm_memo.get(key)
        if known is None:
            value = {
                "cards": [[x, y, o.card_id, o.rot] for (x, y), o in cards.items()],
                "animals": [[x, y, c.QUARTERS[q], k] for (x, y, q), k in farm.animals.items()],
                "pens": [[list(cell) for cell in pen.cells] for pen in farm.pens()],
            }
            ones = np.array(_farm_ones(value, variants), dtype=np.intp)
            known = (ones, num(sum(score_sheet(farm, scoring_rules).values())))
            if len(farm_memo) >= f.MEMO_SIZE:
                farm_memo.clear()
            farm_memo[key] = known
        return known

    def encode(state: State[Any], player: int, out: np.ndarray) -> None:
        s: Any = state
        actors = s.actors()
        discard_key = tuple(s.discard)
        discard = discard_memo.get(discard_key)
        if discard is None:
            discard = discard_memo.add(discard_key, counts(CARD_IDS, discard_key))
        table = [card_of[card] for card in s.table]
        table += [no_card] * (c.FACE_UP_CARDS - len(table))
        farmyard = s.farmyard
        head = [
            num(s.turn),
            actors_of(player, actors),
            small[s.is_over()],
            *table,
            num(len(s.deck)),
            discard,
            floats([farmyard.get(k, 0) for k in c.KINDS]),
            no_pending if s.pending is None else card_of[s.pending] + num(s.pending_left),
        ]
        farms = s.farms
        entries = [farm_entry(farms[q], s.rules) for q in seats[player]]
        out.fill(0.0)
        bytes_view = memoryview(out).cast("B")  # type: ignore[arg-type]  # an ndarray is a buffer
        bytes_view[:head_bytes] = b"".join(head)
        start = farms_at
        for ones, _ in entries:
            out[start : start + farm_size][ones] = 1.0
            start += farm_size
        bytes_view[scores_bytes:] = b"".join([score for _, score in entries])

    return encode


def solo_score(result: Result) -> float:
    """Solo: the points scored."""
    return float(result.totals[0])


def solo_win(result: Result) -> float:
    """Solo: +1 for the top achievement ("You won the competition!"), −1 otherwise."""
    return 1.0 if result.details.get("solo_achievement") == c.SOLO_ACHIEVEMENTS[0][2] else -1.0


RL_GAME = RLGame(
    game_id="farmini",
    name="Farmini",
    actions=actions,
    schema=schema,
    solo_score=solo_score,
    solo_win=solo_win,
    simultaneous=False,
    max_game_length=3000,
    key=key,
    fast=fast_encoder,
    notes=f"`place at X,Y rot R` and `animal at X,Y/Q` act with the card / token just taken (the notation's card id "
    f"and kind are implied). Farms are seen and played in a window |x|, |y| ≤ {REACH} around the farm card "
    "(random play never passed 9). The deck order is hidden (not encoded); the event log is not encoded.",
    solo_doc="solo `score` = points; solo `win` = +1 for the top solo achievement (35+, 50+ in the second variant), "
    "else −1.",
)
