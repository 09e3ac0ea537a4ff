//! `tree-search`: seed 004's player. It builds the tree of every locked position of the
//! current piece, then of each previewed piece from each of those, scores the leaves
//! with 20 h0 + h1 + h2 + h3 + h4 + h5 (lower is better), and plays the first move of
//! the best leaf. Any board size, preset and piece set.
//!
//! Options: `depth` (default 1 + preview; capped at the pieces the player can see),
//! `c0`..`c5` (the coefficients, default 20, 1, 1, 1, 1, 1).
//!
//! A leaf where a piece ends the game (locks above the board, or, under `leiden`, leaves
//! a cell in the lowest of the top three rows) scores worse than any other; among equal
//! scores the first in enumeration order wins.

mod heuristic;

pub use heuristic::{score, Measures, DEFAULT_COEFFICIENTS};

use tetrad_plugin_api::{
    placements_into, Actions, Board, GameSetup, Info, Options, Path, PieceId, PiecePos, Placement, Rules, Solver, Tick,
};

/// The tree-search player.
pub struct TreeSearch {
    setup: GameSetup,
    depth: usize,
    coefficients: [f64; 6],
    path: Option<Path>,
    /// One buffer of placements per tree level, reused between decisions.
    buffers: Vec<Vec<Placement>>,
}

impl Solver for TreeSearch {
    const INFO: Info = Info {
        name: "tree-search",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "seed 004: tree of locked positions, 20 h0 + h1 + ... + h5",
    };

    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String> {
        let visible = 1 + setup.rules.preview;
        let depth: usize = options.get("depth", visible)?;
        if depth == 0 {
            return Err("option `depth`: must be at least 1".to_string());
        }
        let mut coefficients = DEFAULT_COEFFICIENTS;
        for (i, key) in ["c0", "c1", "c2", "c3", "c4", "c5"].into_iter().enumerate() {
            coefficients[i] = options.get(key, coefficients[i])?;
        }
        Ok(TreeSearch {
            setup: setup.clone(),
            depth: depth.min(visible),
            coefficients,
            path: None,
            buffers: vec![Vec::new(); visible],
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if tick.new_piece || self.path.is_none() {
            let mut pieces = vec![current.id];
            pieces.extend(tick.next);
            pieces.truncate(self.depth);
            let movement = self.setup.rules.movement();
            self.path = self
                .best_first(&tick.board, current.pos, &pieces)
                .map(|p| p.path(movement));
        }
        self.path.as_mut().and_then(Iterator::next).unwrap_or(Actions::DROP)
    }
}

impl TreeSearch {
    /// The first-level placement whose subtree holds the best leaf.
    fn best_first(&mut self, board: &Board, start: PiecePos, pieces: &[PieceId]) -> Option<Placement> {
        let TreeSearch {
            setup,
            coefficients,
            buffers,
            ..
        } = self;
        let (first, deeper) = buffers.split_first_mut()?;
        let kind = setup.pieces.kind(pieces[0]);
        placements_into(&setup.rules, board, kind, start, first);
        let mut best: Option<(f64, Placement)> = None;
        for placement in first.iter() {
            let value = match lock(
                &setup.rules,
                board,
                kind.orientation(placement.pos.orientation),
                placement.pos,
            ) {
                None => f64::INFINITY,
                Some(after) => subtree(setup, coefficients, deeper, &after, &pieces[1..]),
            };
            if best.is_none_or(|(score, _)| value < score) {
                best = Some((value, *placement));
            }
        }
        best.map(|(_, placement)| placement)
    }
}

/// The best leaf score below `board` with `pieces` still to place; each level uses the
/// next of `buffers` for its placements.
fn subtree(
    setup: &GameSetup,
    coefficients: &[f64; 6],
    buffers: &mut [Vec<Placement>],
    board: &Board,
    pieces: &[PieceId],
) -> f64 {
    let Some((&piece, rest)) = pieces.split_first() else {
        return score(board, coefficients);
    };
    let Some((level, deeper)) = buffers.split_first_mut() else {
        return score(board, coefficients);
    };
    let rules = setup.rules;
    let kind = setup.pieces.kind(piece);
    placements_into(&rules, board, kind, rules.spawn(kind), level);
    let mut best = f64::INFINITY;
    for placement in level.iter() {
        if let Some(after) = lock(
            &rules,
            board,
            kind.orientation(placement.pos.orientation),
            placement.pos,
        ) {
            best = best.min(subtree(setup, coefficients, deeper, &after, rest));
        }
    }
    best
}

/// The board after locking, or `None` if this lock ends the game.
fn lock(rules: &Rules, board: &Board, shape: &tetrad_plugin_api::Orientation, pos: PiecePos) -> Option<Board> {
    let mut after = board.clone();
    let lock = after.lock(shape, pos.x, pos.y);
    (!rules.lock_ends_game(&lock, &after)).then_some(after)
}

tetrad_plugin_api::export_solver!(TreeSearch);

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{FallingPiece, PieceSet, Preset};

    fn solver(preview: usize, options: &str) -> TreeSearch {
        let rules = Rules {
            preview,
            ..Rules::preset(Preset::Classic)
        };
        let setup = GameSetup {
            rules,
            pieces: PieceSet::tetrominoes(),
            seed: 1,
        };
        TreeSearch::create(&setup, &mut Options::parse(options).unwrap()).unwrap()
    }

    #[test]
    fn depth_follows_the_preview_and_the_option() {
        assert_eq!(solver(1, "").depth, 2);
        assert_eq!(solver(0, "").depth, 1);
        assert_eq!(solver(1, "depth=1").depth, 1);
        assert_eq!(solver(0, "depth=3").depth, 1, "it cannot look past what it sees");
    }

    #[test]
    fn fills_the_well_that_clears_four_rows() {
        // Four rows full but for column 9: a vertical I there clears all four, leaving an
        // empty board, the best possible leaf.
        let mut ts = solver(0, "");
        let board = Board::from_text(10, 20, "#########.\n#########.\n#########.\n#########.");
        let i = PieceId(0);
        let rules = ts.setup.rules;
        let spawn = rules.spawn(ts.setup.pieces.kind(i));
        let best = ts.best_first(&board, spawn, &[i]).unwrap();
        assert_eq!((best.pos.orientation, best.pos.x + 2), (1, 9));
        let tick = Tick::new(board, Some(FallingPiece { id: i, pos: spawn }), None, true);
        assert!(!ts.update(&tick).is_violation());
    }
}
