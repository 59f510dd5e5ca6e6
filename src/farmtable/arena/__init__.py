"""Tournaments between agents: scheduling, running (local processes or Ray), storage,
statistics, the solo benchmark, speed benchmarks, hints and the HTML report.

>>> from farmtable.arena import schedule, run_jobs
>>> jobs = schedule("farmers-finances", ["greedy", "random"], games=4, seed=1)  # doctest: +SKIP
>>> records = run_jobs(jobs)                                                       # doctest: +SKIP
"""

from farmtable.arena.hint import Hint, hint
from farmtable.arena.jobs import GameRecord, Job, derive_seed, lineups, play_job, schedule
from farmtable.arena.runner import BACKENDS, run_jobs
from farmtable.arena.store import ResultStore

__all__ = [
    "BACKENDS",
    "GameRecord",
    "Hint",
    "Job",
    "ResultStore",
    "derive_seed",
    "hint",
    "lineups",
    "play_job",
    "run_jobs",
    "schedule",
]
