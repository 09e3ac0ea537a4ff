"""The Game class: the host's rules, pieces and placements, and its refusals."""

import numpy as np
import pytest

import tetrad


@pytest.mark.parametrize("preset", tetrad.PRESETS)
def test_every_placement_locks_where_it_says(preset):
    game = tetrad.Game(preset, seed=3)
    for _ in range(25):
        if game.done:
            break
        placements = game.placements()
        assert placements, "a live game's piece has placements"
        slots = [p.slot for p in placements]
        assert len(set(slots)) == len(slots), "one slot per placement"
        assert all(0 <= s < game.action_count for s in slots)
        mask = game.action_mask()
        assert mask.sum() == len(placements) and all(mask[s] for s in slots)
        boards = game.placement_boards()
        assert boards.shape == (len(placements), game.height, game.width)
        for p in placements:
            copy = game.clone()
            lines = copy.place(p.index)
            assert lines == p.lines
            assert copy.pieces == game.pieces + 1
            if not p.ends_game:
                assert (copy.board == p.board).all(), p
                assert (boards[p.index] == p.board).all()
            assert copy.done == (p.ends_game or copy.end is not None)
        game.place(len(placements) // 2)
    assert game.pieces >= 3


def test_a_game_is_its_seed():
    a, b = tetrad.Game(seed=7), tetrad.Game(seed=7)
    assert a.current == b.current and a.queue == b.queue
    firsts = {tetrad.Game(seed=s).current + "".join(tetrad.Game(seed=s).queue) for s in range(20)}
    assert len(firsts) > 5
    assert tetrad.Game(seed=7, run_seed=2).player_seed != a.player_seed


def test_board_and_pieces():
    game = tetrad.Game("classic", seed=0)
    assert game.board.shape == (20, 10) and game.board.dtype == np.uint8
    assert game.board.sum() == 0
    assert game.current in game.piece_names
    assert len(game.queue) == 1 and game.hold is None
    assert game.rules == {"preset": "classic", "width": 10, "height": 20, "preview": 1, "randomizer": "uniform"}
    guideline = tetrad.Game("guideline", seed=0)
    assert guideline.board.shape == (40, 10) and len(guideline.queue) == 6
    assert guideline.hold_available
    assert any(p.hold for p in guideline.placements())


def test_clone_is_independent():
    game = tetrad.Game("simplified", seed=1)
    copy = game.clone()
    copy.place(0)
    assert game.pieces == 0 and copy.pieces == 1
    assert game.placement_count() == len(game.placements())


def test_ticks_play_as_placements_do():
    by_place = tetrad.Game("classic", seed=2)
    by_tick = tetrad.Game("classic", seed=2)
    for _ in range(30):
        if by_place.done:
            break
        p = by_place.placements()[-1]
        by_place.place(p.index)
        for bits in p.actions:
            locked, _ = by_tick.step(bits)
            if locked:
                break
        assert (by_tick.board == by_place.board).all()
        assert by_tick.pieces == by_place.pieces and by_tick.current == by_place.current


def test_hold_under_guideline():
    game = tetrad.Game("guideline", seed=0)
    first, nxt = game.current, game.queue[0]
    game.step(tetrad.HOLD)
    assert game.hold == first and game.current == nxt and not game.hold_available


def test_a_stalled_game_ends():
    game = tetrad.Game("simplified", width=4, height=4, seed=0)
    while not game.done:
        game.step(0)
    assert game.end == "stalled"
    with pytest.raises(tetrad.GameOver, match="stalled"):
        game.step(0)


def test_a_sequence_is_dealt_in_order(tmp_path):
    game = tetrad.Game("simplified", sequence=["I", "O", "T"])
    assert game.current == "I"
    for _ in range(3):
        game.place(0)
    assert game.done and game.end == "capped"
    path = tmp_path / "seq.txt"
    path.write_text("I I I\nO T\n")
    assert tetrad.Game(seed=1, sequence=str(path)).current == "O"


def test_a_cap_ends_the_game():
    game = tetrad.Game("simplified", seed=0, max_pieces=3)
    for _ in range(3):
        game.place(0)
    assert game.done and game.end == "capped"


def test_a_given_board():
    board = np.zeros((10, 10), dtype=np.uint8)
    board[9, :9] = 1
    game = tetrad.Game("simplified", width=10, height=10, board=board, sequence=["I"])
    assert (game.board == board).all()
    assert max(p.lines for p in game.placements()) == 1


@pytest.mark.parametrize("width", [4, 5, 7, 8, 9, 10, 15, 16, 17, 24, 31, 32])
def test_a_board_reads_back_cell_for_cell_at_every_width(width):
    # Rows are written eight cells at a time, a row's last eight running into the next's.
    rng = np.random.default_rng(width)
    for _ in range(20):
        board = (rng.random((20, width)) < 0.5).astype(np.uint8)
        board[:4] = 0  # room for the piece to enter
        board[np.arange(20), rng.integers(0, width, 20)] = 0  # no full row
        game = tetrad.Game("simplified", width=width, height=20, board=board, sequence=["I"])
        assert (game.board == board).all()


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: tetrad.Game("tetris99"), tetrad.TetradError, "unknown preset `tetris99`"),
        (lambda: tetrad.Game(width=3), tetrad.TetradError, "width 3 is out of range 4..=32 for preset classic"),
        (lambda: tetrad.Game("leiden", preview=1), tetrad.TetradError, "preview 1 is out of range"),
        (lambda: tetrad.Game(randomizer="fair"), tetrad.TetradError, "unknown randomizer `fair`"),
        (lambda: tetrad.Game(pieces="/no/such/file.toml"), tetrad.TetradError, "/no/such/file.toml"),
        (lambda: tetrad.Game(sequence=["I", "Q"]), tetrad.TetradError, "`Q` is not a piece of the set"),
        (lambda: tetrad.Game(board=np.zeros((3, 10))), tetrad.TetradError, "board is 3x10"),
        (lambda: tetrad.Game().place(500), IndexError, "placement 500 is out of range"),
        (lambda: tetrad.Game().place(-1), IndexError, "placement -1 is out of range"),
        (lambda: tetrad.BatchGames(2, "simplified").game(-1), IndexError, "game -1 is out of range: the batch has 2"),
        (lambda: tetrad.BatchGames(2, "simplified").game(2), IndexError, "game 2 is out of range: the batch has 2"),
        (lambda: tetrad.Game().step(tetrad.LEFT | tetrad.RIGHT), tetrad.TetradError, "update returned"),
        (lambda: tetrad.Game().step(1 << 9), tetrad.TetradError, "update returned"),
    ],
)
def test_bad_input_is_an_exception_with_the_hosts_message(make, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(".", r"\.")):
        make()
    assert issubclass(tetrad.TetradError, ValueError)


def test_a_finished_game_refuses_moves():
    game = tetrad.Game("simplified", seed=0, max_pieces=1)
    game.place(0)
    with pytest.raises(tetrad.GameOver, match=r"the game is over \(capped\)"):
        game.place(0)
    assert game.placements() == []
