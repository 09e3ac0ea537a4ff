"""CPU time of one placement environment's `step` alone, in microseconds a piece: games
of random legal placements (`speed.py`'s, by its chooser) are recorded first,
then replayed `--rounds` times, each replay timed with its `step` and `reset` calls and
again with both replaced by calls that do nothing; the difference over the pieces is the
step's own cost (resets included), and the median of the rounds is printed. Not part of
CI.

    python3 python/bench/step_cost.py [--preset classic] [--pieces 50000] [--rounds 9]
"""

import argparse
import statistics
import time

# First: `speed` holds BLAS to one thread before numpy loads, and registers the environments.
from speed import recorded

import gymnasium


def replay(plan, step, reset):
    """CPU-seconds to replay `plan` with these `step` and `reset`."""
    start, games = time.process_time(), 0
    for action, ended in plan:
        step(action)
        if ended:
            games += 1
            reset(seed=games)
    return time.process_time() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--pieces", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    env = gymnasium.make("tetrad/Placements-v0", preset=args.preset)
    plan = recorded(args.preset, args.pieces)
    costs = []
    for _ in range(args.rounds):
        env.reset(seed=0)
        full = replay(plan, env.step, env.reset)
        bare = replay(plan, lambda action: None, lambda seed: None)
        costs.append((full - bare) / len(plan) * 1e6)
    games = sum(ended for _, ended in plan)
    print(f"{args.preset}: step {statistics.median(costs):.3f} us a piece (median of {args.rounds}; {games} games, {len(plan)} pieces)")


if __name__ == "__main__":
    main()
