//! The exit guard: a plugin that calls `exit()` during a game would end tetrad with the
//! plugin's status (0 reads as success) and a cut-off report. Once installed, such an exit
//! ends the process with one line on stderr and [`PLUGIN_EXIT_CODE`] instead.
#![allow(unsafe_code)] // the C library's exit handlers: registration and the handler

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;

/// The exit status of a process a plugin tried to end with `exit()`.
pub const PLUGIN_EXIT_CODE: i32 = 4;

/// Plugin instances alive now: an exit while one lives comes from plugin code, since
/// tetrad's own commands drop every instance before they return.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Installs the guard for the rest of the process (once; later calls do nothing).
pub fn install() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        // SAFETY: `on_exit` is an `extern "C"` function with the signature `atexit`
        // expects, and it lives as long as the process.
        let failed = unsafe { libc::atexit(on_exit) } != 0;
        if failed {
            log::warn!("the exit guard could not be installed");
        }
    });
}

extern "C" fn on_exit() {
    if LIVE.load(Ordering::SeqCst) == 0 {
        return;
    }
    const MESSAGE: &[u8] = b"tetrad: a plugin called exit() during a game; the results written so far are kept (--isolate contains such plugins)\n";
    // SAFETY: plain system calls on a static buffer; `_exit` ends the process at once,
    // without running the other exit handlers again.
    unsafe {
        libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
        libc::_exit(PLUGIN_EXIT_CODE);
    }
}

/// Held by each live instance.
#[derive(Debug)]
pub struct Live(());

impl Live {
    /// Counts one more live instance until dropped.
    pub fn new() -> Live {
        LIVE.fetch_add(1, Ordering::SeqCst);
        Live(())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}
