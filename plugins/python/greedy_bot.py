"""Dellacherie's one-piece greedy controller: each placement rated by six features of the
board it leaves, the best one played.

The features are the MdpTetris simulator's, as ``plugins/bcts/src/features.rs`` computes
them (``bcts@controller=dellacherie`` is the same controller in Rust):

1. landing height: the row of the piece's lowest cell, the bottom row being 0, plus
   (piece height - 1) / 2;
2. eroded piece cells: rows cleared times the piece's cells in them;
3. row transitions: filled/empty changes along each row, both walls filled;
4. column transitions: filled/empty changes down each column, the space above the board
   empty and the floor filled;
5. holes: empty cells with a filled cell anywhere above them in their column;
6. cumulative wells: for every well cell (empty, both neighbours filled or a wall), 1
   plus the empty cells directly below it.

Features 3 to 6 are taken on the board after the lock and the cleared rows. A placement
that ends the game rates minus infinity; the first strict maximum in enumeration order
wins. Options: ``w1`` .. ``w6`` override the weights (-1, 1, -1, -1, -4, -1).
"""

import tetrad_bot
from tetrad_bot import popcount

WEIGHTS = {"w1": -1.0, "w2": 1.0, "w3": -1.0, "w4": -1.0, "w5": -4.0, "w6": -1.0}


def board_features(board):
    """Row transitions, column transitions, holes and cumulative wells of a board."""
    width, full, rows = board.width, board.full, board.rows
    inside = (1 << (width + 1)) - 1
    # Rows above the stack are empty: two row transitions each, and nothing else.
    surface = board.surface()
    row_transitions = 2 * surface
    column_transitions = holes = wells = 0
    covered = previous = 0
    for y in range(surface, len(rows)):
        row = rows[y]
        walled = (row << 1) | 1 | (1 << (width + 1))
        row_transitions += popcount((walled ^ (walled >> 1)) & inside)
        column_transitions += popcount(row ^ previous)
        holes += popcount(covered & ~row & full)
        cells = ~row & ((row << 1) | 1) & ((row >> 1) | (1 << (width - 1))) & full
        while cells:
            x = (cells & -cells).bit_length() - 1
            cells &= cells - 1
            depth = 1
            while y + depth < len(rows) and not rows[y + depth] >> x & 1:
                depth += 1
            wells += depth
        covered |= row
        previous = row
    column_transitions += popcount(~previous & full)
    return row_transitions, column_transitions, holes, wells


def features(game, board, shape, pos):
    """The six features of locking ``shape`` at ``pos``, or None if the lock ends the game."""
    after = board.copy()
    if not after.place(shape, pos.x, pos.y):
        return None
    top = pos.y + shape.top
    left = pos.x + shape.left
    lines = eroded = 0
    for i, mask in enumerate(shape.masks):
        if after.rows[top + i] == after.full:
            lines += 1
            eroded += popcount(mask << left)
    after.clear()
    if game.lock_ends_game(False, after):
        return None
    lowest = top + shape.height - 1
    landing = (board.height - 1 - lowest) + (shape.height - 1) / 2
    return (landing, lines * eroded) + board_features(after)


class GreedyBot(tetrad_bot.Bot):
    name = "greedy-py"
    description = "Dellacherie's six features, one piece"

    def setup(self, game):
        options = tetrad_bot.parse_options(game.options, WEIGHTS)
        self.weights = [options[key] for key in sorted(WEIGHTS)]
        self.game = game

    def value(self, turn, placement):
        """The placement's weighted sum, added in feature order."""
        f = features(self.game, turn.board, turn.piece.shapes[placement.pos.orientation], placement.pos)
        if f is None:
            return float("-inf")
        total = 0.0
        for feature, weight in zip(f, self.weights):
            total += feature * weight
        return total

    def place(self, turn):
        best = best_value = None
        for placement in turn.placements():
            value = self.value(turn, placement)
            if best is None or value > best_value:
                best, best_value = placement, value
        return best


if __name__ == "__main__":
    tetrad_bot.run(GreedyBot())
