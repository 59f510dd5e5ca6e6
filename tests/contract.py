"""The project's own conformance suite: what every game guarantees under the game contract.

Each game's test module calls :func:`check_contract` for every variant and player
count (see ``tests/test_conformance.py``), and may pass ``secrets`` to check that a
player's view hides what that player may not see.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from typing import Any

import farmtable
from farmtable.core import Game, State

STEP_CAP = 50_000
VIEW_CHECK_STEPS = frozenset({1, 5, 20, 60})
BAD_NOTATION = ("no-such-action", "", "   ", "\x00\xff", "9" * 400, "done done done", "🐖")

SecretProbe = Callable[[State[Any], int], Iterable[str]]
"""Given a state and a player, strings that must not appear in that player's view JSON."""


def play_random(
    state: State[Any], rng: random.Random, on_step: Callable[[State[Any], int], None] | None = None
) -> list[tuple[int, str]]:
    """Random legal play to the end; returns the (player, notation) log."""
    log: list[tuple[int, str]] = []
    while not state.is_over():
        actors = state.actors()
        assert actors, "the game is not over but nobody may act"
        player = rng.choice(actors)
        legal = state.legal_actions(player)
        assert legal, f"player {player} must act but has no legal action"
        for other in range(state.players):
            if other not in actors:
                assert state.legal_actions(other) == [], f"non-actor {other} has legal actions"
        if on_step:
            on_step(state, len(log))
        action = rng.choice(legal)
        state.apply(player, action)
        log.append((player, str(action)))
        assert len(log) < STEP_CAP, f"no end after {STEP_CAP} decisions"
    assert state.actors() == [], "a finished game still has actors"
    return log


def check_result(state: State[Any]) -> None:
    """The result is complete: totals and breakdown per player, a ranking of all players."""
    result = state.result()
    n = state.players
    assert len(result.totals) == n and len(result.breakdown) == n
    assert all(isinstance(t, int) for t in result.totals)
    assert sorted(p for group in result.ranking for p in group) == list(range(n))
    assert result.winners == result.ranking[0]
    json.dumps(result.to_dict())


def check_refusals(state: State[Any]) -> None:
    """Garbage, illegal and out-of-turn actions raise IllegalAction and change nothing."""
    before = state.to_json()
    actor = state.actors()[0]
    for bad in BAD_NOTATION:
        try:
            state.apply(actor, bad)
        except farmtable.IllegalAction as exc:
            assert isinstance(exc, ValueError) and str(exc).strip()
        else:
            raise AssertionError(f"garbage notation {bad!r} was accepted")
        assert state.to_json() == before, f"refused {bad!r} changed the state"
    some = state.legal_actions(actor)[0]
    for outsider in [q for q in range(state.players) if q not in state.actors()] + [-1, state.players, 99]:
        try:
            state.apply(outsider, some)
        except farmtable.IllegalAction as exc:
            assert str(exc).strip()
        else:
            raise AssertionError(f"player {outsider}, who is not to act, was allowed to act")
        assert state.to_json() == before


def check_views(state: State[Any], secrets: SecretProbe | None, rng: random.Random) -> None:
    """Views are JSON; they hide the secrets; determinize keeps all a player has seen."""
    json.dumps(state.view(None))
    for p in range(state.players):
        seen = json.dumps(state.view(p), sort_keys=True)
        if secrets is not None:
            for secret in secrets(state, p):
                assert secret not in seen, f"player {p}'s view shows {secret!r}"
            spectator = json.dumps(state.view(None), sort_keys=True)
            for secret in secrets(state, p):
                assert secret not in spectator, f"a spectator's view shows player {p}'s {secret!r}"
        before = state.to_json()
        det = state.determinize(p, rng)
        assert state.to_json() == before, "determinize changed the original state"
        assert json.dumps(det.view(p), sort_keys=True) == seen, "determinize changed what the player saw"
        assert det.actors() == state.actors()
        if p in state.actors():
            assert [str(a) for a in det.legal_actions(p)] == [str(a) for a in state.legal_actions(p)]


def check_contract(
    game_id: str | Game[Any],
    players: int,
    variants: tuple[str, ...] = (),
    games: int = 3,
    seed: int = 1,
    secrets: SecretProbe | None = None,
    **options: Any,
) -> None:
    """Run every contract guarantee on ``games`` random games of one game/player-count/variant set."""
    game = farmtable.get_game(game_id) if isinstance(game_id, str) else game_id
    for g in range(games):
        game_seed = seed * 7919 + g
        rng = random.Random(game_seed)
        state = game.new_game(players=players, seed=game_seed, variants=variants, **options)
        start = state.to_json()
        check_refusals(state)
        mid: dict[str, Any] = {}

        def on_step(s: State[Any], i: int, mid: dict[str, Any] = mid, every_step: bool = g == 0) -> None:
            if every_step:
                # every position of the first game survives a save and load exactly
                saved = s.to_json()
                assert game.from_json(saved).to_json() == saved, f"position {i} does not survive save and load"
            if i in VIEW_CHECK_STEPS:
                check_views(s, secrets, random.Random(i))
                check_refusals(s)
            if i == 9:
                mid["json"] = s.to_json()
                mid["clone"] = s.clone()
                mid["det"] = s.determinize(s.actors()[0], random.Random(i))

        log = play_random(state, rng, on_step)
        check_result(state)
        final = state.to_json()
        assert game.from_json(final).to_json() == final, "the final position does not survive save and load"
        for p in [None, *range(players)]:
            json.dumps(state.view(p))

        # same seed + same actions = same state
        again = game.new_game(players=players, seed=game_seed, variants=variants, **options)
        assert again.to_json() == start
        for p, a in log:
            again.apply(p, a)
        assert again.to_json() == final, "same seed and actions gave another state"

        if "json" in mid:
            restored = game.from_json(mid["json"])
            assert restored.to_json() == mid["json"], "JSON round-trip is not exact"
            for p, a in log[9:]:
                restored.apply(p, a)
            assert restored.to_json() == final, "play continued from JSON ended differently"
            clone = mid["clone"]
            assert clone.to_json() == mid["json"], "a clone changed when the original played on"
            clone_rng = random.Random(seed)
            play_random(clone, clone_rng)
            check_result(clone)
            play_random(mid["det"], random.Random(seed + 1))
            check_result(mid["det"])
