//! The keys of each screen: what a key press means, and the help that lists them. One
//! table per mode serves both, so the help cannot drift from the keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Which screen is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A plugin plays (`tetrad demo`).
    Demo,
    /// A person plays (`tetrad play`).
    Play,
    /// A recorded game plays back (`tetrad replay`).
    Replay,
    /// A person plays a bot in real time (`tetrad play --versus --gravity`): the keys
    /// their handling binds play the game, the others are these.
    Live,
}

impl Mode {
    /// The command that opens this screen.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Demo => "demo",
            Mode::Play | Mode::Live => "play",
            Mode::Replay => "replay",
        }
    }
}

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Leave.
    Quit,
    /// Show or hide the keys.
    Help,
    /// Pause or resume.
    Pause,
    /// Play one tick, pausing first.
    Step,
    /// Tick faster, up to as fast as possible.
    Faster,
    /// Tick slower.
    Slower,
    /// Let the level set the speed again.
    LevelSpeed,
    /// A new game with the same seed.
    Restart,
    /// A new game with a new seed.
    NewSeed,
    /// Hand the game to the next loaded plugin.
    NextPlugin,
    /// Ask for a plugin to load by path or name.
    OpenPlugin,
    /// Shift left (play).
    Left,
    /// Shift right (play).
    Right,
    /// Turn clockwise (play).
    RotateCw,
    /// Turn counter-clockwise (play).
    RotateCcw,
    /// One tick without an action: one row down under gravity (play).
    Down,
    /// DROP (play).
    Drop,
    /// Hold the piece (play, under `guideline`).
    Hold,
    /// Seek this many pieces back (negative) or forward (replay).
    SeekPieces(i32),
    /// Seek to the first tick (replay).
    SeekStart,
    /// Seek to the last tick (replay).
    SeekEnd,
    /// In versus, make this board (0 the left) the one that the plugin keys act on.
    Select(usize),
}

/// One line of help: the keys, what they do, and the command.
pub struct Binding {
    /// The keys, as shown in the help.
    pub keys: &'static str,
    /// What they do.
    pub what: &'static str,
    command: Command,
    codes: &'static [KeyCode],
}

const fn bind(keys: &'static str, what: &'static str, command: Command, codes: &'static [KeyCode]) -> Binding {
    Binding {
        keys,
        what,
        command,
        codes,
    }
}

use KeyCode::{Char, Down, End, Enter, Esc, Home, Left, PageDown, PageUp, Right, Tab, Up};

const DEMO: &[Binding] = &[
    bind("space p", "pause / resume", Command::Pause, &[Char(' '), Char('p')]),
    bind("s .", "one tick (pauses)", Command::Step, &[Char('s'), Char('.')]),
    bind("+ -", "faster / slower", Command::Faster, &[Char('+'), Char('=')]),
    bind("", "", Command::Slower, &[Char('-'), Char('_')]),
    bind("0", "speed follows the level", Command::LevelSpeed, &[Char('0')]),
    bind("r", "restart, same seed", Command::Restart, &[Char('r')]),
    bind("n", "restart, new seed", Command::NewSeed, &[Char('n')]),
    bind("tab", "switch to the next plugin", Command::NextPlugin, &[Tab]),
    bind("o", "open a plugin by path", Command::OpenPlugin, &[Char('o')]),
    bind("1 2", "versus: board for tab and o", Command::Select(0), &[Char('1')]),
    bind("", "", Command::Select(1), &[Char('2')]),
    bind("?", "show / hide keys", Command::Help, &[Char('?')]),
    bind("q esc", "quit", Command::Quit, &[Char('q'), Esc]),
];

const PLAY: &[Binding] = &[
    bind("← →", "shift", Command::Left, &[Left]),
    bind("", "", Command::Right, &[Right]),
    bind("↑ x", "turn clockwise", Command::RotateCw, &[Up, Char('x'), Char('X')]),
    bind(
        "z",
        "turn counter-clockwise",
        Command::RotateCcw,
        &[Char('z'), Char('Z')],
    ),
    bind("↓", "one tick down (guideline: soft drop)", Command::Down, &[Down]),
    bind("space ⏎", "drop", Command::Drop, &[Char(' '), Enter]),
    bind("c", "hold (guideline)", Command::Hold, &[Char('c'), Char('C')]),
    bind("p", "pause / resume", Command::Pause, &[Char('p'), Char('P')]),
    bind("r", "restart, same seed", Command::Restart, &[Char('r')]),
    bind("n", "restart, new seed", Command::NewSeed, &[Char('n')]),
    bind("?", "show / hide keys", Command::Help, &[Char('?')]),
    bind("q esc", "quit", Command::Quit, &[Char('q'), Esc]),
];

const LIVE: &[Binding] = &[
    bind("r n", "next game", Command::NewSeed, &[Char('r'), Char('n')]),
    bind("p", "no pause against a bot", Command::Pause, &[Char('p'), Char('P')]),
    bind("?", "show / hide keys", Command::Help, &[Char('?')]),
    bind("q esc", "quit", Command::Quit, &[Char('q'), Esc]),
];

const REPLAY: &[Binding] = &[
    bind("space p", "pause / resume", Command::Pause, &[Char(' '), Char('p')]),
    bind("s .", "one tick (pauses)", Command::Step, &[Char('s'), Char('.')]),
    bind("+ -", "faster / slower", Command::Faster, &[Char('+'), Char('=')]),
    bind("", "", Command::Slower, &[Char('-'), Char('_')]),
    bind("0", "speed follows the level", Command::LevelSpeed, &[Char('0')]),
    bind("← →", "one piece back / forward", Command::SeekPieces(-1), &[Left]),
    bind("", "", Command::SeekPieces(1), &[Right]),
    bind(
        "pgup pgdn",
        "ten pieces back / forward",
        Command::SeekPieces(-10),
        &[PageUp],
    ),
    bind("", "", Command::SeekPieces(10), &[PageDown]),
    bind("home end", "first / last tick", Command::SeekStart, &[Home]),
    bind("", "", Command::SeekEnd, &[End]),
    bind("?", "show / hide keys", Command::Help, &[Char('?')]),
    bind("q esc", "quit", Command::Quit, &[Char('q'), Esc]),
];

/// The bindings of a mode, in help order.
pub fn bindings(mode: Mode) -> &'static [Binding] {
    match mode {
        Mode::Demo => DEMO,
        Mode::Play => PLAY,
        Mode::Replay => REPLAY,
        Mode::Live => LIVE,
    }
}

/// What `key` means in `mode`, if anything. Ctrl-C quits everywhere.
pub fn command(mode: Mode, key: KeyEvent) -> Option<Command> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, Char('c') | Char('C')).then_some(Command::Quit);
    }
    bindings(mode)
        .iter()
        .find(|b| b.codes.contains(&key.code))
        .map(|b| b.command)
}

/// The help lines of a mode: keys and what they do (continuation rows left out).
pub fn help(mode: Mode) -> impl Iterator<Item = (&'static str, &'static str)> {
    bindings(mode)
        .iter()
        .filter(|b| !b.keys.is_empty())
        .map(|b| (b.keys, b.what))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn each_mode_reads_its_own_keys() {
        assert_eq!(command(Mode::Demo, key(Tab)), Some(Command::NextPlugin));
        assert_eq!(command(Mode::Play, key(Tab)), None);
        assert_eq!(command(Mode::Play, key(Char(' '))), Some(Command::Drop));
        assert_eq!(command(Mode::Demo, key(Char(' '))), Some(Command::Pause));
        assert_eq!(command(Mode::Replay, key(PageUp)), Some(Command::SeekPieces(-10)));
        let ctrl_c = KeyEvent::new(Char('c'), KeyModifiers::CONTROL);
        assert_eq!(command(Mode::Live, key(Char(' '))), None, "the handling's");
        assert_eq!(command(Mode::Live, key(Char('r'))), Some(Command::NewSeed));
        for mode in [Mode::Demo, Mode::Play, Mode::Replay, Mode::Live] {
            assert_eq!(command(mode, ctrl_c), Some(Command::Quit));
            assert_eq!(command(mode, key(Char('q'))), Some(Command::Quit));
            assert!(help(mode).any(|(keys, _)| keys == "?"));
        }
    }

    #[test]
    fn no_key_means_two_things() {
        for mode in [Mode::Demo, Mode::Play, Mode::Replay, Mode::Live] {
            let codes: Vec<KeyCode> = bindings(mode).iter().flat_map(|b| b.codes.iter().copied()).collect();
            for (i, code) in codes.iter().enumerate() {
                assert!(!codes[i + 1..].contains(code), "{mode:?}: {code:?} bound twice");
            }
        }
    }
}
