"""Farmerama for RL: the fixed action catalogue and the observation schema.

Notation: ``docs/games/farmerama.md``; data: ``games/farmerama/components.py``.
Phase 1 (choosing action cards) is simultaneous: every seat chooses face down. The view shows
only how many cards another seat has put down until they are revealed, and so does the
observation.
"""

from __future__ import annotations

import re
from typing import Any

from farmtable.core import Result
from farmtable.games.farmerama import components as c
from farmtable.rl.catalogue import RLGame
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
SECTIONS = tuple(range(len(c.ACTION_WHEEL)))
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
                Fields(
                    (
                        ("player", Seat("acting seat")),
                        ("card", OneHot(c.CARDS, "card being played")),
                        ("remaining", Num(high=20, doc="actions left on it")),
                        ("still_to_do", Counts(c.CARDS, high=1, doc="cards still to play")),
                    )
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
    notes="Phase 1 is simultaneous: another seat's chosen cards are encoded only as 'cards face down' until "
    "revealed. The wheel-sector labels of the areas are not encoded (they follow from `player_wheel`), nor "
    "the building reward texts (they follow from the building id).",
    solo_doc="solo `score` = points; solo `win` = +1 reaching the solo goal of 150 points, else −1.",
)
