//! Garbage in a versus game: the attack table, and the rows a game owes and receives.
//!
//! A lock that clears rows attacks with the table's rows for that many lines. The attack
//! first cancels garbage waiting in the attacker's own queue; what is left goes out, to
//! be delivered to the opponent. Then whatever still waits rises from the floor, each
//! batch as full rows with one hole in a column drawn from the game's seed (one column
//! for a whole batch). Both players' games draw hole columns from the same stream, so the
//! k-th batch either receives has its hole in the same column.

use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;
use tetrad_plugin_api::{derive_seed, Board, SeededRng};

/// Rows of garbage sent for clearing 1, 2, 3, ... lines at once; a clear of more lines
/// than the table lists sends its last entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<u32>", into = "Vec<u32>")]
pub struct AttackTable(Vec<u32>);

impl AttackTable {
    /// Most entries a table may have.
    pub const MAX_ENTRIES: usize = 16;
    /// Most rows one entry may send.
    pub const MAX_ROWS: u32 = 64;

    /// Rows sent for clearing `lines` lines (none for none).
    pub fn rows(&self, lines: u32) -> u32 {
        match lines {
            0 => 0,
            n => self.0[(n as usize).min(self.0.len()) - 1],
        }
    }
}

impl Default for AttackTable {
    /// 0, 1, 2 and 4 rows for a single, double, triple and four-line clear.
    fn default() -> AttackTable {
        AttackTable(vec![0, 1, 2, 4])
    }
}

impl TryFrom<Vec<u32>> for AttackTable {
    type Error = String;

    fn try_from(rows: Vec<u32>) -> Result<AttackTable, String> {
        if rows.is_empty() || rows.len() > AttackTable::MAX_ENTRIES {
            return Err(format!(
                "an attack table lists 1 to {} entries (rows sent for 1, 2, 3, ... lines); {} given",
                AttackTable::MAX_ENTRIES,
                rows.len()
            ));
        }
        if let Some(too_many) = rows.iter().find(|&&r| r > AttackTable::MAX_ROWS) {
            return Err(format!(
                "an attack sends at most {} rows; {too_many} given",
                AttackTable::MAX_ROWS
            ));
        }
        Ok(AttackTable(rows))
    }
}

impl From<AttackTable> for Vec<u32> {
    fn from(table: AttackTable) -> Vec<u32> {
        table.0
    }
}

impl FromStr for AttackTable {
    type Err = String;

    fn from_str(text: &str) -> Result<AttackTable, String> {
        let rows = text
            .split(',')
            .map(|entry| {
                let entry = entry.trim();
                entry
                    .parse::<u32>()
                    .map_err(|_| format!("`{entry}` is not a number of rows (e.g. 0,1,2,4)"))
            })
            .collect::<Result<Vec<u32>, String>>()?;
        AttackTable::try_from(rows)
    }
}

impl fmt::Display for AttackTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entries: Vec<String> = self.0.iter().map(u32::to_string).collect();
        f.write_str(&entries.join(","))
    }
}

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

    /// After a lock that cleared `lines` lines: the attack cancels waiting garbage, the
    /// rest goes out, and what still waits rises into `board`. Returns false if the rise
    /// pushed a filled cell off the top.
    pub fn settle(&mut self, lines: u32, board: &mut Board) -> bool {
        let mut attack = self.attack.rows(lines);
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

    #[test]
    fn the_table_reads_parses_and_refuses() {
        let table = AttackTable::default();
        assert_eq!(
            (0..=6).map(|l| table.rows(l)).collect::<Vec<_>>(),
            [0, 0, 1, 2, 4, 4, 4]
        );
        assert_eq!("0, 1,2,4".parse::<AttackTable>(), Ok(table.clone()));
        assert_eq!(table.to_string(), "0,1,2,4");
        assert!("0,x".parse::<AttackTable>().unwrap_err().contains("`x`"));
        assert!("".parse::<AttackTable>().is_err());
        assert!("65".parse::<AttackTable>().unwrap_err().contains("at most 64"));
        let json = serde_json::to_string(&table).unwrap();
        assert_eq!(json, "[0,1,2,4]");
        assert!(serde_json::from_str::<AttackTable>("[]").is_err());
    }

    #[test]
    fn an_attack_cancels_waiting_rows_first_and_sends_the_rest() {
        let mut garbage = Garbage::new(AttackTable::default(), 7, 10);
        let mut board = Board::new(10, 20);
        garbage.receive(1);
        garbage.receive(2);
        assert_eq!(garbage.pending(), 3);
        // A triple sends 2: it cancels the first batch (1) and one row of the second.
        assert!(garbage.settle(3, &mut board));
        assert_eq!((garbage.take_outgoing(), garbage.sent), (0, 0));
        // The last waiting row rose: one row, full but for its hole.
        assert_eq!(garbage.received, 1);
        assert_eq!(board.rows()[19].count_ones(), 9);
        assert_eq!(board.surface(), 19);
        // A four-line clear with nothing waiting sends all 4.
        assert!(garbage.settle(4, &mut board));
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
                garbage.settle(0, &mut board);
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
