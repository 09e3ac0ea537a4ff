//! The Rust flavour: an `abi_stable` root module, whose type layout `abi_stable` checks
//! against the host's when it is loaded.

#![allow(unsafe_code)] // the FFI edge: symbol lookup in a loaded library

use super::{Flavour, InstanceInner, LoadError, PluginInfo};
use abi_stable::library::{lib_header_from_path, LibraryError, ROOT_MODULE_LOADER_NAME_WITH_NUL};
use abi_stable::std_types::RStr;
use libloading::Library;
use std::path::Path;
use tetrad_plugin_api::abi::GameInfoBuf;
use tetrad_plugin_api::module::PluginModuleRef;

/// Whether the library exports an `abi_stable` root module.
pub(super) fn is_rust_plugin(library: &Library) -> bool {
    // SAFETY: only the symbol's presence is checked; the pointer is never used.
    unsafe { library.get::<*const u8>(ROOT_MODULE_LOADER_NAME_WITH_NUL.as_bytes()) }.is_ok()
}

/// What differs between a Rust plugin and this host, in one line; `abi_stable`'s own
/// report runs to pages of type layouts.
fn incompatibility(err: &LibraryError) -> String {
    let what = match err {
        LibraryError::IncompatibleVersionNumber {
            expected_version,
            actual_version,
            ..
        } => format!("it was built against plugin API {actual_version}, this host has {expected_version}"),
        LibraryError::AbiInstability(_) => "the layout of its plugin API types differs from this host's".to_string(),
        LibraryError::InvalidAbiHeader(_) | LibraryError::InvalidCAbi { .. } => {
            "it was built with an incompatible version of abi_stable".to_string()
        }
        other => other
            .to_string()
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("unknown reason")
            .trim()
            .to_string(),
    };
    format!(
        "{what}; rebuild it against tetrad-plugin-api {}",
        tetrad_plugin_api::API_VERSION
    )
}

/// A loaded Rust plugin.
pub(super) struct RustPlugin {
    module: PluginModuleRef,
}

impl RustPlugin {
    pub(super) fn load(path: &Path) -> Result<RustPlugin, LoadError> {
        let incompatible = |err: LibraryError| LoadError::Incompatible {
            path: path.to_path_buf(),
            reason: incompatibility(&err),
        };
        // Each plugin is its own library: `lib_header_from_path` rather than
        // `load_from_file`, which caches one module per interface type.
        let header = lib_header_from_path(path).map_err(incompatible)?;
        let module = header.init_root_module::<PluginModuleRef>().map_err(incompatible)?;
        Ok(RustPlugin { module })
    }

    pub(super) fn info(&self) -> PluginInfo {
        let info = (self.module.info())();
        PluginInfo {
            name: info.name.into_string(),
            version: info.version.into_string(),
            author: info.author.into_string(),
            description: info.description.into_string(),
            abi: info.abi_version,
            flavour: Flavour::Rust,
            features: Vec::new(),
        }
    }

    /// One game's instance: through `create_v2` when the plugin is of version 2 (a
    /// plugin built for version 1 has no such field), else through `create`.
    /// The plugin's setter of the think budget, if it was built with one.
    pub(super) fn think_budget_setter(&self) -> Option<extern "C" fn(u64)> {
        self.module.set_think_budget()
    }

    pub(super) fn create(&self, game: &GameInfoBuf, options: &str) -> Result<InstanceInner, String> {
        let options = RStr::from_str(options);
        let made = match self.module.create_v2() {
            Some(create_v2) if game.info().abi_version >= 2 => {
                create_v2(game.info(), options).into_result().map(InstanceInner::RustV2)
            }
            _ => (self.module.create())(game.info(), options)
                .into_result()
                .map(InstanceInner::Rust),
        };
        made.map_err(|e| e.into_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use abi_stable::sabi_types::VersionNumber;

    #[test]
    fn an_incompatible_rust_plugin_is_told_what_differs_and_what_to_do() {
        let err = LibraryError::IncompatibleVersionNumber {
            library_name: "tetrad plugin",
            expected_version: VersionNumber {
                major: 0,
                minor: 2,
                patch: 0,
            },
            actual_version: VersionNumber {
                major: 0,
                minor: 1,
                patch: 0,
            },
        };
        let text = incompatibility(&err);
        assert_eq!(
            text,
            format!(
                "it was built against plugin API 0.1.0, this host has 0.2.0; rebuild it against tetrad-plugin-api {}",
                tetrad_plugin_api::API_VERSION
            )
        );
        assert_eq!(text.lines().count(), 1);
    }
}
