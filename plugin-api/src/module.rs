#![allow(non_local_definitions)] // the `sabi_trait` expansion puts impls inside a const block
//! The Rust flavour of the ABI: an `abi_stable` root module whose layout the host checks
//! at load, and the solver instance as an FFI-safe trait object.

use crate::abi::{TetradField, TetradGameInfo, TetradPiece, TetradState};
use abi_stable::library::RootModule;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::{RBox, RResult, RStr, RString};
use abi_stable::{declare_root_module_statics, package_version_strings, sabi_trait, StableAbi};

/// A plugin's description of itself.
#[repr(C)]
#[derive(StableAbi, Clone, Debug, PartialEq, Eq)]
pub struct PluginInfoAbi {
    /// The ABI version the plugin was built for.
    pub abi_version: u32,
    /// Short name ("random").
    pub name: RString,
    /// Version ("0.1.0").
    pub version: RString,
    /// Author.
    pub author: RString,
    /// One-line description.
    pub description: RString,
}

/// One game's solver, living inside the plugin. Dropping it destroys the instance.
#[sabi_trait]
pub trait SolverInstance: Send {
    /// Called once per tick; returns the OR-ed action bits, or the error text of a
    /// failure (a caught panic) that ends the game.
    fn update(
        &mut self,
        field: &TetradField,
        current: &TetradPiece,
        next: &TetradPiece,
        new_piece: bool,
    ) -> RResult<u32, RString>;
}

/// A boxed solver instance as it crosses the boundary.
pub type SolverBox = SolverInstance_TO<'static, RBox<()>>;

/// One game's solver of ABI version 2, which sees the [`TetradState`] at every tick.
/// Dropping it destroys the instance.
#[sabi_trait]
pub trait SolverInstanceV2: Send {
    /// Called once per tick; returns the OR-ed action bits (soft drop and hold among
    /// them), or the error text of a failure (a caught panic) that ends the game.
    fn update(
        &mut self,
        field: &TetradField,
        current: &TetradPiece,
        next: &TetradPiece,
        state: &TetradState,
        new_piece: bool,
    ) -> RResult<u32, RString>;
}

/// A boxed version 2 solver instance as it crosses the boundary.
pub type SolverV2Box = SolverInstanceV2_TO<'static, RBox<()>>;

/// The root module a Rust plugin exports (through [`crate::export_solver!`]).
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginModuleRef)))]
#[sabi(missing_field(panic))]
pub struct PluginModule {
    /// The ABI version the plugin was built for.
    pub abi_version: u32,
    /// The plugin's description of itself.
    pub info: extern "C" fn() -> PluginInfoAbi,
    /// Creates one game's instance from the game info and the `key=value` options, or
    /// returns the error text to show the user verbatim.
    #[sabi(last_prefix_field)]
    pub create: extern "C" fn(&TetradGameInfo, RStr<'_>) -> RResult<SolverBox, RString>,
    /// Version 2: creates an instance that sees the [`TetradState`] at each tick. Absent
    /// from a plugin built for version 1, where the host reads it as `None` and calls
    /// `create`.
    #[sabi(missing_field(option))]
    pub create_v2: extern "C" fn(&TetradGameInfo, RStr<'_>) -> RResult<SolverV2Box, RString>,
    /// Under a time control, called just before the update of a piece's first tick, on
    /// the thread that makes it: the microseconds that piece's decision may take. The
    /// solver sees it as [`Tick::think_budget`](crate::Tick::think_budget) in that update.
    /// Absent from a plugin built before it, which the host then never tells.
    #[sabi(missing_field(option))]
    pub set_think_budget: extern "C" fn(u64),
}

impl RootModule for PluginModuleRef {
    declare_root_module_statics! {PluginModuleRef}
    const BASE_NAME: &'static str = "tetrad_plugin";
    const NAME: &'static str = "tetrad plugin";
    const VERSION_STRINGS: VersionStrings = package_version_strings!();
}
