//! The clock that times updates, and the watch: a game in play as another thread (or
//! process) sees it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The clock that times updates, shared by every thread of the process.
///
/// Two reads per tick: the OS clock costs a measurable share of a fast plugin's tick, the
/// CPU's time-stamp counter a few cycles. `quanta` reads the counter where it is invariant
/// and falls back to the OS's monotonic clock elsewhere; its deltas are nanoseconds either
/// way. Calibrating the counter against the OS clock happens once, on first use.
pub fn clock() -> &'static quanta::Clock {
    static CLOCK: OnceLock<quanta::Clock> = OnceLock::new();
    CLOCK.get_or_init(quanta::Clock::new)
}

/// How many counters a [`Watch`] keeps (see [`WatchCells`]).
pub const WATCH_CELLS: usize = 8;

/// A watch's counters, in this order: the game's index + 1 (0 before any game), when the
/// running update started, when the running `create` started (both in nanoseconds since
/// the watch was made, 0 if none is running), then lines, pieces, points and ticks so far.
/// An isolation worker keeps them in a file shared with its parent, which reads them as
/// native-endian `u64`s when the worker dies.
pub type WatchCells = [AtomicU64; WATCH_CELLS];

const CELL_GAME: usize = 0;
const CELL_UPDATE_STARTED: usize = 1;
const CELL_CREATE_STARTED: usize = 2;
const CELL_STATS: usize = 3;

/// Where a watch's counters live.
#[derive(Debug)]
enum Cells {
    /// In this process alone.
    Owned(Box<WatchCells>),
    /// In memory another process can read, kept for the life of the process.
    Shared(&'static WatchCells),
}

/// The game in play as another thread (or process) sees it: which game, when the running
/// `create` or update started, and the totals so far. Lets a watchdog end a call that never
/// returns, and keeps what a game had played when its process dies.
#[derive(Debug)]
pub struct Watch {
    /// The [`clock`]'s raw reading when the watch was made.
    epoch: u64,
    cells: Cells,
}

/// A game's totals as a [`Watch`] last saw them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WatchedGame {
    /// The game's index, if a game has begun.
    pub game: Option<u64>,
    /// Lines so far.
    pub lines: u64,
    /// Pieces so far.
    pub pieces: u64,
    /// Points so far.
    pub score: u64,
    /// Ticks so far.
    pub ticks: u64,
}

impl WatchedGame {
    /// The progress recorded in a watch's counters, read as plain numbers.
    pub fn from_cells(cells: &[u64; WATCH_CELLS]) -> WatchedGame {
        WatchedGame {
            game: cells[CELL_GAME].checked_sub(1),
            lines: cells[CELL_STATS],
            pieces: cells[CELL_STATS + 1],
            score: cells[CELL_STATS + 2],
            ticks: cells[CELL_STATS + 3],
        }
    }
}

impl Watch {
    /// A watch with nothing running, its counters in this process.
    pub fn new() -> Watch {
        Watch::with_cells(Cells::Owned(Box::default()))
    }

    /// A watch whose counters are `cells` (memory shared with another process).
    pub fn over(cells: &'static WatchCells) -> Watch {
        Watch::with_cells(Cells::Shared(cells))
    }

    fn with_cells(cells: Cells) -> Watch {
        let watch = Watch {
            epoch: clock().raw(),
            cells,
        };
        for cell in watch.cells() {
            cell.store(0, Ordering::Relaxed);
        }
        watch
    }

    fn cells(&self) -> &WatchCells {
        match &self.cells {
            Cells::Owned(cells) => cells,
            Cells::Shared(cells) => cells,
        }
    }

    /// Nanoseconds since the watch was made (never 0).
    pub fn now_ns(&self) -> u64 {
        self.ns_at(clock().raw())
    }

    /// Nanoseconds from the watch's making to the [`clock`]'s raw reading `raw` (never 0).
    pub(super) fn ns_at(&self, raw: u64) -> u64 {
        clock().delta_as_nanos(self.epoch, raw) + 1
    }

    /// Game `index` begins: its totals are zero and its `create` is running.
    pub fn begin_game(&self, index: u64) {
        let cells = self.cells();
        for cell in &cells[CELL_STATS..] {
            cell.store(0, Ordering::Relaxed);
        }
        cells[CELL_GAME].store(index.saturating_add(1), Ordering::Release);
        cells[CELL_CREATE_STARTED].store(self.now_ns(), Ordering::Release);
    }

    /// The game's `create` returned.
    pub fn created(&self) {
        self.cells()[CELL_CREATE_STARTED].store(0, Ordering::Release);
    }

    /// An update starts at the [`clock`]'s raw reading `raw`, or (with `None`) ended.
    pub(super) fn set_update_started(&self, raw: Option<u64>) {
        let started = raw.map_or(0, |raw| self.ns_at(raw));
        self.cells()[CELL_UPDATE_STARTED].store(started, Ordering::Release);
    }

    /// Records the game's totals after a tick.
    pub fn set_stats(&self, lines: u64, pieces: u64, score: u64, ticks: u64) {
        let stats = &self.cells()[CELL_STATS..];
        for (cell, value) in stats.iter().zip([lines, pieces, score, ticks]) {
            cell.store(value, Ordering::Relaxed);
        }
    }

    /// The game and its totals as last recorded.
    pub fn progress(&self) -> WatchedGame {
        let values: [u64; WATCH_CELLS] = std::array::from_fn(|i| self.cells()[i].load(Ordering::Acquire));
        WatchedGame::from_cells(&values)
    }

    /// How long the running update has taken, if one is running.
    pub fn running_ns(&self) -> Option<u64> {
        self.elapsed_since(CELL_UPDATE_STARTED)
    }

    /// How long the running `create` has taken, if one is running.
    pub fn creating_ns(&self) -> Option<u64> {
        self.elapsed_since(CELL_CREATE_STARTED)
    }

    fn elapsed_since(&self, cell: usize) -> Option<u64> {
        let started = self.cells()[cell].load(Ordering::Acquire);
        (started != 0).then(|| self.now_ns().saturating_sub(started))
    }
}

impl Default for Watch {
    fn default() -> Watch {
        Watch::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_watch_sees_a_running_update_in_real_nanoseconds() {
        let watch = Watch::new();
        assert_eq!(watch.running_ns(), None);
        let started = Instant::now();
        watch.set_update_started(Some(clock().raw()));
        std::thread::sleep(Duration::from_millis(20));
        let running = watch.running_ns().expect("an update is running");
        let real = started.elapsed().as_nanos() as u64;
        assert!(running >= 20_000_000, "{running} ns");
        // The OS clock, read after the watch's, saw at least as long; loosely bounded
        // above, as the tests share the cores.
        assert!(running <= real + 1_000_000, "{running} ns against {real} ns");
    }
}
