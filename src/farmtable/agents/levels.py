"""Named AI levels: what a person picks as an opponent (Easy, Normal, Hard, Expert).

Each level is an agent spec with a bounded budget, the same in the web, the terminal and the
docs. Researchers keep the raw specs (``farmtable arena --agents ismcts:iters=800``); a server
offers only the levels (see :func:`level_spec`).

>>> level_spec("normal") == LEVELS["normal"].spec
True
>>> level_spec("Expert") == LEVELS["expert"].spec
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class Level:
    """One named opponent strength: its agent spec and a line a player can read."""

    name: str
    title: str
    spec: str
    description: str


LEVELS: Final[dict[str, Level]] = {
    level.name: level
    for level in (
        Level("easy", "Easy", "greedy", "plays the move that looks best right now"),
        Level("normal", "Normal", "mcts:iters=50,time=0.2", "searches a little ahead (at most 0.2 s a move)"),
        Level("hard", "Hard", "mcts:iters=200,time=0.5", "searches further ahead (at most 0.5 s a move)"),
        Level("expert", "Expert", "mcts:iters=800,time=1.0", "the strongest player, at most 1 s of CPU a move"),
    )
}
"""Weakest first. Each search level is an iteration budget (four times the one below: 50 / 200 / 800,
the points of the scaling curve) with a CPU cap (``time=``, CPU seconds per decision). Where the
iterations fit under the cap (Farmers Finances, Farmerama, most Tiny Towns decisions) a seeded
game replays exactly and a benchmark costs what the iterations cost; where the game's evaluation
is dear (Farmini, Tiny Farms at Hard and Expert, wide Tiny Towns nodes) the cap stops the search
first. Measured in benchmarks/AI.md and benchmarks/ai/ladder.md."""

DEFAULT_LEVEL: Final = "normal"
"""The opponent a person gets without choosing (web and terminal alike)."""

HINT_LEVEL: Final = "expert"
"""The level ``farmtable hint`` and the web's hint ask."""


def level_spec(name: str) -> str:
    """The agent spec of a level named ``name`` (any case); ``ValueError`` lists the levels otherwise."""
    key = name.strip().lower()
    if key not in LEVELS:
        raise ValueError(f"no AI level '{name}'; the levels are: {', '.join(LEVELS)}")
    return LEVELS[key].spec


def is_level(name: str) -> bool:
    """True when ``name`` names a level rather than a raw agent spec."""
    return name.strip().lower() in LEVELS
