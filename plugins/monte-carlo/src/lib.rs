//! `monte-carlo`: seed 003's pure Monte-Carlo agent, exactly as its appendix code
//! `doMCmove` defines it, on the `leiden` preset (the Kosters course skeleton).
//!
//! For the current piece, every move (in the skeleton's order, see [`skeleton`]) is tried
//! on a copy of the board and followed by `playouts` uniformly random games to their end
//! ([`sim`]). The move with the most rows cleared over its playouts wins; equal rows are
//! broken by the pieces placed, as the appendix does it ([`search::Ties`]). Comparing
//! totals over the same number of playouts is comparing means.
//!
//! Options:
//! - `playouts` (default 50): random games per move.
//! - `threads` (default: the cores available): threads running playouts. The choice does
//!   not depend on it: every playout has its own seed ([`search`]).
//! - `ties` (default `appendix`): `appendix` replicates the appendix's comparison,
//!   `means` is the plain "most rows, then most pieces".
//!
//! Only moves the host can carry out are tried ([`route`]): under `leiden` that excludes a
//! vertical I that cells in row 3 keep from its column. The playouts follow the skeleton,
//! where every move is always allowed.

#[path = "../../flat-stack/src/skeleton.rs"]
pub mod skeleton;

#[path = "../../flat-stack/src/route.rs"]
pub mod route;

pub mod search;
pub mod sim;

use route::{placement, Reach, Route, RouteActions};
use search::{pick, Candidate, Search, SoFar, Ties, Totals};
use sim::Sim;
use skeleton::MoveTable;
use tetrad_plugin_api::{
    derive_seed, Actions, Board, FallingPiece, GameSetup, Info, Options, PieceSet, Preset, Rules, Solver, Tick,
};

/// The Monte-Carlo agent.
#[derive(Debug)]
pub struct MonteCarlo {
    rules: Rules,
    pieces: PieceSet,
    table: MoveTable,
    hover_rows: usize,
    playouts: u32,
    threads: usize,
    ties: Ties,
    seed: u64,
    so_far: SoFar,
    all_moves: bool,
    path: Option<RouteActions>,
}

/// The move a decision picked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The skeleton's move number.
    pub number: usize,
    /// The engine orientation of the move.
    pub orientation: u8,
    /// The box column of the move.
    pub x: i8,
    /// The actions that get the piece there from its current position.
    pub route: Route,
    /// The move's totals over its playouts.
    pub totals: Totals,
    /// Rows the move itself clears.
    pub lines: u32,
}

impl Solver for MonteCarlo {
    const INFO: Info = Info {
        name: "monte-carlo",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "seed 003's pure Monte-Carlo agent: random playouts per move, most rows wins",
    };

    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String> {
        let playouts: u32 = options.get("playouts", 50)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads: usize = options.get("threads", cores)?;
        let ties = match options.get("ties", "appendix".to_string())?.as_str() {
            "appendix" => Ties::Appendix,
            "means" => Ties::Means,
            other => return Err(format!("option `ties`: `{other}` is not `appendix` or `means`")),
        };
        if playouts == 0 || threads == 0 {
            return Err("options `playouts` and `threads` must be at least 1".to_string());
        }
        let mut solver = MonteCarlo::new(setup, playouts)?;
        solver.threads = threads;
        solver.ties = ties;
        Ok(solver)
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        let Some(current) = tick.current else {
            return Actions::NONE;
        };
        if tick.new_piece || self.path.is_none() {
            let choice = self.choose(&tick.board, current);
            self.so_far.pieces += 1;
            self.so_far.rows += choice.as_ref().map_or(0, |c| u64::from(c.lines));
            self.path = choice.map(|c| c.route.into_actions());
        }
        self.path.as_mut().and_then(Iterator::next).unwrap_or(Actions::DROP)
    }
}

impl MonteCarlo {
    /// A solver for `setup` with `playouts` per move, one thread, the appendix's ties.
    pub fn new(setup: &GameSetup, playouts: u32) -> Result<MonteCarlo, String> {
        if setup.rules.preset != Preset::Leiden {
            return Err(format!(
                "monte-carlo plays seed 003's `leiden` preset only (got `{}`)",
                setup.rules.preset
            ));
        }
        Ok(MonteCarlo {
            rules: setup.rules,
            pieces: setup.pieces.clone(),
            table: MoveTable::new(&setup.pieces, setup.rules.width),
            hover_rows: route::hover_rows(setup),
            playouts,
            threads: 1,
            ties: Ties::Appendix,
            seed: setup.seed,
            so_far: SoFar::default(),
            all_moves: false,
            path: None,
        })
    }

    /// `doMCmove` for `piece` on `board`, given the game's counts so far (this solver's
    /// own, unless told otherwise with [`MonteCarlo::set_so_far`]).
    pub fn choose(&self, board: &Board, piece: FallingPiece) -> Option<Choice> {
        let kind = self.pieces.kind(piece.id);
        let moves = self.table.kind(piece.id.index());
        let hover_clear = self.all_moves || board.rows()[..self.hover_rows].iter().all(|&row| row == 0);
        let reach = (!hover_clear).then(|| Reach::new(&self.rules, board, kind, piece.pos));
        let candidates: Vec<Candidate<'_>> = moves
            .moves
            .iter()
            .enumerate()
            .map(|(number, mv)| Candidate {
                number,
                shape: &moves.shapes[usize::from(mv.shape)],
                column: usize::from(mv.column),
            })
            .filter(|c| {
                let x = c.column as i8 - c.shape.left;
                reach.as_ref().is_none_or(|r| r.contains(c.shape.orientation, x))
            })
            .collect();
        let search = Search {
            table: &self.table,
            kinds: self.pieces.len() as u32,
            playouts: self.playouts,
            seed: derive_seed(self.seed, self.so_far.pieces),
        };
        let sim = Sim::new(board.rows(), self.rules.width);
        let totals = search.all_totals(&sim, self.so_far, &candidates, self.threads);
        let index = pick(&totals, self.ties);
        let best = candidates.get(index)?;
        let mut after = sim;
        let x = best.column as i8 - best.shape.left;
        let route = match &reach {
            Some(reach) => reach.route(best.shape.orientation, x)?,
            None => Route::Direct(placement(kind, piece.pos, best.shape, best.column)),
        };
        Some(Choice {
            number: best.number,
            orientation: best.shape.orientation,
            x,
            route,
            totals: totals[index],
            lines: after.drop(best.shape, best.column),
        })
    }

    /// Sets the game's counts so far (for tests and for starting from a given position).
    pub fn set_so_far(&mut self, so_far: SoFar) {
        self.so_far = so_far;
    }

    /// Tries every one of the skeleton's moves, even those the host cannot carry out: for
    /// playing the skeleton's own rules outside the host.
    pub fn set_all_moves(&mut self, all: bool) {
        self.all_moves = all;
    }

    /// Sets the number of playout threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }
}

tetrad_plugin_api::export_solver!(MonteCarlo);

#[cfg(test)]
mod tests;
