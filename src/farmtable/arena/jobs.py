"""One arena game as a job: who sits where, which seeds, and playing it to the end.

A tournament is a list of :class:`Job` values built by :func:`schedule`. A job holds
everything that decides its game (game, players, variants, seed, agent specs per seat
and their seeds), so it plays the same on any process or machine, and its
:attr:`Job.key` identifies it in the database when a run resumes.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import farmtable
import farmtable.agents

STEP_CAP = 100_000
"""A game that has not ended after this many decisions is a bug in the game: the job fails."""


def derive_seed(base: int, *parts: object) -> int:
    """A 48-bit seed derived from ``base`` and ``parts``, the same on every machine and process."""
    text = ":".join(str(p) for p in (base, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=6).digest(), "little")


@dataclass(frozen=True)
class Job:
    """One game to play: everything that decides how it goes."""

    game: str
    players: int
    variants: tuple[str, ...]
    seed: int
    agents: tuple[str, ...]
    """Agent spec per seat."""
    agent_seeds: tuple[int, ...]
    index: int = 0
    """Position in its tournament (deal = index // lineups; seat rotation = index % lineups)."""
    options: tuple[tuple[str, Any], ...] = ()
    setup: str | None = None
    """``module:function`` to call in the worker before playing (to register a game defined outside farmtable)."""

    @property
    def key(self) -> str:
        """A stable identifier of what this job plays (same key = same game, move for move)."""
        data = [
            self.game,
            self.players,
            list(self.variants),
            self.seed,
            list(self.agents),
            list(self.agent_seeds),
            [list(o) for o in self.options],
        ]
        return hashlib.blake2b(json.dumps(data).encode(), digest_size=12).hexdigest()


@dataclass
class GameRecord:
    """What an arena game came to: the job, the moves as notation, the result."""

    key: str
    game: str
    players: int
    variants: list[str]
    seed: int
    index: int
    agents: list[str]
    agent_seeds: list[int]
    actions: list[list[Any]]
    """``[player, notation]`` per decision, in order."""
    totals: list[int]
    ranking: list[list[int]]
    details: dict[str, Any] = field(default_factory=dict)
    decisions: int = 0
    seconds: float = 0.0
    """Wall time of the game (not part of the outcome: it differs between runs)."""

    def outcome(self) -> dict[str, Any]:
        """Everything but the timing: equal for two runs of the same job."""
        data = asdict(self)
        data.pop("seconds")
        return data


def lineups(agents: list[str], players: int) -> list[tuple[str, ...]]:
    """The seatings a tournament rotates through, so every agent sits in every seat equally.

    With as many agents as seats: every cyclic rotation. With more agents than seats: every
    ordered choice of distinct agents. With fewer: the agents repeated cyclically, rotated.
    """
    if not agents:
        raise ValueError("name at least one agent")
    m = len(agents)
    if m == players:
        return [tuple(agents[(r + s) % m] for s in range(players)) for r in range(m)]
    if m > players:
        return list(itertools.permutations(agents, players))
    return [tuple(agents[(r + s) % m] for s in range(players)) for r in range(m)]


def schedule(
    game: str,
    agents: list[str],
    games: int,
    players: int = 2,
    variants: tuple[str, ...] = (),
    seed: int = 0,
    options: dict[str, Any] | None = None,
    setup: str | None = None,
) -> list[Job]:
    """The jobs of a tournament: ``games`` games, seat-rotated, each deal played in every rotation.

    Game ``i`` uses deal ``i // L`` and seating ``i % L`` (``L`` seatings, see :func:`lineups`),
    so consecutive games replay the same deal with the seats rotated; a multiple of ``L``
    games is exactly seat-balanced.
    """
    seats = lineups(agents, players)
    chosen = tuple(sorted(variants))
    opts = tuple(sorted((options or {}).items()))
    jobs = []
    for i in range(games):
        deal, rotation = divmod(i, len(seats))
        game_seed = derive_seed(seed, game, players, chosen, "deal", deal)
        agent_seeds = tuple(derive_seed(seed, "agent", i, s) for s in range(players))
        jobs.append(Job(game, players, chosen, game_seed, seats[rotation], agent_seeds, i, opts, setup))
    return jobs


def run_setup(setup: str | None) -> None:
    """Call a job's ``module:function`` setup hook (once per process is enough; it may repeat)."""
    if setup:
        module, _, func = setup.partition(":")
        getattr(importlib.import_module(module), func)()


def play_job(job: Job) -> GameRecord:
    """Play one job to the end (the actor listed first decides first) and record it."""
    run_setup(job.setup)
    start = time.perf_counter()
    state = farmtable.get_game(job.game).new_game(
        players=job.players, seed=job.seed, variants=job.variants, **dict(job.options)
    )
    agents = [
        farmtable.agents.make(spec, seed=s, game=job.game, players=job.players)
        for spec, s in zip(job.agents, job.agent_seeds, strict=True)
    ]
    log: list[list[Any]] = []
    while not state.is_over():
        player = state.actors()[0]
        action = agents[player].act(state, player)
        state.apply(player, action)
        log.append([player, str(action)])
        if len(log) >= STEP_CAP:
            raise RuntimeError(f"{job.game} game seed {job.seed} has not ended after {STEP_CAP} decisions")
    result = state.result()
    return GameRecord(
        key=job.key,
        game=job.game,
        players=job.players,
        variants=list(job.variants),
        seed=job.seed,
        index=job.index,
        agents=list(job.agents),
        agent_seeds=list(job.agent_seeds),
        actions=log,
        totals=list(result.totals),
        ranking=[list(g) for g in result.ranking],
        details=json.loads(json.dumps(result.details, default=str)),
        decisions=len(log),
        seconds=time.perf_counter() - start,
    )
