"""The web server: ``farmtable serve`` — tables with friends and AI, drawn as SVG, stored in a database.

>>> from farmtable.server import create_app
>>> app = create_app("sqlite://")  # an in-memory database; a FastAPI app
"""

from farmtable.server.app import create_app

__all__ = ["create_app"]
