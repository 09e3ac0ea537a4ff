//! A tight placement enumerator for the search: the same placements, in the same order,
//! as the shared `placements_into`, without replaying each path tick by tick.
//!
//! Under gravity a path is: one turn and/or shift per tick while the piece falls a row per
//! tick, DROP in the last of those ticks, then a lock tick (with the slide, if any). The
//! shared enumerator plays each path through the host's `step`; here the same checks are
//! made directly, and rows above the stack (all empty) are skipped at once. The
//! equivalence is tested on random boards. Presets without gravity use the shared code.

use tetrad_plugin_api::{placements_into, Board, Movement, Orientation, PieceKind, PiecePos, Placement, Rules};

/// Reusable enumeration state.
#[derive(Clone, Debug, Default)]
pub struct Enumerator {
    /// Whether each non-slide placement locked on its first, pure DROP tick (it was
    /// already resting at the start), which leaves no tick to slide in.
    early: Vec<bool>,
}

impl Enumerator {
    /// Writes into `out` the placements `placements_into` gives, leaving out the slides
    /// when `slides` is false (the seed slides only on a board with a hole).
    pub fn placements(
        &mut self,
        rules: &Rules,
        board: &Board,
        kind: &PieceKind,
        start: PiecePos,
        slides: bool,
        out: &mut Vec<Placement>,
    ) {
        if rules.movement() != Movement::Gravity {
            placements_into(rules, board, kind, start, out);
            if !slides {
                out.retain(|p| p.slide == 0);
            }
            return;
        }
        out.clear();
        self.early.clear();
        let sky = board.rows().iter().position(|&r| r != 0).unwrap_or(board.height()) as i32;
        let count = kind.orientations().len() as i8;
        for (index, shape) in kind.orientations().iter().enumerate() {
            let orientation = index as u8;
            let clockwise = (orientation as i8 - start.orientation as i8).rem_euclid(count);
            let turns = if clockwise * 2 <= count { clockwise } else { clockwise - count };
            let min_x = -shape.left();
            let max_x = board.width() as i8 - shape.left() - shape.width() as i8;
            for x in min_x..=max_x {
                if let Some((pos, early)) = settle(board, kind, start, turns, x, sky) {
                    out.push(Placement {
                        pos,
                        turns,
                        shifts: x - start.x,
                        slide: 0,
                    });
                    self.early.push(early);
                }
            }
        }
        if slides {
            self.add_slides(board, kind, out);
        }
    }

    /// Slides after the DROP, in the shared order: each base placement, left then right,
    /// kept where the slid piece fits and rests and no placement has that position yet.
    fn add_slides(&self, board: &Board, kind: &PieceKind, out: &mut Vec<Placement>) {
        let bases = out.len();
        for i in 0..bases {
            if self.early[i] {
                continue;
            }
            let base = out[i];
            let shape = kind.orientation(base.pos.orientation);
            for slide in [-1i8, 1] {
                let pos = PiecePos {
                    x: base.pos.x + slide,
                    ..base.pos
                };
                if !board.fits(shape, pos.x, pos.y) || !board.rests(shape, pos.x, pos.y) {
                    continue;
                }
                if out.iter().any(|p| p.pos == pos) {
                    continue;
                }
                out.push(Placement { pos, slide, ..base });
            }
        }
    }
}

/// Whether `shape` at `(x, y)` fits, knowing rows above `sky` are empty and the column
/// span is inside the walls.
#[inline]
fn fits_inside(board: &Board, shape: &Orientation, x: i8, y: i8, sky: i32) -> bool {
    let bottom = i32::from(y) + i32::from(shape.top()) + i32::from(shape.height());
    if bottom <= sky {
        return true;
    }
    board.fits(shape, x, y)
}

/// Where a DROP from `(x, y)` comes to rest.
#[inline]
fn drop_from(board: &Board, shape: &Orientation, x: i8, y: i8, sky: i32) -> i8 {
    let bottom = i32::from(y) + i32::from(shape.top()) + i32::from(shape.height());
    let y = if bottom < sky { y + (sky - bottom) as i8 } else { y };
    board.drop_row(shape, x, y)
}

/// Plays the non-slide path to column `x` with `turns` quarter turns, as the host would,
/// and returns where it locks and whether it locked early (see [`Enumerator`]); `None`
/// where a turn or shift is refused or the piece locks before its path ends.
fn settle(board: &Board, kind: &PieceKind, start: PiecePos, turns: i8, x: i8, sky: i32) -> Option<(PiecePos, bool)> {
    let shifts = x - start.x;
    let ticks = turns.unsigned_abs().max(shifts.unsigned_abs());
    let mut pos = start;
    if ticks == 0 {
        let shape = kind.orientation(pos.orientation);
        if !fits_inside(board, shape, pos.x, pos.y + 1, sky) {
            return Some((pos, true));
        }
        pos.y = drop_from(board, shape, pos.x, pos.y, sky);
        return Some((pos, false));
    }
    let (turn, shift) = (turns.signum(), shifts.signum());
    for tick in 1..=ticks {
        if tick <= turns.unsigned_abs() {
            let orientation = kind.turned(pos.orientation, turn);
            if !board.fits(kind.orientation(orientation), pos.x, pos.y) {
                return None;
            }
            pos.orientation = orientation;
        }
        let shape = kind.orientation(pos.orientation);
        if tick <= shifts.unsigned_abs() {
            if !board.fits(shape, pos.x + shift, pos.y) {
                return None;
            }
            pos.x += shift;
        }
        // Resting at the end of any of these ticks locks the piece before the path ends
        // (on the last, DROP shares the tick with a turn or shift, so it is not the early
        // lock the shared enumerator accepts).
        if !fits_inside(board, shape, pos.x, pos.y + 1, sky) {
            return None;
        }
        if tick < ticks {
            pos.y += 1;
        } else {
            pos.y = drop_from(board, shape, pos.x, pos.y, sky);
        }
    }
    Some((pos, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{placements, PieceSet, Preset, SeededRng};

    /// A random board: a ragged stack of random height with random holes, sometimes
    /// reaching the top rows, where paths get blocked and pieces lock early.
    fn random_board(rng: &mut SeededRng, width: usize, height: usize) -> Board {
        let mut board = Board::new(width, height);
        let top = rng.below(height as u32 + 1) as usize;
        for y in (height - top)..height {
            for x in 0..width {
                if rng.below(100) < 62 {
                    board.fill(x, y);
                }
            }
        }
        board.clear_full_rows();
        board
    }

    #[test]
    fn matches_the_shared_placements_on_random_boards() {
        let set = PieceSet::tetrominoes();
        let mut rng = SeededRng::new(7);
        let mut enumerator = Enumerator::default();
        let mut out = Vec::new();
        for (width, height) in [(10, 20), (6, 9), (12, 14)] {
            let rules = Rules {
                width,
                height,
                ..Rules::preset(Preset::Classic)
            };
            for _ in 0..300 {
                let board = random_board(&mut rng, width, height);
                for kind in set.kinds() {
                    let mut start = rules.spawn(kind);
                    // Sometimes start lower, turned, or off centre, as a piece in flight.
                    if rng.below(3) == 0 {
                        start.orientation = rng.below(kind.orientations().len() as u32) as u8;
                        start.x += rng.below(3) as i8 - 1;
                        start.y += rng.below(4) as i8;
                        if !board.fits(kind.orientation(start.orientation), start.x, start.y) {
                            continue;
                        }
                    }
                    let expected = placements(&rules, &board, kind, start);
                    enumerator.placements(&rules, &board, kind, start, true, &mut out);
                    assert_eq!(out, expected, "{board:?} {} from {start:?}", kind.name());
                    enumerator.placements(&rules, &board, kind, start, false, &mut out);
                    let no_slides: Vec<Placement> = expected.into_iter().filter(|p| p.slide == 0).collect();
                    assert_eq!(out, no_slides);
                }
            }
        }
    }

    #[test]
    fn presets_without_gravity_use_the_shared_enumeration() {
        let set = PieceSet::tetrominoes();
        let rules = Rules::preset(Preset::Simplified);
        let board = Board::new(10, 20);
        let mut out = Vec::new();
        let kind = &set.kinds()[2];
        Enumerator::default().placements(&rules, &board, kind, rules.spawn(kind), true, &mut out);
        assert_eq!(out, placements(&rules, &board, kind, rules.spawn(kind)));
    }
}
