//! The open-sky placements of one piece from one start, worked out once for every board.
//!
//! Under a drop-only preset with in-box turns, when the piece hovers in open sky, which
//! paths exist depends only on the piece, its start and the width: the walls alone can
//! refuse a turn or a shift. Only the rows the piece lands on depend on the board, and
//! they come from its column heights. A caller that places many pieces (a batch of
//! games) so pays for the paths once per piece kind, not once per placement.

use super::{column_tops, drop_from_open_sky, open_sky_surface, Placement};
use crate::model::board::{Board, PiecePos, MAX_WIDTH};
use crate::model::piece::{PieceKind, MAX_PIECE_SIZE};
use crate::model::rotation::RotationSystem;
use crate::model::rules::{Movement, Rules};

/// In a profile, a column the piece does not cover: far below any board.
const PAST_THE_PIECE: i32 = -(1 << 16);

/// One piece's placements from one start, for the boards of one set of rules over which
/// it hovers in open sky: there they are [`placements_into`](super::placements_into)'s,
/// in its order, found without playing or checking a path.
#[derive(Clone, Debug)]
pub struct OpenSkyDrops {
    start: PiecePos,
    width: usize,
    /// The least board surface over which the piece hovers in open sky.
    surface: i32,
    /// The placements as on an empty board.
    placements: Vec<Placement>,
    /// Per placement, its first column and, in each of its columns, one more than its
    /// lowest cell's offset: it lands at the least of `top - that` over its columns.
    /// Columns past its width hold [`PAST_THE_PIECE`], so that they never count; every
    /// placement so takes the same, fixed number of steps (which the compiler turns into
    /// a few vector instructions).
    profiles: Vec<(u8, [i32; MAX_PIECE_SIZE])>,
}

impl OpenSkyDrops {
    /// The placements of `kind` from `start` under `rules`, or `None` where the rules'
    /// paths can meet more than the walls (gravity, or turns that kick) or where the
    /// piece hovers in open sky over no board of the rules.
    pub fn new(rules: &Rules, kind: &PieceKind, start: PiecePos) -> Option<OpenSkyDrops> {
        if rules.movement() != Movement::DropOnly || rules.rotation() != RotationSystem::InBox {
            return None;
        }
        let surface = open_sky_surface(rules, kind, start);
        let empty = Board::new(rules.width, rules.height);
        if surface > empty.surface() as i32 || empty.width() != rules.width || empty.height() != rules.height {
            return None;
        }
        let mut placements = Vec::new();
        drop_from_open_sky(rules, &empty, kind, start, &mut placements);
        let profiles = placements
            .iter()
            .map(|p| {
                let shape = kind.orientation(p.pos.orientation);
                let mut lowest = [PAST_THE_PIECE; MAX_PIECE_SIZE];
                for (low, &bottom) in lowest.iter_mut().zip(shape.column_bottoms()) {
                    // A column without a cell (of a piece that is not connected) is
                    // `i8::MIN` in the shape: past the piece too.
                    *low = if bottom == i8::MIN {
                        PAST_THE_PIECE
                    } else {
                        1 + i32::from(bottom)
                    };
                }
                ((p.pos.x + shape.left()) as u8, lowest)
            })
            .collect();
        Some(OpenSkyDrops {
            start,
            width: rules.width,
            surface,
            placements,
            profiles,
        })
    }

    /// Whether the placements hold on `board` (one of the rules') for a piece at `start`:
    /// it starts where they were worked out from, and hovers in open sky.
    #[inline]
    pub fn applies(&self, board: &Board, start: PiecePos) -> bool {
        start == self.start && board.width() == self.width && self.surface <= board.surface() as i32
    }

    /// The placements as on an empty board: on a board where [`OpenSkyDrops::applies`]
    /// holds they are the same, in the same order, but for the rows they land on
    /// (`pos.y`), which [`OpenSkyDrops::land_into`] gives.
    #[inline]
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// The placements on `board`, where [`OpenSkyDrops::applies`] holds, into `out`
    /// (cleared first): exactly [`placements_into`](super::placements_into)'s.
    pub fn land_into(&self, board: &Board, out: &mut Vec<Placement>) {
        out.clear();
        // Padded for the profiles' unused columns.
        let tops: [i32; MAX_WIDTH + MAX_PIECE_SIZE] = column_tops(board);
        out.extend(self.placements.iter().zip(&self.profiles).map(|(p, (left, lowest))| {
            let left = usize::from(*left);
            let columns = &tops[left..left + MAX_PIECE_SIZE];
            let mut y = i32::MAX;
            for (&top, &low) in columns.iter().zip(lowest) {
                y = y.min(top - low);
            }
            Placement {
                pos: PiecePos { y: y as i8, ..p.pos },
                ..*p
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::movegen::placements_into;
    use crate::model::movegen::tests::{shifted_start, stacked};
    use crate::model::piece::{PieceId, PieceSet};
    use crate::model::rules::Preset;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Wherever the table applies it gives exactly the move generator's placements,
        /// rows, order and paths; and it applies wherever the move generator's own fast
        /// path does, from the start it was made for.
        #[test]
        fn open_sky_drops_match_the_move_generator(
            preset in proptest::sample::select(vec![Preset::Simplified, Preset::Leiden]),
            width in 4usize..=20,
            height in 8usize..=24,
            heights in proptest::collection::vec((0usize..24, proptest::num::u64::ANY), 20),
            piece in 0u8..7,
            start_orientation in 0u8..4,
            start_shift in -3i8..=3,
        ) {
            let height = if preset == Preset::Leiden { height.max(12) } else { height };
            let rules = Rules { width, height, ..Rules::preset(preset) };
            let board = stacked(&rules, &heights);
            let set = PieceSet::tetrominoes();
            let kind = set.kind(PieceId(piece));
            let start = shifted_start(&rules, kind, start_orientation, start_shift);
            proptest::prop_assume!(board.fits(kind.orientation(start.orientation), start.x, start.y));
            let mut expected = Vec::new();
            placements_into(&rules, &board, kind, start, &mut expected);
            let table = OpenSkyDrops::new(&rules, kind, start).expect("a drop-only, in-box preset");
            proptest::prop_assert_eq!(
                table.applies(&board, start),
                super::super::hovers_in_open_sky(&rules, &board, kind, start)
            );
            if table.applies(&board, start) {
                let mut found = vec![Placement { pos: start, turns: 9, shifts: 9, slide: 9 }];
                table.land_into(&board, &mut found);
                proptest::prop_assert_eq!(&found, &expected);
                let paths = |list: &[Placement]| -> Vec<(u8, i8, i8, i8, i8)> {
                    list.iter().map(|p| (p.pos.orientation, p.pos.x, p.turns, p.shifts, p.slide)).collect()
                };
                proptest::prop_assert_eq!(paths(table.placements()), paths(&expected));
            }
            let moved = PiecePos { x: start.x + 1, ..start };
            proptest::prop_assert!(!table.applies(&board, moved));
        }
    }

    #[test]
    fn no_table_under_gravity_or_kicks() {
        let set = PieceSet::tetrominoes();
        for preset in [Preset::Classic, Preset::Guideline] {
            let rules = Rules::preset(preset);
            let kind = set.kind(PieceId(2));
            assert!(OpenSkyDrops::new(&rules, kind, rules.spawn(kind)).is_none(), "{preset}");
        }
    }

    #[test]
    fn the_empty_board_perft_from_the_table() {
        // As the move generator's own perft: O 9, I/S/Z 17, T/J/L 34.
        let set = PieceSet::tetrominoes();
        let rules = Rules::preset(Preset::Simplified);
        let board = Board::new(rules.width, rules.height);
        let counts: Vec<usize> = set
            .kinds()
            .iter()
            .map(|kind| {
                let table = OpenSkyDrops::new(&rules, kind, rules.spawn(kind)).unwrap();
                assert!(table.applies(&board, rules.spawn(kind)));
                table.placements().len()
            })
            .collect();
        assert_eq!(counts, vec![17, 9, 34, 17, 17, 34, 34]);
    }
}
