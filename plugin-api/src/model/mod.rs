//! The shared game model: board, pieces, rules, one tick of movement, and placements.

pub mod attack;
pub mod board;
pub mod motion;
pub mod movegen;
pub mod piece;
pub mod reach;
pub mod rng;
pub mod rotation;
pub mod rules;
pub mod spin;
pub mod sweep;

#[cfg(test)]
mod srs_tests;
