//! A person against a bot as the game is played: the referee of a versus game under
//! timing rules at the realtime pace, with a person in seat 1. The person's key presses
//! and releases come with their times and go through their handling; the bot is asked on
//! the game's clock, its thinking measured and placed on its timeline as the realtime
//! runner places it; every event of both games (ticks, keys, repeated shifts, rows that
//! fall, locks by delay, garbage) is played in the order of its time, as
//! `replay --verify` orders them. A face (the terminal, the browser) feeds it key events
//! and the time, and shows the games; it plays no rule itself.

use super::seat::Seat;
use super::GameResult;
use crate::engine::{Deliveries, Game, Pace};
use crate::handling::{Handling, Hands, KeyEvent};
use crate::player::{CreateError, Player};
use crate::plugin::Plugin;
use crate::referee::{ended, End, Ending};
use crate::setup::Setup;
use crate::watch::clock;
use std::collections::VecDeque;
use tetrad_plugin_api::Actions;

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

/// The person's seat.
struct Person {
    game: Game,
    hands: Hands,
    /// Key events received and not yet played, in the order of their times.
    pending: VecDeque<KeyEvent>,
    /// Key events played, for the record.
    keys: Vec<KeyEvent>,
    /// The ticks the key events gave, and their times.
    ticks: Vec<u32>,
    times_us: Vec<u64>,
}

/// The bot's decision in flight: when it takes effect, what it is, and the pieces locked
/// when it was asked for.
type Decided = (u64, Result<Actions, Ending>, u64);

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

/// The bot's seat and its place on its timeline.
struct Bot {
    seat: Seat<'static>,
    name: BotName,
    now_us: u64,
    last_lock_us: Option<u64>,
    next: Option<Decided>,
    ticks: Vec<u32>,
    times_us: Vec<u64>,
}

/// A live game of a person (seat 1) against a bot (seat 2).
pub struct Live {
    setup: Setup,
    seed: u64,
    person: Person,
    bot: Bot,
    deliveries: Deliveries,
    clock: quanta::Clock,
    /// Everything due by this time has been played.
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
        let person = Person {
            game: deal()?,
            hands: Hands::new(handling),
            pending: VecDeque::new(),
            keys: Vec::new(),
            ticks: Vec::new(),
            times_us: Vec::new(),
        };
        let bot = Bot {
            seat: Seat::new(deal()?, player, &setup, None),
            name: BotName {
                name: plugin.info().name.clone(),
                version: plugin.info().version.clone(),
                path: plugin.path().to_path_buf(),
                options: options.to_string(),
            },
            now_us: 0,
            last_lock_us: None,
            next: None,
            ticks: Vec::new(),
            times_us: Vec::new(),
        };
        Ok(Live {
            deliveries: Deliveries::new(2, &setup.garbage),
            setup,
            seed,
            person,
            bot,
            clock: clock().clone(),
            now_us: 0,
            end: None,
        })
    }

    /// A key pressed or released. An event stamped before a time already played is
    /// played at that time: the game does not go back.
    pub fn key(&mut self, mut event: KeyEvent) {
        let last = self.person.pending.back().map_or(self.now_us, |last| last.time_us);
        event.time_us = event.time_us.max(last).max(self.now_us);
        self.person.pending.push_back(event);
    }

    /// Plays everything due by `to_us`, in the order of its time; a decision of the bot
    /// due by then is asked for now.
    pub fn run_until(&mut self, to_us: u64) {
        while self.end.is_none() {
            let person = self.person_due();
            let bot = self.bot_due();
            let (seat, time, by_itself) = match person {
                Some((time, by_itself)) if time <= bot.0 => (0, time, by_itself),
                _ => (1, bot.0, bot.1),
            };
            if time > to_us {
                break;
            }
            match seat {
                0 => self.play_person(time, by_itself),
                _ => self.play_bot(time, by_itself),
            }
        }
        self.now_us = self.now_us.max(to_us);
    }

    /// The person stops the game at `at_us`: what came before is played, and at that
    /// moment only what their game brings by itself; both seats end unfinished.
    pub fn stop(&mut self, at_us: u64) {
        if self.end.is_some() {
            return;
        }
        self.run_until(at_us.saturating_sub(1));
        while self.end.is_none() {
            match self.person_due() {
                Some((time, true)) if time <= at_us => self.play_person(time, true),
                _ => break,
            }
        }
        if self.end.is_none() {
            self.end = Some((at_us.max(self.now_us), [None; 2]));
        }
    }

    /// When the person's seat next does something, and whether by itself.
    fn person_due(&self) -> Option<(u64, bool)> {
        let key = self.person.pending.front().map(|event| event.time_us);
        match self.person.hands.next_event_us(&self.person.game) {
            Some(at) if key.is_none_or(|key| at <= key) => Some((at, true)),
            _ => key.map(|key| (key, false)),
        }
    }

    /// When the bot's seat next does something (or is asked), and whether it is an event
    /// of its game's timing.
    fn bot_due(&self) -> (u64, bool) {
        let own = self.bot.next.as_ref().map_or(self.bot.now_us, |decided| decided.0);
        match self.bot.seat.game().next_event_us() {
            Some(at) if at <= own => (at, true),
            _ => (own, false),
        }
    }

    fn play_person(&mut self, time: u64, by_itself: bool) {
        let person = &mut self.person;
        self.deliveries.before_tick(0, &mut person.game, time);
        let played = if by_itself {
            person.hands.until(&mut person.game, time)
        } else {
            let event = person.pending.pop_front().expect("a key event is due");
            let played = person.hands.key(&mut person.game, &event);
            person.keys.push(event);
            played
        };
        for p in played {
            if let Some(actions) = p.actions {
                person.ticks.push(actions.0);
                person.times_us.push(p.time_us);
            }
        }
        let rows = person.game.take_outgoing();
        self.deliveries.deliver(1, self.bot.seat.game_mut(), rows, time);
        if let Some(end) = ended(&self.person.game, self.setup.max_pieces) {
            self.finish(0, Ending { end, error: None }, time);
        }
    }

    fn play_bot(&mut self, time: u64, timed: bool) {
        let bot = &mut self.bot;
        if timed {
            self.deliveries.before_tick(1, bot.seat.game_mut(), time);
            let (_, ending) = bot.seat.advance(time, None, None);
            let rows = bot.seat.game_mut().take_outgoing();
            self.deliveries.deliver(0, &mut self.person.game, rows, time);
            if let Some(ending) = ending {
                self.finish(1, ending, time);
            }
            return;
        }
        let Some((_, event, pieces)) = bot.next.take() else {
            let pieces = bot.seat.game().stats().pieces;
            let (decided, elapsed_ns) = bot.seat.next_actions(&self.clock, None);
            let think_us = elapsed_ns.div_ceil(1000);
            let speed = self.setup.speed;
            bot.next = Some(match decided {
                Ok(actions) => {
                    let locks = bot.seat.locks(actions);
                    let at = speed.tick_time(bot.now_us, think_us, locks, bot.last_lock_us);
                    (at, Ok(actions), pieces)
                }
                Err(ending) => (bot.now_us.saturating_add(think_us), Err(ending), pieces),
            });
            return;
        };
        let actions = match event {
            Err(ending) => return self.finish(1, ending, time),
            // Its piece locked by delay while it thought: asked again.
            Ok(_) if bot.seat.game().stats().pieces != pieces => {
                bot.now_us = time;
                return;
            }
            Ok(actions) => actions,
        };
        bot.seat.advance(time, None, None);
        self.deliveries.before_tick(1, bot.seat.game_mut(), time);
        let pieces = bot.seat.game().stats().pieces;
        let ending = bot.seat.play_tick(actions, None, None);
        bot.now_us = time;
        if bot.seat.game().stats().pieces != pieces {
            bot.last_lock_us = Some(time);
        }
        bot.ticks.push(actions.0);
        bot.times_us.push(time);
        let rows = bot.seat.game_mut().take_outgoing();
        self.deliveries.deliver(0, &mut self.person.game, rows, time);
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
        self.bot.seat.end(match index {
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
        Some([person, self.bot.seat.take_result(index, self.seed)])
    }

    /// The games: the person's, then the bot's.
    pub fn games(&self) -> [&Game; 2] {
        [&self.person.game, self.bot.seat.game()]
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
    /// next move or question): the latest time to call [`Live::run_until`] with.
    pub fn next_due_us(&self) -> Option<u64> {
        if self.end.is_some() {
            return None;
        }
        let person = self.person_due().map(|(time, _)| time);
        Some(person.map_or(self.bot_due().0, |time| time.min(self.bot_due().0)))
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
        &self.person.keys
    }

    /// Each seat's ticks as bits, and their times: the person's, then the bot's.
    pub fn ticks(&self) -> [(&[u32], &[u64]); 2] {
        [
            (&self.person.ticks, &self.person.times_us),
            (&self.bot.ticks, &self.bot.times_us),
        ]
    }

    /// Who the bot is.
    pub fn bot(&self) -> &BotName {
        &self.bot.name
    }
}
