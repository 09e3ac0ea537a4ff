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
//!
//! [`GarbageRules`] add the options of modern games, each off by default: a delay (in the
//! receiver's locks) before a batch may rise, a cap on the rows that rise at one lock, and
//! messiness, the chance that the hole moves from one row of a batch to the next.

use super::attack::AttackTable;
use super::scoring::Clear;
use std::collections::VecDeque;
use tetrad_plugin_api::{derive_seed, Board, SeededRng};

/// The stream of the game's seed that hole columns are drawn from.
const HOLE_STREAM: u64 = 0x6761_7262_6167_6521;

/// When and how garbage rises. The default is the plain rule: everything waiting rises at
/// the receiver's next lock, each batch with one hole column.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GarbageRules {
    /// Locks of the receiver a batch waits, once it arrived, before it may rise (0: it
    /// rises at the next lock).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay: u32,
    /// Most rows that rise at one lock; the rest keeps waiting. `None`: no cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<u32>,
    /// The chance, in `0..=1`, that a row's hole is in another column than the row's
    /// before it in the same batch.
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    pub messiness: f64,
}

// The messiness is always a finite number (it is checked where it is read).
impl Eq for GarbageRules {}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

fn is_zero_f64(value: &f64) -> bool {
    *value == 0.0
}

impl GarbageRules {
    /// Whether these are the plain rules.
    pub fn is_plain(&self) -> bool {
        *self == GarbageRules::default()
    }

    /// Checks the values read from a file or the command line.
    pub fn check(&self) -> Result<(), String> {
        if self.cap == Some(0) {
            return Err("a garbage cap of 0 rows would never let garbage rise".to_string());
        }
        if !(0.0..=1.0).contains(&self.messiness) {
            return Err(format!("garbage messiness {} is not in 0..=1", self.messiness));
        }
        Ok(())
    }
}

impl std::fmt::Display for GarbageRules {
    /// `delay 1, cap 8, messiness 0.3`: the parts that are not plain.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if self.delay > 0 {
            parts.push(format!("delay {}", self.delay));
        }
        if let Some(cap) = self.cap {
            parts.push(format!("cap {cap}"));
        }
        if self.messiness > 0.0 {
            parts.push(format!("messiness {}", self.messiness));
        }
        f.write_str(&parts.join(", "))
    }
}

/// One batch of garbage waiting to rise: the hole of each row in the order they rise,
/// and the receiver's locks it still waits before it may rise.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Batch {
    holes: VecDeque<usize>,
    wait: u32,
}

/// A game's garbage: the table it attacks by, the batches waiting for it, and the rows it
/// has sent out and not yet had delivered.
#[derive(Clone, Debug)]
pub struct Garbage {
    attack: AttackTable,
    rules: GarbageRules,
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
    /// The garbage of a game of seed `seed` on a board `width` wide, rising by `rules`.
    pub fn new(attack: AttackTable, rules: GarbageRules, seed: u64, width: usize) -> Garbage {
        Garbage {
            attack,
            rules,
            holes: SeededRng::new(derive_seed(seed, HOLE_STREAM)),
            width: width as u32,
            pending: VecDeque::new(),
            outgoing: 0,
            sent: 0,
            received: 0,
        }
    }

    /// A batch of `rows` rows arrives, its hole in the next column of the stream. Under
    /// messiness, each row after the first draws whether its hole moves, and if it does,
    /// to which of the other columns.
    pub fn receive(&mut self, rows: u32) {
        if rows == 0 {
            return;
        }
        let mut hole = self.holes.below(self.width) as usize;
        let mut holes = VecDeque::with_capacity(rows as usize);
        holes.push_back(hole);
        for _ in 1..rows {
            if self.rules.messiness > 0.0 && self.width > 1 && self.holes.unit() < self.rules.messiness {
                hole = (hole + 1 + self.holes.below(self.width - 1) as usize) % self.width as usize;
            }
            holes.push_back(hole);
        }
        self.pending.push_back(Batch {
            holes,
            wait: self.rules.delay,
        });
    }

    /// Rows waiting to rise.
    pub fn pending(&self) -> u32 {
        self.pending.iter().map(|b| b.holes.len() as u32).sum()
    }

    /// Batches waiting to rise (a batch cancelled or risen whole has left the queue).
    pub fn batches(&self) -> usize {
        self.pending.len()
    }

    /// Lets the first `ready` waiting batches rise at the next lock and holds the others
    /// back: the realtime pace counts its delay in time, outside the engine, and says
    /// before each tick which batches have waited long enough.
    pub fn hold_after(&mut self, ready: usize) {
        for (index, batch) in self.pending.iter_mut().enumerate() {
            batch.wait = u32::from(index >= ready);
        }
    }

    /// Takes the rows sent since the last call, for delivery to the opponent.
    pub fn take_outgoing(&mut self) -> u32 {
        std::mem::take(&mut self.outgoing)
    }

    /// After a lock that made `clear`: its attack cancels waiting garbage (delayed or
    /// not), the rest goes out, and what waits and may rise rises into `board`, oldest
    /// first, up to the cap; the batches still delayed wait one lock less. Returns false
    /// if the rise pushed a filled cell off the top.
    pub fn settle(&mut self, clear: &Clear, board: &mut Board) -> bool {
        let mut attack = self.attack.attack(clear);
        while attack > 0 {
            let Some(front) = self.pending.front_mut() else {
                break;
            };
            let cancelled = attack.min(front.holes.len() as u32);
            attack -= cancelled;
            front.holes.drain(..cancelled as usize);
            if front.holes.is_empty() {
                self.pending.pop_front();
            }
        }
        self.outgoing += attack;
        self.sent += u64::from(attack);
        let mut room = self.rules.cap.unwrap_or(u32::MAX) as usize;
        let mut kept = true;
        while let Some(front) = self.pending.front_mut().filter(|b| b.wait == 0 && room > 0) {
            let rising = front.holes.len().min(room);
            room -= rising;
            self.received += rising as u64;
            // Rows with the same hole rise together: a batch without messiness in one rise.
            let mut left = rising;
            while left > 0 {
                let hole = front.holes[0];
                let run = front.holes.iter().take(left).take_while(|&&h| h == hole).count();
                kept &= board.rise(run, hole);
                front.holes.drain(..run);
                left -= run;
            }
            if front.holes.is_empty() {
                self.pending.pop_front();
            }
        }
        for batch in &mut self.pending {
            batch.wait = batch.wait.saturating_sub(1);
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
        let mut garbage = Garbage::new(AttackTable::default(), GarbageRules::default(), 7, 10);
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
            let mut garbage = Garbage::new(AttackTable::default(), GarbageRules::default(), seed, 10);
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

    /// The hole column of each garbage row on `board`, bottom row first, up to the first
    /// row that is not garbage (a full row but for one hole).
    fn garbage_holes(board: &Board) -> Vec<u32> {
        board
            .rows()
            .iter()
            .rev()
            .take_while(|&&row| row.count_ones() + 1 == board.width() as u32)
            .map(|&row| (!row & board.full_row()).trailing_zeros())
            .collect()
    }

    #[test]
    fn a_delayed_batch_waits_that_many_locks_and_can_still_be_cancelled() {
        let rules = GarbageRules {
            delay: 2,
            ..GarbageRules::default()
        };
        let mut garbage = Garbage::new(AttackTable::default(), rules, 7, 10);
        let mut board = Board::new(10, 20);
        garbage.receive(3);
        // Two locks pass with the batch waiting; a double on the second cancels a row.
        assert!(garbage.settle(&lines(0), &mut board));
        assert!(garbage.settle(&lines(2), &mut board));
        assert_eq!((garbage.pending(), garbage.received, board.surface()), (2, 0, 20));
        // The third lock lets the rest rise.
        assert!(garbage.settle(&lines(0), &mut board));
        assert_eq!((garbage.pending(), garbage.received, board.surface()), (0, 2, 18));
    }

    #[test]
    fn a_cap_lets_that_many_rows_rise_at_a_lock_and_keeps_the_rest_waiting() {
        let rules = GarbageRules {
            cap: Some(3),
            ..GarbageRules::default()
        };
        let mut garbage = Garbage::new(AttackTable::default(), rules, 7, 10);
        let mut board = Board::new(10, 20);
        garbage.receive(2);
        garbage.receive(4);
        // 2 + 1 rows rise at the first lock, 3 at the second, none at the third.
        assert!(garbage.settle(&lines(0), &mut board));
        assert_eq!((garbage.pending(), garbage.received), (3, 3));
        assert!(garbage.settle(&lines(0), &mut board));
        assert_eq!((garbage.pending(), garbage.received), (0, 6));
        assert!(garbage.settle(&lines(0), &mut board));
        assert_eq!(garbage.received, 6);
        // The second batch kept its one column across the two locks.
        let holes = garbage_holes(&board);
        assert_eq!(holes.len(), 6);
        assert!(holes[..4].iter().all(|&h| h == holes[0]), "{holes:?}");
    }

    #[test]
    fn messiness_moves_the_hole_within_a_batch_by_its_chance_and_the_seed() {
        let holes = |messiness: f64, seed: u64| {
            let rules = GarbageRules {
                messiness,
                ..GarbageRules::default()
            };
            let mut garbage = Garbage::new(AttackTable::default(), rules, seed, 10);
            let mut board = Board::new(10, 20);
            garbage.receive(12);
            assert!(garbage.settle(&lines(0), &mut board));
            garbage_holes(&board)
        };
        let moves = |holes: &[u32]| holes.windows(2).filter(|w| w[0] != w[1]).count();
        // None: one column for the whole batch, the column of the plain rule.
        let clean = holes(0.0, 3);
        assert_eq!((clean.len(), moves(&clean)), (12, 0));
        let mut plain = Garbage::new(AttackTable::default(), GarbageRules::default(), 3, 10);
        let mut board = Board::new(10, 20);
        plain.receive(12);
        plain.settle(&lines(0), &mut board);
        assert_eq!(garbage_holes(&board), clean);
        // Certain: every row's hole is in another column than the row's before it.
        let messy = holes(1.0, 3);
        assert_eq!((messy.len(), moves(&messy)), (12, 11));
        // Drawn from the seed: the same seed, the same holes.
        assert_eq!(holes(0.5, 3), holes(0.5, 3));
        assert_ne!(holes(0.5, 3), holes(0.5, 4));
    }

    #[test]
    fn garbage_options_out_of_range_are_refused() {
        let bad = [
            GarbageRules {
                cap: Some(0),
                ..GarbageRules::default()
            },
            GarbageRules {
                messiness: 1.5,
                ..GarbageRules::default()
            },
        ];
        for rules in bad {
            assert!(rules.check().is_err(), "{rules:?}");
        }
        assert!(GarbageRules::default().check().is_ok());
    }
}
