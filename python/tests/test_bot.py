"""A policy served with `tetrad.bot.serve` plays under `tetrad run` exactly the games it
plays in the package."""

import pathlib
import sys

import pytest

import tetrad
import tetrad.bot
from tetrad import features

BOT = pathlib.Path(__file__).parent / "bots" / "dellacherie_bot.py"


def package_games(games, cap, **rules):
    out = {}
    for seed in range(games):
        game = tetrad.Game(seed=seed, max_pieces=cap, **rules)
        while not game.done:
            game.place(features.choose(game, features.DELLACHERIE))
        out[seed] = (game.lines, game.pieces, game.score, game.end)
    return out


@pytest.mark.parametrize(
    "answers, rules",
    [
        ("placement", dict(preset="simplified", width=10, height=10)),
        ("placement", dict(preset="classic")),
        ("tick", dict(preset="classic", width=8, height=12)),
        ("tick", dict(preset="guideline")),
    ],
)
def test_a_served_policy_plays_the_packages_games(tetrad_run, tmp_path, answers, rules):
    manifest = tetrad.bot.write_manifest(tmp_path / "bot.toml", script=BOT, args=[answers])
    games, cap = 3, 60
    args = ["--plugin", manifest, "--games", games, "--max-pieces", cap]
    for key, value in rules.items():
        args += ["--" + key, value]
    host = tetrad_run(*args)
    ours = package_games(games, cap, **rules)
    for seed in range(games):
        h = host[seed]
        assert h["violations"] == 0
        assert ours[seed] == (h["lines"], h["pieces"], h["score"], h["end"]), f"game {seed}"


def test_a_sequence_file_plays_from_what_the_host_shows(tetrad_run, tmp_path):
    sequence = tmp_path / "seq.txt"
    sequence.write_text("I O T S Z J L I I O T T S\nL L J J I O T S Z I\n")
    manifest = tetrad.bot.write_manifest(tmp_path / "bot.toml", script=BOT)
    host = tetrad_run("--plugin", manifest, "--preset", "simplified", "--width", 6, "--height", 8, "--sequence", sequence)
    for seed in range(2):
        game = tetrad.Game("simplified", width=6, height=8, seed=seed, sequence=str(sequence))
        while not game.done:
            game.place(features.choose(game, features.DELLACHERIE))
        h = host[seed]
        assert (game.lines, game.pieces, game.end) == (h["lines"], h["pieces"], h["end"])


def test_guideline_refuses_placement_answers(tmp_path):
    import io
    import json

    lines = [
        {"type": "hello", "protocol": 1},
        {"type": "start", "preset": "guideline", "width": 10, "height": 40, "preview": 6, "pieces": [], "seed": 1, "options": ""},
        {"type": "quit"},
    ]
    out = io.StringIO()
    tetrad.bot.serve(lambda g: 0, name="t", stdin=io.StringIO("\n".join(json.dumps(m) for m in lines) + "\n"), stdout=out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0]["answers"] == "placement"
    assert replies[1]["type"] == "error" and 'answers="tick"' in replies[1]["message"]


def test_write_manifest(tmp_path):
    path = tetrad.bot.write_manifest(tmp_path / "m.toml", script=BOT, name="x")
    text = pathlib.Path(path).read_text()
    assert 'name = "x"' in text and sys.executable in text and str(BOT) in text
