"""Views hide what a player may not see; determinize, saves, corrupt saves, info epochs, rendering."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import farmtable
from farmtable import CorruptSave
from tests.games.farmers_finances.positions import position

GAME = farmtable.get_game("farmers-finances")


def test_multiplayer_view_is_everything_but_the_future_die() -> None:
    state = position(money=[12, 34], farms=[(1, 1, 0), (0, 0, 2)], row=4, rng=987654321987)
    view = state.view(1)
    assert view["money"] == [12, 34]
    assert view["farms"] == [{"wheat": 1, "bread": 1, "animal": 0}, {"wheat": 0, "bread": 0, "animal": 2}]
    assert view["market"] == {"wheat": 2, "animal": 0}
    assert view == state.view(0) == state.view(None)
    assert str(state.rng.state) not in json.dumps(view)


def test_solo_view_shows_only_the_top_cards_and_pile_sizes() -> None:
    state = position(1, piles=(["animal", "wheat", "wheat"], ["animal", "wheat", "wheat"]))
    view = state.view(0)
    assert view["piles"] == {"left": {"top": "wheat", "size": 3}, "right": {"top": "wheat", "size": 3}}
    other = position(1, piles=(["wheat", "animal", "wheat"], ["wheat", "animal", "wheat"]))
    assert other.view(0) == view  # the order below the tops does not show


def test_solo_determinize_keeps_the_tops_and_resamples_the_rest() -> None:
    state = position(1, farms=[(1, 0, 0)], piles=(["animal", "wheat", "wheat"], ["animal", "wheat"]))
    orders = set()
    for seed in range(40):
        det = state.determinize(0, seed)
        assert det.view(0) == state.view(0)
        assert det.left[-1] == "wheat" and det.right[-1] == "wheat"
        assert Counter(det.left + det.right) == Counter(state.left + state.right)
        assert det.rng.state != state.rng.state
        orders.add((tuple(det.left), tuple(det.right)))
    assert len(orders) > 1, "the hidden cards were never re-sampled"


def test_multiplayer_determinize_changes_only_the_rng() -> None:
    state = GAME.new_game(players=3, seed=4)
    det = state.determinize(1, 99)
    a, b = state.to_dict(), det.to_dict()
    assert a.pop("rng") != b.pop("rng")
    assert a == b


def test_json_round_trip_is_exact() -> None:
    for players in (1, 2, 3, 4):
        state = GAME.new_game(players=players, seed=8)
        for _ in range(15):
            if state.is_over():
                break
            state.apply(state.actors()[0], state.legal_actions(state.actors()[0])[-1])
        text = state.to_json()
        assert GAME.from_json(text).to_json() == text


def _damaged(change) -> str:  # type: ignore[no-untyped-def]
    data = json.loads(GAME.new_game(players=2, seed=1).to_json())
    change(data["state"])
    return json.dumps(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["money"].__setitem__(0, -3), "money must be a count"),
        (lambda s: s["farms"][0].__setitem__("wheat", 2), "cards do not add up"),
        (lambda s: s["market"].__setitem__("animal", 5), "cards do not add up"),
        (lambda s: s.__setitem__("phase", "dance"), "unknown phase"),
        (lambda s: s.__setitem__("row", 6), "'row' must be a whole number in 1..5, got 6"),
        (lambda s: s.__setitem__("players", 5), "'players' must be a whole number in 1..4, got 5"),
        (lambda s: s.__setitem__("variants", ["solo-six-choose"]), "solo rule"),
        (lambda s: s.__setitem__("current", 2), "'current' must be a whole number in 0..1, got 2"),
        (lambda s: s.pop("money"), "missing field"),
        (lambda s: s.__setitem__("end_triggered", 1), "true or false"),
    ],
)
def test_corrupt_saves_are_refused(change, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CorruptSave, match=message):
        GAME.from_json(_damaged(change))


def test_corrupt_solo_piles_are_refused() -> None:
    data = json.loads(GAME.new_game(players=1, seed=1).to_json())
    data["state"]["piles"]["right"] = []
    with pytest.raises(CorruptSave, match="right pile"):
        GAME.from_json(json.dumps(data))


def test_info_epoch_moves_on_rolls_not_on_plain_decisions() -> None:
    state = position(farms=[(1, 0, 0), (0, 0, 0)])
    epoch = state.info_epoch()
    state.apply(0, "bake 1")
    assert state.info_epoch() == epoch  # undoable: nothing was revealed
    state.apply(0, "reroll")
    assert state.info_epoch() > epoch


def test_options_are_refused() -> None:
    with pytest.raises(ValueError, match="takes no options"):
        GAME.new_game(players=2, seed=1, start_money=20)


@pytest.mark.parametrize(
    ("players", "variant", "message"),
    [(2, "solo-six-choose", "players=1"), (1, "empty-market-extra-change", "solo has no market change")],
)
def test_variants_refuse_player_counts_they_do_not_fit(players: int, variant: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.new_game(players=players, seed=1, variants=(variant,))


def test_render_text_is_plain_and_shows_the_board() -> None:
    state = position(money=[12, 34], farms=[(1, 1, 0), (0, 0, 2)], row=4)
    text = state.render_text(0)
    assert "\x1b" not in text
    assert ">> row 4" in text
    assert "player 1       34" in text
    solo = position(1, piles=(["animal", "wheat", "wheat"], ["wheat", "wheat", "animal"]))
    solo_text = solo.render_text(0)
    assert "left: wheat on top (3 cards)" in solo_text and "right: animal on top (3 cards)" in solo_text
    over = position(current=1, money=[40, 65], farms=[(0, 0, 0), (0, 1, 0)])
    over.apply(1, "sell bread 1")
    over.apply(1, "move 2")
    assert "Winner: player 1" in over.render_text(None)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_position_survives_save_and_load(players: int) -> None:
    """Regression: a forced empty-market reroll that rolled a 6 left a save that would not load."""
    import random

    for seed in range(12):
        state = GAME.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            saved = state.to_json()
            assert GAME.from_json(saved).to_json() == saved
            player = rng.choice(state.actors())
            state.apply(player, rng.choice(state.legal_actions(player)))
