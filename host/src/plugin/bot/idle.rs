//! Bot processes between games: the one started to read a bot's info, kept for the first
//! game (or the check of its options) instead of a second start, and TBP bots whose game
//! ended cleanly, kept for the next game (the protocol's `stop`, then a new `start`).

use super::messages::Answers;
use super::BotProcess;
use std::sync::{Arc, Mutex};

/// The idle processes of one plugin.
#[derive(Default)]
pub struct IdleBots {
    bots: Mutex<Vec<IdleBot>>,
}

/// A bot process waiting for a game.
pub struct IdleBot {
    /// The process, its info read.
    pub bot: BotProcess,
    /// What it answers (a bot of tetrad's protocol).
    pub answers: Option<Answers>,
    /// The `rules` message it answered `ready` to (a TBP bot); `None` if it was told none.
    pub rules: Option<String>,
}

impl IdleBots {
    /// Keeps `idle` for a later game.
    pub fn put(&self, idle: IdleBot) {
        self.bots.lock().unwrap_or_else(|p| p.into_inner()).push(idle);
    }

    /// A process that answered `ready` to `rules` if there is one, else one told no rules
    /// yet; one that has ended meanwhile is dropped.
    pub fn take(&self, rules: Option<&str>) -> Option<IdleBot> {
        let mut bots = self.bots.lock().unwrap_or_else(|p| p.into_inner());
        bots.retain_mut(|idle| !idle.bot.has_ended());
        let at = bots
            .iter()
            .position(|idle| rules.is_some() && idle.rules.as_deref() == rules)
            .or_else(|| bots.iter().position(|idle| idle.rules.is_none()))?;
        Some(bots.swap_remove(at))
    }

    /// Ends every idle process (each gets `quit`): none will be needed.
    pub fn clear(&self) {
        let idle = std::mem::take(&mut *self.bots.lock().unwrap_or_else(|p| p.into_inner()));
        drop(idle);
    }
}

/// A bot process lent to one game (a TBP bot's): back among its plugin's idle processes
/// when the game ends cleanly, ended with the game when it failed.
pub struct Lease {
    /// Held until the lease ends.
    bot: Option<BotProcess>,
    /// Where it goes back to, and the rules it accepted.
    home: Option<(Arc<IdleBots>, String)>,
    /// Whether it may play another game.
    reusable: bool,
}

impl Lease {
    /// `bot`, lent for a game under `rules` (the message it answered `ready` to); it goes
    /// back to `home` unless spoilt.
    pub fn new(bot: BotProcess, home: Option<Arc<IdleBots>>, rules: String) -> Lease {
        // A sandboxed bot's scratch folder and limits are one game's: it plays no other.
        let home = home.filter(|_| !bot.sandboxed());
        Lease {
            bot: Some(bot),
            home: home.map(|home| (home, rules)),
            reusable: true,
        }
    }

    /// The bot failed or broke the protocol: it ends with this game.
    pub fn spoil(&mut self) {
        self.reusable = false;
    }
}

impl std::ops::Deref for Lease {
    type Target = BotProcess;

    fn deref(&self) -> &BotProcess {
        self.bot.as_ref().expect("a lent bot is held until the lease ends")
    }
}

impl std::ops::DerefMut for Lease {
    fn deref_mut(&mut self) -> &mut BotProcess {
        self.bot.as_mut().expect("a lent bot is held until the lease ends")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let (true, Some((home, rules)), Some(bot)) = (self.reusable, self.home.take(), self.bot.take()) {
            home.put(IdleBot {
                bot,
                answers: None,
                rules: Some(rules),
            });
        }
    }
}
