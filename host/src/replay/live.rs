//! The record of a live game of a person against a bot ([`Live`]): the person's handling
//! and key events and the ticks they gave, the bot's timed ticks, and both results.

use super::{Outcome, PlayerRecord, RecordedEnd, Replay};
use crate::runner::Live;

impl Replay {
    /// The record of `live`, once it has ended or was stopped.
    pub fn of_live(live: &Live) -> Option<Replay> {
        let (end_us, ends) = live.end()?;
        let mut replay = Replay::new(live.setup(), live.seed());
        let bot = live.bot();
        let players = [
            PlayerRecord {
                handling: Some(live.handling().clone()),
                ..PlayerRecord::human(0)
            },
            PlayerRecord {
                from_tick: 0,
                name: bot.name.clone(),
                version: Some(bot.version.clone()),
                path: Some(bot.path.clone()),
                options: bot.options.clone(),
                handling: None,
            },
        ];
        let games = live.games();
        for (index, (seat, player)) in replay.seats.iter_mut().zip(players).enumerate() {
            let (ticks, times) = live.ticks()[index];
            seat.players.push(player);
            seat.actions = ticks.to_vec();
            seat.times_us = Some(times.to_vec());
            seat.end_us = Some(end_us);
            let end = ends[index].map_or(RecordedEnd::Unfinished, RecordedEnd::from);
            seat.result = Outcome::of_game(games[index], end);
        }
        replay.seats[0].keys = Some(live.keys().to_vec());
        Some(replay)
    }
}
