"""The named AI levels reach every place a person picks an opponent."""

from __future__ import annotations

import pytest

import farmtable.agents
from farmtable.agents.levels import DEFAULT_LEVEL, HINT_LEVEL, LEVELS
from farmtable.cli.play import DEFAULT_OPPONENT, parse_seats


@pytest.mark.parametrize("name", [*LEVELS, "Expert", " HARD "])
def test_make_takes_a_level_name(name: str) -> None:
    agent = farmtable.agents.make(name, seed=1)
    assert agent.spec == farmtable.agents.make(LEVELS[name.strip().lower()].spec).spec


def test_an_unknown_name_lists_the_agents() -> None:
    with pytest.raises(ValueError, match="no agent 'grandmaster'"):
        farmtable.agents.make("grandmaster")


def test_the_terminal_default_is_the_default_level() -> None:
    assert DEFAULT_OPPONENT == DEFAULT_LEVEL
    assert parse_seats(2, []) == {0: "human", 1: DEFAULT_LEVEL}
    assert parse_seats(3, ["2=expert"])[2] == "expert"
    assert HINT_LEVEL in LEVELS
