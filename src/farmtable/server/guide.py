"""Pages that teach the games: rules, the symbol key and the tutorial (one router, kept apart
from the table API so it can grow without touching it)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
"""Routes of the teaching pages; ``create_app`` includes it."""
