"""The command line's one rich console, made on first use (importing rich costs ~30 ms of start-up).

No typer here: ``farmtable games`` prints through it without loading the command-line library.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from rich.console import Console


@functools.cache
def get_console() -> Console:
    """The one rich console of the command line (made on first use)."""
    from rich.console import Console

    return Console(highlight=False)


class _ConsoleOnDemand:
    """Stands for :func:`get_console` until first used."""

    def __getattr__(self, name: str) -> Any:
        return getattr(get_console(), name)


console = cast("Console", _ConsoleOnDemand())
"""The console, for ``console.print(...)``; pass :func:`get_console` where a real Console is needed."""
