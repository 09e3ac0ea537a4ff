//! The C flavour: plain symbols from `tetrad_plugin.h`, called through `libloading`. This
//! file and `rust_flavour.rs` hold all of the host's `unsafe`.

#![allow(unsafe_code)] // the FFI edge: calls into C plugin code

use super::{Flavour, LoadError, PluginInfo, RawInstance};
use libloading::Library;
use std::ffi::{c_char, CStr, CString};
use std::path::Path;
use tetrad_plugin_api::abi::{
    GameInfoBuf, TetradField, TetradGameInfo, TetradPiece, TetradPluginInfo, TetradState, UPDATE_FAILED,
};

type AbiVersionFn = unsafe extern "C" fn() -> u32;
type InfoFn = unsafe extern "C" fn() -> *const TetradPluginInfo;
type CreateFn = unsafe extern "C" fn(*const TetradGameInfo, *const c_char, *mut c_char, usize) -> RawInstance;
type UpdateFn =
    unsafe extern "C" fn(RawInstance, *const TetradField, *const TetradPiece, *const TetradPiece, bool) -> u32;
type UpdateV2Fn = unsafe extern "C" fn(
    RawInstance,
    *const TetradField,
    *const TetradPiece,
    *const TetradPiece,
    *const TetradState,
    bool,
) -> u32;
type DestroyFn = unsafe extern "C" fn(RawInstance);
type LastErrorFn = unsafe extern "C" fn(RawInstance) -> *const c_char;
type SetThinkBudgetFn = unsafe extern "C" fn(RawInstance, u64);

/// Room for a C plugin's create error message.
const ERROR_CAPACITY: usize = 1024;

/// Opens the library, mapping the system loader's refusal to a one-line error.
pub(super) fn open(path: &Path) -> Result<Library, LoadError> {
    // SAFETY: opening a library runs its initialisers. The user asked for this file to be
    // loaded as a plugin; nothing else of it runs before its ABI version is checked.
    unsafe { Library::new(path) }.map_err(|err| {
        // The system loader's own words are in the error's source; they repeat the path,
        // so keep only what follows it.
        let mut text = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(inner) = source {
            text = inner.to_string();
            source = inner.source();
        }
        let shown = format!("{}: ", path.display());
        let reason = text.rsplit_once(&shown).map_or(text.as_str(), |(_, r)| r);
        LoadError::NotALibrary {
            path: path.to_path_buf(),
            reason: reason.lines().next().unwrap_or_default().to_string(),
        }
    })
}

/// Calls the plugin's `tetrad_abi_version`, exported by both flavours.
pub(super) fn abi_version(library: &Library, path: &Path) -> Result<u32, LoadError> {
    // SAFETY: the symbol is declared in the header as `uint32_t tetrad_abi_version(void)`,
    // matching `AbiVersionFn`.
    let symbol =
        unsafe { library.get::<AbiVersionFn>(b"tetrad_abi_version\0") }.map_err(|_| LoadError::NotAPlugin {
            path: path.to_path_buf(),
        })?;
    // SAFETY: a side-effect-free function of the declared signature.
    Ok(unsafe { symbol() })
}

/// Which update function a C plugin's instances are asked through.
#[derive(Clone, Copy)]
enum Update {
    /// `tetrad_update`, without the state.
    V1(UpdateFn),
    /// `tetrad_update_v2`, with the state.
    V2(UpdateV2Fn),
}

/// A loaded C plugin: its function pointers, valid forever because the library is leaked.
#[derive(Clone, Copy)]
pub(super) struct CPlugin {
    /// The version its `tetrad_abi_version` returned.
    version: u32,
    info: InfoFn,
    create: CreateFn,
    update: Update,
    destroy: DestroyFn,
    last_error: Option<LastErrorFn>,
    set_think_budget: Option<SetThinkBudgetFn>,
}

impl CPlugin {
    /// Looks up the functions of a plugin built for ABI `version` (already checked to be
    /// one the host speaks): a version 2 plugin is asked through `tetrad_update_v2` when
    /// it exports one.
    pub(super) fn load(library: Library, path: &Path, version: u32) -> Result<CPlugin, LoadError> {
        fn get<T: Copy>(library: &Library, path: &Path, name: &'static str) -> Result<T, LoadError> {
            let with_nul = format!("{name}\0");
            // SAFETY: each `T` is the header's declared signature for `name`.
            unsafe { library.get::<T>(with_nul.as_bytes()) }
                .map(|symbol| *symbol)
                .map_err(|_| LoadError::MissingSymbol {
                    path: path.to_path_buf(),
                    symbol: name,
                })
        }
        let info = get(&library, path, "tetrad_plugin_info")?;
        let create = get(&library, path, "tetrad_create")?;
        let update = match get::<UpdateV2Fn>(&library, path, "tetrad_update_v2") {
            Ok(update) if version >= 2 => Update::V2(update),
            _ => match get::<UpdateFn>(&library, path, "tetrad_update") {
                Ok(update) => Update::V1(update),
                Err(_) if version >= 2 => {
                    return Err(LoadError::MissingUpdate {
                        path: path.to_path_buf(),
                        version,
                    })
                }
                Err(missing) => return Err(missing),
            },
        };
        let plugin = CPlugin {
            version,
            info,
            create,
            update,
            destroy: get(&library, path, "tetrad_destroy")?,
            last_error: get(&library, path, "tetrad_last_error").ok(),
            set_think_budget: get(&library, path, "tetrad_set_think_budget").ok(),
        };
        // Plugins are never unloaded: the function pointers above must stay valid.
        std::mem::forget(library);
        Ok(plugin)
    }

    pub(super) fn info(&self, path: &Path) -> Result<PluginInfo, LoadError> {
        let bad = |reason: &str| LoadError::BadInfo {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        };
        // SAFETY: declared signature; the header requires a pointer to static storage.
        let raw = unsafe { (self.info)() };
        // SAFETY: a non-null pointer from `tetrad_plugin_info` points to a valid,
        // static `TetradPluginInfo`.
        let raw = unsafe { raw.as_ref() }.ok_or_else(|| bad("tetrad_plugin_info returned NULL"))?;
        let text = |ptr: *const c_char, field: &str| -> Result<String, LoadError> {
            if ptr.is_null() {
                return Err(bad(&format!("plugin info has a NULL {field}")));
            }
            // SAFETY: non-null strings in the info are NUL-terminated and static.
            Ok(unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned())
        };
        if raw.abi_version != self.version {
            return Err(bad(&format!(
                "plugin info says ABI version {}, but tetrad_abi_version says {}",
                raw.abi_version, self.version
            )));
        }
        Ok(PluginInfo {
            name: text(raw.name, "name")?,
            version: text(raw.version, "version")?,
            author: text(raw.author, "author")?,
            description: text(raw.description, "description")?,
            abi: raw.abi_version,
            flavour: Flavour::C,
            features: Vec::new(),
        })
    }

    pub(super) fn create(&self, game: &GameInfoBuf, options: &str) -> Result<CInstance, String> {
        let options = CString::new(options).map_err(|_| "options contain a NUL byte".to_string())?;
        let mut error = vec![0 as c_char; ERROR_CAPACITY];
        // SAFETY: `game` and `options` outlive the call; `error` has ERROR_CAPACITY bytes.
        let handle = unsafe { (self.create)(game.info(), options.as_ptr(), error.as_mut_ptr(), ERROR_CAPACITY) };
        if handle.is_null() {
            error[ERROR_CAPACITY - 1] = 0;
            // SAFETY: the buffer is NUL-terminated (forced above).
            let message = unsafe { CStr::from_ptr(error.as_ptr()) }.to_string_lossy().into_owned();
            return Err(if message.is_empty() {
                "create failed without a message".to_string()
            } else {
                message
            });
        }
        Ok(CInstance { plugin: *self, handle })
    }
}

/// One C plugin instance; destroyed on drop.
pub(super) struct CInstance {
    plugin: CPlugin,
    handle: RawInstance,
}

// SAFETY: the header allows an instance to move between threads between calls; the host
// uses each instance from one thread at a time (`update` takes `&mut self`).
unsafe impl Send for CInstance {}

impl CInstance {
    /// Whether the instance is asked through `tetrad_update_v2`, with the state.
    pub(super) fn wants_state(&self) -> bool {
        matches!(self.plugin.update, Update::V2(_))
    }

    /// Whether the plugin is told each piece's think budget.
    pub(super) fn takes_think_budget(&self) -> bool {
        self.plugin.set_think_budget.is_some()
    }

    /// Tells the instance the next piece's think budget, if the plugin asks for it.
    pub(super) fn set_think_budget(&mut self, micros: u64) {
        if let Some(set) = self.plugin.set_think_budget {
            // SAFETY: a live handle from `tetrad_create`; the header's declared signature.
            unsafe { set(self.handle, micros) }
        }
    }

    /// One tick; `state` is passed to `tetrad_update_v2`, if the instance
    /// [`wants_state`](CInstance::wants_state).
    pub(super) fn update(
        &mut self,
        field: &TetradField,
        current: &TetradPiece,
        next: &TetradPiece,
        state: &TetradState,
        new_piece: bool,
    ) -> Result<u32, String> {
        let bits = match self.plugin.update {
            // SAFETY: a live handle from `tetrad_create`; every pointer is valid for the
            // call.
            Update::V1(update) => unsafe { update(self.handle, field, current, next, new_piece) },
            // SAFETY: as above, and the state too.
            Update::V2(update) => unsafe { update(self.handle, field, current, next, state, new_piece) },
        };
        if bits != UPDATE_FAILED {
            return Ok(bits);
        }
        let message = self.plugin.last_error.and_then(|last_error| {
            // SAFETY: a live handle; the returned string lives until the next call.
            let ptr = unsafe { last_error(self.handle) };
            // SAFETY: a non-null result is a NUL-terminated string.
            (!ptr.is_null()).then(|| unsafe { CStr::from_ptr(ptr) }.to_string_lossy().into_owned())
        });
        Err(message.unwrap_or_else(|| "update failed without a message".to_string()))
    }
}

impl Drop for CInstance {
    fn drop(&mut self) {
        // SAFETY: a live handle from a successful `tetrad_create`, destroyed exactly once.
        unsafe { (self.plugin.destroy)(self.handle) }
    }
}
