//! Piece sequences given in a file (`--sequence`), played instead of seeded ones: one game
//! per line, piece names separated by whitespace; game `i` plays line `i`.

use crate::input::{self, InputError, MIB};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tetrad_plugin_api::{PieceId, PieceSet};

/// Largest sequence file: tens of millions of pieces.
pub const SEQUENCE_CAP: u64 = 256 * MIB;

/// A sequence file that cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum SequenceError {
    /// Unreadable, too large, or not text.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A token that names no piece of the set.
    #[error("{path}:{line}: `{token}` is not a piece of the set ({names})")]
    UnknownPiece {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The token.
        token: String,
        /// The set's names, comma-separated.
        names: String,
    },
    /// A line with no piece on it.
    #[error("{path}:{line}: no pieces (each line is one game's pieces)")]
    EmptyLine {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
    },
    /// A file with no line.
    #[error("{path}: no games (each line is one game's pieces)")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// More games asked for than the file has lines.
    #[error("{path}: --games {games}, but the file has {}", plural_lines(*lines))]
    TooFewLines {
        /// The file.
        path: PathBuf,
        /// Its lines.
        lines: u64,
        /// Games asked for.
        games: u64,
    },
    /// More lines than games a run may play, with no `--games` to choose some.
    #[error("{path}: {lines} lines, more than {max} games (choose some with --games)")]
    TooManyLines {
        /// The file.
        path: PathBuf,
        /// Its lines.
        lines: u64,
        /// Most games of a run.
        max: u64,
    },
    /// The file's games differ from those the run was started with.
    #[error("{path}: changed since the tournament read it")]
    Changed {
        /// The file.
        path: PathBuf,
    },
}

fn plural_lines(lines: u64) -> String {
    if lines == 1 {
        "1 line".to_string()
    } else {
        format!("{lines} lines")
    }
}

/// The games of a sequence file, each a list of pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequences {
    path: PathBuf,
    games: Vec<Arc<[PieceId]>>,
    digest: u64,
}

impl Sequences {
    /// Reads `path` (at most [`SEQUENCE_CAP`] bytes), naming pieces of `pieces`.
    pub fn load(path: &Path, pieces: &PieceSet) -> Result<Sequences, SequenceError> {
        let text = input::read_text(path, SEQUENCE_CAP)?;
        Sequences::parse(path, &text, pieces)
    }

    /// The games `text` (read from `path`) gives, in pieces of `pieces`.
    pub fn parse(path: &Path, text: &str, pieces: &PieceSet) -> Result<Sequences, SequenceError> {
        let ids: HashMap<&str, PieceId> = pieces
            .kinds()
            .iter()
            .enumerate()
            .map(|(index, kind)| (kind.name(), PieceId(index as u8)))
            .collect();
        let mut games = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let game = line
                .split_whitespace()
                .map(|token| {
                    ids.get(token).copied().ok_or_else(|| SequenceError::UnknownPiece {
                        path: path.to_path_buf(),
                        line: index + 1,
                        token: token.to_string(),
                        names: pieces.kinds().iter().map(|k| k.name()).collect::<Vec<_>>().join(", "),
                    })
                })
                .collect::<Result<Vec<PieceId>, SequenceError>>()?;
            if game.is_empty() {
                return Err(SequenceError::EmptyLine {
                    path: path.to_path_buf(),
                    line: index + 1,
                });
            }
            games.push(Arc::from(game));
        }
        if games.is_empty() {
            return Err(SequenceError::Empty {
                path: path.to_path_buf(),
            });
        }
        Ok(Sequences {
            path: path.to_path_buf(),
            digest: fnv1a(&games),
            games,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Its lines: one game each.
    pub fn len(&self) -> u64 {
        self.games.len() as u64
    }

    /// Always false: a file without games is refused.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The pieces of game `index`; none past the last line.
    pub fn game(&self, index: u64) -> Arc<[PieceId]> {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.games.get(i))
            .cloned()
            .unwrap_or_else(|| Arc::from(Vec::new()))
    }

    /// A 64-bit FNV-1a digest of every game's pieces (as indices, each game ended by a
    /// byte no index takes): two files with the same games have the same digest.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// The games of a run: `requested` (`--games`), or one per line; never more than
    /// the lines, nor than `max`.
    pub fn games(&self, requested: Option<u64>, max: u64) -> Result<u64, SequenceError> {
        let lines = self.len();
        match requested {
            Some(games) if games > lines => Err(SequenceError::TooFewLines {
                path: self.path.clone(),
                lines,
                games,
            }),
            Some(games) => Ok(games),
            None if lines > max => Err(SequenceError::TooManyLines {
                path: self.path.clone(),
                lines,
                max,
            }),
            None => Ok(lines),
        }
    }
}

fn fnv1a(games: &[Arc<[PieceId]>]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |byte: u8| hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    for game in games {
        game.iter().for_each(|piece| add(piece.0));
        add(u8::MAX);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Sequences, SequenceError> {
        Sequences::parse(Path::new("games.txt"), text, &PieceSet::tetrominoes())
    }

    #[test]
    fn one_game_per_line_in_piece_names() {
        let sequences = parse("I O T\n  S\tZ  J L \n").unwrap();
        assert_eq!(sequences.len(), 2);
        let ids = |game: u64| sequences.game(game).iter().map(|p| p.0).collect::<Vec<_>>();
        assert_eq!(ids(0), vec![0, 1, 2]);
        assert_eq!(ids(1), vec![3, 4, 5, 6]);
        assert!(ids(2).is_empty());
        assert_eq!(parse("I O T\r\nS").unwrap().len(), 2);
    }

    #[test]
    fn bad_files_name_the_line_and_the_token() {
        let err = parse("I O\nI X T\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "games.txt:2: `X` is not a piece of the set (I, O, T, S, Z, J, L)"
        );
        assert_eq!(
            parse("I\n\nO").unwrap_err().to_string(),
            "games.txt:2: no pieces (each line is one game's pieces)"
        );
        assert_eq!(
            parse("").unwrap_err().to_string(),
            "games.txt: no games (each line is one game's pieces)"
        );
    }

    #[test]
    fn games_default_to_the_lines_and_never_pass_them() {
        let sequences = parse("I\nO\nT\n").unwrap();
        assert_eq!(sequences.games(None, 10).unwrap(), 3);
        assert_eq!(sequences.games(Some(2), 10).unwrap(), 2);
        let err = sequences.games(Some(4), 10).unwrap_err();
        assert_eq!(err.to_string(), "games.txt: --games 4, but the file has 3 lines");
        let err = sequences.games(None, 2).unwrap_err();
        assert_eq!(
            err.to_string(),
            "games.txt: 3 lines, more than 2 games (choose some with --games)"
        );
    }

    #[test]
    fn the_digest_follows_the_games_not_the_spacing() {
        assert_eq!(
            parse("I O\nT").unwrap().digest(),
            parse("I  O \r\nT\n").unwrap().digest()
        );
        assert_ne!(parse("I O\nT").unwrap().digest(), parse("I\nO T").unwrap().digest());
    }
}
