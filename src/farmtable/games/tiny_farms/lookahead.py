"""The solo player's options in a round of Tiny Farms, and the next round's in expectation over the dice.

Farmer Emma has no choices (solo "Playing a Round"): once the dice and her target are known, the
rules fix her die and farmer. So for a wheel position (rotation, red farmer, blue farmer) and a roll,
the player's options are a short list of (farm, space the player's farmer lands on, space Emma's
farmer lands on after it, milk spent), and the round's value to the player is the best of them:

    gain[farm][space] - emma_gain[her space] - milk cost

``round_table`` lists the options of every roll of the three dice (6 target values x 36 for the
other two: 216 equally likely rolls, grouped when they leave the same options) for one wheel
position, once (cached); ``expected_best`` then averages the best option over the rolls with numpy
for the gains of the position at hand. ``known_options`` is the same for a roll already made.

Emma is the standard one (her target, then the list); advanced Emma (who compares scores) is read
as the standard one here, which only makes the estimate a little less exact in that variant.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import numpy as np
from numpy.typing import NDArray

from farmtable.games.tiny_farms import components as c
from farmtable.games.tiny_farms.rules import VISIBLE, destination

SPACES: Final = c.WHEEL_SPACES
NO_EMMA: Final = SPACES
"""The "space" of Emma's farmer when she does not move after the player (index of a zero gain)."""
MILK_STEPS: Final = 2
"""Milk spent on a die in these options: none, or one token (the die +1 or -1)."""
OPTION_COUNT: Final = 2 * SPACES * (SPACES + 1) * MILK_STEPS
"""Distinct (farm, player's space, Emma's space or none, milk) options: the length of a value vector."""
ROLLS: Final = c.DIE_FACES**3
"""Ordered rolls of the three solo dice (Emma's target die first): all equally likely."""


def option_index(farm: int, space: int, emma_space: int, milk: int) -> int:
    """The index of an option in a value vector (see :func:`option_values`)."""
    return ((farm * SPACES + space) * (SPACES + 1) + emma_space) * MILK_STEPS + milk


@lru_cache(maxsize=1 << 16)
def emma_pick(rotation: int, red: int, blue: int, dice: tuple[int, ...], target: int) -> tuple[int, int, int]:
    """Emma's (die, farm, space) with these dice and target: the rule of ``TinyFarmsState.emma_choice``.

    Her target first; if several spaces show it, or none does, the next animal on the list
    (1-6, wrapping) decides among them; the first option (lowest die, red before blue) last.
    """
    candidates = []
    for value in sorted(set(dice)):
        for farm in (c.RED, c.BLUE):
            start, other = (red, blue) if farm == c.RED else (blue, red)
            space = destination(start, value, other)
            candidates.append((value, farm, space))
    for step in range(c.EMMA_DIE_TRACKS):
        kinds = c.EMMA_TRACKS[(target - 1 + step) % c.EMMA_DIE_TRACKS][1]
        showing = [o for o in candidates if VISIBLE[rotation][o[2]][0] in kinds or VISIBLE[rotation][o[2]][1] in kinds]
        if len({o[2] for o in showing}) == 1:
            return showing[0]
        if showing:
            candidates = showing
    return candidates[0]


def _moved(red: int, blue: int, farm: int, steps: int) -> tuple[int, int, int]:
    """(red, blue, landing space) after moving ``farm``'s farmer ``steps`` spaces (bump rule)."""
    if farm == c.RED:
        red = destination(red, steps, blue)
        return red, blue, red
    blue = destination(blue, steps, red)
    return red, blue, blue


def known_options(
    rotation: int, red: int, blue: int, dice: tuple[int, ...], target: int, emma_after: bool, milk: bool
) -> frozenset[int]:
    """The player's options (value-vector indices) with these dice; Emma replies if ``emma_after``."""
    options = set()
    for value in sorted(set(dice)):
        rest = list(dice)
        rest.remove(value)
        left = tuple(rest)
        changes = [(0, 0)]
        if milk:
            changes += [(1, 1), (-1, 1)] if value > c.MIN_DIE_VALUE else [(1, 1)]
        for change, spent in changes:
            for farm in (c.RED, c.BLUE):
                r, b, space = _moved(red, blue, farm, value + change)
                emma_space = NO_EMMA
                if emma_after and left:
                    _, _, emma_space = emma_pick(rotation, r, b, left, target)
                options.add(option_index(farm, space, emma_space, spent))
    return frozenset(options)


Table = tuple[NDArray[np.intp], NDArray[np.float64]]
"""(options per group of rolls, padded by repeating one: shape groups x width; rolls per group / 216)."""


@lru_cache(maxsize=1 << 12)
def round_table(rotation: int, red: int, blue: int, emma_first: bool) -> Table:
    """The player's options for every roll of a round that starts with the farmers at ``red``, ``blue``.

    ``emma_first``: Emma moves first (even rounds) and the player chooses from the two dice she
    leaves; otherwise the player chooses first and Emma replies. Options with milk are listed
    too; a player without milk values them at minus infinity (:func:`option_values`).
    """
    groups: dict[frozenset[int], int] = {}
    for target in range(c.MIN_DIE_VALUE, c.DIE_FACES + 1):
        for a in range(c.MIN_DIE_VALUE, c.DIE_FACES + 1):
            for b in range(a, c.DIE_FACES + 1):
                weight = 1 if a == b else 2
                dice = tuple(sorted((target, a, b)))
                if emma_first:
                    value, farm, _ = emma_pick(rotation, red, blue, dice, target)
                    r, bl, emma_space = _moved(red, blue, farm, value)
                    rest = list(dice)
                    rest.remove(value)
                    mine = known_options(rotation, r, bl, tuple(rest), target, False, True)
                    # Emma's gain is the same whatever the player then does: carried as her space.
                    key = frozenset(i - NO_EMMA * MILK_STEPS + emma_space * MILK_STEPS for i in mine)
                else:
                    key = known_options(rotation, red, blue, dice, target, True, True)
                groups[key] = groups.get(key, 0) + weight
    width = max(len(k) for k in groups)
    index = np.empty((len(groups), width), dtype=np.intp)
    counts = np.empty(len(groups), dtype=np.float64)
    for g, (key, count) in enumerate(groups.items()):
        opts = sorted(key)
        index[g] = opts + [opts[0]] * (width - len(opts))
        counts[g] = count / ROLLS
    index.flags.writeable = False
    counts.flags.writeable = False
    return index, counts


def option_values(
    gain: NDArray[np.float64], emma_gain: NDArray[np.float64], milk_cost: float, milk: bool
) -> NDArray[np.float64]:
    """The value of every option: ``gain[farm, space] - emma_gain[space or NO_EMMA] - milk_cost * milk``.

    ``gain`` has shape (2, 8); ``emma_gain`` shape (9,) with ``emma_gain[NO_EMMA] == 0``. Without
    ``milk`` an option that spends milk is worth minus infinity (never the best).
    """
    cost = np.array([0.0, milk_cost if milk else np.inf])
    values: NDArray[np.float64] = (
        gain[:, :, None, None] - emma_gain[None, None, :, None] - cost[None, None, None, :]
    ).ravel()
    return values


def expected_best(table: Table, values: NDArray[np.float64]) -> float:
    """The mean over the rolls of the best option's value."""
    index, counts = table
    return float(values[index].max(axis=1) @ counts)


def best_known(options: frozenset[int], values: NDArray[np.float64]) -> float:
    """The best option's value for a roll already made."""
    return float(max(values[i] for i in options))


def warm_up(rotations: tuple[int, ...] = tuple(range(SPACES))) -> int:
    """Build the round tables of every wheel position with these rotations (all: 896 tables, a few CPU s).

    A search meets a new wheel position at almost every round start it explores (one solo game at a
    Normal-sized search builds about 670 tables), each about 3-8 ms the first time: in a cold process
    that is about a quarter of the search's CPU. A server or benchmark can call this once, outside
    any decision's clock. Returns the number of tables built or found.
    """
    built = 0
    for rotation in rotations:
        if not 0 <= rotation < SPACES:
            raise ValueError(f"a wheel rotation is 0-{SPACES - 1}, got {rotation!r}")
        for red in range(SPACES):
            for blue in range(SPACES):
                if red == blue:
                    continue
                for emma_first in (False, True):
                    round_table(rotation, red, blue, emma_first)
                    built += 1
    return built
