//! Every placement a piece can reach under the guideline's movement: turns with SRS
//! kicks, shifts and soft drop, from where it enters, each with the per-tick actions that
//! reach it. Spins and tucks included.
//!
//! Design. What a lock is worth depends on more than where the piece locks: the host
//! scores a T-spin by whether the last move was a turn, and full rather than mini if that
//! turn took the fifth kick. So a placement is the resting position together with how it
//! was entered: by a drop or shift, by a turn, or by a turn through the fifth kick. A
//! position first entered one way may be entered another way later in the search (a T
//! dropped into a notch, then the same notch turned into); each way is a placement of its
//! own, with a path that ends in that very move, so every spin the host would score is
//! found as that spin.
//!
//! Where the piece goes next does not depend on how it got where it is, so each position
//! is searched once, breadth first, every move played with the model's own [`step`] (a
//! path found is a path the host plays). A later way into a position already searched
//! only adds a placement, if the position rests there and that way is new; those come
//! after the placements in the order the positions were searched, so a caller that keeps
//! the first of equal placements keeps what it chose before spins were told apart.
//! Positions, and the ways into each, are marked in a table indexed by position, so
//! telling a new placement from one found costs one look, not a pass over the list found
//! (which grows with the board). Single moves are searched (left, right, clockwise,
//! counter-clockwise, soft drop); a path is then packed into ticks in the order a tick
//! applies them (turn, shift, drop), which plays the very same moves in fewer ticks.
//! Breadth first, so each placement's path has the fewest moves.

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

/// A position searched, with how it was first reached.
struct Node {
    pos: PiecePos,
    parent: usize,
    action: Actions,
    /// The move that reached it was a turn, with this kick.
    kick: Option<u8>,
}

/// A move into a position searched before, a way in not yet taken: a placement if the
/// position rests.
struct Later {
    parent: usize,
    action: Actions,
    pos: PiecePos,
    kick: Option<u8>,
}

/// Every placement of `kind` reachable from `start` on `board` under `rules`: those of
/// the positions in the order searched, then those of later ways into them (see the
/// module note). Meant for the guideline preset (under the others, soft drop does nothing
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
    seen.search(start, None);
    let mut later: Vec<Later> = Vec::new();
    let mut out: Vec<Reached> = Vec::new();
    let mut next = 0;
    while next < nodes.len() {
        let pos = nodes[next].pos;
        let shape = kind.orientation(pos.orientation);
        // Locking from here: at rest, entered as it was; in the air, a hard drop.
        let mut landed = pos;
        landed.y = board.drop_row(shape, pos.x, pos.y);
        let last_kick = nodes[next].kick.filter(|_| landed == pos);
        if seen.place(landed, last_kick) {
            out.push(Reached {
                pos: landed,
                last_kick,
                path: path(&nodes, next, None),
            });
        }
        for action in MOVES {
            let mut moved = pos;
            let result = step(rules, board, kind, &mut moved, action);
            if moved == pos {
                continue;
            }
            // One move a tick: it turned, or it shifted or fell, which the host's spin
            // rule reads as no turn.
            let kick = result.turned.then_some(result.kick);
            if seen.search(moved, kick) {
                nodes.push(Node {
                    pos: moved,
                    parent: next,
                    action,
                    kick,
                });
            } else if seen.enter(moved, kick) {
                later.push(Later {
                    parent: next,
                    action,
                    pos: moved,
                    kick,
                });
            }
        }
        next += 1;
    }
    for way in later {
        let shape = kind.orientation(way.pos.orientation);
        if board.rests(shape, way.pos.x, way.pos.y) && seen.place(way.pos, way.kick) {
            out.push(Reached {
                pos: way.pos,
                last_kick: way.kick,
                path: path(&nodes, way.parent, Some(way.action)),
            });
        }
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
    /// came in as a new piece, where it enters ([`Rules::enter`]).
    pub held: bool,
    /// Where it locks, and the path there.
    pub reached: Reached,
}

/// Every placement of the falling piece `current` (from `start`), and, if a hold now
/// would bring in `swap` (the held piece, or else the next one: see
/// [`Tick::hold_swap`](crate::Tick::hold_swap)), every placement of `swap` after a hold,
/// from where it enters as the host brings it in. A `swap` of the same kind as `current`
/// adds nothing and is not searched.
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
            reachable(rules, board, kind, rules.enter(board, kind))
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

/// The moves to node `index`, then `last` if given, packed into ticks, and the DROP
/// that locks.
fn path(nodes: &[Node], index: usize, last: Option<Actions>) -> Vec<Actions> {
    let mut moves: Vec<Actions> = last.into_iter().collect();
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

/// The positions searched and the ways into them taken, one byte of flags for each
/// position (orientation, row, column).
struct Seen {
    flags: Vec<u8>,
    rows: usize,
    columns: usize,
}

/// Pieces may hang this far over the walls and the top (their boxes' corners outside).
const MARGIN: i8 = 8;
/// The position was searched.
const SEARCHED: u8 = 1;
/// A way in (see [`way`]) was taken: shifted by the way's number.
const ENTERED: u8 = 2;
/// A placement was made of it entered that way: shifted by the way's number.
const PLACED: u8 = 16;

/// The ways into a position the host's spin rule tells apart: a drop or shift (0), a
/// turn (1), a turn through the fifth kick (2).
fn way(kick: Option<u8>) -> u8 {
    match kick {
        None => 0,
        Some(4) => 2,
        Some(_) => 1,
    }
}

impl Seen {
    fn new(kind: &PieceKind, board: &Board) -> Seen {
        let rows = board.height() + 2 * MARGIN as usize;
        let columns = board.width() + 2 * MARGIN as usize;
        Seen {
            flags: vec![0; kind.orientations().len() * rows * columns],
            rows,
            columns,
        }
    }

    #[inline]
    fn flags(&mut self, pos: PiecePos) -> &mut u8 {
        let row = (i32::from(pos.y) + i32::from(MARGIN)) as usize;
        let column = (i32::from(pos.x) + i32::from(MARGIN)) as usize;
        &mut self.flags[(usize::from(pos.orientation) * self.rows + row) * self.columns + column]
    }

    /// Marks `pos` searched, entered by `kick`'s way; false if it already was searched.
    #[inline]
    fn search(&mut self, pos: PiecePos, kick: Option<u8>) -> bool {
        let flags = self.flags(pos);
        let fresh = *flags & SEARCHED == 0;
        if fresh {
            *flags |= SEARCHED | ENTERED << way(kick);
        }
        fresh
    }

    /// Marks `pos` entered by `kick`'s way; false if it already was.
    #[inline]
    fn enter(&mut self, pos: PiecePos, kick: Option<u8>) -> bool {
        let bit = ENTERED << way(kick);
        let flags = self.flags(pos);
        let fresh = *flags & bit == 0;
        *flags |= bit;
        fresh
    }

    /// Marks a placement at `pos` entered by `kick`'s way made; false if it already was.
    #[inline]
    fn place(&mut self, pos: PiecePos, kick: Option<u8>) -> bool {
        let bit = PLACED << way(kick);
        let flags = self.flags(pos);
        let fresh = *flags & bit == 0;
        *flags |= bit;
        fresh
    }
}
