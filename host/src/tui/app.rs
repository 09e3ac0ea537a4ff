//! The screen's state: the game, who plays it (plugins, a person, or a replay), pause and
//! speed, the overlays and the recording. [`App::on_key`] and [`App::on_tick`] change it;
//! there is no terminal code here, so tests drive it directly.

use super::keys::{self, Command, Mode};
use super::pilots::Pilots;
use super::playback::Playback;
use super::recorder::Recorder;
use super::speed::{Rate, Speed};
use super::tracked::Tracked;
use crate::engine::Game;
use crate::player::CreateError;
use crate::plugin::Plugin;
use crate::referee::{ended, Referee};
use crate::replay::{PlayerRecord, RecordedEnd, ReplayError};
use crate::runner;
use crate::setup::Setup;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tetrad_plugin_api::{Actions, Movement};

/// Ticks are played for at most about this long per frame, leaving time to draw and to
/// read keys; at full speed, for this long.
const FRAME_BUDGET: Duration = Duration::from_millis(25);

/// What a screen plays: the setup of its games, the seeds, and where to record.
#[derive(Clone, Debug)]
pub struct Session {
    /// The rules, pieces, piece cap and limits of every game.
    pub setup: Setup,
    /// The session's seed: its k-th new seed plays the pieces of game k of `tetrad run`
    /// with this seed.
    pub seed: u64,
    /// Save each game's replay here (the file holds the last game played).
    pub record: Option<PathBuf>,
}

/// The referee of a screen's game: a plugin in the demo is judged as in headless games,
/// under the setup's limits; a person, and a replay, which ends where its recorded ticks
/// do, only by the game itself.
fn referee_for(mode: Mode, setup: &Setup) -> Referee {
    match mode {
        Mode::Demo => Referee::new(&setup.rules, setup.max_pieces, setup.limits),
        Mode::Play | Mode::Replay => Referee::for_person(setup.max_pieces),
    }
}

enum Driver {
    Demo(Box<Pilots>),
    Play,
    Replay(Box<Playback>),
}

/// The state of one screen.
pub struct App {
    mode: Mode,
    session: Session,
    game_index: u64,
    game_seed: u64,
    tracked: Tracked,
    driver: Driver,
    /// Decides when the game in play ends, as in headless games.
    referee: Referee,
    end: Option<RecordedEnd>,
    error: Option<String>,
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
}

impl App {
    fn new(mode: Mode, session: Session, game_seed: u64, driver: Driver) -> App {
        let setup = &session.setup;
        let game = Game::new(setup.rules, setup.pieces.clone(), game_seed);
        App {
            mode,
            game_index: 0,
            game_seed,
            tracked: Tracked::new(game),
            referee: referee_for(mode, setup),
            driver,
            end: None,
            error: None,
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
            session,
        }
    }

    /// A demo: the first of `plugins` (each with its options) plays game 0 of
    /// `session.seed`. Fails if it refuses to create an instance.
    pub fn demo(session: Session, plugins: Vec<(Plugin, String)>) -> Result<App, CreateError> {
        let seed = runner::game_seed(session.seed, 0);
        let mut app = App::new(Mode::Demo, session, seed, Driver::Demo(Box::new(Pilots::new(plugins))));
        if let Driver::Demo(pilots) = &mut app.driver {
            pilots.take_over(0, app.tracked.game(), seed)?;
        }
        app.start_recording();
        Ok(app)
    }

    /// A person plays game 0 of `session.seed`.
    pub fn play(session: Session) -> App {
        let seed = runner::game_seed(session.seed, 0);
        let mut app = App::new(Mode::Play, session, seed, Driver::Play);
        app.start_recording();
        app
    }

    /// Plays back a recorded game.
    pub fn replay(playback: Playback) -> App {
        let replay = playback.replay();
        let session = Session {
            setup: replay.setup.clone(),
            seed: replay.seed,
            record: None,
        };
        let seed = replay.seed;
        let status = playback.problem().map(|p| format!("warning: this replay {p}"));
        let mut app = App::new(Mode::Replay, session, seed, Driver::Replay(Box::new(playback)));
        app.status = status;
        app.check_replay_end();
        app
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
        let level = self.stats().level();
        match command {
            Command::Quit => {
                self.save_if_unsaved();
                self.quit = true;
            }
            Command::Help => self.help = !self.help,
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
            Command::Down => self.human(Actions::NONE),
            Command::Drop => self.human(Actions::DROP),
            Command::SeekPieces(pieces) => self.seek_pieces(pieces),
            Command::SeekStart => self.seek(0),
            Command::SeekEnd => self.seek(u64::MAX),
        }
    }

    /// Lets `elapsed` of wall-clock time pass: plays the ticks it holds at the current
    /// speed. Nothing moves while paused, over, or under an overlay.
    pub fn on_tick(&mut self, elapsed: Duration) {
        if self.paused || self.help || self.prompt.is_some() || self.end.is_some() {
            return;
        }
        // A person's game under a preset without gravity only moves on keys.
        let timer_ticks = self.mode != Mode::Play || self.session.setup.rules.movement() == Movement::Gravity;
        // A player slower than the pace gets no backlog: the frame ends after its budget.
        let started = Instant::now();
        match self.speed.interval(self.stats().level()) {
            _ if !timer_ticks => {}
            Some(interval) => {
                self.due += elapsed;
                while self.due >= interval && self.end.is_none() {
                    self.due -= interval;
                    self.advance(Actions::NONE);
                    if started.elapsed() >= FRAME_BUDGET {
                        self.due = Duration::ZERO;
                    }
                }
            }
            None => {
                while self.end.is_none() && started.elapsed() < FRAME_BUDGET {
                    self.advance(Actions::NONE);
                }
            }
        }
        self.rate.sample(elapsed, self.stats().pieces);
    }

    /// A person's key: plays a tick with `actions` at once, and the timer starts over.
    fn human(&mut self, actions: Actions) {
        if self.mode == Mode::Play && !self.paused && !self.help {
            self.advance(actions);
            self.due = Duration::ZERO;
        }
    }

    /// Plays one tick, unless the game is over; `human` is the person's action in play
    /// mode.
    fn advance(&mut self, human: Actions) {
        if self.end.is_some() {
            return;
        }
        let tick = self.stats().ticks;
        let actions = match &mut self.driver {
            Driver::Play => human,
            Driver::Demo(pilots) => match self.referee.judge(pilots.ask(self.tracked.game())) {
                Ok(actions) => actions,
                Err(ending) => {
                    self.finish(ending.end.into(), ending.error);
                    return;
                }
            },
            Driver::Replay(playback) => match playback.action(tick) {
                Some(actions) => actions,
                None => {
                    self.check_replay_end();
                    return;
                }
            },
        };
        self.tracked.tick(actions);
        if let Some(recorder) = &mut self.recorder {
            recorder.tick(actions);
        }
        let game = self.tracked.game();
        if let Some(end) = self.referee.game_over(game) {
            self.finish(end.into(), None);
        } else if let Some(ending) = self.referee.after_tick(game) {
            self.finish(ending.end.into(), ending.error);
        } else if self.mode == Mode::Replay {
            self.check_replay_end();
        }
    }

    fn finish(&mut self, end: RecordedEnd, error: Option<String>) {
        self.end = Some(end);
        self.error = error;
        self.save_if_unsaved();
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
        self.game_index = index;
        self.game_seed = runner::game_seed(self.session.seed, index);
        let setup = &self.session.setup;
        let game = Game::new(setup.rules, setup.pieces.clone(), self.game_seed);
        self.tracked = Tracked::new(game);
        self.referee = referee_for(self.mode, &self.session.setup);
        self.end = None;
        self.error = None;
        self.due = Duration::ZERO;
        self.rate = Rate::default();
        if let Driver::Demo(pilots) = &mut self.driver {
            if let Err(err) = pilots.take_over(pilots.index(), self.tracked.game(), self.game_seed) {
                self.end = Some(RecordedEnd::PluginError);
                self.error = Some(err.to_string());
            }
        }
        self.start_recording();
    }

    fn seek_pieces(&mut self, pieces: i32) {
        if let Driver::Replay(playback) = &self.driver {
            let target = playback.seek_pieces(self.stats().ticks, pieces);
            self.seek(target);
        }
    }

    fn seek(&mut self, tick: u64) {
        if let Driver::Replay(playback) = &self.driver {
            self.tracked = playback.at(tick);
            self.due = Duration::ZERO;
            self.rate = Rate::default();
            self.end = None;
            self.check_replay_end();
        }
    }

    /// In a replay, the game ends where the recorded ticks run out.
    fn check_replay_end(&mut self) {
        if let Driver::Replay(playback) = &self.driver {
            let game = self.tracked.game();
            if game.stats().ticks >= playback.len() {
                self.end = Some(match ended(game, self.session.setup.max_pieces) {
                    Some(end) => end.into(),
                    None => playback.replay().seat().result.end,
                });
            }
        }
    }

    fn start_recording(&mut self) {
        let Some(path) = &self.session.record else {
            return;
        };
        let player = match &self.driver {
            Driver::Demo(pilots) => PlayerRecord::plugin(pilots.current(), pilots.options(), 0),
            _ => PlayerRecord::human(0),
        };
        let recorder = Recorder::new(path.clone(), &self.session.setup, self.game_seed, player);
        self.recorder = Some(recorder);
    }

    /// Saves the game's replay, if recording and it holds ticks not yet saved.
    fn save_if_unsaved(&mut self) {
        let Some(recorder) = &mut self.recorder else {
            return;
        };
        match recorder.save(self.tracked.game().stats(), self.end) {
            Ok(None) => {}
            Ok(Some(path)) => self.status = Some(format!("replay saved to {}", path.display())),
            Err(err) => {
                self.status = Some(format!("cannot save the replay: {err}"));
                self.save_error = Some(err);
            }
        }
    }

    /// After the screen closes: the last failure to save a replay, if any.
    pub fn take_save_error(&mut self) -> Option<ReplayError> {
        self.save_error.take()
    }
}

mod switch;
mod view;

#[cfg(test)]
mod tests;
