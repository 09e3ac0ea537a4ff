//! The opponent a page may choose, and its setup: any bundled or installed bot, or the one
//! given on the command line; its speed (a pieces-per-second cap, or none); the garbage
//! rules (plain, or one of the `--garbage` sets). The server checks each choice before it
//! takes it (an unknown bot, a bad speed, a bot that will not start under the rules are
//! refused with a message the page shows), and the next game plays it.

use crate::engine::{GarbageRules, GarbageSet};
use crate::plugin::{bundled_plugins, Manifest, Plugin};
use crate::setup::Setup;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The fastest speed a page may ask for: far beyond any person, and a number.
pub const MAX_PPS: f64 = 1000.0;

/// What a page chooses, as it sends it (JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The bot, by the name the offer lists it under.
    pub bot: String,
    /// Most pieces a second the bot locks (`None`: no limit).
    pub pps: Option<f64>,
    /// The garbage set by name (`None`: plain garbage, no delay).
    pub garbage: Option<String>,
}

/// A choice checked: the bot loaded, its options, and the setup of its games.
pub struct Choice {
    /// The bot.
    pub bot: Plugin,
    /// Its options (the command line's, for the command line's bot; none for another).
    pub options: String,
    /// The setup of its games.
    pub setup: Setup,
    /// What was chosen.
    pub settings: Settings,
}

/// The bots a page may choose from, and what every choice starts from.
pub struct Offer {
    /// The command line's setup, before its speed and garbage set.
    base: Setup,
    /// The bots by name, and their files: the command line's first.
    bots: Vec<(String, PathBuf)>,
    /// The command line's options for its bot.
    options: String,
}

impl Offer {
    /// The offer around `base` (whose speed and garbage a choice replaces; `plain` is its
    /// garbage without a set): the command line's bot `first` (named, with its file and
    /// options), then every bundled or installed bot, each name once. Under `--sandbox`
    /// a library, which would play in this process where no sandbox reaches, is not
    /// offered (unless the command line named it, when it is refused as it is there).
    pub fn new(mut base: Setup, plain: GarbageRules, first: (String, PathBuf), options: String) -> Offer {
        base.garbage = plain;
        let confined = crate::sandbox::policy().is_some();
        let mut bots = vec![first];
        for found in bundled_plugins() {
            let offered = !confined || Manifest::is_manifest(&found.path);
            if offered
                && !bots
                    .iter()
                    .any(|(name, path)| *name == found.name || *path == found.path)
            {
                bots.push((found.name, found.path));
            }
        }
        Offer { base, bots, options }
    }

    /// The bots' names, the command line's first.
    pub fn names(&self) -> Vec<&str> {
        self.bots.iter().map(|(name, _)| name.as_str()).collect()
    }

    /// The garbage sets' names.
    pub fn garbage_sets() -> Vec<&'static str> {
        GarbageSet::ALL.iter().map(|set| set.name()).collect()
    }

    /// Checks `settings`: the bot offered, the speed a positive number, the garbage set
    /// known, and the bot able to start under the rules. The message says what is wrong.
    pub fn choose(&self, settings: &Settings) -> Result<Choice, String> {
        let Some(index) = self.bots.iter().position(|(name, _)| *name == settings.bot) else {
            return Err(format!(
                "no bot `{}` here: choose one of {}",
                crate::plugin::printable(settings.bot.clone()),
                self.names().join(", ")
            ));
        };
        if let Some(pps) = settings.pps {
            if !(pps.is_finite() && pps > 0.0 && pps <= MAX_PPS) {
                return Err(format!(
                    "speed {pps}: pieces a second above 0 and at most {MAX_PPS}, or none for no limit"
                ));
            }
        }
        let mut setup = self.base.clone();
        setup.speed.pps = settings.pps;
        if let Some(name) = &settings.garbage {
            let set: GarbageSet = name.parse().map_err(crate::plugin::printable)?;
            setup.garbage = set.rules();
        }
        let path = &self.bots[index].1;
        let bot = Plugin::load(path).map_err(|err| err.to_string())?;
        let options = if index == 0 {
            self.options.clone()
        } else {
            String::new()
        };
        crate::runner::probe(&bot, &setup, &options).map_err(|err| err.to_string())?;
        Ok(Choice {
            bot,
            options,
            setup,
            settings: settings.clone(),
        })
    }
}
