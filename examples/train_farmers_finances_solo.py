"""Learn Farmers Finances solo (reach 70 coins in as few turns as you can) with masked REINFORCE.

Only what the ``rl`` extra installs is needed (numpy, gymnasium) plus matplotlib for the plot:

    .venv/bin/python examples/train_farmers_finances_solo.py            # ~2 minutes on one CPU core
    .venv/bin/python examples/train_farmers_finances_solo.py --episodes 300 --out /tmp/curve.png

The policy is linear-softmax over the masked catalogue actions of ``farmtable/FarmersFinances-solo-v0``
(reward ``dense``: −1 per turn, so an episode's return is minus the turns it took). It trains with
REINFORCE and a running-mean baseline, then compares its greedy play with uniformly random legal play
on 200 held-out seeds. The learning curve (turns per episode, moving average) goes to a PNG.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import farmtable.rl.gymnasium  # noqa: F401  (registers the environments)

ENV_ID = "farmtable/FarmersFinances-solo-v0"
SCALE_UNBOUNDED = 100.0
"""Divisor for features without a finite upper bound (money, the turn number)."""
EVAL_SEEDS = range(10_000, 10_200)


def features(obs: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """The observation scaled to about [0, 1], with a bias term."""
    return np.append(obs / scale, 1.0)


def policy(theta: np.ndarray, phi: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Action probabilities: softmax of ``theta @ phi`` over the legal actions only."""
    logits = theta @ phi
    logits = np.where(mask.astype(bool), logits, -np.inf)
    logits -= logits.max()
    p = np.exp(logits)
    return p / p.sum()


def run_episode(
    env: gym.Env, theta: np.ndarray | None, scale: np.ndarray, rng: np.random.Generator, seed: int, greedy: bool
) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """Play one episode; ``theta=None`` plays uniformly random legal moves. Returns (return, trajectory)."""
    obs, info = env.reset(seed=seed)
    total, trajectory, done = 0.0, [], False
    while not done:
        mask = info["action_mask"]
        if theta is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            phi = features(obs, scale)
            p = policy(theta, phi, mask)
            action = int(np.argmax(p)) if greedy else int(rng.choice(len(p), p=p))
            trajectory.append((phi, mask, action))
        obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        done = terminated or truncated
    return total, trajectory


def train(episodes: int, lr: float, seed: int) -> tuple[np.ndarray, list[float], np.ndarray]:
    """REINFORCE with a running-mean baseline; returns (theta, turns per episode, scale)."""
    env = gym.make(ENV_ID, reward="dense")
    space = env.observation_space
    scale = np.where(np.isfinite(space.high) & (space.high > 0), space.high, SCALE_UNBOUNDED).astype(np.float64)
    rng = np.random.default_rng(seed)
    theta = np.zeros((env.action_space.n, space.shape[0] + 1))
    baseline, turns = None, []
    for episode in range(episodes):
        ret, trajectory = run_episode(env, theta, scale, rng, seed=episode, greedy=False)
        turns.append(-ret)
        baseline = ret if baseline is None else 0.95 * baseline + 0.05 * ret
        advantage = ret - baseline
        # every step's return-to-go differs from the episode return by a constant (-1 per step):
        # the baseline-corrected episode return is a valid (if noisier) advantage for every step
        grad = np.zeros_like(theta)
        for phi, mask, action in trajectory:
            p = policy(theta, phi, mask)
            grad -= np.outer(p, phi)
            grad[action] += phi
        theta += lr * advantage * grad / max(1, len(trajectory))
    return theta, turns, scale


def evaluate(theta: np.ndarray | None, scale: np.ndarray) -> float:
    """Mean turns to reach 70 on the held-out seeds (greedy policy, or random legal play)."""
    env = gym.make(ENV_ID, reward="dense")
    rng = np.random.default_rng(0)
    return float(np.mean([-run_episode(env, theta, scale, rng, seed=s, greedy=True)[0] for s in EVAL_SEEDS]))


def plot(turns: list[float], random_turns: float, learned_turns: float, out: Path) -> None:
    """Save the learning curve."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    window = 50
    smooth = np.convolve(turns, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(turns, color="0.8", linewidth=0.6, label="turns per training episode")
    ax.plot(range(window - 1, len(turns)), smooth, color="C0", label=f"moving average ({window})")
    ax.axhline(random_turns, color="C3", linestyle="--", label=f"random legal play: {random_turns:.1f}")
    ax.axhline(learned_turns, color="C2", linestyle="--", label=f"learned, greedy: {learned_turns:.1f}")
    ax.set_xlabel("training episode")
    ax.set_ylabel("turns to reach 70 coins (lower is better)")
    ax.set_title("Farmers Finances solo: masked REINFORCE, linear policy")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def main() -> None:
    """Train, evaluate, plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("farmers_finances_solo_curve.png"))
    args = parser.parse_args()
    start = time.perf_counter()
    theta, turns, scale = train(args.episodes, args.lr, args.seed)
    trained = time.perf_counter() - start
    random_turns = evaluate(None, scale)
    learned_turns = evaluate(theta, scale)
    print(f"trained {args.episodes} episodes in {trained:.0f}s")
    print(
        f"mean turns to 70 on {len(EVAL_SEEDS)} held-out seeds: random {random_turns:.2f}, learned {learned_turns:.2f}"
    )
    plot(turns, random_turns, learned_turns, args.out)
    print(f"learning curve: {args.out}")


if __name__ == "__main__":
    main()
