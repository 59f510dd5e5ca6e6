"""docs/rl.md is generated from the catalogues and schemas: it must match the code."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed")

from pathlib import Path

from farmtable.rl.docs import render

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_rl_page_is_up_to_date() -> None:
    """Regenerate with ``python -m farmtable.rl.docs > docs/rl.md`` when this fails."""
    assert DOC.read_text(encoding="utf-8") == render()
