//! Every placement a piece can reach under the guideline's movement: turns with SRS
//! kicks, shifts and soft drop, from where it spawns, each with the per-tick actions that
//! reach it. Spins and tucks included: a placement reached by a turn into a resting
//! position is kept apart from the same position reached by a drop, since only the first
//! can be a T-spin.
//!
//! Design. A breadth-first search over the piece's positions, every step played with the
//! model's own [`step`], so a path found is a path the host plays. Single moves are
//! searched (left, right, clockwise, counter-clockwise, soft drop); the path is then packed
//! into ticks in the order a tick applies them (turn, shift, drop), which plays the very
//! same moves in fewer ticks. Breadth first, so each placement's path has the fewest
//! moves.

use super::board::{Board, PiecePos};
use super::motion::{step, Actions};
use super::piece::{PieceId, PieceKind, PieceSet};
use super::rules::Rules;

/// A placement found by [`reachable`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// Where the piece locks.
    pub pos: PiecePos,
    /// If the last move into this resting position was a turn, which kick it took (its
    /// index in the rotation system's list): the piece locks without moving after it, as
    /// a T-spin needs. `None` if it dropped here.
    pub last_kick: Option<u8>,
    /// The actions to return, tick by tick; the last one holds DROP and locks the piece.
    pub path: Vec<Actions>,
}

/// The single moves searched.
const MOVES: [Actions; 5] = [
    Actions::LEFT,
    Actions::RIGHT,
    Actions::CW,
    Actions::CCW,
    Actions::SOFT_DROP,
];

/// A position searched, with how it was reached.
struct Node {
    pos: PiecePos,
    parent: usize,
    action: Actions,
    /// The move that reached it was a turn, with this kick.
    kick: Option<u8>,
}

/// Every placement of `kind` reachable from `start` on `board` under `rules`, in the
/// order found. Meant for the guideline preset (under the others, soft drop does nothing
/// and turns do not kick, so it finds the placements of a turn, shift and drop path).
pub fn reachable(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Vec<Reached> {
    if !board.fits(kind.orientation(start.orientation), start.x, start.y) {
        return Vec::new();
    }
    let mut nodes = vec![Node {
        pos: start,
        parent: usize::MAX,
        action: Actions::NONE,
        kick: None,
    }];
    let mut seen = Seen::new(kind, board);
    seen.insert(start);
    let mut out: Vec<Reached> = Vec::new();
    let mut next = 0;
    while next < nodes.len() {
        let pos = nodes[next].pos;
        let shape = kind.orientation(pos.orientation);
        let resting = board.rests(shape, pos.x, pos.y);
        // Locking from here: a hard drop, or at rest after a turn, a spin candidate.
        let mut landed = pos;
        landed.y = board.drop_row(shape, pos.x, pos.y);
        let last_kick = nodes[next].kick.filter(|_| resting);
        if !out
            .iter()
            .any(|r| r.pos == landed && r.last_kick.is_some() == last_kick.is_some())
        {
            out.push(Reached {
                pos: landed,
                last_kick,
                path: path(&nodes, next),
            });
        }
        for action in MOVES {
            let mut moved = pos;
            let result = step(rules, board, kind, &mut moved, action);
            if moved != pos && seen.insert(moved) {
                nodes.push(Node {
                    pos: moved,
                    parent: next,
                    action,
                    kick: result.turned.then_some(result.kick),
                });
            }
        }
        next += 1;
    }
    out
}

/// A placement found by [`reachable_with_hold`]: of the falling piece, or of the piece a
/// hold brings in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoldReached {
    /// The piece that locks.
    pub piece: PieceId,
    /// Whether it is reached through a hold: `reached.path` then starts with
    /// [`Actions::HOLD`], a tick of its own, after which the host shows the piece that
    /// came in as a new piece, at its spawn.
    pub held: bool,
    /// Where it locks, and the path there.
    pub reached: Reached,
}

/// Every placement of the falling piece `current` (from `start`), and, if a hold now
/// would bring in `swap` (the held piece, or else the next one: see
/// [`Tick::hold_swap`](crate::Tick::hold_swap)), every placement of `swap` from its spawn
/// after a hold. A `swap` of the same kind as `current` adds nothing and is not searched.
pub fn reachable_with_hold(
    rules: &Rules,
    board: &Board,
    pieces: &PieceSet,
    current: PieceId,
    start: PiecePos,
    swap: Option<PieceId>,
) -> Vec<HoldReached> {
    let mut out: Vec<HoldReached> = reachable(rules, board, pieces.kind(current), start)
        .into_iter()
        .map(|reached| HoldReached {
            piece: current,
            held: false,
            reached,
        })
        .collect();
    if let Some(swap) = swap.filter(|&swap| swap != current) {
        let kind = pieces.kind(swap);
        out.extend(
            reachable(rules, board, kind, rules.spawn(kind))
                .into_iter()
                .map(|mut reached| {
                    reached.path.insert(0, Actions::HOLD);
                    HoldReached {
                        piece: swap,
                        held: true,
                        reached,
                    }
                }),
        );
    }
    out
}

/// The moves to node `index`, packed into ticks, and the DROP that locks it.
fn path(nodes: &[Node], index: usize) -> Vec<Actions> {
    let mut moves = Vec::new();
    let mut at = index;
    while nodes[at].parent != usize::MAX {
        moves.push(nodes[at].action);
        at = nodes[at].parent;
    }
    moves.reverse();
    moves.push(Actions::DROP);
    let mut ticks: Vec<Actions> = Vec::with_capacity(moves.len());
    for action in moves {
        // A tick turns, then shifts, then drops: a move joins the last tick if nothing
        // that comes after it in that order is there yet.
        let joins = ticks.last().is_some_and(|&tick| {
            let later = match action {
                a if a.turn() != 0 => Actions(Actions::LEFT.0 | Actions::RIGHT.0 | Actions::CW.0 | Actions::CCW.0),
                a if a.shift() != 0 => Actions(Actions::LEFT.0 | Actions::RIGHT.0),
                _ => Actions::NONE,
            } | Actions::SOFT_DROP
                | Actions::DROP;
            tick.0 & later.0 == 0
        });
        match ticks.last_mut() {
            Some(tick) if joins => *tick |= action,
            _ => ticks.push(action),
        }
    }
    ticks
}

/// The positions searched: one bit per column offset, for each orientation and row.
struct Seen {
    /// Columns are stored from `x + MARGIN`, so a piece hanging over the left wall (its
    /// box's x negative) still has a bit.
    bits: Vec<u64>,
    rows: usize,
}

const MARGIN: i8 = 8;

impl Seen {
    fn new(kind: &PieceKind, board: &Board) -> Seen {
        let rows = board.height() + 2 * MARGIN as usize;
        Seen {
            bits: vec![0; kind.orientations().len() * rows],
            rows,
        }
    }

    /// Marks `pos` seen; false if it already was.
    fn insert(&mut self, pos: PiecePos) -> bool {
        let row = (i32::from(pos.y) + i32::from(MARGIN)) as usize;
        let bit = 1u64 << (i32::from(pos.x) + i32::from(MARGIN));
        let word = &mut self.bits[usize::from(pos.orientation) * self.rows + row];
        let fresh = *word & bit == 0;
        *word |= bit;
        fresh
    }
}
