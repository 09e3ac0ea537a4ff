//! Getting a piece to its move with the host's movement: the actions, tick by tick.
//!
//! While the rows a piece hovers in are empty, every move is reached directly: turn and
//! shift together, one step per tick, DROP on the last ([`placement`]). Under `leiden`
//! pieces hover in the 3 top rows (a vertical I with its bottom on row 2), which are empty
//! while the game goes on, so that covers every move. Should cells ever lie where a piece
//! hovers, [`Reach`] finds every hover position that the engine's own `step` can get to by
//! any sequence of turns and shifts, with the fewest ticks to each.

use crate::skeleton::Shape;
use tetrad_plugin_api::{step, Actions, Board, Movement, Path, PieceKind, PiecePos, Placement, Rules, MAX_PIECE_SIZE};

/// The rows a hovering piece can occupy: the three top rows under `leiden` (a piece
/// hovers with its bottom cell on row 2), else as many rows as the tallest piece.
pub fn hover_rows(setup: &tetrad_plugin_api::GameSetup) -> usize {
    let rows = match setup.rules.preset {
        tetrad_plugin_api::Preset::Leiden => Rules::LEIDEN_TOP_ROWS,
        _ => usize::from(setup.pieces.max_extent().1),
    };
    rows.min(setup.rules.height)
}

/// The placement of `shape` with its leftmost cells in `column`, reached from `start` by
/// the fewest quarter turns (clockwise on a tie) and shifts. `pos.y` is not used.
pub fn placement(kind: &PieceKind, start: PiecePos, shape: &Shape, column: usize) -> Placement {
    let count = kind.orientations().len() as i8;
    let clockwise = (shape.orientation as i8 - start.orientation as i8).rem_euclid(count);
    let turns = if clockwise * 2 <= count {
        clockwise
    } else {
        clockwise - count
    };
    let x = column as i8 - shape.left;
    Placement {
        pos: PiecePos {
            orientation: shape.orientation,
            x,
            y: start.y,
        },
        turns,
        shifts: x - start.x,
        slide: 0,
    }
}

/// The actions that bring a piece to its move and drop it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Turns and shifts together, DROP on the last tick: a [`Placement`]'s path.
    Direct(Placement),
    /// A path found by [`Reach`], one entry per tick, DROP in the last.
    Found(Vec<Actions>),
}

impl Route {
    /// The actions, one per tick.
    pub fn into_actions(self) -> RouteActions {
        match self {
            Route::Direct(placement) => RouteActions::Direct(placement.path(Movement::DropOnly)),
            Route::Found(actions) => RouteActions::Found(actions.into_iter()),
        }
    }
}

/// A route's actions, tick by tick.
#[derive(Clone, Debug)]
pub enum RouteActions {
    /// Of a [`Route::Direct`].
    Direct(Path),
    /// Of a [`Route::Found`].
    Found(std::vec::IntoIter<Actions>),
}

impl Iterator for RouteActions {
    type Item = Actions;

    fn next(&mut self) -> Option<Actions> {
        match self {
            RouteActions::Direct(path) => path.next(),
            RouteActions::Found(actions) => actions.next(),
        }
    }
}

/// Box columns a hover position may have: the board's, and a piece's box beyond each side.
const X_OFFSET: i32 = MAX_PIECE_SIZE as i32;

/// Every hover position (orientation, box x) the host's movement can bring a piece to
/// before its DROP, and the fewest ticks to each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    slots: usize,
    /// Per position: the position it was first reached from and that tick's actions (the
    /// start refers to itself); `None` if unreachable.
    prev: Vec<Option<(u16, Actions)>>,
}

impl Reach {
    /// Searches from `start` with every turn and shift, played by the engine's `step`.
    pub fn new(rules: &Rules, board: &Board, kind: &PieceKind, start: PiecePos) -> Reach {
        let slots = rules.width + 2 * X_OFFSET as usize;
        let mut reach = Reach {
            slots,
            prev: vec![None; slots * kind.orientations().len()],
        };
        let Some(first) = reach.slot(start.orientation, start.x) else {
            return reach;
        };
        reach.prev[first] = Some((first as u16, Actions::NONE));
        let mut queue = vec![(first, start)];
        let mut head = 0;
        while let Some(&(from, pos)) = queue.get(head) {
            head += 1;
            for (turn, shift) in [(0, -1), (0, 1), (1, 0), (-1, 0), (1, -1), (1, 1), (-1, -1), (-1, 1)] {
                let actions = Actions::turning(turn) | Actions::shifting(shift);
                let mut next = pos;
                let done = step(rules, board, kind, &mut next, actions);
                if done.turned != (turn != 0) || done.shifted != (shift != 0) || done.locked {
                    continue;
                }
                if let Some(to) = reach.slot(next.orientation, next.x) {
                    if reach.prev[to].is_none() {
                        reach.prev[to] = Some((from as u16, actions));
                        queue.push((to, next));
                    }
                }
            }
        }
        reach
    }

    fn slot(&self, orientation: u8, x: i8) -> Option<usize> {
        let x = i32::from(x) + X_OFFSET;
        (0..self.slots as i32)
            .contains(&x)
            .then(|| usize::from(orientation) * self.slots + x as usize)
    }

    /// Whether the piece can hover in `orientation` at box column `x`.
    pub fn contains(&self, orientation: u8, x: i8) -> bool {
        self.slot(orientation, x)
            .and_then(|slot| self.prev.get(slot).copied().flatten())
            .is_some()
    }

    /// The actions to hover there and drop, if the piece can get there.
    pub fn route(&self, orientation: u8, x: i8) -> Option<Route> {
        let mut slot = self.slot(orientation, x)?;
        let mut actions = Vec::new();
        loop {
            let (from, tick) = self.prev.get(slot).copied().flatten()?;
            if usize::from(from) == slot {
                break;
            }
            actions.push(tick);
            slot = usize::from(from);
        }
        actions.reverse();
        match actions.last_mut() {
            Some(last) => *last |= Actions::DROP,
            None => actions.push(Actions::DROP),
        }
        Some(Route::Found(actions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{PieceId, PieceSet, Preset};

    #[test]
    fn a_vertical_i_hovers_above_the_well_so_row_three_never_blocks_it() {
        // 10x10 (rows 3-9 are the well):
        //   row 3     ....###...
        //   rows 4-9  .#########
        // Under `leiden` a piece hovers with its bottom cell on row 2, above the well, as
        // the skeleton places it: the vertical I spans rows -1 to 2, so the cells in row 3
        // stop neither its turn nor its shifts. Every column is reachable, column 0 (box
        // x -2, five shifts from the entry) in five ticks.
        let rules = Rules {
            width: 10,
            height: 10,
            ..Rules::preset(Preset::Leiden)
        };
        let mut drawing = vec!["....###..."];
        drawing.extend([".#########"; 6]);
        let board = Board::from_text(10, 10, &drawing.join("\n"));
        let set = PieceSet::tetrominoes();
        let i = set.kind(PieceId(0));
        let start = rules.spawn(i);
        let reach = Reach::new(&rules, &board, i, start);
        assert!((-2..=7).all(|x| reach.contains(1, x)), "every column of the vertical I");
        assert!((0..=6).all(|x| reach.contains(0, x)), "every column of the flat I");
        let route = reach.route(1, -2).expect("column 0 is reachable");
        // Five ticks, the fewest: five shifts, the turn in one of them, DROP in the last.
        let Route::Found(ticks) = &route else {
            panic!("a path, not {route:?}")
        };
        assert_eq!(ticks.len(), 5);
        assert!(ticks.iter().all(|t| t.contains(Actions::LEFT)));
        assert_eq!(ticks.iter().filter(|t| t.contains(Actions::CW)).count(), 1);
        assert!(ticks[4].contains(Actions::DROP));
        let mut pos = start;
        let mut locked = false;
        for tick in route.into_actions() {
            locked = step(&rules, &board, i, &mut pos, tick).locked;
        }
        assert!(locked && (pos.orientation, pos.x) == (1, -2));
        // The I lands on the floor of column 0 and completes rows 6-9.
        assert_eq!(pos.y, 6 - i.orientation(1).top());
    }
}
