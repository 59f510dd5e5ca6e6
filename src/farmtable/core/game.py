"""The game contract: every farmtable game is a :class:`Game` that makes :class:`State` objects.

One agent, one arena, one server and one RL adapter serve all five games because
each game implements exactly this contract (see DESIGN.md). A game subclasses both
classes and fills in the abstract methods; the shared behaviour that every game must
have the same way (checking whose turn it is, reading notation, refusing bad input
without changing anything, the JSON envelope) lives here once.

Actions are small decisions. An action is any hashable value whose ``str()`` is its
canonical notation (a plain string is fine, or a frozen dataclass with ``__str__``).
"""

from __future__ import annotations

import copy
import functools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from farmtable.core.errors import BadInput, CorruptSave, IllegalAction
from farmtable.core.notation import normalize, shorten
from farmtable.core.result import Result
from farmtable.core.rng import Rng, unpredictable_seed

FORMAT_KEY = "farmtable"
"""Top-level key of every saved game; its value is the game's format version."""

ActionT = TypeVar("ActionT")
StateT = TypeVar("StateT", bound="State[Any]")

_LEGAL_LIST_LIMIT = 12


_memo: tuple[Any, int, Sequence[Any]] | None = None
"""The legal list handed out last: (its state, its player, the actions).

``apply`` accepts an action object *from that very list* (the same object, for the same unchanged
state) without parsing and checking it again: it is legal by construction. The memo is forgotten
whenever a state changes (``_do``, wrapped by :meth:`State.__init_subclass__`), so it never outlives
the position it was computed for. One memo for the process (not one per state) keeps states'
``vars()`` untouched; a miss only means the full check runs. It holds at most one state alive.
"""


def _remembering(legal_actions: Callable[[Any, int], list[Any]]) -> Callable[[Any, int], list[Any]]:
    """Wrap a game's ``legal_actions`` so the list it returns is remembered for :meth:`State.apply`."""

    @functools.wraps(legal_actions)
    def remembered(self: Any, player: int) -> list[Any]:
        global _memo
        legal = legal_actions(self, player)
        _memo = (self, player, tuple(legal))  # a copy: the caller may change the list it gets
        return legal

    return remembered


def _forgetting(do: Callable[[Any, int, Any], None]) -> Callable[[Any, int, Any], None]:
    """Wrap a game's ``_do`` so any change of a state forgets the remembered legal list (after the
    change: ``_do`` may itself ask for legal actions of a position it is still changing)."""

    @functools.wraps(do)
    def forgetting(self: Any, player: int, action: Any) -> None:
        global _memo
        try:
            do(self, player, action)
        finally:
            _memo = None

    return forgetting


def _from_memo(state: Any, player: Any, action: Any) -> bool:
    """True if ``action`` is the very object the last ``legal_actions(player)`` of ``state`` listed."""
    memo = _memo
    if memo is None or memo[0] is not state or memo[1] != player or type(player) is not int:
        return False
    legal = memo[2]
    try:
        return legal[legal.index(action)] is action  # index() finds it by identity first, in C
    except ValueError:
        return False


def as_rng(source: Rng | random.Random | int | None) -> Rng:
    """Turn what a caller passes as randomness (an Rng, a ``random.Random``, a seed) into an Rng."""
    if isinstance(source, Rng):
        return source
    if isinstance(source, random.Random):
        return Rng(source.getrandbits(64))
    return Rng(source)


class State(ABC, Generic[ActionT]):
    """One game in progress: whose decision it is, what they may do, and what everyone sees.

    Subclasses implement the abstract methods. ``apply`` is shared: it checks the player
    is to act, reads notation, asks :meth:`check_action` whether the rules allow the
    action, and only then calls :meth:`_do`, so a refused action never changes anything.
    """

    game: ClassVar[Game[Any]]
    players: int
    _raw_do: Callable[[Any, int, Any], None]
    """The game's own ``_do`` without the forgetting wrapper (``apply``'s fast path forgets itself)."""
    remembers_legal: ClassVar[bool] = False
    """Set True in a class whose own ``legal_actions`` remembers its list itself, saving the wrapper's
    call and copy per decision: it must hand out a fresh list and, before returning it, set
    ``farmtable.core.game._memo = (self, player, actions)`` where ``actions`` holds the same objects in
    the same order and is never changed afterwards (a tuple, or a list the game keeps to itself); the
    class's ``legal_actions`` is then not wrapped by :func:`_remembering`. Only the class that says so
    is exempt: a subclass defining its own ``legal_actions`` is wrapped again unless it says so too."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap each game's own ``legal_actions`` and ``_do`` for the fast path of :meth:`apply`."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if own.get("remembers_legal", False):
            pass  # the class's own legal_actions writes the memo itself (see ``remembers_legal``)
        elif "legal_actions" in own and not hasattr(own["legal_actions"], "__wrapped__"):
            cls.legal_actions = _remembering(own["legal_actions"])  # type: ignore[method-assign,assignment]
        if "_do" in own and not hasattr(own["_do"], "__wrapped__"):
            cls._raw_do = own["_do"]
            cls._do = _forgetting(own["_do"])  # type: ignore[method-assign,assignment]

    # --- the contract -------------------------------------------------------------

    @abstractmethod
    def actors(self) -> list[int]:
        """Players who must decide now (several at once in a simultaneous step); ``[]`` when over."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[ActionT]:
        """Every action ``player`` may take now; empty when ``player`` is not an actor."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended and :meth:`result` is final."""

    @abstractmethod
    def result(self) -> Result:
        """The score sheet and ranking; for an unfinished game, the score as it stands."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """A JSON-able dict of what ``player`` may see (``None``: a spectator)."""

    @abstractmethod
    def determinize(self, player: int, rng: Rng | random.Random | int | None) -> State[ActionT]:
        """A full state consistent with all that ``player`` has seen; unseen parts re-sampled.

        The returned state has its own RNG drawn from ``rng``, so future chance is unknown too.
        """

    @abstractmethod
    def info_epoch(self) -> int:
        """A counter that grows whenever chance or hidden information is revealed.

        A die roll, a card turned face up, a simultaneous step resolving: each moves it on.
        Undo never crosses a change of it (see :mod:`farmtable.core.history`).
        """

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """The complete state, RNG included, as JSON-able data (read back by ``game._from_dict``)."""

    @abstractmethod
    def _do(self, player: int, action: ActionT) -> None:
        """Carry out an action already known to be legal."""

    # --- hooks with sensible defaults ---------------------------------------------------

    def parse_action(self, player: int, text: str) -> ActionT:
        """Read typed notation into one of ``player``'s actions.

        The default matches the text against the notation of the legal actions (case and
        spacing do not matter). Games with richer notation override it; either way a text
        that names no legal action raises :class:`IllegalAction` saying why.
        """
        wanted = normalize(text)
        legal = self.legal_actions(player)
        for action in legal:
            if normalize(str(action)) == wanted:
                return action
        raise IllegalAction(self.explain_illegal(player, text, legal))

    def explain_illegal(self, player: int, text: str, legal: list[ActionT]) -> str:
        """The message for notation that names no legal action; games override it to name the rule."""
        if not text.strip():
            return "empty move: type one of the legal moves"
        shown = ", ".join(str(a) for a in legal[:_LEGAL_LIST_LIMIT])
        more = f" … ({len(legal) - _LEGAL_LIST_LIMIT} more)" if len(legal) > _LEGAL_LIST_LIMIT else ""
        return f"'{shorten(text)}' is not a legal move now; legal moves: {shown}{more}"

    def check_action(self, player: int, action: ActionT) -> None:
        """Raise :class:`IllegalAction` naming the broken rule (:meth:`why_illegal`) unless ``action`` is legal."""
        if action not in self.legal_actions(player):
            raise IllegalAction(self.why_illegal(player, action))

    def why_illegal(self, player: int, action: ActionT) -> str:
        """The rule ``action`` breaks, in player words (called only for an action that is not legal now).

        The default lists the legal moves; games override it to name the rule.
        """
        return self.explain_illegal(player, str(action), self.legal_actions(player))

    def result_totals(self) -> Result:
        """The result without the score sheet: what a search needs of a finished rollout.

        ``totals``, ``ranking`` (every tie-break) and ``objective`` equal :meth:`result`'s; the
        ``breakdown`` may hold empty sheets and ``details`` may be empty. The default is :meth:`result`
        itself; games whose score sheet costs much override it with a cheaper count (issue 16).
        """
        return self.result()

    def heuristic(self, player: int) -> float:
        """How good the position looks for ``player`` (used by the greedy agent; higher is better).

        The default is the score as it stands minus the best opponent's; games override it
        with a better estimate written next to their rules.
        """
        totals = self.result().totals
        if len(totals) == 1:
            return float(totals[0])
        return float(totals[player] - max(t for q, t in enumerate(totals) if q != player))

    def evaluate(self) -> list[float]:
        """Each player's expected final objective from here: what a search judges a position by.

        On the scale of the final result (``Result.totals``; a solo game: ``Result.solo_score``), so
        a position cut short and a finished game can be compared. The default is the result as it
        stands; games override it with an estimate of the rest of the game (``evaluation.py``).
        """
        result = self.result()
        if self.players == 1:
            return [float(result.solo_score)]
        return [float(t) for t in result.totals]

    def render_text(self, player: int | None = None) -> str:
        """The board as text for the terminal, as ``player`` sees it."""
        return json.dumps(self.view(player), indent=2, sort_keys=True)

    def clone(self: StateT) -> StateT:
        """An independent copy: playing on one never changes the other."""
        return copy.deepcopy(self)

    # --- shared behaviour ----------------------------------------------------------------

    def apply(self, player: int, action: ActionT | str) -> None:
        """Let ``player`` take ``action`` (an action object or its notation).

        Raises :class:`IllegalAction` with a readable reason, and then the state is
        exactly as it was, when the game is over, the player is not to act, the notation
        cannot be read, or the rules do not allow the action.

        An action object taken from the list ``legal_actions(player)`` just returned for this
        unchanged state is legal by construction: it goes straight to ``_do``, without being parsed
        or checked again (see ``_memo``). Anything else, equal objects included, is checked in full.
        """
        global _memo
        memo = _memo
        if memo is not None and memo[0] is self and memo[1] == player and type(player) is int:
            legal = memo[2]
            try:
                listed = legal[legal.index(action)] is action  # index() finds it by identity first, in C
            except ValueError:
                listed = False
            if listed:  # the same test as _from_memo, inlined: this is every random or search move
                try:
                    self._raw_do(player, action)
                finally:
                    _memo = None
                return
        if self.is_over():
            raise IllegalAction("the game is over: no more moves")
        actors = self.actors()
        if not isinstance(player, int) or isinstance(player, bool) or player not in actors:
            waiting = ", ".join(f"player {p}" for p in actors)
            raise IllegalAction(f"it is not player {player}'s decision now; waiting for {waiting}")
        parsed = self.parse_action(player, action) if isinstance(action, str) else action
        self.check_action(player, parsed)
        self._do(player, parsed)

    def to_json(self) -> str:
        """The complete state as JSON text: resumes exactly with ``game.from_json``."""
        envelope = {FORMAT_KEY: self.game.format_version, "game": self.game.id, "state": self.to_dict()}
        return json.dumps(envelope, sort_keys=True, separators=(",", ":"))

    def __repr__(self) -> str:
        return f"<{self.game.id} state, players={self.players}, actors={self.actors()}>"


class Game(ABC, Generic[StateT]):
    """A game's metadata and factory: ``new_game``, ``from_json`` and, if it has one, the scoring helper."""

    id: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    variants: ClassVar[Mapping[str, str]] = {}
    format_version: ClassVar[int] = 1
    scoring_helper_format: ClassVar[str | None] = None
    """Documentation of the text format :meth:`score_text` reads (None: no helper)."""

    def new_game(
        self, players: int = 2, seed: int | None = None, variants: Iterable[str] = (), **options: Any
    ) -> StateT:
        """Start a game. The same seed gives the same game; ``seed=None`` draws 128 secret random bits.

        A seed below 2**64 runs the fast reproducible generator (tests, studies); ``None`` or a
        larger seed a keyed one whose deals cannot be recomputed from what players see.

        Raises ``ValueError`` saying why for a player count the game does not take, an
        unknown variant, or a combination of variants and players the rules do not allow.
        """
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} takes {self.min_players}–{self.max_players} players, not {players}")
        chosen = tuple(variants)
        for name in chosen:
            if name not in self.variants:
                known = ", ".join(sorted(self.variants)) or "none"
                raise ValueError(f"{self.title} has no variant '{name}'; its variants: {known}")
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"a variant is named twice: {', '.join(chosen)}")
        self.check_players_and_variants(players, tuple(sorted(chosen)))
        if seed is None:
            seed = unpredictable_seed()
        return self._new(players, int(seed), tuple(sorted(chosen)), options)

    @abstractmethod
    def _new(self, players: int, seed: int, variants: tuple[str, ...], options: dict[str, Any]) -> StateT:
        """Set up a new game (players and variant names already checked to exist)."""

    @abstractmethod
    def _from_dict(self, data: dict[str, Any]) -> StateT:
        """Rebuild a state from ``State.to_dict()`` output; raise on anything inconsistent."""

    def from_json(self, text: str | bytes) -> StateT:
        """Load a state saved by ``to_json``; a damaged or foreign file raises :class:`CorruptSave`."""
        try:
            envelope = json.loads(text)
        except (ValueError, TypeError) as exc:
            raise CorruptSave(f"not a farmtable save: it is not valid JSON ({exc})") from None
        if not isinstance(envelope, dict) or FORMAT_KEY not in envelope or "state" not in envelope:
            raise CorruptSave("not a farmtable save: the 'farmtable' format key or the state is missing")
        if envelope.get("game") != self.id:
            raise CorruptSave(f"this save is a game of '{envelope.get('game')}', not '{self.id}'")
        if envelope[FORMAT_KEY] != self.format_version:
            raise CorruptSave(
                f"save format {envelope[FORMAT_KEY]!r} of {self.id} is not supported "
                f"(this version reads format {self.format_version})"
            )
        data = envelope["state"]
        if not isinstance(data, dict):
            raise CorruptSave("the saved state is not a JSON object")
        try:
            return self._from_dict(data)
        except CorruptSave:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            detail = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise CorruptSave(f"the saved {self.title} game is damaged: {detail}") from None

    def score_text(self, text: str) -> Result:
        """Score an end position typed as text (the scoring helper); see ``scoring_helper_format``.

        Raises :class:`BadInput` naming the line and the problem.
        """
        raise BadInput(f"{self.title} has no scoring helper for typed positions")

    def check_players_and_variants(self, players: int, variants: tuple[str, ...]) -> None:
        """Raise ``ValueError`` if the rules do not allow these variants with this many players."""

    def __repr__(self) -> str:
        return f"<game {self.id}: {self.title}, {self.min_players}-{self.max_players} players>"
