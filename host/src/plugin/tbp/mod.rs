//! The Tetris Bot Protocol (TBP), as a frontend speaks it: its messages ([`messages`]), its
//! piece locations converted to and from tetrad's positions ([`location`]), and a bot's
//! start. TBP bots play the `guideline` preset on its 10x40 board, the board the protocol
//! assumes; the game itself is played by the player flavour in `player/tbp.rs`.

pub mod location;
pub mod messages;

use super::bot::{BotProcess, Failure, HELLO_LIMIT};
use super::Manifest;
use messages::BotMessage;

/// What a TBP bot's `info` says of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotInfo {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Its author.
    pub author: String,
    /// The protocol's features it lists as supported (none, for many bots).
    pub features: Vec<String>,
}

/// Starts a TBP bot and reads its `info`.
pub fn start(manifest: &Manifest) -> Result<(BotProcess, BotInfo), Failure> {
    let mut bot = BotProcess::spawn(manifest)?;
    let started = std::time::Instant::now();
    loop {
        // Messages tetrad ignores still count against the limit.
        let left = HELLO_LIMIT.saturating_sub(started.elapsed());
        match bot.receive_json::<BotMessage>(left, "its `info`")? {
            BotMessage::Info {
                name,
                version,
                author,
                features,
            } => {
                let info = BotInfo {
                    name,
                    version,
                    author,
                    features,
                };
                return Ok((bot, info));
            }
            BotMessage::Unknown => {}
            BotMessage::Ready => return Err(bot.unexpected_kind("ready", "its `info`")),
            BotMessage::Error { reason } => {
                return Err(bot.broke(&format!("error: {}", super::printable(reason))));
            }
            BotMessage::Suggestion { .. } => return Err(bot.unexpected_kind("suggestion", "its `info`")),
        }
    }
}
