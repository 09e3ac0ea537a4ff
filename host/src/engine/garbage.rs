//! Garbage in a versus game: the rows a game owes and receives (what a clear sends is
//! the attack table's, in `attack`).
//!
//! A lock that clears rows attacks with the table's rows for that clear (its lines, and
//! under `guideline` its spin, combo, back-to-back and perfect clear). The attack
//! first cancels garbage waiting in the attacker's own queue; what is left goes out, to
//! be delivered to the opponent. Then whatever still waits rises from the floor, each
//! batch as full rows with one hole in a column drawn from the game's seed (one column
//! for a whole batch). Both players' games draw hole columns from the same stream, so the
//! k-th batch either receives has its hole in the same column.

use super::attack::AttackTable;
use super::scoring::Clear;
use std::collections::VecDeque;
use tetrad_plugin_api::{derive_seed, Board, SeededRng};

/// The stream of the game's seed that hole columns are drawn from.
const HOLE_STREAM: u64 = 0x6761_7262_6167_6521;

/// One batch of garbage waiting to rise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Batch {
    rows: u32,
    hole: usize,
}

/// A game's garbage: the table it attacks by, the batches waiting for it, and the rows it
/// has sent out and not yet had delivered.
#[derive(Clone, Debug)]
pub struct Garbage {
    attack: AttackTable,
    holes: SeededRng,
    width: u32,
    pending: VecDeque<Batch>,
    outgoing: u32,
    /// Rows sent to the opponent, after cancelling.
    pub sent: u64,
    /// Rows risen into this game's board.
    pub received: u64,
}

impl Garbage {
    /// The garbage of a game of seed `seed` on a board `width` wide.
    pub fn new(attack: AttackTable, seed: u64, width: usize) -> Garbage {
        Garbage {
            attack,
            holes: SeededRng::new(derive_seed(seed, HOLE_STREAM)),
            width: width as u32,
            pending: VecDeque::new(),
            outgoing: 0,
            sent: 0,
            received: 0,
        }
    }

    /// A batch of `rows` rows arrives, its hole in the next column of the stream.
    pub fn receive(&mut self, rows: u32) {
        if rows > 0 {
            let hole = self.holes.below(self.width) as usize;
            self.pending.push_back(Batch { rows, hole });
        }
    }

    /// Rows waiting to rise.
    pub fn pending(&self) -> u32 {
        self.pending.iter().map(|b| b.rows).sum()
    }

    /// Takes the rows sent since the last call, for delivery to the opponent.
    pub fn take_outgoing(&mut self) -> u32 {
        std::mem::take(&mut self.outgoing)
    }

    /// After a lock that made `clear`: its attack cancels waiting garbage, the rest goes
    /// out, and what still waits rises into `board`. Returns false if the rise pushed a
    /// filled cell off the top.
    pub fn settle(&mut self, clear: &Clear, board: &mut Board) -> bool {
        let mut attack = self.attack.attack(clear);
        while attack > 0 {
            let Some(front) = self.pending.front_mut() else {
                break;
            };
            let cancelled = attack.min(front.rows);
            attack -= cancelled;
            front.rows -= cancelled;
            if front.rows == 0 {
                self.pending.pop_front();
            }
        }
        self.outgoing += attack;
        self.sent += u64::from(attack);
        let mut kept = true;
        for batch in self.pending.drain(..) {
            kept &= board.rise(batch.rows as usize, batch.hole);
            self.received += u64::from(batch.rows);
        }
        kept
    }
}

/// The end of a versus tick, once every game has played it: the rows each game sent go
/// to the next game, and the last game's to the first. The game loop, replay checks and
/// the screens all deliver garbage through this one function. Takes two games or more.
pub fn pass_garbage<'a>(games: impl IntoIterator<Item = &'a mut super::Game>) {
    let mut games = games.into_iter();
    let Some(first) = games.next() else {
        return;
    };
    // Each game draws its hole columns from its own stream, so the order of arrival
    // between games changes nothing.
    let mut carried = first.take_outgoing();
    for game in games {
        let sent = game.take_outgoing();
        game.receive(carried);
        carried = sent;
    }
    first.receive(carried);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain clear of `count` lines.
    fn lines(count: u32) -> Clear {
        Clear {
            lines: count,
            ..Clear::default()
        }
    }

    #[test]
    fn an_attack_cancels_waiting_rows_first_and_sends_the_rest() {
        let mut garbage = Garbage::new(AttackTable::default(), 7, 10);
        let mut board = Board::new(10, 20);
        garbage.receive(1);
        garbage.receive(2);
        assert_eq!(garbage.pending(), 3);
        // A triple sends 2: it cancels the first batch (1) and one row of the second.
        assert!(garbage.settle(&lines(3), &mut board));
        assert_eq!((garbage.take_outgoing(), garbage.sent), (0, 0));
        // The last waiting row rose: one row, full but for its hole.
        assert_eq!(garbage.received, 1);
        assert_eq!(board.rows()[19].count_ones(), 9);
        assert_eq!(board.surface(), 19);
        // A four-line clear with nothing waiting sends all 4.
        assert!(garbage.settle(&lines(4), &mut board));
        assert_eq!(
            (garbage.take_outgoing(), garbage.take_outgoing(), garbage.sent),
            (4, 0, 4)
        );
    }

    #[test]
    fn hole_columns_come_from_the_seed_one_per_batch() {
        let columns = |seed| {
            let mut garbage = Garbage::new(AttackTable::default(), seed, 10);
            let mut board = Board::new(10, 20);
            let mut holes = Vec::new();
            for _ in 0..8 {
                garbage.receive(2);
                garbage.settle(&lines(0), &mut board);
                let bottom = board.rows()[19];
                assert_eq!(board.rows()[18], bottom, "one column for the whole batch");
                holes.push((!bottom & board.full_row()).trailing_zeros());
            }
            holes
        };
        assert_eq!(columns(5), columns(5));
        assert_ne!(columns(5), columns(6));
    }
}
