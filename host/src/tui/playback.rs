//! Playing back a replay with seeking: the game (in versus, both games, tick by tick with
//! the garbage between them) is re-simulated once, keeping a checkpoint every thousand
//! ticks and the tick at which each piece entered, so any tick is reached by cloning a
//! checkpoint and playing at most a thousand ticks. A game under timing rules is told
//! each tick's recorded time before the tick, so rows fall and pieces lock by delay
//! between ticks as they did.

use crate::engine::{pass_garbage, Game};
use crate::referee::ended;
use crate::replay::{Replay, ReplayError};
use crate::tracked::Tracked;
use tetrad_plugin_api::Actions;

/// Ticks between checkpoints.
const EVERY: u64 = 1000;

/// Whether the first seat's next piece entered at a tick: before it (its piece locked by
/// delay) or with it.
#[derive(Clone, Copy, Debug, Default)]
struct Entered {
    before: bool,
    after: bool,
}

/// A replay ready to play from any tick.
pub struct Playback {
    replay: Replay,
    /// The boards of every seat, every [`EVERY`] ticks.
    checkpoints: Vec<Vec<Tracked>>,
    /// The ticks at which the first seat's pieces entered.
    piece_starts: Vec<u64>,
    len: u64,
    problem: Option<String>,
}

impl Playback {
    /// Re-simulates `replay` once. A replay that does not verify still plays, up to the
    /// tick where its games ended; [`Playback::problem`] says what is wrong.
    pub fn new(replay: Replay) -> Result<Playback, ReplayError> {
        let mut playback = Playback {
            checkpoints: Vec::new(),
            piece_starts: vec![0],
            len: 0,
            problem: replay.verify().err().map(|e| e.to_string()),
            replay,
        };
        let mut boards = playback.start();
        playback.checkpoints.push(boards.clone());
        let longest = playback.replay.seats.iter().map(|seat| seat.actions.len()).max();
        for tick in 0..longest.unwrap_or(0) as u64 {
            let max_pieces = playback.replay.setup.max_pieces;
            if boards.iter().all(|board| ended(board.game(), max_pieces).is_some()) {
                break;
            }
            let entered = playback.step(&mut boards, tick);
            if entered.before {
                playback.piece_starts.push(playback.len);
            }
            playback.len += 1;
            if entered.after {
                playback.piece_starts.push(playback.len);
            }
            if playback.len.is_multiple_of(EVERY) {
                playback.checkpoints.push(boards.clone());
            }
        }
        Ok(playback)
    }

    /// Every seat's board before the first tick.
    fn start(&self) -> Vec<Tracked> {
        let setup = &self.replay.setup;
        let seed = self.replay.seed;
        let deal = || {
            let mut game = Game::new(setup.rules, setup.pieces.clone(), seed);
            if let Some(attack) = &setup.attack {
                game.enable_garbage_with(attack.clone(), setup.garbage, seed);
            }
            if let Some(timing) = setup.timing {
                // Refused in versus, which the replay's own check reports as its problem.
                let _ = game.enable_timing(timing);
            }
            Tracked::new(game)
        };
        self.replay.seats.iter().map(|_| deal()).collect()
    }

    /// Plays tick `tick` on `boards`: each seat whose game goes on and which has an
    /// action for it, then the garbage between them. Returns whether the first seat's
    /// next piece entered, before the tick (a lock by delay) or with it.
    fn step(&self, boards: &mut [Tracked], tick: u64) -> Entered {
        let max_pieces = self.replay.setup.max_pieces;
        let mut entered = Entered::default();
        for (seat, board) in boards.iter_mut().enumerate() {
            let Some(actions) = self.action(seat, tick) else {
                continue;
            };
            let record = &self.replay.seats[seat];
            let time = record.times_us.as_ref().and_then(|times| times.get(tick as usize));
            if let Some(&time) = time.filter(|_| board.game().timing().is_some()) {
                entered.before |= board.advance(time) && seat == 0 && board.game().current().is_some();
            }
            if ended(board.game(), max_pieces).is_some() {
                continue;
            }
            let report = board.tick(actions);
            entered.after |= seat == 0 && report.locked.is_some() && board.game().current().is_some();
            let last = tick as usize + 1 == record.actions.len();
            if let Some(end) = record.end_us.filter(|_| last && board.game().timing().is_some()) {
                board.advance(end);
            }
        }
        if boards.len() > 1 {
            pass_garbage(boards.iter_mut().map(Tracked::game_mut));
        }
        entered
    }

    /// The replay.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// Why the replay does not verify, if it does not.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// Ticks that can be played.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there is no tick to play.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions of seat `seat` at tick `tick` (counted from 0), if it has any: a
    /// violating action (which no player can have applied) counts as none.
    pub fn action(&self, seat: usize, tick: u64) -> Option<Actions> {
        let bits = *self.replay.seats.get(seat)?.actions.get(tick as usize)?;
        Some(Some(Actions(bits)).filter(|a| !a.is_unplayable()).unwrap_or_default())
    }

    /// Every seat's board after `tick` ticks (at most [`Playback::len`]).
    pub fn at(&self, tick: u64) -> Vec<Tracked> {
        let tick = tick.min(self.len);
        let checkpoint = ((tick / EVERY) as usize).min(self.checkpoints.len() - 1);
        let mut boards = self.checkpoints[checkpoint].clone();
        for t in checkpoint as u64 * EVERY..tick {
            self.step(&mut boards, t);
        }
        boards
    }

    /// The tick `pieces` piece entries (of the first seat) before (negative) or after
    /// `tick`; back from the middle of a piece, the first step is that piece's own entry.
    /// Past the last piece is the last tick.
    pub fn seek_pieces(&self, tick: u64, pieces: i32) -> u64 {
        let starts = &self.piece_starts;
        let steps = pieces.unsigned_abs() as usize;
        if pieces < 0 {
            let before = starts.partition_point(|&s| s < tick);
            starts[before.saturating_sub(steps)]
        } else {
            let upto = starts.partition_point(|&s| s <= tick);
            starts.get(upto + steps - 1).copied().unwrap_or(self.len)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Outcome, RecordedEnd};
    use crate::setup::Setup;

    /// A game of DROPs to the end, recorded.
    fn dropped_game() -> Replay {
        let setup = Setup::default();
        let mut game = Game::new(setup.rules, setup.pieces.clone(), 42);
        let mut replay = Replay::new(&setup, 42);
        let pattern = [
            Actions::LEFT,
            Actions::DROP,
            Actions::RIGHT | Actions::CW,
            Actions::DROP,
        ];
        let mut i = 0;
        while !game.is_over() {
            let actions = pattern[i % pattern.len()];
            i += 1;
            replay.seats[0].actions.push(actions.0);
            game.tick(actions);
        }
        replay.seats[0].result = Outcome::new(game.stats(), RecordedEnd::ToppedOut);
        replay
    }

    #[test]
    fn seeking_lands_on_the_same_game_as_playing_through() {
        let playback = Playback::new(dropped_game()).unwrap();
        assert_eq!(playback.problem(), None);
        assert!(playback.len() > 10);
        let [mut tracked] = <[Tracked; 1]>::try_from(playback.at(0)).unwrap();
        for tick in 0..playback.len() {
            let [at] = <[Tracked; 1]>::try_from(playback.at(tick)).unwrap();
            assert_eq!(at.game().stats(), tracked.game().stats(), "tick {tick}");
            assert_eq!(at.game().current(), tracked.game().current());
            tracked.tick(playback.action(0, tick).unwrap());
        }
        assert!(tracked.game().is_over());
        assert!(playback.at(playback.len())[0].game().is_over());
    }

    #[test]
    fn piece_seeks_step_between_entries() {
        let playback = Playback::new(dropped_game()).unwrap();
        let second = playback.seek_pieces(0, 1);
        assert!(second > 0);
        assert_eq!(playback.at(second)[0].game().stats().pieces, 1);
        assert!(playback.at(second)[0].game().is_new_piece());
        assert_eq!(playback.seek_pieces(second, -1), 0);
        assert_eq!(
            playback.seek_pieces(second + 1, -1),
            second,
            "back to this piece's entry"
        );
        assert_eq!(playback.seek_pieces(0, -5), 0);
        assert_eq!(playback.seek_pieces(0, 10_000), playback.len());
        let tenth = playback.seek_pieces(0, 10);
        assert_eq!(playback.at(tenth)[0].game().stats().pieces, 10);
    }

    #[test]
    fn a_tampered_replay_still_plays_and_says_why_it_does_not_verify() {
        let mut replay = dropped_game();
        let lines = replay.seats[0].result.lines;
        replay.seats[0].result.lines += 1;
        let playback = Playback::new(replay).unwrap();
        let expected = format!("recorded {} lines, re-simulated {lines}", lines + 1);
        assert!(
            playback.problem().unwrap().contains(&expected),
            "{:?}",
            playback.problem()
        );
    }
}

#[cfg(test)]
mod timed_tests {
    use super::*;
    use crate::engine::{Gravity, Timing};
    use crate::replay::{Outcome, PlayerRecord, RecordedEnd};
    use crate::setup::Setup;
    use std::sync::Arc;
    use tetrad_plugin_api::{PieceSet, Preset, Rules};

    #[test]
    fn a_timed_replay_plays_back_the_locks_that_came_between_its_ticks() {
        let mut setup = Setup::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs())).unwrap();
        let timing = Timing {
            gravity: Gravity::Fixed(1.0 / 60.0),
            ..Timing::guideline()
        };
        setup.timing = Some(timing);
        // A soft drop at 0 rests the first piece, which locks by itself at 500 ms; the
        // hard drop at 700 ms is the second piece's.
        let ticks = [(Actions::SOFT_DROP, 0), (Actions::DROP, 700_000)];
        let mut game = Game::new(setup.rules, setup.pieces.clone(), 3);
        game.enable_timing(timing).unwrap();
        for (actions, time) in ticks {
            while game.advance(time).is_some() {}
            game.tick(actions);
        }
        while game.advance(800_000).is_some() {}
        let mut replay = Replay::new(&setup, 3);
        let seat = &mut replay.seats[0];
        seat.players.push(PlayerRecord::human(0));
        seat.actions = ticks.iter().map(|(actions, _)| actions.0).collect();
        seat.times_us = Some(ticks.iter().map(|&(_, time)| time).collect());
        seat.end_us = Some(800_000);
        seat.result = Outcome::new(game.stats(), RecordedEnd::Unfinished);
        assert_eq!(game.stats().pieces, 2);
        let playback = Playback::new(replay).unwrap();
        assert_eq!(playback.problem(), None);
        let [end] = <[Tracked; 1]>::try_from(playback.at(playback.len())).unwrap();
        assert_eq!(
            (end.game().stats(), end.game().current()),
            (game.stats(), game.current())
        );
        assert_eq!(playback.seek_pieces(0, 1), 1, "the second piece entered before tick 1");
    }
}
