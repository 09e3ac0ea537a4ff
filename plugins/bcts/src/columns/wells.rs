//! The cumulative wells of a piece's columns, for bounds that hold the wells at their
//! floor before any feature of a drop is computed.

use super::{Columns, PAD};

impl Columns {
    /// The cumulative wells of the `W` board columns from `left` on: a drop there that
    /// fills no row leaves at least the board's wells less these (see
    /// `Columns::add_wells`).
    #[inline(always)]
    pub fn wells_in<const W: usize>(&self, left: usize) -> u32 {
        let slots = self.window(left);
        slots[PAD..PAD + W].iter().map(|slot| slot.wells).sum()
    }
}
