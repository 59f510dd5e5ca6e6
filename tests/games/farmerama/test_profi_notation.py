"""Profi water for extra actions; notation reading and refusals."""

from __future__ import annotations

import random

import pytest

import farmtable
from farmtable.core.errors import IllegalAction
from farmtable.games.farmerama.components import ANIMALS, AREA_NAMES, CARDS, FEEDS, GOODS, WATER
from farmtable.games.farmerama.rules import FarmeramaState, canonical_notation
from tests.games.farmerama.positions import choose, new


def test_profi_rulebook_example_water_buys_extra_sows() -> None:
    # "Sow is at 4/2. Philipp and Tina both play Sow ... Philipp returns 3 water and sows 5 times."
    state = new(2, profi=True)
    state.action_wheel = 1  # DA-FR1: Sow 4/2 in section 1
    choose(state, ("sow", "feed"), ("sow", "water"))  # first round: nobody gets a building
    state.apply(0, "start sow")
    assert state.boards[0].remaining == 2
    for _ in range(3):
        state.apply(0, "pay-water")
    assert state.boards[0].barn[WATER] == 0 and state.boards[0].remaining == 5
    sows = 0
    while any(a.startswith("sow") for a in state.legal_actions(0)):
        state.apply(0, next(a for a in state.legal_actions(0) if a.startswith("sow")))
        sows += 1
    assert sows == 5


def test_pay_water_is_a_profi_rule_only() -> None:
    state = new(2)
    choose(state, ("sow", "feed"), ("harvest", "water"))
    state.apply(0, "start sow")
    with pytest.raises(IllegalAction, match="Profi rule"):
        state.apply(0, "pay-water")


def test_profi_water_not_for_other_actions() -> None:
    state = new(2, profi=True)
    choose(state, ("sow", "feed"), ("harvest", "water"))
    state.apply(0, "start feed")
    assert "pay-water" not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="only during those actions"):
        state.apply(0, "pay-water")


def test_profi_is_refused_for_the_solo_game() -> None:
    with pytest.raises(ValueError, match="2-4 players"):
        farmtable.get_game("farmerama").new_game(players=1, variants=("profi",))
    with pytest.raises(ValueError, match="no option speed"):
        farmtable.get_game("farmerama").new_game(players=2, speed=3)
    with pytest.raises(ValueError, match="True or False"):
        farmtable.get_game("farmerama").new_game(players=2, animals_block_wheel="yes")


def test_notation_tolerates_case_and_spaces() -> None:
    state = new(2)
    state.apply(0, "  CARD   Sow ")
    state.apply(0, "card water")
    state.apply(1, "Card Harvest")
    state.apply(1, "card feed")
    state.apply(0, "START sow")
    state.apply(0, "sow  HAY  a1")
    assert state.boards[0].beds[4] == 1


def test_unreadable_notation_explains_the_format() -> None:
    state = new(2)
    before = state.to_json()
    for bad in ("sow water A1", "card dance", "feed goat", "sow hay A9", "take 3", ""):
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
    with pytest.raises(IllegalAction, match="moves look like"):
        state.apply(0, "plant potatoes")
    assert state.to_json() == before


def test_parseable_but_illegal_names_the_phase_rule() -> None:
    state = new(2)
    with pytest.raises(IllegalAction, match="phase 1: choose an action card first"):
        state.apply(0, "feed sheep")


def _universe() -> list[str]:
    actions = ["done", "water", "turn-wheel", "pay-water", "redraw", "take 1", "take 2"]
    actions += [f"{verb} {c}" for verb in ("card", "start") for c in CARDS]
    actions += [f"{verb} {g}" for verb in ("gain", "token") for g in GOODS]
    actions += [f"feed {a}" for a in ANIMALS]
    actions += [f"{verb} {GOODS[c]} {area}" for verb in ("sow", "harvest") for c in FEEDS for area in AREA_NAMES]
    return actions


UNIVERSE = _universe()


def test_every_notation_in_the_universe_is_canonical() -> None:
    for action in UNIVERSE:
        assert canonical_notation(action.lower()) == action


@pytest.mark.parametrize(("players", "profi"), [(1, False), (2, False), (3, True), (4, False), (2, True)])
def test_check_action_accepts_exactly_the_legal_actions(players: int, profi: bool) -> None:
    rng = random.Random(players)
    state = new(players, seed=players, profi=profi)
    steps = 0
    while not state.is_over() and steps < 400:
        for p in range(players):
            legal = set(state.legal_actions(p))
            for action in UNIVERSE:
                if p in state.actors() and action in legal:
                    state.check_action(p, action)
                elif p in state.actors():
                    before = state.to_json()
                    with pytest.raises(IllegalAction) as info:
                        state.apply(p, action)
                    assert "is not allowed" in str(info.value)
                    assert state.to_json() == before
        actor = rng.choice(state.actors())
        state.apply(actor, rng.choice(state.legal_actions(actor)))
        steps += 1


def test_legal_lists_have_no_duplicates() -> None:
    rng = random.Random(9)
    for players in (1, 2, 3, 4):
        state = new(players, seed=players)
        while not state.is_over():
            actor = rng.choice(state.actors())
            legal = state.legal_actions(actor)
            assert len(set(legal)) == len(legal)
            assert legal == state.clone().legal_actions(actor)
            state.apply(actor, rng.choice(legal))


def test_render_text_draws_every_farmland() -> None:
    state = new(3)
    text = state.render_text(0)
    assert "\x1b" not in text
    for p in range(3):
        assert f"Player {p} farmland" in text
    for area in AREA_NAMES:
        assert f"  {area} " in text
    assert "stable: sheep, pig, cow, horse" in text and "Boss Sheep: P0" in text
    assert isinstance(state, FarmeramaState)
