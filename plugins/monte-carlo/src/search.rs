//! `doMCmove`: every candidate's playouts, run in parallel and seeded per playout, and the
//! appendix's choice among the candidates.
//!
//! Each playout copies the game (`Tetris copy = *this`), plays the candidate
//! (`dothemove`), then a random game to its end (`playrandomgame`), and adds the copy's
//! `rowscleared` and `piececount` to the candidate's totals. The copy carries the game's
//! counts so far, so every playout adds the rows cleared earlier in the game, the
//! candidate's own rows, and the playout's; and the pieces placed earlier, the candidate
//! piece itself (`letitfall` counts it), and the playout's pieces. [`SoFar`] holds those
//! counts.
//!
//! Playout `p` of candidate move `m` at the game's piece `n` draws from
//! `derive_seed(derive_seed(derive_seed(plugin seed, n), m), p)`, and totals are combined
//! in candidate order, so the choice is the same for any number of threads.

use crate::sim::Sim;
use crate::skeleton::{MoveTable, Shape};
use std::sync::atomic::{AtomicUsize, Ordering};
use tetrad_plugin_api::{derive_seed, SeededRng};

/// One move to try: its skeleton number and where it goes.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// The skeleton's move number (also the playouts' seed stream).
    pub number: usize,
    /// The piece orientation.
    pub shape: &'a Shape,
    /// The column of its leftmost cells.
    pub column: usize,
}

/// The game's counts before this move, which `Tetris copy = *this` carries into every
/// playout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoFar {
    /// `rowscleared` so far.
    pub rows: u64,
    /// `piececount` so far (pieces placed, not counting the current one).
    pub pieces: u64,
}

/// A candidate's sums over its playouts: `totalrowscleared` and `totalmoves`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Sum of the copies' `rowscleared`.
    pub rows: u64,
    /// Sum of the copies' `piececount`.
    pub moves: u64,
}

/// How the best candidate is picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// Exactly the appendix: a candidate wins with strictly more total rows, or with
    /// equal total rows and strictly more total moves than `mostmoves`, where
    /// `mostmoves` changes only on such a tie win (so after a win on rows, the next tie
    /// on rows wins whatever its moves). `bestmove` starts at 0.
    Appendix,
    /// Most total rows, then most total moves; the first such candidate.
    Means,
}

/// The playouts of one decision.
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    /// The moves of every kind.
    pub table: &'a MoveTable,
    /// How many piece kinds the random games draw from.
    pub kinds: u32,
    /// Playouts per candidate.
    pub playouts: u32,
    /// This decision's seed: the plugin's seed and the game's piece number.
    pub seed: u64,
}

impl Search<'_> {
    /// One candidate's totals.
    pub fn totals(&self, board: &Sim, so_far: SoFar, candidate: &Candidate<'_>) -> Totals {
        let mut after = *board;
        let lines = u64::from(after.drop(candidate.shape, candidate.column));
        let rows_each = so_far.rows + lines;
        let moves_each = so_far.pieces + 1;
        let playouts = u64::from(self.playouts);
        let mut totals = Totals {
            rows: rows_each * playouts,
            moves: moves_each * playouts,
        };
        if after.ended() {
            // playrandomgame's loop does not run.
            return totals;
        }
        let seed = derive_seed(self.seed, candidate.number as u64);
        for playout in 0..self.playouts {
            let mut sim = after;
            let mut rng = SeededRng::new(derive_seed(seed, u64::from(playout)));
            let (rows, pieces) = sim.play_random(self.table, self.kinds, &mut rng);
            totals.rows += rows;
            totals.moves += pieces;
        }
        totals
    }

    /// Every candidate's totals, in candidate order, using up to `threads` threads.
    pub fn all_totals(&self, board: &Sim, so_far: SoFar, candidates: &[Candidate<'_>], threads: usize) -> Vec<Totals> {
        let threads = threads.min(candidates.len());
        if threads <= 1 {
            return candidates.iter().map(|c| self.totals(board, so_far, c)).collect();
        }
        let next = AtomicUsize::new(0);
        let mut out = vec![Totals::default(); candidates.len()];
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(candidate) = candidates.get(i) else { break };
                            done.push((i, self.totals(board, so_far, candidate)));
                        }
                        done
                    })
                })
                .collect();
            for worker in workers {
                let done = worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                for (i, totals) in done {
                    out[i] = totals;
                }
            }
        });
        out
    }
}

/// The index of the candidate `doMCmove` plays (see [`Ties`]); 0 for no candidates.
pub fn pick(totals: &[Totals], ties: Ties) -> usize {
    let mut best = 0;
    match ties {
        Ties::Appendix => {
            let (mut most_rows, mut most_moves) = (0, 0);
            for (i, t) in totals.iter().enumerate() {
                if t.rows > most_rows {
                    most_rows = t.rows;
                    best = i;
                } else if t.rows == most_rows && t.moves > most_moves {
                    most_moves = t.moves;
                    best = i;
                }
            }
        }
        Ties::Means => {
            for (i, t) in totals.iter().enumerate() {
                if (t.rows, t.moves) > (totals[best].rows, totals[best].moves) {
                    best = i;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrad_plugin_api::{Board, PieceSet};

    fn totals(list: &[(u64, u64)]) -> Vec<Totals> {
        list.iter().map(|&(rows, moves)| Totals { rows, moves }).collect()
    }

    #[test]
    fn the_appendix_breaks_ties_by_moves_against_a_stale_mostmoves() {
        // (5,10): 5 > 0 rows -> best 0, mostmoves stays 0. (5,30): tie, 30 > 0 -> best 1,
        // mostmoves 30. (5,20): tie, 20 < 30 -> stays 1. Both rules agree.
        let t = totals(&[(5, 10), (5, 30), (5, 20)]);
        assert_eq!((pick(&t, Ties::Appendix), pick(&t, Ties::Means)), (1, 1));
        // (3,100) wins on rows, leaving mostmoves at 0, so (3,50) wins the tie although
        // it has fewer moves. The clean rule keeps (3,100).
        let t = totals(&[(3, 100), (3, 50)]);
        assert_eq!((pick(&t, Ties::Appendix), pick(&t, Ties::Means)), (1, 0));
        // (0,40), (0,60) win ties against mostmoves 0 then 40; (2,10) wins on rows;
        // (2,5) loses the tie against mostmoves 60.
        let t = totals(&[(0, 40), (0, 60), (2, 10), (2, 5)]);
        assert_eq!((pick(&t, Ties::Appendix), pick(&t, Ties::Means)), (2, 2));
        assert_eq!(pick(&[], Ties::Appendix), 0);
    }

    fn setup() -> (MoveTable, Board) {
        let table = MoveTable::new(&PieceSet::tetrominoes(), 10);
        let board = Board::from_text(10, 10, "..##......\n#.###..#.#\n#####.####");
        (table, board)
    }

    #[test]
    fn a_candidate_that_ends_the_game_counts_only_the_game_so_far_and_itself() {
        // 10 playouts of an O dropped onto a column filled up to row 3: game over at once.
        // Each copy has the game's 7 rows and 20 pieces, plus the O: 7 and 21, times 10.
        let table = MoveTable::new(&PieceSet::tetrominoes(), 10);
        let board = Board::from_text(
            10,
            10,
            "#.........\n#.........\n#.........\n#.........\n#.........\n#.........\n#.........",
        );
        let search = Search {
            table: &table,
            kinds: 7,
            playouts: 10,
            seed: 1,
        };
        let o = Candidate {
            number: 0,
            shape: &table.kind(1).shapes[0],
            column: 0,
        };
        let so_far = SoFar { rows: 7, pieces: 20 };
        let got = search.totals(&Sim::new(board.rows(), 10), so_far, &o);
        assert_eq!(got, Totals { rows: 70, moves: 210 });
    }

    #[test]
    fn totals_are_the_same_for_any_number_of_threads() {
        let (table, board) = setup();
        let search = Search {
            table: &table,
            kinds: 7,
            playouts: 20,
            seed: 99,
        };
        let kind = table.kind(2);
        let candidates: Vec<Candidate<'_>> = kind
            .moves
            .iter()
            .enumerate()
            .map(|(number, mv)| Candidate {
                number,
                shape: &kind.shapes[usize::from(mv.shape)],
                column: usize::from(mv.column),
            })
            .collect();
        let sim = Sim::new(board.rows(), 10);
        let so_far = SoFar { rows: 3, pieces: 9 };
        let one = search.all_totals(&sim, so_far, &candidates, 1);
        assert_eq!(search.all_totals(&sim, so_far, &candidates, 2), one);
        assert_eq!(search.all_totals(&sim, so_far, &candidates, 5), one);
        // Every playout adds at least the game so far and the candidate piece.
        assert!(one.iter().all(|t| t.rows >= 3 * 20 && t.moves >= 10 * 20));
        let other = Search { seed: 100, ..search }.all_totals(&sim, so_far, &candidates, 2);
        assert_ne!(other, one, "another seed plays other playouts");
    }
}
