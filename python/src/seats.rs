//! A batch's work on one thread: playing the chosen placements of some of its games, and
//! writing their observations and placements into their parts of the buffers.

use crate::drops::Drops;
use crate::play::{write_cells, Cand, Play, Slots};
use tetrad_engine::referee::End;
use tetrad_plugin_api::{PieceId, Placement};

/// What a game's observation needs of the setup.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    pub height: usize,
    pub width: usize,
    pub columns: usize,
    pub none: i64,
    pub slots: Slots,
    pub guideline: bool,
}

/// Some of the games, the placements chosen in them, and their parts of the rewards and
/// ends.
pub(crate) struct Moves<'a> {
    pub plays: &'a mut [Play],
    pub drops: &'a Drops,
    pub tables: &'a [Option<PieceId>],
    pub cands: &'a [Vec<Cand>],
    pub plans: &'a [Vec<Placement>],
    /// Per game, the index of its chosen placement, or `None` for an action slot that
    /// holds none: a violation, which ends the game as a refused placement does.
    pub chosen: &'a [Option<usize>],
    pub rewards: &'a mut [f32],
    pub ends: &'a mut [Option<End>],
}

impl Moves<'_> {
    /// Plays each game's chosen placement.
    pub fn play(self) {
        for (k, play) in self.plays.iter_mut().enumerate() {
            let Some(chosen) = self.chosen[k] else {
                self.rewards[k] = 0.0;
                self.ends[k] = Some(End::Violation);
                continue;
            };
            let lines = match self.tables[k] {
                Some(piece) => self.drops.paths(piece).get(chosen).and_then(|p| play.place_path(p)),
                None => match self.plans[k].get(chosen) {
                    Some(placement) => play.place_plan(placement),
                    None => play.place(&self.cands[k][chosen]),
                },
            };
            self.rewards[k] = lines.unwrap_or(0) as f32;
            self.ends[k] = play.end();
        }
    }
}

/// Some of the games, and their parts of the buffers.
pub(crate) struct Seats<'a> {
    pub plays: &'a [Play],
    pub drops: &'a Drops,
    pub tables: &'a mut [Option<PieceId>],
    pub cands: &'a mut [Vec<Cand>],
    pub plans: &'a mut [Vec<Placement>],
    pub rows_seen: &'a mut [u32],
    pub boards: &'a mut [u8],
    pub pieces: &'a mut [i64],
    pub masks: &'a mut [bool],
    pub slot_cand: &'a mut [u32],
}

impl Seats<'_> {
    /// Writes each game's observation and enumerates its placements: from its piece's
    /// table where one holds them, else by the move generator (or the guideline's search).
    pub fn observe(self, layout: &Layout) {
        let mut scratch = Vec::<Placement>::new();
        let (cells, count, width) = (layout.height * layout.width, layout.slots.count(), layout.width);
        let id = |p: Option<PieceId>| p.map_or(layout.none, |p| i64::from(p.0));
        for (k, play) in self.plays.iter().enumerate() {
            let rows = &play.game.board().rows()[..layout.height];
            let seen = &mut self.rows_seen[k * layout.height..(k + 1) * layout.height];
            let board = &mut self.boards[k * cells..(k + 1) * cells];
            for (y, (&row, last)) in rows.iter().zip(seen.iter_mut()).enumerate() {
                if row != *last {
                    write_cells(&[row], width, &mut board[y * width..(y + 1) * width]);
                    *last = row;
                }
            }
            let pieces = &mut self.pieces[k * layout.columns..(k + 1) * layout.columns];
            pieces[0] = id(play.game.current().map(|f| f.piece));
            pieces[1] = id(play.game.held());
            let mut queue = play.game.queue();
            for slot in &mut pieces[2..] {
                *slot = id(queue.next());
            }
            let mask = &mut self.masks[k * count..(k + 1) * count];
            let slot_cand = &mut self.slot_cand[k * count..(k + 1) * count];
            self.tables[k] = None;
            if !layout.guideline {
                if let Some((piece, table)) = self.drops.table(play) {
                    // The slots' placements are looked up in the table (`Batch::chosen`).
                    mask.copy_from_slice(&table.mask);
                    self.tables[k] = Some(piece);
                    continue;
                }
            }
            // Only the slots the mask sets are written: `Batch::chosen` asks the mask
            // first.
            mask.fill(false);
            let mut mark = |slot: usize, i: usize| {
                if !mask[slot] {
                    mask[slot] = true;
                    slot_cand[slot] = i as u32;
                }
            };
            if layout.guideline {
                play.candidates_into(&mut scratch, &mut self.cands[k]);
                for (i, cand) in self.cands[k].iter().enumerate() {
                    mark(layout.slots.of(cand), i);
                }
            } else {
                play.plans_into(&mut self.plans[k]);
                for (i, placement) in self.plans[k].iter().enumerate() {
                    mark(layout.slots.of_plan(placement), i);
                }
            }
        }
    }
}
