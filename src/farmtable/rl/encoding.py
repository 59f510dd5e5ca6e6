"""Observation encoders: a game's ``view(p)`` (JSON) turned into a fixed-length numeric vector.

Each game declares, next to its action catalogue, a *schema* that mirrors the shape of its
view: which keys are encoded and how (a number, a flag, a one-hot over named values, counts of
named values, a list by seat ...). The encoder walks the view with that schema. So the vector
holds exactly what ``view(p)`` shows — never anything of the hidden state — and the index table
in ``docs/rl.md`` is generated from the same schema (``describe``), so the two cannot drift.

Seat lists are rotated to the observing seat: index ``self`` is the observer, ``+1`` the next
seat clockwise, and so on. A value the schema does not know (a new phase name, a new animal)
raises ``KeyError`` instead of being silently dropped: that keeps the adapter honest as the
games evolve.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

INF = math.inf


@dataclass(frozen=True)
class Ctx:
    """What an encoder needs besides the value: who observes, how many seats there are, and the
    game's variants (some change what a component shows, e.g. Farmini's ``cards-v1`` faces)."""

    viewer: int
    players: int
    variants: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    """One line of the documentation table: indices ``start..stop-1`` mean ``meaning``."""

    start: int
    stop: int
    name: str
    meaning: str


class Enc:
    """An encoder of one JSON value into a fixed number of floats."""

    def size(self, players: int) -> int:
        """How many floats this value takes with ``players`` seats."""
        raise NotImplementedError

    def bounds(self, players: int) -> list[tuple[float, float]]:
        """(low, high) for each float."""
        raise NotImplementedError

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        """Append this value's floats to ``out``."""
        raise NotImplementedError

    def rows(self, name: str, start: int, players: int) -> list[Row]:
        """Documentation rows for this value placed at ``start``."""
        return [Row(start, start + self.size(players), name, self.meaning())]

    def meaning(self) -> str:
        """A short description for the documentation table."""
        raise NotImplementedError


@dataclass(frozen=True)
class Num(Enc):
    """A number (``None`` reads as 0), taken as it is; ``low``/``high`` bound it."""

    low: float = 0.0
    high: float = INF
    doc: str = ""

    def size(self, players: int) -> int:
        return 1

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [(self.low, self.high)]

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        out.append(0.0 if value is None else float(value))

    def meaning(self) -> str:
        hi = "∞" if self.high == INF else f"{self.high:g}"
        return (self.doc + " " if self.doc else "") + f"(number, {self.low:g}..{hi})"


@dataclass(frozen=True)
class Flag(Enc):
    """A boolean as 0/1 (``None`` reads as 0)."""

    doc: str = ""

    def size(self, players: int) -> int:
        return 1

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [(0.0, 1.0)]

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        out.append(1.0 if value else 0.0)

    def meaning(self) -> str:
        return (self.doc + " " if self.doc else "") + "(0/1)"


@dataclass(frozen=True)
class OneHot(Enc):
    """One of ``values`` as a one-hot block; ``None`` gives all zeros."""

    values: tuple[Any, ...]
    doc: str = ""

    def size(self, players: int) -> int:
        return len(self.values)

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [(0.0, 1.0)] * len(self.values)

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        block = [0.0] * len(self.values)
        if value is not None:
            block[self.values.index(value) if value in self.values else _unknown(value, self.values)] = 1.0
        out.extend(block)

    def meaning(self) -> str:
        return (self.doc + ": " if self.doc else "") + "one-hot " + ", ".join(map(str, self.values))


@dataclass(frozen=True)
class Counts(Enc):
    """A list of ``values`` (repeats allowed) as one count per value."""

    values: tuple[Any, ...]
    high: float = INF
    doc: str = ""

    def size(self, players: int) -> int:
        return len(self.values)

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [(0.0, self.high)] * len(self.values)

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        block = [0.0] * len(self.values)
        for item in value or ():
            block[self.values.index(item) if item in self.values else _unknown(item, self.values)] += 1.0
        out.extend(block)

    def meaning(self) -> str:
        return (self.doc + ": " if self.doc else "") + "count of each of " + ", ".join(map(str, self.values))


@dataclass(frozen=True)
class SeatSet(Enc):
    """A list of seat numbers as a 0/1 per seat, relative to the observer."""

    doc: str = ""

    def size(self, players: int) -> int:
        return players

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [(0.0, 1.0)] * players

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        block = [0.0] * ctx.players
        for seat in value or ():
            block[(int(seat) - ctx.viewer) % ctx.players] = 1.0
        out.extend(block)

    def meaning(self) -> str:
        return (self.doc + ": " if self.doc else "") + "0/1 per seat relative to the observer (self, +1, ...)"


@dataclass(frozen=True)
class Seat(SeatSet):
    """A seat number as a one-hot over seats relative to the observer (``self``, ``+1`` ...)."""

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        super().encode([] if value is None else [value], ctx, out)

    def meaning(self) -> str:
        return (self.doc + ": " if self.doc else "") + "one-hot seat relative to the observer (self, +1, ...)"


@dataclass(frozen=True)
class Fields(Enc):
    """A dict: each listed key encoded in order; a missing key (or ``None``) gives zeros."""

    fields: tuple[tuple[str, Enc], ...]

    def size(self, players: int) -> int:
        return sum(enc.size(players) for _, enc in self.fields)

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [b for _, enc in self.fields for b in enc.bounds(players)]

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        for key, enc in self.fields:
            if value is None or key not in value or value[key] is None:
                out.extend([0.0] * enc.size(ctx.players))
            else:
                enc.encode(value[key], ctx, out)

    def rows(self, name: str, start: int, players: int) -> list[Row]:
        rows: list[Row] = []
        for key, enc in self.fields:
            rows.extend(enc.rows(f"{name}.{key}" if name else key, start, players))
            start += enc.size(players)
        return rows

    def meaning(self) -> str:
        return "fields"


@dataclass(frozen=True)
class Items(Enc):
    """A list of at most ``length`` items, each encoded by ``item``; missing items are zeros."""

    item: Enc
    length: int
    labels: tuple[str, ...] = ()

    def size(self, players: int) -> int:
        return self.length * self.item.size(players)

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return self.item.bounds(players) * self.length

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        items = list(value or ())
        if len(items) > self.length:
            raise KeyError(f"a list of {len(items)} items where the schema allows {self.length}")
        for entry in items:
            self.item.encode(entry, ctx, out)
        out.extend([0.0] * ((self.length - len(items)) * self.item.size(ctx.players)))

    def rows(self, name: str, start: int, players: int) -> list[Row]:
        step = self.item.size(players)
        if isinstance(self.item, (Num, Flag, OneHot, Counts)) and step == 1:
            return [Row(start, start + self.length, f"{name}[0..{self.length - 1}]", self.item.meaning())]
        rows: list[Row] = []
        for i in range(self.length):
            label = self.labels[i] if i < len(self.labels) else str(i)
            rows.extend(self.item.rows(f"{name}[{label}]", start + i * step, players))
        return rows

    def meaning(self) -> str:
        return "list"


@dataclass(frozen=True)
class BySeat(Enc):
    """A list indexed by seat, rotated so the observer comes first (``self``, ``+1`` ...)."""

    item: Enc

    def size(self, players: int) -> int:
        return players * self.item.size(players)

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return self.item.bounds(players) * players

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        seats = list(value)
        if len(seats) != ctx.players:
            raise KeyError(f"a seat list of {len(seats)} entries for {ctx.players} players")
        for k in range(ctx.players):
            self.item.encode(seats[(ctx.viewer + k) % ctx.players], ctx, out)

    def rows(self, name: str, start: int, players: int) -> list[Row]:
        step = self.item.size(players)
        rows: list[Row] = []
        for k in range(players):
            label = "self" if k == 0 else f"+{k}"
            rows.extend(self.item.rows(f"{name}[{label}]", start + k * step, players))
        return rows

    def meaning(self) -> str:
        return "by seat"


@dataclass(frozen=True)
class Custom(Enc):
    """A value encoded by a function (for views that speak in sentences); ``width`` floats."""

    width: int
    fn: Callable[[Any, Ctx], Sequence[float] | np.ndarray]
    doc: str
    low: float = 0.0
    high: float = INF
    per_seat: bool = False
    """If True the width is multiplied by the number of players."""

    def size(self, players: int) -> int:
        return self.width * (players if self.per_seat else 1)

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [(self.low, self.high)] * self.size(players)

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        block = self.fn(value, ctx)
        if len(block) != self.size(ctx.players):
            raise KeyError(f"custom encoder gave {len(block)} floats, not {self.size(ctx.players)}")
        if isinstance(block, np.ndarray):
            if isinstance(out, _Out):
                out.add_array(block)
            else:
                out.extend(block.tolist())
        else:
            out.extend(block)

    def meaning(self) -> str:
        return self.doc


@dataclass(frozen=True)
class Grid(Enc):
    """A rectangular grid (rows of cells) of named values, one-hot per cell, row-major."""

    rows_: int
    cols: int
    values: tuple[Any, ...]
    doc: str = ""

    def size(self, players: int) -> int:
        return self.rows_ * self.cols * len(self.values)

    def bounds(self, players: int) -> list[tuple[float, float]]:
        return [(0.0, 1.0)] * self.size(players)

    def encode(self, value: Any, ctx: Ctx, out: list[float]) -> None:
        k = len(self.values)
        block = [0.0] * (self.rows_ * self.cols * k)
        for r, line in enumerate(value):
            for col, cell in enumerate(line):
                idx = self.values.index(cell) if cell in self.values else _unknown(cell, self.values)
                block[(r * self.cols + col) * k + idx] = 1.0
        out.extend(block)

    def meaning(self) -> str:
        return (
            (self.doc + ": " if self.doc else "")
            + f"{self.rows_}×{self.cols} cells row-major, each one-hot over "
            + ", ".join(map(str, self.values))
        )


def _unknown(value: Any, values: Sequence[Any]) -> int:
    raise KeyError(f"value {value!r} is not in the encoding schema ({', '.join(map(str, values))})")


class _Out(list[float]):
    """The floats of an observation, plus large numpy blocks kept as arrays (a Custom encoder may
    return one: converting tens of thousands of Python floats is what made big boards slow)."""

    def __init__(self) -> None:
        super().__init__()
        self.arrays: list[tuple[int, np.ndarray]] = []

    def add_array(self, block: np.ndarray) -> None:
        self.arrays.append((len(self), block))

    def result(self) -> np.ndarray:
        if not self.arrays:
            return np.asarray(self, dtype=np.float32)
        parts: list[np.ndarray] = []
        start = 0
        for at, block in self.arrays:
            parts.append(np.asarray(self[start:at], dtype=np.float32))
            parts.append(block.astype(np.float32, copy=False))
            start = at
        parts.append(np.asarray(self[start:], dtype=np.float32))
        return np.concatenate(parts)


class Encoder:
    """A schema bound to a player count: ``encode(view, viewer)`` gives the fixed-length vector."""

    def __init__(self, schema: Fields, players: int) -> None:
        self.schema = schema
        self.players = players
        self.size = schema.size(players)
        self.bounds = schema.bounds(players)

    def encode(self, view: Mapping[str, Any], viewer: int) -> np.ndarray:
        """The float32 observation vector of ``view`` (which must be ``state.view(viewer)``)."""
        out = _Out()
        self.schema.encode(view, Ctx(viewer, self.players, tuple(view.get("variants") or ())), out)
        return out.result()

    def rows(self) -> list[Row]:
        """The documentation table: index ranges and their meaning."""
        return self.schema.rows("", 0, self.players)
