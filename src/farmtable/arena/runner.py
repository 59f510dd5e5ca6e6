"""Running a tournament's jobs: in this process, on local worker processes, or on Ray.

Every backend plays the same :class:`~farmtable.arena.jobs.Job` values with the same
seeds, so they store identical games (only the timings differ). Results are stored
as each game finishes, so an interrupted run loses at most the games in flight, and
starting it again skips every game already in the database.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from farmtable.arena.jobs import GameRecord, Job, play_job
from farmtable.arena.store import ResultStore

BACKENDS = ("local", "ray")
IN_FLIGHT_PER_WORKER = 4
"""Jobs handed out ahead per worker: enough to keep workers busy, few enough to stop quickly."""

Progress = Callable[[GameRecord], None]


def pending_jobs(jobs: list[Job], store: ResultStore | None) -> list[Job]:
    """The jobs whose games are not in the store yet."""
    if store is None:
        return list(jobs)
    done = store.done_keys(j.key for j in jobs)
    return [j for j in jobs if j.key not in done]


def run_jobs(
    jobs: list[Job],
    store: ResultStore | None = None,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> list[GameRecord]:
    """Play the jobs not yet stored and store each game as it ends; returns the new records.

    ``backend="local"`` uses ``workers`` processes (1: this process); ``backend="ray"``
    runs on the Ray cluster at ``address`` or on a local Ray started with ``workers`` CPUs.
    """
    if backend not in BACKENDS:
        raise ValueError(f"no backend '{backend}'; the backends are: {', '.join(BACKENDS)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    todo = pending_jobs(jobs, store)
    if backend == "ray":
        stream = _run_ray(todo, workers, address)
    elif workers == 1 or len(todo) <= 1:
        stream = (play_job(j) for j in todo)
    else:
        stream = _run_processes(todo, workers)
    records = []
    for record in stream:
        if store is not None:
            store.add([record])
        records.append(record)
        if progress is not None:
            progress(record)
    records.sort(key=lambda r: r.index)
    return records


def _run_processes(jobs: list[Job], workers: int) -> Iterator[GameRecord]:
    queue = list(reversed(jobs))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        running: set[Future[GameRecord]] = set()
        try:
            while queue or running:
                while queue and len(running) < workers * IN_FLIGHT_PER_WORKER:
                    running.add(pool.submit(play_job, queue.pop()))
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
        finally:
            for future in running:
                future.cancel()


def _run_ray(jobs: list[Job], workers: int, address: str | None) -> Iterator[GameRecord]:
    try:
        import ray
    except ImportError:
        raise ValueError("the Ray backend needs Ray: pip install 'farmtable[ray]'") from None
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            kwargs["num_cpus"] = workers
            # local workers find what this process imports (e.g. a game registered by a setup hook)
            path = os.pathsep.join(p for p in sys.path if p)
            kwargs["runtime_env"] = {"env_vars": {"PYTHONPATH": path}}
        ray.init(address=address, **kwargs)
        started = True
    try:
        remote_play = ray.remote(play_job)
        queue = list(reversed(jobs))
        running: list[Any] = []
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        limit = max(1, int(resources.get("CPU", workers))) * IN_FLIGHT_PER_WORKER
        while queue or running:
            while queue and len(running) < limit:
                running.append(remote_play.remote(queue.pop()))
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
