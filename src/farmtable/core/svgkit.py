"""Small helpers the games' SVG renderers share, written for speed: the board picture is drawn for every
seat after every decision a server pushes, and escaping was a quarter of the renderers' CPU.

:func:`escape` and :func:`quoteattr` return exactly what ``xml.sax.saxutils.escape`` and ``quoteattr``
return (without their ``entities`` argument, which no renderer passes), so a picture keeps its bytes; they
only skip the work when, as for nearly every label and attribute value, there is nothing to escape.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr as _sax_quoteattr

__all__ = ["escape", "quoteattr"]


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` escaped for XML character data (as ``saxutils.escape``)."""
    if "&" in text or "<" in text or ">" in text:
        return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
    return text


def quoteattr(text: str) -> str:
    """``text`` escaped and quoted as an XML attribute value, quotes included (as ``saxutils.quoteattr``:
    double quotes, or single quotes when the value holds a double quote and no single one)."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "\n" in text or "\r" in text or "\t" in text:
        return _sax_quoteattr(text)
    return f'"{text}"'
