"""Do players get the same updates from two servers? Every seat's update, byte for byte, side by side.

A check for speed work on the push (issue 16 item 3) that must not change what players see: it plays the
same seeded games on the ``Hub`` of an older commit (``git archive`` into a temporary folder: nothing in the
repository changes) and of this checkout (or ``--after``), each in a fresh child process on a fresh SQLite
file, and after every decision (random legal moves, about one in twenty an undo where the policy allows)
takes the full update text of every seat and a spectator (``Hub.wire(...).full``: the JSON the server
sends, the board picture included; the table id, which is random, blanked), and the texts the table page's
connections are sent (``lite``, ``framed`` and both without the view, where that commit makes them); at the
end of each game the rows it stored (every log row: seq, kind, player, notation, secret, epoch, the state
before, the reveals; and the table's stored state, version and whether it is over). It prints SHA-256
digests per game and side (updates; page texts and stored rows) and whether they are all equal. Games of 2
and 3 players (where the game takes them), up to 400 decisions each.

    nice -n 10 .venv/bin/python benchmarks/server_same_updates.py --tables 3 [--before COMMIT] [--after COMMIT]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_push_ab import GAMES, export_sides, run_child

CHILD = """
import asyncio, hashlib, json, random, sys, tempfile
from farmtable.server.hub import HUMAN, Hub
from farmtable.server.store import Store

def page_texts(wire):
    # what the table page's connections are sent (where that commit has them): the update without an
    # unchanged picture, the update with the picture unescaped after it, and both without the view
    texts = [wire.lite] if hasattr(wire, "lite") else []
    if hasattr(wire, "framed"):
        texts.append(wire.framed)
    if hasattr(wire, "texts"):
        try:
            texts += [wire.texts(same=True, view=False), wire.texts(same=False, view=False)]
        except TypeError:  # before connections could leave out the view
            pass
    return texts

async def main(games, tables):
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(Store(f"sqlite:///{tmp}/w.db"), ai_delay=0.0)
        for g in games:
            h = hashlib.sha256()
            pages = hashlib.sha256()
            rows = hashlib.sha256()
            updates = 0
            for t in range(tables):
                players = 2 if t % 3 else 3
                try:
                    tid, _ = await hub.create(g, players, [], [(HUMAN, None)] * players, seed=77 + t)
                except Exception:  # a player count the game does not take
                    continue
                table = await hub.get(tid)
                rng = random.Random(f"{g}:{t}")
                for i in range(400):
                    st = table.state
                    if st.is_over():
                        break
                    seat = st.actors()[rng.randrange(len(st.actors()))]
                    if rng.random() < 0.05 and i > 0 and table.history.why_no_undo(seat) is None:
                        await hub.undo(table, seat, table.version)
                    else:
                        legal = st.legal_actions(seat)
                        await hub.act(table, seat, str(legal[rng.randrange(len(legal))]), table.version)
                    for who in list(range(players)) + [None]:
                        wire = hub.wire(table, who)
                        h.update(wire.full.replace(tid, "TID").encode())
                        updates += 1
                        for text in page_texts(wire):
                            pages.update(text.replace(tid, "TID").encode())
                for row in hub.store.load_log(tid):
                    rows.update(repr((row.seq, row.kind, row.player, row.notation, row.secret, row.epoch_before,
                                      row.before, tuple(row.reveals), row.closes)).encode())
                stored = hub.store.load_table(tid)
                rows.update(repr((stored.state, stored.version, stored.over)).encode())
            out[g] = {"sha256": h.hexdigest(), "updates": updates, "pages_sha256": pages.hexdigest(),
                      "rows_sha256": rows.hexdigest()}
        await hub.close()
    print(json.dumps(out))

asyncio.run(main(sys.argv[1].split(","), int(sys.argv[2])))
"""
"""The child: the seeded games on one side's ``Hub``, one digest of every update per game."""


def main() -> None:
    """Export the older commit, play the games on both sides, print the digests and whether they agree."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="a09ca30", help="the older commit (default: main before session 15)")
    parser.add_argument("--after", help="a commit to compare instead of this checkout's working tree")
    parser.add_argument("--tables", type=int, default=3, help="seeded games per game id (1 to 10)")
    parser.add_argument("--games", nargs="*", help="game ids (default: all five)")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    if not 1 <= args.tables <= 10:
        raise SystemExit("--tables is 1 to 10 (bounded on purpose)")
    games = ",".join(args.games or GAMES)
    with tempfile.TemporaryDirectory() as tmp:
        old, new, sides = export_sides(args.before, args.after, Path(tmp))
        got = {side: run_child(src, CHILD, games, str(args.tables), what="the games") for side, src in sides.items()}
    same = {g: got["before"][g] == got["after"][g] for g in got["before"]}
    summary = {"before": old, "after": new, "same": same, "digests": got}
    if args.json:
        print(json.dumps(summary))
        return
    print(f"before = {old[:10]}, after = {new[:13]}; {args.tables} seeded games per game id\n")
    for g, ok in same.items():
        b, a = got["before"][g], got["after"][g]
        verdict = "same" if ok else "DIFFER"
        print(f"{g:>18}: {b['updates']:>6} updates, {b['sha256'][:16]} vs {a['sha256'][:16]}: {verdict}")
        for key, what in (("pages_sha256", "page texts"), ("rows_sha256", "stored rows")):
            if key in b:
                print(f"{'':>18}  {what:>14}: {b[key][:16]} vs {a[key][:16]}")
    if not all(same.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
