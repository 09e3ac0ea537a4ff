//! Whether a seat's recorded forfeit can have happened, given the recorded setup and who
//! played the seat. A forfeit comes from a live player and its actions cannot re-derive
//! it, but the recorded setup and the player's kind can rule it out: each player kind and
//! each limit produces only some ends. What this cannot rule out is taken as recorded
//! (docs/replays.md lists which, and why).

use super::{RecordedEnd, SeatRecord};
use crate::plugin::Manifest;
use crate::setup::Setup;

/// How the player who ended a seat's game was hosted, as far as the replay tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Host {
    /// No player is recorded at that tick.
    Nobody,
    /// A person at the keyboard (a player with no plugin `path`): only the rules end a
    /// person's game.
    Person,
    /// A library in tetrad's own process: the setup records no think limit. (A library
    /// plays in a process only when isolated, served as a bot, and an isolated game's
    /// replay records the think limit its seats had.)
    LibraryInProcess,
    /// A library under a recorded think limit: in tetrad's own process, or isolated in a
    /// process that serves it; the replay does not say which.
    Library,
    /// A bot process (its `path` is a manifest).
    Process,
}

impl Host {
    /// How the player of `seat` at the tick its game ended was hosted under `setup`.
    fn of(seat: &SeatRecord, setup: &Setup) -> Host {
        match seat.player_at(seat.result.ticks).map(|p| p.path.as_deref()) {
            None => Host::Nobody,
            Some(None) => Host::Person,
            Some(Some(path)) if Manifest::is_manifest(path) => Host::Process,
            Some(Some(_)) if setup.limits.think_limit_ns.is_none() => Host::LibraryInProcess,
            Some(Some(_)) => Host::Library,
        }
    }
}

/// Why `seat`'s recorded end cannot have happened under `setup`, if it cannot:
///
/// - only a player forfeits (`plugin_error`, `timeout`, `violation`, `crashed`, `sandbox`,
///   `time_loss`), and a person never does, nor stalls;
/// - `violation` needs a violation limit, and one more violation than it: every one before
///   the last was an answer not applied, recorded as an empty tick, so the seat's
///   recorded actions hold at least as many empty ticks as the limit;
/// - `time_loss` needs a time control;
/// - `timeout` needs a think limit, unless the player is a bot process, which has one of
///   its own;
/// - `crashed` and `sandbox` need a process: a library in tetrad's own process has none.
pub(super) fn impossible(seat: &SeatRecord, setup: &Setup) -> Option<String> {
    let end = seat.result.end;
    if !end.is_forfeit() {
        return None;
    }
    let ended = end.name();
    let limits = setup.limits;
    let label = seat
        .player_at(seat.result.ticks)
        .map_or_else(String::new, |player| player.label());
    match (end, Host::of(seat, setup)) {
        // Stalls are re-derived from the actions; a person's game never stalls.
        (RecordedEnd::Stalled, Host::Person) => {
            Some("ended stalled, but a person played it, and a person's game never stalls".to_string())
        }
        (RecordedEnd::Stalled, _) => None,
        (_, Host::Nobody) => Some(format!(
            "ended {ended}, but no player is recorded at tick {}",
            seat.result.ticks
        )),
        (_, Host::Person) => Some(format!(
            "ended {ended}, but a person played it, and only the rules end a person's game"
        )),
        (RecordedEnd::Violation, _) => match limits.max_violations {
            None => Some("ended violation, but the setup allows any number of violations".to_string()),
            Some(max) => {
                let empty = seat.actions.iter().filter(|&&bits| bits == 0).count() as u64;
                (empty < max).then(|| {
                    format!(
                        "ended violation, which takes {} violations under the setup's limit, but only {empty} of \
                         its ticks are empty (an answer that broke the protocol is not applied: it is recorded as 0)",
                        max + 1
                    )
                })
            }
        },
        (RecordedEnd::TimeLoss, _) if limits.time_control.is_none() => {
            Some("ended time_loss, but the setup has no time control".to_string())
        }
        (RecordedEnd::Timeout, Host::Process) => None,
        (RecordedEnd::Timeout, _) if limits.think_limit_ns.is_none() => Some(format!(
            "ended timeout, but the setup has no think limit and `{label}` is not a bot process, which has one of its own"
        )),
        (RecordedEnd::Crashed | RecordedEnd::Sandbox, Host::LibraryInProcess) => Some(format!(
            "ended {ended}, but `{label}` is a library played in tetrad's own process (the setup records no think \
             limit, which an isolated seat has), and only a process {}",
            match end {
                RecordedEnd::Crashed => "crashes",
                _ => "is ended by the sandbox",
            }
        )),
        _ => None,
    }
}
