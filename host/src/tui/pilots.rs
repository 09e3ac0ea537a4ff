//! The screen's plugins: the roster of every plugin loaded so far, and at each board the
//! player of the one playing it, asked tick by tick and piloted as in headless games.

use crate::engine::Game;
use crate::player::{Answer, CreateError, Failure, FailureKind, Observation, Pilot, Player};
use crate::plugin::Plugin;
use crate::watch::clock;

/// Every plugin loaded on the screen, each with its options. Boards pick from it by index.
#[derive(Default)]
pub struct Roster(Vec<(Plugin, String)>);

impl Roster {
    /// The plugins with their options.
    pub fn new(plugins: Vec<(Plugin, String)>) -> Roster {
        Roster(plugins)
    }

    /// Plugin `index`.
    pub fn plugin(&self, index: usize) -> &Plugin {
        &self.0[index].0
    }

    /// The options of plugin `index`.
    pub fn options(&self, index: usize) -> &str {
        &self.0[index].1
    }

    /// How many plugins are loaded.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds a plugin with its options and returns its index.
    pub fn add(&mut self, plugin: Plugin, options: String) -> usize {
        self.0.push((plugin, options));
        self.0.len() - 1
    }
}

/// The plugin playing one board: its index in the roster, its player, and its timings.
pub struct PluginSeat {
    index: usize,
    player: Option<Player>,
    pilot: Pilot,
    fresh: bool,
    updates: u64,
    total_ns: u128,
    violations: u64,
}

impl PluginSeat {
    /// Plugin `index` of the roster, not playing yet.
    pub fn new(index: usize) -> PluginSeat {
        PluginSeat {
            index,
            player: None,
            pilot: Pilot::default(),
            fresh: false,
            updates: 0,
            total_ns: 0,
            violations: 0,
        }
    }

    /// The index in the roster of the plugin playing now (or about to).
    pub fn index(&self) -> usize {
        self.index
    }

    /// Hands `game` (whose seed is `game_seed`) to plugin `index` of `roster` with a new
    /// player. It is told that the falling piece is new. On failure the current plugin
    /// plays on.
    pub fn take_over(&mut self, roster: &Roster, index: usize, game: &Game, game_seed: u64) -> Result<(), CreateError> {
        let (plugin, options) = (roster.plugin(index), roster.options(index));
        let given = game.plays_given_pieces();
        let player = Player::create(plugin, game.rules(), game.pieces(), given, game_seed, options, None)?;
        *self = PluginSeat {
            player: Some(player),
            fresh: true,
            ..PluginSeat::new(index)
        };
        Ok(())
    }

    /// The plugin's answer for this tick of `game`, for the referee to judge.
    pub fn ask(&mut self, game: &Game) -> Answer {
        if let Some(flown) = self.pilot.next(game) {
            return flown;
        }
        let Some(player) = self.player.as_mut() else {
            return Answer {
                actions: Err(Box::new(Failure::new(FailureKind::Error, "no plugin instance"))),
                violation: None,
                elapsed_ns: 0,
            };
        };
        let reply = player.decide(&Observation::of(game, self.fresh), clock(), None);
        let answer = self.pilot.steer(reply, game, player.accepted_actions());
        self.fresh = false;
        self.updates += 1;
        self.total_ns += u128::from(answer.elapsed_ns);
        self.violations += u64::from(answer.violation.is_some());
        answer
    }

    /// Mean microseconds per `update` of the current instance.
    pub fn update_us(&self) -> Option<f64> {
        (self.updates > 0).then(|| self.total_ns as f64 / self.updates as f64 / 1000.0)
    }

    /// Protocol violations of the current instance.
    pub fn violations(&self) -> u64 {
        self.violations
    }
}
