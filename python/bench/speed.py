"""Pieces played per CPU-second (and per wall-second): tetrad through `gymnasium.make`
with one environment under `classic` (the default preset) and `simplified`, tetrad's
batch of games on one thread, and Tetris Gymnasium through `gymnasium.make` in the same
run: every step a hard drop (its cheapest piece, one step a piece), and with its
placement wrapper (`GroupedActionsObservations`). Each side runs `--rounds` times, the
sides alternating within a round, so that a load that comes and goes weighs on all of
them; each figure is the median of its rounds, and a ratio the median of its rounds'
ratios.

The placement environments place pieces at random among the legal placements with the
same cheap chooser (a uniform number drawn ahead, scaled to the mask's `nonzero()`), so
environments are compared and not choosers. A single environment is timed twice: with
the chooser, and "replayed", the same actions recorded beforehand and given, as Tetris
Gymnasium's hard drops are (its environment's cost alone, the chooser's left out). For
the batch, the CPU time of `step` alone is given too. Not part of CI.

    python3 python/bench/speed.py [--seconds 3] [--rounds 3] [--batch 1024] [--only TEXT ...]

Tetris Gymnasium is measured if it is installed (`pip install tetris-gymnasium`).
"""

import argparse
import functools
import os
import statistics
import time

# One thread: neither side multiplies matrices, and BLAS's pool, started with numpy, would
# charge its threads' spinning to whichever side runs at the time.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

import tetrad  # noqa: E402,F401  (registers the environments)


def timed(seconds, run_some):
    """Calls `run_some()` (which returns the pieces it played) until `seconds` of CPU
    time have passed; returns (pieces, CPU-seconds, wall-seconds)."""
    pieces, cpu0, wall0 = 0, time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        pieces += run_some()
    return pieces, time.process_time() - cpu0, time.perf_counter() - wall0


def single(seconds, preset):
    """tetrad/Placements-v0 through gymnasium.make, one piece per step, each placement
    chosen at random among the legal ones."""
    env = gymnasium.make("tetrad/Placements-v0", preset=preset)
    draws = np.random.default_rng(0).random(1 << 16).tolist()
    state = {"obs": env.reset(seed=0)[0], "pieces": 0, "games": 0}

    def run_some():
        obs, pieces = state["obs"], state["pieces"]
        for _ in range(1000):
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = env.step(legal.item(int(draws[pieces & 0xFFFF] * len(legal))))
            pieces += 1
            if terminated or truncated:
                state["games"] += 1
                obs, _ = env.reset(seed=state["games"])
        state["obs"], state["pieces"] = obs, pieces
        return 1000

    return timed(seconds, run_some)


@functools.lru_cache
def recorded(preset, pieces=1 << 16):
    """The actions `single` chooses over its first games (about `pieces` pieces, whole
    games), each with whether it ended its game."""
    env = gymnasium.make("tetrad/Placements-v0", preset=preset)
    draws = np.random.default_rng(0).random(1 << 16).tolist()
    obs, plan, games = env.reset(seed=0)[0], [], 0
    while len(plan) < pieces or not plan[-1][1]:
        legal = obs["action_mask"].nonzero()[0]
        action = legal.item(int(draws[len(plan) & 0xFFFF] * len(legal)))
        obs, _, terminated, truncated, _ = env.step(action)
        plan.append((action, terminated or truncated))
        if terminated or truncated:
            games += 1
            obs, _ = env.reset(seed=games)
    return plan


def replayed(seconds, preset):
    """As `single`, the actions given: those `single` chose, recorded beforehand and
    replayed game for game (so the environment's cost is timed as Tetris Gymnasium's
    hard drops time its own: with no choosing)."""
    plan = recorded(preset)
    env = gymnasium.make("tetrad/Placements-v0", preset=preset)
    env.reset(seed=0)
    state = {"next": 0, "game": 0}

    def run_some():
        step, next_, game = env.step, state["next"], state["game"]
        for _ in range(1000):
            action, ended = plan[next_]
            step(action)
            next_ += 1
            if ended:
                next_, game = (0, 0) if next_ == len(plan) else (next_, game + 1)
                env.reset(seed=game)
        state["next"], state["game"] = next_, game
        return 1000

    return timed(seconds, run_some)


def batch(seconds, n, preset, in_step=None):
    """BatchGames: one placement in each of n games per call, on one thread. The CPU time
    spent in `step` alone (without the chooser) is added to `in_step[0]`."""
    games = tetrad.BatchGames(n, preset, threads=1)
    rng = np.random.default_rng(0)
    masks = [games.reset(0)[2]]
    in_step = in_step if in_step is not None else [0.0]

    def run_some():
        for _ in range(10):
            # A random legal slot per game: the largest of uniform noise on the mask.
            actions = np.argmax(masks[0] * rng.random(masks[0].shape, dtype=np.float32), axis=1).astype(np.int64)
            before = time.process_time()
            masks[0] = games.step(actions)[2]
            in_step[0] += time.process_time() - before
        return 10 * n

    return timed(seconds, run_some)


def batch_step(seconds, n, preset):
    """As `batch`, the CPU time counted in `step` alone: (pieces, step's CPU-seconds,
    wall-seconds)."""
    in_step = [0.0]
    pieces, _, wall = batch(seconds, n, preset, in_step)
    return pieces, in_step[0], wall


def tetris_gymnasium_hard_drops(seconds):
    """Tetris Gymnasium's cheapest piece: its Tetris through gymnasium.make, every step a
    hard drop (one step a piece), resets included."""
    from tetris_gymnasium.envs.tetris import Tetris  # noqa: F401  (registers it)

    env = gymnasium.make("tetris_gymnasium/Tetris")
    hard_drop = env.unwrapped.actions.hard_drop
    env.reset(seed=0)

    def run_some():
        for _ in range(100):
            _, _, terminated, truncated, _ = env.step(hard_drop)
            if terminated or truncated:
                env.reset()
        return 100

    return timed(seconds, run_some)


def tetris_gymnasium_grouped(seconds):
    """Tetris Gymnasium's Tetris with its placement wrapper, through gymnasium.make."""
    from tetris_gymnasium.envs.tetris import Tetris  # noqa: F401  (registers it)
    from tetris_gymnasium.wrappers.grouped import GroupedActionsObservations

    env = GroupedActionsObservations(gymnasium.make("tetris_gymnasium/Tetris"))
    draws = np.random.default_rng(0).random(1 << 16).tolist()
    state = {"info": env.reset(seed=0)[1], "pieces": 0}

    def run_some():
        info, pieces = state["info"], state["pieces"]
        for _ in range(10):
            legal = np.asarray(info["action_mask"]).nonzero()[0]
            _, _, terminated, truncated, info = env.step(legal.item(int(draws[pieces & 0xFFFF] * len(legal))))
            pieces += 1
            if terminated or truncated:
                _, info = env.reset()
        state["info"], state["pieces"] = info, pieces
        return 10

    return timed(seconds, run_some)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU-seconds per side and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument(
        "--only",
        metavar="TEXT",
        action="append",
        help="run only the sides whose name contains TEXT (repeated: any of them)",
    )
    args = parser.parse_args()
    sides = {
        "tetrad, gymnasium.make, 1 env (classic)": lambda: single(args.seconds, "classic"),
        "tetrad, gymnasium.make, 1 env (simplified)": lambda: single(args.seconds, "simplified"),
        "tetrad, gymnasium.make, 1 env (classic), replayed": lambda: replayed(args.seconds, "classic"),
        "tetrad, gymnasium.make, 1 env (simplified), replayed": lambda: replayed(args.seconds, "simplified"),
        "tetrad, BatchGames x %d (classic, 1 thread)" % args.batch: lambda: batch(args.seconds, args.batch, "classic"),
        "tetrad, BatchGames x %d (simplified, 1 thread)" % args.batch: lambda: batch(
            args.seconds, args.batch, "simplified"
        ),
        "tetrad, BatchGames.step alone x %d (classic)" % args.batch: lambda: batch_step(args.seconds, args.batch, "classic"),
        "tetrad, BatchGames.step alone x %d (simplified)" % args.batch: lambda: batch_step(
            args.seconds, args.batch, "simplified"
        ),
    }
    try:
        import tetris_gymnasium  # noqa: F401

        sides["Tetris Gymnasium, gymnasium.make, hard drops"] = lambda: tetris_gymnasium_hard_drops(args.seconds)
        sides["Tetris Gymnasium, gymnasium.make, grouped"] = lambda: tetris_gymnasium_grouped(args.seconds)
    except ImportError:
        print("(Tetris Gymnasium not installed: pip install tetris-gymnasium)")
    if args.only:
        sides = {name: run for name, run in sides.items() if any(text in name for text in args.only)}
        if not sides:
            parser.error("no side's name contains %s" % " or ".join(map(repr, args.only)))
    runs = {name: [] for name in sides}
    for _ in range(args.rounds):
        for name, run in sides.items():
            runs[name].append(run())
    print("%-50s %14s %14s   (median of %d rounds)" % ("", "pieces/CPU-s", "pieces/wall-s", args.rounds))
    for name, results in runs.items():
        cpu = statistics.median(p / c for p, c, _ in results)
        wall = statistics.median(p / w for p, _, w in results)
        print("%-50s %14.0f %14.0f" % (name, cpu, wall))
    peer = runs.get("Tetris Gymnasium, gymnasium.make, hard drops")
    if peer:
        for name, ours in runs.items():
            if not name.startswith("tetrad, gymnasium.make, 1 env"):
                continue
            # Per round, the two sides ran one after the other: their ratio there is the
            # least touched by a load that comes and goes.
            ratios = sorted((p / c) / (q / d) for (p, c, _), (q, d, _) in zip(ours, peer))
            label = name[len("tetrad, gymnasium.make, ") :]
            rounds = ", ".join("%.0f" % r for r in ratios)
            print(
                "%s / Tetris Gymnasium's hard drops, per CPU-second: %.0f times (rounds: %s)"
                % (label, statistics.median(ratios), rounds)
            )


if __name__ == "__main__":
    main()
