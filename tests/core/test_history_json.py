"""``History.state_json``: the state's JSON written out once per position, and reused as the next
decision's ``before`` (the server stores it after a decision)."""

from __future__ import annotations

import random

import farmtable
from farmtable.core import History
from tests.toygame import RACE


def test_state_json_is_the_states_json_and_becomes_the_next_before() -> None:
    history = History(RACE.new_game(players=2, seed=5))
    text = history.state_json()
    assert text == history.state.to_json()
    assert history.state_json() is text  # written once for this position
    history.apply(0, "add 1")
    assert history.decisions[-1].before is text  # the next decision's before: not written again
    after = history.state_json()
    assert after != text and after == history.state.to_json()  # the state changed in place: written anew


def test_state_json_follows_undo_and_a_state_put_in_its_place() -> None:
    history = History(RACE.new_game(players=2, seed=5))
    first = history.state_json()
    history.apply(0, "add 1")
    history.state_json()
    history.undo(0)
    assert history.state_json() == first == history.state.to_json()
    other = RACE.new_game(players=2, seed=9)
    other.apply(0, "add 2")
    history.state = other
    assert history.state_json() == other.to_json()


def test_every_before_is_the_json_of_the_position_it_was_made_in_for_every_game() -> None:
    for game_id in ("tiny-farms", "farmini", "farmerama", "tiny-towns", "farmers-finances"):
        game = farmtable.get_game(game_id)
        history = History(game.new_game(players=2, seed=3))
        rng = random.Random(game_id)
        for _ in range(40):
            if history.state.is_over():
                break
            expected = history.state.to_json()  # written afresh here, not through the history
            if rng.random() < 0.5:
                history.state_json()  # as the server does after storing a decision
            for who in (0, 1, None):  # and then reads the position for every seat (it must not change it)
                history.state.view(who)
            history.state.is_over()
            seat = history.state.actors()[0]
            legal = history.state.legal_actions(seat)
            history.apply(seat, str(legal[rng.randrange(len(legal))]))
            assert history.decisions[-1].before == expected
