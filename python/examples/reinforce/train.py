"""Trains the REINFORCE policy of `reinforce.py` on `tetrad/Placements-v0` (10x20
`classic`), evaluates it greedily on seeded games, and saves its weights and learning
curve; with `--plot` also an SVG of the curve.

    python3 train.py [--iterations 40] [--episodes 8] [--max-pieces 300] [--out weights.json]
"""

import argparse
import time

import numpy as np

import reinforce


def svg(curve, path):
    """The curve (mean training lines per iteration) as a small SVG line chart."""
    width, height, pad = 480, 240, 40
    xs = [row[0] for row in curve]
    ys = [row[2] for row in curve]
    top = max(max(ys), 1.0)
    sx = lambda x: pad + (width - 2 * pad) * x / max(xs[-1], 1)  # noqa: E731
    sy = lambda y: height - pad - (height - 2 * pad) * y / top  # noqa: E731
    points = " ".join("%.1f,%.1f" % (sx(x), sy(y)) for x, y in zip(xs, ys))
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
        % (width, height),
        '<rect width="100%" height="100%" fill="white"/>',
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (pad, height - pad, width - pad, height - pad),
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (pad, pad, pad, height - pad),
        '<polyline fill="none" stroke="steelblue" stroke-width="2" points="%s"/>' % points,
        '<text x="%d" y="%d" text-anchor="middle">iteration</text>' % (width // 2, height - 8),
        '<text x="%d" y="%d">%.0f</text>' % (4, pad + 4, top),
        '<text x="%d" y="%d">0</text>' % (pad - 12, height - pad + 4),
        '<text x="%d" y="%d" text-anchor="end">%d</text>' % (width - pad, height - pad + 14, xs[-1]),
        '<text x="%d" y="%d" text-anchor="middle">mean lines per training game (capped pieces)</text>'
        % (width // 2, 16),
        "</svg>",
    ]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(parts) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--episodes", type=int, default=8, help="training games per iteration")
    parser.add_argument("--max-pieces", type=int, default=300, help="piece cap of a training game")
    parser.add_argument("--rate", type=float, default=0.05, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--eval-pieces", type=int, default=2000, help="piece cap of an evaluation game")
    parser.add_argument("--out", default="weights.json")
    parser.add_argument("--plot", help="write the learning curve as SVG here")
    args = parser.parse_args()
    start = time.process_time()
    weights, curve = reinforce.train(args.iterations, args.episodes, args.max_pieces, args.rate, args.seed)
    trained = time.process_time() - start
    seeds = range(args.eval_games)
    before = reinforce.evaluate(np.zeros(len(weights)), seeds, args.eval_pieces)
    after = reinforce.evaluate(weights, seeds, args.eval_pieces)
    print("training: %.0f CPU-s" % trained)
    print("evaluation, games 0-%d capped at %d pieces, lines per game:" % (args.eval_games - 1, args.eval_pieces))
    print("  untrained (all weights 0, greedy): mean %.1f, median %.0f" % (before.mean(), np.median(before)))
    print("  trained: mean %.1f, median %.0f, min %d, max %d" % (after.mean(), np.median(after), after.min(), after.max()))
    reinforce.save(
        args.out,
        weights,
        curve,
        {"evaluation": {"games": args.eval_games, "max_pieces": args.eval_pieces, "lines": after.tolist()}},
    )
    if args.plot:
        svg(curve, args.plot)
    print("weights:", dict(zip(reinforce.features.NAMES, np.round(weights, 3))))


if __name__ == "__main__":
    main()
