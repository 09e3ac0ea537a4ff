//! What a player hands the referee at a tick: its answer (the actions, or its failure), the
//! protocol violation the answer broke, and the placement a violation may name; and what it
//! may spend under a clock. The players themselves live with the host; these are the terms
//! the referee judges them in.

use tetrad_plugin_api::Actions;

/// Where a player wants the falling piece to lock: in `orientation`, dropped at column
/// `column` (the piece's x when it falls), then slid one column (`slide`: -1 left, +1
/// right, 0 none; `classic` only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The orientation's index in the piece's orientation list.
    pub orientation: u8,
    /// The piece's x when it falls.
    pub column: i8,
    /// The slide after the drop.
    pub slide: i8,
}

/// How a player failed a game: the referee turns the kind into the game's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What kind of failure.
    pub kind: FailureKind,
    /// What happened, for the report.
    pub message: String,
}

/// The kinds of a player's failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The player reported an error, or broke the protocol's form.
    Error,
    /// No answer within the limit.
    Timeout,
    /// The player's process ended.
    Crashed,
    /// The sandbox ended the player's process.
    Sandbox,
}

impl Failure {
    /// A failure of `kind` described by `message`.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }
}

/// What a player may spend on its next decision, under a time control (the referee keeps
/// the clock it comes from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time the decision may take before the clock falls below zero.
    pub limit: std::time::Duration,
    /// The share of the clock the time control gives the piece (at most `limit`): a TBP
    /// bot is asked for its move when it is nearly over.
    pub share: std::time::Duration,
}

/// A decision that breaks the protocol, and is not applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// Action bits that no tick can apply: both shifts, both turns, or unknown bits.
    Bits(u32),
    /// A placement that no path reaches from where the piece is.
    Unreachable(Target),
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Violation::Bits(bits) => write!(f, "update returned {:?}", Actions(*bits)),
            Violation::Unreachable(target) => write!(
                f,
                "placement orientation {} column {} slide {} is unreachable",
                target.orientation, target.column, target.slide
            ),
        }
    }
}

/// What the referee judges at a tick: the actions to apply (none after a violation), or
/// the player's failure, with the violation if there was one and the thinking time.
#[derive(Debug)]
pub struct Answer {
    /// The actions to apply, or the player's failure.
    pub actions: Result<Actions, Box<Failure>>,
    /// The decision broke the protocol (and `actions` is none).
    pub violation: Option<Violation>,
    /// Time spent deciding, in nanoseconds (0 for a tick the pilot flew alone).
    pub elapsed_ns: u64,
}
