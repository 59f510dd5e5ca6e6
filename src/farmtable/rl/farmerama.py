"""Farmerama for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/farmerama.md``; data: ``games/farmerama/components.py``.
Phase 1 (choosing action cards) is simultaneous: every seat chooses face down. The view shows
only how many cards another seat has put down until they are revealed, and so does the
observation.
"""

from __future__ import annotations

import re
import struct
from typing import Any

from farmtable.core import Result, State
from farmtable.games.farmerama import components as c
from farmtable.games.farmerama import render, rules
from farmtable.rl import fast as f
from farmtable.rl.catalogue import FastEncode, RLGame, Spec
from farmtable.rl.encoding import (
    BySeat,
    Counts,
    Ctx,
    Custom,
    Fields,
    Flag,
    Items,
    Num,
    OneHot,
    Seat,
    SeatSet,
)

PHASES = ("choose", "award", "act", "solo-pick", "over")
"""The phases a view names (``rules.PHASES``)."""
PLANTS = tuple(c.GOODS[f] for f in c.FEEDS)
BUILDING_IDS = tuple(b.id for b in c.BUILDINGS)
SECTIONS = tuple(range(c.ACTION_WHEEL_SECTIONS))
MAX_GOODS = 200.0
"""A generous bound on goods counts (the supply holds 32 tiles of each)."""

_CHOICE = re.compile(r"^P(\d+) (?:(is choosing|has chosen)(?: \((\d+) card\(s\) down\))?|chose (.*))$")
_CHOICE_WIDTH = 2 + len(c.CARDS)


def actions(players: int, variants: tuple[str, ...]) -> list[str]:
    """Cards, building rewards, sow/harvest per plant × area, water, feed, the wheel; solo redraw and tokens."""
    out = [f"card {name}" for name in c.CARDS]
    if players > 1:
        out += [f"take {slot}" for slot in range(1, c.DISPLAY_SIZE + 1)]
        out += [f"gain {good}" for good in c.GOODS]
    out += [f"start {name}" for name in c.CARDS]
    out += [f"sow {plant} {area}" for plant in PLANTS for area in c.AREA_NAMES]
    out += [f"harvest {plant} {area}" for plant in PLANTS for area in c.AREA_NAMES]
    out += ["water", *(f"feed {animal}" for animal in c.ANIMALS), "done", "turn-wheel"]
    if "profi" in variants:
        out.append("pay-water")
    if players == 1:
        out.append("redraw")
        out += [f"token {good}" for good in c.GOODS]
    return out


def _choices(value: Any, ctx: Ctx) -> list[float]:
    """Per seat (self first): finished choosing, cards down face down, then revealed cards per card name."""
    out = [0.0] * (_CHOICE_WIDTH * ctx.players)
    for line in value:
        match = _CHOICE.match(line)
        if match is None:
            raise KeyError(f"card choice line {line!r} is not in the encoding schema")
        seat = (int(match.group(1)) - ctx.viewer) % ctx.players
        base = seat * _CHOICE_WIDTH
        if match.group(4) is not None:
            out[base] = 1.0
            for name in match.group(4).split(", "):
                out[base + 2 + c.CARDS.index(name)] += 1.0
        else:
            out[base] = 1.0 if match.group(2) == "has chosen" else 0.0
            out[base + 1] = float(match.group(3) or 0)
    return out


def _pair(doc: str) -> Items:
    return Items(Num(high=9, doc=doc), 2)


def schema(players: int, variants: tuple[str, ...]) -> Fields:
    """The observation: round, the action wheel, supply, buildings, everyone's card status and board."""
    wheel_values = Fields(
        (("sow", _pair("Sow alone/shared")), ("harvest", _pair("Harvest alone/shared")), ("water", _pair("Water")))
    )
    area = Fields(
        (
            ("beds", Items(OneHot(PLANTS, "plant on the bed"), max(c.AREA_BED_COUNTS))),
            ("scarecrow_visible", Flag("scarecrow bed empty")),
            ("pasture", Counts(c.ANIMALS, high=c.PASTURE_CAPACITY, doc="animals on the pasture")),
        )
    )
    board = Fields(
        (
            ("barn", Fields(tuple((g, Num(high=MAX_GOODS, doc=f"{g} in the barn")) for g in c.GOODS))),
            ("player_wheel", OneHot(tuple(range(c.AREA_COUNT)), "player wheel turned")),
            ("areas", Items(area, c.AREA_COUNT, labels=c.AREA_NAMES)),
            ("stable", Counts(c.ANIMALS, high=1, doc="animals in the stable")),
            ("products", Fields(tuple((k, Num(high=c.PRODUCT_TRACK_MAX, doc=k)) for k in c.PRODUCT_KEYS))),
            ("garden", Custom(len(BUILDING_IDS), _garden, "ornamental garden: count per building id", high=1)),
            ("scarecrows", Num(high=c.BED_COUNT, doc="visible scarecrows")),
            ("boss_sheep_rounds", Num(doc="rounds as boss sheep")),
        )
    )
    return Fields(
        (
            ("round", Num(doc="round")),
            ("phase", OneHot(PHASES, "phase")),
            ("actors", SeatSet("seats to act")),
            (
                "action_wheel",
                Fields(
                    (
                        ("section", OneHot(SECTIONS, "action wheel section")),
                        *wheel_values.fields,
                        ("next", wheel_values),
                    )
                ),
            ),
            ("supply", Fields(tuple((g, Num(high=MAX_GOODS, doc=f"{g} in the supply")) for g in c.GOODS))),
            ("buildings_face_up", Items(Fields((("id", OneHot(BUILDING_IDS, "building")),)), c.DISPLAY_SIZE)),
            ("buildings_in_stack", Num(high=len(BUILDING_IDS), doc="buildings in the stack")),
            ("buildings_removed_face_down", Num(high=len(BUILDING_IDS), doc="buildings removed face down")),
            (
                "card_choices",
                Custom(
                    _CHOICE_WIDTH,
                    _choices,
                    "per seat: finished, cards face down, revealed count per card (" + ", ".join(c.CARDS) + ")",
                    high=len(c.CARDS),
                    per_seat=True,
                ),
            ),
            ("boards", BySeat(board)),
            ("my_cards", Counts(c.CARDS, high=1, doc="my chosen cards")),
            ("boss_sheep", Seat("boss sheep (3 players)")),
            ("final_rounds", Flag("final rounds (3 players)")),
            (
                "award",
                Fields(
                    (
                        ("chooser", Seat("award chooser")),
                        (
                            "rewards_of_choice",
                            Custom(2, _rewards_for_me, "my pending reward of choice: count, feed only", high=20),
                        ),
                    )
                ),
            ),
            (
                "acting",
                Custom(
                    _ACTING_WIDTH,
                    _acting,
                    "per seat (self first), while it acts: acting (0/1), card being played one-hot ("
                    + ", ".join(c.CARDS)
                    + "), actions left on it, count of each card still to play",
                    high=20,
                    per_seat=True,
                ),
            ),
            (
                "solo",
                Fields(
                    (
                        ("turn", Num(high=c.SOLO_TURNS + 1, doc="solo turn")),
                        ("revealed", OneHot(c.CARDS, "revealed supply card")),
                        ("tokens", Num(high=c.SOLO_MAX_TOKENS, doc="tokens")),
                        ("action_stack", Num(high=20, doc="cards in the action stack")),
                        ("supply_stack", Num(high=20, doc="cards in the supply stack")),
                        ("discard", Counts(c.CARDS, high=20, doc="discarded cards")),
                        ("pushed_under", Counts(c.CARDS, high=20, doc="cards known under the action stack")),
                    )
                ),
            ),
        )
    )


_ACTING_WIDTH = 2 + 2 * len(c.CARDS)


def _acting(value: Any, ctx: Ctx) -> list[float]:
    """Per seat (self first): acting, the card being played, actions left on it, cards still to play.

    The view lists every seat acting now (several at once in a simultaneous action phase).
    """
    out = [0.0] * (_ACTING_WIDTH * ctx.players)
    for entry in value:
        base = (int(entry["player"]) - ctx.viewer) % ctx.players * _ACTING_WIDTH
        out[base] = 1.0
        if entry["card"] is not None:
            out[base + 1 + c.CARDS.index(entry["card"])] = 1.0
        out[base + 1 + len(c.CARDS)] = float(entry["remaining"])
        for name in entry["still_to_do"]:
            out[base + 2 + len(c.CARDS) + c.CARDS.index(name)] += 1.0
    return out


def _garden(value: Any, ctx: Ctx) -> list[float]:
    out = [0.0] * len(BUILDING_IDS)
    for building in value:
        out[BUILDING_IDS.index(building["id"])] += 1.0
    return out


def _rewards_for_me(value: Any, ctx: Ctx) -> list[float]:
    for entry in value:
        if entry["player"] == ctx.viewer:
            return [float(entry["count"]), 1.0 if entry["feed_only"] else 0.0]
    return [0.0, 0.0]


def fast_encoder(sp: Spec) -> FastEncode:
    """The observation written straight from the state: the same numbers ``view(p)`` gives the schema.

    It reads the fields ``FarmeramaState.view`` (and ``render.board_view``) read: another seat's chosen
    cards only as a count until they are revealed, and the solo stacks only as sizes, the known bottom
    and the discard. Blocks are precomputed bytes (:mod:`farmtable.rl.fast`); a farmland's areas and
    stable are cached by its beds and pasture, and a farmland equal (by value: beds, pasture, barn,
    products, garden, wheel, boss count) to the one last encoded for that seat reuses its whole block.
    The encoder is :func:`farmtable.rl.fast.from_joined` of a function that returns the observation's
    bytes (session 18).
    """
    players = sp.players
    seats = f.rotations(players)
    actors_of = f.seat_set_memo(players)
    seat_of = f.seat_sets(players)
    num, small, floats, memo = f.num, f.NUM, f.floats, f.Memo
    n_cards = len(c.CARDS)
    phase_of = f.one_hots(PHASES)
    card_of = f.one_hots(tuple(range(n_cards)))
    card_of[rules.NO_CARD] = card_of[None]
    wheel_of = f.one_hots(tuple(range(c.AREA_COUNT)))

    def pair_block(values: c.WheelValues) -> bytes:
        return floats([*values.sow, *values.harvest, *values.water])

    wheel = c.action_wheel_of(sp.variants)  # the wheel this spec's games play with
    sections = [
        f.one_hot(len(SECTIONS), i) + pair_block(wheel[i]) + pair_block(wheel[(i + 1) % len(wheel)])
        for i in range(len(wheel))
    ]
    building_of = {i: f.one_hot(len(BUILDING_IDS), BUILDING_IDS.index(b.id)) for i, b in enumerate(c.BUILDINGS)}
    no_building = f.zeros(len(BUILDING_IDS))
    beds_width = max(c.AREA_BED_COUNTS)
    plant_of = {g: f.one_hot(len(PLANTS), PLANTS.index(c.GOODS[g])) for g in c.FEEDS}
    plant_of[render.EMPTY] = f.zeros(len(PLANTS))
    bed_padding = [f.zeros(len(PLANTS) * (beds_width - len(beds))) for beds in c.BEDS_OF_AREA]
    counts = f.counts
    choice_width = _CHOICE_WIDTH
    no_choice = f.zeros(choice_width)
    acting_width = _ACTING_WIDTH
    no_acting = f.zeros(acting_width)
    has_award_block = f.zeros(players + 2)
    no_boss = f.zeros(players + 1)
    n_solo = 1 + n_cards + 1 + 1 + 1 + 2 * n_cards
    no_solo = f.zeros(n_solo)
    pack_goods = struct.Struct(f"={len(c.GOODS)}f").pack
    pack_products = struct.Struct(f"={len(c.PRODUCT_KEYS)}f").pack
    garden_memo, display_memo, cards_memo = memo(), memo(), memo()
    farmland_memo: dict[Any, tuple[bytes, bytes]] = {}  # (beds, pasture) -> (areas and stable, scarecrows)
    choose, award, act = rules.CHOOSE, rules.AWARD, rules.ACT
    last_board: list[tuple[Any, ...]] = [(None,) * 7] * players
    """Per seat, what its farmland block was made of when last encoded (beds, pasture, barn, products,
    garden, wheel, boss count) and the block in ``last_block``: an equal farmland reuses the block."""
    last_block = [b""] * players

    def areas(beds: tuple[int, ...], pasture: tuple[int, ...]) -> bytes:
        parts: list[bytes] = []
        for area in range(c.AREA_COUNT):
            parts.extend(plant_of[beds[bed]] for bed in c.BEDS_OF_AREA[area])
            parts.append(bed_padding[area])
            parts.append(small[beds[c.SCARECROW_BED[area]] == render.EMPTY])
            parts.append(floats([1.0 if where == area else 0.0 for where in pasture]))
        parts.append(floats([1.0 if where == render.EMPTY else 0.0 for where in pasture]))
        return b"".join(parts)

    def card_counts(cards: list[int]) -> bytes:
        key = tuple(cards)
        block = cards_memo.get(key)
        if block is None:
            block = cards_memo.add(key, counts(range(n_cards), key))
        return block

    def joined(state: State[Any], player: int) -> bytes:
        s: Any = state
        phase = s.phase
        boards = s.boards
        actors = s.actors()
        display_key = tuple(s.display)
        display = display_memo.get(display_key)
        if display is None:
            blocks = [building_of[b] for b in display_key]
            blocks += [no_building] * (c.DISPLAY_SIZE - len(blocks))
            display = display_memo.add(display_key, b"".join(blocks))
        parts = [
            num(s.round),
            phase_of[phase],
            actors_of(player, actors),
            sections[s.action_wheel],
            pack_goods(*s.supply),
            display,
            num(len(s.stack)),
            num(len(s.removed)),
        ]
        order = seats[player]
        # card choices, per seat from the viewer: the same for every viewer but rotated
        if s.solo:
            parts.append(no_choice * players)
        else:
            for q in order:
                cards = boards[q].cards
                if not cards:
                    parts.append(no_choice)
                elif phase == choose:  # still secret: finished?, cards face down
                    done = len(cards) == s.cards_to_choose(q)
                    parts.append(small[done] + num(len(cards)) + f.zeros(n_cards))
                else:
                    parts.append(small[1] + small[0] + card_counts(cards))
        for q in order:  # each farmland (inline: a call per board costs more than most of its blocks)
            b = boards[q]
            last = last_board[q]
            if (  # as this seat's farmland was when last encoded (by value: any state, any viewer)
                b.beds == last[0]
                and b.pasture == last[1]
                and b.barn == last[2]
                and b.products == last[3]
                and b.garden == last[4]
                and b.wheel == last[5]
                and b.boss_count == last[6]
            ):
                parts.append(last_block[q])
                continue
            key = (tuple(b.beds), tuple(b.pasture))
            known = farmland_memo.get(key)
            if known is None:
                if len(farmland_memo) >= f.MEMO_SIZE:
                    farmland_memo.clear()
                known = farmland_memo[key] = (areas(*key), small[b.scarecrows()])
            garden_key = tuple(b.garden)
            garden = garden_memo.get(garden_key)
            if garden is None:
                garden = garden_memo.add(garden_key, counts(range(len(c.BUILDINGS)), garden_key))
            block = b"".join(
                (
                    pack_goods(*b.barn),
                    wheel_of[b.wheel],
                    known[0],
                    pack_products(*b.products),
                    garden,
                    known[1],
                    num(b.boss_count),
                )
            )
            last_board[q] = (b.beds[:], b.pasture[:], b.barn[:], b.products[:], b.garden[:], b.wheel, b.boss_count)
            last_block[q] = block
            parts.append(block)
        parts.append(card_counts(boards[player].cards))
        if players == 3:
            parts.append(seat_of[player][s.boss] + small[bool(s.final_rounds)])
        else:
            parts.append(no_boss)
        if phase == award:
            mine = small[0] + small[0]
            for gain in s.gains:
                if gain[0] == player:
                    mine = num(gain[1]) + small[bool(gain[2])]
                    break
            parts.append(seat_of[player][s.chooser] + mine)
        else:
            parts.append(has_award_block)
        if phase == act:
            acting = set(actors)
            for q in order:
                if q in acting:
                    b = boards[q]
                    parts.append(small[1] + card_of[b.current] + num(b.remaining) + card_counts(b.pending))
                else:
                    parts.append(no_acting)
        else:
            parts.append(no_acting * players)
        if s.solo:
            parts.append(num(s.turn))
            parts.append(card_of[s.revealed])
            parts.append(num(s.tokens))
            parts.append(num(len(s.action_stack)))
            parts.append(num(len(s.supply_stack)))
            parts.append(card_counts(s.discard))
            parts.append(card_counts(s.action_stack[: s.known_bottom]))
        else:
            parts.append(no_solo)
        return b"".join(parts)

    return f.from_joined(joined)


def solo_score(result: Result) -> float:
    """Solo: the points scored (the solo goal is 150)."""
    return float(result.totals[0])


def solo_win(result: Result) -> float:
    """Solo: +1 reaching the goal of 150 points, −1 otherwise."""
    return 1.0 if result.details.get("solo_goal_reached") else -1.0


RL_GAME = RLGame(
    game_id="farmerama",
    name="Farmerama",
    actions=actions,
    schema=schema,
    solo_score=solo_score,
    solo_win=solo_win,
    simultaneous=True,
    max_game_length=20000,
    fast=fast_encoder,
    notes="Phase 1 is simultaneous: another seat's chosen cards are encoded only as 'cards face down' until "
    "revealed. The wheel-sector labels of the areas are not encoded (they follow from `player_wheel`), nor "
    "the building reward texts (they follow from the building id).",
    solo_doc="solo `score` = points; solo `win` = +1 reaching the solo goal of 150 points, else −1.",
)
