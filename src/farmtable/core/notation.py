"""Helpers for the text notation every action has."""

from __future__ import annotations

import re

_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Canonical comparison form of typed notation: trimmed, single spaces, lower case."""
    return _SPACES.sub(" ", text.strip()).lower()


def shorten(text: str, limit: int = 60) -> str:
    """Return ``text`` cut to ``limit`` characters for an error message, printable only."""
    clean = "".join(ch if ch.isprintable() else "?" for ch in text)
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"
