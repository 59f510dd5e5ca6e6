"""Tiny Farms scoring: the end-of-game score sheet, Farmer Emma's sheet, and the tie-break.

Implements the rulebook's "Game End" and "Animals - How to Manage Them & How to Score Them"
sections, and the solo "Game End" (crops, Emma scored as one farm). A board is a sequence of
``BOARD_CELLS`` codes from :mod:`components`: cells ``0..15`` are the red farm, ``16..31`` the blue
farm, each row by row (A1 B1 C1 D1 A2 ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from farmtable.core import Result, rank_by
from farmtable.games.tiny_farms import components as c

# Neighbours of each cell of one 4x4 farm (orthogonal, DA-TF6).
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        (r + dr) * c.FARM_SIDE + (col + dc)
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
        if 0 <= r + dr < c.FARM_SIDE and 0 <= col + dc < c.FARM_SIDE
    )
    for r in range(c.FARM_SIDE)
    for col in range(c.FARM_SIDE)
)
NEIGHBOUR_MASKS: Final[tuple[int, ...]] = tuple(sum(1 << j for j in ns) for ns in NEIGHBOURS)


def _lowest(mask: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return (mask & -mask).bit_length() - 1


@cache
def pig_points(mask: int) -> int:
    """Best score of the pigs at the cells of ``mask`` (one farm): adjacent pairs 6, singles 1.

    The pigs are split into adjacent pairs and singles in the way that scores most (a pair must
    be two orthogonally adjacent pigs; each pig belongs to one set).
    """
    if not mask:
        return 0
    i = _lowest(mask)
    rest = mask & ~(1 << i)
    best = c.PIG_SINGLE_POINTS + pig_points(rest)
    partners = NEIGHBOUR_MASKS[i] & rest
    while partners:
        j = _lowest(partners)
        partners &= partners - 1
        best = max(best, c.PIG_PAIR_POINTS + pig_points(rest & ~(1 << j)))
    return best


@cache
def sheep_points(mask: int) -> int:
    """Best score of the sheep at the cells of ``mask``: adjacent triples 12, pairs 2, singles 0.

    A triple is three sheep forming a connected group (a line or an L); each sheep belongs to one set,
    and the partition that scores most is used.
    """
    if not mask:
        return 0
    i = _lowest(mask)
    rest = mask & ~(1 << i)
    best = c.SHEEP_SINGLE_POINTS + sheep_points(rest)
    partners = NEIGHBOUR_MASKS[i] & rest
    seen_triples: set[int] = set()
    bits = partners
    while bits:
        j = _lowest(bits)
        bits &= bits - 1
        after_pair = rest & ~(1 << j)
        best = max(best, c.SHEEP_PAIR_POINTS + sheep_points(after_pair))
        thirds = (NEIGHBOUR_MASKS[i] | NEIGHBOUR_MASKS[j]) & after_pair
        while thirds:
            k = _lowest(thirds)
            thirds &= thirds - 1
            triple = (1 << j) | (1 << k)
            if triple in seen_triples:
                continue
            seen_triples.add(triple)
            best = max(best, c.SHEEP_TRIPLE_POINTS + sheep_points(after_pair & ~(1 << k)))
    return best


def _mask(farm: Sequence[int], code: int) -> int:
    """Bit mask of the cells of one farm that hold ``code``."""
    mask = 0
    for i, value in enumerate(farm):
        if value == code:
            mask |= 1 << i
    return mask


def cow_groups(farm: Sequence[int]) -> list[tuple[int, int, list[int]]]:
    """The adjacent groups of cows and calves of one farm: (cows, calves, the group's cells)."""
    seen = 0
    groups = []
    for start, value in enumerate(farm):
        if value not in (c.COW, c.CALVES) or seen >> start & 1:
            continue
        cows = calves = 0
        cells = [start]
        seen |= 1 << start
        for cell in cells:  # grows while it is read: a breadth-first walk of the group
            if farm[cell] == c.COW:
                cows += 1
            else:
                calves += c.CALVES_PER_SPACE
            for n in NEIGHBOURS[cell]:
                if not seen >> n & 1 and farm[n] in (c.COW, c.CALVES):
                    seen |= 1 << n
                    cells.append(n)
        groups.append((cows, calves, cells))
    return groups


def cow_points(farm: Sequence[int]) -> int:
    """Cows and calves of one farm: each cow scores 1 per calf in its adjacent group of cows and calves."""
    return sum(cows * calves for cows, calves, _ in cow_groups(farm))


def crop_points(farm: Sequence[int]) -> int:
    """Solo crops of one farm: each adjacent group of 3-4 crops scores 2, 5-6 scores 3, 7 or more 5."""
    seen = 0
    total = 0
    for start, value in enumerate(farm):
        if value != c.CROP or seen >> start & 1:
            continue
        size = 0
        stack = [start]
        seen |= 1 << start
        while stack:
            cell = stack.pop()
            size += 1
            for n in NEIGHBOURS[cell]:
                if not seen >> n & 1 and farm[n] == c.CROP:
                    seen |= 1 << n
                    stack.append(n)
        total += crop_group_points(size)
    return total


def crop_group_points(size: int) -> int:
    """Points for one adjacent group of ``size`` crops (solo crops table)."""
    points = 0
    for smallest, value in c.CROP_GROUP_POINTS:
        if size >= smallest:
            points = value
    return points


def forest_points(counts: Sequence[int]) -> int:
    """Forest Friends: sets of distinct kinds score 1/4/8/12/18; duplicates start further sets.

    ``counts`` holds how many of each kind a player has. Building each set from every kind still
    left (largest sets first) scores most, because a bigger set gains more per friend.
    """
    remaining = [n for n in counts if n > 0]
    total = 0
    while remaining:
        total += c.FOREST_SET_POINTS[min(len(remaining), len(c.FOREST_SET_POINTS) - 1)]
        remaining = [n - 1 for n in remaining if n > 1]
    return total


def horse_points(horses: Sequence[int], two_player_rules: bool, min_horses: int = c.MIN_HORSES_TO_SCORE) -> list[int]:
    """Horse points per player from their horse counts (RULEBOOK "Horses ... scored comparatively").

    Most horses 10; second most 6 (0 when ``two_player_rules``); a tie for first gives every tied
    player 10 and nobody second; a tie for second gives each of them the second-place points.
    A player with no horse scores no horse points (our reading, see docs); ``min_horses=0`` is the
    variant ``horses-zero-ranks``, where a player with no horse is ranked like any other.
    """
    counts = sorted({h for h in horses if h >= min_horses}, reverse=True)
    points = [0] * len(horses)
    if not counts:
        return points
    first = counts[0]
    firsts = [p for p, h in enumerate(horses) if h == first]
    for p in firsts:
        points[p] = c.HORSE_FIRST_POINTS
    if len(firsts) > 1 or len(counts) < 2:
        return points
    second_value = c.HORSE_SECOND_POINTS_TWO_PLAYERS if two_player_rules else c.HORSE_SECOND_POINTS
    for p, h in enumerate(horses):
        if h == counts[1]:
            points[p] = second_value
    return points


def farm_lines(farm: Sequence[int]) -> dict[str, int]:
    """The per-farm lines of the score sheet: pigs, sheep, chickens, cows (and crops if any)."""
    return {
        "pigs": pig_points(_mask(farm, c.PIG)),
        "sheep": sheep_points(_mask(farm, c.SHEEP)),
        "chickens": c.CHICKEN_POINTS * sum(1 for v in farm if v == c.CHICKEN),
        "cows": cow_points(farm),
    }


def used_spaces(farm: Sequence[int]) -> int:
    """Spaces of a farm that count as used: crossed-out spaces count as empty (solo rule)."""
    return sum(1 for v in farm if v != c.EMPTY and v != c.CROSSED)


def horse_count(board: Sequence[int]) -> int:
    """Horses across both farms of a board."""
    return sum(1 for v in board if v == c.HORSE)


def player_sheet(board: Sequence[int], milk: int, horse_pts: int, solo: bool) -> dict[str, int]:
    """A player's score sheet: each farm's animals, horses, Forest Friends, milk, balance (and solo crops)."""
    red = board[: c.FARM_CELLS]
    blue = board[c.FARM_CELLS :]
    sheet: dict[str, int] = {}
    for name, farm in (("red", red), ("blue", blue)):
        for line, points in farm_lines(farm).items():
            sheet[f"{name}_{line}"] = points
    sheet["horses"] = horse_pts
    sheet["forest_friends"] = forest_points([sum(1 for v in board if v == ff) for ff in c.FOREST_FRIENDS])
    sheet["milk"] = c.MILK_POINTS * milk
    if solo:
        sheet["crops"] = crop_points(red) + crop_points(blue)
    sheet["balance"] = -c.BALANCE_PENALTY * abs(used_spaces(red) - used_spaces(blue))
    return sheet


def player_total(board: Sequence[int], milk: int, horse_pts: int, solo: bool) -> int:
    """The sum of :func:`player_sheet`'s lines, counted in one pass per farm without building the sheet."""
    total = horse_pts + c.MILK_POINTS * milk
    used = [0, 0]
    forest = dict.fromkeys(c.FOREST_FRIENDS, 0)
    for half in (0, 1):
        farm = board[half * c.FARM_CELLS : (half + 1) * c.FARM_CELLS]
        pigs = sheep = chickens = 0
        herd = False
        for i, v in enumerate(farm):
            if v == c.EMPTY or v == c.CROSSED:
                continue
            used[half] += 1
            if v == c.PIG:
                pigs |= 1 << i
            elif v == c.SHEEP:
                sheep |= 1 << i
            elif v == c.CHICKEN:
                chickens += 1
            elif v == c.COW or v == c.CALVES:
                herd = True
            elif v in forest:
                forest[v] += 1
        total += pig_points(pigs) + sheep_points(sheep) + c.CHICKEN_POINTS * chickens
        if herd:
            total += cow_points(farm)
        if solo:
            total += crop_points(farm)
    total += forest_points([forest[ff] for ff in c.FOREST_FRIENDS])
    return total - c.BALANCE_PENALTY * abs(used[0] - used[1])


def emma_sheet(filled: Sequence[int], horse_pts: int) -> dict[str, int]:
    """Farmer Emma's sheet: everything as if in one farm, adjacent as needed (solo "Game End").

    ``filled`` is the number of filled circles per track (components.EMMA_TRACKS order).
    Her Forest Friends are counted, not told apart: each track row of five is one set.
    """
    forest = filled[c.EMMA_FOREST]
    first_set = min(forest, c.EMMA_FOREST_SET_SIZE)
    second_set = min(forest - first_set, c.EMMA_FOREST_SET_SIZE)
    sheep = filled[c.EMMA_SHEEP]
    pigs = filled[c.EMMA_PIGS]
    triples, leftover_sheep = divmod(sheep, c.SHEEP_SET_SIZE)
    pairs, single_pigs = divmod(pigs, c.PIG_SET_SIZE)
    return {
        "pigs": pairs * c.PIG_PAIR_POINTS + single_pigs * c.PIG_SINGLE_POINTS,
        "sheep": triples * c.SHEEP_TRIPLE_POINTS
        + (c.SHEEP_PAIR_POINTS if leftover_sheep == c.SHEEP_SET_SIZE - 1 else 0),
        "chickens": c.CHICKEN_POINTS * filled[c.EMMA_CHICKENS],
        "cows": filled[c.EMMA_COWS] * filled[c.EMMA_CALVES],
        "horses": horse_pts,
        "forest_friends": c.FOREST_SET_POINTS[first_set] + c.FOREST_SET_POINTS[second_set],
    }


def score_players(
    boards: Sequence[Sequence[int]], milk: Sequence[int], min_horses: int = c.MIN_HORSES_TO_SCORE
) -> Result:
    """Score a multiplayer game (2-4 players, or one player scored alone) and rank it.

    Ranking: most points; tie: most unused milk; still tied: a shared place (RULEBOOK "Game End").
    """
    n = len(boards)
    horses = horse_points([horse_count(b) for b in boards], two_player_rules=n == 2, min_horses=min_horses)
    sheets = [player_sheet(boards[p], milk[p], horses[p], solo=False) for p in range(n)]
    totals = [sum(s.values()) for s in sheets]
    ranking = rank_by([(totals[p], milk[p]) for p in range(n)])
    details = {"unused_milk": list(milk), "horse_counts": [horse_count(b) for b in boards]}
    return Result(totals, sheets, ranking, details)


def totals_players(
    boards: Sequence[Sequence[int]], milk: Sequence[int], min_horses: int = c.MIN_HORSES_TO_SCORE
) -> Result:
    """:func:`score_players` without the sheets: the same totals and ranking (``State.result_totals``)."""
    n = len(boards)
    horses = horse_points([horse_count(b) for b in boards], two_player_rules=n == 2, min_horses=min_horses)
    totals = [player_total(boards[p], milk[p], horses[p], solo=False) for p in range(n)]
    ranking = rank_by([(totals[p], milk[p]) for p in range(n)])
    return Result(totals, [{} for _ in range(n)], ranking)


def totals_solo(
    board: Sequence[int], milk: int, emma_filled: Sequence[int], min_horses: int = c.MIN_HORSES_TO_SCORE
) -> Result:
    """:func:`score_solo` without the sheets: the same total and objective (the margin over Emma)."""
    counts = [horse_count(board), emma_filled[c.EMMA_HORSES]]
    horses = horse_points(counts, two_player_rules=True, min_horses=min_horses)
    total = player_total(board, milk, horses[0], solo=True)
    emma_total = sum(emma_sheet(emma_filled, horses[1]).values())
    return Result([total], [{}], [[0]], objective=total - emma_total)


def score_solo(
    board: Sequence[int],
    milk: int,
    emma_filled: Sequence[int],
    difficulty: str,
    min_horses: int = c.MIN_HORSES_TO_SCORE,
) -> Result:
    """Score a solo game: you (crops included) against Farmer Emma, horses compared as for two players."""
    emma_horses = emma_filled[c.EMMA_HORSES]
    you_horses = horse_count(board)
    horses = horse_points([you_horses, emma_horses], two_player_rules=True, min_horses=min_horses)
    sheet = player_sheet(board, milk, horses[0], solo=True)
    emma = emma_sheet(emma_filled, horses[1])
    total = sum(sheet.values())
    emma_total = sum(emma.values())
    # Tie: most unused milk (Emma has none), then shared (RULEBOOK "Game End"; our reading for solo).
    mine, hers = (total, milk), (emma_total, 0)
    outcome = "win" if mine > hers else "loss" if mine < hers else "tie"
    details = {
        "emma_total": emma_total,
        "emma_breakdown": emma,
        "outcome": outcome,
        "difficulty": difficulty,
        "unused_milk": [milk],
        "horse_counts": [you_horses, emma_horses],
        "opponent_sheet": {"name": "Farmer Emma", "lines": dict(emma), "total": emma_total},
        "notes": [
            f"Solo against Farmer Emma ({difficulty}): you {total}, Emma {emma_total}: "
            + {"win": "you win.", "loss": "Emma wins.", "tie": "a tie."}[outcome],
            f"Horses: you {you_horses}, Emma {emma_horses}; unused milk: {milk} (breaks a tie).",
        ],
    }
    # The solo game is won by beating Emma, so a solo player's objective is the margin over her.
    return Result([total], [sheet], [[0]], details, objective=total - emma_total)
