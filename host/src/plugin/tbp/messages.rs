//! The TBP messages: JSON objects with a `type`, one a line. Unknown message types and
//! unknown attributes are ignored both ways, as the specification asks. Covers the
//! specification's minimum (`rules`, `start`, `stop`, `suggest`, `play`, `new_piece`,
//! `quit`; `info`, `ready`, `error`, `suggestion`), its randomizer extension and its
//! `move_info` extension.

use serde::{Deserialize, Serialize};

/// What the frontend (tetrad) sends.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrontendMessage {
    /// The rules; the bot answers `ready` or `error`.
    Rules {
        /// The randomizer extension: `"seven_bag"`, `"uniform"` or `"unknown"`.
        #[serde(skip_serializing_if = "Option::is_none", default)]
        randomizer: Option<RandomizerKind>,
    },
    /// Start calculating from this position.
    Start(Box<Start>),
    /// Stop calculating.
    Stop,
    /// Suggest moves, most preferred first.
    Suggest,
    /// This move was played: advance and go on calculating.
    Play {
        /// The move.
        #[serde(rename = "move")]
        played: Move,
    },
    /// A piece joined the end of the queue.
    NewPiece {
        /// Its name.
        piece: String,
    },
    /// Exit.
    Quit,
}

/// A position to calculate from.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Start {
    /// The held piece, if any.
    pub hold: Option<String>,
    /// The pieces to come, the falling one first.
    pub queue: Vec<String>,
    /// Consecutive line clears so far.
    pub combo: u32,
    /// Back-to-back status.
    pub back_to_back: bool,
    /// 40 rows of 10 cells, the bottom row first: `null` for empty, else the letter of
    /// the piece that filled it or `"G"` for garbage.
    pub board: Vec<Vec<Option<String>>>,
    /// The randomizer extension: its state at the end of the queue.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub randomizer: Option<RandomizerState>,
}

/// The randomizer the rules use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RandomizerKind {
    /// Any piece at any time.
    Uniform,
    /// Seven-piece bags.
    SevenBag,
    /// None the extension names: the pieces come from a given sequence.
    Unknown,
}

/// The randomizer's state at the end of the queue.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RandomizerState {
    /// Nothing to tell.
    Uniform,
    /// The pieces left in the bag (never none: an empty bag is a full one).
    SevenBag {
        /// Their names.
        bag_state: Vec<String>,
    },
}

/// What a TBP bot says.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    /// Its description, sent first.
    Info {
        /// Its name.
        name: String,
        /// Its version.
        #[serde(default)]
        version: String,
        /// Its author.
        #[serde(default)]
        author: String,
        /// The extensions it supports.
        #[serde(default)]
        features: Vec<String>,
    },
    /// It can play these rules.
    Ready,
    /// It cannot play.
    Error {
        /// Why (`unsupported_rules`, say).
        #[serde(default)]
        reason: String,
    },
    /// Its moves, most preferred first.
    Suggestion {
        /// The moves.
        moves: Vec<Move>,
        /// The `move_info` extension: what the bot's search did, as it reports it (left
        /// out of a suggestion `tetrad tbp` writes without it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_info: Option<serde_json::Value>,
    },
    /// A message of a type this frontend does not know: ignored.
    #[serde(other)]
    Unknown,
}

/// The numbers of a `suggestion`'s `move_info` (its `extra` text is not kept). Each is
/// optional, as the extension says; one that is not a non-negative finite number is taken
/// as absent rather than as a broken message: the numbers are for information only.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveInfo {
    /// Nodes in the bot's game tree.
    pub nodes: Option<f64>,
    /// Nodes created per second.
    pub nps: Option<f64>,
    /// The depth of its game tree.
    pub depth: Option<f64>,
}

impl MoveInfo {
    /// The numbers in a `move_info` object; `None` when it holds none.
    pub fn read(value: &serde_json::Value) -> Option<MoveInfo> {
        let number = |key: &str| {
            value
                .get(key)
                .and_then(serde_json::Value::as_f64)
                .filter(|n| n.is_finite() && *n >= 0.0)
        };
        let info = MoveInfo {
            nodes: number("nodes"),
            nps: number("nps"),
            depth: number("depth"),
        };
        (info != MoveInfo::default()).then_some(info)
    }
}

/// A move: where the piece locks, and whether it spins into place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// Where the piece locks (a piece other than the falling one means a hold first).
    pub location: Location,
    /// The spin the move makes.
    #[serde(default)]
    pub spin: Spin,
}

/// A piece location: the piece, its orientation, and its centre (x from the left, y
/// from the bottom), as [`super::location`] defines it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// The piece's name.
    #[serde(rename = "type")]
    pub piece: String,
    /// The rotation state.
    pub orientation: Orientation,
    /// The centre's column.
    pub x: i32,
    /// The centre's row, the bottom row being 0.
    pub y: i32,
}

/// A rotation state: spawn is north, each clockwise turn the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// Spawn.
    North,
    /// One turn clockwise.
    East,
    /// Two turns.
    South,
    /// One turn counter-clockwise.
    West,
}

impl Orientation {
    /// All four, in clockwise order from spawn: index `k` is `k` clockwise turns.
    pub const ALL: [Orientation; 4] = [
        Orientation::North,
        Orientation::East,
        Orientation::South,
        Orientation::West,
    ];

    /// Clockwise turns from spawn.
    pub fn turns(self) -> u8 {
        self as u8
    }
}

/// Whether a move spins into place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spin {
    /// No spin.
    #[default]
    None,
    /// A mini spin.
    Mini,
    /// A full spin.
    Full,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frontend_messages_are_written_as_the_specification_spells_them() {
        let start = FrontendMessage::Start(Box::new(Start {
            hold: None,
            queue: vec!["T".into(), "I".into()],
            combo: 0,
            back_to_back: false,
            board: vec![vec![None, Some("G".into())]],
            randomizer: Some(RandomizerState::SevenBag {
                bag_state: vec!["S".into(), "Z".into()],
            }),
        }));
        assert_eq!(
            serde_json::to_string(&start).unwrap(),
            r#"{"type":"start","hold":null,"queue":["T","I"],"combo":0,"back_to_back":false,"board":[[null,"G"]],"randomizer":{"type":"seven_bag","bag_state":["S","Z"]}}"#
        );
        let rules = FrontendMessage::Rules {
            randomizer: Some(RandomizerKind::SevenBag),
        };
        assert_eq!(
            serde_json::to_string(&rules).unwrap(),
            r#"{"type":"rules","randomizer":"seven_bag"}"#
        );
        assert_eq!(
            serde_json::to_string(&FrontendMessage::NewPiece { piece: "O".into() }).unwrap(),
            r#"{"type":"new_piece","piece":"O"}"#
        );
        for (message, text) in [
            (FrontendMessage::Suggest, r#"{"type":"suggest"}"#),
            (FrontendMessage::Stop, r#"{"type":"stop"}"#),
            (FrontendMessage::Quit, r#"{"type":"quit"}"#),
        ] {
            assert_eq!(serde_json::to_string(&message).unwrap(), text);
        }
        let played = FrontendMessage::Play {
            played: Move {
                location: Location {
                    piece: "T".into(),
                    orientation: Orientation::South,
                    x: 4,
                    y: 1,
                },
                spin: Spin::Full,
            },
        };
        assert_eq!(
            serde_json::to_string(&played).unwrap(),
            r#"{"type":"play","move":{"location":{"type":"T","orientation":"south","x":4,"y":1},"spin":"full"}}"#
        );
    }

    #[test]
    fn bot_messages_are_read_and_what_is_unknown_is_ignored() {
        let suggestion: BotMessage = serde_json::from_str(
            r#"{"type":"suggestion","moves":[{"location":{"type":"I","orientation":"east","x":9,"y":1},"spin":"none","extra":1}],"move_info":{"nodes":5}}"#,
        )
        .unwrap();
        let BotMessage::Suggestion { moves, move_info } = suggestion else {
            panic!("a suggestion")
        };
        assert_eq!(
            move_info.as_ref().and_then(MoveInfo::read),
            Some(MoveInfo {
                nodes: Some(5.0),
                ..MoveInfo::default()
            })
        );
        assert_eq!(
            moves,
            [Move {
                location: Location {
                    piece: "I".into(),
                    orientation: Orientation::East,
                    x: 9,
                    y: 1
                },
                spin: Spin::None
            }]
        );
        let info: BotMessage =
            serde_json::from_str(r#"{"type":"info","name":"Cold Clear 2","version":"x","author":"y","features":[]}"#)
                .unwrap();
        assert!(matches!(info, BotMessage::Info { name, .. } if name == "Cold Clear 2"));
        assert_eq!(
            serde_json::from_str::<BotMessage>(r#"{"type":"thinking","depth":3}"#).unwrap(),
            BotMessage::Unknown
        );
        assert_eq!(
            serde_json::from_str::<BotMessage>(r#"{"type":"error","reason":"unsupported_rules"}"#).unwrap(),
            BotMessage::Error {
                reason: "unsupported_rules".into()
            }
        );
        assert!(serde_json::from_str::<BotMessage>(r#"{"type":"suggestion"}"#).is_err());
    }

    #[test]
    fn move_info_numbers_are_read_and_anything_else_in_it_is_left_out() {
        let read = |text: &str| MoveInfo::read(&serde_json::from_str(text).unwrap());
        assert_eq!(
            read(r#"{"nodes":1312451,"nps":568375.5,"depth":8,"extra":"found pc in 3 moves"}"#),
            Some(MoveInfo {
                nodes: Some(1312451.0),
                nps: Some(568375.5),
                depth: Some(8.0)
            })
        );
        assert_eq!(
            read(r#"{"nodes":"many","depth":-1,"nps":null}"#),
            None,
            "no number to keep"
        );
        assert_eq!(read(r#"{"extra":"thinking"}"#), None);
        assert_eq!(read("[1, 2]"), None);
        let plain: BotMessage = serde_json::from_str(r#"{"type":"suggestion","moves":[]}"#).unwrap();
        assert_eq!(
            plain,
            BotMessage::Suggestion {
                moves: vec![],
                move_info: None
            }
        );
    }

    #[test]
    fn the_randomizer_extension_is_spelt_as_it_says() {
        let text = |m: &FrontendMessage| serde_json::to_string(m).unwrap();
        assert_eq!(
            text(&FrontendMessage::Rules {
                randomizer: Some(RandomizerKind::Unknown)
            }),
            r#"{"type":"rules","randomizer":"unknown"}"#
        );
        assert_eq!(
            text(&FrontendMessage::Rules {
                randomizer: Some(RandomizerKind::Uniform)
            }),
            r#"{"type":"rules","randomizer":"uniform"}"#
        );
        assert_eq!(
            serde_json::to_string(&RandomizerState::Uniform).unwrap(),
            r#"{"type":"uniform"}"#
        );
    }
}
