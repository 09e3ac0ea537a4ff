//! The batch's games and their buffers, stepped and observed in Rust: what `BatchGames`
//! wraps for Python.

use crate::choices::NO_PLACEMENT;
use crate::drops::Drops;
use crate::play::{write_cells, Cand, Play, Slots};
use crate::seats::{Layout, Moves, Seats};
use crate::setup::Deal;
use std::sync::Arc;
use tetrad_engine::referee::End;
use tetrad_engine::setup::Setup;
use tetrad_plugin_api::{PieceId, Placement, Preset};

/// The fewest games worth a thread of their own.
pub(super) const MIN_PART: usize = 32;

/// The games and their buffers.
pub(super) struct Batch {
    pub(super) setup: Arc<Setup>,
    pub(super) deal: Deal,
    pub(super) max_pieces: Option<u64>,
    pub(super) slots: Slots,
    pub(super) plays: Vec<Play>,
    /// Each game's index in the run.
    pub(super) index: Vec<u64>,
    /// The index the next new game gets.
    pub(super) next_index: u64,
    /// Threads a step or a reset plays its games on.
    pub(super) threads: usize,
    /// Per piece kind, its placements over boards where it hovers in open sky.
    pub(super) drops: Drops,
    /// Per game, the piece whose table holds its placements, if one does; else the
    /// guideline search's placements are in `cands`, and under the other presets the
    /// move generator's in `plans` (plain values: no path to build or drop).
    pub(super) tables: Vec<Option<PieceId>>,
    pub(super) cands: Vec<Vec<Cand>>,
    pub(super) plans: Vec<Vec<Placement>>,
    /// Per game, the board's rows as last written to `boards`: only rows that changed
    /// are written again.
    pub(super) rows_seen: Vec<u32>,
    /// Per game and action slot, the index in `cands` or `plans` of the first placement
    /// in that slot, where the game's mask is set and no table holds its placements
    /// (elsewhere left as an earlier piece wrote it: see `Batch::chosen`).
    pub(super) slot_cand: Vec<u32>,
    /// Per game: the board (height x width), the pieces (current, hold, preview), the
    /// mask, the reward, terminated, truncated, and a finished game's lines and pieces.
    pub(super) boards: Vec<u8>,
    pub(super) pieces: Vec<i64>,
    pub(super) masks: Vec<bool>,
    pub(super) rewards: Vec<f32>,
    pub(super) terminated: Vec<bool>,
    pub(super) truncated: Vec<bool>,
    pub(super) final_lines: Vec<i64>,
    pub(super) final_pieces: Vec<i64>,
    /// The games that ended in the last step, and how, with their last observations
    /// (board, pieces, mask), one after another in the order of the games.
    pub(super) finals: Finals,
}

/// The last observations of the games that ended in a step: what Gymnasium's vector
/// environments return as `final_obs`.
#[derive(Default)]
pub(super) struct Finals {
    pub(super) games: Vec<usize>,
    pub(super) ends: Vec<End>,
    pub(super) boards: Vec<u8>,
    pub(super) pieces: Vec<i64>,
    pub(super) masks: Vec<bool>,
}

impl Batch {
    /// Columns of a game's pieces observation: the current piece, the hold, the preview.
    pub(super) fn piece_columns(&self) -> usize {
        2 + self.setup.rules.preview
    }

    /// New games `first`, `first + 1`, ... in every seat.
    pub(super) fn reset(&mut self, first: u64) -> Result<(), String> {
        self.next_index = first;
        for k in 0..self.plays.len() {
            self.plays[k] = self.new_play()?;
            self.index[k] = self.next_index - 1;
        }
        self.observe_all();
        self.rewards.fill(0.0);
        self.terminated.fill(false);
        self.truncated.fill(false);
        self.final_lines.fill(-1);
        self.final_pieces.fill(-1);
        self.finals.clear();
        Ok(())
    }

    /// The run's next game, in a seat of its own.
    pub(super) fn new_play(&mut self) -> Result<Play, String> {
        let game = self.deal.game(&self.setup, self.next_index, None)?;
        self.next_index += 1;
        Ok(Play::new(game, self.max_pieces))
    }

    /// Games per thread.
    pub(super) fn part_size(&self) -> usize {
        self.plays.len().div_ceil(self.threads.max(1))
    }

    /// Writes every game's observation and enumerates its placements, the games split
    /// among the threads (the last part on this one).
    pub(super) fn observe_all(&mut self) {
        let layout = Layout {
            height: self.setup.rules.height,
            width: self.setup.rules.width,
            columns: self.piece_columns(),
            none: self.setup.pieces.len() as i64,
            slots: self.slots,
            guideline: self.setup.rules.preset == Preset::Guideline,
        };
        let size = self.part_size();
        let (cells, columns, count) = (layout.height * layout.width, layout.columns, layout.slots.count());
        let drops = &self.drops;
        let mut parts: Vec<Seats> = self
            .plays
            .chunks(size)
            .zip(self.tables.chunks_mut(size))
            .zip(self.cands.chunks_mut(size))
            .zip(self.plans.chunks_mut(size))
            .zip(self.rows_seen.chunks_mut(size * layout.height))
            .zip(self.boards.chunks_mut(size * cells))
            .zip(self.pieces.chunks_mut(size * columns))
            .zip(self.masks.chunks_mut(size * count))
            .zip(self.slot_cand.chunks_mut(size * count))
            .map(
                |((((((((plays, tables), cands), plans), rows_seen), boards), pieces), masks), slot_cand)| Seats {
                    plays,
                    drops,
                    tables,
                    cands,
                    plans,
                    rows_seen,
                    boards,
                    pieces,
                    masks,
                    slot_cand,
                },
            )
            .collect();
        let last = parts.pop();
        std::thread::scope(|scope| {
            for seats in parts {
                scope.spawn(move || seats.observe(&layout));
            }
            if let Some(seats) = last {
                seats.observe(&layout);
            }
        });
    }

    /// The placement of game `k` in slot `slot` (`None` if the slot holds none), or
    /// `Err` for a slot out of range.
    pub(super) fn chosen(&self, k: usize, slot: i64) -> Result<Option<usize>, ()> {
        let count = self.slots.count();
        let slot = usize::try_from(slot).ok().filter(|&slot| slot < count).ok_or(())?;
        // A slot's entry in `slot_cand` holds only where the mask is set (the rest keep
        // earlier pieces' entries), and a game whose placements a table holds has its
        // entries there.
        let index = match self.tables[k] {
            Some(piece) => self.drops.slot_first(piece)[slot],
            None if self.masks[k * count + slot] => self.slot_cand[k * count + slot],
            None => NO_PLACEMENT,
        };
        Ok((index != NO_PLACEMENT).then_some(index as usize))
    }

    /// Plays placement `chosen[k]` in every game `k` (a violation where it is `None`),
    /// the games split among the threads; then a game that ended is replaced by the run's
    /// next game, in the order of the games (so on any number of threads the games are
    /// the same), its last observation kept in [`Batch::finals`].
    pub(super) fn step(&mut self, chosen: &[Option<usize>]) -> Result<(), String> {
        let size = self.part_size();
        let mut ends: Vec<Option<End>> = vec![None; self.plays.len()];
        let drops = &self.drops;
        let mut parts: Vec<Moves> = self
            .plays
            .chunks_mut(size)
            .zip(self.tables.chunks(size))
            .zip(self.cands.chunks(size))
            .zip(self.plans.chunks(size))
            .zip(chosen.chunks(size))
            .zip(self.rewards.chunks_mut(size))
            .zip(ends.chunks_mut(size))
            .map(|((((((plays, tables), cands), plans), chosen), rewards), ends)| Moves {
                plays,
                drops,
                tables,
                cands,
                plans,
                chosen,
                rewards,
                ends,
            })
            .collect();
        let last = parts.pop();
        std::thread::scope(|scope| {
            for moves in parts {
                scope.spawn(move || moves.play());
            }
            if let Some(moves) = last {
                moves.play();
            }
        });
        self.finals.clear();
        for (k, end) in ends.into_iter().enumerate() {
            match end {
                None => {
                    self.terminated[k] = false;
                    self.truncated[k] = false;
                    self.final_lines[k] = -1;
                    self.final_pieces[k] = -1;
                }
                Some(end) => {
                    self.keep_final(k, end);
                    let stats = self.plays[k].game.stats();
                    self.final_lines[k] = stats.lines as i64;
                    self.final_pieces[k] = stats.pieces as i64;
                    self.truncated[k] = end == End::Capped;
                    self.terminated[k] = end != End::Capped;
                    self.plays[k] = self.new_play()?;
                    self.index[k] = self.next_index - 1;
                }
            }
        }
        self.observe_all();
        Ok(())
    }

    /// Keeps the last observation of game `k`, which ended: after a violation, the
    /// observation the step was given (nothing was played); else the board the last
    /// lock left, the pieces, and an empty mask (an ended game has no placements), as
    /// a single environment observes its end.
    fn keep_final(&mut self, k: usize, end: End) {
        let (height, width, columns, count) = (
            self.setup.rules.height,
            self.setup.rules.width,
            self.piece_columns(),
            self.slots.count(),
        );
        let finals = &mut self.finals;
        finals.games.push(k);
        finals.ends.push(end);
        if end == End::Violation {
            finals
                .boards
                .extend_from_slice(&self.boards[k * height * width..(k + 1) * height * width]);
            finals
                .pieces
                .extend_from_slice(&self.pieces[k * columns..(k + 1) * columns]);
            finals.masks.extend_from_slice(&self.masks[k * count..(k + 1) * count]);
            return;
        }
        let game = &self.plays[k].game;
        let at = finals.boards.len();
        finals.boards.resize(at + height * width, 0);
        write_cells(&game.board().rows()[..height], width, &mut finals.boards[at..]);
        let none = self.setup.pieces.len() as i64;
        let id = |p: Option<PieceId>| p.map_or(none, |p| i64::from(p.0));
        finals.pieces.push(id(game.current().map(|f| f.piece)));
        finals.pieces.push(id(game.held()));
        let mut queue = game.queue();
        finals.pieces.extend((2..columns).map(|_| id(queue.next())));
        finals.masks.resize(finals.masks.len() + count, false);
    }
}

impl Finals {
    fn clear(&mut self) {
        self.games.clear();
        self.ends.clear();
        self.boards.clear();
        self.pieces.clear();
        self.masks.clear();
    }
}
