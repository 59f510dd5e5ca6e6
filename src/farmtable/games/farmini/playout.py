"""A cheap playout policy for two-player Farmini, fast enough to rate a take on many sampled worlds.

The duel player (:mod:`duel`) rates each card it may take in sampled worlds (the unseen deck
shuffled, ``state.determinize``) by one greedy reply of the other and the evaluation. Playing
further ahead in each world costs what the greedy agent's take costs: every face-up card taken on
a copy of the position and the position rated with the full lookahead (``evaluation.heuristic``:
both players' estimates, a fence card's three best placements laid on copies of the farm), about
5 CPU ms a turn, so a few worlds a second.

The **fast turn** here plays a whole turn (take and play) by a cheaper rule:

* each playable face-up card is valued by the mover's own estimate after playing it, the way the
  evaluation's lookahead values a held card, but from the quick values only: a fence card by its
  best placement's quick value (``evaluation._rank_placements``: no card laid, no score sheet
  flooded), an animal card by its tokens put one by one on the best free cell
  (``evaluation._animal_completion``); nothing is cloned and the other's estimate is not asked;
* the card of best value is taken (ties: the first), then played the way it was valued;
* a card's value and its moves are **cached per card** for the farm it meets (its cards, its
  animals, the card, what is still unseen as a set): worlds that share a decision's first turns
  meet the same farms and cards again (the mover's farm does not change between its turns), so
  most of a decision's first plies cost a dictionary look-up.

When no card can be played the first is discarded (rare; the greedy agent rates the discards).

:func:`rollout_margin` takes a card in a world, finishes the turn as the duel does
(:func:`duel.finish_turn`'s moves, the lookahead's), then plays ``plies`` fast turns (both players)
and rates the position by the evaluation's margin (exact once the game is over). The duel player
uses it with ``playout=N`` (``farmini-duel:time=1.0,playout=N``).
"""

from __future__ import annotations

from typing import Any, Final

from farmtable.games.farmini.components import ALL_CARDS, AnimalCard, FenceCard
from farmtable.games.farmini.evaluation import (
    MULTI_MODEL,
    _animal_completion,
    _layout_key,
    _public,
    _rank_placements,
    completion_moves,
    evaluate,
    warm,
    weights,
)
from farmtable.games.farmini.farm import Cell
from farmtable.games.farmini.rules import Discard, FarminiState, Place, PutAnimal, Take

Plan = tuple[float, tuple[Place | PutAnimal, ...]]
"""A card's value to the mover (its estimate after playing it) and the moves that play it."""

CACHE_MAX: Final = 50_000
"""Most plans one cache keeps (a decision uses a few thousand; the cache is then emptied)."""


class PlanCache:
    """Per-card plans of the fast turn, keyed by the farm, the card and the unseen cards (bounded:
    once :data:`CACHE_MAX` plans are kept it is emptied). ``hits`` and ``misses`` count look-ups."""

    def __init__(self) -> None:
        self.plans: dict[tuple[object, ...], Plan | None] = {}
        self.hits = 0
        self.misses = 0

    def plan(self, state: FarminiState, player: int, cid: str) -> Plan | None:
        """The plan of ``player`` taking face-up card ``cid`` in ``state`` (None: it cannot be played)."""
        farm = warm(state.farms[player])
        wolves_left, animals_left, cards_left = _public(state)
        key = (
            _layout_key(farm),
            frozenset(farm.animals.items()),
            cid,
            tuple(wolves_left.values()),
            animals_left,
            cards_left,
        )
        hit = self.plans.get(key, self)
        if hit is not self:
            self.hits += 1
            return hit  # type: ignore[return-value]
        self.misses += 1
        if len(self.plans) >= CACHE_MAX:
            self.plans.clear()
        made = card_plan(state, player, cid)
        self.plans[key] = made
        return made


def card_plan(state: FarminiState, player: int, cid: str) -> Plan | None:
    """``player``'s estimate after playing card ``cid`` (face up or held) and the moves that play it,
    by the lookahead's quick values (see the module); None when the card cannot be played."""
    model = weights()[MULTI_MODEL]
    card = state.faces.cards.get(cid) or ALL_CARDS[cid]
    if isinstance(card, FenceCard):
        ranked = _rank_placements(state, player, cid, model)
        if not ranked:
            return None
        value, pos, rot, _ = ranked[0]
        return value, (Place(cid, pos[0], pos[1], rot),)
    if isinstance(card, AnimalCard):
        tokens = card.count if state.pending != cid else state.pending_left
        cells: list[Cell] = []
        value = _animal_completion(state, player, card.kind, tokens, model, cells)
        if len(cells) < tokens:
            return None
        return value, tuple(PutAnimal(card.kind, *cell) for cell in cells)
    return None


def _finish(sim: FarminiState, player: int) -> None:
    """Play whatever ``player`` still owes this turn by the first legal move (a safety net)."""
    for _ in range(8):
        if sim.is_over() or sim.current != player or sim.pending is None:
            return
        sim.apply(player, sim.legal_actions(player)[0])


def fast_choice(sim: FarminiState, player: int, cache: PlanCache) -> tuple[Take | Discard, Plan | None]:
    """The fast rule's decision for ``player`` (who has not taken a card yet) on ``sim``: the take of
    best cached plan (ties: the first) with its plan; with no playable card the first discard and
    None. Raises ``ValueError`` when ``player`` has no take or discard to decide."""
    legal = sim.legal_actions(player)
    if not legal or not isinstance(legal[0], (Take, Discard)):
        raise ValueError("fast_choice: the player has no card to take or discard now")
    if isinstance(legal[0], Discard):
        return legal[0], None
    best: Take | Discard = legal[0]
    best_plan: Plan | None = None
    for action in legal:
        assert isinstance(action, Take)
        plan = cache.plan(sim, player, sim.table[action.slot - 1])
        if plan is not None and (best_plan is None or plan[0] > best_plan[0]):
            best, best_plan = action, plan
    return best, best_plan


def fast_turn(sim: FarminiState, player: int, cache: PlanCache) -> None:
    """``player`` plays a whole turn on ``sim`` by the fast rule (:func:`fast_choice`): the card of best
    cached plan is taken and played as planned; with no playable card the first is discarded."""
    if sim.pending is not None:
        _finish(sim, player)
        return
    action, plan = fast_choice(sim, player, cache)
    sim.apply(player, action)
    for move in plan[1] if plan is not None else ():
        if sim.current != player or sim.pending is None:
            break
        sim.apply(player, move)
    _finish(sim, player)


def own_moves(world: FarminiState, me: int, take: Any) -> list[Place | PutAnimal]:
    """The moves that finish ``me``'s turn after ``take`` in ``world`` the duel's way (the lookahead's
    :func:`evaluation.completion_moves`). They do not depend on the deck's order, so a decision
    computes them once per card and plays them in every world."""
    sim = world.clone()
    sim.apply(me, take)
    return completion_moves(sim, me)


def rollout_margin(
    world: FarminiState,
    me: int,
    take: Any,
    plies: int,
    cache: PlanCache,
    moves: list[Place | PutAnimal] | None = None,
) -> float:
    """``me``'s margin (``evaluate()[me] - evaluate()[other]``, exact once the game is over) after
    taking ``take`` in ``world``, finishing the turn (``moves``, default :func:`own_moves`) and
    ``plies`` fast turns of both players (:func:`fast_turn`). ``world`` is not changed."""
    values = evaluate(rollout(world, me, take, plies, cache, moves))
    return values[me] - values[1 - me]


def rollout(
    world: FarminiState,
    me: int,
    take: Any,
    plies: int,
    cache: PlanCache,
    moves: list[Place | PutAnimal] | None = None,
) -> FarminiState:
    """The position :func:`rollout_margin` rates: a copy of ``world`` after ``me`` takes ``take``,
    finishes the turn (``moves``, default :func:`own_moves`) and ``plies`` fast turns of both players
    are played (fewer if the game ends). ``world`` is not changed."""
    sim = world.clone()
    sim.apply(me, take)
    for move in own_moves(world, me, take) if moves is None else moves:
        if sim.current != me or sim.pending is None:
            break
        sim.apply(me, move)
    _finish(sim, me)
    for _ in range(plies):
        if sim.is_over():
            break
        fast_turn(sim, sim.current, cache)
    return sim
