"""Hypothesis properties of Farmini: pen geometry invariants, token conservation, legal moves."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from farmtable.core import BadInput, CorruptSave, IllegalAction
from farmtable.games.farmini.components import FENCE_CARDS, KINDS, TOKENS_PER_KIND, TOTAL_TOKENS
from farmtable.games.farmini.farm import DELTA, MIRROR, ORIENTED, ROTATIONS, Cell, Farm, Pos, canonical_rotation
from farmtable.games.farmini.rules import GAME, VARIANTS, Discard, FarminiState, Place, PutAnimal, Take
from farmtable.games.farmini.scoring import ScoringRules, score_sheet

SEEDS = st.integers(min_value=0, max_value=2**32)
ALL_RULES = [ScoringRules(a, b) for a in (False, True) for b in (False, True)]


def random_farm(seed: int, cards: int) -> Farm:
    """A farm grown by legal placements of random fence cards, with random animals."""
    rng = random.Random(seed)
    farm = Farm()
    farm.put_card("H1", (0, 0), 0)
    pool = [c.id for c in FENCE_CARDS]
    rng.shuffle(pool)
    for card_id in pool[:cards]:
        spots = list(farm.placements(card_id))
        if spots:
            pos, rot = rng.choice(spots)
            farm.put_card(card_id, pos, rot)
    for cell in farm.animal_cells():
        if rng.random() < 0.5:
            farm.animals[cell] = rng.choice(KINDS)
    return farm


def rotate_farm(farm: Farm) -> Farm:
    """The whole farm turned 90 degrees clockwise: (x, y) -> (y, -x), each card turned 90 more."""
    turned = Farm()
    for (x, y), card in farm.cards.items():
        turned.put_card(card.card_id, (y, -x), (card.rot + 90) % 360)
    for (x, y, q), kind in farm.animals.items():
        turned.animals[y, -x, (q + 1) % 4] = kind
    return turned


def oracle_pens(farm: Farm) -> set[frozenset[Cell]]:
    """Pens by another route: corners of the card grid joined across pasture arms.

    Every quarter belongs to one corner point of the card grid (NE of card (x, y) to the
    corner (x+1, y+1)); the four quarters around a corner always connect (no fence on card
    edges). Two corners are joined when the arm between them is pasture. A group of corners
    is a pen when every corner in it has all four cards around it.
    """
    corner_of = {0: (1, 1), 1: (1, 0), 2: (0, 0), 3: (0, 1)}  # quarter -> corner offset
    corners: dict[Pos, list[Cell]] = {}
    for x, y in farm.cards:
        for q in range(4):
            dx, dy = corner_of[q]
            corners.setdefault((x + dx, y + dy), []).append((x, y, q))
    parent = {c: c for c in corners}

    def find(c: Pos) -> Pos:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    # arm N of card (x, y) runs between corners (x, y+1) and (x+1, y+1), etc.
    arm_between = {0: ((0, 1), (1, 1)), 1: ((1, 1), (1, 0)), 2: ((1, 0), (0, 0)), 3: ((0, 0), (0, 1))}
    for (x, y), card in farm.cards.items():
        for side in range(4):
            if not card.arms[side]:
                (ax, ay), (bx, by) = arm_between[side]
                parent[find((x + ax, y + ay))] = find((x + bx, y + by))
    groups: dict[Pos, list[Pos]] = {}
    for c in corners:
        groups.setdefault(find(c), []).append(c)
    pens = set()
    for members in groups.values():
        if all(len(corners[c]) == 4 for c in members):
            pens.add(frozenset(cell for c in members for cell in corners[c]))
    return pens


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=30))
def test_pens_agree_with_an_independent_corner_computation(seed: int, cards: int) -> None:
    farm = random_farm(seed, cards)
    assert {frozenset(p.cells) for p in farm.pens()} == oracle_pens(farm)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=30))
def test_turning_the_whole_farm_changes_no_pen_and_no_score(seed: int, cards: int) -> None:
    farm = random_farm(seed, cards)
    turned = rotate_farm(farm)
    # every card still matches its neighbours
    for pos, card in list(turned.cards.items()):
        del turned.cards[pos]
        assert turned.misfit(card, pos) is None or not turned.cards
        turned.cards[pos] = card
    turned._changed()
    expected = {frozenset((y, -x, (q + 1) % 4) for (x, y, q) in p.cells) for p in farm.pens()}
    assert {frozenset(p.cells) for p in turned.pens()} == expected
    for rules in ALL_RULES:
        assert score_sheet(turned, rules) == score_sheet(farm, rules)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=25), st.data())
def test_adding_a_card_never_opens_or_changes_a_closed_pen(seed: int, cards: int, data: st.DataObject) -> None:
    farm = random_farm(seed, cards)
    before = {frozenset(p.cells) for p in farm.pens()}
    used = {o.card_id for o in farm.cards.values()}
    spots = [(c.id, pos, rot) for c in FENCE_CARDS if c.id not in used for pos, rot in farm.placements(c.id)]
    if not spots:
        return
    card_id, pos, rot = data.draw(st.sampled_from(spots))
    farm.put_card(card_id, pos, rot)
    after = {frozenset(p.cells) for p in farm.pens()}
    assert before <= after


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=30))
def test_regions_partition_the_quarters_and_pens_are_closed(seed: int, cards: int) -> None:
    farm = random_farm(seed, cards)
    cells = [c for r in farm.regions() for c in r.cells]
    assert len(cells) == len(set(cells)) == 4 * len(farm.cards)
    for pen in farm.pens():
        for x, y, q in pen.cells:
            for side in (q, (q + 1) % 4):
                dx, dy = DELTA[side]
                assert (x + dx, y + dy) in farm.cards  # closed on every side
                assert (x + dx, y + dy, MIRROR[side][q]) in pen.cells


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=30))
def test_placements_agree_with_the_side_by_side_check(seed: int, cards: int) -> None:
    farm = random_farm(seed, cards)
    for card in FENCE_CARDS:
        fast = set(farm.placements(card.id))
        slow = {
            (pos, canonical_rotation(card.id, rot))
            for pos in farm.frontier()
            for rot in ROTATIONS
            if farm.fits(ORIENTED[card.id, rot], pos)
        }
        assert fast == slow
        assert farm.can_place(card.id) == bool(fast)
        assert all(farm.misfit(ORIENTED[card.id, rot], pos) is None for pos, rot in fast)


def _play(state: FarminiState, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_over():
            return
        p = state.actors()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))


GAME_SETUPS = st.sampled_from(
    [(players, ()) for players in range(1, 5)] + [(1, (v,)) for v in VARIANTS] + [(3, ("second-variant",))]
)


@settings(max_examples=25, deadline=None)
@given(SEEDS, GAME_SETUPS)
def test_tokens_are_conserved_through_a_whole_game(seed: int, setup: tuple[int, tuple[str, ...]]) -> None:
    players, variants = setup
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    rng = random.Random(seed)
    while not state.is_over():
        for kind in KINDS:
            on_farms = sum(f.count(kind) for f in state.farms)
            assert on_farms + state.farmyard[kind] == TOKENS_PER_KIND
        assert sum(len(f.animals) for f in state.farms) + sum(state.farmyard.values()) == TOTAL_TOKENS
        _play(state, rng, 1)
    assert state.table == [] and state.deck == [] and state.pending is None


@settings(max_examples=25, deadline=None)
@given(SEEDS, GAME_SETUPS, st.integers(min_value=0, max_value=120))
def test_check_action_accepts_exactly_the_legal_actions(
    seed: int, setup: tuple[int, tuple[str, ...]], steps: int
) -> None:
    players, variants = setup
    state = GAME.new_game(players=players, seed=seed, variants=variants)
    _play(state, random.Random(seed), steps)
    if state.is_over():
        return
    p = state.actors()[0]
    legal = state.legal_actions(p)
    assert len(legal) == len(set(legal))
    assert legal == state.clone().legal_actions(p)  # deterministic order
    for action in legal:
        state.check_action(p, action)
        assert state.parse_action(p, str(action)) == action
    # a superset of candidates: every slot, every frontier place and rotation, every cell
    farm = state.farms[p]
    candidates: list[object] = [Take(slot) for slot in range(7)] + [Discard(slot) for slot in range(7)]
    if state.pending is not None:
        for x, y in farm.frontier() + list(farm.cards):
            for rot in (0, 90, 180, 270):
                candidates.append(Place(state.pending, x, y, rot))
        for x, y in farm.cards:
            for q in range(4):
                for kind in KINDS:
                    candidates.append(PutAnimal(kind, x, y, q))
    before = state.to_json()
    for action in candidates:
        try:
            state.check_action(p, action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert action not in legal
            assert str(exc).strip()
        else:
            assert action in legal
    assert state.to_json() == before


HELPER_LINES = st.sampled_from(
    [
        "farm at 0,0",
        "player X",
        "variant second-variant",
        "A1 at 1,0",
        "C1 at 1,0 rot 270",
        "C3 at 0,1 rot 90",
        "C7 at 1,1 rot 180",
        "D5 at 0,-1 rot 90",
        "F1 at 2,2",
        "pig at 0,0/SE",
        "goat at 1,0/NW",
        "chicken at 0,1/se",
        "H2 at 0,0",
        "rot at at",
        "# comment",
        "",
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.text(max_size=200), st.lists(HELPER_LINES, max_size=14).map("\n".join)))
def test_scoring_helper_answers_a_result_or_a_bad_input_never_a_crash(text: str) -> None:
    try:
        result = GAME.score_text(text)
    except BadInput as exc:
        assert str(exc).strip()
    else:
        assert len(result.totals) == len(result.breakdown) >= 1
        assert all(sum(sheet.values()) == t for sheet, t in zip(result.breakdown, result.totals, strict=True))


JSON_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**65), max_value=2**65),
    st.text(max_size=5),
    st.lists(st.integers(min_value=-3, max_value=3), max_size=4),
    st.sampled_from(["A1", "H1", "WP1", "pig", "NE", [0, 0, "H1", 0], [0, 0, "SE", "pig"]]),
)


def _paths(value: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every path to a value inside nested dicts and lists."""
    out: list[tuple[object, ...]] = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


@settings(max_examples=150, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=60), st.data())
def test_a_damaged_save_loads_or_is_refused_never_crashes(seed: int, steps: int, data: st.DataObject) -> None:
    state = GAME.new_game(players=2, seed=seed)
    _play(state, random.Random(seed), steps)
    envelope = json.loads(state.to_json())
    path = data.draw(st.sampled_from(_paths(envelope["state"])))
    target = envelope["state"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(JSON_VALUES)
    try:
        loaded = GAME.from_json(json.dumps(envelope))
    except CorruptSave:
        return
    # accepted: then it must be a playable, self-consistent game
    loaded.to_json()
    if not loaded.is_over():
        p = loaded.actors()[0]
        loaded.apply(p, loaded.legal_actions(p)[0])
