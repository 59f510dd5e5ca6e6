"""No hidden value ever reaches a seat: every HTTP and WebSocket payload of full games is checked.

Two seats (each with its own token) and a spectator play full games through the real app;
every payload each of them receives is recorded. Afterwards the positions are recomputed
from the log (the replay), and for each payload a per-game probe lists what its receiver
may not know at that moment (another player's secret monument, the deck order, face-down
buildings): none of it may appear in the payload. And the log never shows another seat's
notation of a decision made in a simultaneous step.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

import farmtable
from farmtable.core import State
from farmtable.server.narrate import log_text
from tests.server.conftest import TestClient, new_table, seat_headers, token, ws_open

Probe = Callable[[dict[str, Any], int | None], set[str]]


def tiny_towns_probe(data: dict[str, Any], seat: int | None) -> set[str]:
    """Monuments dealt to other players that they have not built (chosen or not): secret to ``seat``."""
    hidden: set[str] = set()
    built = {t["monument"] for t in data["towns"] if t.get("built") and t.get("monument")}
    for q, town in enumerate(data["towns"]):
        if q != seat:
            hidden |= {m for m in town.get("dealt", []) if m and m not in built}
            if town.get("monument") and not town.get("built"):
                hidden.add(town["monument"])
    return hidden


def farmini_probe(data: dict[str, Any], seat: int | None) -> set[str]:
    """The cards still in the deck (their order and which comes next are secret)."""
    return {str(c) for c in data["deck"]}


def farmerama_probe(data: dict[str, Any], seat: int | None) -> set[str]:
    """Face-down ornamental buildings (the stack and those removed unseen at setup)."""
    from farmtable.games.farmerama.components import BUILDINGS

    return {BUILDINGS[b].id for b in [*data["stack"], *data["removed"]]}


PROBES: dict[str, Probe] = {
    "tiny-towns": tiny_towns_probe,
    "farmini": farmini_probe,
    "farmerama": farmerama_probe,
}


PUBLIC_TEXT: dict[str, list[str]] = {
    # fixed example notation in the game's "cannot read that move" message: the same for everyone
    "farmini": ["place C7 at 1,-1 rot 90"],
}


def mentions(text: str, value: str) -> bool:
    """``value`` appears in ``text`` as a whole token (not inside a longer word or number)."""
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", text) is not None


class Recorder:
    """Everything one receiver (a seat or the spectator) got, in order."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.payloads: list[dict[str, Any]] = []

    def add(self, payload: dict[str, Any]) -> dict[str, Any]:
        self.payloads.append(payload)
        return payload


def play_recorded(client: TestClient, game: str, seed: int) -> tuple[str, list[Recorder]]:
    """A full 2-player game, both seats moving at random over their WebSockets; every payload recorded."""
    table = new_table(client, game, [{"kind": "you"}, {"kind": "invite"}], seed=seed)
    tid, tokens = table["id"], [token(table, 0), token(table, 1)]
    recorders = [Recorder(0), Recorder(1), Recorder(None)]
    rng = random.Random(seed)
    with (
        ws_open(client, tid, tokens[0]) as ws0,
        ws_open(client, tid, tokens[1]) as ws1,
        ws_open(client, tid) as ws_spectator,
    ):
        sockets = [ws0, ws1, ws_spectator]
        latest = [recorders[i].add(ws.receive_json()) for i, ws in enumerate(sockets)]
        for version in range(1, 5000):
            if latest[2]["over"]:
                break
            seat = latest[2]["actors"][0]
            mine = recorders[seat].add(client.get(f"/api/tables/{tid}", headers=seat_headers(tokens[seat])).json())
            if rng.random() < 0.1:  # now and then a bad move: its error message is a payload too
                sockets[seat].send_json(
                    {"type": "move", "action": "no such move", "id": -1, "version": mine["version"]}
                )
                recorders[seat].add(sockets[seat].receive_json())
            pick = rng.choice(mine["legal"])
            sockets[seat].send_json({"type": "move", "action": pick, "id": version, "version": mine["version"]})
            # every receiver gets the update of this version (updates never skip the latest one)
            for i, ws in enumerate(sockets):
                while True:
                    message = recorders[i].add(ws.receive_json())
                    if message["type"] == "update" and message["version"] >= version:
                        latest[i] = message
                        break
                    assert message["type"] in ("update", "ack"), message
        assert latest[2]["over"], f"{game} did not finish"
        for seat, rec in enumerate(recorders):  # the whole log, as each one may read it
            params = seat_headers(tokens[seat]) if seat < 2 else {}
            rec.add({"type": "log", **client.get(f"/api/tables/{tid}/log", headers=params).json()})
    return tid, recorders


@pytest.mark.parametrize("game", sorted(PROBES))
def test_no_payload_carries_a_hidden_value(client: TestClient, game: str) -> None:
    if game not in farmtable.list_games():
        pytest.skip(f"{game} is not registered yet")
    probe = PROBES[game]
    for seed in (1, 2):
        tid, recorders = play_recorded(client, game, seed)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[tid]
        rows = hub.store.load_log(tid)
        assert client.portal is not None
        states: list[State[Any]] = client.portal.call(hub.replay_states, table)
        assert len(states) == len(rows) + 1  # no undo here: version v is states[v]
        checked = 0
        for rec in recorders:
            version = 0
            for payload in rec.payloads:
                version = payload.get("version", version) if payload["type"] == "update" else version
                text = json.dumps(payload)
                for public in PUBLIC_TEXT.get(game, []):
                    text = text.replace(public, "")
                hidden = probe(states[version].to_dict(), rec.seat)
                leaked = sorted(h for h in hidden if mentions(text, h))
                assert not leaked, f"{game} seed {seed}: seat {rec.seat} at version {version} received {leaked}"
                checked += len(hidden)
                for line in payload.get("log", []):
                    row = rows[line["seq"] - 1]
                    if hidden_at(rows, row.seq, version) and row.player != rec.seat:
                        assert row.notation not in line["text"], line
        assert checked > 0, f"the {game} probe found nothing hidden to look for"


def hidden_at(rows: list[Any], seq: int, version: int) -> bool:
    """Was log line ``seq`` still secret at ``version``: a simultaneous choice that no row up to ``version``
    had shown (the row that closes a step lists in ``reveals`` the lines the game shows from then on)."""
    row = rows[seq - 1]
    if not row.secret:
        return False
    return not any(seq in r.reveals for r in rows[:version])


def test_simultaneous_choices_are_secret_until_their_step_closes(client: TestClient) -> None:
    if "farmerama" not in farmtable.list_games():
        pytest.skip("farmerama is not registered yet")
    tid, recorders = play_recorded(client, "farmerama", 3)
    rows = client.app.state.hub.store.load_log(tid)  # type: ignore[attr-defined]
    secret = [r for r in rows if r.secret]
    assert secret, "farmerama's secret action cards should be logged as secret"
    assert all(r.notation.startswith("card ") for r in secret), "only the secret cards are secret"
    seen_hidden = seen_shown = 0
    for payload in recorders[1].payloads:  # seat 1's updates: player 0's cards hidden while their step is open
        if payload["type"] != "update":
            continue
        for line in payload["log"]:
            row = rows[line["seq"] - 1]
            if row.secret and row.player == 0:
                if hidden_at(rows, row.seq, payload["version"]):
                    assert line["text"] == "Player 0 chose (secret)"
                    seen_hidden += 1
                else:  # the step closed: the line says the card, in words
                    assert line["text"] == log_text(row.kind, row.player, row.notation, hidden=False)
                    seen_shown += 1
    assert seen_hidden and seen_shown
    full_log = recorders[1].payloads[-1]  # the finished game's whole log: every step closed, all shown
    assert full_log["type"] == "log" and len(full_log["log"]) == len(rows)
    assert not any("(secret)" in line["text"] for line in full_log["log"])


def test_the_toy_games_secret_stays_with_its_seat(client: TestClient) -> None:
    tid, recorders = play_recorded(client, "race", 5)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert client.portal is not None
    states = client.portal.call(hub.replay_states, hub.tables[tid])
    secrets = states[0].to_dict()["secrets"]
    for rec in recorders:
        for payload in rec.payloads:
            if payload["type"] == "update":
                assert payload["view"]["my_secret"] == (None if rec.seat is None else secrets[rec.seat])
