"""The eight features of Dellacherie's and Thiery and Scherrer's BCTS controllers, as the
MdpTetris simulator (and the bundled ``bcts`` bot) define them, computed in numpy over a
game's placements.

- landing height: the row of the piece's lowest cell counted from 0 at the floor, plus
  (piece height - 1) / 2;
- eroded cells: rows cleared x cells of the piece in them;
- row transitions: filled/empty changes along each row, both walls filled (an empty row
  counts 2);
- column transitions: filled/empty changes down each column, the space above the board
  empty and the floor filled;
- holes: empty cells with a filled cell above them in their column;
- cumulative wells: for every well cell (empty, both neighbours filled or a wall), 1 plus
  the empty cells directly below it;
- hole depth: filled cells with a hole anywhere below them in their column;
- rows with holes.
"""

import numpy as np

NAMES = (
    "landing_height",
    "eroded_cells",
    "row_transitions",
    "column_transitions",
    "holes",
    "cumulative_wells",
    "hole_depth",
    "rows_with_holes",
)

#: Dellacherie's weights (hole depth and rows with holes unused).
DELLACHERIE = np.array([-1.0, 1.0, -1.0, -1.0, -4.0, -1.0, 0.0, 0.0])
#: Thiery and Scherrer's BCTS weights.
BCTS = np.array([-12.629, 6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087])


def board_features(boards):
    """The six board features of each board of ``boards`` (N x height x width, 1 where
    filled): an N x 6 array, in ``NAMES`` order from row transitions on."""
    b = np.asarray(boards).astype(bool)
    if b.ndim == 2:
        b = b[None]
    n, h, w = b.shape
    walls = np.ones((n, h, 1), dtype=bool)
    rows = np.concatenate([walls, b, walls], axis=2)
    row_transitions = (rows[:, :, 1:] != rows[:, :, :-1]).sum(axis=(1, 2))
    cols = np.concatenate([np.zeros((n, 1, w), dtype=bool), b, np.ones((n, 1, w), dtype=bool)], axis=1)
    column_transitions = (cols[:, 1:, :] != cols[:, :-1, :]).sum(axis=(1, 2))
    above = np.zeros_like(b)
    above[:, 1:, :] = np.logical_or.accumulate(b, axis=1)[:, :-1, :]
    hole_cells = above & ~b
    holes = hole_cells.sum(axis=(1, 2))
    below = np.zeros_like(b)
    below[:, :-1, :] = np.logical_or.accumulate(hole_cells[:, ::-1, :], axis=1)[:, ::-1, :][:, 1:, :]
    hole_depth = (b & below).sum(axis=(1, 2))
    rows_with_holes = hole_cells.any(axis=2).sum(axis=1)
    # Empty cells directly below each cell, down to a filled cell or the floor.
    run = np.zeros((n, h, w), dtype=np.int64)
    for y in range(h - 2, -1, -1):
        run[:, y, :] = np.where(b[:, y + 1, :], 0, run[:, y + 1, :] + 1)
    sides = np.pad(b, ((0, 0), (0, 0), (1, 1)), constant_values=True)
    well = ~b & sides[:, :, :-2] & sides[:, :, 2:]
    wells = np.where(well, run + 1, 0).sum(axis=(1, 2))
    return np.stack([row_transitions, column_transitions, holes, wells, hole_depth, rows_with_holes], axis=1).astype(
        np.float64
    )


def landing_features(placement, height):
    """Landing height and eroded cells of one placement on a board ``height`` rows high."""
    ys = [y for _, y in placement.cells]
    bottom = height - 1 - max(ys)
    piece_height = max(ys) - min(ys) + 1
    cleared = set(placement.cleared_rows)
    eroded = placement.lines * sum(1 for _, y in placement.cells if y in cleared)
    return bottom + (piece_height - 1) / 2.0, float(eroded)


def features(game, placements=None):
    """The eight features of every placement of ``game``'s falling piece: an N x 8 array,
    rows in ``game.placements()`` order."""
    placements = game.placements() if placements is None else placements
    if not placements:
        return np.zeros((0, len(NAMES)))
    landing = np.array([landing_features(p, game.height) for p in placements])
    boards = game.placement_boards()
    return np.concatenate([landing, board_features(boards)], axis=1)


def choose(game, weights):
    """The index of the placement with the highest weighted features, the first of equals;
    a placement that ends the game rates minus infinity (so it is chosen only when all
    do). ``None`` if the piece has no placement."""
    placements = game.placements()
    if not placements:
        return None
    values = features(game, placements) @ np.asarray(weights, dtype=np.float64)
    values[np.array([p.ends_game for p in placements])] = -np.inf
    return int(np.argmax(values))
