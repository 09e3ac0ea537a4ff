//! Playing back a replay with seeking: the game is re-simulated once, keeping a checkpoint
//! every thousand ticks and the tick at which each piece entered, so any tick is reached
//! by cloning a checkpoint and playing at most a thousand ticks.

use super::tracked::Tracked;
use crate::engine::Game;
use crate::referee::ended;
use crate::replay::{Replay, ReplayError};
use tetrad_plugin_api::Actions;

/// Ticks between checkpoints.
const EVERY: u64 = 1000;

/// A replay ready to play from any tick.
pub struct Playback {
    replay: Replay,
    checkpoints: Vec<Tracked>,
    piece_starts: Vec<u64>,
    len: u64,
    problem: Option<String>,
}

impl Playback {
    /// Re-simulates `replay` once. A replay that does not verify still plays, up to the
    /// tick where its game ended; [`Playback::problem`] says what is wrong.
    pub fn new(replay: Replay) -> Result<Playback, ReplayError> {
        if replay.seats.len() > 1 {
            return Err(ReplayError::Invalid(
                "a versus replay: the screen plays back one board; check it with `tetrad replay --verify`".to_string(),
            ));
        }
        let setup = &replay.setup;
        let mut tracked = Tracked::new(Game::new(setup.rules, setup.pieces.clone(), replay.seed));
        let mut checkpoints = vec![tracked.clone()];
        let mut piece_starts = vec![0];
        let mut len = 0;
        for &bits in &replay.seat().actions {
            if ended(tracked.game(), setup.max_pieces).is_some() {
                break;
            }
            let actions = Some(Actions(bits)).filter(|a| !a.is_violation()).unwrap_or_default();
            let report = tracked.tick(actions);
            len += 1;
            if report.locked.is_some() && tracked.game().current().is_some() {
                piece_starts.push(len);
            }
            if len % EVERY == 0 {
                checkpoints.push(tracked.clone());
            }
        }
        let problem = replay.verify().err().map(|e| e.to_string());
        Ok(Playback {
            replay,
            checkpoints,
            piece_starts,
            len,
            problem,
        })
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

    /// The actions of tick `tick` (counted from 0), if it can be played.
    pub fn action(&self, tick: u64) -> Option<Actions> {
        (tick < self.len).then(|| Actions(self.replay.seat().actions[tick as usize]))
    }

    /// The game after `tick` ticks (at most [`Playback::len`]).
    pub fn at(&self, tick: u64) -> Tracked {
        let tick = tick.min(self.len);
        let checkpoint = ((tick / EVERY) as usize).min(self.checkpoints.len() - 1);
        let mut tracked = self.checkpoints[checkpoint].clone();
        for t in checkpoint as u64 * EVERY..tick {
            tracked.tick(self.action(t).unwrap_or_default());
        }
        tracked
    }

    /// The tick `pieces` piece entries before (negative) or after `tick`; back from the
    /// middle of a piece, the first step is that piece's own entry. Past the last piece
    /// is the last tick.
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
        let mut tracked = playback.at(0);
        for tick in 0..playback.len() {
            assert_eq!(playback.at(tick).game().stats(), tracked.game().stats(), "tick {tick}");
            assert_eq!(playback.at(tick).game().current(), tracked.game().current());
            tracked.tick(playback.action(tick).unwrap());
        }
        assert!(tracked.game().is_over());
        assert!(playback.at(playback.len()).game().is_over());
    }

    #[test]
    fn piece_seeks_step_between_entries() {
        let playback = Playback::new(dropped_game()).unwrap();
        let second = playback.seek_pieces(0, 1);
        assert!(second > 0);
        assert_eq!(playback.at(second).game().stats().pieces, 1);
        assert!(playback.at(second).game().is_new_piece());
        assert_eq!(playback.seek_pieces(second, -1), 0);
        assert_eq!(
            playback.seek_pieces(second + 1, -1),
            second,
            "back to this piece's entry"
        );
        assert_eq!(playback.seek_pieces(0, -5), 0);
        assert_eq!(playback.seek_pieces(0, 10_000), playback.len());
        let tenth = playback.seek_pieces(0, 10);
        assert_eq!(playback.at(tenth).game().stats().pieces, 10);
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
