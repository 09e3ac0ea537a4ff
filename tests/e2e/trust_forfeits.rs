//! Issue 50, item 2: no forfeit that cannot have happened is believed. A real versus
//! replay of two libraries played in tetrad's own process (no `--isolate`, so no think
//! limit recorded) is forged as a forger would: the loser's game cut a tick before its
//! top-out and marked `won`, the winner's cut a tick shorter and marked with a forfeit,
//! every total re-simulated so that only the end can give the forgery away.

use crate::common::*;
use std::path::Path;
use tetrad::engine::{Game, TickReport};
use tetrad::replay::{Outcome, RecordedEnd, Replay, Watcher};
use tetrad_plugin_api::Actions;

/// Each seat's totals once the re-simulation is over (garbage that rose into a board
/// after the seat's last tick included).
struct Totals(Vec<Outcome>);

impl Watcher for Totals {
    fn start(&mut self, _: &[Game]) {}
    fn tick(&mut self, _: usize, _: Actions, _: &TickReport, _: &Game) {}
    fn round_over(&mut self, games: &[Game]) {
        self.0 = games
            .iter()
            .map(|game| Outcome::of_game(game, RecordedEnd::Unfinished))
            .collect();
    }
}

/// Records game 0 of a versus match between two libraries, with `extra` arguments.
fn recorded(file: &Path, extra: &[&str]) -> Replay {
    let mut args = vec!["versus", "--plugins", "tree-search@depth=1", "random", "--games", "1"];
    args.extend(["--jobs", "1", "--max-pieces", "400", "--record", file.to_str().unwrap()]);
    args.extend(extra);
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = Replay::load(file).unwrap();
    assert!(replay.setup.limits.think_limit_ns.is_none(), "played in process");
    replay
}

/// `replay` with its winner's end turned into `end` a tick before the loser's top-out, the
/// loser marked `won`; every total as the re-simulation gives it.
fn forged(replay: &Replay, end: RecordedEnd) -> Replay {
    let won = |seat: usize| replay.seats[seat].result.end == RecordedEnd::Won;
    let (winner, loser) = match (won(0), won(1)) {
        (true, false) => (0, 1),
        (false, true) => (1, 0),
        _ => panic!(
            "one seat won: {:?}",
            replay.seats.iter().map(|s| s.result).collect::<Vec<_>>()
        ),
    };
    assert_eq!(replay.seats[loser].result.end, RecordedEnd::ToppedOut);
    let mut forged = replay.clone();
    let ticks = replay.seats[loser].actions.len() - 1;
    forged.seats[loser].actions.truncate(ticks);
    forged.seats[winner].actions.truncate(ticks - 1);
    let mut totals = Totals(Vec::new());
    // The totals are read as it re-simulates; the recorded ends do not match yet.
    let _ = forged.verify_watched(&mut totals);
    for (seat, end) in [(winner, end), (loser, RecordedEnd::Won)] {
        forged.seats[seat].result = Outcome { end, ..totals.0[seat] };
    }
    forged
}

/// `tetrad replay --verify` of `replay`, written to `file`: `Ok` with its line, or `Err`
/// with its one-line error.
fn verify(replay: &Replay, file: &Path) -> Result<String, String> {
    replay.save(file).unwrap();
    let output = run(&["replay", "--verify", file.to_str().unwrap()]);
    match output.status.success() {
        true => Ok(stdout(&output)),
        false => {
            assert_eq!(stderr(&output).lines().count(), 1, "{}", stderr(&output));
            Err(stderr(&output))
        }
    }
}

#[test]
fn a_forged_forfeit_that_the_recorded_setup_cannot_produce_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let forgery = dir.path().join("forged.json");
    let replay = recorded(&file, &["--max-violations", "1000000"]);
    use RecordedEnd::*;
    for (end, problem) in [
        // A library in tetrad's own process has no process to crash or to be stopped.
        (Crashed, "only a process crashes"),
        (Sandbox, "only a process is ended by the sandbox"),
        (Timeout, "the setup has no think limit"),
        (TimeLoss, "the setup has no time control"),
        // The first million violations were ticks applied as nothing: there are fewer ticks.
        (
            Violation,
            "which takes 1000001 violations under the setup's limit, but only",
        ),
    ] {
        let refused = verify(&forged(&replay, end), &forgery).expect_err(end.name());
        assert!(refused.contains("does not replay: seat "), "{refused}");
        assert!(refused.contains(&format!("ended {}, ", end.name())), "{refused}");
        assert!(refused.contains(problem), "{}: {refused}", end.name());
    }
    // A library can fail in process (a panic, an error status): that end is taken as
    // recorded, and so is a crash where a think limit says the seats may have been isolated.
    assert!(verify(&forged(&replay, PluginError), &forgery).is_ok());
    let mut limited = forged(&replay, Crashed);
    limited.setup.limits.think_limit_ns = Some(10_000_000_000);
    let line = verify(&limited, &forgery).expect("taken as recorded");
    assert!(line.contains("crashed"), "{line}");
}

#[test]
fn a_forged_violation_under_the_default_limit_is_taken_as_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.json");
    let forgery = dir.path().join("forged.json");
    // A match allows no violation by default: the first forfeits, and leaves no tick.
    let replay = recorded(&file, &[]);
    assert_eq!(replay.setup.limits.max_violations, Some(0));
    let line = verify(&forged(&replay, RecordedEnd::Violation), &forgery).expect("taken as recorded");
    assert!(line.contains("violation"), "{line}");
}
