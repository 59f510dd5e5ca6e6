"""The arena: seat rotation, seeds, storage and resume, local processes and Ray giving the same games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from farmtable.arena import ResultStore, lineups, play_job, run_jobs, schedule
from tests.agents import toy

SETUP = "tests.agents.toy:register"


def _jobs(games: int = 6, agents: tuple[str, ...] = ("greedy", "random"), players: int = 2, seed: int = 5):
    return schedule(toy.GAME_ID, list(agents), games, players, seed=seed, setup=SETUP)


def test_lineups_put_every_agent_in_every_seat_equally() -> None:
    for agents, players in ((["a", "b"], 2), (["a", "b", "c"], 3), (["a", "b", "c"], 2), (["a", "b"], 3)):
        seatings = lineups(agents, players)
        for seat in range(players):
            counts = Counter(s[seat] for s in seatings)
            assert set(counts) == set(agents) and len(set(counts.values())) == 1, (agents, players, seatings)


def test_schedule_rotates_seats_over_the_same_deal() -> None:
    jobs = _jobs(games=6)
    assert [j.agents for j in jobs[:2]] == [("greedy", "random"), ("random", "greedy")]
    assert jobs[0].seed == jobs[1].seed != jobs[2].seed
    assert len({j.key for j in jobs}) == 6
    assert [j.key for j in _jobs(games=6)] == [j.key for j in jobs], "the schedule is not reproducible"
    assert _jobs(games=2, seed=6)[0].seed != jobs[0].seed


def test_a_job_plays_the_same_game_every_time() -> None:
    job = _jobs(games=1, agents=("ismcts:iters=10", "greedy"))[0]
    first, second = play_job(job), play_job(job)
    assert first.outcome() == second.outcome()
    assert first.decisions == len(first.actions) > 0
    assert sorted(p for g in first.ranking for p in g) == [0, 1]


def test_local_processes_store_the_same_games_as_one_process(tmp_path: Path) -> None:
    jobs = _jobs(games=8, agents=("ismcts:iters=5", "random"))
    one = run_jobs(jobs, ResultStore(tmp_path / "a.sqlite"), workers=1)
    two = run_jobs(jobs, ResultStore(tmp_path / "b.sqlite"), workers=2)
    assert [r.outcome() for r in one] == [r.outcome() for r in two]
    stored = ResultStore(tmp_path / "b.sqlite").records()
    assert [r.outcome() for r in stored] == [r.outcome() for r in one]


def test_an_interrupted_run_resumes_without_replaying(tmp_path: Path) -> None:
    store = ResultStore(tmp_path / "r.sqlite")
    jobs = _jobs(games=10)
    first = run_jobs(jobs[:4], store)
    seen: list[int] = []
    rest = run_jobs(jobs, store, progress=lambda r: seen.append(r.index))
    assert len(first) == 4 and sorted(seen) == list(range(4, 10)) and len(rest) == 6
    assert run_jobs(jobs, store) == []
    assert len(store.records()) == 10
    assert store.add(first) == 0, "a game stored twice"


def test_bad_backend_and_workers_are_refused() -> None:
    with pytest.raises(ValueError, match="backend"):
        run_jobs(_jobs(games=1), backend="moon")
    with pytest.raises(ValueError, match="workers"):
        run_jobs(_jobs(games=1), workers=0)


def test_ray_backend_gives_the_same_games_as_local(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    jobs = _jobs(games=4, agents=("ismcts:iters=5", "greedy"))
    local = run_jobs(jobs, ResultStore(tmp_path / "local.sqlite"), workers=1)
    ray_records = run_jobs(jobs, ResultStore(tmp_path / "ray.sqlite"), workers=2, backend="ray")
    assert [r.outcome() for r in ray_records] == [r.outcome() for r in local]
