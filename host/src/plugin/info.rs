//! What a plugin says of itself ([`PluginInfo`], its [`Flavour`]) and why one could not be
//! loaded ([`LoadError`]).

use std::fmt;
use std::path::PathBuf;

/// Why a plugin could not be loaded. Every message names the file.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Under `--sandbox`, the library's info could not be read in the sandbox.
    #[error("{path}: under --sandbox: {message}")]
    Confined {
        /// The path given.
        path: PathBuf,
        /// What went wrong (the library's own refusal, where it said one).
        message: String,
    },
    /// No file at that path.
    #[error("{path}: no such file")]
    NotFound {
        /// The path given.
        path: PathBuf,
    },
    /// The file exists but the system loader refused it.
    #[error("{path}: not a loadable shared library ({reason})")]
    NotALibrary {
        /// The path given.
        path: PathBuf,
        /// The system loader's reason.
        reason: String,
    },
    /// A shared library without the `tetrad_abi_version` symbol.
    #[error("{path}: not a tetrad plugin (it exports no `tetrad_abi_version`)")]
    NotAPlugin {
        /// The path given.
        path: PathBuf,
    },
    /// Built for an ABI version the host does not speak.
    #[error("{path}: ABI version {found}, host speaks {oldest} to {newest}")]
    AbiVersion {
        /// The path given.
        path: PathBuf,
        /// The plugin's version.
        found: u32,
        /// The oldest version the host speaks.
        oldest: u32,
        /// The host's own version.
        newest: u32,
    },
    /// A C plugin of version 2 or later with neither update function.
    #[error("{path}: C plugin of ABI version {version} exports neither `tetrad_update_v2` nor `tetrad_update`")]
    MissingUpdate {
        /// The path given.
        path: PathBuf,
        /// The plugin's version.
        version: u32,
    },
    /// A C plugin without one of the required functions.
    #[error("{path}: C plugin lacks the required function `{symbol}`")]
    MissingSymbol {
        /// The path given.
        path: PathBuf,
        /// The missing function.
        symbol: &'static str,
    },
    /// The `abi_stable` root module failed its layout or version check.
    #[error("{path}: incompatible Rust plugin ({reason})")]
    Incompatible {
        /// The path given.
        path: PathBuf,
        /// The first line of `abi_stable`'s report.
        reason: String,
    },
    /// A plugin's info is malformed (a NULL name, say).
    #[error("{path}: {reason}")]
    BadInfo {
        /// The path given.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A process bot's manifest that cannot be read, or a bot that does not start and say
    /// hello as the protocol asks.
    #[error("{0}")]
    Bot(String),
    /// A short name that matches no bundled plugin.
    #[error("no bundled plugin named `{name}` (available: {available}); give a path to load any other")]
    UnknownName {
        /// The name given.
        name: String,
        /// The bundled names found.
        available: String,
    },
}

/// Which ABI flavour a plugin speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavour {
    /// An `abi_stable` root module, made with the Rust SDK.
    Rust,
    /// Plain C symbols, as declared in `tetrad_plugin.h`.
    C,
    /// A program speaking the bot protocol, named by a manifest.
    Process,
    /// A program speaking the Tetris Bot Protocol, named by a manifest.
    Tbp,
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Flavour::Rust => "rust",
            Flavour::C => "c",
            Flavour::Process => "process",
            Flavour::Tbp => "tbp",
        })
    }
}

/// A plugin's description of itself.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PluginInfo {
    /// Short name.
    pub name: String,
    /// Version.
    pub version: String,
    /// Author.
    pub author: String,
    /// One-line description.
    pub description: String,
    /// The ABI version it was built for (for a process bot, the protocol version).
    pub abi: u32,
    /// Its ABI flavour.
    pub flavour: Flavour,
    /// The features a TBP bot's `info` lists (see `docs/tbp.md`); none for other plugins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
}
