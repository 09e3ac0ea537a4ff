//! The host's rules for a lock, restated here so the tests can tell what a lock is worth
//! without the host: a T that locks after its last movement was a turn, with three of
//! the four corners of its box filled or outside the board, spins; fully if both corners
//! on its pointing side are, or if the turn took the fifth kick; a mini otherwise. Every
//! lock rated here is also rated by the model's `t_spin`, which the host calls when a T
//! locks, and the two must agree.

use tetrad_plugin_api::{step, Actions, Board, PieceKind, PiecePos, Rules, Step};

/// What a lock is, as the host scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Spin {
    None,
    Mini,
    Full,
}

/// The corners on the pointing side of a T's box, by state (up, right, down, left).
const FRONT: [[(i8, i8); 2]; 4] = [[(0, 0), (2, 0)], [(2, 0), (2, 2)], [(0, 2), (2, 2)], [(0, 0), (0, 2)]];

/// The spin of `kind` locking at `pos` on `board`, its last movement a turn with kick
/// `last_kick` (`None` if it was not a turn).
pub fn spin(board: &Board, kind: &PieceKind, pos: PiecePos, last_kick: Option<u8>) -> Spin {
    if kind.name() != "T" {
        return Spin::None;
    }
    let worth = restated(board, pos, last_kick);
    let scored = match tetrad_plugin_api::t_spin(board, pos, last_kick) {
        tetrad_plugin_api::Spin::None => Spin::None,
        tetrad_plugin_api::Spin::Mini => Spin::Mini,
        tetrad_plugin_api::Spin::Full => Spin::Full,
    };
    assert_eq!(worth, scored, "the host's rule at {pos:?}, kick {last_kick:?}");
    worth
}

fn restated(board: &Board, pos: PiecePos, last_kick: Option<u8>) -> Spin {
    let Some(kick) = last_kick else {
        return Spin::None;
    };
    let filled = |(dx, dy): (i8, i8)| {
        let (x, y) = (i32::from(pos.x + dx), i32::from(pos.y + dy));
        x < 0
            || y < 0
            || x >= board.width() as i32
            || y >= board.height() as i32
            || board.filled(x as usize, y as usize)
    };
    let corners = [(0, 0), (2, 0), (0, 2), (2, 2)]
        .into_iter()
        .filter(|&c| filled(c))
        .count();
    if corners < 3 {
        Spin::None
    } else if FRONT[usize::from(pos.orientation % 4)].into_iter().all(filled) || kick == 4 {
        Spin::Full
    } else {
        Spin::Mini
    }
}

/// The board cells a tetromino covers at `pos`, sorted: how two placements are
/// compared (I, S and Z cover the same cells from two states).
pub fn cells(kind: &PieceKind, pos: PiecePos) -> [(i8, i8); 4] {
    let shape = kind.orientation(pos.orientation).cells();
    let mut cells = [(0, 0); 4];
    for (cell, &(dx, dy)) in cells.iter_mut().zip(shape) {
        *cell = (pos.x + dx, pos.y + dy);
    }
    cells.sort_unstable();
    cells
}

/// What the host keeps of the falling piece's last movement after a tick: the kick of a
/// turn that neither a shift nor a fall followed, nothing after a shift or a fall, and
/// what it had when the tick moved nothing.
pub fn last_kick(before: Option<u8>, step: Step) -> Option<u8> {
    if step.shifted || step.fell {
        None
    } else if step.turned {
        Some(step.kick)
    } else {
        before
    }
}

/// Plays `path` from where `kind` enters `board`, as the host does, and returns where the
/// piece locked and what its lock is worth. Panics unless it locks on the last tick only.
pub fn play(rules: &Rules, board: &Board, kind: &PieceKind, path: &[Actions]) -> (PiecePos, Spin) {
    let (pos, kick) = play_from(rules, board, kind, rules.enter(board, kind), path);
    (pos, spin(board, kind, pos, kick))
}

/// Plays `path` from `start`, as the host does, and returns where the piece locked and the
/// kick of its last movement if that was a turn. Panics unless it locks on the last tick
/// only.
pub fn play_from(
    rules: &Rules,
    board: &Board,
    kind: &PieceKind,
    start: PiecePos,
    path: &[Actions],
) -> (PiecePos, Option<u8>) {
    let (mut pos, mut kick) = (start, None);
    for (tick, &actions) in path.iter().enumerate() {
        let result = step(rules, board, kind, &mut pos, actions);
        kick = last_kick(kick, result);
        assert_eq!(
            result.locked,
            tick + 1 == path.len(),
            "{path:?} locks on its last tick only"
        );
    }
    (pos, kick)
}
