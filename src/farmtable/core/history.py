"""Undo for people: a log of decisions with the state before each.

The policy, the same in the terminal and the browser (Board Game Arena's): a player
may take back their own most recent decisions, one at a time, as long as no one else
has decided since and nothing was revealed by it (no die roll, no card turned, no
simultaneous step resolved: the state's ``info_epoch`` did not move).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from farmtable.core.errors import IllegalAction
from farmtable.core.game import State


@dataclass(frozen=True)
class Decision:
    """One accepted decision: who, what (notation), and the state just before it."""

    player: int
    notation: str
    before: str
    epoch_before: int


class History:
    """A game played by people: apply decisions, take back the last ones when the policy allows."""

    def __init__(self, state: State[Any]) -> None:
        self.state = state
        """The game as it stands. It changes through :meth:`apply` and :meth:`undo`, or by putting another
        state object here; never change this object in place otherwise (:meth:`state_json` remembers it)."""
        self.decisions: list[Decision] = []
        self._saved: tuple[State[Any], str] | None = None
        """The state object :meth:`state_json` last wrote out, and its text."""

    def state_json(self) -> str:
        """``state.to_json()`` of the state as it stands, written out once per position: the server stores
        it after a decision, and the next decision's ``before`` is the same text (not written out again)."""
        saved = self._saved
        if saved is not None and saved[0] is self.state:
            return saved[1]
        text = self.state.to_json()
        self._saved = (self.state, text)
        return text

    def apply(self, player: int, action: Any) -> str:
        """Apply an action (object or notation) for ``player``; returns its canonical notation."""
        before = self.state_json()
        epoch = self.state.info_epoch()
        if isinstance(action, str):
            action = self.state.parse_action(player, action) if player in self.state.actors() else action
        self._saved = None  # the state changes in place
        self.state.apply(player, action)
        notation = str(action)
        self.decisions.append(Decision(player, notation, before, epoch))
        return notation

    def why_no_undo(self, player: int) -> str | None:
        """Why ``player`` may not undo now, or None when they may."""
        if not self.decisions:
            return "nothing to undo"
        last = self.decisions[-1]
        if last.player != player:
            return f"the last decision was player {last.player}'s: you can only undo your own"
        if self.state.info_epoch() != last.epoch_before:
            return "that decision revealed something (a roll, a card or others' choices): it stands"
        return None

    def undo(self, player: int) -> str:
        """Take back ``player``'s last decision; returns its notation. Raises IllegalAction if not allowed."""
        reason = self.why_no_undo(player)
        if reason:
            raise IllegalAction(f"cannot undo: {reason}")
        last = self.decisions.pop()
        self.state = self.state.game.from_json(last.before)
        return last.notation
