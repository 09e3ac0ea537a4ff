"""The REINFORCE example (python/examples/reinforce): a few iterations of training beat
random play on seeded games, and the trained policy, served as a bot, plays a game
through the real `tetrad` binary exactly as it plays in the package."""

import pathlib
import sys

import numpy as np

import tetrad
import tetrad.bot

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "reinforce"
sys.path.insert(0, str(EXAMPLE))

import reinforce  # noqa: E402

SEEDS = range(3)
CAP = 200


def random_lines(seeds, cap):
    rng = np.random.default_rng(0)
    out = []
    for seed in seeds:
        game = tetrad.Game(seed=seed, max_pieces=cap, **reinforce.RULES)
        while not game.done:
            game.place(int(rng.integers(game.placement_count())))
        out.append(game.lines)
    return np.array(out)


def test_a_few_iterations_beat_random_play(tmp_path):
    weights, curve = reinforce.train(8, 8, 200, rate=0.2, seed=0, log=lambda *_: None)
    trained = reinforce.evaluate(weights, SEEDS, CAP)
    untrained = random_lines(SEEDS, CAP)
    # Random play tops out with almost no line; a 200-piece game clears at most 80.
    assert untrained.mean() < 2
    assert trained.mean() >= 30, trained
    assert len(curve) == 8
    path = tmp_path / "weights.json"
    reinforce.save(path, weights, curve)
    assert np.allclose(reinforce.load(path), weights)


def test_the_served_policy_plays_through_the_binary(tetrad_run, tmp_path):
    weights = np.array([-3.7, 2.3, -4.8, -3.4, -3.7, -2.2, -3.6, -4.2])
    path = tmp_path / "weights.json"
    reinforce.save(path, weights, [])
    manifest = tetrad.bot.write_manifest(tmp_path / "reinforce.toml", script=EXAMPLE / "bot.py", args=[path])
    games, cap = 2, 80
    host = tetrad_run("--plugin", manifest, "--games", games, "--max-pieces", cap, "--preset", "classic")
    ours = reinforce.evaluate(weights, range(games), cap)
    for seed in range(games):
        h = host[seed]
        assert h["violations"] == 0
        assert h["pieces"] == cap, h
        assert h["lines"] == ours[seed], f"game {seed}"
