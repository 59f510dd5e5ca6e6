"""Solo rules (the designer's solo sheet v1.1): turn tracker, market roll, two piles, end at 70."""

from __future__ import annotations

from collections import Counter

import pytest

import farmtable
from farmtable import IllegalAction
from tests.games.farmers_finances.positions import find_rng, position

GAME = farmtable.get_game("farmers-finances")


def test_solo_setup_two_piles_and_turn_one() -> None:
    for seed in range(30):
        state = GAME.new_game(players=1, seed=seed)
        # "Shuffle the wheat and the animals into one stack. Split this into two piles."
        assert Counter(state.left + state.right) == {"wheat": 4, "animal": 2}
        assert (len(state.left), len(state.right)) == (3, 3)
        assert state.turn == 1  # DA-FF2: the tracker shows the turn being played
        assert state.money == [10]
        assert state.phase == "action"
        if state.last_roll != 6:
            assert state.row == state.last_roll  # "Roll for the market"


def test_turn_tracker_moves_and_market_is_rolled_every_turn() -> None:
    state = GAME.new_game(players=1, seed=5)
    epoch = state.info_epoch()
    for turn in range(2, 8):
        row_before = state.row
        state.apply(0, state.legal_actions(0)[0])
        if state.is_over():
            break
        assert state.turn == turn
        assert state.info_epoch() > epoch  # every solo turn starts with a die roll
        epoch = state.info_epoch()
        assert state.row == (row_before if state.last_roll == 6 else state.last_roll)


def _bake_with(seed: int, variants: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    # Farm: 2 wheat, 1 bread, 1 animal; market: 1 wheat (left), 1 animal (right); die on row 4.
    return position(
        1, money=[10], farms=[(2, 1, 1)], piles=(["wheat"], ["animal"]), row=4, rng=seed, turn=7, variants=variants
    )


def test_a_rolled_six_sells_the_whole_farm_at_the_current_market() -> None:
    # "If you roll a 6, sell all of your cards in your farm." The die shows no row: the market stays on 4.
    _, after = find_rng(_bake_with, [(0, "bake 1")], lambda s: s.last_roll == 6)
    assert after.turn == 8
    assert after.row == 4
    # After baking: 1 wheat, 2 bread, 1 animal. Row 4 (SELL +1): wheat 6, bread 7, animal 11.
    assert after.money == [10 + 6 + 2 * 7 + 11]
    assert after.hands == [[0, 0, 0]]
    # Returned cards go under the left pile: its top is unchanged.
    assert after.left[-1] == "wheat" and len(after.left) == 5
    assert Counter(after.left[:-1]) == {"wheat": 3, "animal": 1}
    assert after.right == ["animal"]
    assert after.phase == "action"


def test_a_rolled_six_with_an_empty_farm_does_nothing() -> None:
    # "When you have no cards, nothing happens": the wheat sold at row 2 (4 coins), then a 6 is rolled.
    make = lambda seed: position(1, money=[10], farms=[(1, 0, 0)], row=2, rng=seed)  # noqa: E731
    _, after = find_rng(make, [(0, "sell wheat 1")], lambda s: s.last_roll == 6)
    assert after.row == 2
    assert after.money == [14]
    assert after.phase == "action" and after.turn == 2


def test_solo_six_choose_variant_lets_you_pick_the_row_after_the_sale() -> None:
    variant = ("solo-six-choose",)
    _, after = find_rng(lambda seed: _bake_with(seed, variant), [(0, "bake 1")], lambda s: s.last_roll == 6)
    assert after.phase == "pick"
    assert after.money == [41]
    after.apply(0, "pick 1")
    assert after.row == 1 and after.phase == "action" and after.turn == 8


def _no_six(state) -> bool:  # type: ignore[no-untyped-def]
    return bool(state.last_roll != 6)


def test_buy_only_a_top_card_and_from_the_right_when_the_tops_match() -> None:
    # Tops: wheat (left) and wheat (right). "Otherwise you must buy from the right pile."
    piles = (["animal", "wheat"], ["wheat", "wheat"])
    state = position(1, farms=[(1, 0, 1)], piles=piles, row=3)
    assert [a for a in state.legal_actions(0) if a.startswith("buy")] == ["buy wheat"]
    with pytest.raises(IllegalAction, match=r"only one of the two top cards: the piles show wheat \(left\)"):
        state.apply(0, "buy animal")
    make = lambda seed: position(1, farms=[(1, 0, 1)], piles=piles, row=3, rng=seed)  # noqa: E731
    _, after = find_rng(make, [(0, "buy wheat")], _no_six)
    assert after.right == ["wheat"]
    assert after.left == ["animal", "wheat"]
    assert after.money == [8]


def test_buy_from_either_pile_when_the_tops_differ() -> None:
    piles = (["wheat", "animal"], ["wheat", "wheat"])
    state = position(1, farms=[(1, 0, 1)], piles=piles, row=3)
    assert [a for a in state.legal_actions(0) if a.startswith("buy")] == ["buy wheat", "buy animal"]
    make = lambda seed: position(1, farms=[(1, 0, 1)], piles=piles, row=3, rng=seed)  # noqa: E731
    _, animal = find_rng(make, [(0, "buy animal")], _no_six)
    assert animal.hands[0][2] == 2
    assert animal.left == ["wheat"] and animal.right == ["wheat", "wheat"]  # from the left pile
    _, wheat = find_rng(make, [(0, "buy wheat")], _no_six)
    assert wheat.left == ["wheat", "animal"] and wheat.right == ["wheat"]  # from the right pile


def test_sold_cards_go_under_the_left_pile() -> None:
    state = position(1, money=[10], farms=[(2, 0, 0)], piles=(["wheat", "animal"], ["animal", "wheat"]), row=3)
    state.apply(0, "sell wheat 2")
    assert state.money[0] == 20  # 2 x 5 at row 3 (a rolled 6 then finds an empty farm)
    assert state.left == ["wheat", "wheat", "wheat", "animal"]
    assert state.right == ["animal", "wheat"]


def test_buying_the_last_card_of_a_pile_sells_all_and_deals_new_piles() -> None:
    # Right pile: one animal. Tops are animal and animal, so the buy takes the right pile's last card.
    state = position(1, money=[10], farms=[(1, 1, 0)], piles=(["wheat", "wheat", "animal"], ["animal"]), row=3)
    state.apply(0, "buy animal")
    # Row 3: animal costs 6; the sale brings wheat 5 + bread 7 + animal 10.
    assert state.money == [10 - 6 + 5 + 7 + 10]
    assert state.hands == [[0, 0, 0]]
    assert Counter(state.left + state.right) == {"wheat": 4, "animal": 2}
    assert (len(state.left), len(state.right)) == (3, 3)


def test_solo_ends_at_70_with_the_turn_count_to_beat() -> None:
    state = position(1, money=[66], farms=[(0, 1, 0)], turn=12, row=3)
    state.apply(0, "sell bread 1")
    assert state.is_over()
    result = state.result()
    assert result.totals == [73]
    assert result.details["turns"] == 12
    assert result.details["goal_reached"] is True
    assert result.ranking == [[0]]


def test_solo_six_sale_reaching_70_ends_the_game() -> None:
    make = lambda seed: position(1, money=[60], farms=[(0, 2, 0)], turn=4, rng=seed)  # noqa: E731
    _, after = find_rng(make, [(0, "sell bread 1")], lambda s: s.last_roll == 6)
    # 60 + 7 (sold) = 67 < 70; the 6 at the start of turn 5 sells the other bread: 74.
    assert after.is_over()
    assert after.money == [74]
    assert after.result().details["turns"] == 5


def test_solo_has_no_market_change_step() -> None:
    state = position(1, farms=[(1, 0, 0)])
    with pytest.raises(IllegalAction, match="solo there is no market change"):
        state.apply(0, "move 2")
    state.apply(0, "bake 1")
    assert state.phase == "action" and state.turn == 2


def test_solo_result_objective_is_fewer_turns_and_the_heuristic_counts_turns() -> None:
    """Solo Game End: "try to beat this number" (the turns): agents must aim at fewer turns, not more money."""
    import random

    from farmtable.games.farmers_finances.rules import GAME as FF

    state = FF.new_game(players=1, seed=4)
    rng = random.Random(4)
    while not state.is_over():
        state.apply(0, rng.choice(state.legal_actions(0)))
    result = state.result()
    assert result.objective == -result.details["turns"] and result.solo_score == -result.details["turns"]
    later = state.clone()
    later.turn += 1
    assert later.heuristic(0) < state.heuristic(0)


def test_a_multiplayer_result_has_no_objective() -> None:
    from farmtable.games.farmers_finances.rules import GAME as FF

    result = FF.new_game(players=2, seed=1).result()
    assert result.objective is None and result.solo_score == result.totals[0]
