"""The rulebook's worked examples and a scenario test for each rule of the 2–4 player game.

Expected numbers are worked out from the rulebook text and the printed card values
(wheat BUY 2 / SELL 5, animal BUY 6 / SELL 10, bread 7), as the comments show.
"""

from __future__ import annotations

import pytest

import farmtable
from farmtable import IllegalAction
from farmtable.games.farmers_finances.components import buy_cost, sell_price
from tests.games.farmers_finances.positions import find_rng, position

GAME = farmtable.get_game("farmers-finances")


# --- Buy: the rulebook example ----------------------------------------------------------------


def test_rulebook_example_wheat_at_buy_plus_one_costs_one() -> None:
    # "You want to buy wheat (BUY -2) ... The market is (BUY +1) ... The wheat costs 1 coin. (-2)+(+1) = -1"
    state = position(row=2, money=[10, 10])
    state.apply(0, "buy wheat")
    assert state.money[0] == 9
    assert state.hands[0] == [1, 0, 0]
    assert state.market == [3, 2]


def test_rulebook_example_wheat_at_buy_minus_two_costs_four() -> None:
    # "Wheat at market (-2) costs 4 coins. (-2)+(-2) = -4."  Row 5 is the BUY -2 row.
    state = position(row=5, money=[10, 10])
    state.apply(0, "buy wheat")
    assert state.money[0] == 6


@pytest.mark.parametrize(
    ("row", "wheat", "animal"),
    [(1, 1, 4), (2, 1, 5), (3, 2, 6), (4, 3, 7), (5, 4, 8)],  # BUY - modifier (+2..-2), at least 1
)
def test_buy_cost_on_every_row_never_below_one(row: int, wheat: int, animal: int) -> None:
    assert (buy_cost("wheat", row), buy_cost("animal", row)) == (wheat, animal)
    state = position(row=row, money=[20, 10])
    state.apply(0, "buy animal")
    assert state.money[0] == 20 - animal


@pytest.mark.parametrize(
    ("row", "wheat", "animal"),
    [(1, 3, 8), (2, 4, 9), (3, 5, 10), (4, 6, 11), (5, 7, 12)],  # SELL + modifier (-2..+2)
)
def test_sell_price_on_every_row(row: int, wheat: int, animal: int) -> None:
    assert (sell_price("wheat", row), sell_price("animal", row), sell_price("bread", row)) == (wheat, animal, 7)


def test_no_buying_without_the_money() -> None:
    # "If you don't have enough money, you can't buy the card." Row 5: wheat 4, animal 8.
    state = position(row=5, money=[3, 10], farms=[(0, 0, 1), (0, 0, 0)])
    assert "buy wheat" not in state.legal_actions(0)
    before = state.to_json()
    with pytest.raises(IllegalAction, match=r"you have 3 coins; wheat costs 4"):
        state.apply(0, "buy wheat")
    assert state.to_json() == before


def test_buy_is_one_card() -> None:
    state = position(row=3, money=[30, 10])
    state.apply(0, "buy wheat")
    with pytest.raises(IllegalAction, match="already took this turn's action"):
        state.apply(0, "buy wheat")
    assert state.hands[0] == [1, 0, 0]


def test_cannot_buy_a_sort_the_marketplace_has_run_out_of() -> None:
    state = position(money=[30, 10], farms=[(0, 0, 2), (0, 0, 0)])
    assert state.market == [4, 0]
    assert "buy animal" not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="no animal cards left"):
        state.apply(0, "buy animal")


# --- Sell -------------------------------------------------------------------------------------------


def test_sell_several_cards_of_one_sort_at_the_market_price() -> None:
    # Row 4: SELL +1, wheat 5+1 = 6 each; two wheat bring 12 and go back to the marketplace.
    state = position(row=4, money=[10, 10], farms=[(3, 0, 0), (0, 0, 0)])
    state.apply(0, "sell wheat 2")
    assert state.money[0] == 22
    assert state.hands[0] == [1, 0, 0]
    assert state.market == [3, 2]


@pytest.mark.parametrize("row", [1, 3, 5])
def test_bread_always_sells_for_seven_and_returns_as_wheat(row: int) -> None:
    # "If you sell bread you always get 7 money per card"; "Put the card(s) back ... (wheat face up)".
    state = position(row=row, money=[10, 10], farms=[(0, 2, 0), (0, 0, 0)])
    state.apply(0, "sell bread 2")
    assert state.money[0] == 24
    assert state.market == [4, 2]
    assert state.hands[0] == [0, 0, 0]


def test_sell_animal_at_the_top_row() -> None:
    state = position(row=5, money=[10, 10], farms=[(0, 0, 1), (0, 0, 0)])
    state.apply(0, "sell animal 1")
    assert state.money[0] == 22  # 10 + (10 + 2)


def test_cannot_sell_more_than_you_have() -> None:
    state = position(farms=[(2, 0, 0), (0, 0, 0)])
    with pytest.raises(IllegalAction, match="you have 2 wheat; you cannot sell 3"):
        state.apply(0, "sell wheat 3")
    with pytest.raises(IllegalAction, match="you have 0 bread"):
        state.apply(0, "sell bread 1")


def test_selling_is_one_sort_at_a_time() -> None:
    # "Sell one or more from one sort of cards": the notation names one sort; a second sale is a second action.
    state = position(farms=[(1, 1, 0), (0, 0, 0)])
    state.apply(0, "sell wheat 1")
    with pytest.raises(IllegalAction, match="already took"):
        state.apply(0, "sell bread 1")


# --- Make bread ---------------------------------------------------------------------------------------


def test_make_bread_flips_one_or_more_wheat() -> None:
    state = position(farms=[(3, 0, 0), (0, 0, 0)], money=[10, 10])
    state.apply(0, "bake 2")
    assert state.hands[0] == [1, 2, 0]
    assert state.money[0] == 10
    assert state.phase == "market"


def test_cannot_bake_more_wheat_than_you_have() -> None:
    state = position(farms=[(1, 0, 0), (0, 0, 0)])
    with pytest.raises(IllegalAction, match="you have 1 wheat; you cannot make 2 bread"):
        state.apply(0, "bake 2")


# --- no action possible -----------------------------------------------------------------------------


def test_pass_only_when_no_action_is_possible() -> None:
    # 3 coins, an empty farm, row 5 (wheat 4, animal 8): nothing can be done (DA-FF4).
    state = position(row=5, money=[3, 10])
    assert state.legal_actions(0) == ["pass"]
    state.apply(0, "pass")
    assert state.phase == "market" and state.money[0] == 3
    able = position(row=5, money=[4, 10])
    assert able.legal_actions(0) == ["buy wheat"]
    with pytest.raises(IllegalAction, match="you may pass only when no action is possible"):
        able.apply(0, "pass")


# --- Change Market ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("row", "moves"), [(1, ["move 2"]), (3, ["move 2", "move 4"]), (5, ["move 4"])])
def test_market_change_is_compulsory_one_row_or_reroll(row: int, moves: list[str]) -> None:
    state = position(row=row, farms=[(1, 0, 0), (0, 0, 0)])
    state.apply(0, "bake 1")
    assert state.legal_actions(0) == [*moves, "reroll"]
    assert state.actors() == [0]  # the turn is not over before the market changes


def test_moving_the_die_ends_the_turn() -> None:
    state = position(row=3, farms=[(1, 0, 0), (0, 0, 0)])
    state.apply(0, "bake 1")
    state.apply(0, "move 4")
    assert state.row == 4
    assert state.actors() == [1] and state.phase == "action"


def test_the_die_moves_only_one_row() -> None:
    state = position(row=3, farms=[(1, 0, 0), (0, 0, 0)])
    state.apply(0, "bake 1")
    with pytest.raises(IllegalAction, match="one row at a time"):
        state.apply(0, "move 5")
    with pytest.raises(IllegalAction, match="on row 3 already"):
        state.apply(0, "move 3")
    with pytest.raises(IllegalAction, match="only after rolling a 6"):
        state.apply(0, "pick 1")


def _after_bake(seed: int):  # type: ignore[no-untyped-def]
    state = position(row=3, farms=[(1, 0, 0), (0, 0, 0)], rng=seed)
    state.apply(0, "bake 1")
    return state


def test_reroll_one_to_five_puts_the_die_on_that_row() -> None:
    before, after = find_rng(_after_bake, [(0, "reroll")], lambda s: s.last_roll in (1, 2, 4, 5))
    assert after.row == after.last_roll
    assert after.actors() == [1]
    assert after.info_epoch() > before.info_epoch()  # a die roll: no undo past it


def test_reroll_six_lets_the_player_choose_any_row() -> None:
    _, after = find_rng(_after_bake, [(0, "reroll")], lambda s: s.last_roll == 6)
    assert after.phase == "pick" and after.actors() == [0]
    assert after.legal_actions(0) == ["pick 1", "pick 2", "pick 3", "pick 4", "pick 5"]
    with pytest.raises(IllegalAction, match="a 6 was rolled"):
        after.apply(0, "move 2")
    after.apply(0, "pick 5")
    assert after.row == 5 and after.actors() == [1]


# --- Empty-market rule ------------------------------------------------------------------------------


def _empty_market_position(seed: int = 1, variants: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    # One animal left in the marketplace; player 0 has 2 wheat, 1 bread, 1 animal; player 1 has 1 wheat.
    return position(row=4, money=[10, 10], farms=[(2, 1, 1), (1, 0, 0)], rng=seed, variants=variants)


def test_buying_the_last_card_makes_everyone_sell_everything() -> None:
    state = _empty_market_position()
    assert state.market == [0, 1]
    state.apply(0, "buy animal")
    # Row 4: animal costs 6-(-1) = 7; then everyone sells at SELL +1: wheat 6, animal 11, bread 7.
    assert state.money[0] == 10 - 7 + 2 * 6 + 7 + 2 * 11
    assert state.money[1] == 10 + 6
    assert state.hands == [[0, 0, 0], [0, 0, 0]]
    assert state.market == [4, 2]
    # "After this, reroll the market": the reroll is this turn's market change (DA-FF5).
    assert state.legal_actions(0) == ["reroll"]
    with pytest.raises(IllegalAction, match="type 'reroll'"):
        state.apply(0, "move 3")
    state.apply(0, "reroll")
    assert state.last_roll != 0


def test_empty_market_extra_change_variant_rerolls_then_still_changes() -> None:
    variant = ("empty-market-extra-change",)
    _, after = find_rng(
        lambda seed: _empty_market_position(seed, variant), [(0, "buy animal")], lambda s: s.last_roll in (1, 2, 4, 5)
    )
    assert after.row == after.last_roll
    assert after.phase == "market"
    assert after.legal_actions(0)[-1] == "reroll" and len(after.legal_actions(0)) >= 2
    _, six = find_rng(
        lambda seed: _empty_market_position(seed, variant), [(0, "buy animal")], lambda s: s.last_roll == 6
    )
    assert six.phase == "pick"
    six.apply(0, "pick 2")
    assert six.legal_actions(0) == ["move 1", "move 3", "reroll"]


# --- Game End ---------------------------------------------------------------------------------------


def _finish_turn(state, player: int, action: str) -> None:  # type: ignore[no-untyped-def]
    state.apply(player, action)
    state.apply(player, state.legal_actions(player)[0])  # a 'move', no chance involved


def test_player_two_reaching_70_wins_at_once() -> None:
    # "If player 2 reaches 70 money or more after his turn, he wins the game immediately."
    state = position(current=1, money=[40, 65], farms=[(0, 0, 0), (0, 1, 0)])
    _finish_turn(state, 1, "sell bread 1")
    assert state.is_over()
    assert state.result().winners == [1]
    assert state.actors() == []


def test_player_one_reaching_70_gives_player_two_one_more_turn() -> None:
    # "If player 1 reaches 70 ... after his turn, player 2 has one more turn ... the player with the most money wins."
    state = position(money=[68, 60], farms=[(0, 1, 0), (0, 2, 0)])
    _finish_turn(state, 0, "sell bread 1")
    assert not state.is_over() and state.actors() == [1]
    _finish_turn(state, 1, "sell bread 2")
    assert state.is_over()
    assert state.money == [75, 74]
    assert state.result().winners == [0]


def test_player_two_can_overtake_in_the_last_turn() -> None:
    state = position(money=[70, 60], farms=[(1, 0, 0), (0, 2, 0)])
    _finish_turn(state, 0, "bake 1")
    _finish_turn(state, 1, "sell bread 2")
    assert state.result().ranking == [[1], [0]]


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_players_the_round_is_finished(players: int) -> None:
    # DA-FF6: the game ends when the round is complete, so everyone has had the same number of turns.
    farms = [(0, 1, 0)] * players
    money = [30] * players
    money[1] = 66
    state = position(players, money=money, farms=farms, current=1)
    _finish_turn(state, 1, "sell bread 1")
    for seat in range(2, players):
        assert not state.is_over() and state.actors() == [seat]
        _finish_turn(state, seat, "sell bread 1")
    assert state.is_over()
    assert state.result().winners == [1]


def test_the_game_does_not_end_before_anyone_has_70() -> None:
    state = position(current=1, money=[69, 62], farms=[(0, 0, 0), (0, 1, 0)])
    _finish_turn(state, 1, "sell bread 1")
    assert not state.is_over() and state.actors() == [0]


# --- the tie rule -----------------------------------------------------------------------------------


def test_tie_broken_by_selling_the_cards_without_the_market() -> None:
    # Both end at 72; player 0 keeps 1 wheat (base 5), player 1 keeps 1 bread (7): player 1 wins.
    state = position(current=1, money=[72, 65], farms=[(1, 0, 0), (0, 2, 0)], end_triggered=True)
    _finish_turn(state, 1, "sell bread 1")
    result = state.result()
    assert result.totals == [72, 72]
    assert result.ranking == [[1], [0]]
    assert result.details["tie_break_values"] == [77, 79]


def test_shared_win_when_still_tied() -> None:
    state = position(row=1, current=1, money=[72, 65], farms=[(2, 0, 0), (0, 1, 1)], end_triggered=True)
    _finish_turn(state, 1, "sell bread 1")  # 65 + 7 = 72; left: 2 wheat (10) against 1 animal (10)
    result = state.result()
    assert result.totals == [72, 72]
    assert result.ranking == [[0, 1]]
    assert result.winners == [0, 1]


# --- setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "wheat", "animals"), [(2, 4, 2), (3, 8, 4), (4, 8, 4)])
def test_setup(players: int, wheat: int, animals: int) -> None:
    # 10 coins each ("the marker ... on the 10"); one copy for 2 players, two copies for 3-4.
    for seed in range(20):
        state = GAME.new_game(players=players, seed=seed)
        assert state.money == [10] * players
        assert state.market == [wheat, animals]
        assert 1 <= state.row <= 5
        assert state.actors() == [0]


def test_mid_game_result_is_the_money_as_it_stands() -> None:
    state = position(money=[23, 41], farms=[(1, 0, 0), (0, 0, 1)])
    result = state.result()
    assert result.totals == [23, 41]
    assert result.breakdown[0] == {"money": 23, "tie_break_cards_at_base_value": 5}
    assert result.ranking == [[1], [0]]


def test_empty_market_with_three_players_sells_every_farm() -> None:
    # Two copies: 8 wheat, 4 animals. The marketplace holds one wheat; player 2 buys it on row 2 (cost 1).
    farms = [(3, 2, 1), (1, 1, 2), (0, 0, 1)]  # 7 wheat/bread and 4 animals in the farms
    state = position(3, money=[10, 20, 30], farms=farms, current=2, row=2)
    assert state.market == [1, 0]
    state.apply(2, "buy wheat")
    # Row 2 (SELL -1): wheat 4, animal 9, bread 7.
    assert state.money == [10 + 3 * 4 + 2 * 7 + 9, 20 + 4 + 7 + 2 * 9, 30 - 1 + 4 + 9]
    assert state.market == [8, 4]
    assert state.legal_actions(2) == ["reroll"]


def test_only_the_player_whose_turn_ends_is_checked_for_70() -> None:
    # DA-FF6, "reaches 70 money or more after his turn": player 1 passes 70 through the selling phase of
    # player 0's buy, but spends below 70 on their own turn, so the game goes on.
    make = lambda seed: position(money=[10, 64], farms=[(2, 1, 1), (1, 0, 0)], row=5, rng=seed)  # noqa: E731
    _, state = find_rng(make, [(0, "buy animal"), (0, "reroll")], lambda s: s.last_roll in (1, 2, 3, 4, 5))
    assert state.money[1] == 71  # 64 + one wheat at row 5 (7)
    assert not state.end_triggered and state.actors() == [1]
    state.apply(1, "buy animal")  # 4 to 8 coins on any row: below 70 again
    state.apply(1, state.legal_actions(1)[0])
    if state.phase == "pick":
        state.apply(1, "pick 3")
    assert state.money[1] < 70
    assert not state.is_over() and state.actors() == [0]


def test_heuristic_values_a_cheap_card_above_its_price() -> None:
    state = position(row=1, money=[10, 10])
    before = state.heuristic(0)
    state.apply(0, "buy wheat")  # pays 1 for a card worth 6 or more
    assert state.heuristic(0) > before
    assert state.heuristic(1) < 0


# --- Variant last-card-of-a-pile (issue 14) -------------------------------------------------------


def _last_animal_position(variants: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    # Player 1 holds every animal but one; the marketplace keeps its wheat and one animal.
    from farmtable.games.farmers_finances.components import ANIMAL_CARDS_PER_COPY, copies_for

    animals = ANIMAL_CARDS_PER_COPY * copies_for(2) - 1
    return position(row=4, money=[10, 10], farms=[(1, 0, 0), (0, 0, animals)], variants=variants)


def test_last_card_of_a_pile_variant_empties_the_market_with_the_last_animal() -> None:
    state = _last_animal_position(("last-card-of-a-pile",))
    assert state.market[1] == 1 and state.market[0] > 0
    animals = state.hands[1][2]
    state.apply(0, "buy animal")
    # Row 4: the animal costs 7; then everyone sells at SELL +1: wheat 6, animal 11.
    assert state.money[0] == 10 - 7 + 6 + 11
    assert state.money[1] == 10 + 11 * animals
    assert state.hands == [[0, 0, 0], [0, 0, 0]]
    assert state.legal_actions(0) == ["reroll"]


def test_by_default_the_last_animal_alone_does_not_empty_the_market() -> None:
    state = _last_animal_position()
    state.apply(0, "buy animal")
    assert state.market[1] == 0 and state.market[0] > 0
    assert state.hands[0] == [1, 0, 1]
    assert "reroll" in state.legal_actions(0) and len(state.legal_actions(0)) > 1


def test_last_card_of_a_pile_is_refused_solo() -> None:
    with pytest.raises(ValueError, match="last-card-of-a-pile"):
        GAME.new_game(players=1, seed=1, variants=("last-card-of-a-pile",))


# --- Variant player-two-wins-at-once (issue 14) ---------------------------------------------------


def _forced_sale_lifts_player_one(variants: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    # One animal left in the market; player 2 (seat 1) buys it at row 4 for 7, and the forced sale
    # pays seat 0: 2 wheat x 6 + 1 bread x 7 + 1 animal x 11 = 30 (50 -> 80); seat 1: 1 wheat x 6 +
    # 1 animal x 11 = 17 (62 - 7 + 17 = 72). Seat 1 has reached 70 after his turn.
    state = position(row=4, money=[50, 62], farms=[(2, 1, 1), (1, 0, 0)], current=1, variants=variants)
    state.apply(1, "buy animal")
    state.apply(1, "reroll")
    if not state.is_over():  # a rolled 6: choose the new row, which ends the turn
        state.apply(1, state.legal_actions(1)[0])
    assert state.is_over() and state.money == [80, 72]
    return state


def test_by_default_the_forced_sale_lets_player_one_win_on_money() -> None:
    assert _forced_sale_lifts_player_one().result().ranking == [[0], [1]]


def test_literal_variant_player_two_reaching_70_wins_at_once() -> None:
    state = _forced_sale_lifts_player_one(("player-two-wins-at-once",))
    assert state.result().ranking == [[1], [0]]
    assert GAME.from_json(state.to_json()).result().ranking == [[1], [0]]


def test_literal_variant_does_not_apply_when_player_one_triggered_the_end() -> None:
    # Player 1 reached 70 first: player 2's extra turn is judged on money, as the rulebook says.
    state = position(money=[70, 60], farms=[(1, 0, 0), (0, 2, 0)], variants=("player-two-wins-at-once",))
    _finish_turn(state, 0, "bake 1")
    _finish_turn(state, 1, "sell bread 1")
    assert state.is_over() and state.money == [70, 67]
    assert state.result().ranking == [[0], [1]]


def test_literal_variant_needs_two_players() -> None:
    with pytest.raises(ValueError, match="players=2"):
        GAME.new_game(players=3, seed=1, variants=("player-two-wins-at-once",))
