//! The Rust SDK: implement [`Solver`], call [`crate::export_solver!`], and the plugin
//! exports an `abi_stable` root module. Panics are caught here, before any `extern "C"`
//! frame, and become an error status the host reports.

use crate::abi::{TetradField, TetradGameInfo, TetradPiece, ABI_VERSION, NO_PIECE};
use crate::model::board::{Board, PiecePos, MAX_HEIGHT, MAX_WIDTH};
use crate::model::motion::Actions;
use crate::model::piece::{PieceId, PieceKind, PieceSet, MAX_PIECE_SIZE};
use crate::model::rules::{Preset, Randomizer, Rules};
use crate::module::{PluginInfoAbi, PluginModule, PluginModuleRef, SolverBox, SolverInstance, SolverInstance_TO};
use crate::options::Options;
use abi_stable::prefix_type::PrefixTypeTrait;
use abi_stable::sabi_trait::TD_Opaque;
use abi_stable::std_types::{RResult, RStr, RString};
use std::cell::{Cell, RefCell};
use std::ffi::CStr;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

/// A plugin's description of itself.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// Short name, as users type it after `--plugin`.
    pub name: &'static str,
    /// Version.
    pub version: &'static str,
    /// Author.
    pub author: &'static str,
    /// One-line description.
    pub description: &'static str,
}

/// What a solver learns at creation: the rules, the piece set and a seed of its own.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// The rules of the game (the randomizer is not told to plugins; it reads `Uniform`).
    pub rules: Rules,
    /// The piece set, with the same orientations the host uses.
    pub pieces: PieceSet,
    /// A seed for the solver's own randomness.
    pub seed: u64,
}

/// The falling piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FallingPiece {
    /// Which kind it is.
    pub id: PieceId,
    /// Where it is.
    pub pos: PiecePos,
}

/// What the host shows the solver at one tick.
#[derive(Clone, Debug)]
pub struct Tick {
    /// The board without the falling piece.
    pub board: Board,
    /// The falling piece.
    pub current: Option<FallingPiece>,
    /// The next piece, when the preview is on.
    pub next: Option<PieceId>,
    /// True on the first tick of each piece.
    pub new_piece: bool,
}

/// A Tetris solver. One value plays one game; the host creates one per game.
pub trait Solver: Send + Sized + 'static {
    /// The plugin's name, version, author and description.
    const INFO: Info;

    /// Creates a solver for one game. Take your options from `options`; keys you do not
    /// take are reported to the user as unknown. An `Err` is shown to the user verbatim.
    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String>;

    /// Called once per tick: the actions to apply to the falling piece.
    fn update(&mut self, tick: &Tick) -> Actions;
}

/// Builds the root module for `S`; called by [`crate::export_solver!`].
pub fn root_module<S: Solver>() -> PluginModuleRef {
    PluginModule {
        abi_version: ABI_VERSION,
        info: info::<S>,
        create: create::<S>,
    }
    .leak_into_prefix()
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
    let made = guarded(|| {
        let setup = setup_from_abi(game)?;
        let mut parsed = Options::parse(options.as_str())?;
        let solver = S::create(&setup, &mut parsed)?;
        parsed.finish()?;
        let tick = Tick {
            board: Board::new(setup.rules.width, setup.rules.height),
            current: None,
            next: None,
            new_piece: false,
        };
        Ok(Guarded {
            solver,
            orientations: orientation_counts(&setup.pieces),
            setup,
            tick,
            failed: None,
        })
    });
    match made {
        Ok(guarded) => RResult::ROk(SolverInstance_TO::from_value(guarded, TD_Opaque)),
        Err(message) => RResult::RErr(message.into()),
    }
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
        if let Some(message) = &self.failed {
            return RResult::RErr(message.as_str().into());
        }
        let result = guarded(|| {
            fill_tick(
                &mut self.tick,
                &self.setup,
                &self.orientations,
                field,
                current,
                next,
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

thread_local! {
    static GUARD_DEPTH: Cell<u32> = const { Cell::new(0) };
    static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the quiet panic hook, once per copy of std.
static QUIET_HOOK: Once = Once::new();

/// Whether the SDK runs inside a plugin library that a host loaded (see [`loaded_by_host`]).
static LOADED_BY_HOST: AtomicBool = AtomicBool::new(false);

/// Records that a host drives this SDK through the dynamic loader. Called by the
/// `tetrad_abi_version` that [`crate::export_solver!`] exports, which hosts call before
/// anything else in the library; nothing else should call it.
///
/// A loaded library links its own private copy of std, whose panic hook serves only the
/// plugin: every panic that reaches it is the plugin's, so [`guarded`] need not count how
/// deep the thread is in guarded calls to tell the plugin's panics from the host's. That
/// count is a thread-local, and in a shared library reaching one is a call into the
/// dynamic loader (`__tls_get_addr`) on every update. The price: a panic on a thread the
/// plugin spawned itself, outside any call, is recorded quietly too instead of printed.
#[doc(hidden)]
pub fn loaded_by_host() {
    QUIET_HOOK.call_once(install_quiet_hook);
    LOADED_BY_HOST.store(true, Ordering::Release);
}

/// Replaces the panic hook with one that records the message of a panic inside a
/// [`guarded`] call, instead of printing it, and passes any other panic to the hook that
/// was there before (this matters when the SDK is linked into a host or test process
/// rather than loaded as a plugin library).
fn install_quiet_hook() {
    let previous = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        if !LOADED_BY_HOST.load(Ordering::Acquire) && GUARD_DEPTH.with(Cell::get) == 0 {
            return previous(info);
        }
        let payload = info.payload();
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic with a non-text payload".to_string());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        PANIC_MESSAGE.with(|m| *m.borrow_mut() = Some(format!("panicked{at}: {text}")));
    }));
}

/// Runs `f`, turning a panic into an error that carries the panic's message and location.
///
/// Inside `f` the quiet panic hook records the message instead of printing it, so the host
/// alone decides what the user sees.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    // Loaded by a host, the hook is installed and records every panic.
    let linked_in = !LOADED_BY_HOST.load(Ordering::Acquire);
    if linked_in {
        QUIET_HOOK.call_once(install_quiet_hook);
        GUARD_DEPTH.with(|d| d.set(d.get() + 1));
    }
    let outcome = panic::catch_unwind(AssertUnwindSafe(f));
    if linked_in {
        GUARD_DEPTH.with(|d| d.set(d.get() - 1));
    }
    match outcome {
        Ok(result) => result,
        Err(_) => Err(PANIC_MESSAGE
            .with(|m| m.borrow_mut().take())
            .unwrap_or_else(|| "panicked".to_string())),
    }
}

/// Reads the game info the host passed to `create` into model types.
///
/// Everything is checked: a malformed info is an error, never undefined behaviour beyond
/// what the raw pointers themselves promise.
pub fn setup_from_abi(game: &TetradGameInfo) -> Result<GameSetup, String> {
    if game.abi_version != ABI_VERSION {
        return Err(format!(
            "host speaks ABI version {}, plugin expects {ABI_VERSION}",
            game.abi_version
        ));
    }
    let preset = Preset::from_abi_id(game.preset).ok_or_else(|| format!("unknown preset number {}", game.preset))?;
    let width = game.width as usize;
    let height = game.height as usize;
    if !(1..=MAX_WIDTH).contains(&width) || !(1..=MAX_HEIGHT).contains(&height) {
        return Err(format!("board {width}x{height} is beyond {MAX_WIDTH}x{MAX_HEIGHT}"));
    }
    if game.pieces.is_null() || game.piece_count == 0 || game.piece_count > 255 {
        return Err(format!("piece set of {} pieces is not usable", game.piece_count));
    }
    // SAFETY: the header requires `pieces` to point to `piece_count` records that stay
    // valid for the whole `create` call, which encloses this function.
    let records = unsafe { std::slice::from_raw_parts(game.pieces, game.piece_count as usize) };
    let mut kinds = Vec::with_capacity(records.len());
    for record in records {
        let name = if record.name.is_null() {
            String::new()
        } else {
            // SAFETY: a non-null name is a NUL-terminated string valid during `create`.
            unsafe { CStr::from_ptr(record.name) }.to_string_lossy().into_owned()
        };
        let orientations = record.orientation_count as usize;
        let cells = record.cell_count as usize;
        if record.cells.is_null()
            || orientations == 0
            || orientations > 4
            || cells == 0
            || cells > MAX_PIECE_SIZE * MAX_PIECE_SIZE
        {
            return Err(format!("piece `{name}` has no usable cells"));
        }
        // SAFETY: the header requires `cells` to hold `orientation_count * cell_count`
        // entries, valid during `create`.
        let all = unsafe { std::slice::from_raw_parts(record.cells, orientations * cells) };
        let box_size = record.box_size as usize;
        let in_box =
            |c: &crate::abi::TetradCell| (0..box_size as i8).contains(&c.x) && (0..box_size as i8).contains(&c.y);
        if box_size == 0 || box_size > MAX_PIECE_SIZE || !all.iter().all(in_box) {
            return Err(format!("piece `{name}` has cells outside its rotation box"));
        }
        let shapes = all
            .chunks(cells)
            .map(|o| o.iter().map(|c| (c.x, c.y)).collect())
            .collect();
        kinds.push(PieceKind::from_orientations(name, box_size as u8, shapes));
    }
    Ok(GameSetup {
        rules: Rules {
            preset,
            width,
            height,
            preview: game.preview as usize,
            randomizer: Randomizer::Uniform,
        },
        pieces: PieceSet::new(kinds),
        seed: game.seed,
    })
}

/// Orientations per piece kind, indexed by kind, 0 past the last kind of the set: checking
/// a piece view from the host is then one lookup in a fixed-size table, rather than two
/// bounds checks through the piece set's kinds.
type OrientationCounts = [u8; 256];

/// The [`OrientationCounts`] of `pieces`.
fn orientation_counts(pieces: &PieceSet) -> OrientationCounts {
    let mut counts = [0; 256];
    for (count, kind) in counts.iter_mut().zip(pieces.kinds()) {
        // At most 4 orientations.
        *count = kind.orientations().len() as u8;
    }
    counts
}

/// Reads one piece view, checking its kind and orientation against the piece set's
/// `orientations`. Inlined into [`fill_tick`], which reads two per tick.
#[inline]
fn piece_from_abi(orientations: &OrientationCounts, piece: &TetradPiece) -> Result<Option<FallingPiece>, String> {
    if piece.kind == NO_PIECE {
        return Ok(None);
    }
    // Every kind of a set has an orientation: a kind with none is not in the set.
    let (kind, count) = u8::try_from(piece.kind)
        .ok()
        .map(|k| (k, orientations[usize::from(k)]))
        .filter(|&(_, count)| count != 0)
        .ok_or_else(|| format!("host sent unknown piece kind {}", piece.kind))?;
    let orientation = u8::try_from(piece.orientation)
        .ok()
        .filter(|&o| o < count)
        .ok_or_else(|| format!("host sent unknown orientation {}", piece.orientation))?;
    Ok(Some(FallingPiece {
        id: PieceId(kind),
        pos: PiecePos {
            orientation,
            x: piece.x as i8,
            y: piece.y as i8,
        },
    }))
}

/// Reads the host's view of one tick into `tick`, reusing its board.
#[inline]
fn fill_tick(
    tick: &mut Tick,
    setup: &GameSetup,
    orientations: &OrientationCounts,
    field: &TetradField,
    current: &TetradPiece,
    next: &TetradPiece,
    new_piece: bool,
) -> Result<(), String> {
    let height = field.height as usize;
    if field.rows.is_null() || height != setup.rules.height || field.width as usize != setup.rules.width {
        return Err(format!(
            "host sent a {}x{} field for a {}x{} game",
            field.width, field.height, setup.rules.width, setup.rules.height
        ));
    }
    // SAFETY: the header requires `rows` to hold `height` rows, valid during `update`.
    let rows = unsafe { std::slice::from_raw_parts(field.rows, height) };
    // The rows change only when a piece locks, so only a call for a new piece brings new
    // rows (the header promises it); the other calls' rows are the board already held.
    // A debug build checks the promise.
    if new_piece {
        tick.board.copy_rows(rows);
    } else {
        debug_assert!(
            Board::from_rows(setup.rules.width, height, rows) == tick.board,
            "host changed the field during a piece (new_piece was false)"
        );
    }
    tick.current = piece_from_abi(orientations, current)?;
    tick.next = piece_from_abi(orientations, next)?.map(|p| p.id);
    tick.new_piece = new_piece;
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::GameInfoBuf;

    #[test]
    fn the_exported_header_has_the_name_the_loader_looks_for() {
        assert_eq!(
            abi_stable::library::ROOT_MODULE_LOADER_NAME,
            "_1as_0lib_1header_0root_bmodule_bloader"
        );
    }

    #[test]
    fn game_info_round_trips_through_the_abi() {
        for preset in Preset::ALL {
            let rules = Rules::preset(preset);
            let pieces = PieceSet::tetrominoes();
            let buf = GameInfoBuf::new(&rules, &pieces, 42);
            let setup = setup_from_abi(buf.info()).unwrap();
            assert_eq!(setup.rules, rules);
            assert_eq!(setup.pieces, pieces);
            assert_eq!(setup.seed, 42);
        }
    }

    #[test]
    fn piece_views_are_checked_against_the_piece_set() {
        let pieces = PieceSet::tetrominoes();
        let counts = orientation_counts(&pieces);
        let view = |kind, orientation| TetradPiece {
            kind,
            orientation,
            x: 3,
            y: -1,
        };
        assert_eq!(piece_from_abi(&counts, &view(NO_PIECE, 0)), Ok(None));
        for (id, kind) in pieces.kinds().iter().enumerate() {
            let last = kind.orientations().len() as i32 - 1;
            let read = piece_from_abi(&counts, &view(id as i32, last)).unwrap().unwrap();
            assert_eq!(read.id, PieceId(id as u8));
            assert_eq!((read.pos.orientation as i32, read.pos.x, read.pos.y), (last, 3, -1));
            assert_eq!(
                piece_from_abi(&counts, &view(id as i32, last + 1)),
                Err(format!("host sent unknown orientation {}", last + 1))
            );
        }
        for kind in [7, 255, 256, -2] {
            assert_eq!(
                piece_from_abi(&counts, &view(kind, 0)),
                Err(format!("host sent unknown piece kind {kind}"))
            );
        }
        assert_eq!(
            piece_from_abi(&counts, &view(2, -1)),
            Err("host sent unknown orientation -1".to_string())
        );
    }

    #[test]
    fn the_rows_are_read_on_each_new_piece_and_held_between() {
        let rules = Rules::preset(Preset::Classic);
        let pieces = PieceSet::tetrominoes();
        let setup = GameSetup {
            rules,
            pieces: pieces.clone(),
            seed: 1,
        };
        let counts = orientation_counts(&pieces);
        let mut tick = Tick {
            board: Board::new(rules.width, rules.height),
            current: None,
            next: None,
            new_piece: false,
        };
        let piece = TetradPiece {
            kind: 0,
            orientation: 0,
            x: 3,
            y: 0,
        };
        let no_piece = TetradPiece {
            kind: NO_PIECE,
            ..piece
        };
        let mut rows = vec![0u32; rules.height];
        let mut fill = |rows: &[u32], new_piece| {
            let field = TetradField {
                width: rules.width as u32,
                height: rules.height as u32,
                rows: rows.as_ptr(),
            };
            fill_tick(&mut tick, &setup, &counts, &field, &piece, &no_piece, new_piece).map(|()| tick.board.clone())
        };
        // Bits beyond the width are dropped; the surface is found.
        rows[19] = 0b1_0000_0000_0001;
        let board = fill(&rows, true).unwrap();
        assert_eq!((board.rows()[19], board.surface()), (0b1, 19));
        assert_eq!(fill(&rows, false).unwrap(), board);
        rows[18] = 0b11;
        let next = fill(&rows, true).unwrap();
        assert_eq!((next.rows()[18], next.surface()), (0b11, 18));
        // A host that changes the rows during a piece breaks the header's promise: a debug
        // build says so (a release build keeps the rows it holds).
        rows[17] = 0b1;
        let changed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fill(&rows, false)));
        assert_eq!(changed.is_err(), cfg!(debug_assertions));
    }

    #[test]
    fn panics_become_errors_with_their_message() {
        let result: Result<(), String> = guarded(|| panic!("boom {}", 7));
        let message = result.unwrap_err();
        assert!(message.starts_with("panicked at "), "{message}");
        assert!(message.ends_with(": boom 7"), "{message}");
    }

    #[test]
    fn linked_in_only_panics_inside_guarded_calls_are_recorded() {
        // Linked into this test process, the SDK was never loaded by a host.
        assert!(!LOADED_BY_HOST.load(Ordering::Acquire));
        guarded(|| Ok(())).unwrap();
        // Outside any guarded call, the panic goes to the hook that was there before.
        assert!(panic::catch_unwind(|| panic!("outside any guarded call")).is_err());
        assert_eq!(PANIC_MESSAGE.with(|m| m.borrow_mut().take()), None);
        // Nested calls record, and leave the depth as it was.
        let nested: Result<(), String> = guarded(|| guarded(|| panic!("nested")));
        assert!(nested.unwrap_err().ends_with(": nested"));
        assert_eq!(GUARD_DEPTH.with(Cell::get), 0);
    }
}
