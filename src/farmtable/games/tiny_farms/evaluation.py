"""How good a position is: the evaluation that the greedy agent and the search use.

``evaluate(state)`` estimates every player's final objective on the scale of the result
(``Result.totals``; solo: ``Result.objective``, the margin over Farmer Emma):

    estimate = the score as it stands (solo: the margin as it stands) + w · features(position)

The features say what the position is still worth for the rest of the game: room left in the
farms, pigs and sheep that can still grow into sets, cows and calves that can still meet,
the next Forest Friend kind, the horse race, balance, milk, the animals just collected and
not yet written; solo also Emma's tracks (a full track turns her animals into chickens). Most
are multiplied by the share of the game still to play, so they fade to nothing at the end,
where the estimate is exactly the result's objective.

The weights ``w`` are data (``weights.json`` beside this file), fitted by least squares of the
final objective on positions of self-play games by ``benchmarks/fit/tiny_farms.py``.
``heuristic(state, p)`` is the same estimate: solo the expected margin, with several players
p's expected total minus the best rival's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms import lookahead, scoring
from farmtable.games.tiny_farms.rules import (
    CROP,
    DIE_ACTIONS,
    HORSES_ZERO_RANKS,
    MOVE,
    OVER,
    PLACE,
    SOLO_CELLS,
    VISIBLE,
    TinyFarmsState,
)

WEIGHTS_FILE: Final = Path(__file__).with_name("weights.json")

SCALED_FEATURES: Final = (
    "left",
    "empty",
    "empty_min",
    "pig_open",
    "sheep_open",
    "sheep_pair_open",
    "cow_gain",
    "calf_gain",
    "ff_next",
    "horse_lead",
    "imbalance",
    "milk",
)
"""Features multiplied by the share of the game still to play (``left`` is that share itself)."""
NOW_FEATURES: Final = ("to_move",)
"""Features of this round only: the player still takes a die this round (two more animals)."""
PLAYER_FEATURES: Final = SCALED_FEATURES + NOW_FEATURES
"""The features of the two-to-four-player model (each player's own vector)."""

HORSE_LEAD_CAP: Final = 3
"""The horse lead (own horses minus the best rival's) counts up to this many either way."""


@cache
def weights() -> dict[str, dict[str, float]]:
    """The fitted weights: ``{"players": {feature: w}, "solo": {feature: w}}`` from ``weights.json``."""
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    models = {name: {k: float(v) for k, v in data[name]["weights"].items()} for name in ("players", "solo")}
    for name, expected in (("players", PLAYER_FEATURES), ("solo", SOLO_FEATURES)):
        if set(models[name]) != set(expected):
            raise ValueError(f"{WEIGHTS_FILE.name}: the '{name}' model must weigh exactly {', '.join(expected)}")
    return models


def share_left(state: TinyFarmsState) -> float:
    """The share of the game's rounds still to play, this round included (0 once over)."""
    if state.phase == OVER:
        return 0.0
    return (state.rounds - state.round + 1) / state.rounds


def _moves_left(state: TinyFarmsState, who: int) -> int:
    """1 if ``who`` (a player, or ``c.EMMA``) still has a die to take this round, else 0."""
    if state.phase == OVER:
        return 0
    if state.phase == MOVE and state.current == who and who != c.EMMA:
        return 1
    return int(who in state.order[state.turn_index + 1 :])


def features(state: TinyFarmsState) -> list[dict[str, float]]:
    """Every player's feature vector (solo: one vector with Emma's features added)."""
    if state.solo:
        return [solo_parts(state)[1]]
    return [feats for _, feats in player_parts(state)]


def objective_now(state: TinyFarmsState) -> list[float]:
    """The objective as it stands: solo the margin over Emma, otherwise each player's total."""
    result = state.result()
    if state.solo:
        return [float(result.totals[0] - result.details["emma_total"])]  # = Result.objective, the margin
    return [float(t) for t in result.totals]


def evaluate(state: TinyFarmsState) -> list[float]:
    """Each player's expected final objective (solo: the margin over Emma); exact once the game is over."""
    if state.phase == OVER:
        return objective_now(state)
    if state.solo:
        return [solo_estimate(state)]
    w = _players_model()
    return [base + sum(a * b for a, b in zip(w, _vector(feats), strict=True)) for base, feats in player_parts(state)]


def heuristic(state: TinyFarmsState, player: int) -> float:
    """Solo: the expected final margin over Emma; otherwise p's expected total minus the best rival's."""
    estimate = evaluate(state)
    if state.solo:
        return estimate[0]
    return estimate[player] - max(v for q, v in enumerate(estimate) if q != player)


# --- Solo: the rest of this round played out exactly, then a fitted estimate of the rounds to come ---

SOLO_FARM_FEATURES: Final = (
    "empty",
    "empty_min",
    "pig_open",
    "sheep_open",
    "sheep_pair_open",
    "cow_gain",
    "calf_gain",
)
"""Per-farm room and set potential (summed over the two farms; ``empty_min`` is the fuller farm's room)."""
SOLO_SCALED_FEATURES: Final = (
    "left",
    *SOLO_FARM_FEATURES,
    "ff_next",
    "horse_lead",
    "horse_tied",
    "imbalance",
    "milk",
    "emma_gain",
    "emma_full_tracks",
)
"""Solo features multiplied by the share of rounds still to come after this one (0 in the last round)."""
SOLO_NOW_FEATURES: Final = ("to_move", "to_move_left", "emma_to_move", "emma_target_gain", "round_gain", "next_gain")
"""Solo features of an unfinished turn: the player (and Emma) still to take a die this round; the best
net gain of the player's die still to choose with the dice rolled (``round_gain``); the best net gain
of the next round, in expectation over its dice, with the wheel as this round leaves it (``next_gain``)."""
SOLO_FEATURES: Final = SOLO_SCALED_FEATURES + SOLO_NOW_FEATURES

FarmInfo = tuple[int, int, tuple[float, ...]]
"""(points of the farm's own lines and crops, used spaces, :data:`SOLO_FARM_FEATURES` except ``empty_min``)."""


@lru_cache(maxsize=1 << 17)
def farm_info(farm: tuple[int, ...]) -> FarmInfo:
    """One farm's points (pigs, sheep, chickens, cows, crops), used spaces and potential features (cached)."""
    empty = sum(1 for v in farm if v == c.EMPTY)
    room = tuple(any(farm[n] == c.EMPTY for n in scoring.NEIGHBOURS[i]) for i in range(c.FARM_CELLS))
    pig_mask = sheep_mask = 0
    pigs = sheep = open_pigs = open_sheep = 0
    for i, v in enumerate(farm):
        if v == c.PIG:
            pig_mask |= 1 << i
            pigs += 1
            open_pigs += room[i]
        elif v == c.SHEEP:
            sheep_mask |= 1 << i
            sheep += 1
            open_sheep += room[i]
    pig_pts = scoring.pig_points(pig_mask)
    sheep_pts = scoring.sheep_points(sheep_mask)
    paired_pigs = (pig_pts - pigs) // (c.PIG_PAIR_POINTS - 2 * c.PIG_SINGLE_POINTS) * 2
    triples, rest = divmod(sheep_pts, c.SHEEP_TRIPLE_POINTS)
    pairs = rest // c.SHEEP_PAIR_POINTS
    loose = sheep - triples * c.SHEEP_SET_SIZE
    pair_open = min(pairs, open_sheep)
    single_open = min(max(loose - 2 * pairs, 0), max(open_sheep - 2 * pair_open, 0))
    # Cow groups: a new cow next to a group with room scores its calves, new calves score 2 per cow.
    cow_gain = calf_gain = 0
    cow_pts = 0
    for cows, calves, cells in scoring.cow_groups(farm):
        cow_pts += cows * calves
        if any(room[cell] for cell in cells):
            cow_gain = max(cow_gain, calves)
            calf_gain = max(calf_gain, c.CALVES_PER_SPACE * cows)
    chickens = c.CHICKEN_POINTS * sum(1 for v in farm if v == c.CHICKEN)
    points = pig_pts + sheep_pts + chickens + cow_pts + scoring.crop_points(farm)
    used = sum(1 for v in farm if v != c.EMPTY and v != c.CROSSED)
    feats = (
        float(empty),
        float(min(pigs - paired_pigs, open_pigs)),
        float(single_open),
        float(pair_open),
        float(cow_gain),
        float(calf_gain),
    )
    return points, used, feats


_FARM_NAMES_NO_MIN: Final = tuple(n for n in SOLO_FARM_FEATURES if n != "empty_min")

TRACK_ANIMAL: Final = tuple(kinds[0] for _, kinds, _ in c.EMMA_TRACKS[: c.EMMA_DIE_TRACKS])
"""One animal of each of Emma's die tracks (1 Forest Friend, 2 sheep, 3 pig, 4 horse, 5 cow, 6 calves)."""
TRACK_OF: Final = {animal: t for t, (_, kinds, _) in enumerate(c.EMMA_TRACKS) for animal in kinds}


def emma_take(filled: tuple[int, ...] | list[int], animals: tuple[int, ...] | list[int]) -> list[int]:
    """Emma's circles after she takes ``animals``: as the rules fill them (a full track takes a chicken)."""
    after = list(filled)
    for animal in animals:
        track = TRACK_OF[animal]
        amount = c.CALVES_PER_SPACE if animal == c.CALVES else 1
        if after[track] >= c.EMMA_TRACKS[track][2]:
            track, amount = c.EMMA_CHICKENS, 1
        after[track] = min(c.EMMA_TRACKS[track][2], after[track] + amount)
    return after


EmmaTerms = tuple[int, int, tuple[int, ...], int]
"""(the player's horse points, Emma's total, her gain from one animal of each die track, her full tracks)."""


@lru_cache(maxsize=1 << 15)
def emma_terms(filled: tuple[int, ...], horses: int, least: int) -> EmmaTerms:
    """Emma's side of a solo position with the player's ``horses`` (cached): her total and what comes next."""
    hp = scoring.horse_points([horses, filled[c.EMMA_HORSES]], two_player_rules=True, min_horses=least)
    now = sum(scoring.emma_sheet(filled, hp[1]).values())
    gains = []
    for animal in TRACK_ANIMAL:
        after = emma_take(filled, (animal,))
        hp_after = scoring.horse_points([horses, after[c.EMMA_HORSES]], two_player_rules=True, min_horses=least)
        gains.append(sum(scoring.emma_sheet(after, hp_after[1]).values()) - now)
    full = sum(filled[t] >= c.EMMA_TRACKS[t][2] for t in range(c.EMMA_DIE_TRACKS))
    return hp[0], now, tuple(gains), full


_EMPTY_MIN: Final = SOLO_FEATURES.index("empty_min")
_IMBALANCE: Final = SOLO_FEATURES.index("imbalance")
_MILK: Final = SOLO_FEATURES.index("milk")
_FARM_INDEX: Final = tuple(SOLO_FEATURES.index(n) for n in _FARM_NAMES_NO_MIN)
_GLOBAL_ANIMALS: Final = frozenset((c.HORSE, *c.FOREST_FRIENDS))
"""Animals scored across both farms (a crop crossing one out changes more than its farm)."""


def _farm_vector(w: tuple[float, ...]) -> tuple[float, ...]:
    """The weights of the per-farm features, in :func:`farm_info` order."""
    return tuple(w[k] for k in _FARM_INDEX)


_VECTOR: list[tuple[dict[str, float], tuple[float, ...]]] = []
"""The solo weights last turned into a vector, kept with the dict they came from (see :func:`_solo_model`)."""


def _solo_model() -> tuple[float, ...]:
    """The solo weights in :data:`SOLO_FEATURES` order (rebuilt when the weights are reloaded)."""
    model = weights()["solo"]
    if not _VECTOR or _VECTOR[0][0] is not model:
        _VECTOR[:] = [(model, tuple(model[n] for n in SOLO_FEATURES))]
        _farm_potential.cache_clear()
        _kind_gains.cache_clear()
        _option_values.cache_clear()
        _solo_place.cache_clear()
    return _VECTOR[0][1]


@lru_cache(maxsize=1 << 17)
def _farm_potential(farm: tuple[int, ...]) -> float:
    """The weighted per-farm features of one farm (cached; cleared when the weights change)."""
    fw = _farm_vector(_VECTOR[0][1])
    return sum(a * b for a, b in zip(fw, farm_info(farm)[2], strict=True))


class _Solo:
    """The solo position with this round played out as far as it is known."""

    __slots__ = ("board", "emma_next", "filled", "known", "left", "milk", "target", "to_move", "wheel")

    def __init__(self, board: list[int], milk: int, filled: list[int], left: float) -> None:
        self.board = board
        self.milk = milk
        self.filled = filled
        self.left = left
        self.to_move = 0
        self.emma_next = 0
        self.target = 0
        self.wheel: tuple[int, int, int, bool] | None = None
        """(rotation, red, blue, Emma first) of the next round once this round is known; None: no next round."""
        self.known: tuple[int, int, int, tuple[int, ...], int, bool] | None = None
        """The die still to choose this round: (rotation, red, blue, dice, Emma's target, Emma after)."""


def _horses_and_forest_friends(board: Sequence[int]) -> tuple[int, list[int]]:
    """The horses on a player's board (both farms), and how many of each Forest Friend."""
    horses = 0
    counts = [0] * len(c.FOREST_FRIENDS)
    for v in board:
        if v == c.HORSE:
            horses += 1
        elif c.RACCOON <= v <= c.BUNNY:
            counts[v - c.RACCOON] += 1
    return horses, counts


def _features(s: _Solo, least: int) -> tuple[float, tuple[float, ...]]:
    """(margin as it stands, the features in :data:`SOLO_FEATURES` order) of a resolved solo position."""
    board = s.board
    red = farm_info(tuple(board[: c.FARM_CELLS]))
    blue = farm_info(tuple(board[c.FARM_CELLS :]))
    horses, counts = _horses_and_forest_friends(board)
    my_horse_points, emma_now, gains, full = emma_terms(tuple(s.filled), horses, least)
    imbalance = abs(red[1] - blue[1])
    total = (
        red[0]
        + blue[0]
        + my_horse_points
        + scoring.forest_points(counts)
        + s.milk * c.MILK_POINTS
        - imbalance * c.BALANCE_PENALTY
    )
    margin = float(total - emma_now)
    left = s.left
    kinds = sum(1 for n in counts if n)
    ffp = c.FOREST_SET_POINTS
    emma_horses = s.filled[c.EMMA_HORSES]
    lead = max(-HORSE_LEAD_CAP, min(HORSE_LEAD_CAP, horses - emma_horses))
    rf, bf = red[2], blue[2]
    round_gain = next_gain = 0.0
    if s.known is not None or s.wheel is not None:
        rotation = s.known[0] if s.known is not None else s.wheel[0]  # type: ignore[index]
        values = _option_values(
            tuple(board[: c.FARM_CELLS]),
            tuple(board[c.FARM_CELLS :]),
            tuple(s.filled),
            rotation,
            least,
            left,
            s.milk > 0,
        )
        if s.known is not None:
            rot, r, b, dice, target, emma_after = s.known
            round_gain = lookahead.best_known(
                lookahead.known_options(rot, r, b, dice, target, emma_after, s.milk > 0), values
            )
        else:
            rot, r, b, emma_first = s.wheel  # type: ignore[misc]
            next_gain = lookahead.expected_best(lookahead.round_table(rot, r, b, emma_first), values)
    feats = (
        left,
        left * (rf[0] + bf[0]),
        left * min(rf[0], bf[0]),
        *(left * (x + y) for x, y in zip(rf[1:], bf[1:], strict=True)),
        left * (ffp[min(kinds + 1, len(ffp) - 1)] - ffp[kinds]),
        left * lead,
        left * (horses == emma_horses),
        left * imbalance,
        left * s.milk,
        left * sum(gains) / len(gains),
        left * full,
        float(s.to_move),
        s.to_move * left,
        float(s.emma_next),
        float(gains[s.target - 1]) if s.emma_next and s.target else 0.0,
        round_gain,
        next_gain,
    )
    return margin, feats


def _estimate(s: _Solo, least: int, w: tuple[float, ...]) -> float:
    """The estimated final margin of a resolved solo position."""
    margin, feats = _features(s, least)
    return margin + sum(a * b for a, b in zip(w, feats, strict=True))


def _farm_score(farm: tuple[int, ...], left: float, potential: Callable[[tuple[int, ...]], float]) -> float:
    """A farm's own points plus its weighted ``potential``: what a placement in this farm changes."""
    return farm_info(farm)[0] + left * potential(farm)


def _place_in_farm(
    farm: tuple[int, ...],
    animals: list[int],
    left: float,
    potential: Callable[[tuple[int, ...]], float] | None = None,
) -> tuple[int, ...]:
    """One farm after writing ``animals`` where it scores best (greedy per animal, both orders)."""
    potential = potential or _farm_potential
    best_farm = farm
    best = -math.inf
    orders = [animals] if len(animals) < 2 or animals[0] == animals[1] else [animals, animals[::-1]]
    for order in orders:
        cells = list(farm)
        for animal in order:
            choice: tuple[int, ...] | None = None
            choice_value = -math.inf
            for i, v in enumerate(cells):
                if v != c.EMPTY:
                    continue
                cells[i] = animal
                trial = tuple(cells)
                cells[i] = c.EMPTY
                value = _farm_score(trial, left, potential)
                if value > choice_value:
                    choice, choice_value = trial, value
            if choice is None:  # the farm is full: the animal is lost
                break
            cells = list(choice)
        value = _farm_score(tuple(cells), left, potential)
        if value > best:
            best, best_farm = value, tuple(cells)
    return best_farm


@lru_cache(maxsize=1 << 14)
def _solo_place(farm: tuple[int, ...], animals: tuple[int, ...], left: float) -> tuple[int, ...]:
    """:func:`_place_in_farm` with the solo potential, remembered (an expectimax meets the same
    placement under many rolls; cleared when the weights change)."""
    return _place_in_farm(farm, list(animals), left)


def _best_placement(board: list[int], farm: int, animals: list[int], left: float) -> list[int]:
    """The board after writing ``animals`` into ``farm`` where it scores best (greedy per animal, both orders)."""
    base = farm * c.FARM_CELLS
    out = list(board)
    out[base : base + c.FARM_CELLS] = _solo_place(tuple(board[base : base + c.FARM_CELLS]), tuple(animals), left)
    return out


MILK_COST: Final = 1.0
"""What a milk token spent on a die costs in the round gains (the point it scores if kept)."""


@lru_cache(maxsize=1 << 16)
def _kind_gains(farm: tuple[int, ...], left: float) -> tuple[float, ...]:
    """What one more animal of each kind adds to a farm's points and weighted potential (by animal code).

    A quick reading of :func:`farm_info`'s sets with room, not a placement search: a pig completes a
    pair with room (or starts one), a sheep grows a pair with room into a triple (or a single into a
    pair), a cow joins the group with room that has most calves, calves the one with most cows.
    Horses and Forest Friends score across the farms (see :func:`_option_values`): here they only
    take a space.
    """
    points, _, (empty, pig_open, single_open, pair_open, cow_gain, calf_gain) = farm_info(farm)
    del points
    w = _farm_vector(_solo_model())
    w_empty, w_pig, w_single, w_pair, w_cow, w_calf = w
    room = left * -w_empty
    gains = [0.0] * (max(c.ANIMALS) + 1)
    for animal in c.ANIMALS:
        gains[animal] = room
    gains[c.CHICKEN] += c.CHICKEN_POINTS
    if pig_open:
        gains[c.PIG] += c.PIG_PAIR_POINTS - c.PIG_SINGLE_POINTS - left * w_pig
    else:
        gains[c.PIG] += c.PIG_SINGLE_POINTS + (left * w_pig if empty > 1 else 0.0)
    if pair_open:
        gains[c.SHEEP] += c.SHEEP_TRIPLE_POINTS - c.SHEEP_PAIR_POINTS - left * w_pair
    elif single_open:
        gains[c.SHEEP] += c.SHEEP_PAIR_POINTS + left * (w_pair - w_single)
    elif empty > 1:
        gains[c.SHEEP] += left * w_single
    gains[c.COW] += cow_gain + left * w_calf * c.CALVES_PER_SPACE
    gains[c.CALVES] += calf_gain + left * w_cow * c.CALVES_PER_SPACE
    return tuple(gains)


def _pair_gain(farm: tuple[int, ...], pair: tuple[int, int], left: float) -> tuple[float, tuple[int, ...]]:
    """(Change of the farm's points and weighted potential, the animals written) for a pair taken into it."""
    empty = farm_info(farm)[2][0]
    if not empty:
        return 0.0, ()
    gains = _kind_gains(farm, left)
    a, b = pair
    if empty == 1:
        return (gains[a], (a,)) if gains[a] >= gains[b] else (gains[b], (b,))
    value = gains[a] + gains[b]
    if {a, b} == {c.COW, c.CALVES} and not farm_info(farm)[2][4]:
        value += c.CALVES_PER_SPACE  # a new cow with its own calves
    return value, pair


@lru_cache(maxsize=1 << 14)
def _emma_pair_loss(filled: tuple[int, ...], horses: int, least: int, pair: tuple[int, int]) -> float:
    """What Emma taking ``pair`` costs the player's margin: her gain, plus the horse points it takes away."""
    my_points, now, _, _ = emma_terms(filled, horses, least)
    after = emma_take(filled, pair)
    my_after, then, _, _ = emma_terms(tuple(after), horses, least)
    return float(then - now) - float(my_after - my_points)


@lru_cache(maxsize=1 << 14)
def _option_values(
    red: tuple[int, ...],
    blue: tuple[int, ...],
    filled: tuple[int, ...],
    rotation: int,
    least: int,
    left: float,
    milk: bool,
) -> NDArray[np.float64]:
    """The net value of every round option (:mod:`lookahead`) for this board, Emma's card and wheel turn."""
    board = red + blue
    farms = (red, blue)
    used = (farm_info(red)[1], farm_info(blue)[1])
    horses, counts = _horses_and_forest_friends(board)
    my_points, emma_now, _, _ = emma_terms(filled, horses, least)
    ff_now = scoring.forest_points(counts)
    gain = np.zeros((2, lookahead.SPACES))
    for f in (c.RED, c.BLUE):
        other = used[1 - f]
        before = abs(used[f] - other)
        for space in range(lookahead.SPACES):
            delta, placed = _pair_gain(farms[f], VISIBLE[rotation][space], left)
            if not placed:
                continue
            value = delta - (abs(used[f] + len(placed) - other) - before) * c.BALANCE_PENALTY
            new_horses = sum(1 for a in placed if a == c.HORSE)
            if new_horses:
                mine, emma, _, _ = emma_terms(filled, horses + new_horses, least)
                value += (mine - my_points) - (emma - emma_now)
            if any(c.RACCOON <= a <= c.BUNNY for a in placed):
                more = list(counts)
                for a in placed:
                    if c.RACCOON <= a <= c.BUNNY:
                        more[a - c.RACCOON] += 1
                value += scoring.forest_points(more) - ff_now
            gain[f, space] = value
    emma_loss = np.zeros(lookahead.SPACES + 1)
    for space in range(lookahead.SPACES):
        emma_loss[space] = _emma_pair_loss(filled, horses, least, VISIBLE[rotation][space])
    values = lookahead.option_values(gain, emma_loss, MILK_COST, milk)
    values.flags.writeable = False
    return values


def _board_part(board: list[int], milk: int, left: float, w: tuple[float, ...]) -> float:
    """The part of the estimate a crop can change: both farms, their balance, milk (the rest is constant)."""
    return _farms_part(tuple(board[: c.FARM_CELLS]), tuple(board[c.FARM_CELLS :]), milk, left, w)


def _farms_part(
    red_farm: tuple[int, ...], blue_farm: tuple[int, ...], milk: int, left: float, w: tuple[float, ...]
) -> float:
    """:func:`_board_part` of the board made of these two farms (the same arithmetic, the farms given)."""
    red = farm_info(red_farm)
    blue = farm_info(blue_farm)
    value = _farm_score(red_farm, left, _farm_potential) + _farm_score(blue_farm, left, _farm_potential)
    imbalance = abs(red[1] - blue[1])
    value += left * w[_EMPTY_MIN] * min(red[2][0], blue[2][0])
    value += imbalance * (left * w[_IMBALANCE] - c.BALANCE_PENALTY)
    return value + milk * (c.MILK_POINTS + left * w[_MILK])


def _best_crop(s: _Solo, value: int, may_change: bool, least: int, w: tuple[float, ...]) -> _Solo:
    """The solo position after the best crop for a leftover die of ``value`` (milk may change it by one)."""
    options = [(value, 0)]
    if may_change and s.milk > 0:
        options += [(v, 1) for v in (value - 1, value + 1) if c.MIN_DIE_VALUE <= v <= c.DIE_FACES]
    # Planting changes only the farms and milk: rate by that part, plus what stays as it is. The
    # part that stays is the same for every crop, so it is needed only when one of them crosses out
    # a horse or a Forest Friend (rated by the whole estimate): otherwise the parts alone decide.
    crossing = any(
        s.board[i] in _GLOBAL_ANIMALS and all(s.board[j] != c.EMPTY for j in SOLO_CELLS[v])
        for v, _ in options
        for i in SOLO_CELLS[v]
    )
    constant = _estimate(s, least, w) - _board_part(s.board, s.milk, s.left, w) if crossing else 0.0
    red_farm = tuple(s.board[: c.FARM_CELLS])
    blue_farm = tuple(s.board[c.FARM_CELLS :])
    best_board: list[int] = s.board
    best_milk = s.milk
    best_value = -math.inf
    for v, cost in options:
        cells = SOLO_CELLS[v]
        targets = [(i, c.CROP) for i in cells if s.board[i] == c.EMPTY]
        if not targets:
            targets = [(i, c.CROSSED) for i in cells if s.board[i] != c.CROSSED]
        milk = s.milk - cost
        for i, mark in targets or [(-1, c.EMPTY)]:
            board = list(s.board)
            if i >= 0:
                board[i] = mark
            if i >= 0 and s.board[i] in _GLOBAL_ANIMALS:  # crossing out a horse or Forest Friend
                trial = _Solo(board, milk, s.filled, s.left)
                trial.wheel = s.wheel
                estimate = _estimate(trial, least, w)
            elif i < 0:
                estimate = constant + _farms_part(red_farm, blue_farm, milk, s.left, w)
            elif i < c.FARM_CELLS:  # only the changed farm is read anew (the same value as the whole board's)
                estimate = constant + _farms_part(tuple(board[: c.FARM_CELLS]), blue_farm, milk, s.left, w)
            else:
                estimate = constant + _farms_part(red_farm, tuple(board[c.FARM_CELLS :]), milk, s.left, w)
            if estimate > best_value:
                best_board, best_milk, best_value = board, milk, estimate
    best = _Solo(best_board, best_milk, s.filled, s.left)
    best.wheel = s.wheel
    return best


def resolve(state: TinyFarmsState) -> _Solo:
    """The solo position with the known rest of this round played: best placement, Emma's reply, best crop.

    Emma's choice is fixed by the rules once the player's die is gone (solo "Playing a Round"), and
    the die she leaves decides the crop. A die still to choose (``MOVE``) is played out by its best
    die and farmer (:data:`ROUND_START_BEST_DIE`; otherwise it stays open, counted by the
    ``to_move`` and ``round_gain`` features), except a round the player starts, valued as before its
    roll (:data:`ROUND_START_BEFORE_ROLL`). Placements and the crop are chosen by this same
    evaluation. The wheel as the round leaves it is kept for the next round's options (``next_gain``).
    """
    rounds_after = state.rounds - state.round if state.phase != OVER else 0
    s = _Solo(list(state.boards[0]), state.milk[0], list(state.emma_filled), rounds_after / state.rounds)
    least = least_horses(state)
    w = _solo_model()
    next_round = state.round < state.rounds
    emma_first_next = (state.round + 1) % 2 == 0
    if state.phase == MOVE:
        if ROUND_START_BEFORE_ROLL and not state.modifier and not state.turn_index and state.order[0] != c.EMMA:
            # a round the player starts: valued as just before its roll (the next round's options in expectation)
            s.left = (state.rounds - state.round + 1) / state.rounds
            s.wheel = (state.rotation, state.red, state.blue, False)
            return s
        if state.modifier or ROUND_START_BEST_DIE:
            return _best_die(state, least, w)
        s.to_move = 1
        s.emma_next = int(c.EMMA in state.order[state.turn_index + 1 :])
        s.target = state.emma_target
        s.known = (state.rotation, state.red, state.blue, tuple(state.dice), state.emma_target, bool(s.emma_next))
        return s
    if state.phase == PLACE:
        if state.pending:
            s.board = _best_placement(s.board, state.pending_farm, list(state.pending), s.left)
        dice = list(state.dice)
        red, blue = state.red, state.blue
        if c.EMMA in state.order[state.turn_index + 1 :]:
            emma_view = state
            if state.advanced:  # advanced Emma compares horses: she sees the animals just written
                emma_view = state.clone()
                emma_view.boards[0] = s.board
            die, farm, space, animals = emma_view.emma_choice()
            dice.remove(die)
            s.filled = emma_take(s.filled, animals)
            red, blue = (space, blue) if farm == c.RED else (red, space)
        if next_round:
            s.wheel = ((state.rotation + dice[0]) % c.WHEEL_SPACES, red, blue, emma_first_next)
        return _best_crop(s, dice[0], True, least, w)
    if state.phase == CROP:
        if next_round:
            s.wheel = (state.rotation, state.red, state.blue, emma_first_next)
        return _best_crop(s, state.crop_die + state.modifier, state.modifier == 0, least, w)
    return s


ROUND_START_BEST_DIE = True
"""A die still to choose is judged by its best die and farmer (no milk spent), each played out by
:func:`resolve`, so the value of a round start is the value of its best move, on the same scale
as the positions after it. False: the fitted ``to_move``/``round_gain`` terms instead (before
session 3's last change; kept for paired comparisons with ``compare.py --set``)."""


ROUND_START_BEFORE_ROLL = True
"""A round the player starts (odd rounds solo), before any milk is spent, is valued as the position just
before its dice were rolled: the board with this round's options in expectation over the 216 rolls
(``next_gain``), exactly what the round end before it estimated for the same crop. So a position seen
across a new roll has no roll noise (one sampled roll moved the estimate by 3.3 points, sd), and a
search or a greedy crop choice that looks past the round end meets the value the round end gave it.
False: judged by its best die with the dice rolled (:data:`ROUND_START_BEST_DIE`; session 6, paired
on 400 greedy deals: margin +0.89 [+0.09, +1.68] for True, see ``benchmarks/ai/tiny-farms.md``).
The rounds Emma starts are still judged with their dice: her move has changed the wheel."""


def _best_die(state: TinyFarmsState, least: int, w: tuple[float, ...]) -> _Solo:
    """The position after the best die and farmer, with the milk already spent on this move (if any)."""
    best: _Solo | None = None
    best_value = -math.inf
    for value in sorted(set(state.dice)):
        if value + state.modifier < c.MIN_DIE_VALUE:
            continue
        for action in DIE_ACTIONS[value][:2]:
            child = state.clone()
            child._do(state.current, action)
            trial = resolve(child)
            estimate = _estimate(trial, least, w)
            if estimate > best_value:
                best, best_value = trial, estimate
    assert best is not None, "a move with milk spent always has a die to use"
    return best


def least_horses(state: TinyFarmsState) -> int:
    """The fewest horses that rank in the horse race (variant ``horses-zero-ranks``: 0)."""
    return 0 if HORSES_ZERO_RANKS in state.variants else c.MIN_HORSES_TO_SCORE


def solo_parts(state: TinyFarmsState) -> tuple[float, dict[str, float]]:
    """Solo, for fitting: (the margin once this round's known rest is played, the features after it)."""
    margin, feats = _features(resolve(state), least_horses(state))
    return margin, dict(zip(SOLO_FEATURES, feats, strict=True))


def solo_estimate(state: TinyFarmsState) -> float:
    """Solo: the expected final margin over Emma (exact once the last round's die and crop are known)."""
    return _estimate(resolve(state), least_horses(state), _solo_model())


# --- Two to four players: the animals in hand written, the horse race in expectation, then a fitted estimate ---

HORSE_SD: Final = "horse_sd"
"""The key in ``weights.json``'s ``players`` model of the horse difference's spread per die pick to come."""
DEFAULT_HORSE_SD: Final = 0.6


@cache
def horse_sd() -> float:
    """The spread (standard deviation) of the horse difference per die pick still to come (``weights.json``)."""
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    value = float(data["players"].get(HORSE_SD, DEFAULT_HORSE_SD))
    if not value > 0:
        raise ValueError(f"{WEIGHTS_FILE.name}: players.{HORSE_SD} must be positive, got {value!r}")
    return value


_PVECTOR: list[tuple[dict[str, float], tuple[float, ...]]] = []
"""The players' weights last turned into a vector, kept with the dict they came from."""
_PLAYER_FARM_INDEX: Final = tuple(PLAYER_FEATURES.index(n) for n in _FARM_NAMES_NO_MIN)


def _players_model() -> tuple[float, ...]:
    """The two-to-four-player weights in :data:`PLAYER_FEATURES` order (rebuilt when reloaded)."""
    model = weights()["players"]
    if not _PVECTOR or _PVECTOR[0][0] is not model:
        _PVECTOR[:] = [(model, tuple(model[n] for n in PLAYER_FEATURES))]
        _players_farm_potential.cache_clear()
    return _PVECTOR[0][1]


def _vector(feats: dict[str, float]) -> tuple[float, ...]:
    """A players' feature dict in :data:`PLAYER_FEATURES` order."""
    return tuple(feats[n] for n in PLAYER_FEATURES)


@lru_cache(maxsize=1 << 17)
def _players_farm_potential(farm: tuple[int, ...]) -> float:
    """The weighted per-farm features of one farm under the players' model (cached)."""
    w = _PVECTOR[0][1]
    return sum(w[k] * x for k, x in zip(_PLAYER_FARM_INDEX, farm_info(farm)[2], strict=True))


def picks_to_come(state: TinyFarmsState) -> int:
    """Die picks still to be made in the game by anyone (this round's included; the current one too)."""
    if state.phase == OVER:
        return 0
    this_round = len(state.order) - state.turn_index - (0 if state.phase == MOVE else 1)
    return this_round + (state.rounds - state.round) * state.players


def _phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def expected_horse_points(horses: list[int], picks: int, least: int, sd: float) -> list[float]:
    """Each player's horse points in expectation when ``picks`` die picks are still to come.

    Two players (10 for most horses or a tie, 0 otherwise): ``10 * Φ((d + 0.5) / (sd * √picks))`` of
    the horse difference ``d``, a random walk's chance of ending level or ahead; exact with no pick
    left, and with three or more players (the score as it stands).
    """
    if picks <= 0 or len(horses) != 2:
        return [float(x) for x in scoring.horse_points(horses, two_player_rules=len(horses) == 2, min_horses=least)]
    spread = sd * math.sqrt(picks)
    d = horses[0] - horses[1]
    first = float(c.HORSE_FIRST_POINTS)
    return [first * _phi((d + 0.5) / spread), first * _phi((-d + 0.5) / spread)]


def player_parts(state: TinyFarmsState) -> list[tuple[float, dict[str, float]]]:
    """Two to four players: (the expected total as far as it is known, the features) per player.

    The animals the current player has collected and not yet written are written where they score
    best under this model; the horse race counts in expectation (:func:`expected_horse_points`);
    the rest is the score as it stands. Features are what the fitted weights multiply.
    """
    least = least_horses(state)
    boards = [tuple(b) for b in state.boards]
    left = share_left(state)
    _players_model()  # the per-farm potential below reads the current weights
    if state.phase == PLACE and state.pending:
        p = state.current
        base = state.pending_farm * c.FARM_CELLS
        farm = _place_in_farm(boards[p][base : base + c.FARM_CELLS], list(state.pending), left, _players_farm_potential)
        boards[p] = boards[p][:base] + farm + boards[p][base + c.FARM_CELLS :]
    horses = [scoring.horse_count(b) for b in boards]
    horse_pts = expected_horse_points(horses, picks_to_come(state), least, horse_sd())
    out = []
    ffp = c.FOREST_SET_POINTS
    for p, board in enumerate(boards):
        red = farm_info(board[: c.FARM_CELLS])
        blue = farm_info(board[c.FARM_CELLS :])
        counts = _horses_and_forest_friends(board)[1]
        imbalance = abs(red[1] - blue[1])
        milk = state.milk[p]
        total = (
            red[0]
            + blue[0]
            + horse_pts[p]
            + scoring.forest_points(counts)
            + milk * c.MILK_POINTS
            - imbalance * c.BALANCE_PENALTY
        )
        kinds = sum(1 for n in counts if n)
        rival = max(h for q, h in enumerate(horses) if q != p)
        feats = {
            "left": left,
            "empty": left * (red[2][0] + blue[2][0]),
            "empty_min": left * min(red[2][0], blue[2][0]),
            **{
                name: left * (x + y) for name, x, y in zip(_FARM_NAMES_NO_MIN[1:], red[2][1:], blue[2][1:], strict=True)
            },
            "ff_next": left * (ffp[min(kinds + 1, len(ffp) - 1)] - ffp[kinds]),
            "horse_lead": left * max(-HORSE_LEAD_CAP, min(HORSE_LEAD_CAP, horses[p] - rival)),
            "imbalance": left * imbalance,
            "milk": left * milk,
            "to_move": float(_moves_left(state, p)),
        }
        out.append((float(total), feats))
    return out
