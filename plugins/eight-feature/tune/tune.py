#!/usr/bin/env python3
"""Chooses the default weights w1..w8 of the eight-feature plugin by a small, seeded
cross-entropy search driven by `tetrad run --format json`.

Each candidate plays the same `--games` games (run seed `--seed`, so the same pieces for
every candidate) under `classic`, capped at `--max-pieces`; its score is the mean number of
lines. Each iteration samples `--population` weight vectors from independent normal
distributions, keeps the best `--elite`, and moves each mean and standard deviation to
theirs. E is unchanged by a positive factor on all weights, so w4 (the hole count, whose
sign is not in doubt) is held at 10 to fix the scale. The best candidate ever evaluated is
printed, rounded to two decimals, together with the command that checks it.

Everything is deterministic: the sampler is seeded from `--sampler-seed` and the
iteration number, and the games from `--seed`. Python 3 standard library only.

    python3 plugins/eight-feature/tune/tune.py \
        --tetrad "$CARGO_TARGET_DIR/release/tetrad" \
        --plugin "$CARGO_TARGET_DIR/release/libtetrad_plugin_eight_feature.so"
"""

import argparse
import json
import random
import subprocess
import sys

NAMES = ["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"]
FIXED = {3: 10.0}  # w4, the scale


def play(args, weights):
    """Mean lines (and the JSON summary) of one candidate over the tuning games."""
    options = ",".join(f"{n}={w:.4f}" for n, w in zip(NAMES, weights))
    if args.extra:
        options += "," + args.extra
    command = [
        args.tetrad, "run",
        "--plugin", args.plugin,
        "--games", str(args.games),
        "--seed", str(args.seed),
        "--max-pieces", str(args.max_pieces),
        "--jobs", str(args.jobs),
        "--options", options,
        "--format", "json",
    ]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    summary = json.loads(out)["summary"]
    return summary["lines"]["mean"], summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tetrad", required=True, help="the tetrad binary")
    parser.add_argument("--plugin", required=True, help="the eight-feature plugin library")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1000, help="run seed of the tuning games")
    parser.add_argument("--max-pieces", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--population", type=int, default=12)
    parser.add_argument("--elite", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--sampler-seed", type=int, default=7)
    parser.add_argument("--mean", default="1,1,1,10,1,0,-1,0", help="starting means w1..w8")
    parser.add_argument("--sd", default="2,2,2,0,3,1,2,1", help="starting deviations w1..w8")
    parser.add_argument("--extra", default="", help="more plugin options, e.g. heights=floor")
    args = parser.parse_args()

    mean = [float(v) for v in args.mean.split(",")]
    sd = [float(v) for v in args.sd.split(",")]
    best = (float("-inf"), None)
    for iteration in range(args.iterations):
        rng = random.Random(args.sampler_seed * 1000 + iteration)
        candidates = [mean[:]] + [
            [FIXED.get(i, rng.gauss(m, s)) for i, (m, s) in enumerate(zip(mean, sd))]
            for _ in range(args.population - 1)
        ]
        scored = []
        for weights in candidates:
            weights = [round(w, 2) for w in weights]
            lines, summary = play(args, weights)
            scored.append((lines, weights))
            print(
                f"iter {iteration} lines {lines:8.2f} pieces {summary['pieces']['mean']:8.1f} "
                f"w {','.join(f'{w:.2f}' for w in weights)}",
                flush=True,
            )
            if lines > best[0]:
                best = (lines, weights)
        scored.sort(key=lambda s: -s[0])
        elite = [w for _, w in scored[: args.elite]]
        for i in range(len(mean)):
            if i in FIXED:
                continue
            values = [w[i] for w in elite]
            mean[i] = sum(values) / len(values)
            spread = (sum((v - mean[i]) ** 2 for v in values) / len(values)) ** 0.5
            sd[i] = max(spread, 0.05 * (abs(mean[i]) + 1))
        print(
            f"iter {iteration} done: best {scored[0][0]:.2f}; mean "
            f"{','.join(f'{m:.2f}' for m in mean)} sd {','.join(f'{s:.2f}' for s in sd)}",
            flush=True,
        )
    lines, weights = best
    options = ",".join(f"{n}={w:.2f}" for n, w in zip(NAMES, weights))
    print(f"best: {lines:.2f} mean lines over {args.games} games (seed {args.seed})")
    print(f"weights: {options}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
