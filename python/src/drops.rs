//! Per piece kind, its placements from its spawn over every board where it hovers in open
//! sky (under `simplified` and `leiden`, every board of a game in progress: a `leiden`
//! game ends when its stack reaches the rows pieces hover in), with their action slots,
//! worked out once per setup: a step then looks them up instead of enumerating them. They
//! are the move generator's own ([`OpenSkyDrops`]), in its order.

use crate::choices::NO_PLACEMENT;
use crate::play::{Play, Slots};
use tetrad_engine::setup::Setup;
use tetrad_plugin_api::{OpenSkyDrops, PieceId, Placement};

/// One piece kind's placements, and per action slot the index of the first one in it.
pub(crate) struct Table {
    pub drops: OpenSkyDrops,
    pub mask: Vec<bool>,
    /// The mask as the environments return it (`int8`).
    pub mask_i8: Vec<i8>,
    pub slot_first: Vec<u32>,
}

/// The tables of a setup's piece kinds (none under rules whose paths need playing).
pub(crate) struct Drops {
    tables: Vec<Option<Table>>,
}

impl Drops {
    /// The tables for `setup`, its slots laid out as `slots`.
    pub fn new(setup: &Setup, slots: &Slots) -> Drops {
        let rules = &setup.rules;
        let tables = setup
            .pieces
            .kinds()
            .iter()
            .map(|kind| {
                let drops = OpenSkyDrops::new(rules, kind, rules.spawn(kind))?;
                let mut slot_first = vec![NO_PLACEMENT; slots.count()];
                for (index, placement) in drops.placements().iter().enumerate() {
                    let first = &mut slot_first[slots.of_plan(placement)];
                    if *first == NO_PLACEMENT {
                        *first = index as u32;
                    }
                }
                let mask: Vec<bool> = slot_first.iter().map(|&first| first != NO_PLACEMENT).collect();
                Some(Table {
                    drops,
                    mask_i8: mask.iter().map(|&set| i8::from(set)).collect(),
                    mask,
                    slot_first,
                })
            })
            .collect();
        Drops { tables }
    }

    /// The table that holds the placements of the falling piece of `play` (of this
    /// setup), if one does: [`Play::plans_into`]'s, in its order.
    #[inline]
    pub fn table(&self, play: &Play) -> Option<(PieceId, &Table)> {
        if play.end().is_some() {
            return None;
        }
        let falling = play.game.current()?;
        let table = self.tables.get(falling.piece.index())?.as_ref()?;
        table
            .drops
            .applies(play.game.board(), falling.pos)
            .then_some((falling.piece, table))
    }

    /// The placements of piece `piece`'s table (none if it has none), their rows as on
    /// an empty board: a path to play needs no more.
    #[inline]
    pub fn paths(&self, piece: PieceId) -> &[Placement] {
        self.tables
            .get(piece.index())
            .and_then(Option::as_ref)
            .map_or(&[], |table| table.drops.placements())
    }

    /// Per action slot of piece `piece`'s table, the index of its first placement in the
    /// slot (none if it has no table).
    #[inline]
    pub fn slot_first(&self, piece: PieceId) -> &[u32] {
        self.tables
            .get(piece.index())
            .and_then(Option::as_ref)
            .map_or(&[], |table| &table.slot_first)
    }

    /// Piece `piece`'s table's mask, as `int8` (empty if it has no table).
    #[inline]
    pub fn mask(&self, piece: PieceId) -> &[i8] {
        self.tables
            .get(piece.index())
            .and_then(Option::as_ref)
            .map_or(&[], |table| &table.mask_i8)
    }
}
