//! A person against a bot as the game is played: the referee of a versus game under
//! timing rules at the realtime pace, with a person in seat 1. The person's key presses
//! and releases come with their times and go through their handling; the bot is asked on
//! its own thread, its thinking measured and placed on its timeline as the realtime
//! runner places it; every event of both games (ticks, keys, repeated shifts, rows that
//! fall, locks by delay, garbage) is played in the order of its time, as
//! `replay --verify` orders them. A face (the terminal, the browser) feeds it key events
//! and the time, and shows the games; it plays no rule itself.
//!
//! While the bot thinks, its next move and its time are unknown, and so is the garbage it
//! may send: the seats are played in time order only up to the moment it was asked. The
//! person's events after it are played at once on a copy of their seat, which is what
//! the face shows. When the bot's garbage reaches the person, the copy is dropped and
//! played again from the seat, which is the record (it differs only where the copy had
//! passed the garbage's time).

mod bot;
mod person;
mod rates;
mod thinker;

pub use rates::Rates;

use super::seat::Seat;
use super::GameResult;
use crate::engine::{Deliveries, Game, Pace};
use crate::handling::{Handling, KeyEvent};
use crate::player::{CreateError, Player};
use crate::plugin::Plugin;
use crate::referee::{ended, End, Ending};
use crate::setup::Setup;
use bot::{Bot, Played, Step};
use person::Person;

/// Why a live game cannot start.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The setup is not a versus game under timing rules at the realtime pace.
    #[error("a person plays a bot live in versus (an attack table) under timing rules at the realtime pace")]
    Setup,
    /// The bot could not be created.
    #[error(transparent)]
    Create(#[from] CreateError),
}

/// While a face without a waker waits for the bot's answer, it looks this often.
const ANSWER_POLL_US: u64 = 1_000;

/// Who the bot is, for the record.
#[derive(Clone, Debug)]
pub struct BotName {
    /// The plugin's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its file.
    pub path: std::path::PathBuf,
    /// Its options.
    pub options: String,
}

/// A live game of a person (seat 1) against a bot (seat 2).
pub struct Live {
    setup: Setup,
    seed: u64,
    /// The person, played only as far as the bot's moves are known: the record.
    person: Person,
    /// The person played on past that while the bot thinks: what the face shows.
    ahead: Option<Person>,
    bot: Bot,
    /// Everything due by this time has been played, or played ahead.
    now_us: u64,
    /// When the game ended, and how for each seat (`None`: stopped unfinished).
    end: Option<(u64, [Option<End>; 2])>,
}

impl Live {
    /// A game with seed `seed` under `setup` of a person with `handling` against `bot`
    /// with its options; its time 0 is now.
    pub fn new(setup: Setup, seed: u64, handling: Handling, bot: (&Plugin, &str)) -> Result<Live, LiveError> {
        let (Some(attack), Some(timing)) = (&setup.attack, setup.timing) else {
            return Err(LiveError::Setup);
        };
        if setup.pace != Pace::Realtime {
            return Err(LiveError::Setup);
        }
        let garbage = Deliveries::engine_rules(&setup.garbage);
        let deal = || -> Result<Game, LiveError> {
            let mut game = Game::new(setup.rules, setup.pieces.clone(), seed);
            game.enable_garbage_with(attack.clone(), garbage, seed);
            game.enable_timing(timing).map_err(|_| LiveError::Setup)?;
            Ok(game)
        };
        let (plugin, options) = bot;
        let think_limit = setup.limits.think_limit_ns;
        let player = Player::create(plugin, &setup.rules, &setup.pieces, false, seed, options, think_limit)?;
        let name = BotName {
            name: plugin.info().name.clone(),
            version: plugin.info().version.clone(),
            path: plugin.path().to_path_buf(),
            options: options.to_string(),
        };
        let seat = Seat::new(deal()?, player, &setup, None);
        let bot = Bot::new(seat, name, setup.speed, Deliveries::new(2, &setup.garbage));
        Ok(Live {
            person: Person::new(deal()?, handling, &setup.garbage),
            ahead: None,
            setup,
            seed,
            bot,
            now_us: 0,
            end: None,
        })
    }

    /// Calls `waker` (on another thread) whenever the bot's answer is ready: a face that
    /// then calls [`Live::run_until`] plays it at once, rather than at its next look.
    pub fn set_waker(&mut self, waker: impl Fn() + Send + 'static) {
        self.bot.thinker().set_waker(Box::new(waker));
    }

    /// A key pressed or released. An event stamped before a time already played is
    /// played at that time: the game does not go back.
    pub fn key(&mut self, mut event: KeyEvent) {
        let last = self.person.pending.back().map_or(self.now_us, |last| last.time_us);
        event.time_us = event.time_us.max(last).max(self.now_us);
        if let Some(ahead) = &mut self.ahead {
            ahead.pending.push_back(event.clone());
        }
        self.person.pending.push_back(event);
    }

    /// Plays everything due by `to_us`, in the order of its time. A bot due to be asked
    /// is asked on its thread; while it thinks, the person's events are played ahead.
    /// Never waits for the bot.
    pub fn run_until(&mut self, to_us: u64) {
        let thinking = self.play_until(to_us);
        if self.end.is_some() || !thinking {
            self.ahead = None;
        } else {
            self.play_ahead(to_us);
        }
        self.bot.show_until(to_us);
        self.now_us = self.now_us.max(to_us);
    }

    /// As [`Live::run_until`], waiting for the bot's every answer due by `to_us`: both
    /// games played to that time, as the record has them. For a game played without a
    /// wall clock (a test, or a face with no one at the keys).
    pub fn settle_until(&mut self, to_us: u64) {
        while self.play_until(to_us) {
            self.bot.wait();
        }
        self.ahead = None;
        self.now_us = self.now_us.max(to_us);
    }

    /// Plays both seats in time order up to `to_us`, or until the bot's thinking leaves
    /// the rest unknown; returns whether it does.
    fn play_until(&mut self, to_us: u64) -> bool {
        while self.end.is_none() {
            self.bot.collect();
            let (bot_us, step) = self.bot.due();
            match self.person.due() {
                Some((time, by_itself)) if time <= bot_us && time <= to_us => {
                    self.play_person(time, by_itself);
                    continue;
                }
                _ => {}
            }
            if step == Step::Thinking {
                return true;
            }
            if bot_us > to_us {
                break;
            }
            let played = match step {
                Step::Timed => self.bot.play_timed(bot_us),
                Step::Decided => self.bot.play_decided(bot_us),
                _ => {
                    self.bot.ask();
                    continue;
                }
            };
            self.bot_played(played, bot_us);
        }
        false
    }

    /// Plays the person's events up to `to_us` on the copy shown while the bot thinks.
    fn play_ahead(&mut self, to_us: u64) {
        let ahead = self.ahead.get_or_insert_with(|| self.person.ahead());
        while ended(&ahead.game, self.setup.max_pieces).is_none() {
            match ahead.due() {
                // What it sends is sent again when the seat itself plays it.
                Some((time, by_itself)) if time <= to_us => drop(ahead.play(time, by_itself)),
                _ => break,
            }
        }
    }

    /// The person stops the game at `at_us`: what came before is played (the bot's
    /// answer awaited if it is thinking), and at that moment only what their game brings
    /// by itself; both seats end unfinished.
    pub fn stop(&mut self, at_us: u64) {
        if self.end.is_some() {
            return;
        }
        self.settle_until(at_us.saturating_sub(1));
        while self.end.is_none() {
            match self.person.due() {
                Some((time, true)) if time <= at_us => self.play_person(time, true),
                _ => break,
            }
        }
        if self.end.is_none() {
            self.end = Some((at_us.max(self.now_us), [None; 2]));
        }
    }

    fn play_person(&mut self, time: u64, by_itself: bool) {
        let rows = self.person.play(time, by_itself);
        self.bot.receive(rows, time);
        if let Some(end) = ended(&self.person.game, self.setup.max_pieces) {
            self.finish(0, Ending { end, error: None }, time);
        }
    }

    /// What the bot's event at `time` did: its garbage reaches the person (a copy of
    /// their seat played ahead past it is played again), and its end ends the game.
    fn bot_played(&mut self, (rows, ending): Played, time: u64) {
        if rows > 0 {
            self.person.receive(rows, time);
            self.ahead = None;
        }
        if let Some(ending) = ending {
            self.finish(1, ending, time);
        }
    }

    /// Seat `index` ended as `ending` at `time`, and the other with it.
    fn finish(&mut self, index: usize, ending: Ending, time: u64) {
        let other = if ending.end.is_loss() { End::Won } else { End::Capped };
        let mut ends = [Some(other); 2];
        ends[index] = Some(ending.end);
        self.end = Some((time, ends));
        self.bot.seat().end(match index {
            1 => ending,
            _ => Ending {
                end: other,
                error: None,
            },
        });
    }

    /// Each seat's result, the person's then the bot's, as game `index` of a results file,
    /// once the game has ended by the rules (a game stopped unfinished has none). Called
    /// once: the bot's update times are taken.
    pub fn results(&mut self, index: u64) -> Option<[GameResult; 2]> {
        let (_, [Some(person_end), Some(_)]) = self.end? else {
            return None;
        };
        let game = &self.person.game;
        let stats = game.stats();
        let (sent, received) = game.garbage().map_or((0, 0), |g| (g.sent, g.received));
        let person = GameResult {
            lines: stats.lines,
            pieces: stats.pieces,
            score: stats.score,
            ticks: stats.ticks,
            sent,
            received,
            t_spins: stats.t_spins,
            ..GameResult::unplayed(index, self.seed, person_end)
        };
        let seed = self.seed;
        Some([person, self.bot.seat().take_result(index, seed)])
    }

    /// The games as they are shown: the person's (played ahead while the bot thinks),
    /// then the bot's (while it thinks, as it was asked, its piece falling by the timing
    /// rules).
    pub fn games(&self) -> [&Game; 2] {
        [&self.ahead.as_ref().unwrap_or(&self.person).game, self.bot.game()]
    }

    /// The person's hands as shown (played ahead with their game while the bot thinks).
    pub fn hands(&self) -> &crate::handling::Hands {
        &self.ahead.as_ref().unwrap_or(&self.person).hands
    }

    /// When the game ended and how for each seat (`None`: stopped unfinished), once it
    /// has.
    pub fn end(&self) -> Option<(u64, [Option<End>; 2])> {
        self.end
    }

    /// The time played to, in microseconds from the game's start.
    pub fn now_us(&self) -> u64 {
        self.now_us
    }

    /// When something next happens by itself (a repeated shift, a row, a lock, the bot's
    /// next move or question): the latest time to call [`Live::run_until`] with. While
    /// the bot thinks, its answer comes at no known time: with a waker set (see
    /// [`Live::set_waker`]) the face is woken for it, else it looks every millisecond.
    pub fn next_due_us(&self) -> Option<u64> {
        if self.end.is_some() {
            return None;
        }
        let person = self.ahead.as_ref().unwrap_or(&self.person).due().map(|(time, _)| time);
        let bot = match self.bot.shown_due() {
            None => Some(self.bot.due().0),
            Some(shown) => {
                let poll = (!self.bot.thinker().has_waker()).then_some(self.now_us + ANSWER_POLL_US);
                [shown, poll].into_iter().flatten().min()
            }
        };
        match (person, bot) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (one, other) => Some(one.or(other).unwrap_or(self.now_us + 100 * ANSWER_POLL_US)),
        }
    }

    /// The setup.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The game's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The person's handling.
    pub fn handling(&self) -> &Handling {
        self.person.hands.handling()
    }

    /// The key events played.
    pub fn keys(&self) -> &[KeyEvent] {
        &self.person.record().keys
    }

    /// Each seat's ticks as bits, and their times: the person's, then the bot's.
    pub fn ticks(&self) -> [(&[u32], &[u64]); 2] {
        [
            (&self.person.record().ticks, &self.person.record().times_us),
            (&self.bot.ticks, &self.bot.times_us),
        ]
    }

    /// Who the bot is.
    pub fn bot(&self) -> &BotName {
        &self.bot.name
    }
}
