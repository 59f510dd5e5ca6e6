"""A prototype of the search core with best-child backup inside the known part of a turn (Tiny Farms solo).

Not a level and not registered by default: a benchmark registers it with
``benchmarks/ai/compare.py --call tiny_farms_mcts.register=mcts-turnmax`` (with ``benchmarks/fit``
on ``PYTHONPATH``), so that a paired run can measure the change this branch asks of
``agents/mcts.py`` (not this branch's file) before the lead makes it.

The change: ``mcts`` backs up the *mean* reward of every try below a node. In a Tiny Farms solo round
nothing is random between the player's decisions (``milk +1``, then ``die 4 red``, then
``put pig R-B2`` ...: the dice are rolled, Emma's reply is fixed by her rules), so a node's mean
mixes its best continuation with the worse ones the search tried on the way, and moves followed by
more decisions (spending milk before a die; a die with more placements) look worse than they are.
Here a node reached with no chance event since the root is worth its best visited child
(recursively; expectimax's max node), and the mean is kept below the first chance event (a new
round's roll: the worlds sampled there differ, so their children are not comparable). A chance
event is a change of ``State.info_epoch()`` across a move.
"""

from __future__ import annotations

import math
from typing import Any

from farmtable.agents.base import register_agent
from farmtable.agents.mcts import UNRATED, MctsAgent, Node, RewardScale
from farmtable.core import State


class TurnNode(Node):
    """A node that also knows whether a chance event lies between the root and it, and its backed-up value."""

    __slots__ = ("after_chance", "best")

    def __init__(self, mover: int, after_chance: bool = False) -> None:
        super().__init__(mover)
        self.after_chance = after_chance
        self.best = 0.0


class TurnMaxMcts(MctsAgent):
    """``mcts`` with best-child backup at nodes before the first chance event (see the module docstring)."""

    name = "mcts-turnmax"

    def _reused_root(self, world: State[Any], player: int) -> tuple[Node, RewardScale]:
        root, scale = super()._reused_root(world, player)
        if not isinstance(root, TurnNode):
            fresh = TurnNode(-1)
            return fresh, scale
        return root, scale

    def _iterate(self, root: Node, world: State[Any], player: int, scale: RewardScale) -> None:
        path: list[Node] = [root]
        node = root
        rewards: list[float] | None = None
        crossed = False
        while True:
            if world.is_over():
                rewards = scale.of_result(world.result_totals())
                break
            actors = world.actors()
            mover = player if node is root and player in actors else min(actors)
            legal = world.legal_actions(mover)
            keys = [str(a) for a in legal]
            cache: dict[str, list[float]] = {}
            priors = self._priors(node, world, mover, legal, keys, scale, cache)
            order = list(range(len(keys)))
            order.sort(key=lambda i: -priors.get(keys[i], UNRATED))
            if self.widen > 0:
                order = order[: max(1, math.ceil(self.widen * (node.visits + 1) ** self.alpha))]
            children = node.children
            untried = -1
            for i in order:
                child = children.get(keys[i])
                if child is None:
                    if untried < 0:
                        untried = i
                    continue
                child.avail += 1
            if untried >= 0:
                key = keys[untried]
                epoch = world.info_epoch()
                world._do(mover, legal[untried])
                fresh = TurnNode(mover, crossed or world.info_epoch() != epoch)
                children[key] = fresh
                path.append(fresh)
                if self.depth == 0 and key in cache:
                    rewards = cache[key]
                    break
                self._rollout(world, scale)
                rewards = scale.of_state(world)
                break
            best_i = -1
            best_score = -math.inf
            for i in order:
                child = children[keys[i]]
                explore = self.c * math.sqrt(math.log(child.avail) / child.visits)
                value = child.best if isinstance(child, TurnNode) else child.total / child.visits
                score = value + explore
                prior = priors.get(keys[i])
                if prior is not None and self.bias:
                    score += self.bias * prior / (child.visits + 1)
                if score > best_score:
                    best_score, best_i = score, i
            world._do(mover, legal[best_i])
            node = children[keys[best_i]]
            crossed = crossed or (isinstance(node, TurnNode) and node.after_chance)
            path.append(node)
        for n in reversed(path):
            n.visits += 1
            if n.mover >= 0:
                n.total += rewards[n.mover]
            if isinstance(n, TurnNode):
                seen = [ch for ch in n.children.values() if ch.visits and isinstance(ch, TurnNode)]
                if n.after_chance or not seen:
                    n.best = n.total / n.visits if n.visits else 0.0
                else:
                    n.best = max(ch.best for ch in seen)


def register(name: str = "mcts-turnmax") -> None:
    """Make :class:`TurnMaxMcts` available to ``farmtable.agents.make`` as ``name`` (``compare.py --call``)."""
    register_agent(name or "mcts-turnmax", TurnMaxMcts)
