//! The paths under gravity that meet the stack on the way, followed tick by tick as
//! [`step`](crate::model::motion::step) plays them, asking the column tables ([`Sky`]).

use super::Sky;
use crate::model::board::PiecePos;

/// In [`walk`]'s rows, a path that does not lock where it ends.
pub(super) const NO_ROW: i8 = i8::MIN;

/// Plays at once, tick by tick, the paths from `start` that turn `turns` times and shift
/// `k` columns in direction `way` with `k` from `|turns|` (at least 1) to `farthest`: they
/// shift at every tick, so they share every tick but their last, whose DROP lands the
/// piece (and the next tick locks it). `rows[k]` is where path `k` locks, [`NO_ROW`] where
/// a turn or shift is refused or the piece rests (and so locks) before its path ends.
pub(super) fn walk(sky: &Sky, start: PiecePos, turns: i8, way: i8, farthest: u8, rows: &mut [i8]) {
    let mut pos = start;
    let turn = turns.signum();
    for tick in 0..farthest {
        if tick < turns.unsigned_abs() {
            let orientation = sky.kind.turned(pos.orientation, turn);
            if !sky.fits(orientation, pos.x, pos.y) {
                return;
            }
            pos.orientation = orientation;
        }
        if !sky.fits(pos.orientation, pos.x + way, pos.y) {
            return;
        }
        pos.x += way;
        if sky.rests(pos.orientation, pos.x, pos.y) {
            return;
        }
        let k = tick + 1;
        if k >= turns.unsigned_abs() {
            rows[usize::from(k)] = sky.drop_row(pos.orientation, pos.x, pos.y);
        }
        pos.y += 1;
    }
}

/// Follows, tick by tick as [`step`](crate::model::motion::step) plays it, the path from
/// `start` that turns `turns` times and shifts `shifts` columns, with fewer shifts than
/// turns (or none): the row where it locks, or `None` where a turn or shift is refused
/// or the piece rests (and so locks) before its path ends.
pub(super) fn follow(sky: &Sky, start: PiecePos, turns: i8, shifts: i8) -> Option<i8> {
    let (turn, shift) = (turns.signum(), shifts.signum());
    let ticks = turns.unsigned_abs().max(shifts.unsigned_abs()).max(1);
    let mut pos = start;
    for tick in 0..ticks {
        if tick < turns.unsigned_abs() {
            let orientation = sky.kind.turned(pos.orientation, turn);
            if !sky.fits(orientation, pos.x, pos.y) {
                return None;
            }
            pos.orientation = orientation;
        }
        if tick < shifts.unsigned_abs() {
            if !sky.fits(pos.orientation, pos.x + shift, pos.y) {
                return None;
            }
            pos.x += shift;
        }
        let dropping = tick + 1 == ticks;
        if sky.rests(pos.orientation, pos.x, pos.y) {
            // A piece at rest locks on this tick: where the path ends with a DROP alone,
            // that is its lock; anywhere else the path is cut short.
            return (dropping && turns == 0 && shifts == 0).then_some(pos.y);
        }
        if dropping {
            return Some(sky.drop_row(pos.orientation, pos.x, pos.y));
        }
        pos.y += 1;
    }
    None
}
