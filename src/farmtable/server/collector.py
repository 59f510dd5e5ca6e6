"""The garbage collector as a server wants it: rarely stopping the event loop for long (issue 16 item 3).

CPython's cycle collector pauses the whole process. With its default thresholds a server holding many
tables runs a full collection every few seconds, each walking every container object the process holds
(the imported modules' ~85,000, plus the tables, caches and sockets): about 50–100 ms of CPU with
nothing collected — the server makes almost no cyclic garbage (0–84 objects per full collection in a
load run), its objects are freed by reference counting. Every update waiting meanwhile is late by that
much: the tail of the move-to-update latency.

:func:`quiet_collector` (entered for the life of the app, see ``create_app``) makes that rare without
turning the collector off:

- the objects alive once the server has started (imported modules, the app) are collected once and
  moved to the permanent generation (:func:`gc.freeze`): later collections no longer walk them;
- the thresholds go from CPython's ``(700, 10, 10)`` to :data:`THRESHOLDS`: a young collection after
  1,000 new container objects (under 1 ms), a middle one every 10 of those (a few ms), and a full one
  every 100 middle ones instead of every 10 (CPython also waits until the objects promoted since the
  last full one are a quarter of those it kept then): on the in-process workload (900 decisions) no full
  collection instead of two of up to ~90 ms, and the collector's CPU ~60 ms instead of ~210 ms. Larger
  young thresholds were tried: 10,000 makes each middle collection walk ~10× more survivors (~40 ms).
  Cycles are still found, later.

The previous thresholds come back (and the frozen objects are unfrozen) when the last app using it stops,
so a test process that starts many apps keeps CPython's behaviour outside them.

Search agents set old objects aside themselves for the length of a decision
(:func:`farmtable.agents.base.old_objects_set_aside`) unless something froze objects already: in the server
they now find this freeze and leave it as it is (before, an agent on an AI thread froze and unfroze the whole
server around each of its decisions). The worker processes of heavy agents are spawned, so they start
unfrozen and keep doing it.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

THRESHOLDS = (1_000, 10, 100)
"""Young-generation allocations, then collections of each generation, before collecting the next."""

_lock = threading.Lock()
_users = 0
_saved: tuple[int, int, int] | None = None


@contextlib.contextmanager
def quiet_collector(thresholds: tuple[int, int, int] = THRESHOLDS) -> Iterator[None]:
    """Within the block, objects alive at its start are frozen and the collector runs at ``thresholds``;
    restored when the last such block (of any app in this process) ends."""
    global _users, _saved
    with _lock:
        if _users == 0:
            gc.collect()
            gc.freeze()
            _saved = gc.get_threshold()
            gc.set_threshold(*thresholds)
        _users += 1
    try:
        yield
    finally:
        with _lock:
            _users -= 1
            if _users == 0 and _saved is not None:
                gc.set_threshold(*_saved)
                gc.unfreeze()
                _saved = None
