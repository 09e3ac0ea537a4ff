"""The package plays the host's games: Dellacherie's controller written in Python over
`Game.placements()` plays, game for game, what the bundled `bcts` bot plays under
`tetrad run`."""

import pytest

import tetrad
from tetrad import features


def play(weights, games, **rules):
    out = {}
    for seed in range(games):
        game = tetrad.Game(seed=seed, **rules)
        while not game.done:
            game.place(features.choose(game, weights))
        out[seed] = (game.lines, game.pieces, game.score, game.end)
    return out


@pytest.mark.parametrize(
    "rules",
    [
        dict(preset="simplified", width=10, height=10),
        dict(preset="classic", width=10, height=12),
        dict(preset="leiden"),
    ],
)
def test_dellacherie_in_python_is_bcts_game_for_game(tetrad_run, rules):
    games, cap = 4, 150
    args = ["--plugin", "bcts", "--options", "controller=dellacherie", "--games", games, "--max-pieces", cap]
    for key, value in rules.items():
        args += ["--" + key, value]
    host = tetrad_run(*args)
    ours = play(features.DELLACHERIE, games, max_pieces=cap, **rules)
    for seed in range(games):
        h = host[seed]
        assert ours[seed] == (h["lines"], h["pieces"], h["score"], h["end"]), f"game {seed}"


def test_board_features_on_a_drawn_board():
    rows = [
        "..........",
        "..........",
        "#.........",
        "#.#.......",
        "###.#####.",
    ]
    board = [[1 if c == "#" else 0 for c in row] for row in rows]
    f = features.board_features([board])[0]
    # Row transitions: 2 per empty row, 2 + 4 + 4 below.
    assert f[0] == 14
    # Column transitions: one per column (empty above, then filled or the floor).
    assert f[1] == 10
    assert f[2] == 0  # no holes
    # Wells: (1, 3) between columns 0 and 2 over a filled cell, (3, 4) on the floor, and
    # (9, 4) against the wall: 1 each.
    assert f[3] == 3
