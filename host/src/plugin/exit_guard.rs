//! The exit guard: a plugin that calls `exit()` during a game would end tetrad with the
//! plugin's status (0 reads as success) and a cut-off report. Once installed, such an exit
//! ends the process with one line on stderr and [`PLUGIN_EXIT_CODE`] instead.
#![allow(unsafe_code)] // the C library's exit handlers: registration and the handler

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;

/// The exit status of a process a plugin tried to end with `exit()`.
pub const PLUGIN_EXIT_CODE: i32 = 4;

/// Plugin instances alive now: an exit while one lives comes from plugin code, since
/// tetrad's own commands drop every instance before they return.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// Whether this process wants the guard.
static WANTED: AtomicBool = AtomicBool::new(false);
/// Whether the line has been written (two threads may exit at once).
static SAID: AtomicBool = AtomicBool::new(false);

/// Installs the guard for the rest of the process.
///
/// The C library runs exit handlers last registered first, and when two threads call
/// `exit()` at once (two games of one plugin), each runs the handlers the other has not
/// taken yet; the one that finds none left ends the process with the plugin's status. So
/// the handler is registered twice: now, before any plugin library is loaded, and again
/// when the first instance is created, after the plugins registered theirs. The first
/// thread to exit takes the later copy and ends the process at once; a second one cannot
/// get past the earlier copy without ending it the same way.
pub fn install() {
    WANTED.store(true, Ordering::SeqCst);
    static EARLY: Once = Once::new();
    EARLY.call_once(register);
}

fn register() {
    // SAFETY: `on_exit` is an `extern "C"` function with the signature `atexit` expects,
    // and it lives as long as the process.
    let failed = unsafe { libc::atexit(on_exit) } != 0;
    if failed {
        log::warn!("the exit guard could not be installed");
    }
}

extern "C" fn on_exit() {
    if LIVE.load(Ordering::SeqCst) == 0 {
        return;
    }
    const MESSAGE: &[u8] = b"tetrad: a plugin called exit() during a game; the results written so far are kept (--isolate contains such plugins)\n";
    // SAFETY: plain system calls on a static buffer; `_exit` ends the process at once,
    // without running the other exit handlers.
    unsafe {
        if !SAID.swap(true, Ordering::SeqCst) {
            libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        }
        libc::_exit(PLUGIN_EXIT_CODE);
    }
}

/// Held by each live instance.
#[derive(Debug)]
pub struct Live(());

impl Live {
    /// Counts one more live instance until dropped.
    pub fn new() -> Live {
        if WANTED.load(Ordering::Relaxed) {
            static LATE: Once = Once::new();
            LATE.call_once(register);
        }
        LIVE.fetch_add(1, Ordering::SeqCst);
        Live(())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}
