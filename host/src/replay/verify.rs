//! Checking a replay: every seat's game re-simulated in lockstep (or, at the realtime
//! pace, in the order of its ticks' times), with the garbage of a versus game between the
//! seats, against the recorded results.

use super::ends::{self, Played, SeatEnd};
use super::forfeits;
use super::{Outcome, RecordedEnd, Replay, ReplayError};
use crate::engine::{pass_garbage, Deliveries, Game, Pace, TickReport};
use crate::referee::{ended, Limits, Referee};
use tetrad_plugin_api::Actions;

/// What watches a replay being re-simulated (the replay page draws what it sees): the
/// games before the first tick, every tick of every seat as it is played, and the games
/// after the garbage passed at the end of each round.
pub trait Watcher {
    /// The games before the first tick.
    fn start(&mut self, games: &[Game]);
    /// Seat `seat` played `actions`, which did `report`, leaving `game`.
    fn tick(&mut self, seat: usize, actions: Actions, report: &TickReport, game: &Game);
    /// A round ended and the garbage passed between the seats.
    fn round_over(&mut self, games: &[Game]);
}

/// Watching nothing: plain verification.
impl Watcher for () {
    fn start(&mut self, _: &[Game]) {}
    fn tick(&mut self, _: usize, _: Actions, _: &TickReport, _: &Game) {}
    fn round_over(&mut self, _: &[Game]) {}
}

impl Replay {
    /// Re-simulates every seat's game, round by round at the setup's pace (at the realtime
    /// pace, tick by tick in the order of the recorded times) and with garbage between
    /// versus seats as they were played, and checks that each gives its recorded result.
    /// Returns each seat's re-simulated result.
    pub fn verify(&self) -> Result<Vec<Outcome>, ReplayError> {
        self.verify_watched(&mut ())
    }

    /// [`Replay::verify`], showing `watcher` every tick as it is re-simulated.
    pub fn verify_watched(&self, watcher: &mut dyn Watcher) -> Result<Vec<Outcome>, ReplayError> {
        let setup = &self.setup;
        let seats = self.seats.len();
        let pace = if seats > 1 && setup.attack.is_some() {
            setup.pace
        } else {
            Pace::Ticks
        };
        // Under realtime the garbage delay counts time, which the engine does not read.
        let garbage = match pace {
            Pace::Realtime => Deliveries::engine_rules(&setup.garbage),
            _ => setup.garbage,
        };
        let mut games: Vec<Game> = (0..seats)
            .map(|_| {
                let mut game = Game::new(setup.rules, setup.pieces.clone(), self.seed);
                if let Some(attack) = &setup.attack {
                    game.enable_garbage_with(attack.clone(), garbage, self.seed);
                }
                game
            })
            .collect();
        watcher.start(&games);
        match (setup.timing, pace) {
            (timing, Pace::Realtime) => self.play_timed(&mut games, timing, watcher)?,
            (Some(timing), _) => self.play_clocked(timing, &mut games, watcher)?,
            (None, _) => self.play_rounds(&mut games, pace, watcher)?,
        }
        self.check_results(&games, pace)
    }

    /// Plays every seat's recorded ticks round by round as the game loop plays them: each
    /// seat's part as long as the pace says, then the garbage passes.
    fn play_rounds(&self, games: &mut [Game], pace: Pace, watcher: &mut dyn Watcher) -> Result<(), ReplayError> {
        let setup = &self.setup;
        let seats = self.seats.len();
        if let Some(index) = self
            .seats
            .iter()
            .position(|seat| seat.times_us.is_some() || seat.end_us.is_some())
        {
            return Err(self.mismatch(
                index,
                format!("the seat records times, which only a game at the realtime pace has (this one is {pace})"),
            ));
        }
        let mismatch = |seat: usize, problem: String| self.mismatch(seat, problem);
        let mut played = vec![0usize; seats];
        while played.iter().zip(&self.seats).any(|(&p, seat)| p < seat.actions.len()) {
            for (index, (game, seat)) in games.iter_mut().zip(&self.seats).enumerate() {
                let pieces_before = game.stats().pieces;
                while let Some(&bits) = seat.actions.get(played[index]) {
                    let tick = played[index];
                    if let Some(end) = ended(game, setup.max_pieces) {
                        return Err(mismatch(
                            index,
                            format!(
                                "the game ended ({}) after tick {tick}, but the replay has {} ticks",
                                end.name(),
                                seat.actions.len()
                            ),
                        ));
                    }
                    let actions = Actions(bits);
                    if actions.is_unplayable() {
                        return Err(mismatch(
                            index,
                            format!("tick {tick} holds {actions:?}, which no player can have applied"),
                        ));
                    }
                    let report = game.tick(actions);
                    watcher.tick(index, actions, &report, game);
                    played[index] += 1;
                    if pace.turn_over(pieces_before, game) {
                        break;
                    }
                }
            }
            if seats > 1 {
                pass_garbage(games.iter_mut());
            }
            watcher.round_over(games);
        }
        Ok(())
    }

    /// `problem` with seat `seat`, named from 1 in a fixture of more than one seat.
    pub(super) fn mismatch(&self, seat: usize, problem: String) -> ReplayError {
        ReplayError::Mismatch(match self.seats.len() {
            1 => problem,
            _ => format!("seat {}: {problem}", seat + 1),
        })
    }

    /// Checks each re-simulated game against its recorded result, and that the seats'
    /// ends can all be true together; returns the re-simulated results.
    fn check_results(&self, games: &[Game], pace: Pace) -> Result<Vec<Outcome>, ReplayError> {
        let seats = self.seats.len();
        let mismatch = |seat: usize, problem: String| self.mismatch(seat, problem);
        let ends = self.replayed_ends(games);
        let mut outcomes = Vec::with_capacity(seats);
        for (index, (game, seat)) in games.iter().zip(&self.seats).enumerate() {
            let replayed = Outcome::of_game(game, ends[index]);
            let recorded = seat.result;
            let mut differences = Vec::new();
            for (what, r, s) in [
                ("lines", recorded.lines, replayed.lines),
                ("pieces", recorded.pieces, replayed.pieces),
                ("points", recorded.score, replayed.score),
                ("ticks", recorded.ticks, replayed.ticks),
                ("rows of garbage sent", recorded.sent, replayed.sent),
                ("rows of garbage received", recorded.received, replayed.received),
            ] {
                if r != s {
                    differences.push(format!("recorded {r} {what}, re-simulated {s}"));
                }
            }
            if recorded.end != replayed.end {
                differences.push(format!(
                    "recorded end {}, re-simulated {}",
                    recorded.end.name(),
                    replayed.end.name()
                ));
            }
            if !differences.is_empty() {
                return Err(mismatch(index, differences.join("; ")));
            }
            if let Some(problem) = forfeits::impossible(seat, &self.setup) {
                return Err(mismatch(index, problem));
            }
            outcomes.push(replayed);
        }
        let ends: Vec<SeatEnd> = self
            .seats
            .iter()
            .map(|seat| SeatEnd {
                end: seat.result.end,
                ticks: seat.result.ticks,
                pieces: seat.result.pieces,
            })
            .collect();
        if let Some(problem) = ends::impossible(&ends, Played::Anywhere, pace) {
            return Err(ReplayError::Mismatch(problem));
        }
        if pace == Pace::Realtime {
            self.check_end_times()?;
        }
        Ok(outcomes)
    }

    /// How each re-simulated game ended. The rules decide a top-out and the cap; a plugin
    /// error or an unfinished game leaves the game running, so the record decides those,
    /// and a stall must show in the piece's ticks. In versus, a seat whose game went on is
    /// `won` when another seat's game was lost, and `capped` when another reached the cap.
    fn replayed_ends(&self, games: &[Game]) -> Vec<RecordedEnd> {
        let own: Vec<RecordedEnd> = games
            .iter()
            .zip(&self.seats)
            .map(|(game, seat)| self.replayed_end(game, seat.result.end))
            .collect();
        own.iter()
            .enumerate()
            .map(|(index, &end)| {
                let recorded = self.seats[index].result.end;
                let others = || {
                    own.iter()
                        .enumerate()
                        .filter(move |&(other, _)| other != index)
                        .map(|(_, &e)| e)
                };
                match (end, recorded) {
                    (RecordedEnd::Unfinished, RecordedEnd::Won) if others().any(RecordedEnd::is_loss) => {
                        RecordedEnd::Won
                    }
                    (RecordedEnd::Unfinished, RecordedEnd::Capped) if others().any(|e| e == RecordedEnd::Capped) => {
                        RecordedEnd::Capped
                    }
                    _ => end,
                }
            })
            .collect()
    }

    /// How one re-simulated game ended by itself, its seat's recorded end `recorded`.
    fn replayed_end(&self, game: &Game, recorded: RecordedEnd) -> RecordedEnd {
        if let Some(end) = ended(game, self.setup.max_pieces) {
            return end.into();
        }
        let mut referee = Referee::new(game.rules(), self.setup.max_pieces, Limits::default());
        let stalled = referee.after_tick(game).is_some();
        match recorded {
            RecordedEnd::Stalled if stalled => RecordedEnd::Stalled,
            RecordedEnd::PluginError
            | RecordedEnd::Timeout
            | RecordedEnd::Violation
            | RecordedEnd::Crashed
            | RecordedEnd::Sandbox
            | RecordedEnd::TimeLoss
            | RecordedEnd::Unfinished => recorded,
            _ => RecordedEnd::Unfinished,
        }
    }
}
