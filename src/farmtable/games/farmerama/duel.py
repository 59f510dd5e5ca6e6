"""A two-player Farmerama player that chooses its action cards as a game against the other's choice.

In a two-player round each player chooses two of the five action cards in secret (phase 1); a card
both chose is *shared*: Sow, Harvest and Water give the action wheel's lower number, and the
ornamental building of the pair goes to one of them (and every building taken brings the end
nearer). The greedy agent (and the search's priors) rate a card as if it were played alone, since
the other's cards are hidden: two greedy-minded players tend to choose the same cards and halve
each other's actions.

:class:`DuelAgent` (spec ``farmerama-duel:time=0.2,temp=2.0``) plays phase 1 as a simultaneous
game. For each pair of cards it may still choose (10, or 4 once its first card is down) and each
pair the other may choose (10), it plays the round's reveal and awards on a copy of the position
and rates the boards after both players carried out their cards (``state.evaluate()``: the
evaluation carries out each player's chosen cards with the real shared/alone numbers), so the
payoff of a pair against a pair is this player's expected final margin. The other's pair is
unknown: it is modelled from public facts as a player who rates each pair as played alone (the
way the greedy agent sees it) and picks by a softmax of that value with temperature ``temp``
stars (``temp`` large: any pair alike). The agent chooses the pair with the best expected margin
against that model, plays its first card and remembers the second for its next decision.

Everything is computed on ``state.determinize(player, rng)`` with the other's chosen cards (which
a determinization samples at random) set aside: the model uses only the other's public board.
Every other decision (awards, carrying out the cards) is the greedy agent's. With any other player
count (solo, three or four players) the agent plays exactly like the greedy agent, with the same
random numbers, so solo play does not change.

``time`` caps the CPU seconds of a decision (``time.process_time``): the pair-against-pair table is
filled row by row (this player's pairs, best first by the value played alone) and a row is
started only while the budget allows, so the agent never plays an unrated pair; with no full row
it plays the greedy agent's card. Without ``time`` a seeded game replays exactly; with it, a run
replays exactly as long as the budget never binds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any, Final

from farmtable.agents.base import Agent, legal_actions_or_refuse
from farmtable.agents.greedy import greedy_choice
from farmtable.core import State, clock
from farmtable.games.farmerama.components import CARDS
from farmtable.games.farmerama.evaluation import actions_left, estimate
from farmtable.games.farmerama.planner import board_key, board_value
from farmtable.games.farmerama.rules import ACT, AWARD, CARD_ACTIONS, CHOOSE, NO_CARD, FarmeramaState

DEFAULT_TIME: Final = 0.2
"""CPU seconds per decision (the Normal level's cap)."""
DEFAULT_TEMP: Final = 2.0
"""Stars: the temperature of the softmax that models the other player's pair."""
SAFETY: Final = 0.9
"""Share of the budget after which no new row of the table is started."""
STOP_SHARE: Final = 0.97
"""Share of the budget after which a table row in progress is abandoned (the best full row is played)."""
REFINE_SHARE: Final = 0.8
"""Share of the budget after which a refinement of the table's best pairs (``refine=``) is abandoned:
it clones many positions, and a garbage collection or an evaluation's fallback after the clock
runs out must still fit in the budget (at 0.97 of it, 5 of 1,656 decisions of a session-10 run
went 4-19% over)."""
PLAN_SHARE: Final = 0.6
"""Share of the budget a phase-3 line may take to find (then the greedy agent's step is played)."""
ADAPT_NOISE: Final = 0.2
"""``adapt=1``: the share of each level's model of the other spread evenly over all 10 pairs when
its pair is scored (a level's picks can miss the other's pair through the hidden stack, its clock or
a different temperature; without it one miss would rule a level out for good)."""
BELIEF_FLOOR: Final = 1e-3
"""``adapt=1``: no level's weight falls below this (renormalised), so a player that changes its
play can still be recognised later in the game."""
MAX_WHEEL_TURNS: Final = 3
"""Wheel turns tried within one player's phase 3 of a round (more are legal; they are not searched)."""


def _check_params(time_budget: object, temp: object) -> None:
    if time_budget is not None and (
        isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)) or not time_budget > 0
    ):
        raise ValueError(f"farmerama-duel: time must be a positive number of CPU seconds, got {time_budget!r}")
    if isinstance(temp, bool) or not isinstance(temp, (int, float)) or not temp > 0 or math.isinf(temp):
        raise ValueError(f"farmerama-duel: temp must be a positive number of stars, got {temp!r}")


def own_value(state: FarmeramaState, player: int) -> float:
    """``player``'s expected final stars (:func:`evaluation.estimate`), with the count of every card
    ``player`` did not choose set aside while it is computed: only the counts of the player's own
    cards (alone or shared) change its board, and the evaluation remembers its carry-outs by the
    position, so this lets every pairing with the same effect on the player share one computation."""
    saved = state.card_count
    cards = state.boards[player].cards
    state.card_count = [n if c in cards else 0 for c, n in enumerate(saved)]
    try:
        return estimate(state, player)
    finally:
        state.card_count = saved


def _settle_awards(sim: FarmeramaState) -> None:
    """Play phase 2 (the buildings of shared cards) on ``sim``: each choice the one its chooser's
    :func:`own_value` rates best (ties to the first)."""
    for _ in range(16):  # at most two awards, each a take and a few gains
        if sim.phase != AWARD:
            return
        p = sim.actors()[0]
        legal = sim.legal_actions(p)
        best, best_value = legal[0], -math.inf
        if len(legal) > 1:
            for action in legal:
                child = sim.clone()
                child.apply(p, action)
                value = own_value(child, p)
                if value > best_value + 1e-9:
                    best, best_value = action, value
        sim.apply(p, best)


def _base(world: FarmeramaState, opp: int) -> FarmeramaState:
    """``world`` with the other player's secret cards set aside (a determinization samples them)."""
    base = world.clone()
    base.boards[opp].cards = []
    base._legal = {}
    return base


def pair_value(base: FarmeramaState, player: int, pair: tuple[int, ...]) -> float:
    """``player``'s expected final stars with ``pair`` chosen, each card rated as played alone
    (the evaluation in phase 1; what the greedy agent sees)."""
    sim = base.clone()
    for card in pair:
        if card not in sim.boards[player].cards:
            sim.apply(player, CARD_ACTIONS[card])
    return own_value(sim, player)


def line_value(sim: FarmeramaState, player: int, memo: dict[tuple[object, ...], float] | None = None) -> float:
    """``player``'s expected final stars once it has carried out its cards this round by its best line
    (:func:`best_line`: every order of its steps, rated by the planner's board value with the
    actions left after the round), from phase 3's start (cards revealed, buildings awarded), as if
    it carried them out first. ``memo`` remembers values by what they depend on."""
    if sim.phase != ACT or player not in sim.act_order:
        raise ValueError(f"line_value: player {player} has no cards to carry out in this position")
    board = sim.boards[player]
    key: tuple[object, ...] = (
        player,
        sim.round,
        *board_key(board),
        tuple(board.garden),
        tuple((c, sim.card_count[c]) for c in sorted(board.cards)),
        tuple(sim.supply),
        len(sim.stack) + len(sim.display),
    )
    if memo is not None and key in memo:
        return memo[key]
    turn = sim.clone()
    if not (turn.act_order and turn.act_order[0] == player):
        turn.act_order = [player]
        turn._begin_player(player)
    turn.act_order = [player]
    turn._legal = {}
    value = best_line(turn, player)[0] if _mine_to_play(turn, player) else own_value(turn, player)
    if memo is not None:
        memo[key] = value
    return value


def payoff(
    base: FarmeramaState,
    me: int,
    mine: tuple[int, ...],
    theirs: tuple[int, ...],
    width: float = 0.0,
    lines: dict[tuple[object, ...], float] | None = None,
) -> float:
    """``me``'s expected final margin after ``me`` chose ``mine`` and the other ``theirs``: the cards
    revealed, the buildings awarded (:func:`_settle_awards`) and both players' cards rated as carried
    out (with ``lines`` given, a memo: carried out by each one's best line, :func:`line_value`;
    otherwise as the evaluation carries them out, one best step at a time). ``width`` > 0:
    ``σ(margin / width)`` instead, a win chance."""
    opp = 1 - me
    sim = base.clone()
    for card in mine:
        if card not in sim.boards[me].cards:
            sim.apply(me, CARD_ACTIONS[card])
    for card in theirs:
        sim.apply(opp, CARD_ACTIONS[card])
    _settle_awards(sim)
    if lines is not None and sim.phase == ACT:
        margin = line_value(sim, me, lines) - line_value(sim, opp, lines)
    else:
        margin = own_value(sim, me) - own_value(sim, opp)
    return margin if width <= 0 else 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, margin / width))))


def greedy_pairs(base: FarmeramaState, player: int) -> list[tuple[int, ...]]:
    """The pairs the greedy agent would choose as ``player`` (its first card the best played alone
    with no second card yet, then the best second card with it; every tie kept), sorted."""
    singles = {card: pair_value(base, player, (card,)) for card in range(len(CARDS))}
    top = max(singles.values())
    pairs: set[tuple[int, ...]] = set()
    for first in (c for c, v in singles.items() if v >= top - 1e-9):
        seconds = {c: pair_value(base, player, (first, c)) for c in range(len(CARDS)) if c != first}
        best = max(seconds.values())
        pairs.update(tuple(sorted((first, c))) for c, v in seconds.items() if v >= best - 1e-9)
    return sorted(pairs)


def opponent_model(
    base: FarmeramaState, opp: int, temp: float, greedy: float = 0.0
) -> list[tuple[tuple[int, ...], float]]:
    """The other player's pairs with their modelled chances: a softmax (temperature ``temp`` stars)
    of each pair's value to that player when played alone, mixed with weight ``greedy`` (0 to 1)
    with the pair(s) the greedy agent would choose (:func:`greedy_pairs`)."""
    pairs: list[tuple[int, ...]] = list(combinations(range(len(CARDS)), 2))
    values = [pair_value(base, opp, pair) for pair in pairs]
    top = max(values)
    weights = [math.exp((v - top) / temp) for v in values]
    total = sum(weights)
    chances = [(1.0 - greedy) * w / total for w in weights]
    if greedy > 0:
        picks = greedy_pairs(base, opp)
        for pick in picks:
            chances[pairs.index(pick)] += greedy / len(picks)
    return list(zip(pairs, chances, strict=True))


def choose_pair(
    world: FarmeramaState,
    me: int,
    temp: float = DEFAULT_TEMP,
    deadline: float | None = None,
    width: float = 0.0,
    greedy: float = 0.0,
    deep: float = 0.0,
    stop: float | None = None,
    eq: float = 0.0,
    nash: float = 0.0,
    rng: random.Random | None = None,
    line: bool = False,
    refine: int = 0,
    refine_by: float | None = None,
    level: int = 1,
    belief: list[float] | None = None,
    seen: dict[int, list[tuple[tuple[int, ...], float]]] | None = None,
    anytime: bool = False,
    report: dict[str, Any] | None = None,
) -> tuple[int, ...] | None:
    """The pair of action cards ``me`` should choose this round (two-player phase 1), or None when the
    budget allowed no complete rating. ``world``: a determinization. ``deadline`` (a ``process_time``
    reading): no new row of the table is started after it (the first always is); ``stop``: a row in
    progress after the first is abandoned (and not used) once it passes.

    ``deep`` (0 to 1): weight of a second-level model of the other player in its model: the pair
    the other would choose if it reasoned like this player with ``deep=0`` (its best answer, by the
    same table, to a softmax of this player's pairs played alone). ``level`` (1 or more) is the
    depth of that reasoning (:func:`_level_picks`): ``level=2`` models the other as a player with
    ``deep=1`` (the Hard level), which answers this player's ``deep=0`` choice.

    ``eq`` and ``nash`` (0 to 1) use the whole table (every pair against every pair, from the
    round's start) as a zero-sum matrix game (:func:`equilibrium.equilibrium`): ``eq`` is the
    weight of the other's equilibrium (minimax) strategy in its model; ``nash`` is the chance that
    this player plays a pair drawn (with ``rng``) from its own equilibrium (maximin) strategy
    instead of its best answer to the model. When the budget does not allow the whole table, the
    model alone is answered.

    ``line``: the table's entries carry both players' cards out by their best lines
    (:func:`line_value`, as this player plays phase 3) instead of the evaluation's step-by-step
    carry-out (costly: ~1.3 CPU s a table). ``refine`` (a count): once the table is rated, the
    ``refine`` best pairs are re-rated that way against the other's likeliest pairs
    (:func:`_refine`); if the clock passes ``refine_by`` (default ``stop``) first, the table's best
    pair is played.

    ``belief`` (with ``deep`` > 0): weights, one per level 0 to ``level``, of a mixture of the
    other's level-k models (level 0: the softmax; level k: its level-k picks, ties even) that
    replaces the single level-``level`` model, e.g. a posterior over which level the other plays
    (:class:`DuelAgent` with ``adapt=1``). ``seen``: a dict that receives each level's model of the
    other (level -> its chances per pair), when the level models were rated.

    ``anytime`` (with ``refine``): a refinement cut short by the clock still decides by the columns
    it finished, and the other's pairs it did not re-rate count at the table's rating
    (:func:`_refine` with ``table``). ``report``: a dict that receives the refinement's progress
    (:func:`_refine`), or ``refine`` = False when the table alone decided."""
    if world.players != 2 or world.phase != CHOOSE:
        raise ValueError("choose_pair is for phase 1 of a two-player game")
    if report is not None:
        report.update(refine=False, stopped=False)
    opp = 1 - me
    base = _base(world, opp)
    chosen = tuple(world.boards[me].cards)
    if chosen:  # the table is rated from the round's start: the other cannot see this player's card
        base.boards[me].cards = []
        base._legal = {}
    everything: list[tuple[int, ...]] = list(combinations(range(len(CARDS)), 2))
    mine = [pair for pair in everything if all(c in pair for c in chosen)]
    table: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
    lines: dict[tuple[object, ...], float] | None = {} if line else None

    def margin(pair: tuple[int, ...], theirs: tuple[int, ...]) -> float:
        found = table.get((pair, theirs))
        if found is None:
            found = table[(pair, theirs)] = payoff(base, me, pair, theirs, lines=lines)
        return found

    def rate(pair: tuple[int, ...], theirs: tuple[int, ...]) -> float:
        m = margin(pair, theirs)
        return m if width <= 0 else 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, m / width))))

    model = opponent_model(base, opp, temp, greedy)
    if deep > 0 and (deadline is None or time.process_time() < deadline):
        levels = _level_models(base, me, everything, margin, temp, level, deadline)
        if levels is not None:
            if seen is not None:
                seen.clear()
                seen[0] = list(model)
                for k, picks in enumerate(levels, start=1):
                    seen[k] = [(q, 1.0 / len(picks) if q in picks else 0.0) for q in everything]
            if belief is None:
                picks = levels[-1]
                model = [(q, (1.0 - deep) * w + (deep / len(picks) if q in picks else 0.0)) for q, w in model]
            else:
                if len(belief) != level + 1 or not sum(belief) > 0:
                    raise ValueError(f"choose_pair: belief needs {level + 1} weights (levels 0 to {level})")
                total = sum(belief)
                mixed = [belief[0] / total * w for _, w in model]
                for k, picks in enumerate(levels, start=1):
                    for i, q in enumerate(everything):
                        if q in picks:
                            mixed[i] += belief[k] / total / len(picks)
                model = [(q, (1.0 - deep) * w + deep * m) for (q, w), m in zip(model, mixed, strict=True)]
    if deadline is not None and time.process_time() > deadline:
        return None
    if eq > 0 or nash > 0:
        solved = _solve_table(everything, margin, deadline)
        if solved is not None:
            x, y = solved
            if nash > 0:
                if rng is None:
                    raise ValueError("choose_pair: nash > 0 needs an rng to draw the pair")
                if rng.random() < nash:
                    weights = [x[everything.index(pair)] for pair in mine]
                    if sum(weights) > 1e-9:
                        return rng.choices(mine, weights=weights)[0]
            if eq > 0:
                model = [(q, (1.0 - eq) * w + eq * y[i]) for i, (q, w) in enumerate(model)]
    alone = {pair: pair_value(base, me, pair) for pair in mine}
    mine.sort(key=lambda pair: -alone[pair])  # stable: equal values keep the card order
    best: tuple[int, ...] | None = None
    best_value = -math.inf
    rated: dict[tuple[int, ...], float] = {}
    for pair in mine:
        if deadline is not None and time.process_time() > deadline and best is not None:
            if report is not None:
                report["stopped"] = True
            return best
        value = 0.0
        for theirs, w in model:
            if best is not None and stop is not None and time.process_time() > stop:
                if report is not None:
                    report["stopped"] = True
                return best  # a row cut short is not used
            if w > 0:
                value += w * rate(pair, theirs)
        rated[pair] = value
        if value > best_value + 1e-9:
            best, best_value = pair, value
    if refine > 0 and best is not None and len(rated) > 1:
        if report is not None:
            report["refine"] = True
        try:
            with clock.deadline_at(stop if refine_by is None else refine_by):
                return _refine(base, me, rated, model, refine, rate if anytime else None, report, width)
        except clock.OutOfTime:
            if report is not None:
                report["stopped"] = True
            return best
    return best


def _best_answers(
    rows: list[tuple[int, ...]],
    dist: list[tuple[tuple[int, ...], float]],
    rate: Callable[[tuple[int, ...], tuple[int, ...]], float],
    deadline: float | None,
) -> list[tuple[int, ...]] | None:
    """The ``rows`` with the best expected ``rate(row, other)`` against the other's distribution
    ``dist`` (every tie kept, in ``rows``' order), or None when ``deadline`` passes first."""
    answers: dict[tuple[int, ...], float] = {}
    for row in rows:
        if deadline is not None and time.process_time() > deadline:
            return None
        answers[row] = sum(w * rate(row, other) for other, w in dist)
    top = max(answers.values())
    return [row for row in rows if answers[row] >= top - 1e-9]


def _level_picks(
    base: FarmeramaState,
    me: int,
    everything: list[tuple[int, ...]],
    margin: Callable[[tuple[int, ...], tuple[int, ...]], float],
    temp: float,
    level: int,
    deadline: float | None,
) -> list[tuple[int, ...]] | None:
    """The pairs the other player would choose at level ``level`` (the last of :func:`_level_models`),
    or None when ``deadline`` passes first."""
    levels = _level_models(base, me, everything, margin, temp, level, deadline)
    return None if levels is None else levels[-1]


def _level_models(
    base: FarmeramaState,
    me: int,
    everything: list[tuple[int, ...]],
    margin: Callable[[tuple[int, ...], tuple[int, ...]], float],
    temp: float,
    level: int,
    deadline: float | None,
) -> list[list[tuple[int, ...]]] | None:
    """The pairs the other player would choose if it reasoned ``level`` steps deep (level-k
    reasoning on the table ``margin``, ``me``'s margin, zero-sum): at level 0 a player is the
    softmax of its pairs played alone (:func:`opponent_model`); at level k it plays its best answer
    (ties spread evenly) to the other at level k - 1. So level 1 is the other as the Normal player
    (``deep=0``) and level 2 the other as the Hard player (``deep=1``). None when ``deadline``
    passes before the needed rows are rated. Returned: the picks at every level from 1 to ``level``
    (the list's last entry is level ``level``'s)."""
    opp = 1 - me
    mine_at = opponent_model(base, me, temp)  # this player at level 0
    theirs_at = opponent_model(base, opp, temp)  # the other at level 0
    found: list[list[tuple[int, ...]]] = []
    for k in range(1, level + 1):
        their_picks = _best_answers(everything, mine_at, lambda q, p: -margin(p, q), deadline)
        if their_picks is None:
            return None
        found.append(their_picks)
        if k == level:
            return found
        my_picks = _best_answers(everything, theirs_at, margin, deadline)
        if my_picks is None:
            return None
        mine_at = [(p, 1.0 / len(my_picks)) for p in my_picks]
        theirs_at = [(q, 1.0 / len(their_picks)) for q in their_picks]
    raise AssertionError("unreachable: level >= 1")


REFINE_MASS: Final = 0.9
"""Refinement: the other's likeliest pairs re-rated, until their modelled chances add up to this."""
REFINE_COLUMNS: Final = 4
"""Refinement: at most this many of the other's pairs re-rated."""


def refine_columns(model: list[tuple[tuple[int, ...], float]]) -> list[tuple[tuple[int, ...], float]]:
    """The other's pairs a refinement re-rates against: the likeliest of ``model`` (pair, chance) first,
    at most :data:`REFINE_COLUMNS`, until their chances add up to :data:`REFINE_MASS`.

    >>> refine_columns([((1, 2), 0.05), ((0, 1), 0.5), ((2, 3), 0.45)])
    [((0, 1), 0.5), ((2, 3), 0.45)]
    """
    columns: list[tuple[tuple[int, ...], float]] = []
    mass = 0.0
    for theirs, w in sorted(model, key=lambda m: -m[1]):
        if mass >= REFINE_MASS or len(columns) >= REFINE_COLUMNS:
            break
        columns.append((theirs, w))
        mass += w
    return columns


def _refine(
    base: FarmeramaState,
    me: int,
    rated: dict[tuple[int, ...], float],
    model: list[tuple[tuple[int, ...], float]],
    keep: int,
    table: Callable[[tuple[int, ...], tuple[int, ...]], float] | None = None,
    report: dict[str, Any] | None = None,
    width: float = 0.0,
) -> tuple[int, ...]:
    """The best of this player's ``keep`` best-rated pairs (``rated``: expected margin against the
    model) once re-rated with both players carrying out their cards by their best lines
    (:func:`payoff` with a line memo) against the other's likeliest pairs (at most
    :data:`REFINE_COLUMNS`, until their chances add up to :data:`REFINE_MASS`).

    Anytime: the re-rating goes one column (one pair of the other's, likeliest first) at a time,
    for all ``keep`` pairs, so when the decision's clock (:mod:`farmtable.core.clock`) runs out the
    columns finished so far still decide. Without ``table`` a pair is rated by its mean over the
    finished columns (chances renormalised); with ``table`` (the table's rating of a pair against
    a pair, as summed in ``rated``) by ``rated`` with every finished column's entry replaced by its
    best-line value (on the table's scale: ``width`` as in :func:`payoff`; so the other's unrefined
    pairs still count, at the table's rating). When the first column is cut short, the best of the
    pairs it re-rated (the table's best first) by their table rating with that entry replaced; with
    none re-rated, the table's best pair (the first of ``rated``'s best). Without ``table``, a
    re-rating cut short by the clock is not used at all: the table's best pair (sessions 11-13).
    ``report`` (a dict) receives ``columns`` (planned), ``done`` (finished), ``mass`` (their
    chances), ``stopped`` (True when the clock ran out), ``rows`` (when it ran out in the first
    column: the pairs that column re-rated), ``at`` (the ``process_time`` it started) and ``spent``
    (CPU s from then to the end of each finished column)."""
    top = sorted(rated, key=lambda pair: -rated[pair])[:keep]
    rated_best = top[0]
    columns = refine_columns(model)
    lines: dict[tuple[object, ...], float] = {}
    sums = dict.fromkeys(top, 0.0)
    done = 0
    done_mass = 0.0
    column: dict[tuple[int, ...], float] = {}
    if report is not None:
        report.update(columns=len(columns), done=0, mass=0.0, stopped=False, at=time.process_time(), spent=[])
    try:
        for theirs, w in columns:
            column = {}
            for pair in top:  # the table's best first
                column[pair] = payoff(base, me, pair, theirs, width if table is not None else 0.0, lines)
            for pair in top:
                sums[pair] += w * (column[pair] - (table(pair, theirs) if table is not None else 0.0))
            done += 1
            done_mass += w
            if report is not None:
                report.update(done=done, mass=done_mass)
                report["spent"].append(time.process_time() - report["at"])
    except clock.OutOfTime:
        if report is not None:
            report.update(stopped=True, rows=len(column) if done == 0 else 0)
        if table is None:  # the table's best pair, as before session 14
            return top[0]
        if done == 0:  # the first column cut short: the best of the pairs it re-rated
            theirs, w = columns[0]
            top = list(column)
            sums = {pair: w * (column[pair] - table(pair, theirs)) for pair in top}
            if not top:
                return rated_best
    best, best_value = top[0], -math.inf
    for pair in top:
        value = rated[pair] + sums[pair] if table is not None else sums[pair] / done_mass
        if value > best_value + 1e-9:
            best, best_value = pair, value
    return best


def _solve_table(
    everything: list[tuple[int, ...]],
    margin: Callable[[tuple[int, ...], tuple[int, ...]], float],
    deadline: float | None,
) -> tuple[list[float], list[float]] | None:
    """Both players' equilibrium strategies over ``everything`` (this player's, the other's) of the
    table ``margin``, or None when ``deadline`` passes before the table is full."""
    rows: list[list[float]] = []
    for pair in everything:
        if deadline is not None and time.process_time() > deadline:
            return None
        rows.append([margin(pair, theirs) for theirs in everything])
    # imported here: scipy costs ~0.9 CPU s to import and only the (off by default) eq/nash play needs it
    from farmtable.games.farmerama.equilibrium import equilibrium

    x, y, _ = equilibrium(rows)
    return [float(v) for v in x], [float(v) for v in y]


def cards_left_this_round(state: FarmeramaState, player: int) -> int:
    """Action cards ``player`` still carries out this round (phase 3), the one in progress included."""
    if state.phase != ACT or player not in state.act_order:
        return 0
    board = state.boards[player]
    if board.pending or board.current != NO_CARD:
        return len(board.pending) + (1 if board.current != NO_CARD else 0)
    return len(board.cards)


def _line_key(state: FarmeramaState, player: int) -> tuple[object, ...]:
    """What a planned phase-3 line depends on: the round, the phase and ``player``'s board and cards."""
    board = state.boards[player]
    return (
        state.round,
        state.phase,
        *board_key(board),
        tuple(board.cards),
        tuple(board.pending),
        board.current,
        board.remaining,
        tuple(state.supply),
    )


def _mine_to_play(state: FarmeramaState, player: int) -> bool:
    return state.phase == ACT and player in state.actors()


def best_line(state: FarmeramaState, player: int) -> tuple[float, list[str]]:
    """The best way for ``player`` to carry out the rest of its cards this round (phase 3, its turn):
    every distinct order of its steps, card starts, wheel turns (at most :data:`MAX_WHEEL_TURNS`) and
    ``done`` is tried (positions reached twice are rated once), and the end of its turn is rated by
    the planner's :func:`planner.board_value` with the actions left after this round. Its value and
    one line of actions that reaches it. Checks the decision's clock (:mod:`farmtable.core.clock`)
    as it goes. Nothing in phase 3 is hidden or random, so the line can be played as it stands."""
    if not _mine_to_play(state, player):
        raise ValueError(f"best_line: player {player} is not carrying out cards now")
    after = actions_left(state, player) - cards_left_this_round(state, player)
    memo: dict[tuple[object, ...], tuple[float, list[str]]] = {}

    def key(sim: FarmeramaState, turns: int) -> tuple[object, ...]:
        board = sim.boards[player]
        return (
            turns,
            *board_key(board),
            board.current,
            board.remaining,
            tuple(board.pending),
            tuple(sim.supply),
            sim.phase,
        )

    def walk(sim: FarmeramaState, turns: int) -> tuple[float, list[str]]:
        k = key(sim, turns)
        found = memo.get(k)
        if found is not None:
            return found
        clock.check()
        best: tuple[float, list[str]] = (-math.inf, [])
        for action in sim.legal_actions(player):
            wheel = action == "turn-wheel"
            if wheel and turns >= MAX_WHEEL_TURNS:
                continue
            child = sim.clone()
            child.apply(player, action)
            if _mine_to_play(child, player):
                value, line = walk(child, turns + wheel)
            else:
                value, line = board_value(child.boards[player], after), []
            if value > best[0] + 1e-9:
                best = (value, [action, *line])
        memo[k] = best
        return best

    return walk(state, 0)


class DuelAgent(Agent):
    """The two-player Farmerama player (spec ``farmerama-duel:time=0.2,temp=2.0``); see the module.

    Parameters: ``time`` (CPU seconds per decision, default 0.2), ``temp`` (the
    softmax temperature of the other player's model, in stars, default 2.0); options of
    :func:`choose_pair`, off by default: ``width``, ``greedy``, ``deep``, ``eq`` and ``nash``
    (equilibrium play, shares 0 to 1), ``refine`` (pairs re-rated by best lines, 0 to 10),
    ``level`` (the depth of the ``deep`` model, 1 to 4), ``adapt=1`` (with ``deep``: the other
    modelled as a mixture of its level-0 to level-``level`` models, weighted by how well each
    foresaw the pairs it revealed so far this game: :meth:`observe`), ``anytime=1`` (with
    ``refine``: a refinement cut short by the clock decides by the columns it finished);
    ``plan=0`` plays phase 3 by greedy steps.
    """

    name = "farmerama-duel"

    def __init__(
        self,
        seed: int | None = None,
        time: float | None = DEFAULT_TIME,
        temp: float = DEFAULT_TEMP,
        width: float = 0.0,
        plan: int = 1,
        greedy: float = 0.0,
        deep: float = 0.0,
        eq: float = 0.0,
        nash: float = 0.0,
        refine: int = 0,
        level: int = 1,
        adapt: int = 0,
        anytime: int = 0,
    ) -> None:
        _check_params(time, temp)
        if plan not in (0, 1) or isinstance(plan, bool):
            raise ValueError(f"farmerama-duel: plan must be 0 (greedy steps) or 1 (best line), got {plan!r}")
        if isinstance(width, bool) or not isinstance(width, (int, float)) or not 0 <= width < math.inf:
            raise ValueError(f"farmerama-duel: width must be a number of stars of at least 0, got {width!r}")
        if isinstance(greedy, bool) or not isinstance(greedy, (int, float)) or not 0 <= greedy <= 1:
            raise ValueError(f"farmerama-duel: greedy must be a share from 0 to 1, got {greedy!r}")
        if isinstance(deep, bool) or not isinstance(deep, (int, float)) or not 0 <= deep <= 1:
            raise ValueError(f"farmerama-duel: deep must be a share from 0 to 1, got {deep!r}")
        for word, share in (("eq", eq), ("nash", nash)):
            if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
                raise ValueError(f"farmerama-duel: {word} must be a share from 0 to 1, got {share!r}")
        if isinstance(refine, bool) or not isinstance(refine, int) or not 0 <= refine <= 10:
            raise ValueError(f"farmerama-duel: refine must be a whole number of pairs from 0 to 10, got {refine!r}")
        if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 4:
            raise ValueError(f"farmerama-duel: level must be a whole number from 1 to 4, got {level!r}")
        if adapt not in (0, 1) or isinstance(adapt, bool):
            raise ValueError(f"farmerama-duel: adapt must be 0 or 1, got {adapt!r}")
        if adapt and not deep:
            raise ValueError("farmerama-duel: adapt=1 weighs the level models of deep=, so it needs deep > 0")
        if anytime not in (0, 1) or isinstance(anytime, bool):
            raise ValueError(f"farmerama-duel: anytime must be 0 or 1, got {anytime!r}")
        params: dict[str, Any] = {"temp": temp}
        if anytime:
            params["anytime"] = anytime
        if adapt:
            params["adapt"] = adapt
        if level != 1:
            params["level"] = level
        if refine:
            params["refine"] = refine
        if eq:
            params["eq"] = eq
        if nash:
            params["nash"] = nash
        if deep:
            params["deep"] = deep
        if greedy:
            params["greedy"] = greedy
        if width:
            params["width"] = width
        if not plan:
            params["plan"] = plan
        if time is not None:
            params["time"] = time
        super().__init__(seed, **params)
        self.budget = None if time is None else float(time)
        self.temp = float(temp)
        self.width = float(width)
        self.plan = bool(plan)
        self.greedy = float(greedy)
        self.deep = float(deep)
        self.eq = float(eq)
        self.nash = float(nash)
        self.refine = refine
        self.level = level
        self._start = 0.0
        self._line: list[str] = []
        self._expect: tuple[object, ...] | None = None
        self.rng = random.Random(seed)
        self._second: tuple[int, tuple[int, ...], int] | None = None
        """(round, cards chosen, the pair's other card) after playing a pair's first card."""
        self.last_pair: tuple[int, ...] | None = None
        """The pair chosen at the last phase-1 decision that rated pairs (None: fell back to greedy)."""
        self.adapt = bool(adapt)
        self.belief: list[float] = [1.0 / (level + 1)] * (level + 1)
        """``adapt=1``: the weight of each of the other's levels 0 to ``level`` (a posterior, from even)."""
        self._forecast: tuple[int, dict[int, list[tuple[tuple[int, ...], float]]]] | None = None
        """(round, each level's model of the other's pair) from this round's first rated table."""
        self.anytime = bool(anytime)
        self.tables: list[dict[str, Any]] = []
        """Per phase-1 table rated (a pair's first card): the round and :func:`choose_pair`'s report
        (did the refinement run, was it stopped, how many of its columns it finished)."""
        self.history: list[dict[str, Any]] = []
        """``adapt=1``: per round observed, the other's pair, each level's chance of it, the belief after."""

    def act(self, state: State[Any], player: int) -> Any:
        """Phase 1 of a two-player game: a card of the best pair; otherwise the greedy agent's move."""
        start = self._start = time.process_time()
        legal = legal_actions_or_refuse(state, player)
        if self._forecast is not None:
            self.observe(state, player)
        if len(legal) == 1:
            return legal[0]
        world = state.determinize(player, random.Random(self.rng.getrandbits(64)))
        if not isinstance(world, FarmeramaState) or world.players != 2:
            return legal[greedy_choice(world, player, self.rng)]
        deadline = None if self.budget is None else start + SAFETY * self.budget
        with clock.deadline_at(None if self.budget is None else start + self.budget):
            if world.phase == CHOOSE:
                return self._choose(world, player, legal, deadline)
            if self.plan and _mine_to_play(world, player):
                plan_by = None if self.budget is None else start + PLAN_SHARE * self.budget
                return self._step(world, player, legal, plan_by)
        return legal[greedy_choice(world, player, self.rng)]

    def observe(self, state: State[Any], player: int) -> None:
        """``adapt=1``: once the round's cards are revealed (phases 2 and 3), score each level's
        forecast of the other's pair (made at this round's first table) by the chance it gave the
        pair actually revealed (mixed with :data:`ADAPT_NOISE` of an even spread) and multiply the
        level's weight by it (Bayes' rule). Read from a determinization: after the reveal the
        other's cards are public."""
        if self._forecast is None or not isinstance(state, FarmeramaState):
            return
        round_, forecast = self._forecast
        if state.round != round_ or state.phase == CHOOSE:
            if state.round != round_:
                self._forecast = None  # the reveal was not seen (no decision of this player in it)
            return
        self._forecast = None
        seen = state.determinize(player, random.Random(0))
        theirs = tuple(sorted(seen.boards[1 - player].cards))
        if len(theirs) != 2:
            return
        chances = [dict(forecast[k]).get(theirs, 0.0) if k in forecast else 0.0 for k in range(len(self.belief))]
        spread = 1.0 / len(list(combinations(range(len(CARDS)), 2)))
        posterior = [
            b * ((1.0 - ADAPT_NOISE) * c + ADAPT_NOISE * spread) for b, c in zip(self.belief, chances, strict=True)
        ]
        total = sum(posterior)
        floored = [max(b / total, BELIEF_FLOOR) for b in posterior]
        self.belief = [b / sum(floored) for b in floored]
        self.history.append(
            {
                "round": round_,
                "theirs": list(theirs),
                "chances": [round(c, 4) for c in chances],
                "belief": [round(b, 4) for b in self.belief],
            }
        )

    def _step(self, world: FarmeramaState, player: int, legal: list[Any], deadline: float | None) -> Any:
        """Phase 3: the next action of the best line (:func:`best_line`), planned at the turn's first
        step (and again at the next step when the budget did not allow it)."""
        if not (self._line and self._expect == _line_key(world, player) and self._line[0] in legal):
            try:
                with clock.deadline_at(deadline):
                    self._line = best_line(world, player)[1]
            except clock.OutOfTime:
                self._line = []
        if not self._line or self._line[0] not in legal:
            self._line, self._expect = [], None
            return legal[greedy_choice(world, player, self.rng)]
        action = self._line.pop(0)
        world.apply(player, action)
        self._expect = _line_key(world, player)
        return action

    def _choose(self, world: FarmeramaState, player: int, legal: list[Any], deadline: float | None) -> Any:
        chosen = tuple(world.boards[player].cards)
        if chosen and self._second is not None and self._second[:2] == (world.round, chosen):
            action = CARD_ACTIONS[self._second[2]]
            self._second = None
            if action in legal:
                return action
        self._second = None
        seen: dict[int, list[tuple[tuple[int, ...], float]]] = {}
        report: dict[str, Any] = {"round": world.round}
        try:
            stop = None if self.budget is None else self._start + STOP_SHARE * self.budget
            pair = choose_pair(
                world,
                player,
                self.temp,
                deadline,
                self.width,
                self.greedy,
                self.deep,
                stop,
                eq=self.eq,
                nash=self.nash,
                rng=self.rng,
                refine=self.refine,
                refine_by=None if self.budget is None else self._start + REFINE_SHARE * self.budget,
                level=self.level,
                belief=list(self.belief) if self.adapt else None,
                seen=seen if self.adapt else None,
                anytime=self.anytime,
                report=report,
            )
        except clock.OutOfTime:
            pair = None
            report["stopped"] = True
        self.tables.append(report)
        if seen and not chosen and (self._forecast is None or self._forecast[0] != world.round):
            self._forecast = (world.round, seen)
        self.last_pair = pair
        if pair is None:
            return legal[greedy_choice(world, player, self.rng)]
        todo = [card for card in pair if card not in chosen]
        if len(todo) == 2:
            self._second = (world.round, (todo[0],), todo[1])
        return CARD_ACTIONS[todo[0]]
