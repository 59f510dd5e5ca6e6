"""Automatic events in the log (issue 15 item 2): what the game did by itself after a decision, read
from the public views before and after it (``narrate.events``) and served by
``GET /api/tables/{id}/events``."""

from __future__ import annotations

import random
from typing import Any

import farmtable
from farmtable.server.narrate import events
from tests.server.conftest import TestClient, move, new_table, token, undo, ws_open


def _buyer(legal: list[str], rng: random.Random) -> str:
    """Mostly buy, so the market empties soon."""
    buys = [a for a in legal if a.startswith("buy ")]
    return rng.choice(buys) if buys and rng.random() < 0.85 else rng.choice(legal)


def test_an_empty_markets_sale_and_the_rolls_are_logged(client: TestClient) -> None:
    game = farmtable.get_game("farmers-finances")
    table = new_table(client, game="farmers-finances")
    tid, tokens = table["id"], [token(table, 0), token(table, 1)]
    local = game.new_game(players=2, seed=3)  # the table's deal (seed 3), played alongside
    rng = random.Random(5)
    sale_seq = None
    money_before: list[int] = []
    seq = 0
    while not local.is_over() and sale_seq is None:
        player = local.actors()[0]
        action = _buyer([str(a) for a in local.legal_actions(player)], rng)
        hands_before = [sum(f.values()) for f in local.view(None)["farms"]]
        money_before = list(local.view(None)["money"])
        assert move(client, tid, tokens[player], action).status_code == 200
        local.apply(player, action)
        seq += 1
        farms = local.view(None)["farms"]
        if all(sum(f.values()) == 0 for f in farms) and any(hands_before):
            sale_seq = seq
    assert sale_seq is not None, "the market never emptied"
    answer = client.get(f"/api/tables/{tid}/events", params={"since": 0})
    assert answer.status_code == 200, answer.text
    by_seq = {e["seq"]: e["lines"] for e in answer.json()["events"]}
    sale = by_seq[sale_seq]
    assert sale[0].startswith("The market is empty")
    money = local.view(None)["money"]
    for q in range(2):
        if money[q] > money_before[q]:
            assert any(
                line.startswith(f"Player {q} sold") and f"for {money[q] - money_before[q]} coins" in line
                for line in sale
            ), sale
    # every reroll so far says what the die showed
    rerolls = [s for s, lines in by_seq.items() if any(line.startswith("The market die rolled") for line in lines)]
    assert rerolls, by_seq
    # "since" leaves out what the page has already read
    later = client.get(f"/api/tables/{tid}/events", params={"since": sale_seq}).json()["events"]
    assert all(e["seq"] > sale_seq for e in later)


def test_public_views_only_and_an_undone_decision_has_no_events(client: TestClient) -> None:
    """A spectator reads the same events as a seat; a decision taken back leaves no event behind."""
    table = new_table(client, game="farmers-finances")
    tid, me = table["id"], token(table, 0)
    local = farmtable.get_game("farmers-finances").new_game(players=2, seed=3)
    legal = [str(a) for a in local.legal_actions(0)]
    action = next((a for a in legal if a.startswith("buy ")), legal[0])
    assert move(client, tid, me, action).status_code == 200
    first = client.get(f"/api/tables/{tid}/events").json()
    assert first == client.get(f"/api/tables/{tid}/events", headers={"X-Seat-Token": me}).json()
    assert client.post(f"/api/tables/{tid}/undo", json={"token": me, "version": 1}).status_code == 200
    assert client.get(f"/api/tables/{tid}/events").json()["events"] == []


def test_the_update_carries_each_lines_events_as_the_endpoint_tells_them(client: TestClient) -> None:
    """Issue 16 item 3: the events come with the pushed log lines (the page needs no extra request), the
    same as ``GET /events`` says for every line, for a seat and a spectator alike; an undo line has none."""
    table = new_table(client, game="farmers-finances")
    tid, tokens = table["id"], [token(table, 0), token(table, 1)]
    local = farmtable.get_game("farmers-finances").new_game(players=2, seed=3)
    rng = random.Random(7)
    for _ in range(12):
        player = local.actors()[0]
        action = _buyer([str(a) for a in local.legal_actions(player)], rng)
        assert move(client, tid, tokens[player], action).status_code == 200
        local.apply(player, action)
    assert undo(client, tid, tokens[player]).status_code == 200
    told = {e["seq"]: e["lines"] for e in client.get(f"/api/tables/{tid}/events").json()["events"]}
    assert any(told.values()), "no decision had an automatic event: the comparison would prove nothing"
    for who in (tokens[0], None):
        with ws_open(client, tid, who) as ws:
            update = ws.receive_json()
        assert update["type"] == "update"
        lines = update["log"]
        assert [line["seq"] for line in lines] == list(range(1, 14))
        undo_line, moves = lines[-1], lines[:-2]  # the last move was taken back: the endpoint leaves it out
        assert undo_line["events"] == []
        assert all("events" in line for line in lines)
        for line in moves:
            assert line["events"] == told.get(line["seq"], []), line


def test_events_of_every_game_are_sentences() -> None:
    """Over random games of every game: events are plain sentences (read from public views only, so
    they cannot hold a secret), the same for the same views, and the games with automatic steps say
    something in a whole game."""
    for game_id in farmtable.list_games():
        game = farmtable.get_game(game_id)
        state = game.new_game(players=2, seed=11)
        rng = random.Random(game_id)
        said: list[str] = []
        for _ in range(300):
            if state.is_over():
                break
            before: dict[str, Any] = state.view(None)
            player = state.actors()[0]
            action = rng.choice(state.legal_actions(player))
            state.apply(player, action)
            lines = events(game_id, before, state.view(None), player, str(action))
            assert lines == events(game_id, before, state.view(None), player, str(action))
            for line in lines:
                assert line[:1].isupper() and "{" not in line and "None" not in line, line
            said += lines
        if game_id in ("farmers-finances", "tiny-farms", "farmerama"):
            assert said, f"{game_id}: no automatic event in a whole game"


def test_the_last_decision_says_the_game_is_over_and_nothing_else_of_rounds() -> None:
    for game_id in farmtable.list_games():
        game = farmtable.get_game(game_id)
        state = game.new_game(players=2, seed=2)
        rng = random.Random(1)
        before: dict[str, Any] = state.view(None)
        player, action = 0, ""
        while not state.is_over():
            before = state.view(None)
            player = state.actors()[0]
            action = str(rng.choice(state.legal_actions(player)))
            state.apply(player, action)
        lines = events(game_id, before, state.view(None), player, action)
        assert lines and lines[-1] == "The game is over", (game_id, lines)
        assert not any(line.startswith(("Round ", "The action wheel")) for line in lines), (game_id, lines)
