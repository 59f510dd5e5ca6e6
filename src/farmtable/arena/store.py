"""Arena results in SQLite (through SQLAlchemy): one row per finished game.

A row keeps everything needed to replay and to judge the game: the seed, the game and
its variants, the agent spec and seed per seat, every action as notation, the totals,
the ranking and the game's extra details. Rows are keyed by :attr:`Job.key`, so a run
that is interrupted and started again skips the games already stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, Float, Integer, String, create_engine, select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from farmtable.arena.jobs import GameRecord


class _Base(DeclarativeBase):
    pass


class GameRow(_Base):
    """One finished arena game."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    players: Mapped[int] = mapped_column(Integer)
    variants: Mapped[list[str]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer)
    game_index: Mapped[int] = mapped_column(Integer)
    agents: Mapped[list[str]] = mapped_column(JSON)
    agent_seeds: Mapped[list[int]] = mapped_column(JSON)
    actions: Mapped[list[list[Any]]] = mapped_column(JSON)
    totals: Mapped[list[int]] = mapped_column(JSON)
    ranking: Mapped[list[list[int]]] = mapped_column(JSON)
    details: Mapped[dict[str, Any]] = mapped_column(JSON)
    decisions: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)

    def record(self) -> GameRecord:
        """The row as a :class:`GameRecord`."""
        return GameRecord(
            key=self.key,
            game=self.game,
            players=self.players,
            variants=list(self.variants),
            seed=self.seed,
            index=self.game_index,
            agents=list(self.agents),
            agent_seeds=list(self.agent_seeds),
            actions=[list(a) for a in self.actions],
            totals=list(self.totals),
            ranking=[list(g) for g in self.ranking],
            details=dict(self.details),
            decisions=self.decisions,
            seconds=self.seconds,
        )


class ResultStore:
    """An SQLite file of arena games (created on first use)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(f"sqlite:///{self.path}")
        _Base.metadata.create_all(self.engine)

    def done_keys(self, keys: Iterable[str] | None = None) -> set[str]:
        """The keys already stored (of ``keys``, if given)."""
        with Session(self.engine) as session:
            stored = set(session.scalars(select(GameRow.key)))
        return stored if keys is None else stored & set(keys)

    def add(self, records: Iterable[GameRecord]) -> int:
        """Store finished games (a key already present is skipped); returns how many were added."""
        records = list(records)
        if not records:
            return 0
        present = self.done_keys(r.key for r in records)
        added = 0
        with Session(self.engine) as session, session.begin():
            for r in records:
                if r.key in present:
                    continue
                present.add(r.key)
                session.add(
                    GameRow(
                        key=r.key,
                        game=r.game,
                        players=r.players,
                        variants=list(r.variants),
                        seed=r.seed,
                        game_index=r.index,
                        agents=list(r.agents),
                        agent_seeds=list(r.agent_seeds),
                        actions=r.actions,
                        totals=list(r.totals),
                        ranking=r.ranking,
                        details=r.details,
                        decisions=r.decisions,
                        seconds=r.seconds,
                    )
                )
                added += 1
        return added

    def records(self, game: str | None = None, keys: Iterable[str] | None = None) -> list[GameRecord]:
        """Stored games (of one game id, or with the given keys), in game-index order."""
        query = select(GameRow).order_by(GameRow.game, GameRow.players, GameRow.game_index, GameRow.id)
        if game is not None:
            query = query.where(GameRow.game == game)
        wanted = None if keys is None else set(keys)
        with Session(self.engine) as session:
            rows = [row.record() for row in session.scalars(query)]
        return rows if wanted is None else [r for r in rows if r.key in wanted]

    def close(self) -> None:
        """Release the database file."""
        self.engine.dispose()
