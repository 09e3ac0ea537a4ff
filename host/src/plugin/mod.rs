//! The plugin loader: opens a shared library, checks its ABI version, and puts the Rust
//! (`abi_stable`) and C flavours behind one [`Plugin`] type, beside the process flavour: a
//! program named by a manifest that speaks the bot protocol ([`bot`]). Libraries are never
//! unloaded.

pub mod bot;
mod c_flavour;
mod confined;
mod discovery;
mod exit_guard;
mod info;
mod manifest;
mod rust_flavour;
pub mod tbp;

pub use crate::input::printable;
pub use discovery::{
    bundled_plugins, looks_like_path, plugin_name, resolve, search_path, user_plugin_dir, BundledPlugin,
    PLUGIN_PATH_VAR,
};
pub use exit_guard::{install as guard_exit, PLUGIN_EXIT_CODE};
pub use info::{Flavour, LoadError, PluginInfo};
pub use manifest::{Manifest, Protocol};

use std::ffi::c_void;
use std::path::{Path, PathBuf};
use tetrad_plugin_api::abi::{
    GameInfoBuf, TetradField, TetradPiece, TetradState, ABI_VERSION, ACTION_MASK_V2, OLDEST_ABI_VERSION,
};

/// A loaded plugin, ready to create instances. Cheap to share between threads.
pub struct Plugin {
    info: PluginInfo,
    path: PathBuf,
    backend: Backend,
}

enum Backend {
    Rust(rust_flavour::RustPlugin),
    C(c_flavour::CPlugin),
    /// A bot's manifest, and its processes between games.
    Process(Manifest, std::sync::Arc<bot::IdleBots>),
    /// Under `--sandbox`, a library never opened here: it plays in sandboxed workers.
    Confined,
}

/// One game's instance of a plugin. Dropping it destroys the instance in the plugin.
pub struct Instance {
    inner: InstanceInner,
    /// A Rust plugin's setter of the think budget (a C plugin's is on its instance).
    think_budget: Option<extern "C" fn(u64)>,
    _live: exit_guard::Live,
}

enum InstanceInner {
    Rust(tetrad_plugin_api::module::SolverBox),
    RustV2(tetrad_plugin_api::module::SolverV2Box),
    C(c_flavour::CInstance),
}

impl Plugin {
    /// Loads the plugin at `path`. Opening a library runs its initialisers; a library
    /// that is not a tetrad plugin is refused before any of its functions is called.
    pub fn load(path: &Path) -> Result<Plugin, LoadError> {
        if !path.exists() {
            return Err(LoadError::NotFound {
                path: path.to_path_buf(),
            });
        }
        if Manifest::is_manifest(path) {
            return Plugin::load_bot(path);
        }
        if crate::sandbox::policy().is_some() {
            return Ok(Plugin {
                info: confined::info(path)?,
                path: path.to_path_buf(),
                backend: Backend::Confined,
            });
        }
        let library = c_flavour::open(path)?;
        let version = c_flavour::abi_version(&library, path)?;
        if !(OLDEST_ABI_VERSION..=ABI_VERSION).contains(&version) {
            return Err(LoadError::AbiVersion {
                path: path.to_path_buf(),
                found: version,
                oldest: OLDEST_ABI_VERSION,
                newest: ABI_VERSION,
            });
        }
        let (info, backend) = if rust_flavour::is_rust_plugin(&library) {
            let plugin = rust_flavour::RustPlugin::load(path)?;
            (plugin.info(), Backend::Rust(plugin))
        } else {
            let plugin = c_flavour::CPlugin::load(library, path, version)?;
            (plugin.info(path)?, Backend::C(plugin))
        };
        let info = PluginInfo {
            name: printable(info.name),
            version: printable(info.version),
            author: printable(info.author),
            description: printable(info.description),
            ..info
        };
        Ok(Plugin {
            info,
            path: path.to_path_buf(),
            backend,
        })
    }

    /// Reads a process bot's manifest, starts the bot once for its info, and ends it.
    fn load_bot(path: &Path) -> Result<Plugin, LoadError> {
        let manifest = Manifest::load(path).map_err(LoadError::Bot)?;
        if manifest.protocol == Protocol::Tbp {
            let (bot, told) = match tbp::start(&manifest) {
                Ok(started) => started,
                Err(failure) => return Plugin::stopped_at_start(path, manifest, failure, Flavour::Tbp),
            };
            // Kept for the first game (or the check of its options): no second start.
            let idle = std::sync::Arc::new(bot::IdleBots::default());
            idle.put(bot::IdleBot {
                bot,
                answers: None,
                rules: None,
            });
            return Ok(Plugin {
                info: PluginInfo {
                    name: printable(told.name),
                    version: printable(told.version),
                    author: printable(told.author),
                    description: "a Tetris Bot Protocol bot".to_string(),
                    // The protocol has no version number.
                    abi: 0,
                    flavour: Flavour::Tbp,
                    // Kept as listed, for the games: every process of the plugin is the
                    // same program, whether it told its info at load or later.
                    features: told.features.into_iter().map(printable).collect(),
                },
                path: path.to_path_buf(),
                backend: Backend::Process(manifest, idle),
            });
        }
        let (bot, info) = match bot::BotProcess::start(&manifest) {
            Ok(started) => started,
            Err(failure) => return Plugin::stopped_at_start(path, manifest, failure, Flavour::Process),
        };
        let idle = std::sync::Arc::new(bot::IdleBots::default());
        idle.put(bot::IdleBot {
            bot,
            answers: Some(info.answers),
            rules: None,
        });
        Ok(Plugin {
            info: PluginInfo {
                name: info.name,
                version: info.version,
                author: info.author,
                description: info.description,
                abi: bot::messages::PROTOCOL_VERSION,
                flavour: Flavour::Process,
                features: Vec::new(),
            },
            path: path.to_path_buf(),
            backend: Backend::Process(manifest, idle),
        })
    }

    /// A bot whose first process failed before its info. The sandbox having stopped it,
    /// it is listed by its manifest's name and forfeits each game with the cause: a
    /// stranger's bot does not stop the run. Any other failure is the load's error.
    fn stopped_at_start(
        path: &Path,
        manifest: Manifest,
        failure: bot::Failure,
        flavour: Flavour,
    ) -> Result<Plugin, LoadError> {
        if failure.kind != bot::FailureKind::Sandbox {
            return Err(LoadError::Bot(failure.message));
        }
        log::warn!("{}", failure.message);
        Ok(Plugin {
            info: PluginInfo {
                name: printable(manifest.name.clone()),
                version: String::new(),
                author: String::new(),
                description: format!("stopped by the sandbox before its info: {}", failure.message),
                abi: match flavour {
                    Flavour::Tbp => 0,
                    _ => bot::messages::PROTOCOL_VERSION,
                },
                flavour,
                features: Vec::new(),
            },
            path: path.to_path_buf(),
            backend: Backend::Process(manifest, Default::default()),
        })
    }

    /// The same plugin, played as the bot process `manifest` starts (a library served as a
    /// bot, for an isolated versus seat): its info and path stay the library's.
    pub fn played_by(&self, manifest: Manifest) -> Plugin {
        Plugin {
            info: self.info.clone(),
            path: self.path.clone(),
            backend: Backend::Process(manifest, Default::default()),
        }
    }

    /// The manifest of a process bot; `None` for a library.
    pub fn manifest(&self) -> Option<&Manifest> {
        match &self.backend {
            Backend::Process(manifest, _) => Some(manifest),
            Backend::Rust(_) | Backend::C(_) | Backend::Confined => None,
        }
    }

    /// A process bot's processes between games; `None` for a library.
    pub fn idle_bots(&self) -> Option<&std::sync::Arc<bot::IdleBots>> {
        match &self.backend {
            Backend::Process(_, idle) => Some(idle),
            Backend::Rust(_) | Backend::C(_) | Backend::Confined => None,
        }
    }

    /// The plugin's description of itself.
    pub fn info(&self) -> &PluginInfo {
        &self.info
    }

    /// Where it was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The ABI version the host speaks with this plugin: a library's own version (game
    /// infos are laid out for it, with [`GameInfoBuf::new`]).
    pub fn abi_version(&self) -> u32 {
        self.info.abi
    }

    /// The action bits this plugin may answer with: those of its ABI version, or for a
    /// process bot every bit the protocol defines.
    pub fn accepted_actions(&self) -> u32 {
        match self.info.flavour {
            Flavour::Process | Flavour::Tbp => ACTION_MASK_V2,
            Flavour::Rust | Flavour::C => tetrad_plugin_api::abi::action_mask(self.info.abi),
        }
    }

    /// Creates a library's instance for one game, or returns the plugin's error text. A
    /// process bot has no instance: its games are played through [`bot`].
    pub fn create(&self, game: &GameInfoBuf, options: &str) -> Result<Instance, String> {
        let think_budget = match &self.backend {
            Backend::Rust(plugin) => plugin.think_budget_setter(),
            _ => None,
        };
        let inner = match &self.backend {
            Backend::Rust(plugin) => plugin.create(game, options),
            Backend::C(plugin) => plugin.create(game, options).map(InstanceInner::C),
            Backend::Process(..) => Err("a process bot is not a library".to_string()),
            Backend::Confined => Err("under --sandbox a library plays only in a sandboxed worker".to_string()),
        };
        Ok(Instance {
            inner: inner.map_err(printable)?,
            think_budget,
            _live: exit_guard::Live::new(),
        })
    }
}

impl Instance {
    /// Whether the instance reads the version 2 [`TetradState`]: [`Instance::update`] then
    /// needs one.
    #[inline]
    pub fn wants_state(&self) -> bool {
        match &self.inner {
            InstanceInner::Rust(_) => false,
            InstanceInner::RustV2(_) => true,
            InstanceInner::C(instance) => instance.wants_state(),
        }
    }

    /// Whether the plugin is told each piece's think budget under a time control.
    pub fn takes_think_budget(&self) -> bool {
        match &self.inner {
            InstanceInner::Rust(_) | InstanceInner::RustV2(_) => self.think_budget.is_some(),
            InstanceInner::C(instance) => instance.takes_think_budget(),
        }
    }

    /// Tells the plugin, just before the update of a piece's first tick and on the thread
    /// that makes it, the microseconds that piece's decision may take.
    pub fn set_think_budget(&mut self, micros: u64) {
        match &mut self.inner {
            InstanceInner::Rust(_) | InstanceInner::RustV2(_) => {
                if let Some(set) = self.think_budget {
                    set(micros);
                }
            }
            InstanceInner::C(instance) => instance.set_think_budget(micros),
        }
    }

    /// One tick: the plugin's raw action bits, or the error that ends its game. `state`
    /// is read only by an instance that [`wants_state`](Instance::wants_state). A thin
    /// dispatch, inlined into callers, in other crates too (benchmarks, say): out of line
    /// it costs about 20 instructions a tick.
    #[inline(always)]
    pub fn update(
        &mut self,
        field: &TetradField,
        current: &TetradPiece,
        next: &TetradPiece,
        state: &TetradState,
        new_piece: bool,
    ) -> Result<u32, String> {
        let result = match &mut self.inner {
            InstanceInner::Rust(solver) => solver.update(field, current, next, new_piece),
            InstanceInner::RustV2(solver) => solver.update(field, current, next, state, new_piece),
            InstanceInner::C(instance) => {
                return instance
                    .update(field, current, next, state, new_piece)
                    .map_err(printable)
            }
        };
        result.into_result().map_err(|e| printable(e.into_string()))
    }
}

/// Keeps raw plugin handles typed as what they are.
type RawInstance = *mut c_void;
