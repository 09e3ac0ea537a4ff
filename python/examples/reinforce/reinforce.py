"""REINFORCE (Williams 1992) for a linear softmax policy over afterstates, in numpy, on
`tetrad/Placements-v0`: each legal placement is scored by a weighted sum of the eight
BCTS features of the board it leaves (`tetrad.features`), the policy samples a placement
with probability proportional to exp(score), and the weights follow the policy gradient
of the return, with the batch's mean return to go at each step as the baseline and
Adam as the step.

The return counts one for every piece placed and ten for every line cleared: a random
policy clears almost nothing on 10x20 `classic`, so the lines alone give no gradient at
first, while living longer does, and a policy that lives long must clear lines.

The module is the example's library: `train.py` runs it from the command line, `bot.py`
serves the weights it saves, and the tests run a few of its iterations.
"""

import json
import time

import gymnasium
import numpy as np

import tetrad  # noqa: F401  (registers the environments)
from tetrad import features

#: The rules trained and evaluated on: the default preset on the standard board.
RULES = dict(preset="classic", width=10, height=20)
#: Scales that bring the eight features to about one on a mid-game board, so that one
#: learning rate suits all of them.
SCALE = np.array([10.0, 10.0, 50.0, 50.0, 10.0, 20.0, 20.0, 10.0])
#: The return: per piece placed, and per line cleared.
PIECE_REWARD, LINE_REWARD = 1.0, 10.0


def scaled_features(game, placements):
    """The placements' features, scaled: an N x 8 array."""
    return features.features(game, placements) / SCALE


def act(game, weights, rng=None):
    """A placement of the falling piece and the features of all of them: sampled from the
    softmax policy with `rng`, or the best (greedy) without one. A placement that ends
    the game is taken only when all do."""
    placements = game.placements()
    phi = scaled_features(game, placements)
    logits = phi @ weights
    ends = np.array([p.ends_game for p in placements])
    if not ends.all():
        logits[ends] = -np.inf
    if rng is None:
        return placements[int(np.argmax(logits))], phi, None
    p = np.exp(logits - logits.max())
    p /= p.sum()
    index = int(rng.choice(len(placements), p=p))
    return placements[index], phi, (index, p)


def episode(env, weights, seed, rng):
    """One training game on `env` (a `tetrad/Placements-v0`): its return and the score
    function's sum, sum over steps of grad log pi(a|s) weighted by the return to go."""
    env.reset(seed=seed)
    game = env.unwrapped.game
    steps = []
    done = False
    while not done:
        placement, phi, (index, p) = act(game, weights, rng)
        _, lines, terminated, truncated, _ = env.step(placement.slot)
        done = terminated or truncated
        steps.append((phi[index] - p @ phi, PIECE_REWARD + LINE_REWARD * lines))
    rewards = np.array([r for _, r in steps])
    to_go = np.cumsum(rewards[::-1])[::-1]
    return rewards.sum(), to_go, np.array([g for g, _ in steps])


class Adam:
    """Adam (Kingma and Ba 2015) ascending a gradient."""

    def __init__(self, size, rate, beta1=0.9, beta2=0.999, eps=1e-8):
        self.m, self.v, self.t = np.zeros(size), np.zeros(size), 0
        self.rate, self.beta1, self.beta2, self.eps = rate, beta1, beta2, eps

    def step(self, grad):
        self.t += 1
        self.m = self.beta1 * self.m + (1 - self.beta1) * grad
        self.v = self.beta2 * self.v + (1 - self.beta2) * grad * grad
        m = self.m / (1 - self.beta1**self.t)
        v = self.v / (1 - self.beta2**self.t)
        return self.rate * m / (np.sqrt(v) + self.eps)


def evaluate(weights, seeds, cap):
    """Lines of the greedy policy in each of games `seeds` (capped at `cap` pieces)."""
    out = []
    for seed in seeds:
        game = tetrad.Game(seed=seed, max_pieces=cap, **RULES)
        while not game.done:
            placement, _, _ = act(game, weights)
            game.place(placement.index)
        out.append(game.lines)
    return np.array(out)


def train(iterations, episodes, cap, rate=0.05, seed=0, log=print, weights=None):
    """Trains for `iterations` iterations of `episodes` training games each (games
    numbered from 10,000, apart from the evaluation's); returns the weights and the
    curve, one (iteration, mean training return, mean training lines, seconds) a row."""
    rng = np.random.default_rng(seed)
    env = gymnasium.make("tetrad/Placements-v0", max_pieces=cap, **RULES)
    weights = np.zeros(len(features.NAMES)) if weights is None else np.array(weights, dtype=float)
    adam = Adam(len(weights), rate)
    curve, start, game_number = [], time.process_time(), 10_000
    for iteration in range(iterations):
        runs = []
        for _ in range(episodes):
            runs.append(episode(env, weights, game_number, rng))
            game_number += 1
        # The baseline at step t: the batch's mean return to go at t (0 past a game's end).
        longest = max(len(to_go) for _, to_go, _ in runs)
        padded = np.zeros((len(runs), longest))
        for k, (_, to_go, _) in enumerate(runs):
            padded[k, : len(to_go)] = to_go
        baseline = padded.mean(axis=0)
        grad, steps = np.zeros_like(weights), 0
        for _, to_go, scores in runs:
            grad += (to_go - baseline[: len(to_go)]) @ scores
            steps += len(to_go)
        weights = weights + adam.step(grad / steps)
        returns = np.array([total for total, _, _ in runs])
        lines = (returns - np.array([len(t) for _, t, _ in runs]) * PIECE_REWARD) / LINE_REWARD
        row = (iteration, float(returns.mean()), float(lines.mean()), time.process_time() - start)
        curve.append(row)
        log("iteration %3d: return %8.1f, lines %7.1f  (%.0f CPU-s)" % row)
    env.close()
    return weights, curve


def save(path, weights, curve, extra=None):
    """Writes the weights (by feature name) and the curve as JSON."""
    data = {
        "rules": RULES,
        "weights": dict(zip(features.NAMES, (float(w) for w in weights))),
        "scale": SCALE.tolist(),
        "curve": [dict(zip(("iteration", "return", "lines", "cpu_seconds"), row)) for row in curve],
    }
    data.update(extra or {})
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=2)


def load(path):
    """The weights saved by `save`, in `features.NAMES` order."""
    with open(path, encoding="utf-8") as f:
        named = json.load(f)["weights"]
    return np.array([named[name] for name in features.NAMES])
