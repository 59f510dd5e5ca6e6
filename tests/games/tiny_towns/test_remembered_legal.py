"""Tiny Towns' engine paths of issue 16, sixth round: the state remembers its own legal list for ``apply``
(``remembers_legal``: no wrapper, no copy), the piles a game draws its buildings from are made once per
set of removed cards, and the building step lists ``done`` alone without unpacking an empty build list."""

from __future__ import annotations

import random

import pytest

import farmtable
from farmtable.core import IllegalAction
from farmtable.core import game as core_game
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import rules
from farmtable.games.tiny_towns.rules import DONE_ACTION, Action, TinyTownsState


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Action]:
    """Record every full check ``apply`` makes."""
    seen: list[Action] = []
    original = TinyTownsState.check_action

    def counting(self: TinyTownsState, player: int, action: Action) -> None:
        seen.append(action)
        original(self, player, action)

    monkeypatch.setattr(TinyTownsState, "check_action", counting)
    return seen


def test_the_state_is_not_wrapped_and_remembers_its_list() -> None:
    assert TinyTownsState.remembers_legal
    assert not hasattr(TinyTownsState.__dict__["legal_actions"], "__wrapped__")
    state: TinyTownsState = farmtable.get_game("tiny-towns").new_game(players=2, seed=1)
    player = state.actors()[0]
    legal = state.legal_actions(player)
    memo = core_game._memo
    assert memo is not None and memo[0] is state and memo[1] == player
    assert list(memo[2]) == legal and memo[2] is not legal


@pytest.mark.parametrize("players", [1, 2, 4])
def test_listed_moves_skip_the_check_and_edits_of_the_list_are_refused(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    checks = _counting(monkeypatch)
    state: TinyTownsState = farmtable.get_game("tiny-towns").new_game(players=players, seed=players)
    rng = random.Random(players)
    foreign = Action(rules.BUILD, "Cottage", (0, 1, 4), 0)  # never legal on these boards at these times
    refused = moves = 0
    while not state.is_over() and moves < 400:
        for player in state.actors():
            legal = state.legal_actions(player)
            assert legal is not state.legal_actions(player)  # a fresh list each time
            if foreign not in legal:
                legal.append(foreign)
                saved = state.to_json()
                with pytest.raises(IllegalAction):
                    state.apply(player, foreign)
                assert state.to_json() == saved  # refused: nothing changed
                refused += 1
                legal.pop()
            state.apply(player, legal[rng.randrange(len(legal))])
            moves += 1
            if state.is_over():
                break
    assert refused > 50
    assert checks == [foreign] * refused  # every listed move went straight through


def test_an_equal_but_other_object_is_checked_in_full(monkeypatch: pytest.MonkeyPatch) -> None:
    checks = _counting(monkeypatch)
    state: TinyTownsState = farmtable.get_game("tiny-towns").new_game(players=2, seed=5)
    player = state.actors()[0]
    listed = state.legal_actions(player)[0]
    other = Action(listed.verb, listed.what, listed.squares, listed.target, listed.other)
    assert other == listed and other is not listed
    state.apply(player, other)
    assert checks == [other]


@pytest.mark.parametrize(
    ("players", "variants"),
    [(1, ()), (1, (rules.SOLO_FEAST_HALL,)), (2, ()), (3, (rules.TOWN_HALL,)), (5, ())],
)
def test_the_building_set_is_drawn_from_the_plain_piles(players: int, variants: tuple[str, ...]) -> None:
    game = farmtable.get_game("tiny-towns")
    removed = rules.solo_removed(variants) if players == 1 else ()
    plain = [[n for n in C.PILE_CARDS[pile] if n not in removed] for pile in C.PILES]
    for seed in range(30):
        state: TinyTownsState = game.new_game(players=players, seed=seed, variants=variants)
        assert state.buildings[0] == "Cottage"
        assert all(name in cards for name, cards in zip(state.buildings[1:], plain, strict=True))
    assert [list(p) for p in rules._PILES_LEFT[removed]] == plain


def test_the_building_step_lists_done_last_or_alone() -> None:
    game = farmtable.get_game("tiny-towns")
    alone = with_builds = 0
    for seed in range(8):
        state: TinyTownsState = game.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            player = state.actors()[0]
            legal = state.legal_actions(player)
            town = state.towns[player]
            if state.phase == rules.BUILD_PHASE and not town.pending:
                assert legal == [*state.build_options(player), DONE_ACTION]
                alone += len(legal) == 1
                with_builds += len(legal) > 1
            state.apply(player, legal[rng.randrange(len(legal))])
    assert alone > 0 and with_builds > 0
