"""``Farm._compute_regions`` floods numbered quarters (issue 16); its regions, pens and gaps must equal
the tuple-based flood fill it replaced, on every farm random play builds, under both gap readings."""

from __future__ import annotations

import random
from collections.abc import Iterator

import farmtable
from farmtable.games.farmini.farm import DELTA, MIRROR, NO_ARMS, SIDE_COUNT, Arms, Cell, Farm, Pos, Region
from tests.games.farmini.builders import farm
from tests.games.farmini.test_geometry import RING_AROUND_A_GAP


def reference_regions(self: Farm, gaps_enclose: bool | None = None) -> Iterator[Region]:
    """The flood fill as it was before issue 16 (tuples of cells), kept here as the reference.

    Gap reading (``gaps_enclose``): a missing card inside the farm's bounding box is an empty
    card without fences; the flood passes through it, and the region is open only if it
    reaches past the bounding box. The missing cards it passes are the region's ``gaps``.
    """
    cards = self.cards
    if (self.gaps_enclose if gaps_enclose is None else gaps_enclose) and cards:
        xs = [x for x, _ in cards]
        ys = [y for _, y in cards]
        box = (min(xs), max(xs), min(ys), max(ys))
    else:
        box = None
    seen: set[Cell] = set()
    for x0, y0 in sorted(cards):
        for q0 in range(SIDE_COUNT):
            if (x0, y0, q0) in seen:
                continue
            seen.add((x0, y0, q0))
            stack = [(x0, y0, q0)]
            cells: list[Cell] = []
            gaps: set[Pos] = set()
            closed = True
            while stack:
                x, y, q = stack.pop()
                card = cards.get((x, y))
                if card is None:
                    gaps.add((x, y))
                    arms: Arms = NO_ARMS
                else:
                    cells.append((x, y, q))
                    arms = card.arms
                # inside the card: quarter q meets q+1 across arm q+1 and q-1 across arm q
                nxt = (q + 1) % SIDE_COUNT
                if not arms[nxt] and (x, y, nxt) not in seen:
                    seen.add((x, y, nxt))
                    stack.append((x, y, nxt))
                prv = (q - 1) % SIDE_COUNT
                if not arms[q] and (x, y, prv) not in seen:
                    seen.add((x, y, prv))
                    stack.append((x, y, prv))
                # across the two card sides this quarter touches
                for side in (q, nxt):
                    dx, dy = DELTA[side]
                    npos = (x + dx, y + dy)
                    if npos not in cards and (
                        box is None or not (box[0] <= npos[0] <= box[1] and box[2] <= npos[1] <= box[3])
                    ):
                        closed = False  # this quarter faces the open field: not enclosed
                        continue
                    cell = (npos[0], npos[1], MIRROR[side][q])
                    if cell not in seen:
                        seen.add(cell)
                        stack.append(cell)
            if cells:
                yield Region(tuple(sorted(cells)), closed, tuple(sorted(gaps)) if closed else ())


def test_regions_equal_the_reference_flood_fill() -> None:
    game = farmtable.get_game("farmini")
    compared = closed = 0
    for seed in range(20):
        state = game.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            player = state.actors()[0]
            legal = state.legal_actions(player)
            state.apply(player, legal[rng.randrange(len(legal))])
            for one in state.farms:
                for enclose in (True, False):
                    got = tuple(one._compute_regions(gaps_enclose=enclose))
                    assert got == tuple(reference_regions(one, gaps_enclose=enclose))
                    compared += 1
                    closed += sum(r.closed for r in got)
    assert compared > 1000
    assert closed > 50


def test_a_ring_around_a_gap_gives_the_same_pen_and_gap() -> None:
    ring = farm(RING_AROUND_A_GAP)
    for enclose in (True, False):
        got = tuple(ring._compute_regions(gaps_enclose=enclose))
        assert got == tuple(reference_regions(ring, gaps_enclose=enclose))
    assert any(r.closed and r.gaps == ((1, 1),) for r in ring.regions())
