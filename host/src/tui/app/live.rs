//! A person against a bot in real time in the terminal (`tetrad play --versus --gravity`):
//! the game is [`runner::Live`]'s, as in the browser. The app hands it the person's key
//! presses and releases with the game's time and lets the time pass frame by frame; the
//! boards on screen follow its games. After a countdown the game's time runs and does
//! not stop (a game against a bot does not pause); each game ended or stopped is recorded
//! and, with a results file, counted.

use super::side::Driver;
use super::timed::key_name;
use super::{App, Session, Side};
use crate::handling::{Handling, KeyEvent};
use crate::plugin::Plugin;
use crate::replay::{RecordedEnd, Replay, ReplayError};
use crate::runner::Rates;
use crate::runner::{self, Live, LiveError};
use crate::tournament::{PersonResults, RecordError};
use crate::tracked::Tracked;
use crate::tui::keys::Mode;
use crate::tui::pilots::Roster;
use crossterm::event::{KeyEvent as TermKey, KeyEventKind};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What a person's real-time games against a bot are played with, beside the session.
pub struct LiveOptions {
    /// The bot and its options.
    pub bot: (Plugin, String),
    /// The person's handling.
    pub handling: Handling,
    /// The wait before each game's time 0.
    pub countdown: Duration,
    /// A folder each game's replay is saved in, as `game-N.json` (N from 1).
    pub games_dir: Option<PathBuf>,
    /// The results file each game ended by the rules is appended to.
    pub results: Option<PersonResults>,
}

/// The live game on screen and what the session keeps between games.
pub(super) struct LivePlay {
    options: LiveOptions,
    live: Live,
    /// Microseconds since the game was dealt: its time 0 is the countdown's end.
    clock_us: u64,
    /// The game's number in this session, from 1.
    number: u64,
    /// Whether the game's record was saved.
    saved: bool,
    /// The last failure to append a game to the results file.
    results_error: Option<RecordError>,
}

impl LivePlay {
    fn countdown_us(&self) -> u64 {
        self.options.countdown.as_micros() as u64
    }

    /// Whether the game's time has started.
    fn started(&self) -> bool {
        self.clock_us >= self.countdown_us()
    }

    /// Saves the ended game's replay to `record` and to the games folder: the paths saved
    /// to.
    fn record(&self, record: Option<&Path>) -> Result<Vec<String>, ReplayError> {
        let Some(replay) = Replay::of_live(&self.live) else {
            return Ok(Vec::new());
        };
        let folder = self.options.games_dir.as_ref();
        let paths = [
            record.map(Path::to_path_buf),
            folder.map(|dir| dir.join(format!("game-{}.json", self.number))),
        ];
        let mut saved = Vec::new();
        for path in paths.into_iter().flatten() {
            replay.save(&path)?;
            saved.push(path.display().to_string());
        }
        Ok(saved)
    }

    /// Appends the ended game, game `index`, to the results file, if there is one and the
    /// game ended by the rules (a game stopped unfinished is no result). Returns whether
    /// it was appended.
    fn count(&mut self, index: u64) -> Result<bool, RecordError> {
        match (&mut self.options.results, self.live.results(index)) {
            (Some(results), Some(seats)) => results.append(&seats).map(|()| true),
            _ => Ok(false),
        }
    }

    /// The game's time: 0 during the countdown, the end's time once ended.
    fn now_us(&self) -> u64 {
        match self.live.end() {
            Some((end_us, _)) => end_us,
            None => self.clock_us.saturating_sub(self.countdown_us()),
        }
    }
}

impl App {
    /// A person plays the bot of `options` in real time: game 0 of `session.seed` (or,
    /// continuing a results file, its next game), the person on the left. `session.setup`
    /// is a versus game under timing rules at the realtime pace. Fails if it is not, or if
    /// the bot refuses to create an instance.
    pub fn play_live(session: Session, options: LiveOptions) -> Result<App, LiveError> {
        let index = options.results.as_ref().map_or(0, PersonResults::next);
        let seed = runner::game_seed(session.seed, index);
        let (plugin, bot_options) = &options.bot;
        let live = Live::new(
            session.setup.clone(),
            seed,
            options.handling.clone(),
            (plugin, bot_options),
        )?;
        let drivers = vec![Driver::Person, Driver::Bot];
        let mut app = App::new(Mode::Live, session, seed, drivers, Roster::default());
        app.game_index = index;
        app.live = Some(Box::new(LivePlay {
            options,
            live,
            clock_us: 0,
            number: 1,
            saved: false,
            results_error: None,
        }));
        app.live_deal();
        Ok(app)
    }

    /// The boards of a new live game: its games as dealt.
    fn live_deal(&mut self) {
        let Some(play) = self.live.as_deref() else {
            return;
        };
        for (side, game) in self.sides.iter_mut().zip(play.live.games()) {
            side.tracked = Tracked::new(game.clone());
            side.end = None;
            side.error = None;
        }
    }

    /// In a live game, a key the handling binds goes to the game with the game's time
    /// (a press during the countdown at time 0), and is played at once; the terminal's
    /// own repeats are left out. Returns whether the key was the game's.
    pub(super) fn live_key(&mut self, key: &TermKey) -> bool {
        let Some(play) = self.live.as_deref_mut() else {
            return false;
        };
        let Some(name) = key_name(key.code).filter(|name| play.live.handling().keys.contains_key(name)) else {
            return false;
        };
        if play.live.end().is_none() && key.kind != KeyEventKind::Repeat {
            let event = KeyEvent {
                time_us: play.now_us(),
                key: name,
                pressed: key.kind == KeyEventKind::Press,
            };
            play.live.key(event);
            self.live_run();
        }
        true
    }

    /// In a live game, lets `elapsed` pass and plays what fell due. Returns whether the
    /// app plays a live game.
    pub(super) fn live_tick(&mut self, elapsed: Duration) -> bool {
        let Some(play) = self.live.as_deref_mut() else {
            return false;
        };
        if play.live.end().is_none() {
            play.clock_us += elapsed.as_micros() as u64;
        }
        self.live_run();
        true
    }

    /// Plays the live game to its time, one due moment after another so that the boards
    /// see every lock; at its end, records it.
    fn live_run(&mut self) {
        let Some(play) = self.live.as_deref_mut() else {
            return;
        };
        if play.live.end().is_none() && play.started() {
            let now = play.now_us();
            let mut played_to = None;
            while let Some(due) = play.live.next_due_us().filter(|&due| due <= now) {
                if played_to.is_some_and(|to| due <= to) {
                    break;
                }
                play.live.run_until(due);
                played_to = Some(due);
                follow(&mut self.sides, &play.live);
            }
            play.live.run_until(now);
        }
        follow(&mut self.sides, &play.live);
        if play.live.end().is_some() {
            self.live_save();
        }
    }

    /// Ends the live game (stopped unfinished if it goes on) and saves its record, once:
    /// to `--record`, to the games folder, and, ended by the rules, to the results file.
    /// A game stopped before its time 0 is not recorded.
    pub(super) fn live_save(&mut self) {
        let Some(play) = self.live.as_deref_mut() else {
            return;
        };
        if play.saved {
            return;
        }
        play.saved = true;
        if play.live.end().is_none() {
            if !play.started() {
                return;
            }
            play.live.stop(play.now_us());
        }
        follow(&mut self.sides, &play.live);
        if let Some((_, ends)) = play.live.end() {
            for (side, end) in self.sides.iter_mut().zip(ends) {
                side.end = Some(end.map_or(RecordedEnd::Unfinished, RecordedEnd::from));
            }
        }
        let mut status = format!("game {}", play.number);
        match play.record(self.session.record.as_deref()) {
            Ok(saved) if saved.is_empty() => {}
            Ok(saved) => status += &format!(" saved to {}", saved.join(" and ")),
            Err(err) => {
                status += &format!(": cannot save the replay: {err}");
                self.save_error = Some(err);
            }
        }
        match play.count(self.game_index) {
            Ok(true) => status += ", counted in the results",
            Ok(false) => {}
            Err(err) => {
                status += &format!(", cannot count it: {err}");
                play.results_error = Some(err);
            }
        }
        self.status = Some(status);
    }

    /// The next live game, the one on screen saved: the next game's pieces (every game is
    /// a new one of the results file, as a tournament deals them).
    pub(super) fn live_next_game(&mut self) {
        let Some(play) = self.live.as_deref_mut() else {
            return;
        };
        let next = play.options.results.as_ref().map_or(0, PersonResults::next);
        let index = (self.game_index + 1).max(next);
        let seed = runner::game_seed(self.session.seed, index);
        let (plugin, options) = &play.options.bot;
        let handling = play.options.handling.clone();
        match Live::new(self.session.setup.clone(), seed, handling, (plugin, options)) {
            Ok(live) => {
                play.live = live;
                play.clock_us = 0;
                play.number += 1;
                play.saved = false;
                self.game_index = index;
                self.game_seed = seed;
                self.status = None;
                self.live_deal();
            }
            Err(err) => self.status = Some(format!("cannot start the next game: {err}")),
        }
    }

    /// Whether a person plays a bot live.
    pub fn is_live(&self) -> bool {
        self.live.is_some()
    }

    /// In a live game, the countdown's time left before the game's time 0.
    pub fn countdown(&self) -> Option<Duration> {
        let play = self.live.as_deref()?;
        let left = play
            .countdown_us()
            .checked_sub(play.clock_us)
            .filter(|&left| left > 0)?;
        Some(Duration::from_micros(left))
    }

    /// In a live game, the game's time (at its end, once ended).
    pub fn play_time(&self) -> Option<Duration> {
        self.live.as_deref().map(|play| Duration::from_micros(play.now_us()))
    }

    /// In a live game, board `board`'s pace over the game's time.
    pub fn rates(&self, board: usize) -> Option<Rates> {
        let seconds = self.play_time()?.as_secs_f64();
        Some(Rates::of(self.sides.get(board)?.tracked.game(), seconds))
    }

    /// The live game's bot, as the screen names it.
    pub(super) fn live_bot_label(&self) -> Option<String> {
        let bot = self.live.as_deref()?.live.bot();
        Some(format!("{} {}", bot.name, bot.version))
    }

    /// After the screen closes: the last failure to append a game to the results file.
    pub fn take_results_error(&mut self) -> Option<RecordError> {
        self.live.as_deref_mut()?.results_error.take()
    }
}

/// The boards take the live games' states.
fn follow(sides: &mut [Side], live: &Live) {
    for (side, game) in sides.iter_mut().zip(live.games()) {
        side.tracked.follow(game);
    }
}
