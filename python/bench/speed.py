"""Pieces played per second: tetrad through `gymnasium.make` with one environment
(under `simplified`, whose placements are Tetris Gymnasium's grouped actions: a turn and a
column, then a hard drop; and under `classic`, whose slides add placements), tetrad's
batch of games on one thread and on one a core, and Tetris Gymnasium through
`gymnasium.make` twice: every step a hard drop (its cheapest piece, one step a piece), and
with its placement wrapper (`GroupedActionsObservations`); the placement environments place
pieces at random among the legal placements with the same cheap choice (a uniform number
drawn ahead, scaled to the mask's `nonzero()`), so the environments' costs are compared
and not the chooser's. Not part of CI.

    python3 python/bench/speed.py [--seconds 5] [--batch 1024]

Tetris Gymnasium is measured if it is installed (`pip install tetris-gymnasium`).
"""

import argparse
import time

import gymnasium
import numpy as np

import tetrad  # noqa: F401  (registers the environments)


def single(seconds, preset):
    """tetrad/Placements-v0 through gymnasium.make, one piece per step."""
    env = gymnasium.make("tetrad/Placements-v0", preset=preset)
    draws = np.random.default_rng(0).random(1 << 16)
    obs, _ = env.reset(seed=0)
    pieces, games, start = 0, 0, time.perf_counter()
    while True:
        for _ in range(1000):
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = env.step(int(legal[int(draws[pieces & 0xFFFF] * len(legal))]))
            pieces += 1
            if terminated or truncated:
                games += 1
                obs, _ = env.reset(seed=games)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return pieces / elapsed


def batch(seconds, n, preset="classic", threads=None, **rules):
    """BatchGames: one placement in each of n games per call, on `threads` threads (by
    default one a core)."""
    games = tetrad.BatchGames(n, preset, threads=threads, **rules)
    rng = np.random.default_rng(0)
    _, _, masks = games.reset(0)
    steps, start = 0, time.perf_counter()
    while True:
        for _ in range(20):
            # A random legal slot per game: the largest of uniform noise on the mask.
            actions = np.argmax(masks * rng.random(masks.shape, dtype=np.float32), axis=1).astype(np.int64)
            _, _, masks, *_ = games.step(actions)
            steps += n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def tetris_gymnasium(seconds):
    """Tetris Gymnasium's Tetris with its placement wrapper, through gymnasium.make."""
    from tetris_gymnasium.envs.tetris import Tetris  # noqa: F401  (registers it)
    from tetris_gymnasium.wrappers.grouped import GroupedActionsObservations

    env = GroupedActionsObservations(gymnasium.make("tetris_gymnasium/Tetris"))
    draws = np.random.default_rng(0).random(1 << 16)
    _, info = env.reset(seed=0)
    pieces, start = 0, time.perf_counter()
    while True:
        for _ in range(200):
            legal = np.asarray(info["action_mask"]).nonzero()[0]
            _, _, terminated, truncated, info = env.step(int(legal[int(draws[pieces & 0xFFFF] * len(legal))]))
            pieces += 1
            if terminated or truncated:
                _, info = env.reset()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return pieces / elapsed


def tetris_gymnasium_hard_drops(seconds):
    """Tetris Gymnasium's cheapest piece: its Tetris through gymnasium.make, every step a
    hard drop (one step a piece), resets included."""
    from tetris_gymnasium.envs.tetris import Tetris  # noqa: F401  (registers it)

    env = gymnasium.make("tetris_gymnasium/Tetris")
    hard_drop = env.unwrapped.actions.hard_drop
    env.reset(seed=0)
    pieces, start = 0, time.perf_counter()
    while True:
        for _ in range(200):
            _, _, terminated, truncated, _ = env.step(hard_drop)
            pieces += 1
            if terminated or truncated:
                env.reset()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return pieces / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args()
    rows = [("tetrad, gymnasium.make, 1 env (%s)" % preset, single(args.seconds, preset)) for preset in ("simplified", "classic")]
    cores = tetrad.BatchGames(args.batch, "simplified").threads
    for preset in ("classic", "simplified"):
        for threads in sorted({1, cores}):
            name = "tetrad, BatchGames x %d (%s, %d thread%s)" % (args.batch, preset, threads, "s"[: threads - 1])
            rows.append((name, batch(args.seconds, args.batch, preset, threads)))
    try:
        rows.append(("Tetris Gymnasium, gymnasium.make, hard drops", tetris_gymnasium_hard_drops(args.seconds)))
        rows.append(("Tetris Gymnasium, gymnasium.make, grouped", tetris_gymnasium(args.seconds)))
    except ImportError:
        print("(Tetris Gymnasium not installed: pip install tetris-gymnasium)")
    for name, rate in rows:
        print("%-50s %12.0f pieces/s" % (name, rate))


if __name__ == "__main__":
    main()
