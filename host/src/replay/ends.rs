//! Whether the recorded ends of a fixture's seats can all be true together. A forfeit
//! (a crash, a timeout, a plugin error) cannot be re-derived from the actions, but it can
//! be placed: in a versus game the seats play in lockstep and the first game to end ends
//! the others on the same tick, so every seat's end must fall on one tick of the fixture.
//! Under the `pieces` pace a round is a piece each, and the ends must fall in one round,
//! placed by the pieces each seat locked. Replays and results files are both checked here;
//! under the `realtime` pace the ends fall at one time, which only a replay records, and
//! its verification checks them.

use super::RecordedEnd;
use crate::engine::Pace;

/// One seat's recorded end: how its game ended, and after how many of its ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatEnd {
    /// How it ended.
    pub end: RecordedEnd,
    /// Ticks the seat played.
    pub ticks: u64,
    /// Pieces the seat locked.
    pub pieces: u64,
}

/// Where a fixture was played, which decides when a top-out is noticed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// By the headless game loop (results files): a game that topped out or reached the
    /// cap is noticed before the seat's next tick, after the other seat played that tick.
    Headless,
    /// Headless, or on a screen (`demo`, `play`), which notices a top-out right after the
    /// tick (replays).
    Anywhere,
}

/// The round of the fixture (its tick, counted from 0; -1 before the first, for a player
/// that could not be created) in which a seat's game can have ended, as a range. A seat
/// that plays on in a round ticks in it.
fn rounds(seat: SeatEnd, played: Played) -> (i128, i128) {
    let ticks = i128::from(seat.ticks);
    match seat.end {
        // Noticed before its next tick, or (on a screen) right after its last.
        RecordedEnd::ToppedOut => match played {
            Played::Headless => (ticks, ticks),
            Played::Anywhere => (ticks - 1, ticks),
        },
        // By itself (as a top-out), or ended by the other seat's cap after its last tick.
        RecordedEnd::Capped => (ticks - 1, ticks),
        // After its last tick.
        RecordedEnd::Stalled | RecordedEnd::Won => (ticks - 1, ticks - 1),
        // Instead of its next tick; with no tick, maybe before the game began.
        RecordedEnd::PluginError
        | RecordedEnd::Timeout
        | RecordedEnd::Violation
        | RecordedEnd::Crashed
        | RecordedEnd::Sandbox
        | RecordedEnd::TimeLoss => (if ticks == 0 { -1 } else { ticks }, ticks),
        RecordedEnd::Unfinished => (ticks - 1, i128::MAX),
    }
}

/// The round of a fixture at the `pieces` pace (counted from 0) in which a seat's game can
/// have ended, as a range. A seat in play has locked `r + 1` pieces once its part of round
/// `r` is over, and between `r` and `r + 1` while it plays it: a game that ended in round
/// `r` (by a lock, a stall, a forfeit, the cap, or the other seat's end) has locked `r` or
/// `r + 1`.
fn piece_rounds(seat: SeatEnd) -> (i128, i128) {
    let pieces = i128::from(seat.pieces);
    match seat.end {
        RecordedEnd::Unfinished => (pieces - 1, i128::MAX),
        _ if seat.ticks == 0 => (-1, pieces),
        _ => (pieces - 1, pieces),
    }
}

/// What makes the ends of a fixture's seats impossible together, in words naming the
/// seats from 1, if anything:
///
/// - a solo game is never `won`;
/// - in versus, a seat that `won` needs another seat that lost (topped out, stalled or
///   forfeited), and so not every seat can have won;
/// - in versus, every seat's game ended on the same tick of the fixture (a game stopped
///   `unfinished` on a screen is not placed); under the `pieces` pace, in the same round
///   of a piece each; under `realtime`, not placed here.
pub fn impossible(seats: &[SeatEnd], played: Played, pace: Pace) -> Option<String> {
    let describe = |index: usize| {
        let seat = seats[index];
        format!("{} after {} ticks", seat.end.name(), seat.ticks)
    };
    if seats.len() == 1 {
        return (seats[0].end == RecordedEnd::Won).then(|| "a solo game cannot be won".to_string());
    }
    if seats.iter().all(|s| s.end == RecordedEnd::Won) {
        return Some(match seats.len() {
            2 => "both seats won".to_string(),
            _ => "every seat won".to_string(),
        });
    }
    for (index, seat) in seats.iter().enumerate() {
        let lost = |other: usize| other != index && seats[other].end.is_loss();
        if seat.end == RecordedEnd::Won && !(0..seats.len()).any(lost) {
            return Some(format!("seat {}: ended won, but no other seat lost", index + 1));
        }
    }
    let ranges: Vec<(i128, i128)> = match pace {
        Pace::Ticks => seats.iter().map(|&s| rounds(s, played)).collect(),
        Pace::Pieces => seats.iter().map(|&s| piece_rounds(s)).collect(),
        // The seats' ends fall at one time, which only a replay records (and checks).
        Pace::Realtime => return None,
    };
    let latest = (0..seats.len()).max_by_key(|&i| ranges[i].0).expect("seats");
    let earliest = (0..seats.len()).min_by_key(|&i| ranges[i].1).expect("seats");
    (ranges[latest].0 > ranges[earliest].1).then(|| {
        format!(
            "seat {}: ended {}, which cannot follow seat {}'s end ({}): the seats of a versus game end together, {}",
            latest + 1,
            describe(latest),
            earliest + 1,
            describe(earliest),
            match pace {
                Pace::Ticks => "on one tick",
                Pace::Pieces | Pace::Realtime => "in one round",
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use RecordedEnd::*;

    fn check(seats: &[(RecordedEnd, u64)], played: Played) -> Option<String> {
        let seats: Vec<SeatEnd> = seats
            .iter()
            .map(|&(end, ticks)| SeatEnd { end, ticks, pieces: 0 })
            .collect();
        impossible(&seats, played, Pace::Ticks)
    }

    #[test]
    fn the_ends_the_game_loop_gives_pass() {
        for played in [Played::Headless, Played::Anywhere] {
            for seats in [
                // A top-out or a forfeit is noticed before the seat's next tick, which the
                // other seat plays before it wins.
                [(ToppedOut, 40), (Won, 41)],
                [(Won, 41), (Crashed, 40)],
                [(Timeout, 7), (Won, 8)],
                // A stall ends the game after its tick.
                [(Stalled, 90), (Won, 90)],
                // A player that could not be created: neither seat ticked.
                [(PluginError, 0), (Won, 0)],
                [(Crashed, 0), (Timeout, 0)],
                // Draws: both ended on the same tick.
                [(ToppedOut, 40), (ToppedOut, 40)],
                [(ToppedOut, 40), (Stalled, 41)],
                [(ToppedOut, 40), (Crashed, 40)],
                [(Capped, 50), (Capped, 50)],
                [(Capped, 50), (Capped, 51)],
                [(Unfinished, 12), (Unfinished, 12)],
            ] {
                assert_eq!(check(&seats, played), None, "{seats:?}");
            }
        }
        assert_eq!(check(&[(Capped, 30)], Played::Headless), None);
        // On a screen, a top-out ends the game after its tick, as a stall does.
        assert_eq!(check(&[(ToppedOut, 40), (Won, 40)], Played::Anywhere), None);
        assert!(check(&[(ToppedOut, 40), (Won, 40)], Played::Headless).is_some());
    }

    #[test]
    fn ends_that_cannot_all_be_true_are_named() {
        let headless = |seats: &[(RecordedEnd, u64)]| check(seats, Played::Headless).expect("refused");
        assert_eq!(headless(&[(Won, 10)]), "a solo game cannot be won");
        assert_eq!(headless(&[(Won, 10), (Won, 10)]), "both seats won");
        assert_eq!(
            headless(&[(Capped, 40), (Won, 41)]),
            "seat 2: ended won, but no other seat lost"
        );
        assert_eq!(
            headless(&[(ToppedOut, 40), (Crashed, 41)]),
            "seat 2: ended crashed after 41 ticks, which cannot follow seat 1's end (topped_out after 40 ticks): the seats of a versus game end together, on one tick"
        );
        assert!(headless(&[(ToppedOut, 41), (ToppedOut, 40)]).starts_with("seat 1: ended topped_out after 41"));
        assert!(headless(&[(Won, 50), (Timeout, 30)]).starts_with("seat 1: ended won after 50"));
    }
}
