//! The panic guard: every call into a solver runs under `catch_unwind`, and a quiet panic
//! hook turns a panic's message into the error the host reports.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

thread_local! {
    pub(super) static GUARD_DEPTH: Cell<u32> = const { Cell::new(0) };
    pub(super) static PANIC_MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the quiet panic hook, once per copy of std.
static QUIET_HOOK: Once = Once::new();

/// Whether the SDK runs inside a plugin library that a host loaded (see [`loaded_by_host`]).
pub(super) static LOADED_BY_HOST: AtomicBool = AtomicBool::new(false);

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
/// alone decides what the user sees. Always inlined into the solver's update, as it was
/// when it lived in the same file: called, it costs about 90 instructions a piece.
#[inline(always)]
#[cfg_attr(not(feature = "abi"), allow(dead_code))]
pub(super) fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
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
