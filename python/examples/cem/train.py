"""The noisy cross-entropy method (Szita and Lőrincz 2006) over Dellacherie's six features,
trained on 10x10 `simplified` with the tetrad package, on one core.

    python3 train.py [--generations 10] [--population 50] [--out weights.json]

Each generation samples `population` weight vectors from a Gaussian, plays each on
`games` games (a piece cap keeps a game short), keeps the best `elite` fraction, and
refits the Gaussian to them, adding noise to the variance that decreases with the
generation (Szita and Lőrincz's max(5 - t / 10, 0)). Games are dealt as `tetrad run`
deals them, a new set of game numbers each generation.
"""

import argparse
import json
import time

import numpy as np

import tetrad
from tetrad import features

RULES = dict(preset="simplified", width=10, height=10)
#: Dellacherie's six features: landing height, eroded cells, row and column transitions,
#: holes, cumulative wells.
FEATURES = 6


def play(weights, seed, cap):
    """Lines cleared by the one-piece controller with `weights` in game `seed`."""
    w = np.zeros(len(features.NAMES))
    w[:FEATURES] = weights
    game = tetrad.Game(seed=seed, max_pieces=cap, **RULES)
    while not game.done:
        game.place(features.choose(game, w))
    return game.lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--population", type=int, default=50)
    parser.add_argument("--elite", type=float, default=0.2)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--max-pieces", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="weights.json")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    mean, std = np.zeros(FEATURES), np.full(FEATURES, 10.0)
    keep = max(1, int(args.population * args.elite))
    start = time.perf_counter()
    game_number = 1000  # training games; the tournament's games are 0, 1, ...
    for generation in range(args.generations):
        samples = rng.normal(mean, std, size=(args.population, FEATURES))
        seeds = range(game_number, game_number + args.games)
        game_number += args.games
        scores = np.array([np.mean([play(w, s, args.max_pieces) for s in seeds]) for w in samples])
        elite = samples[np.argsort(-scores)[:keep]]
        noise = max(5.0 - generation / 10.0, 0.0)
        mean, std = elite.mean(axis=0), np.sqrt(elite.var(axis=0) + noise)
        print(
            "generation %2d: mean lines %7.1f, best %5d, elite mean %7.1f  (%.0f s)"
            % (generation, scores.mean(), scores.max(), scores[np.argsort(-scores)[:keep]].mean(),
               time.perf_counter() - start),
            flush=True,
        )
    weights = dict(zip(features.NAMES[:FEATURES], (round(float(w), 4) for w in mean)))
    with open(args.out, "w", encoding="utf-8") as out:
        json.dump(weights, out, indent=2)
    print("weights:", weights)


if __name__ == "__main__":
    main()
