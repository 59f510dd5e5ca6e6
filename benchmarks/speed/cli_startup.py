"""CLI start-up (issue 16, target 4): CPU seconds of ``farmtable --help`` and ``farmtable games``.

    nice -n 10 .venv/bin/python benchmarks/speed/cli_startup.py --rounds 15

Side by side in one run, alternating: ``python -c pass`` (the interpreter alone), ``import farmtable``,
and both commands with this checkout's ``src`` and with the base snapshot's (``--base``; see
``common.py``). Each command is a fresh process; its user+system CPU comes from ``RUSAGE_CHILDREN``.
Bytecode is written to a private cache first (``PYTHONPYCACHEPREFIX``), as an installed package has it:
this sandbox sets ``PYTHONDONTWRITEBYTECODE``, which would time the compiler instead.
Target: both commands <= 0.15 s CPU.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import tempfile
from pathlib import Path

from common import DEFAULT_BASE, HERE_SRC, ensure_base, fmt, median_ci, python, ratio_ci


def cpu_of(cmd: list[str], env: dict[str, str]) -> float:
    """User+system CPU seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--base", type=Path, default=DEFAULT_BASE)
    args = parser.parse_args()
    base = ensure_base(args.base)
    cache = tempfile.mkdtemp(prefix="farmtable-pyc-")
    envs = {}
    for label, src in (("this", HERE_SRC), ("base", base)):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = str(src)
        env["PYTHONPYCACHEPREFIX"] = f"{cache}/{label}"
        env["COLUMNS"] = "120"
        envs[label] = env
    py = python()
    # the installed console script (pip writes one like it): its name is what users type and what
    # the usage line says, so the kept-help fast path applies to it (not to `python -m farmtable`)
    script = Path(cache) / "farmtable"
    script.write_text("import sys\nfrom farmtable.cli import main\nsys.exit(main())\n")
    cases = {
        "python -c pass": ([py, "-c", "pass"], "this"),
        "import farmtable": ([py, "-c", "import farmtable"], "this"),
        "import typer (the CLI library alone)": ([py, "-c", "import typer"], "this"),
        "base: farmtable --help": ([py, str(script), "--help"], "base"),
        "this: farmtable --help": ([py, str(script), "--help"], "this"),
        "base: farmtable games": ([py, str(script), "games"], "base"),
        "this: farmtable games": ([py, str(script), "games"], "this"),
    }
    for cmd, label in cases.values():  # warm the bytecode caches
        cpu_of(cmd, envs[label])
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, (cmd, label) in cases.items():
            times[name].append(cpu_of(cmd, envs[label]))
    print(f"CPU seconds per process, median [~95% CI] over {args.rounds} alternating rounds\n")
    print("| command | CPU s | × python -c pass |")
    print("|---|---:|---:|")
    for name in cases:
        pairs = list(zip(times[name], times["python -c pass"], strict=True))
        print(f"| {name} | {fmt(median_ci(times[name]), '.3f')} | {fmt(ratio_ci(pairs), '.1f')} |")
    for cmd in ("--help", "games"):
        pairs = list(zip(times[f"base: farmtable {cmd}"], times[f"this: farmtable {cmd}"], strict=True))
        print(f"\nfarmtable {cmd}: base / this = {fmt(ratio_ci(pairs), '.2f')} (paired by round)")


if __name__ == "__main__":
    main()
