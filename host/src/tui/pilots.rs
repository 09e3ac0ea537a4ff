//! The demo's plugins: every plugin loaded so far, and the player of the one playing now,
//! asked tick by tick and piloted as in headless games.

use crate::engine::Game;
use crate::player::{Answer, CreateError, Failure, FailureKind, Observation, Pilot, Player};
use crate::plugin::Plugin;
use crate::watch::clock;

/// The loaded plugins, each with its options, and the player that plays.
pub struct Pilots {
    plugins: Vec<(Plugin, String)>,
    current: usize,
    player: Option<Player>,
    pilot: Pilot,
    fresh: bool,
    updates: u64,
    total_ns: u128,
    violations: u64,
}

impl Pilots {
    /// The plugins with their options, none playing yet.
    pub fn new(plugins: Vec<(Plugin, String)>) -> Pilots {
        Pilots {
            plugins,
            current: 0,
            player: None,
            pilot: Pilot::default(),
            fresh: false,
            updates: 0,
            total_ns: 0,
            violations: 0,
        }
    }

    /// The plugin playing now (or about to).
    pub fn current(&self) -> &Plugin {
        &self.plugins[self.current].0
    }

    /// Its index among [`Pilots::count`] plugins.
    pub fn index(&self) -> usize {
        self.current
    }

    /// How many plugins are loaded.
    pub fn count(&self) -> usize {
        self.plugins.len()
    }

    /// The options of the plugin playing now.
    pub fn options(&self) -> &str {
        &self.plugins[self.current].1
    }

    /// Adds a plugin with its options and returns its index.
    pub fn add(&mut self, plugin: Plugin, options: String) -> usize {
        self.plugins.push((plugin, options));
        self.plugins.len() - 1
    }

    /// Hands `game` (whose seed is `game_seed`) to plugin `index` with a new player.
    /// It is told that the falling piece is new. On failure the current plugin plays on.
    pub fn take_over(&mut self, index: usize, game: &Game, game_seed: u64) -> Result<(), CreateError> {
        let (plugin, options) = &self.plugins[index];
        let player = Player::create(plugin, game.rules(), game.pieces(), game_seed, options, None)?;
        self.current = index;
        self.player = Some(player);
        self.pilot = Pilot::default();
        self.fresh = true;
        self.updates = 0;
        self.total_ns = 0;
        self.violations = 0;
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
        let answer = self.pilot.steer(reply, game);
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
