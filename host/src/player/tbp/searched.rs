//! The `move_info` extension's numbers: summed over a game's moves, and their means as a
//! game's result records them.

use crate::plugin::tbp::messages::MoveInfo;

/// The `move_info` numbers of the moves played, summed: each number over the moves that
/// reported it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Searched {
    /// Moves played whose suggestion carried a `move_info` number.
    pub moves: u64,
    /// Nodes, summed, and over how many moves.
    pub nodes: (f64, u64),
    /// Nodes per second, summed, and over how many moves.
    pub nps: (f64, u64),
    /// Depth, summed, and over how many moves.
    pub depth: (f64, u64),
}

impl Searched {
    /// Adds one move's numbers.
    pub fn add(&mut self, info: MoveInfo) {
        self.moves += 1;
        for (sum, value) in [
            (&mut self.nodes, info.nodes),
            (&mut self.nps, info.nps),
            (&mut self.depth, info.depth),
        ] {
            if let Some(value) = value {
                sum.0 += value;
                sum.1 += 1;
            }
        }
    }

    /// Each number's mean over the moves that reported it; `None` when no move did.
    pub fn means(&self) -> Option<MoveInfoMeans> {
        let mean = |(sum, count): (f64, u64)| (count > 0).then(|| sum / count as f64);
        (self.moves > 0).then(|| MoveInfoMeans {
            moves: self.moves,
            nodes: mean(self.nodes),
            nps: mean(self.nps),
            depth: mean(self.depth),
        })
    }
}

/// A game's `move_info` numbers (TBP's extension), each the mean over the moves whose
/// suggestion reported it; a number no move reported is absent.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MoveInfoMeans {
    /// Moves played whose suggestion carried a `move_info` number.
    pub moves: u64,
    /// Mean nodes in the bot's game tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<f64>,
    /// Mean nodes created per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nps: Option<f64>,
    /// Mean depth of its game tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
}
