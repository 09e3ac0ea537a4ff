//! The Tetris Bot Protocol (TBP), as a frontend speaks it: its messages ([`messages`]), its
//! piece locations converted to and from tetrad's positions ([`location`]), and a bot's
//! start. TBP bots play the `guideline` preset on its 10x40 board, the board the protocol
//! assumes; the game itself is played by the player flavour in `player/tbp.rs`.

pub mod location;
pub mod messages;

use super::bot::{BotProcess, Failure, HELLO_LIMIT};
use super::Manifest;
use messages::BotMessage;

/// Starts a TBP bot and reads its `info`: its name, version and author.
pub fn start(manifest: &Manifest) -> Result<(BotProcess, (String, String, String)), Failure> {
    let mut bot = BotProcess::spawn(manifest)?;
    let started = std::time::Instant::now();
    loop {
        // Messages tetrad ignores still count against the limit.
        let left = HELLO_LIMIT.saturating_sub(started.elapsed());
        match bot.receive_json::<BotMessage>(left, "its `info`")? {
            BotMessage::Info {
                name, version, author, ..
            } => return Ok((bot, (name, version, author))),
            BotMessage::Unknown => {}
            BotMessage::Ready => return Err(bot.unexpected_kind("ready", "its `info`")),
            BotMessage::Error { reason } => {
                return Err(bot.broke(&format!("error: {}", super::printable(reason))));
            }
            BotMessage::Suggestion { .. } => return Err(bot.unexpected_kind("suggestion", "its `info`")),
        }
    }
}
