//! The demo's plugins: every plugin loaded so far, the one playing now and its instance,
//! asked tick by tick through the same [`runner::ask`] as headless games.

use crate::engine::Game;
use crate::plugin::{Instance, Plugin};
use crate::runner::{self, RunError};

/// The loaded plugins, each with its options, and the instance that plays.
pub struct Pilots {
    plugins: Vec<(Plugin, String)>,
    current: usize,
    instance: Option<Instance>,
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
            instance: None,
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

    /// Hands `game` (whose seed is `game_seed`) to plugin `index` with a new instance.
    /// It is told that the falling piece is new. On failure the current plugin plays on.
    pub fn take_over(&mut self, index: usize, game: &Game, game_seed: u64) -> Result<(), RunError> {
        let (plugin, options) = &self.plugins[index];
        let instance = runner::create_instance(plugin, game.rules(), game.pieces(), game_seed, options)?;
        self.current = index;
        self.instance = Some(instance);
        self.fresh = true;
        self.updates = 0;
        self.total_ns = 0;
        self.violations = 0;
        Ok(())
    }

    /// The plugin's answer for this tick of `game`, for the referee to judge.
    pub fn ask(&mut self, game: &Game) -> runner::Answer {
        let Some(instance) = self.instance.as_mut() else {
            return runner::Answer {
                actions: Err("no plugin instance".to_string()),
                raw: 0,
                violation: false,
                elapsed_ns: 0,
            };
        };
        let answer = runner::ask(instance, game, self.fresh, None);
        self.fresh = false;
        self.updates += 1;
        self.total_ns += u128::from(answer.elapsed_ns);
        self.violations += u64::from(answer.violation);
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
