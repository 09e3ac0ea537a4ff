//! The Rust SDK: implement [`Solver`], call [`crate::export_solver!`], and the plugin
//! exports an `abi_stable` root module. Panics are caught here, before any `extern "C"`
//! frame, and become an error status the host reports.
//!
//! `solver` holds what an author implements and reads; `export` the root module and the
//! macro; `guard` the panic guard; `convert` the host's ABI structs read into model types.

#[cfg(feature = "abi")]
mod convert;
#[cfg(feature = "abi")]
mod export;
mod guard;
mod solver;

#[cfg(feature = "abi")]
pub use convert::setup_from_abi;
#[cfg(feature = "abi")]
pub use export::root_module;
pub use guard::loaded_by_host;
pub use solver::{FallingPiece, GameSetup, Info, Solver, Tick};

#[cfg(all(test, feature = "abi"))]
mod tests;
