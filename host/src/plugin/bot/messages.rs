//! The bot protocol's messages, version [`PROTOCOL_VERSION`]: one JSON object a line, each
//! with a `type`. Unknown fields are ignored both ways, so the protocol can grow. Each
//! message reads and writes both ways: the host sends [`HostMessage`]s and reads
//! [`BotMessage`]s, and a library served as a bot (isolated versus seats) does the reverse.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use tetrad_plugin_api::abi::{TetradState, MAX_QUEUE, NO_PIECE};
use tetrad_plugin_api::{PieceKind, PieceSet, Rules};

/// The bot protocol's version; a bot that speaks another is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// What tetrad sends.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMessage<'a> {
    /// The first message.
    Hello {
        /// The host's protocol version.
        protocol: u32,
    },
    /// A game begins.
    Start(Box<Start<'a>>),
    /// One clock tick, for a bot that answers ticks.
    Tick {
        /// One integer per row, row 0 at the top, bit x for column x.
        field: Cow<'a, [u32]>,
        /// The falling piece.
        current: Option<Falling>,
        /// The next piece's index, if the preview shows one.
        next: Option<u8>,
        /// The first tick of this piece.
        new_piece: bool,
        /// Hold, queue, combo and garbage.
        #[serde(flatten)]
        state: State,
    },
    /// A new piece, for a bot that answers placements.
    Piece {
        /// One integer per row, row 0 at the top, bit x for column x.
        field: Cow<'a, [u32]>,
        /// The falling piece.
        current: Option<Falling>,
        /// The next piece's index, if the preview shows one.
        next: Option<u8>,
        /// Always true: a piece is asked about when it is new to the bot.
        new_piece: bool,
        /// Hold, queue, combo and garbage.
        #[serde(flatten)]
        state: State,
    },
    /// The game is over; the bot should exit.
    Quit,
}

/// What a tick or a piece shows beyond the board and the two pieces, as the version 2
/// ABI's state has it. Every field may be missing from a message (a bot that answers
/// tetrad's own older messages, say): it then reads as nothing held and nothing pending.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Every previewed piece's index, the next one first.
    #[serde(default)]
    pub queue: Vec<u8>,
    /// The held piece's index, if one is held.
    #[serde(default)]
    pub hold: Option<u8>,
    /// Whether a hold now would act.
    #[serde(default)]
    pub hold_available: bool,
    /// Line-clearing locks in a row up to the last lock (0 when it cleared nothing).
    #[serde(default)]
    pub combo: u32,
    /// The last clear was a difficult one: another earns the back-to-back bonus.
    #[serde(default)]
    pub back_to_back: bool,
    /// Garbage rows that rise when this piece locks unless its clears cancel them.
    #[serde(default)]
    pub pending_garbage: u32,
}

impl State {
    /// The message form of a laid-out state.
    pub fn from_abi(state: &TetradState) -> State {
        let len = (state.queue_len as usize).min(MAX_QUEUE);
        State {
            queue: state.queue[..len].iter().map(|&kind| kind as u8).collect(),
            hold: u8::try_from(state.hold).ok(),
            hold_available: state.hold_available != 0,
            combo: state.combo,
            back_to_back: state.back_to_back != 0,
            pending_garbage: state.pending_garbage,
        }
    }

    /// The state laid out as the version 2 ABI has it (a queue longer than the ABI's
    /// room is cut).
    pub fn to_abi(&self) -> TetradState {
        let mut state = TetradState {
            hold: self.hold.map_or(NO_PIECE, i32::from),
            hold_available: u32::from(self.hold_available),
            combo: self.combo,
            back_to_back: u32::from(self.back_to_back),
            pending_garbage: self.pending_garbage,
            ..TetradState::EMPTY
        };
        for (slot, &piece) in state.queue.iter_mut().zip(&self.queue) {
            *slot = i32::from(piece);
            state.queue_len += 1;
        }
        state
    }
}

/// The game a bot is about to play, as the C ABI's game info has it.
#[derive(Debug, Serialize, Deserialize)]
pub struct Start<'a> {
    /// `classic`, `leiden` or `simplified`.
    pub preset: Cow<'a, str>,
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// Next pieces shown.
    pub preview: usize,
    /// Every piece, in index order.
    pub pieces: Vec<PieceInfo>,
    /// Seed for the bot's own randomness.
    pub seed: u64,
    /// The user's options, verbatim.
    pub options: Cow<'a, str>,
}

/// One piece of the set.
#[derive(Debug, Serialize, Deserialize)]
pub struct PieceInfo {
    /// Its name.
    pub name: String,
    /// Side of its rotation box.
    #[serde(rename = "box")]
    pub box_size: u8,
    /// The box's column and row when the piece appears.
    pub spawn: [i8; 2],
    /// Each orientation's cells as `[x, y]` in the box; `k + 1` is `k` turned clockwise.
    pub orientations: Vec<Vec<[i8; 2]>>,
}

/// The falling piece.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Falling {
    /// Its index in the piece set.
    pub piece: u8,
    /// Its orientation's index.
    pub orientation: u8,
    /// The box's column.
    pub x: i8,
    /// The box's row (row 0 at the top).
    pub y: i8,
}

impl<'a> Start<'a> {
    /// The start of a game under `rules` with `pieces`.
    pub fn new(rules: &Rules, pieces: &PieceSet, seed: u64, options: &'a str) -> Start<'a> {
        Start {
            preset: Cow::Borrowed(rules.preset.name()),
            width: rules.width,
            height: rules.height,
            preview: rules.preview,
            pieces: pieces
                .kinds()
                .iter()
                .map(|kind| {
                    let spawn = rules.spawn(kind);
                    PieceInfo {
                        name: kind.name().to_string(),
                        box_size: kind.box_size(),
                        spawn: [spawn.x, spawn.y],
                        orientations: kind
                            .orientations()
                            .iter()
                            .map(|o| o.cells().iter().map(|&(x, y)| [x, y]).collect())
                            .collect(),
                    }
                })
                .collect(),
            seed,
            options: Cow::Borrowed(options),
        }
    }

    /// The rules and the piece set of the game, as a bot rebuilds them: each piece with
    /// the orientations sent (so the guideline's four SRS states of I, S and Z stay four),
    /// the rules checked against the pieces.
    pub fn setup(&self) -> Result<(Rules, PieceSet), String> {
        let mut kinds = Vec::with_capacity(self.pieces.len());
        for piece in &self.pieces {
            if piece.orientations.is_empty()
                || piece.orientations.len() > 4
                || piece.orientations.iter().any(Vec::is_empty)
            {
                return Err(format!(
                    "piece `{}` has {} orientations",
                    piece.name,
                    piece.orientations.len()
                ));
            }
            let in_box =
                |&[x, y]: &[i8; 2]| (0..piece.box_size as i8).contains(&x) && (0..piece.box_size as i8).contains(&y);
            if !piece.orientations.iter().flatten().all(in_box) {
                return Err(format!("piece `{}` has cells outside its box", piece.name));
            }
            let orientations = piece
                .orientations
                .iter()
                .map(|cells| cells.iter().map(|&[x, y]| (x, y)).collect())
                .collect();
            kinds.push(PieceKind::from_orientations(
                piece.name.clone(),
                piece.box_size,
                orientations,
            ));
        }
        let pieces = PieceSet::new(kinds);
        let rules = Rules {
            preset: self.preset.parse().map_err(|e| format!("{e}"))?,
            width: self.width,
            height: self.height,
            preview: self.preview,
            ..Rules::default()
        };
        rules.validate(&pieces).map_err(|e| e.to_string())?;
        Ok((rules, pieces))
    }
}

/// What a bot says.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    /// Its answer to hello.
    Info(Info),
    /// Ready to play the game just started.
    Ready,
    /// Something went wrong; the message is shown verbatim.
    Error {
        /// The bot's words.
        message: String,
    },
    /// A tick's actions.
    Actions {
        /// The OR of the action bits.
        bits: u32,
    },
    /// Where the piece should lock.
    Placement {
        /// The orientation's index.
        orientation: u8,
        /// The box's column when the piece drops.
        column: i8,
        /// A slide after the drop under `classic`: -1, 0 or +1.
        #[serde(default)]
        slide: i8,
    },
}

impl BotMessage {
    /// The message's `type`, as sent.
    pub fn kind(&self) -> &'static str {
        match self {
            BotMessage::Info(_) => "info",
            BotMessage::Ready => "ready",
            BotMessage::Error { .. } => "error",
            BotMessage::Actions { .. } => "actions",
            BotMessage::Placement { .. } => "placement",
        }
    }
}

/// A bot's info.
#[derive(Debug, Serialize, Deserialize)]
pub struct Info {
    /// The protocol version it speaks.
    pub protocol: u32,
    /// Short name.
    pub name: String,
    /// Version.
    pub version: Option<String>,
    /// Author.
    pub author: Option<String>,
    /// One-line description.
    pub description: Option<String>,
    /// Which question it answers.
    pub answers: Answers,
}

/// The question a bot answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answers {
    /// Every tick, with action bits.
    Tick,
    /// Every piece, with a placement.
    Placement,
}

#[cfg(test)]
mod tests;
