"""A solo Tiny Towns policy that follows a committed build script (issue 13, fourth session).

The whole-town planner (:mod:`planner`) finds rich target towns, but an agent that values
positions by the target town scatters cubes over many patterns and sits on complete ones.
This policy commits instead to a *script*: the target town's buildings in a build order, each
with one concrete pattern placement (which square needs which resource). Then every empty
square has a *next need*: the resource wanted there by the earliest unbuilt step that covers
it. The policy

- picks the face-up card and square whose cube is the next need of its square, preferring the
  step that is closest to complete (finish one pattern, then the next);
- builds a step as soon as its pattern is complete and no earlier unbuilt step still needs one
  of its squares;
- when no face-up card is needed anywhere, drops the cube where it harms least (a square no
  step needs, else the square of the latest step) and re-plans around it.

It is a plain policy (``act(state) -> Action``), measured on its own by
``benchmarks/ai/tt_policy.py``; any decision it does not know (abilities' pending choices) goes to
the greedy agent.
"""

from __future__ import annotations

import random
from functools import cache
from typing import NamedTuple

from farmtable.agents.greedy import greedy_choice
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns import planner
from farmtable.games.tiny_towns.rules import (
    BUILD,
    BUILD_PHASE,
    DONE_ACTION,
    KEEP_PHASE,
    NAME,
    NAME_PHASE,
    PLACE,
    PLACE_PHASE,
    Action,
    TinyTownsState,
)

RESOURCES = C.RESOURCES
SHIFT = planner.SHIFT
LOW = (1 << SHIFT) - 1
PLAN_WEIGHT = 10.0
CLOG = 1.0
"""Cost of each face-up card left that no step can use next."""
REPLAN_PASSES = 2
DUMP = 1.5
"""Plan search: points for each square no step needs (up to :data:`DUMP_SQUARES`): a cube no step
can use goes there without spoiling the script."""
DUMP_SQUARES = 2
RESCUE = 20
FALLBACK = 20.0
"""Give the script up for the greedy agent (linear evaluation) once its planned worth is less than
the linear estimate of the town plus this many points (0: never)."""
BALANCE = 6.0
"""Plan search: points per cube a resource is used below an equal share of the script's cubes."""
BALANCE_BOTH = 1
"""1: :data:`BALANCE` also counts a resource used above its share (half the absolute deviation)."""
OPEN_STEPS = 3
"""Cubes go to the first this many steps of the script; a cube elsewhere waits and costs :data:`EARLY`."""
EARLY = 0.5
SLACK = 1.0
"""Cost of leaving no spare empty square beyond what the nearest step needs."""
STUCK = 20.0
"""Points lost when no step can be finished in the empty squares left (the town fills up)."""
"""When every cube choice spoils the script, this many of the least bad are re-planned before choosing."""
"""Points of planned score that one unit of progress is worth less than (planned score first)."""


class Step(NamedTuple):
    """One building of the script: what, where it stands, and the cube each pattern square needs."""

    kind: str
    target: int
    mask: int
    """The pattern's squares."""
    needs: tuple[tuple[int, str], ...]
    """(square, resource) for every pattern square."""


@cache
def _decode(mask: int, packed: int) -> tuple[tuple[int, str], ...]:
    out = []
    for i, r in enumerate(RESOURCES):
        bits = (packed >> (SHIFT * i)) & LOW
        sq = 0
        while bits:
            if bits & 1:
                out.append((sq, r))
            bits >>= 1
            sq += 1
    return tuple(sorted(out))


def script_for(plan: planner.Plan, board: list[str], setting: planner.Setting) -> list[Step]:
    """The plan's buildings not yet standing, in build order, each with a concrete placement.

    A step's placement avoids every building standing when it is built (the town's buildings and
    the targets of earlier steps); a square not claimed by an earlier step must be empty or hold
    the cube it needs. Among those, the placement using most cubes already right and sharing
    fewest squares with earlier steps is taken. A planned building with no such placement is dropped.
    """
    patterns = dict(zip(setting.kinds, setting.patterns, strict=True))
    standing = 0
    for sq, v in enumerate(board):
        if v and v not in RESOURCES:
            standing |= 1 << sq
    todo = sorted(
        (plan.order[sq], sq, kind)
        for sq, kind in enumerate(plan.grid)
        if kind and not (standing >> sq & 1) and kind in patterns
    )
    steps: list[Step] = []
    claimed = 0  # squares used by earlier steps (their cubes will be spent)
    for _, target, kind in todo:
        best: tuple[float, Step] | None = None
        for mask, packed, _size in planner._covering_of(kind, patterns[kind])[target]:
            if mask & standing:
                continue
            needs = _decode(mask, packed)
            ok = True
            right = 0
            for sq, r in needs:
                if claimed >> sq & 1:
                    continue
                v = board[sq]
                if v:
                    if v != r:
                        ok = False
                        break
                    right += 1
            if not ok:
                continue
            score = 2.0 * right - (mask & claimed).bit_count()
            if best is None or score > best[0]:
                best = (score, Step(kind, target, mask, needs))
        if best is None:
            continue
        steps.append(best[1])
        claimed |= best[1].mask
        standing |= 1 << target
    return steps


class SoloPolicy:
    """Plays solo Tiny Towns by a committed script (see the module text). One instance per game."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.plan: planner.Plan | None = None
        self.setting: planner.Setting | None = None
        self.steps: list[Step] = []
        self.fallen = False
        """True once the script is given up for the rest of the game (see :data:`FALLBACK`)."""
        self.planned = 0.0
        """The worth of the script when it was last planned (a loss since then calls for a re-plan)."""
        self._scores: dict[tuple[str, ...], float] = {}

    # --- the script ------------------------------------------------------------------------

    def _replan(self, state: TinyTownsState) -> None:
        """A plan for the town as it stands: the cached plan for its buildings, then hill-climbed with its cubes."""
        from farmtable.games.tiny_towns.evaluation import plan_setting

        board = list(state.towns[0].grid)
        fixed = tuple(v if v in C.ALL_CARDS else "" for v in board)
        self.setting = plan_setting(state, 0)
        start = self.plan if self.plan is not None else planner.plan_for(fixed, self.setting)
        self.plan, self.steps, _ = self._climb(start, board)
        self.planned = self.worth(board, self.steps)

    def _climb(self, start: planner.Plan, board: list[str]) -> tuple[planner.Plan, list[Step], float]:
        """Hill-climb the target town ``start`` for ``board`` (its cubes included): plan, script, value."""
        setting = self.setting
        assert setting is not None
        fixed = tuple(v if v in C.ALL_CARDS else "" for v in board)
        grid = list(start.grid)
        options = planner._options(fixed, setting)
        for sq in range(C.SQUARES):
            if fixed[sq]:
                grid[sq] = fixed[sq]
            elif grid[sq] not in options[sq]:
                grid[sq] = ""
        best, best_plan, best_steps = self._judge(grid, fixed, board)
        for _ in range(REPLAN_PASSES):
            improved = False
            for sq in range(C.SQUARES):
                kinds = options[sq]
                if len(kinds) <= 1:
                    continue
                current = grid[sq]
                for kind in kinds:
                    if kind == current or (kind and kind == setting.monument and setting.monument in grid):
                        continue
                    grid[sq] = kind
                    value, plan, steps = self._judge(grid, fixed, board)
                    if value > best + 1e-9:
                        best, best_plan, best_steps, current, improved = value, plan, steps, kind, True
                grid[sq] = current
            if not improved:
                break
        return best_plan, best_steps, best

    def _judge(
        self, grid: list[str], fixed: tuple[str, ...], board: list[str]
    ) -> tuple[float, planner.Plan, list[Step]]:
        """A candidate target town's value with these cubes: the score of the steps its script keeps."""
        assert self.setting is not None
        real, order = planner.buildable(grid, fixed, self.setting)
        plan = planner.Plan(tuple(real), 0.0, 0.0, order)
        steps = script_for(plan, board, self.setting)
        covered = 0
        for step in steps:
            covered |= step.mask
        free = sum(1 for sq, v in enumerate(board) if not (covered >> sq & 1) and (not v or v in RESOURCES))
        value = self.value(board, steps) + PLAN_WEIGHT * DUMP * min(free, DUMP_SQUARES)
        if BALANCE:  # a resource the script hardly uses piles up face up and is forced on the town
            uses = dict.fromkeys(RESOURCES, 0)
            for step in steps:
                for sq, r in step.needs:
                    if board[sq] != r:
                        uses[r] += 1
            fair = sum(uses.values()) / len(RESOURCES)
            if BALANCE_BOTH:  # a resource used above its share is waited for while the others pile up
                value -= PLAN_WEIGHT * BALANCE * sum(abs(fair - n) for n in uses.values()) / 2
            else:
                value -= PLAN_WEIGHT * BALANCE * sum(max(0.0, fair - n) for n in uses.values())
        return value, plan, steps

    def worth(self, board: list[str], steps: list[Step]) -> float:
        """The final score of the town once every step of ``steps`` stands on ``board``."""
        grid = [v if v and v not in RESOURCES else "" for v in board]
        for step in steps:
            grid[step.target] = step.kind
        key = tuple(grid)
        value = self._scores.get(key)
        if value is None:
            assert self.setting is not None
            value = self._scores[key] = planner.plan_score(key, self.setting)
        return value

    def value(self, board: list[str], steps: list[Step]) -> float:
        """How good ``board`` is under its script ``steps``: the planned score, then progress.

        Progress counts each step by 1 / (1 + cubes missing)^2, so finishing the nearest pattern
        beats starting another; a step that must wait for an earlier one counts half.
        """
        progress = 0.0
        shortest = C.SQUARES + 1  # cubes missing of the nearest step no earlier step waits on
        open_mask = 0
        for i, step in enumerate(steps[:OPEN_STEPS]):
            open_mask |= step.mask
            missing = sum(1 for sq, r in step.needs if board[sq] != r)
            waits = any(steps[j].mask & step.mask for j in range(i))
            if not waits:
                shortest = min(shortest, missing)
            progress += (0.5 if waits else 1.0) / (1.0 + missing) ** 2
        progress -= EARLY * sum(1 for sq, v in enumerate(board) if v in RESOURCES and not open_mask >> sq & 1)
        value = PLAN_WEIGHT * self.worth(board, steps) + progress
        room = board.count("")
        if steps and shortest > room:  # no step can be finished in the room left
            value -= PLAN_WEIGHT * STUCK
        elif steps and shortest == room:  # one more cube nobody needs would fill the town
            value -= SLACK
        return value

    def choose_cube(self, board: list[str], offered: list[str]) -> tuple[str, int, list[Step], planner.Plan | None]:
        """The resource (one of ``offered``) and empty square for the next cube, the script after it, and a
        new plan if every choice spoiled the old one."""
        assert self.plan is not None and self.setting is not None
        best: tuple[float, str, int, list[Step]] | None = None
        rescued: planner.Plan | None = None
        planned = self.worth(board, self.steps)
        losing: list[tuple[float, str, int, list[Step]]] = []
        for sq, v in enumerate(board):
            if v:
                continue
            for r in dict.fromkeys(offered):
                board[sq] = r
                steps = script_for(self.plan, board, self.setting)
                value = self.value(board, steps)
                if len(offered) > 1:  # the cards left face up: one no square needs next clogs the choice
                    wanted = {need for step in steps for q, need in step.needs if not board[q]}
                    left = list(offered)
                    left.remove(r)
                    value -= CLOG * sum(1 for c in left if c not in wanted)
                board[sq] = ""
                if self.worth(board, steps) < planned - 0.5:
                    losing.append((value, r, sq, steps))
                elif best is None or value > best[0]:
                    best = (value, r, sq, steps)
        if best is None:  # every choice spoils the script: re-plan the least bad few, keep the best
            losing.sort(key=lambda x: -x[0])
            for _, r, sq, _steps in losing[:RESCUE]:
                board[sq] = r
                plan, steps, value = self._climb(self.plan, board)
                board[sq] = ""
                if best is None or value > best[0]:
                    best = (value, r, sq, steps)
                    rescued = plan
        assert best is not None
        return best[1], best[2], best[3], rescued

    def ready_build(self, state: TinyTownsState) -> Action | None:
        """The legal build of a complete step that no earlier step waits on, if any."""
        board = state.towns[0].grid
        legal = state.legal_actions(0)
        steps = self.steps
        for i, step in enumerate(steps):
            if any(board[sq] != r for sq, r in step.needs):
                continue
            if any(steps[j].mask & step.mask for j in range(i)):
                continue
            for action in legal:
                if (
                    action.verb == BUILD
                    and action.what == step.kind
                    and action.target == step.target
                    and sum(1 << sq for sq in action.squares) == step.mask
                ):
                    return action
        return None

    # --- acting ----------------------------------------------------------------------------

    def act(self, state: TinyTownsState) -> Action:
        """The policy's action for the solo player in ``state`` (any legal state of a solo game)."""
        legal = state.legal_actions(0)
        if len(legal) == 1:
            return legal[0]
        town = state.towns[0]
        board = list(town.grid)
        if state.phase == KEEP_PHASE:
            return self._keep(state, legal)
        if state.phase == NAME_PHASE and not self.fallen and self.plan is not None and FALLBACK:
            from farmtable.games.tiny_towns.evaluation import estimate

            assert self.setting is not None
            steps = script_for(self.plan, board, self.setting)
            self.fallen = self.worth(board, steps) < estimate(state, 0) + FALLBACK
        if self.fallen:
            world = state.determinize(0, random.Random(self.rng.getrandbits(64)))
            return legal[greedy_choice(world, 0, self.rng)]
        if state.phase in (NAME_PHASE, PLACE_PHASE):
            if self.plan is not None:
                assert self.setting is not None
                self.steps = script_for(self.plan, board, self.setting)
            if self.plan is None or not self.steps or self.worth(board, self.steps) < self.planned - 0.5:
                self._replan(state)
        if state.phase == NAME_PHASE:
            offered = [a.what for a in legal if a.verb == NAME]
            r, _sq, _steps, _plan = self.choose_cube(board, offered)
            return Action(NAME, r)
        if state.phase == PLACE_PHASE and all(a.verb == PLACE for a in legal):
            r, sq, self.steps, rescued = self.choose_cube(board, [state.named])
            if rescued is not None:
                self.plan = rescued
                board[sq] = r
                self.planned = self.worth(board, self.steps)
            return next((a for a in legal if a.target == sq and a.what == r), legal[0])
        if state.phase == BUILD_PHASE and not town.pending:
            build = self.ready_build(state)
            if build is not None:
                return build
            return DONE_ACTION if DONE_ACTION in legal else legal[-1]
        world = state.determinize(0, random.Random(self.rng.getrandbits(64)))
        return legal[greedy_choice(world, 0, self.rng)]

    def _keep(self, state: TinyTownsState, legal: list[Action]) -> Action:
        """Keep the monument whose plan for the empty town is worth more."""
        best: tuple[float, Action] | None = None
        for action in legal:
            trial = state.clone()
            trial.apply(0, action)
            from farmtable.games.tiny_towns.evaluation import plan_setting

            setting = plan_setting(trial, 0)
            plan = planner.plan_for(("",) * C.SQUARES, setting)
            if best is None or plan.score > best[0]:
                best = (plan.score, action)
        assert best is not None
        return best[1]


# --- the script as an evaluation (so the greedy agent follows it) ------------------------------

OFF_PLAN = 5.0
"""What a build the script did not plan costs, on the final-score scale (the script never builds one)."""
BUILT = 0.3
"""Each building standing, on the final-score scale: a planned build beats sitting on its complete pattern."""
REPLAN_IN_EVAL = True
"""Re-plan inside :func:`script_estimate` when the script lost worth (at the start of a round only)."""

_MEMORY: dict[planner.Setting, SoloPolicy] = {}
_LAYOUTS: dict[tuple[planner.Setting, tuple[str, ...]], tuple[planner.Plan, float] | None] = {}


def clear_memory() -> None:
    """Forget every committed script (between experiments)."""
    _MEMORY.clear()
    _LAYOUTS.clear()


def _layout(board: list[str]) -> tuple[str, ...]:
    return tuple(v if v in C.ALL_CARDS else "" for v in board)


def _entry(
    policy: SoloPolicy, setting: planner.Setting, board: list[str], fresh: bool = False
) -> tuple[planner.Plan, float] | None:
    """The committed plan of the town's buildings (and its worth when planned); None for a town
    reached by a build the script did not plan. ``fresh``: plan this town afresh (it really stands so)."""
    layout = _layout(board)
    key = (setting, layout)
    if key in _LAYOUTS and not fresh:
        return _LAYOUTS[key]
    entry: tuple[planner.Plan, float] | None = None
    found_parent = False
    for sq, v in enumerate(layout):
        if not v or fresh:
            continue
        parent_key = (setting, (*layout[:sq], "", *layout[sq + 1 :]))
        if parent_key not in _LAYOUTS:
            continue
        parent = _LAYOUTS[parent_key]
        found_parent = True
        if parent is not None and parent[0].grid[sq] == v:
            entry = parent
            break
    if not found_parent:  # the first town of a game (or one reached by an ability): plan afresh
        plan, steps, _ = policy._climb(planner.plan_for(layout, setting), board)
        entry = (plan, policy.worth(board, steps))
    if len(_LAYOUTS) >= planner.CACHE_LIMIT:
        _LAYOUTS.clear()
    _LAYOUTS[key] = entry
    return entry


def script_estimate(state: TinyTownsState, board: list[str]) -> float:
    """The solo town ``board`` judged by the committed script, on about the final-score scale.

    The planned town's score, plus a little for progress on the next steps (finishing first)
    and for each building standing; a town reached by a build the script did not plan is worth
    its parent's script less :data:`OFF_PLAN` (about: the parent is not known here, so the
    planned worth of the parent's script is used).
    """
    from farmtable.games.tiny_towns.evaluation import plan_setting

    setting = plan_setting(state, 0)
    policy = _MEMORY.get(setting)
    if policy is None:
        policy = _MEMORY[setting] = SoloPolicy(0)
        policy.setting = setting
    entry = _entry(policy, setting, board)
    buildings = sum(1 for v in board if v and v not in RESOURCES)
    if entry is None:
        if not (REPLAN_IN_EVAL and state.phase == NAME_PHASE):
            return -OFF_PLAN * C.SQUARES + BUILT * buildings
        entry = _entry(policy, setting, board, fresh=True)  # it really stands so: plan afresh
        assert entry is not None
    plan, planned = entry
    steps = script_for(plan, board, setting)
    if REPLAN_IN_EVAL and state.phase == NAME_PHASE and policy.worth(board, steps) < planned - 0.5:
        plan, steps, _ = policy._climb(plan, board)
        planned = policy.worth(board, steps)
        _LAYOUTS[(setting, _layout(board))] = (plan, planned)
    return policy.value(board, steps) / PLAN_WEIGHT + BUILT * buildings
