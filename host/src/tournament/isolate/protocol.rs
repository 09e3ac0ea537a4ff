//! The messages between a tournament and its worker processes, one JSON object per line:
//! the parent asks for one game of one entrant; the worker answers that very request, and
//! says it is alive every [`HEARTBEAT`] meanwhile.

use crate::tournament::record::GameRecord;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How often a healthy worker says so.
pub const HEARTBEAT: Duration = Duration::from_millis(500);

/// The shortest limit on a plugin's `create` in a worker: the think limit, if longer.
pub const CREATE_LIMIT_FLOOR: Duration = Duration::from_secs(10);

/// The parent's request: play game `game` (whose seed is `seed`) for entrant `entrant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    /// The entrant's index in the tournament.
    pub entrant: usize,
    /// The game's index.
    pub game: u64,
    /// The game's seed, as the parent computed it.
    pub seed: u64,
}

/// A worker's message: a heartbeat, or the answer to a request.
#[derive(Debug, Serialize, Deserialize)]
pub struct Reply {
    /// The request this answers; none for a heartbeat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Request>,
    /// What happened.
    #[serde(flatten)]
    pub kind: ReplyKind,
}

/// What a worker says.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ReplyKind {
    /// Still working.
    Alive,
    /// The game, played out or forfeited inside the worker.
    Result {
        /// Its record.
        record: Box<GameRecord>,
    },
    /// The plugin refused to create an instance.
    CreateFailed {
        /// The plugin's message.
        message: String,
    },
    /// A `create` or an update outlasted its limit; the worker exits after saying so.
    Timeout {
        /// What ran too long.
        message: String,
    },
}

impl Reply {
    /// A heartbeat.
    pub fn alive() -> Reply {
        Reply {
            answers: None,
            kind: ReplyKind::Alive,
        }
    }

    /// The answer to `request`.
    pub fn answering(request: &Request, kind: ReplyKind) -> Reply {
        Reply {
            answers: Some(*request),
            kind,
        }
    }
}
