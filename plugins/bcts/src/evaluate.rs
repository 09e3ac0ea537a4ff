//! The full pass: a placement's board after it (lines cleared) and its value from every
//! feature of that board, for placements the columns' incremental path does not rate.

use crate::features::{board_features, board_features_of, Landing, Weights};
use crate::surface::board_heights;
use tetrad_plugin_api::{Board, PieceId, PiecePos, PieceSet, Rules};

/// A placement's outcome: the board after it, and its value.
pub(crate) fn evaluate(
    rules: &Rules,
    pieces: &PieceSet,
    board: &Board,
    piece: PieceId,
    pos: PiecePos,
    weights: &Weights,
) -> Option<(Board, f64)> {
    let shape = pieces.kind(piece).orientation(pos.orientation);
    let mut after = board.clone();
    if !after.place(shape, pos.x, pos.y) {
        return None;
    }
    let top = i32::from(pos.y) + i32::from(shape.top());
    let full = after.full_row();
    let left = i32::from(pos.x) + i32::from(shape.left());
    let mut lines = 0;
    let mut piece_cells_cleared = 0;
    for (i, &mask) in shape.row_masks().iter().enumerate() {
        if after.rows()[top as usize + i] == full {
            lines += 1;
            piece_cells_cleared += (mask << left).count_ones();
        }
    }
    // The board a bot is shown holds no full row: only the piece's rows can be full.
    let cleared = tetrad_plugin_api::Lock {
        lines: after.clear_full_rows_among(top as usize, usize::from(shape.height())),
        above_board: false,
    };
    if rules.lock_ends_game(&cleared, &after) {
        return None;
    }
    let lowest = top + i32::from(shape.height()) - 1;
    let landing = Landing {
        bottom: (board.height() as i32 - 1 - lowest) as u32,
        piece_height: u32::from(shape.height()),
        lines,
        piece_cells_cleared,
    };
    let features = if weights.detail() {
        board_features(&after)
    } else {
        board_features_of::<false>(&after)
    };
    let mut value = weights.value(&features, &landing);
    if let Some(surface) = weights.surface() {
        value += surface.value(board_heights(&after, &mut [0; 32]));
    }
    Some((after, value))
}
