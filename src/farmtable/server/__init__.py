"""The web server: ``farmtable serve`` — tables with friends and AI, drawn as SVG, stored in a database.

>>> from farmtable.server import create_app
>>> app = create_app("sqlite://")  # an in-memory database; a FastAPI app

``create_app`` is imported on first use, so the command line can read the server's limits
(``farmtable.server.limits``) without loading FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from farmtable.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from farmtable.server.app import create_app

        return create_app
    raise AttributeError(f"module 'farmtable.server' has no attribute {name!r}")
