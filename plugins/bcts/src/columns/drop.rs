//! A drop straight down on the columns alone: where the piece lands on the column tops,
//! whether it fills a row, and the features after it (see the module note of `columns`).

use super::{cells_after, Columns, PieceColumns, PAD};
use crate::features::BoardFeatures;

/// Where a piece dropped into some columns lands, and what it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// A cell stays above the board: the game ends. `top` is negative.
    Over { top: i32 },
    /// Rows fill, so the features need the full pass.
    Clears { top: u32 },
    /// No row fills: the board's features after it.
    Open { top: u32, features: BoardFeatures },
}

impl Dropped {
    /// The row of the piece's box top.
    #[inline(always)]
    pub fn top(&self) -> i32 {
        match *self {
            Dropped::Over { top } => top,
            Dropped::Clears { top } | Dropped::Open { top, .. } => top as i32,
        }
    }
}

impl Columns {
    /// `piece`, `W` columns wide, dropped straight down into columns `left` on: where it
    /// lands on the column tops, and, unless it ends the game or fills a row, the features
    /// after it (without `DETAIL`, as [`Columns::with_piece`] leaves them). Rows that fill
    /// are found in the columns: a row fills when it is filled in every column outside
    /// the piece's and, after the drop, in each of the piece's.
    #[inline(always)]
    pub fn drop_of<const W: usize, const DETAIL: bool>(&self, piece: &PieceColumns, left: usize) -> Dropped {
        let dropped = self.drop_unless::<W, DETAIL>(piece, left, |_| false, |_, _| false);
        dropped.expect("a drop is left unrated only when asked")
    }

    /// [`Columns::drop_of`], but a drop that fills no row is left unrated (`None`) when
    /// `early` says so given the row of its box's top, before any feature is computed, or
    /// when `skip` says so given that row and its features with the cumulative wells at a
    /// floor ([`Columns::features_but_wells`]): the wells are the costliest feature.
    #[inline(always)]
    pub fn drop_unless<const W: usize, const DETAIL: bool>(
        &self,
        piece: &PieceColumns,
        left: usize,
        early: impl FnOnce(u32) -> bool,
        skip: impl FnOnce(u32, &BoardFeatures) -> bool,
    ) -> Option<Dropped> {
        let slots = self.window(left);
        let mut top = i32::MAX;
        for j in 0..W {
            top = top.min(slots[PAD + j].top as i32 - 1 - piece.lowest[j] as i32);
        }
        if top < 0 {
            return Some(Dropped::Over { top });
        }
        let top = top as u32;
        let cells = cells_after::<W>(slots, piece, top);
        let mut full = slots[PAD].filled_left & slots[PAD + W].filled_from;
        for &column in &cells[PAD..PAD + W] {
            full &= column;
        }
        if full != 0 {
            return Some(Dropped::Clears { top });
        }
        if early(top) {
            return None;
        }
        let mut features = self.features_but_wells::<W, DETAIL>(slots, &cells, piece, top);
        if skip(top, &features) {
            return None;
        }
        self.add_wells::<W>(slots, &cells, &mut features);
        Some(Dropped::Open { top, features })
    }
}
