//! What a tetrad plugin author depends on: the frozen ABI, the Rust SDK, and the shared
//! game model (bitboard, pieces, rules, placement enumeration) that host and plugins run
//! alike, so a plugin's prediction of where a piece lands is exactly what the host does.
//!
//! A minimal Rust plugin:
//!
//! ```
//! use tetrad_plugin_api::{Actions, GameSetup, Info, Options, Solver, Tick};
//!
//! struct DropAtOnce;
//!
//! impl Solver for DropAtOnce {
//!     const INFO: Info = Info {
//!         name: "drop",
//!         version: "0.1.0",
//!         author: "you",
//!         description: "drops every piece where it appears",
//!     };
//!
//!     fn create(_setup: &GameSetup, _options: &mut Options) -> Result<Self, String> {
//!         Ok(DropAtOnce)
//!     }
//!
//!     fn update(&mut self, _tick: &Tick) -> Actions {
//!         Actions::DROP
//!     }
//! }
//!
//! tetrad_plugin_api::export_solver!(DropAtOnce);
//! # fn main() {}
//! ```
#![deny(missing_docs)]

pub mod abi;
mod model;
#[cfg(feature = "abi")]
pub mod module;
mod options;
pub mod sdk;

pub use model::attack::{GuidelineAttack, Streak};
pub use model::board::{Board, Lock, PiecePos, MAX_HEIGHT, MAX_WIDTH};
pub use model::motion::{step, Actions, Step};
pub use model::movegen::{placements, placements_into, OpenSkyDrops, Path, Placement};
pub use model::piece::{Orientation, PieceId, PieceKind, PieceSet, MAX_PIECE_SIZE};
pub use model::reach::{reachable, reachable_with_hold, HoldReached, Reached};
pub use model::rng::{derive_seed, splitmix64, SeededRng};
pub use model::rotation::RotationSystem;
pub use model::rules::{Movement, Preset, Randomizer, Rules, RulesError};
pub use model::spin::{t_spin, Spin};
pub use model::sweep::{sweep, sweep_into, Entry, Landing};
pub use options::Options;
pub use sdk::{FallingPiece, GameSetup, Info, Solver, Tick};

#[cfg(feature = "abi")]
/// Re-exported so plugin crates and the host use the same `abi_stable`; a plugin needs
/// no dependency of its own on it.
pub use abi_stable;

/// This crate's version: a Rust plugin loads only into a host built against a compatible
/// one, and the host names it when it refuses a plugin.
pub const API_VERSION: &str = env!("CARGO_PKG_VERSION");
