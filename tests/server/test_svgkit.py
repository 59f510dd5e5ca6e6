"""``core.svgkit``'s escaping returns exactly what ``xml.sax.saxutils`` returns, for any text."""

from __future__ import annotations

from xml.sax.saxutils import escape as sax_escape
from xml.sax.saxutils import quoteattr as sax_quoteattr

import pytest
from hypothesis import given
from hypothesis import strategies as st

from farmtable.core.svgkit import escape, quoteattr

SPECIAL = st.text(alphabet=st.sampled_from(list("ab &<>\"'\n\r\t—é;#")), max_size=20)


@pytest.mark.parametrize(
    "text",
    ["", "plain", "a & b", "<b>", "x > y", 'say "hi"', "it's", "both ' and \"", "line\nbreak\ttab\r", "&amp;"],
)
def test_known_cases(text: str) -> None:
    assert escape(text) == sax_escape(text)
    assert quoteattr(text) == sax_quoteattr(text)


@given(st.one_of(st.text(max_size=40), SPECIAL))
def test_the_same_as_saxutils_for_any_text(text: str) -> None:
    assert escape(text) == sax_escape(text)
    assert quoteattr(text) == sax_quoteattr(text)


def test_not_a_string_is_refused() -> None:
    with pytest.raises(TypeError):
        escape(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        quoteattr(None)  # type: ignore[arg-type]
