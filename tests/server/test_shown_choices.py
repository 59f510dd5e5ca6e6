"""``shown_choices`` works out the real step once per decision (what each seat sees after it), not once per
alternative tried, and starts from the position the hub kept when the step opened instead of reading it
from its JSON: checked against the plain version (each alternative replays the real step too, every
position read from its JSON) on every simultaneous step of seeded Tiny Towns and Farmerama games played
through the hub."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

import farmtable.server.hub as hub_module
from farmtable.core import Game, IllegalAction, State
from farmtable.server.hub import COUNTERFACTUALS, HUMAN, Hub
from farmtable.server.store import Store


def plain_shown_choices(game: Game[Any], players: int, decisions: Sequence[Any], seqs: Sequence[int]) -> list[int]:
    """The version before: for every alternative, the real step is replayed and looked at again."""
    shown: list[int] = []

    def seen(state: State[Any], seat: int | None) -> str:
        return json.dumps(state.view(seat), sort_keys=True, default=str)

    for k, (decision, seq) in enumerate(zip(decisions, seqs, strict=True)):
        before = game.from_json(decision.before)
        player = decision.player
        alternatives = [a for a in before.legal_actions(player) if str(a) != decision.notation][:COUNTERFACTUALS]
        if not alternatives:
            shown.append(seq)
            continue
        others: list[int | None] = [q for q in range(players) if q != player]
        others.append(None)
        differs = dict.fromkeys(others, False)
        for alternative in alternatives:
            world, actual = before.clone(), before.clone()
            try:
                world.apply(player, alternative)
                actual.apply(player, decision.notation)
            except (IllegalAction, ValueError):
                continue
            for later in decisions[k + 1 :]:
                try:
                    world.apply(later.player, later.notation)
                except (IllegalAction, ValueError):
                    break
                actual.apply(later.player, later.notation)
            for q in others:
                differs[q] = differs[q] or seen(world, q) != seen(actual, q)
            if all(differs.values()):
                break
        if all(differs.values()):
            shown.append(seq)
    return shown


@pytest.mark.parametrize("game, players", [("tiny-towns", 2), ("tiny-towns", 3), ("farmerama", 2)])
def test_the_same_choices_are_shown_as_before(game: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    ours = hub_module.shown_choices
    compared: list[tuple[list[int], list[int]]] = []
    starts: list[str] = []  # the steps whose first position the hub kept (not read again from its JSON)

    def both(
        game: Game[Any], players: int, decisions: Sequence[Any], seqs: Sequence[int], known: Any = None
    ) -> list[int]:
        got = ours(game, players, decisions, seqs, known)
        if known is not None and decisions[0].before is known[0]:
            starts.append(decisions[0].before)
        compared.append((got, plain_shown_choices(game, players, decisions, seqs)))
        return got

    monkeypatch.setattr(hub_module, "shown_choices", both)

    async def scenario() -> None:
        hub = Hub(Store("sqlite://"), ai_delay=0.0)
        try:
            for seed in (1, 2):
                tid, _ = await hub.create(game, players, [], [(HUMAN, None)] * players, seed=seed)
                table = await hub.get(tid)
                rng = random.Random(seed)
                for _ in range(70):
                    if table.state.is_over():
                        break
                    seat = rng.choice(table.state.actors())
                    legal = table.state.legal_actions(seat)
                    await hub.act(table, seat, str(legal[rng.randrange(len(legal))]), table.version)
        finally:
            await hub.close()

    asyncio.run(scenario())
    assert len(compared) >= 5  # steps did close
    assert any(got for got, _ in compared)  # and some choices were shown (the comparison can differ)
    assert starts  # the kept first position was used (and gave what the plain version reads from the JSON)
    for got, plain in compared:
        assert got == plain
