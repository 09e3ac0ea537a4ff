//! The terminal: raw mode and the alternate screen behind a guard that restores them when
//! dropped (and a panic hook that restores them before the message is printed), and the
//! loop that feeds keys and time to the app and draws it.

use super::app::App;
use super::ui;
use crossterm::cursor::{Hide, Show};
use crossterm::event::{
    self, Event, KeyEventKind, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, supports_keyboard_enhancement, BeginSynchronizedUpdate, EndSynchronizedUpdate,
    EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

/// Time between frames.
const FRAME: Duration = Duration::from_millis(16);

/// Whether standard output is a terminal the screens can draw on.
pub fn is_terminal() -> bool {
    io::stdout().is_terminal()
}

/// Whether a guard holds the terminal (so the panic hook knows whether to restore).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Raw mode and the alternate screen, for as long as this lives.
pub struct TerminalGuard {
    _private: (),
}

impl TerminalGuard {
    /// Takes over the terminal.
    pub fn enter() -> io::Result<TerminalGuard> {
        install_panic_hook();
        enable_raw_mode()?;
        // From here on, dropping the guard (also on the error below) restores.
        ACTIVE.store(true, Ordering::SeqCst);
        let guard = TerminalGuard { _private: () };
        execute!(io::stdout(), EnterAlternateScreen, Hide)?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Whether the terminal was asked to report key releases (the kitty keyboard protocol).
static ENHANCED: AtomicBool = AtomicBool::new(false);

/// Asks the terminal to report key presses, repeats and releases, which real-time play
/// needs; one line of error where the terminal cannot.
fn enhance_keyboard() -> io::Result<()> {
    if !supports_keyboard_enhancement().unwrap_or(false) {
        return Err(io::Error::other(
            "this terminal does not report key releases (the kitty keyboard protocol), which real-time play (--gravity) needs: play without --gravity, or in a terminal that reports them (kitty, WezTerm, foot, Ghostty, Alacritty)",
        ));
    }
    let flags = KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES | KeyboardEnhancementFlags::REPORT_EVENT_TYPES;
    execute!(io::stdout(), PushKeyboardEnhancementFlags(flags))?;
    ENHANCED.store(true, Ordering::SeqCst);
    Ok(())
}

/// Leaves raw mode and the alternate screen, once, if a guard took them.
fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    if ENHANCED.swap(false, Ordering::SeqCst) {
        let _ = execute!(io::stdout(), PopKeyboardEnhancementFlags);
    }
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, Show);
}

/// On a panic, restores the terminal first, so the message is readable.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Runs `app` on the terminal until it asks to quit; the terminal is restored however
/// this returns.
pub fn run(app: &mut App) -> io::Result<()> {
    let _guard = TerminalGuard::enter()?;
    if app.is_timed() {
        enhance_keyboard()?;
    }
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    let mut last = Instant::now();
    while !app.should_quit() {
        // One frame is one synchronized update: a terminal that supports it shows the frame
        // whole, never half-written (a cleared row seen full above rows not yet moved).
        execute!(io::stdout(), BeginSynchronizedUpdate)?;
        terminal.draw(|frame| ui::draw(frame, app))?;
        execute!(io::stdout(), EndSynchronizedUpdate)?;
        let deadline = last + FRAME;
        while !app.should_quit() && event::poll(deadline.saturating_duration_since(Instant::now()))? {
            if let Event::Key(key) = event::read()? {
                if app.is_timed() {
                    // The key comes at its own moment, not at the frame's end.
                    let now = Instant::now();
                    app.on_tick(now - last);
                    last = now;
                    app.on_key_event(key);
                } else if key.kind != KeyEventKind::Release {
                    app.on_key(key);
                }
            }
        }
        let now = Instant::now();
        app.on_tick(now - last);
        last = now;
    }
    Ok(())
}
