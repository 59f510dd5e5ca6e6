"""Where one decision's server CPU goes, part by part (in-process, ``time.process_time``, this checkout).

Plays seeded two-player games of every game through the real ``Hub`` (a fresh SQLite file, the server's own
decision write) and after every decision builds the update of seat 0, seat 1 and a spectator, timing each
part separately: the decision (``Hub.act``, of it the storage call ``Store.record_decision``), and per
update the legal moves, the view, the board picture, the log items, the page extras, the rest of the
payload, and the texts the push makes for the table page's connection of that seat (``Subscriber.texts_of``
of ``Hub.wire``: the update without its picture and the picture as drawn after a newline, in one text; or
the update without an unchanged picture). "picture JSON" is what escaping the picture into the update would
cost (connections that do not ask for pictures unescaped; no longer on the page's path).
Medians are not needed: every number is a mean over all decisions of a game, CPU only.

    nice -n 10 .venv/bin/python benchmarks/server_parts.py [--tables 3] [--decisions 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from typing import Any

import farmtable.server.hub as hub_module
from farmtable.server.hub import HUMAN, LOG_TAIL, Hub, Subscriber
from farmtable.server.store import Store


async def _never() -> Any:
    raise AssertionError("not built here")


async def _nowhere(_text: str) -> None:
    """Nothing is sent: the texts are made and timed."""


GAMES = ["tiny-farms", "farmini", "farmerama", "tiny-towns", "farmers-finances"]
T = time.process_time


async def measure(games: list[str], tables: int, decisions: int) -> dict[str, dict[str, float]]:
    """CPU microseconds per decision (``decide``, ``store``) and per update (the rest), per game."""
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite:///{tmp}/parts.db")
        record = store.record_decision
        stored = [0.0]

        def timed_record(*args: Any, **kwargs: Any) -> Any:
            c = T()
            try:
                return record(*args, **kwargs)
            finally:
                stored[0] += T() - c

        store.record_decision = timed_record  # type: ignore[method-assign]
        hub = Hub(store, ai_delay=0.0)
        for game in games:
            acc: dict[str, float] = {}
            count = 0
            stored[0] = 0.0

            def add(key: str, start: float, acc: dict[str, float] = acc) -> None:
                acc[key] = acc.get(key, 0.0) + T() - start

            for t in range(tables):
                tid, _ = await hub.create(game, 2, [], [(HUMAN, None), (HUMAN, None)], seed=1000 + t)
                table = await hub.get(tid)
                rng = random.Random(f"{game}:{t}")
                pages = {who: Subscriber(who, _never, _nowhere, frames=True, view=False) for who in (0, 1, None)}
                for _ in range(decisions):
                    state = table.state
                    if state.is_over():
                        break
                    seat = state.actors()[0]
                    legal = state.legal_actions(seat)
                    c = T()
                    await hub.act(table, seat, str(legal[rng.randrange(len(legal))]), table.version)
                    add("decide", c)
                    for who in (0, 1, None):  # each part as payload() makes it, then the payload itself
                        state = table.state
                        c = T()
                        moves = state.legal_actions(who) if who is not None and who in state.actors() else []
                        names = [str(a) for a in moves]
                        add("legal", c)
                        c = T()
                        view = state.view(who) if who is not None else hub.public_view(table)
                        add("view", c)
                        c = T()
                        hub._board(table, who, view, names)
                        add("picture", c)
                        c = T()
                        hub.log_lines(table, who, LOG_TAIL)
                        add("log", c)
                        c = T()
                        hub._extras(table, state, view, who)
                        add("extras", c)
                        c = T()
                        payload = hub.payload(table, who)  # the rest: view and moves again, seats, result
                        add("payload rest", c)
                        c = T()
                        hub_module._dumps(payload["svg"])
                        add("picture JSON", c)
                        c = T()
                        pages[who].texts_of(hub.wire(table, who))
                        add("sent texts", c)
                    count += 1
            row = {key: value / count * 1e6 / (1 if key == "decide" else 3) for key, value in acc.items()}
            row["store"] = stored[0] / count * 1e6
            out[game] = row
        await hub.close()
    return out


def main() -> None:
    """Run and print the table (µs; decide and store per decision, the rest per update)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=3, help="tables per game (1 to 10)")
    parser.add_argument("--decisions", type=int, default=60, help="decisions per table (1 to 200)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not (1 <= args.tables <= 10 and 1 <= args.decisions <= 200):
        raise SystemExit("--tables is 1 to 10 and --decisions 1 to 200 (bounded on purpose)")
    got = asyncio.run(measure(GAMES, args.tables, args.decisions))
    if args.json:
        print(json.dumps(got))
        return
    keys = [
        "decide",
        "store",
        "legal",
        "view",
        "picture",
        "log",
        "extras",
        "payload rest",
        "picture JSON",
        "sent texts",
    ]
    print("CPU µs: decide and store (of it) per decision; the rest per update (3 updates per decision)\n")
    print(f"{'game':<17}" + "".join(f"{k:>13}" for k in keys))
    for game, row in got.items():
        print(f"{game:<17}" + "".join(f"{row.get(k, 0.0):>13.0f}" for k in keys))


if __name__ == "__main__":
    main()
