"""Property: no seat can tell apart two tables whose hidden parts differ.

For every game, a position is reached by random play; a second position is made from it by
``determinize(seat)`` (everything that seat has not seen is dealt again: the deck order, other
players' secret cards, the future dice). Everything the server sends that seat, and a spectator,
is then built for both tables and must be identical: the update (view, legal moves, SVG, log,
undo state), the error for a move that is not legal, and the replay frame (the spectator's
drawing). If any of it differed, the seat could learn hidden information from the server.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import farmtable
from farmtable.core import History, IllegalAction, State
from farmtable.server.hub import HUMAN, Hub, LogLine, Table
from farmtable.server.render import render
from farmtable.server.store import Seat, Store, TableRecord

GAMES = [
    g for g in ("farmerama", "farmers-finances", "farmini", "tiny-farms", "tiny-towns") if g in farmtable.list_games()
]


@pytest.fixture(scope="module")
def hub() -> Hub:
    """A hub on an in-memory database (only its payload builder is used)."""
    return Hub(Store("sqlite://"))


def table_of(game_id: str, state: State[Any], lines: list[LogLine]) -> Table:
    """A table holding ``state`` with every seat a person and the given log."""
    players = len(state.result().totals)
    record = TableRecord(
        id="probe",
        game=game_id,
        players=players,
        seed=0,
        variants=[],
        options={},
        seats=[Seat(HUMAN, None, None) for _ in range(players)],
        state="",
        version=len(lines),
        over=state.is_over(),
        rematch_of=None,
        rematch=None,
    )
    return Table(record, farmtable.get_game(game_id), History(state), list(lines))


def refusal(state: State[Any], seat: int, notation: str) -> str:
    """The message a refused move gets (what the server sends back as the error)."""
    try:
        state.clone().apply(seat, notation)
    except (IllegalAction, ValueError) as exc:
        return str(exc)
    return "<accepted>"


def played(game_id: str, players: int, seed: int, steps: int) -> tuple[State[Any], list[LogLine]]:
    """A position after up to ``steps`` random decisions from a seeded start, and its log."""
    game = farmtable.get_game(game_id)
    state = game.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    lines: list[LogLine] = []
    for n in range(steps):
        if state.is_over():
            break
        actors = state.actors()
        seat = rng.choice(actors)
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        lines.append(LogLine(n + 1, "move", seat, str(action), len(actors) > 1))
    return state, lines


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_seat_can_tell_two_tables_apart_whose_hidden_parts_differ(hub: Hub, game_id: str, data: Any) -> None:
    game = farmtable.get_game(game_id)
    players = data.draw(st.integers(max(2, game.min_players), min(4, game.max_players)), label="players")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    steps = data.draw(st.integers(0, 60), label="steps")
    state, lines = played(game_id, players, seed, steps)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    other = state.determinize(seat, data.draw(st.integers(0, 2**32), label="deal"))
    a, b = table_of(game_id, state, lines), table_of(game_id, other, lines)
    for who in (seat, None):  # the seat, and a spectator (who sees less than any seat)
        seen_a, seen_b = hub.payload(a, who), hub.payload(b, who)
        assert seen_a == seen_b, f"{game_id}: {who} can tell the deals apart"
    probes = ["no such move", *[str(x) for p in range(players) if p != seat for x in state.legal_actions(p)[:3]]]
    for notation in probes:
        assert refusal(state, seat, notation) == refusal(other, seat, notation), notation
    assert render(a.game, state.view(None), [], None) == render(b.game, other.view(None), [], None)  # a replay frame


def test_the_property_can_fail() -> None:
    """The check is not vacuous: two different deals (not a determinize) are told apart by a seat."""
    hub = Hub(Store("sqlite://"))
    told_apart = 0
    for game_id in GAMES:
        one, lines = played(game_id, 2, 1, 10)
        two, _ = played(game_id, 2, 2, 10)
        told_apart += hub.payload(table_of(game_id, one, lines), 0) != hub.payload(table_of(game_id, two, lines), 0)
    assert told_apart >= min(len(GAMES), 3)
    asyncio.run(hub.close())
