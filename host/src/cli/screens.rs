//! The options of the terminal screens: `tetrad demo`, `play` and `replay`.

use super::GameArgs;
use clap::Args;

/// Options of `tetrad demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// A bundled plugin's name, or the path of any plugin library; repeat to load several
    /// and switch between them with Tab (default: every bundled plugin).
    #[arg(long)]
    pub plugin: Vec<String>,
    /// The rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// The session's seed: the first game plays the pieces of game 0 of `tetrad run` with
    /// this seed, each new seed the next game's.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// End a game as "capped" after this many pieces [default: unlimited].
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// A plugin's options, as 'key=value,key=value': given once, for every plugin; or
    /// once per --plugin, in the same order.
    #[arg(long)]
    pub options: Vec<String>,
    /// Save a replay of the last game played to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// Versus: two boards side by side.
    #[command(flatten)]
    pub versus: ScreenVersus,
}

/// `--versus` on the screens.
#[derive(Clone, Debug, Args)]
pub struct ScreenVersus {
    /// Two boards play each other with garbage, on the same pieces.
    #[arg(long)]
    pub versus: bool,
    /// In versus, the rows of garbage sent for clearing 1, 2, 3, 4 (...) lines at once;
    /// a larger clear sends the last entry [default: 0,1,2,4].
    #[arg(long, value_name = "ROWS,...")]
    pub attack: Option<crate::engine::AttackTable>,
}

/// Options of `tetrad play`. A game against a bot in real time (`live_game`) is played
/// in the browser (`--web`) or in the terminal (`--versus`, in real time with `--gravity`
/// or any option of such a game).
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("live_game").args(["web", "gravity", "versus"]).multiple(true)))]
pub struct PlayArgs {
    /// The rules.
    #[command(flatten)]
    pub game: GameArgs,
    /// The session's seed, as for `tetrad demo`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// End a game as "capped" after this many pieces [default: unlimited].
    #[arg(long)]
    pub max_pieces: Option<u64>,
    /// Save a replay of the last game played to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<std::path::PathBuf>,
    /// Versus: you on the left board, a plugin on the right.
    #[command(flatten)]
    pub versus: ScreenVersus,
    /// In versus, the opponent: a bundled plugin's name or any plugin's path [default:
    /// tree-search].
    #[arg(long)]
    pub plugin: Option<String>,
    /// In versus, the opponent's options, as 'key=value,key=value'.
    #[arg(long, default_value = "")]
    pub options: String,
    /// Real-time play.
    #[command(flatten)]
    pub realtime: RealtimeArgs,
    /// Play in the browser against the plugin: a server on 127.0.0.1 prints the page's
    /// address (with its token) and referees the games; guideline, versus, real time.
    #[arg(long)]
    pub web: bool,
    /// With --web: the port [default: a free one].
    #[arg(long, requires = "web", default_value_t = 0)]
    pub port: u16,
    /// Against a bot in real time (--web, or --versus in the terminal, where this and the
    /// options below play in real time, by default at the guideline's gravity): most pieces
    /// a second the bot locks [default: no limit].
    #[arg(long, requires = "live_game", value_name = "PPS", value_parser = super::values::parse_positive)]
    pub pps: Option<f64>,
    /// Against a bot in real time: a modern game's published garbage options (`jstris`).
    #[arg(long, requires = "live_game", value_name = "NAME", value_parser = super::values::parse_garbage_set)]
    pub garbage: Option<crate::engine::GarbageSet>,
    /// Against a bot in real time: the countdown before each game, in milliseconds
    /// [default: 3000].
    #[arg(long, requires = "live_game", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub countdown: Option<u64>,
    /// Against a bot in real time: the folder each game's replay is saved in, as
    /// game-N.json [default with --web: a new folder in the temporary directory].
    #[arg(long, requires = "live_game", value_name = "DIR")]
    pub record_games: Option<std::path::PathBuf>,
    /// Against a bot in real time: appends each finished game to this results file, as
    /// `tetrad versus --out` does, so `tetrad report` and `tetrad merge` rate you against
    /// the bot; a file of the same setup and opponent is continued, another refused.
    #[arg(long, requires = "live_game", value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
    /// With --out: your name in the results.
    #[arg(long, requires = "out", value_name = "NAME", default_value = "person")]
    pub name: String,
}

/// The countdown before each game against a bot in real time, in milliseconds.
pub const DEFAULT_COUNTDOWN_MS: u64 = 3000;

/// Real-time play on `tetrad play`: the timing rules and the person's handling.
#[derive(Debug, Args)]
pub struct RealtimeArgs {
    /// Plays in real time under guideline: pieces fall by themselves at this gravity, in G
    /// (`0.02G`, `1/60`), or `guideline` for its curve by level, and lock after a delay.
    /// Needs a terminal that reports key releases (the kitty keyboard protocol).
    #[arg(long, value_name = "G|guideline")]
    pub gravity: Option<crate::engine::Gravity>,
    /// With --gravity: milliseconds a resting piece waits before it locks.
    #[arg(long, value_name = "MS", default_value_t = crate::engine::Timing::LOCK_DELAY_MS, requires = "gravity")]
    pub lock_delay: u32,
    /// With --gravity: moves or turns of a resting piece that restart its lock delay.
    #[arg(long, value_name = "N", default_value_t = crate::engine::Timing::MOVE_RESETS, requires = "gravity")]
    pub move_resets: u32,
    /// In real time (--gravity, --versus in real time, or --web, where it is the page's
    /// default): delayed auto shift, in milliseconds [default: 167].
    #[arg(long, value_name = "MS", requires = "live_game")]
    pub das: Option<u32>,
    /// In real time: auto-repeat rate, in milliseconds; 0 shifts to the wall [default: 33].
    #[arg(long, value_name = "MS", requires = "live_game")]
    pub arr: Option<u32>,
    /// In real time: a held soft drop falls this many times faster than gravity, or
    /// `instant` [default: 6].
    #[arg(long, value_name = "FACTOR|instant", requires = "live_game")]
    pub soft_drop: Option<crate::handling::SoftDrop>,
    /// In real time: the half-turn key (A) acts.
    #[arg(long, requires = "live_game")]
    pub turn_180: bool,
    /// In real time: binds a key, by the browser's name for it (`KeyJ`, `ArrowLeft`,
    /// `Space`), to a control: left, right, soft_drop, hard_drop, cw, ccw, turn180, hold.
    /// A control bound here loses its default keys (repeatable).
    #[arg(long = "key", value_name = "KEY=CONTROL", requires = "live_game", value_parser = parse_binding)]
    pub keys: Vec<(String, crate::handling::Control)>,
}

/// `KEY=CONTROL`: a key's name and the control it plays.
fn parse_binding(text: &str) -> Result<(String, crate::handling::Control), String> {
    let (key, control) = text
        .split_once('=')
        .ok_or_else(|| format!("`{text}` is not KEY=CONTROL (such as KeyJ=left)"))?;
    let key = key.trim();
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("`{key}` is not a key's name (such as KeyJ, ArrowLeft, Space)"));
    }
    let control = serde_json::from_value(serde_json::Value::String(control.trim().to_string())).map_err(|_| {
        format!("`{control}` is not a control: left, right, soft_drop, hard_drop, cw, ccw, turn180, hold")
    })?;
    Ok((key.to_string(), control))
}

impl RealtimeArgs {
    /// The timing rules, if --gravity asks for real-time play.
    pub fn timing(&self) -> Option<crate::engine::Timing> {
        self.gravity.map(|gravity| crate::engine::Timing {
            gravity,
            lock_delay_ms: self.lock_delay,
            move_reset_limit: self.move_resets,
        })
    }

    /// Whether any of the person's handling was given (each plays in real time).
    pub fn handling_given(&self) -> bool {
        self.das.is_some() || self.arr.is_some() || self.soft_drop.is_some() || self.turn_180 || !self.keys.is_empty()
    }

    /// The person's handling: the defaults, with the values given.
    pub fn handling(&self) -> crate::handling::Handling {
        let defaults = crate::handling::Handling::default();
        crate::handling::Handling {
            das_ms: self.das.unwrap_or(defaults.das_ms),
            arr_ms: self.arr.unwrap_or(defaults.arr_ms),
            soft_drop: self.soft_drop.unwrap_or(defaults.soft_drop),
            turn_180: self.turn_180,
            keys: bind(defaults.keys, &self.keys),
        }
    }
}

/// `keys` with `bindings` applied: each control bound loses its keys in `keys`, then
/// every binding is added.
fn bind(
    mut keys: std::collections::BTreeMap<String, crate::handling::Control>,
    bindings: &[(String, crate::handling::Control)],
) -> std::collections::BTreeMap<String, crate::handling::Control> {
    keys.retain(|_, control| !bindings.iter().any(|(_, bound)| bound == control));
    keys.extend(bindings.iter().cloned());
    keys
}

/// Options of `tetrad replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The replay file (written by --record).
    pub file: std::path::PathBuf,
    /// Re-simulate the game without a terminal and check it gives the recorded result.
    #[arg(long)]
    pub verify: bool,
    /// Write the game as one self-contained HTML page that plays it back, drawn from the
    /// engine's re-simulation (a replay that does not verify has no page).
    #[arg(long, value_name = "OUT", conflicts_with = "verify")]
    pub html: Option<std::path::PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handling::Control;

    #[test]
    fn a_key_bound_takes_its_control_from_the_default_keys() {
        let bound = parse_binding("KeyJ=left").unwrap();
        assert_eq!(bound, ("KeyJ".to_string(), Control::Left));
        let keys = bind(crate::handling::Handling::default().keys, &[bound]);
        assert_eq!(keys.get("KeyJ"), Some(&Control::Left));
        assert_eq!(keys.get("ArrowLeft"), None, "left's default key is free");
        assert_eq!(keys.get("ArrowRight"), Some(&Control::Right));
        for bad in ["KeyJ", "=left", "KeyJ=jump", "Key J=left"] {
            assert!(parse_binding(bad).is_err(), "{bad}");
        }
    }
}
