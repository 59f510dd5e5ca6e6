"""The card data review (issue 14): the default faces against the ``cards-v1`` variant.

The default faces are ``cards-v1`` with ``components.REVISIONS`` applied; these scenarios check
that a game, its saves, its drawing and the scoring helper all read the faces of their variant.
"""

from __future__ import annotations

import pytest

from farmtable.core import BadInput
from farmtable.games.farmini import components as c
from farmtable.games.farmini.farm import FACES, faces_for
from farmtable.games.farmini.rules import GAME, FarminiState, Place, Take
from tests.games.farmini.builders import make_state

V1 = FACES[c.CARDS_V1]
REVISED = FACES[c.DEFAULT_FACES]

RING = """
farm at 0,0
D2 at 1,0 rot 90
C3 at 2,0 rot 270
D4 at 0,1
F1 at 1,1
D6 at 2,1
C7 at 0,2 rot 90
D8 at 1,2 rot 90
C5 at 2,2 rot 180
"""
"""Eight cards around F1 (no fence) whose fences face away from it: F1's quarters and the inner
halves of the cards around it form one enclosed pen, so F1's cornfield scores when no animal is
in the pen."""


def test_the_variant_is_offered_and_chooses_the_faces() -> None:
    assert c.CARDS_V1 in GAME.variants
    assert faces_for(()) is REVISED
    assert faces_for((c.CARDS_V1, "second-variant")) is V1
    assert GAME.new_game(players=1, seed=3).faces is REVISED  # type: ignore[attr-defined]
    assert GAME.new_game(players=1, seed=3, variants=(c.CARDS_V1,)).faces is V1  # type: ignore[attr-defined]


def test_revisions_give_each_blank_card_something_to_show_and_change_no_fence() -> None:
    blank = [card.id for card in c.FENCE_CARDS_V1 if set(card.quarters) == {c.GRASS}]
    assert blank == ["D5", "D7", "E1", "E2", "F1", "F3", "F4"]
    assert sorted(c.REVISIONS) == sorted(blank)
    for card in c.FENCE_CARDS:
        old = V1.cards[card.id]
        assert card.arms == old.arms, f"{card.id}: the review changes contents, never fences"
        if card.id in c.REVISIONS:
            assert set(card.quarters) != {c.GRASS}
        else:
            assert card == old
    assert not any(set(card.quarters) == {c.GRASS} for card in c.FENCE_CARDS)


def test_corn_totals_leave_the_35_point_row_within_reach() -> None:
    # DERIVED (components/farmini.md): 35 needs at least 20 scoring cornfields beside 15 animals.
    corn = sum(card.quarters.count(c.CORN) for card in c.FENCE_CARDS)
    old = sum(card.quarters.count(c.CORN) for card in c.FENCE_CARDS_V1)
    assert corn == old + sum(q.count(c.CORN) for _, q in c.REVISIONS.values())
    assert corn >= 20 + 10


def test_a_cornfield_on_a_revised_card_scores_in_a_pen_and_not_under_cards_v1() -> None:
    revised = GAME.score_text(RING)
    first = GAME.score_text("variant cards-v1\n" + RING)
    added = c.REVISIONS["F1"][1].count(c.CORN)
    assert added >= 1
    assert revised.breakdown[0]["corn"] - first.breakdown[0]["corn"] == added
    assert revised.totals[0] - first.totals[0] == added


def test_the_helper_refuses_an_unknown_variant_and_names_the_known_ones() -> None:
    with pytest.raises(BadInput, match="cards-v1"):
        GAME.score_text("variant cards-v0\nfarm at 0,0")


def test_placements_and_rotations_follow_the_faces() -> None:
    # F1 (all pasture, no fence) looks the same turned; revised it shows a cornfield, so each
    # turn looks different and the legal placements offer more rotations.
    assert V1.distinct_rotations["F1"] == (0,)
    assert len(REVISED.distinct_rotations["F1"]) == len(set(REVISED.distinct_rotations["F1"])) > 1
    text = "farm at 0,0\nD5 at 1,0 rot 90"  # D5's north side is pasture: F1 fits at 1,1
    for variants, faces in (((), REVISED), ((c.CARDS_V1,), V1)):
        state = make_state([text], ["F1", "A1", "B1", "C1"], ["F3"], variants=variants)
        state.apply(0, Take(1))
        rots = {a.rot for a in state.legal_actions(0) if isinstance(a, Place) and (a.x, a.y) == (1, 1)}
        assert rots == set(faces.distinct_rotations["F1"])


def test_saves_clones_and_drawings_keep_the_variant_faces() -> None:
    state = make_state([RING], ["B1", "B2", "B3", "B4"], ["B5"], variants=(c.CARDS_V1,))
    again = FarminiState.from_dict(state.to_dict())
    assert again.faces is V1
    assert again.farms[0].faces is V1
    assert again.result().totals == state.result().totals
    assert state.clone().faces is V1 and state.determinize(0, 5).farms[0].faces is V1
    default = make_state([RING], ["B1", "B2", "B3", "B4"], ["B5"])
    assert default.result().totals[0] > state.result().totals[0]
    # the face-up description reads the variant's faces
    f1_v1 = make_state(["farm at 0,0"], ["F1", "A1", "B1", "C1"], ["F3"], variants=(c.CARDS_V1,))
    f1_new = make_state(["farm at 0,0"], ["F1", "A1", "B1", "C1"], ["F3"])
    assert "quarters NE SE SW NW = G G G G" in f1_v1.view(0)["table"][0]["text"]
    assert f1_new.view(0)["table"][0]["quarters"] == c.REVISIONS["F1"][1].replace(" ", "")
    assert f1_v1.render_text(0) != f1_new.render_text(0)
