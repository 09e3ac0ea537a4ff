//! The order placements are rated in: it decides which of two exactly tied placements
//! wins, since the first strict maximum does.
//!
//! - `order=tetrad` (default): the SDK's enumeration order.
//! - `order=mdptetris`: the MdpTetris simulator's. It takes the orientations of each
//!   tetromino in its own order, given here as indices of tetrad's orientations, and the
//!   columns from left to right within each, as tetrad does. Under `simplified` that is
//!   the simulator's order exactly; under the other presets the placements of each
//!   orientation keep the SDK's order among themselves.

use tetrad_plugin_api::{PieceId, PieceSet, Placement};

/// MdpTetris's order of each tetromino's orientations, as tetrad's orientation indices.
const MDPTETRIS: [(&str, &[u8]); 7] = [
    ("I", &[1, 0]),
    ("O", &[0]),
    ("T", &[1, 0, 3, 2]),
    ("S", &[1, 0]),
    ("Z", &[1, 0]),
    ("J", &[0, 3, 2, 1]),
    ("L", &[2, 1, 0, 3]),
];

/// Where each orientation of each piece comes in the order, when it is not the SDK's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// Per piece, per orientation: its rank.
    ranks: Vec<Vec<u8>>,
}

impl Order {
    /// The order the option `order` names for `pieces`: `None` for the SDK's own.
    pub fn parse(name: &str, pieces: &PieceSet) -> Result<Option<Order>, String> {
        match name {
            "tetrad" => Ok(None),
            "mdptetris" => Order::mdptetris(pieces).map(Some),
            other => Err(format!("option `order`: `{other}` is not tetrad or mdptetris")),
        }
    }

    /// MdpTetris's order, for the seven standard tetrominoes only.
    fn mdptetris(pieces: &PieceSet) -> Result<Order, String> {
        if *pieces != PieceSet::tetrominoes() {
            return Err("option `order=mdptetris` needs the seven standard tetrominoes".to_string());
        }
        let ranks = pieces
            .kinds()
            .iter()
            .map(|kind| {
                let (_, order) = MDPTETRIS
                    .iter()
                    .find(|(name, _)| *name == kind.name())
                    .expect("a standard tetromino");
                let mut ranks = vec![0; order.len()];
                for (rank, &orientation) in order.iter().enumerate() {
                    ranks[usize::from(orientation)] = rank as u8;
                }
                ranks
            })
            .collect();
        Ok(Order { ranks })
    }

    /// The rank of `orientation` of `piece`.
    #[inline]
    pub fn rank(&self, piece: PieceId, orientation: u8) -> u8 {
        self.ranks[piece.index()][usize::from(orientation)]
    }

    /// Puts `placements` of `piece` in this order: by orientation, keeping the order of
    /// each orientation's placements.
    pub fn sort(&self, piece: PieceId, placements: &mut [Placement]) {
        placements.sort_by_key(|p| self.rank(piece, p.pos.orientation));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mdptetris_ranks_tetrads_orientations() {
        let order = Order::parse("mdptetris", &PieceSet::tetrominoes()).unwrap().unwrap();
        let ranks = |piece: u8| {
            let count = PieceSet::tetrominoes().kind(PieceId(piece)).orientations().len() as u8;
            (0..count).map(|o| order.rank(PieceId(piece), o)).collect::<Vec<_>>()
        };
        // The T's orientations in MdpTetris's order are 1, 0, 3, 2: orientation 0 second.
        assert_eq!(ranks(2), vec![1, 0, 3, 2]);
        // The J's are 0, 3, 2, 1; the L's 2, 1, 0, 3.
        assert_eq!(ranks(5), vec![0, 3, 2, 1]);
        assert_eq!(ranks(6), vec![2, 1, 0, 3]);
        assert_eq!(ranks(0), vec![1, 0]);
    }

    #[test]
    fn orders_are_named_and_mdptetris_needs_the_tetrominoes() {
        let tetrominoes = PieceSet::tetrominoes();
        assert_eq!(Order::parse("tetrad", &tetrominoes), Ok(None));
        let err = Order::parse("sorted", &tetrominoes).unwrap_err();
        assert_eq!(err, "option `order`: `sorted` is not tetrad or mdptetris");
        let fewer = PieceSet::new(tetrominoes.kinds()[..6].to_vec());
        let err = Order::parse("mdptetris", &fewer).unwrap_err();
        assert!(err.contains("seven standard tetrominoes"), "{err}");
    }
}
