//! One layer of the search's bookkeeping: the children weighed without their boards, the
//! buffers kept from one decision to the next, and equal games found by a 64-bit hash.

use super::Move;
use crate::attack::Streak;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use tetrad_plugin_api::{Board, Landing, PieceId};

/// A child as the layer weighs it: everything but its board, which is made again from its
/// parent's only if it survives the cut (most children do not, and a board is the bulk
/// of a node).
#[derive(Clone, Copy)]
pub(super) struct Candidate {
    pub(super) score: f64,
    pub(super) reward: f64,
    /// Its parent's index in the layer.
    pub(super) parent: u32,
    /// Where it was made in the layer, for a stable order among equal scores.
    pub(super) order: u32,
    /// The move and where it locks; `None` for a parent with no piece left, passed on.
    pub(super) placed: Option<(Move, Landing)>,
    pub(super) streak: Streak,
    pub(super) incoming: u32,
}

/// The buffers a search reuses, decision after decision, so that a layer of tens of
/// thousands of children costs no allocation.
#[derive(Default)]
pub struct Scratch {
    pub(super) candidates: Vec<Candidate>,
    pub(super) index: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    pub(super) sweeps: Vec<Landing>,
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub(super) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0, u64::from(b));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// One step of a multiply-rotate hash (the constant is the 64-bit golden ratio's).
fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// What tells two games apart, hashed: the board, the piece to place, the held piece,
/// the place in the queue, the streak and the garbage waiting.
pub(super) fn key(
    board: &Board,
    current: Option<PieceId>,
    held: Option<PieceId>,
    next: usize,
    streak: Streak,
    incoming: u32,
) -> u64 {
    let mut hash = board.rows()[board.surface()..]
        .iter()
        .fold(board.surface() as u64, |h, &row| mix(h, u64::from(row)));
    let piece = |p: Option<PieceId>| p.map_or(0, |p| u64::from(p.0) + 1);
    hash = mix(hash, piece(current) | piece(held) << 8 | (next as u64) << 16);
    mix(
        hash,
        u64::from(streak.back_to_back) | u64::from(streak.combo) << 1 | u64::from(incoming) << 32,
    )
}

/// Adds `candidate` to the layer, or keeps the better of it and the same game already
/// there (in the place the first one took).
pub(super) fn keep(
    candidates: &mut Vec<Candidate>,
    index: &mut HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    key: u64,
    candidate: Candidate,
) {
    match index.entry(key) {
        Entry::Occupied(at) => {
            let kept = &mut candidates[*at.get() as usize];
            if candidate.score > kept.score {
                *kept = Candidate {
                    order: kept.order,
                    ..candidate
                };
            }
        }
        Entry::Vacant(slot) => {
            let order = candidates.len() as u32;
            slot.insert(order);
            candidates.push(Candidate { order, ..candidate });
        }
    }
}
