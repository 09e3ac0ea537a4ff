//! The pace of a versus game: what one round of the fixture loop is. Every seat plays its
//! part of a round in seat order, then the garbage each sent passes to the next seat; the
//! pace only says when a seat's part of the round is over. The game loop and replay checks
//! both ask it, so a game re-plays as it was played. Under `realtime` there are no rounds:
//! the seats' ticks are ordered by their times (see `realtime`).

use super::Game;
use serde::{Deserialize, Serialize};
use tetrad_plugin_api::{Preset, Rules};

/// What one round of a versus game is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Pace {
    /// One tick each: a seat that holds or moves spends a tick the other may use.
    #[default]
    Ticks,
    /// One piece each, however many ticks its path takes (a hold is part of the path).
    Pieces,
    /// No rounds: each seat's ticks happen at times of their own (its thinking, measured,
    /// and its path played at a set speed), and every seat's ticks are played in the
    /// order of their times.
    Realtime,
}

impl Pace {
    /// The default pace of versus games under `rules`: `pieces` under `guideline`, where
    /// games are played piece against piece, else `ticks`.
    pub fn for_rules(rules: &Rules) -> Pace {
        match rules.preset {
            Preset::Guideline => Pace::Pieces,
            _ => Pace::Ticks,
        }
    }

    /// Its name, as the command line and files write it.
    pub fn name(self) -> &'static str {
        match self {
            Pace::Ticks => "ticks",
            Pace::Pieces => "pieces",
            Pace::Realtime => "realtime",
        }
    }

    /// Whether a seat's part of the round is over after a tick of `game`, which had
    /// locked `pieces_before` pieces before the seat's part began: after any tick under
    /// `ticks`, after a lock (or the game's end) under `pieces`. (A realtime game has no
    /// rounds and never asks.)
    #[inline(always)]
    pub fn turn_over(self, pieces_before: u64, game: &Game) -> bool {
        match self {
            Pace::Ticks | Pace::Realtime => true,
            Pace::Pieces => game.stats().pieces != pieces_before || game.current().is_none(),
        }
    }

    /// Whether this is the default pace, which files leave out.
    pub fn is_ticks(&self) -> bool {
        *self == Pace::Ticks
    }
}

impl std::fmt::Display for Pace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Pace {
    type Err = String;

    fn from_str(text: &str) -> Result<Pace, String> {
        match text {
            "ticks" => Ok(Pace::Ticks),
            "pieces" => Ok(Pace::Pieces),
            "realtime" => Ok(Pace::Realtime),
            _ => Err(format!("`{text}` is not a pace: ticks, pieces or realtime")),
        }
    }
}
