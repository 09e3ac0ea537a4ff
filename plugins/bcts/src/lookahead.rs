//! The two-piece search: each placement of the current piece rated by the best value of a
//! placement of the previewed piece on the board it leaves.
//!
//! Design. The choice must be exactly the exhaustive search's: the first strict maximum,
//! in enumeration order, of the follow-up values. Under `simplified` (with weights the
//! bound covers) the first placements are dropped on the board's columns as the
//! one-piece search drops them, which gives each one's board features (the cumulative
//! wells at their floor: the bound needs none) and its one-piece value with those
//! features, at less than the cost of one one-piece decision. The few with the best such
//! value are then searched first, so a strong follow-up is found early, and a first
//! placement whose [`Bound`] (raised by its floating-point margin) cannot beat the best
//! follow-up so far under the tie rule is skipped: the bound covers every second
//! placement that clears no row, and the few that could clear a row are found and rated
//! exactly first. The winner is the best value with the lowest enumeration index, which
//! is the first strict maximum whatever order the values were found in.
//!
//! The board after a first placement that clears no row is the current board's columns
//! with the piece added ([`Columns::place`] on a copy of the window the board uses), not
//! a rebuild; the second piece is rated as the one-piece search rates its piece (by the
//! drops under `simplified`). Elsewhere every first placement is searched in order.

use crate::bound::Bound;
use crate::columns::Columns;
use crate::drops::Drops;
use crate::features::{BoardFeatures, Weights};
use crate::order::Order;
use crate::rater::{keep_best, Shape, Shapes};
#[cfg(test)]
use best::beaten;
use best::{keep, rank, Best, Cuts, INDEX_BITS, SORTED};
use tetrad_plugin_api::{placements_into, Board, PieceId, PieceKind, PiecePos, PieceSet, Placement, Rules};

/// What a two-piece search reads: the game's rules and pieces and the controller's tables.
pub(crate) struct Context<'a> {
    pub(crate) rules: &'a Rules,
    pub(crate) pieces: &'a PieceSet,
    pub(crate) shapes: &'a Shapes,
    pub(crate) drops: Option<&'a Drops>,
    pub(crate) weights: &'a Weights,
    pub(crate) order: Option<&'a Order>,
    /// The bound on follow-ups, when it holds for the weights.
    pub(crate) bound: Option<&'a Bound>,
}

/// The buffers a search reuses from one decision to the next.
pub(crate) struct Scratch {
    /// The board after the first placement, and its columns.
    board: Board,
    columns: Box<Columns>,
    first: Vec<Placement>,
    second: Vec<Placement>,
    candidates: Vec<Candidate>,
    /// The candidates' search order, as [`rank`]s.
    ranks: Vec<u64>,
}

/// A first placement as the pruned search holds it.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// Its place in the enumeration order, which decides ties.
    index: u32,
    placement: Placement,
    /// Its one-piece value with the wells at their floor, the order it is searched in
    /// (clearing rows first).
    first_value: f64,
    drop: FirstDrop,
}

/// What the drop of a first placement does.
#[derive(Clone, Copy, Debug)]
enum FirstDrop {
    /// It ends the game.
    Over,
    /// It clears rows.
    Clears,
    /// It clears no row: where its box lands, and the features of the board after it,
    /// the cumulative wells at their floor (the board's less those of the piece's
    /// columns).
    Open {
        left: usize,
        top: u32,
        features: BoardFeatures,
    },
}

/// A first placement that clears no row, as the search for second placements that clear
/// rows reads it: the board and its columns before it, and where it went.
struct First<'b> {
    board: &'b Board,
    columns: &'b Columns,
    /// Its piece, whose orientation at `pos` it is.
    kind: &'b PieceKind,
    pos: PiecePos,
    shape: &'b Shape,
    /// Where its box went.
    left: usize,
    top: u32,
    /// The features of the board after it.
    features: &'b BoardFeatures,
    /// The least landing height of a drop of the second piece after it.
    landing: f64,
}

impl First<'_> {
    /// Makes `after` the board after it.
    fn place(&self, after: &mut Board) {
        after.clone_from(self.board);
        after.place(self.kind.orientation(self.pos.orientation), self.pos.x, self.pos.y);
    }
}

/// The board after a first placement, as its follow-up reads it.
struct Second<'b> {
    board: &'b Board,
    columns: &'b Columns,
    next: PieceId,
    spawn: PiecePos,
    /// The most a bound on the follow-up can be and still lose to the best follow-up so
    /// far under the tie rule ([`Cuts`]), which decides whether a second placement could
    /// matter.
    cut: f64,
}

impl<'b> Second<'b> {
    /// `next` enters at `spawn`; a follow-up bounded by at most `cut` loses (see [`Cuts`]).
    fn new(board: &'b Board, columns: &'b Columns, (next, spawn): (PieceId, PiecePos), cut: f64) -> Second<'b> {
        Second {
            board,
            columns,
            next,
            spawn,
            cut,
        }
    }
}

/// Rows kept by the search for rows a second piece could clear (each row's missing cells
/// and its index); beyond them it tries every drop.
const GAPS: usize = 8;

impl Scratch {
    pub(crate) fn new() -> Scratch {
        Scratch {
            board: Board::new(1, 1),
            columns: Box::new(Columns::empty()),
            first: Vec::new(),
            second: Vec::new(),
            candidates: Vec::new(),
            ranks: Vec::new(),
        }
    }
}

impl Context<'_> {
    /// The first strictly best placement of `piece` from `start` on `board` (whose
    /// columns `columns` holds), each rated by its best follow-up with `next`.
    pub(crate) fn rate(
        &self,
        board: &Board,
        columns: &Columns,
        piece: PieceId,
        start: PiecePos,
        next: PieceId,
        scratch: &mut Scratch,
    ) -> Option<(f64, Placement)> {
        if self.bound.is_some() {
            if let Some(best) = self.rate_pruned(board, columns, piece, start, next, scratch) {
                return best;
            }
        }
        let Scratch {
            board: after,
            columns: after_columns,
            first,
            second,
            ..
        } = scratch;
        placements_into(self.rules, board, self.pieces.kind(piece), start, first);
        if let Some(order) = self.order {
            order.sort(piece, first);
        }
        let mut best = None;
        for placement in first.iter() {
            let value = if self.after(board, columns, piece, placement.pos, after, after_columns) {
                self.follow_up(after, after_columns, next, second)
            } else {
                f64::NEG_INFINITY
            };
            keep_best(&mut best, value, *placement);
        }
        best
    }

    /// [`Context::rate`] by the drops, best one-piece value first, skipping the first
    /// placements the bound rules out (see the module note); `None` when the drops or the
    /// bound do not apply (no bound, not `simplified`, not from the spawn, or a piece
    /// wider than four columns).
    fn rate_pruned(
        &self,
        board: &Board,
        columns: &Columns,
        piece: PieceId,
        start: PiecePos,
        next: PieceId,
        scratch: &mut Scratch,
    ) -> Option<Option<(f64, Placement)>> {
        let (bound, drops) = (self.bound?, self.drops?);
        let spawn = self.rules.spawn(self.pieces.kind(next));
        let (reaches, next_reaches) = (drops.from(piece, start)?, drops.from(next, spawn)?);
        let narrow = |piece: PieceId| self.shapes[piece.index()].iter().all(|s| s.columns.width <= 4);
        if !narrow(piece) || !narrow(next) {
            return None;
        }
        let Scratch {
            board: after,
            columns: after_columns,
            candidates,
            ranks,
            ..
        } = scratch;
        candidates.clear();
        for reach in reaches {
            self.drop_firsts(columns, piece, reach, start, candidates);
        }
        // The best `SORTED` first, in order; the index breaks ties, so the order is the
        // same on every platform. Ordered as plain integers, not the candidates
        // themselves (a few times the cost).
        ranks.clear();
        ranks.extend(candidates.iter().map(|c| rank(c.first_value, c.index)));
        if ranks.len() > SORTED {
            ranks.select_nth_unstable(SORTED);
            ranks[..SORTED].sort_unstable();
        } else {
            ranks.sort_unstable();
        }
        let (reach, landing) = self.reach(columns, board.width(), next, next_reaches, bound);
        let (kind, piece_shapes) = (self.pieces.kind(piece), &self.shapes[piece.index()]);
        let mut best: Best = None;
        let mut cuts = Cuts::new(&best);
        for &rank in ranks.iter() {
            // The low bits of a rank are its candidate's index, its place in the list.
            let candidate = &candidates[(rank & ((1 << INDEX_BITS) - 1)) as usize];
            let Candidate { index, placement, .. } = *candidate;
            let cut = cuts.of(index);
            let value = match candidate.drop {
                FirstDrop::Over => f64::NEG_INFINITY,
                FirstDrop::Clears => {
                    if self.after(board, columns, piece, placement.pos, after, after_columns) {
                        let second = Second::new(after, after_columns, (next, spawn), cut);
                        self.follow_up_within(&second, bound, next_reaches)
                    } else {
                        f64::NEG_INFINITY
                    }
                }
                FirstDrop::Open { left, top, features } => {
                    let pos = placement.pos;
                    let first = First {
                        board,
                        columns,
                        kind,
                        pos,
                        shape: &piece_shapes[usize::from(pos.orientation)],
                        left,
                        top,
                        features: &features,
                        landing,
                    };
                    let limit = bound.follow_up(&features, reach);
                    // The board after it is built only when it is searched, or when
                    // some second placement that clears rows needs rating.
                    if limit <= cut {
                        // Only a second placement that clears rows could do better.
                        let within = (next, spawn, cut);
                        let most = self.clearing_limit(&first, after, within, bound, next_reaches, limit);
                        if most <= cut {
                            continue;
                        }
                    }
                    first.place(after);
                    let shape = first.shape;
                    after_columns.copy_from(columns);
                    after_columns.place(&shape.columns, left, top);
                    let second = Second::new(after, after_columns, (next, spawn), cut);
                    self.follow_up_within(&second, bound, next_reaches)
                }
            };
            if keep(&mut best, value, index, placement) {
                cuts = Cuts::new(&best);
            }
        }
        Some(best.map(|(value, _, placement)| (value, placement)))
    }

    /// Whether the game goes on after `piece` at `pos` on `board`; if so, the board after
    /// it is in `after` and its columns in `into`: the board's `columns` with the piece
    /// added when it clears no row, else a rebuild.
    fn after(
        &self,
        board: &Board,
        columns: &Columns,
        piece: PieceId,
        pos: PiecePos,
        after: &mut Board,
        into: &mut Columns,
    ) -> bool {
        let orientation = self.pieces.kind(piece).orientation(pos.orientation);
        after.clone_from(board);
        if !after.place(orientation, pos.x, pos.y) {
            return false;
        }
        let shape = &self.shapes[piece.index()][usize::from(pos.orientation)];
        let top = (i32::from(pos.y) + i32::from(shape.top)) as usize;
        let full = after.full_row();
        let clears = after.rows()[top..top + shape.height].contains(&full);
        let lock = tetrad_plugin_api::Lock {
            lines: if clears { after.clear_full_rows() } else { 0 },
            above_board: false,
        };
        if self.rules.lock_ends_game(&lock, after) {
            return false;
        }
        if clears {
            into.rebuild(after);
        } else {
            into.copy_from(columns);
            let left = (i32::from(pos.x) + i32::from(shape.left)) as usize;
            into.place(&shape.columns, left, top as u32);
        }
        true
    }
}

mod best;
mod clearing;
mod firsts;
mod follow;

#[cfg(test)]
mod tests;
