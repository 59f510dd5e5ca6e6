"""Named AI levels: what a person picks as an opponent (Easy, Normal, Hard, Expert).

Each level is an agent spec with a bounded budget, the same in the web, the terminal and the
docs. Researchers keep the raw specs (``farmtable arena --agents ismcts:iters=800``); a server
offers only the levels (see :func:`level_spec`).

A level may play a different spec in one game (or one game at one player count) where a
measurement showed that spec stronger at the same budget: the overrides are data
(:data:`OVERRIDES`), each with the measurement that earned it, and :func:`level_spec` takes the
game. Without a game a level is its general spec.

>>> level_spec("normal") == LEVELS["normal"].spec
True
>>> level_spec("Expert") == LEVELS["expert"].spec
True
>>> level_spec("expert", "no-such-game") == LEVELS["expert"].spec
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


@dataclass(frozen=True)
class Override:
    """A level's spec in one game (``players=None``: at every player count), and why."""

    level: str
    game: str
    spec: str
    evidence: str
    players: int | None = None


OVERRIDES: Final[tuple[Override, ...]] = (
    Override(
        "expert",
        "farmers-finances",
        "farmers-finances-duel:depth=4,spread=3,time=1.0",
        "2 players, against Hard (mcts:iters=200,time=0.5), deals 2000-2099 from both seats: 76.2% "
        "[69.9, 81.6] of 200 games, margin +4.00 [+2.42, +5.57]; paired on the same deals +0.122 "
        "[+0.033, +0.212] win share a deal over the previous Expert (mcts:iters=800,time=1.0,c=0.15: "
        "64.0% [57.1, 70.3] of 200, session 8); CPU s a decision p50 0.052, p99 0.600, max 0.827. "
        "benchmarks/ai/farmers-finances.md, session 13. Against ismcts:iters=200,depth=5, deals 2000-2099 "
        "from both seats: 97.5% [94.3, 98.9] of 200 games (session 13, benchmarks/ai/ladder.md)",
        players=2,
    ),
    Override(
        "expert",
        "farmerama",
        "farmerama-lookahead:keep=8,time=1.0",
        "solo, deals 1000-1099: 144.5 [142.2, 146.9] stars, 150 reached on 40% [31, 50]; paired +28.57 "
        "[+25.11, +32.03] stars over Easy (greedy), where the mcts levels were level with greedy in solo "
        "Farmerama (Normal +3.5 [-17.9, +24.9] on 8 deals). benchmarks/AI.md and benchmarks/ai/farmerama.md, session 6",
        players=1,
    ),
    Override(
        "expert",
        "tiny-towns",
        "tiny-towns-rollout:time=1.0,k=6,worlds=2,polish=0.8,near=3",
        "solo, fresh deals 4000-4033 and 4100-4119 (54, split at round 12: one shared opening, tt_split.py): "
        "25.76 [24.66, 26.86], 25+ on 57.4% [44.2, 69.7], max 39; paired +1.33 [+0.34, +2.32] over the "
        "session-7 Expert (tiny-towns-rollout:time=1.0,k=6,worlds=2: 24.43; +9.25 [+6.88, +11.62] over the "
        "general Expert on 3000-3019); max 0.991 CPU s a decision, 46 CPU s a game. "
        "benchmarks/ai/tiny-towns.md, sessions 8 and 11",
        players=1,
    ),
    Override(
        "hard",
        "tiny-towns",
        "tiny-towns-rollout:time=0.5,k=6,worlds=2",
        "solo, deals 3000-3019: 23.35 against the general Hard's 13.55, +9.80 [+7.53, +12.07]; max 0.479 "
        "CPU s a decision (Normal keeps the search, 12.65 there, so the solo levels climb). "
        "benchmarks/ai/tiny-towns.md, session 7",
        players=1,
    ),
    Override(
        "expert",
        "tiny-farms",
        "tiny-farms-expectimax:keep=4,time=1.0",
        "solo against Emma hard, deals 1000-1199: 52.0% [45.1, 58.8] wins; paired +6.83 [+4.91, +8.75] "
        "margin and +26.0 [+17.7, +34.3] win points over Normal, +8.72 [+6.64, +10.80] over Easy "
        "(where the general Expert lost to Normal). benchmarks/ai/tiny-farms.md, session 7",
        players=1,
    ),
    Override(
        "expert",
        "tiny-farms",
        "tiny-farms-duel:depth=2,reply=search,time=1.0",
        "2 players, against the Hard row below (mcts:iters=50,time=0.5), deals 2000-2099 from both seats: 74.2% "
        "[67.8, 79.8] of 200 games, margin +9.38 [+7.56, +11.19] (session 15); against the former Hard "
        "(tiny-farms-duel:time=0.5) 59.8% [52.8, 66.3] of 200 (sessions 11 and 13); CPU s/decision p50 0.724, "
        "p99 0.857, max 0.865 (session 15, benchmarks/ai/ladder.md). Against ismcts:iters=200,depth=5, "
        "deals 2000-2099 from both seats: 89.5% [84.5, 93.0] of 200 games, margin +14.22 [+12.51, +15.94] "
        "(session 12, benchmarks/ai/ladder.md)",
        players=2,
    ),
    Override(
        "hard",
        "tiny-farms",
        "mcts:iters=50,time=0.5",
        "2 players, against the Normal row below (greedy:time=0.2, greedy's own games), deals 2000-2099 from both "
        "seats, re-played on today's code: 68.2% [61.5, 74.3] of 200 games, margin +4.60 [+2.93, +6.27] (the same "
        "games as session 8's Normal-vs-Easy run); CPU s/decision p50 0.042, p99 0.168, max 0.223. The ladder "
        "re-spaced in session 15 (a beginner's Easy below greedy; the former Hard tiny-farms-duel:time=0.5, "
        "63.7% of 212 against the former Normal, left the ladder: Expert beat it only 59.8% of 200). "
        "benchmarks/ai/tiny-farms.md and benchmarks/ai/ladder.md, session 15",
        players=2,
    ),
    Override(
        "normal",
        "tiny-farms",
        "greedy:time=0.2",
        "2 players, against the Easy row below (greedy:slip=0.15), deals 2000-2099 from both seats: 72.0% "
        "[65.4, 77.8] of 200 games, margin +7.45 [+5.70, +9.20]; CPU s/decision p50 0.004, p99 0.014, max 0.101 "
        "(the cap never binds: greedy's exact games). benchmarks/ai/tiny-farms.md, session 15",
        players=2,
    ),
    Override(
        "easy",
        "tiny-farms",
        "greedy:slip=0.15",
        "2 players: a beginner's opponent, greedy that plays its second-best move at 15% of its decisions "
        "(slip=0.25 lost all 20 pilot games to greedy, slip=0.1 won 32.5% of 20); greedy beats it 72.0% "
        "[65.4, 77.8] of 200 games. benchmarks/ai/tiny-farms.md, session 15",
        players=2,
    ),
    Override(
        "hard",
        "tiny-farms",
        "mcts:iters=200,time=0.5,widen=0.5",
        "solo against Emma hard, deals 1000-1019: margin +7.40 [+2.09, +12.71] over the general Hard "
        "(which lost to Normal, -6.65 [-10.41, -2.89]); level with Normal (+0.75 [-2.95, +4.45]). "
        "benchmarks/ai/tiny-farms.md, session 6",
        players=1,
    ),
    Override(
        "normal",
        "farmerama",
        "farmerama-duel:time=0.2,temp=0.5",
        "2 players, deals 2000-2099 from both seats: against Easy 79.0% [72.8, 84.1] of 200 games, margin +17.3 "
        "[+14.7, +19.9] stars (session 9); against the general Normal (mcts:iters=50,time=0.2), deals 2000-2019: "
        "67.5% [52.0, 79.9] of 40, margin +10.75 [+5.07, +16.43] (session 10), which was level with Easy. "
        "benchmarks/ai/farmerama.md, sessions 9 and 10",
        players=2,
    ),
    Override(
        "hard",
        "farmerama",
        "farmerama-duel:time=0.5,temp=0.5,deep=1,refine=10,anytime=1",
        "2 players, against the Normal row above, deals 2000-2099 from both seats: 89.0% [83.9, 92.6] of 200 "
        "games, margin +17.55 [+15.31, +19.79] stars; paired on the same deals +0.295 [+0.205, +0.385] win share "
        "a deal over the former Hard (farmerama-duel:time=0.5,temp=0.5,deep=1: 59.5% [52.6, 66.1] of 200, "
        "session 9); CPU s a decision p50 0.000, p99 0.400, max 0.507 (5 of 80,584 decisions over 0.5 s, "
        "by at most 6.5 ms). benchmarks/ai/farmerama.md and benchmarks/ai/ladder.md, session 15",
        players=2,
    ),
    Override(
        "expert",
        "farmerama",
        "farmerama-duel:time=1.0,temp=0.5,deep=1,level=2,refine=10,adapt=1,anytime=1",
        "2 players, against ismcts:iters=200,depth=5, deals 2000-2099 from both seats: 85.0% [79.4, 89.3] of 200 "
        "games, margin +16.88 [+14.70, +19.06] stars; paired on 77 of those deals +0.179 [+0.094, +0.263] win "
        "share a deal over the former Expert (...,refine=10 without adapt/anytime: 67.9% of 154, session 12); "
        "against the Hard row above, deals 2000-2099 from both seats: 79.2% [73.1, 84.3] of 200 games, margin "
        "+15.37 [+12.86, +17.87] (session 15; against the former Hard farmerama-duel:time=0.5,temp=0.5,deep=1: "
        "84.5% [78.8, 88.9] of 200, sessions 14-15); CPU s a decision p50 0.000, p99 0.801, max 0.930. "
        "benchmarks/ai/farmerama.md and benchmarks/ai/ladder.md, sessions 14 and 15",
        players=2,
    ),
    Override(
        "normal",
        "tiny-towns",
        "greedy:time=0.2",
        "2 players, against the Easy row below (greedy:slip=0.3), deals 2000-2099 from both seats: 74.2% "
        "[67.8, 79.8] of 200 games, margin +5.88 [+4.59, +7.18]; on fresh deals 3000-3099: 84.8% [79.1, 89.1] "
        "of 200 (the cap never binds: greedy's exact games, max 0.083 CPU s a decision). The ladder was "
        "re-spaced in session 16: the former Normal tiny-towns-duel:time=0.2,k=4,worlds=4,rival=1 stood only "
        "0.47 logits over greedy and 0.49 under Hard (61.7% of 162, 62.0% of 200), room for one rung of 67% "
        "between greedy and Hard, not two. benchmarks/ai/ladder.md and benchmarks/ai/tiny-towns.md, session 16",
        players=2,
    ),
    Override(
        "expert",
        "tiny-towns",
        "tiny-towns-duel:time=1.0,race=1,iters=800",
        "2 players: the general Expert's search judged by the completion race (race.py: a fitted win "
        "probability; the town completed last won 693 of 781 decided raw games). Against "
        "ismcts:iters=200,depth=5: 76.4% [60.4, 87.3] of 36 games (deals 2000-2003, 2020-2028 and 2030-2034 from "
        "both seats, margin +6.53 [+3.58, +9.48]; 200 not yet played; the general Expert 55.0% of 20 on deals "
        "2000-2009); paired game by game (same deal and seat) with the general "
        "Expert on the 10 games both played: +0.40 [+0.03, +0.77] win share a game (t, 9 df); against Hard "
        "(mcts:iters=200,time=0.5): 83.3% [60.8, 94.2] of 18 games (deals 2000-2008, margin +5.06); "
        "CPU s a decision p50 0.609, p99 0.967, max 0.970 (1,625 decisions). benchmarks/ai/tiny-towns.md "
        "and benchmarks/ai/ladder.md, session 16",
        players=2,
    ),
    Override(
        "easy",
        "tiny-towns",
        "greedy:slip=0.3",
        "2 players: a beginner's opponent, greedy that plays its second-best move at 30% of its decisions "
        "(slip=0.2: greedy beat it only 65.2% [58.4, 71.5] of 200); greedy beats it 74.2% [67.8, 79.8] of 200 "
        "(deals 2000-2099 from both seats) and 84.8% [79.1, 89.1] of 200 fresh deals (3000-3099). "
        "benchmarks/ai/ladder.md, session 16",
        players=2,
    ),
    Override(
        "easy",
        "farmini",
        "greedy:slip=0.5",
        "2 players: a beginner's opponent, greedy that plays its second-best move at half its decisions; the "
        "Normal row (greedy:slip=0.2,time=0.2) beats it 84.8% [79.1, 89.1] of 200 (deals 2000-2099 from both "
        "seats, margin +4.26 [+3.62, +4.90]); greedy beats it 95% of 20 (pilot). benchmarks/ai/farmini.md, "
        "session 16",
        players=2,
    ),
    Override(
        "normal",
        "farmini",
        "greedy:slip=0.2,time=0.2",
        "2 players, against the Easy row (greedy:slip=0.5), deals 2000-2099 from both seats: 84.8% [79.1, "
        "89.1] of 200 games, margin +4.26 [+3.62, +4.90]. In Farmini no fair player beats greedy by the 67% a "
        "rung needs (the general search: 47.9% of 48; the best, session 14's many-world player, 65% of 20), "
        "so the ladder is spaced below greedy. benchmarks/ai/farmini.md, session 16",
        players=2,
    ),
    Override(
        "hard",
        "farmini",
        "greedy:slip=0.05,time=0.5",
        "2 players, against the Normal row (greedy:slip=0.2,time=0.2), deals 2000-2099 from both seats: 72.5% "
        "[65.9, 78.2] of 200 games, margin +2.57 [+1.92, +3.22]; the general Hard is no stronger than greedy "
        "in Farmini (the general Normal 47.9% of 48 against greedy, session 5). CPU s a decision within the "
        "cap since session 16's greedy fix (100 games: 0 of 9,500 decisions over, max 0.28 of the cap). "
        "benchmarks/ai/farmini.md, session 16",
        players=2,
    ),
)
"""Per-game level specs. Each keeps its level's CPU cap (``time=``) and at most its iterations, and
changes only how the search spends them; ``evidence`` names the paired run that earned it
(benchmarks/ai/ladder.md). A game's engineer adds a row here, not a branch in the code."""

DEFAULT_LEVEL: Final = "normal"
"""The opponent a person gets without choosing (web and terminal alike)."""

HINT_LEVEL: Final = "expert"
"""The level ``farmtable hint`` and the web's hint ask."""


def _key(name: str) -> str:
    key = name.strip().lower()
    if key not in LEVELS:
        raise ValueError(f"no AI level '{name}'; the levels are: {', '.join(LEVELS)}")
    return key


def level_spec(name: str, game: str | None = None, players: int | None = None) -> str:
    """The agent spec of the level named ``name`` (any case) in ``game`` with ``players`` players.

    A game's override for that player count comes first, then its override for every player
    count, then the level's general spec (also what ``game=None`` gives). ``ValueError`` lists the
    levels for an unknown name.
    """
    key = _key(name)
    if game is not None:
        fallback: str | None = None
        for row in OVERRIDES:
            if row.level == key and row.game == game:
                if row.players is not None and row.players == players:
                    return row.spec
                if row.players is None:
                    fallback = row.spec
        if fallback is not None:
            return fallback
    return LEVELS[key].spec


def is_level(name: str) -> bool:
    """True when ``name`` names a level rather than a raw agent spec."""
    return name.strip().lower() in LEVELS


def check_overrides(overrides: tuple[Override, ...] = OVERRIDES) -> list[str]:
    """Problems with the override table (empty when it is sound): an unknown level, a CPU cap
    (``time=``) other than the level's (another agent than the level's is allowed only with that
    cap: a game's own player, such as Farmerama's card-counting solo player), more iterations than
    the level's search (fewer are allowed: a deeper search of fewer iterations can be the stronger
    use of the same cap), no evidence, or two rows for the same level, game and player count."""
    from farmtable.agents.base import parse_spec

    problems: list[str] = []
    seen: set[tuple[str, str, int | None]] = set()
    for row in overrides:
        where = f"override {row.level}/{row.game}" + ("" if row.players is None else f"/{row.players}p")
        if row.level not in LEVELS:
            problems.append(f"{where}: no level '{row.level}'")
            continue
        if (row.level, row.game, row.players) in seen:
            problems.append(f"{where}: listed twice")
        seen.add((row.level, row.game, row.players))
        name, params = parse_spec(row.spec)
        base_name, base = parse_spec(LEVELS[row.level].spec)
        if name != base_name and params.get("time") != base.get("time"):
            problems.append(f"{where}: agent '{name}' without the level's cap time={base.get('time')}")
        elif params.get("time") != base.get("time"):
            problems.append(f"{where}: time={params.get('time')} differs from the level's cap {base.get('time')}")
        iters, most = params.get("iters"), base.get("iters")
        if name == base_name and most is not None and (not isinstance(iters, int) or iters > most):
            problems.append(f"{where}: iters={iters} is over the level's {most}")
        if not row.evidence.strip():
            problems.append(f"{where}: no evidence")
    return problems
