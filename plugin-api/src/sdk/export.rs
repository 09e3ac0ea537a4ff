//! The root module a plugin exports, built for any [`Solver`], and the
//! [`crate::export_solver!`] macro that exports it.

use super::convert::{fill_tick, orientation_counts, setup_from_abi, OrientationCounts};
use super::guard::guarded;
use super::solver::{GameSetup, Solver, Tick};
use crate::abi::{TetradField, TetradGameInfo, TetradPiece, TetradState, ABI_VERSION};
use crate::model::board::Board;
use crate::module::{
    PluginInfoAbi, PluginModule, PluginModuleRef, SolverBox, SolverInstance, SolverInstanceV2, SolverInstanceV2_TO,
    SolverInstance_TO, SolverV2Box,
};
use crate::options::Options;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr, RString};

/// Builds the root module for `S`; called by [`crate::export_solver!`].
pub fn root_module<S: Solver>() -> PluginModuleRef {
    PluginModule {
        abi_version: ABI_VERSION,
        info: info::<S>,
        create: create::<S>,
        create_v2: create_v2::<S>,
        set_think_budget,
    }
    .leak_into_prefix()
}

std::thread_local! {
    /// The think budget the host gave for the next update made on this thread, in
    /// microseconds (0: none). A thread's own, because games run on many threads at once
    /// and each game's updates come from one thread.
    static THINK_BUDGET: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Keeps the host's think budget for the next update on the calling thread.
extern "C" fn set_think_budget(micros: u64) {
    THINK_BUDGET.with(|budget| budget.set(micros));
}

extern "C" fn info<S: Solver>() -> PluginInfoAbi {
    PluginInfoAbi {
        abi_version: ABI_VERSION,
        name: S::INFO.name.into(),
        version: S::INFO.version.into(),
        author: S::INFO.author.into(),
        description: S::INFO.description.into(),
    }
}

extern "C" fn create<S: Solver>(game: &TetradGameInfo, options: RStr<'_>) -> RResult<SolverBox, RString> {
    match new_guarded::<S>(game, options) {
        Ok(guarded) => RResult::ROk(SolverInstance_TO::from_value(guarded, TD_Opaque)),
        Err(message) => RResult::RErr(message.into()),
    }
}

extern "C" fn create_v2<S: Solver>(game: &TetradGameInfo, options: RStr<'_>) -> RResult<SolverV2Box, RString> {
    match new_guarded::<S>(game, options) {
        Ok(guarded) => RResult::ROk(SolverInstanceV2_TO::from_value(guarded, TD_Opaque)),
        Err(message) => RResult::RErr(message.into()),
    }
}

/// Creates the solver for `game` with `options`, behind its guard.
fn new_guarded<S: Solver>(game: &TetradGameInfo, options: RStr<'_>) -> Result<Guarded<S>, String> {
    guarded(|| {
        let setup = setup_from_abi(game)?;
        let mut parsed = Options::parse(options.as_str())?;
        let solver = S::create(&setup, &mut parsed)?;
        parsed.finish()?;
        let tick = Tick::new(Board::new(setup.rules.width, setup.rules.height), None, None, false);
        Ok(Guarded {
            solver,
            orientations: orientation_counts(&setup.pieces),
            setup,
            tick,
            failed: None,
        })
    })
}

/// A solver behind the boundary: every call runs under `catch_unwind`, and after a panic
/// the solver is never called again.
struct Guarded<S> {
    solver: S,
    setup: GameSetup,
    /// How many orientations each kind of the setup's piece set has.
    orientations: OrientationCounts,
    /// The tick shown to the solver, refilled in place from the ABI at every call.
    tick: Tick,
    failed: Option<String>,
}

impl<S: Solver> SolverInstance for Guarded<S> {
    fn update(
        &mut self,
        field: &TetradField,
        current: &TetradPiece,
        next: &TetradPiece,
        new_piece: bool,
    ) -> RResult<u32, RString> {
        self.tick(field, current, next, None, new_piece)
    }
}

impl<S: Solver> SolverInstanceV2 for Guarded<S> {
    fn update(
        &mut self,
        field: &TetradField,
        current: &TetradPiece,
        next: &TetradPiece,
        state: &TetradState,
        new_piece: bool,
    ) -> RResult<u32, RString> {
        self.tick(field, current, next, Some(state), new_piece)
    }
}

impl<S: Solver> Guarded<S> {
    /// One `update` of either version: the tick read, the solver asked, a panic caught.
    #[inline]
    fn tick(
        &mut self,
        field: &TetradField,
        current: &TetradPiece,
        next: &TetradPiece,
        state: Option<&TetradState>,
        new_piece: bool,
    ) -> RResult<u32, RString> {
        if let Some(message) = &self.failed {
            return RResult::RErr(message.as_str().into());
        }
        let budget = THINK_BUDGET.with(|budget| budget.replace(0));
        self.tick.think_budget = (budget > 0).then(|| std::time::Duration::from_micros(budget));
        let result = guarded(|| {
            fill_tick(
                &mut self.tick,
                &self.setup,
                &self.orientations,
                field,
                current,
                next,
                state,
                new_piece,
            )?;
            Ok(self.solver.update(&self.tick).0)
        });
        match result {
            Ok(actions) => RResult::ROk(actions),
            Err(message) => {
                self.failed = Some(message.clone());
                RResult::RErr(message.into())
            }
        }
    }
}

/// Exports a [`Solver`] as a tetrad plugin: the `abi_stable` root module, plus the plain
/// `tetrad_abi_version` symbol the host reads first, so a version mismatch is reported
/// before any layout check. That call is also how the SDK learns that it runs inside a
/// library a host loaded, where it can skip some bookkeeping (see `sdk::loaded_by_host`).
/// Everything it expands to goes through this crate, so the plugin crate needs no other
/// dependency.
#[macro_export]
macro_rules! export_solver {
    ($solver:ty) => {
        /// The root module of this tetrad plugin.
        pub fn tetrad_root_module() -> $crate::module::PluginModuleRef {
            $crate::sdk::root_module::<$solver>()
        }

        /// The header the host's loader looks for: what `abi_stable`'s
        /// `#[export_root_module]` generates, spelled through this crate's re-export so a
        /// plugin depends on `tetrad-plugin-api` alone.
        #[export_name = "_1as_0lib_1header_0root_bmodule_bloader"]
        pub static TETRAD_ROOT_MODULE_HEADER: $crate::abi_stable::library::LibHeader = {
            extern "C" fn erased_root_module() -> $crate::abi_stable::library::RootModuleResult {
                $crate::abi_stable::library::__call_root_module_loader(tetrad_root_module)
            }
            type Module =
                <$crate::module::PluginModuleRef as $crate::abi_stable::library::IntoRootModuleResult>::Module;
            // SAFETY: as in `abi_stable`'s own expansion: the constructor returns this very
            // module type, and its layout is checked by the loader.
            unsafe {
                $crate::abi_stable::library::LibHeader::from_constructor::<Module>(
                    erased_root_module,
                    $crate::abi_stable::library::CheckTypeLayout::Yes,
                )
            }
        };

        /// The tetrad ABI version this plugin was built for.
        #[no_mangle]
        pub extern "C" fn tetrad_abi_version() -> u32 {
            $crate::sdk::loaded_by_host();
            $crate::abi::ABI_VERSION
        }
    };
}
