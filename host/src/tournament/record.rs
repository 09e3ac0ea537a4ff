//! The results file: one JSON line per finished fixture (a game dealt from one seed, with
//! its seats; one seat in a solo tournament), after a header line that pins the
//! tournament's configuration, so a run can be resumed, and shards merged, safely.
//!
//! This is format version 2. Version 1 files (one line per game of one entrant, before
//! fixtures) are refused with a message that names the version.

use super::Shard;
use crate::input::{self, InputError, RESULTS_CAP, RESULTS_LINE_CAP};
use crate::runner::{new_histogram, GameResult};
use crate::setup::Setup;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

/// What must be equal for two results files to describe the same tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Every entrant's label, plugin file and options, in order.
    pub entrants: Vec<EntrantConfig>,
    /// Rules, pieces (every piece's cells, so two sets with the same names still differ),
    /// the sequence's digest, the piece cap and the limits.
    pub setup: Setup,
    /// Games in the whole tournament (before sharding).
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
}

/// The `format` of a results file's header.
pub const FORMAT: &str = "tetrad-results";
/// The results file format's version; a file of another version is refused.
pub const VERSION: u32 = 2;

/// One entrant as the header records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntrantConfig {
    /// The name in the standings.
    pub label: String,
    /// The plugin's name and version, from its info.
    pub plugin: String,
    /// Its options.
    pub options: String,
}

/// A line of the results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Line {
    /// The first line.
    Header {
        /// Always [`FORMAT`].
        format: String,
        /// Always [`VERSION`].
        version: u32,
        /// The configuration (boxed: it is much larger than a fixture line, and there is
        /// one header to many fixtures).
        config: Box<Config>,
        /// This file's share, "K/N".
        shard: String,
        /// The folder `--record-games` saved every game's replay in: relative to this
        /// file's folder when inside it, else absolute. `tetrad report` finds the games
        /// there.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        games: Option<PathBuf>,
    },
    /// A finished fixture.
    Fixture(FixtureRecord),
}

impl Line {
    /// The header of a file of this version, with the folder its games are recorded in.
    pub fn header(config: &Config, shard: &str, games: Option<&Path>) -> Line {
        Line::Header {
            format: FORMAT.to_string(),
            version: VERSION,
            config: Box::new(config.clone()),
            shard: shard.to_string(),
            games: games.map(Path::to_path_buf),
        }
    }
}

/// A finished fixture: game `game` of the tournament, dealt from `seed`, and each seat's
/// game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FixtureRecord {
    /// The game's index in the tournament.
    pub game: u64,
    /// The game's seed.
    pub seed: u64,
    /// Each seat's game, in seat order.
    pub seats: Vec<GameRecord>,
}

impl FixtureRecord {
    /// The fixture of one seat: `record`'s game alone.
    pub fn solo(record: GameRecord) -> FixtureRecord {
        FixtureRecord {
            game: record.result.index,
            seed: record.result.seed,
            seats: vec![record],
        }
    }

    /// What identifies the fixture in its tournament: the game and who sits where.
    pub fn key(&self) -> (u64, Vec<usize>) {
        (self.game, self.seats.iter().map(|s| s.entrant).collect())
    }
}

/// One seat's game: a finished game of one entrant.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index of the entrant in the header.
    pub entrant: usize,
    /// The result.
    pub result: GameResult,
    /// Update durations as (nanoseconds, count) buckets, so standings can give exact
    /// percentiles after a resume or a merge.
    pub update_ns: Vec<(u64, u64)>,
}

impl GameRecord {
    /// A record of `result`, taking its histogram.
    pub fn new(entrant: usize, result: &GameResult) -> GameRecord {
        let update_ns = result
            .update_ns
            .iter_recorded()
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect();
        GameRecord {
            entrant,
            result: result.clone(),
            update_ns,
        }
    }

    /// The update-time histogram back from its buckets.
    pub fn histogram(&self) -> Histogram<u64> {
        let mut histogram = new_histogram();
        for &(value, count) in &self.update_ns {
            let _ = histogram.record_n(value, count);
        }
        histogram
    }
}

/// A results file's problem, naming the file and line.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is larger than [`RESULTS_CAP`].
    #[error(transparent)]
    Input(#[from] InputError),
    /// A line is not a record (other than a cut-off last line).
    #[error("{path}:{line}: not a tetrad results line ({message})")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The parser's message.
        message: String,
    },
    /// A line reads as a record, but cannot belong to the tournament of its header.
    #[error("{path}:{line}: {problem}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The file has no header.
    #[error("{path}: no header line; is it a tetrad results file?")]
    NoHeader {
        /// The file.
        path: PathBuf,
    },
    /// The file belongs to another tournament.
    #[error(
        "{path}: written by a different tournament ({what} differ); use the same arguments, or another --out file"
    )]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        what: String,
    },
    /// The file exists and --resume was not given.
    #[error("{path}: already exists; pass --resume to continue it, or remove it")]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// Another process writes the file.
    #[error(
        "{path}: another tetrad is writing it (the file is locked); wait for it to end, or use another --out file"
    )]
    Locked {
        /// The file.
        path: PathBuf,
    },
}

/// A results file read back: its header and the games it holds, and where the complete
/// lines end.
pub struct Contents {
    /// The configuration.
    pub config: Config,
    /// The shard, "K/N".
    pub shard: String,
    /// The folder the games were recorded in, as the header gives it (see
    /// [`Line::Header`]).
    pub games: Option<PathBuf>,
    /// Every complete fixture line, in file order.
    pub fixtures: Vec<FixtureRecord>,
    /// The 1-based line number of each of `fixtures`.
    pub fixture_lines: Vec<usize>,
    /// Byte length of the complete lines: a line cut off by a kill lies beyond it.
    pub valid_len: u64,
}

impl Contents {
    /// Every seat's game, fixture by fixture.
    pub fn seats(&self) -> Vec<GameRecord> {
        self.fixtures.iter().flat_map(|f| f.seats.iter().cloned()).collect()
    }
}

/// Reads a results file (at most [`RESULTS_CAP`] bytes; see [`read_from`]).
pub fn read(path: &Path) -> Result<Contents, RecordError> {
    let file = File::open(path).map_err(|source| RecordError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    read_from(path, BufReader::new(file))
}

/// Reads a results file from `reader`; `path` names it in messages. Both `--resume` and
/// `merge` read through here, so both trust a file alike.
///
/// The first line must be the header. A last line without its newline (a write cut off by
/// a kill) is ignored. A header of another format version is refused, naming it. Any
/// other line that is not a record is refused, and so is a fixture line that cannot be
/// part of the header's tournament: no seat, an entrant the header does not list, an
/// index past its game count or outside the file's shard, a seed that is not the
/// tournament's seed for that index, or a fixture (game and seats) already recorded on an
/// earlier line. Each refusal is one line, `FILE:LINE: what is wrong`; nothing is counted
/// twice and nothing is dropped in silence.
///
/// The file is read line by line, each line at most [`RESULTS_LINE_CAP`] bytes, the whole
/// at most [`RESULTS_CAP`].
pub fn read_from(path: &Path, mut reader: impl BufRead) -> Result<Contents, RecordError> {
    let invalid = |line: usize, problem: String| RecordError::Invalid {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let mut header: Option<(Config, String, Shard, Option<PathBuf>)> = None;
    let mut fixtures = Vec::new();
    let mut fixture_lines = Vec::new();
    let mut seen: HashMap<(u64, Vec<usize>), usize> = HashMap::new();
    let mut valid_len = 0u64;
    let mut text = Vec::new();
    for number in 1.. {
        text.clear();
        let read = input::read_line(&mut reader, &mut text, RESULTS_LINE_CAP).map_err(|source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        match read {
            input::Line::Complete => {}
            input::Line::Unterminated => break,
            input::Line::TooLong => {
                return Err(invalid(
                    number,
                    format!("a line longer than {}", input::size_text(RESULTS_LINE_CAP)),
                ))
            }
        }
        valid_len += text.len() as u64;
        if valid_len > RESULTS_CAP {
            return Err(InputError::TooLarge {
                path: path.to_path_buf(),
                cap: RESULTS_CAP,
            }
            .into());
        }
        if header.is_none() {
            check_version(&text).map_err(|problem| invalid(number, problem))?;
        }
        let line: Line = serde_json::from_slice(&text).map_err(|err| RecordError::Malformed {
            path: path.to_path_buf(),
            line: number,
            message: err.to_string(),
        })?;
        match (line, &header) {
            (
                Line::Header {
                    config, shard, games, ..
                },
                None,
            ) => {
                let parsed = parse_shard(&shard)
                    .ok_or_else(|| invalid(number, format!("shard `{shard}` is not K/N with 1 <= K <= N")))?;
                header = Some((*config, shard, parsed, games));
            }
            (Line::Header { .. }, Some(_)) => return Err(invalid(number, "a second header line".to_string())),
            (Line::Fixture(_), None) => {
                return Err(invalid(
                    number,
                    "a game before the header line; is it a tetrad results file?".to_string(),
                ))
            }
            (Line::Fixture(fixture), Some((config, _, shard, _))) => {
                check_fixture(config, *shard, &fixture).map_err(|problem| invalid(number, problem))?;
                if let Some(earlier) = seen.insert(fixture.key(), number) {
                    return Err(invalid(
                        number,
                        format!(
                            "game {} of {} is already on line {earlier}",
                            fixture.game,
                            seating(config, &fixture)
                        ),
                    ));
                }
                fixtures.push(fixture);
                fixture_lines.push(number);
            }
        }
    }
    let (config, shard, _, games) = header.ok_or_else(|| RecordError::NoHeader {
        path: path.to_path_buf(),
    })?;
    Ok(Contents {
        config,
        shard,
        games,
        fixtures,
        fixture_lines,
        valid_len,
    })
}

/// Which part of two configurations differs, if any.
pub fn difference(a: &Config, b: &Config) -> Option<String> {
    let mut differing = Vec::new();
    if a.entrants != b.entrants {
        differing.push("entrants");
    }
    differing.extend(a.setup.differences(&b.setup));
    for (what, same) in [("game counts", a.games == b.games), ("seeds", a.seed == b.seed)] {
        if !same {
            differing.push(what);
        }
    }
    (!differing.is_empty()).then(|| differing.join(", "))
}

mod check;
#[cfg(test)]
mod tests;
mod writer;

use check::{check_fixture, check_version, parse_shard, seating};

pub use writer::Writer;
