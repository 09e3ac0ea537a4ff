//! The screen's state: the boards (one, or two in versus; each in `side`), who plays
//! each (a plugin, a person, or a replay), pause and speed, the overlays and the
//! recording. [`App::on_key`] and [`App::on_tick`] change it; there is no terminal code
//! here, so tests drive it directly.

pub use live::LiveOptions;
pub use side::{Garbage, Session, Side};

use super::keys::{self, Command, Mode};
use super::pilots::{PluginSeat, Roster};
use super::playback::Playback;
use super::recorder::Recorder;
use super::speed::{Rate, Speed};
use crate::player::CreateError;
use crate::plugin::Plugin;
use crate::replay::{RecordedEnd, ReplayError};
use crate::runner;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use side::{referee_for, Driver};
use std::time::{Duration, Instant};
use tetrad_plugin_api::{Actions, Movement, RotationSystem};

/// Ticks are played for at most about this long per frame, leaving time to draw and to
/// read keys; at full speed, for this long.
const FRAME_BUDGET: Duration = Duration::from_millis(25);

/// The state of one screen.
pub struct App {
    mode: Mode,
    session: Session,
    game_index: u64,
    game_seed: u64,
    /// One board, or two in versus.
    sides: Vec<Side>,
    /// The board that the plugin keys act on.
    selected: usize,
    roster: Roster,
    playback: Option<Box<Playback>>,
    /// Lockstep ticks played in this game.
    ticks: u64,
    paused: bool,
    speed: Speed,
    due: Duration,
    help: bool,
    prompt: Option<String>,
    status: Option<String>,
    quit: bool,
    rate: Rate,
    recorder: Option<Recorder>,
    save_error: Option<ReplayError>,
    /// A person playing in real time: their hands and the game's time.
    timed: Option<Box<timed::TimedPlay>>,
    /// A person playing a bot in real time: the live game.
    live: Option<Box<live::LivePlay>>,
}

impl App {
    fn new(mode: Mode, session: Session, game_seed: u64, drivers: Vec<Driver>, roster: Roster) -> App {
        App {
            mode,
            game_index: 0,
            game_seed,
            sides: drivers
                .into_iter()
                .map(|driver| Side::new(driver, &session, game_seed))
                .collect(),
            selected: 0,
            roster,
            playback: None,
            ticks: 0,
            paused: false,
            speed: Speed::Level,
            due: Duration::ZERO,
            help: false,
            prompt: None,
            status: None,
            quit: false,
            rate: Rate::default(),
            recorder: None,
            save_error: None,
            timed: None,
            live: None,
            session,
        }
    }

    /// A demo: the first of `plugins` (each with its options) plays game 0 of
    /// `session.seed`; in versus, against the second (or against itself, if it is the
    /// only one). Fails if a plugin refuses to create an instance.
    pub fn demo(session: Session, plugins: Vec<(Plugin, String)>) -> Result<App, CreateError> {
        let seed = runner::game_seed(session.seed, 0);
        let boards = if session.is_versus() { 2 } else { 1 };
        let last = plugins.len().saturating_sub(1);
        let drivers = (0..boards)
            .map(|board| Driver::Plugin(Box::new(PluginSeat::new(board.min(last)))))
            .collect();
        let mut app = App::new(Mode::Demo, session, seed, drivers, Roster::new(plugins));
        app.seat_plugins()?;
        app.start_recording();
        Ok(app)
    }

    /// A person plays game 0 of `session.seed`, alone.
    pub fn play(session: Session) -> App {
        let seed = runner::game_seed(session.seed, 0);
        let mut app = App::new(Mode::Play, session, seed, vec![Driver::Person], Roster::default());
        app.start_recording();
        app
    }

    /// A person plays game 0 of `session.seed` (a versus session) on the left board,
    /// against `opponent` (a plugin and its options) on the right. Fails if it refuses to
    /// create an instance.
    pub fn play_versus(session: Session, opponent: (Plugin, String)) -> Result<App, CreateError> {
        let seed = runner::game_seed(session.seed, 0);
        let drivers = vec![Driver::Person, Driver::Plugin(Box::new(PluginSeat::new(0)))];
        let mut app = App::new(Mode::Play, session, seed, drivers, Roster::new(vec![opponent]));
        app.selected = 1;
        app.seat_plugins()?;
        app.start_recording();
        Ok(app)
    }

    /// Plays back a recorded game: one board a seat.
    pub fn replay(playback: Playback) -> App {
        let replay = playback.replay();
        let session = Session {
            setup: replay.setup.clone(),
            seed: replay.seed,
            record: None,
        };
        let seed = replay.seed;
        let drivers = (0..replay.seats.len()).map(Driver::Replay).collect();
        let status = playback.problem().map(|p| format!("warning: this replay {p}"));
        let mut app = App::new(Mode::Replay, session, seed, drivers, Roster::default());
        app.playback = Some(Box::new(playback));
        app.status = status;
        app.check_replay_end();
        app
    }

    /// Gives every plugin board's game to its plugin, with a new player.
    fn seat_plugins(&mut self) -> Result<(), CreateError> {
        for side in &mut self.sides {
            if let Driver::Plugin(seat) = &mut side.driver {
                seat.take_over(&self.roster, seat.index(), side.tracked.game(), self.game_seed)?;
            }
        }
        Ok(())
    }

    /// Handles one key press.
    pub fn on_key(&mut self, key: KeyEvent) {
        let ctrl_c = key.modifiers.contains(KeyModifiers::CONTROL) && matches!(key.code, KeyCode::Char('c'));
        if ctrl_c {
            return self.apply(Command::Quit);
        }
        if let Some(text) = &mut self.prompt {
            match key.code {
                KeyCode::Enter => {
                    let text = std::mem::take(text);
                    self.prompt = None;
                    self.open_plugin(text.trim());
                }
                KeyCode::Esc => self.prompt = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char(c) => text.push(c),
                _ => {}
            }
            return;
        }
        if self.help {
            match keys::command(self.mode, key) {
                _ if key.code == KeyCode::Esc => self.help = false,
                Some(Command::Help) => self.help = false,
                Some(Command::Quit) => self.apply(Command::Quit),
                _ => {}
            }
            return;
        }
        if let Some(command) = keys::command(self.mode, key) {
            self.apply(command);
        }
    }

    /// Carries out one command.
    pub fn apply(&mut self, command: Command) {
        let level = self.level();
        match command {
            Command::Quit => {
                self.save_if_unsaved();
                self.quit = true;
            }
            Command::Help => self.help = !self.help,
            Command::Pause if self.live.is_some() => {
                self.status = Some("a game against a bot goes on: it does not pause".to_string());
            }
            Command::Pause => self.paused = !self.paused,
            Command::Step => {
                self.paused = true;
                self.advance(Actions::NONE);
            }
            Command::Faster => self.set_speed(self.speed.faster(level)),
            Command::Slower => self.set_speed(self.speed.slower(level)),
            Command::LevelSpeed => self.set_speed(Speed::Level),
            Command::Restart => self.new_game(self.game_index),
            Command::NewSeed => self.new_game(self.game_index + 1),
            Command::NextPlugin => self.next_plugin(),
            Command::OpenPlugin => self.prompt = Some(String::new()),
            Command::Left => self.human(Actions::LEFT),
            Command::Right => self.human(Actions::RIGHT),
            Command::RotateCw => self.human(Actions::CW),
            Command::RotateCcw => self.human(Actions::CCW),
            // Under the guideline a person soft-drops; elsewhere gravity does the work.
            Command::Down => self.human(match self.session.setup.rules.rotation() {
                RotationSystem::Srs => Actions::SOFT_DROP,
                RotationSystem::InBox => Actions::NONE,
            }),
            Command::Drop => self.human(Actions::DROP),
            Command::Hold => self.human(Actions::HOLD),
            Command::SeekPieces(pieces) => self.seek_pieces(pieces),
            Command::SeekStart => self.seek(0),
            Command::SeekEnd => self.seek(u64::MAX),
            Command::Select(board) => self.select(board),
        }
    }

    /// Lets `elapsed` of wall-clock time pass: plays the ticks it holds at the current
    /// speed. Nothing moves while paused, over, or under an overlay.
    pub fn on_tick(&mut self, elapsed: Duration) {
        // A live game goes on under the keys' help.
        if self.live_tick(elapsed) {
            return;
        }
        if self.paused || self.help || self.prompt.is_some() || self.is_over() {
            return;
        }
        if self.timed_tick(elapsed) {
            return self.rate.sample(elapsed, self.sides[0].stats().pieces);
        }
        // A person's game under a preset without gravity only moves on keys.
        let timer_ticks = self.mode != Mode::Play || self.session.setup.rules.movement() == Movement::Gravity;
        // A player slower than the pace gets no backlog: the frame ends after its budget.
        let started = Instant::now();
        match self.speed.interval(self.level()) {
            _ if !timer_ticks => {}
            Some(interval) => {
                self.due += elapsed;
                while self.due >= interval && !self.is_over() {
                    self.due -= interval;
                    self.advance(Actions::NONE);
                    if started.elapsed() >= FRAME_BUDGET {
                        self.due = Duration::ZERO;
                    }
                }
            }
            None => {
                while !self.is_over() && started.elapsed() < FRAME_BUDGET {
                    self.advance(Actions::NONE);
                }
            }
        }
        self.rate.sample(elapsed, self.sides[0].stats().pieces);
    }

    /// Whether every board's game has ended.
    fn is_over(&self) -> bool {
        self.sides.iter().all(|side| side.end.is_some())
    }

    /// The highest level on the screen, which sets the pace.
    fn level(&self) -> u32 {
        self.sides.iter().map(|side| side.stats().level()).max().unwrap_or(0)
    }

    /// A person's key: plays a tick with `actions` at once, and the timer starts over.
    fn human(&mut self, actions: Actions) {
        if self.mode == Mode::Play && !self.paused && !self.help && self.timed.is_none() && self.live.is_none() {
            self.advance(actions);
            self.due = Duration::ZERO;
        }
    }

    fn set_speed(&mut self, speed: Speed) {
        self.speed = speed;
        self.due = Duration::ZERO;
    }

    /// Starts game `index` of the session's seed, with the same players.
    fn new_game(&mut self, index: u64) {
        if self.mode == Mode::Replay {
            return self.seek(0);
        }
        self.save_if_unsaved();
        if self.live.is_some() {
            return self.live_next_game();
        }
        self.game_index = index;
        self.game_seed = runner::game_seed(self.session.seed, index);
        for side in &mut self.sides {
            side.tracked = self.session.deal(self.game_seed);
            side.referee = referee_for(&side.driver, &self.session.setup);
            side.end = None;
            side.error = None;
        }
        self.ticks = 0;
        self.due = Duration::ZERO;
        self.rate = Rate::default();
        self.timed_restart();
        for side in &mut self.sides {
            if let Driver::Plugin(seat) = &mut side.driver {
                if let Err(err) = seat.take_over(&self.roster, seat.index(), side.tracked.game(), self.game_seed) {
                    side.finish(RecordedEnd::PluginError, Some(err.to_string()));
                }
            }
        }
        self.start_recording();
    }

    fn select(&mut self, board: usize) {
        if board < self.sides.len() && matches!(self.sides[board].driver, Driver::Plugin(_)) {
            self.selected = board;
        }
    }

    /// After the screen closes: the last failure to save a replay, if any.
    pub fn take_save_error(&mut self) -> Option<ReplayError> {
        self.save_error.take()
    }
}

mod live;
mod lockstep;
mod recording;
mod seeking;
mod side;
mod switch;
mod timed;
mod view;

#[cfg(test)]
mod tests;
