//! The results file: one JSON line per finished game, after a header line that pins the
//! tournament's configuration, so a run can be resumed, and shards merged, safely.

use crate::runner::{new_histogram, GameResult};
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// What must be equal for two results files to describe the same tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// Every entrant's label, plugin file and options, in order.
    pub entrants: Vec<EntrantConfig>,
    /// Preset, size, preview, randomizer and piece names.
    pub rules: serde_json::Value,
    /// Every piece's cells, so two sets with the same names still differ.
    pub pieces: Vec<Vec<(i8, i8)>>,
    /// Games in the whole tournament (before sharding).
    pub games: u64,
    /// The tournament's seed.
    pub seed: u64,
    /// The piece cap, if any.
    pub max_pieces: Option<u64>,
    /// The think limit in microseconds, if any.
    pub think_limit_us: Option<u64>,
    /// Violations allowed per game before a forfeit.
    pub max_violations: Option<u64>,
}

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
        /// The configuration.
        config: Config,
        /// This file's share, "K/N".
        shard: String,
    },
    /// A finished game.
    Game(GameRecord),
}

/// A finished game of one entrant.
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
}

/// A results file read back: its header and the games it holds, and where the complete
/// lines end.
pub struct Contents {
    /// The configuration.
    pub config: Config,
    /// The shard, "K/N".
    pub shard: String,
    /// Every complete game line.
    pub games: Vec<GameRecord>,
    /// Byte length of the complete lines: a line cut off by a kill lies beyond it.
    pub valid_len: u64,
}

/// Reads a results file. A last line without its newline (a write cut off by a kill) is
/// ignored; any other bad line is an error.
pub fn read(path: &Path) -> Result<Contents, RecordError> {
    let io = |source| RecordError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io)?;
    let mut reader = BufReader::new(file);
    let mut header = None;
    let mut games = Vec::new();
    let mut valid_len = 0u64;
    let mut text = String::new();
    for number in 1.. {
        text.clear();
        let read = reader.read_line(&mut text).map_err(io)?;
        if read == 0 || !text.ends_with('\n') {
            break;
        }
        let line: Line = serde_json::from_str(&text).map_err(|err| RecordError::Malformed {
            path: path.to_path_buf(),
            line: number,
            message: err.to_string(),
        })?;
        valid_len += read as u64;
        match line {
            Line::Header { config, shard } if header.is_none() => header = Some((config, shard)),
            Line::Header { .. } => {
                return Err(RecordError::Malformed {
                    path: path.to_path_buf(),
                    line: number,
                    message: "a second header".to_string(),
                })
            }
            Line::Game(record) => games.push(record),
        }
    }
    let (config, shard) = header.ok_or_else(|| RecordError::NoHeader {
        path: path.to_path_buf(),
    })?;
    Ok(Contents {
        config,
        shard,
        games,
        valid_len,
    })
}

/// Where finished games go: a file written line by line and flushed after each line, or
/// nowhere when the tournament has no results file.
pub struct Writer {
    path: PathBuf,
    file: Option<File>,
}

impl Writer {
    /// Starts a new file with its header; refuses to overwrite an existing one.
    pub fn create(path: &Path, config: &Config, shard: &str) -> Result<Writer, RecordError> {
        if path.exists() {
            return Err(RecordError::Exists {
                path: path.to_path_buf(),
            });
        }
        let file = File::create(path).map_err(|source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut writer = Writer {
            path: path.to_path_buf(),
            file: Some(file),
        };
        writer.write(&Line::Header {
            config: config.clone(),
            shard: shard.to_string(),
        })?;
        Ok(writer)
    }

    /// Continues an existing file: checks it belongs to this tournament, cuts off a
    /// half-written last line, and returns the games already played.
    pub fn resume(path: &Path, config: &Config, shard: &str) -> Result<(Writer, Vec<GameRecord>), RecordError> {
        let contents = read(path)?;
        if let Some(what) = difference(&contents.config, config) {
            return Err(RecordError::Mismatch {
                path: path.to_path_buf(),
                what,
            });
        }
        if contents.shard != shard {
            return Err(RecordError::Mismatch {
                path: path.to_path_buf(),
                what: "shards".to_string(),
            });
        }
        let io = |source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(contents.valid_len).map_err(io)?;
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok((
            Writer {
                path: path.to_path_buf(),
                file: Some(file),
            },
            contents.games,
        ))
    }

    /// A writer that keeps nothing.
    pub fn none() -> Writer {
        Writer {
            path: PathBuf::new(),
            file: None,
        }
    }

    /// Appends one line and flushes it to the operating system.
    pub fn write(&mut self, line: &Line) -> Result<(), RecordError> {
        let Some(file) = &mut self.file else {
            return Ok(());
        };
        let mut text = serde_json::to_string(line).expect("records serialise");
        text.push('\n');
        let io = |source| RecordError::Io {
            path: self.path.clone(),
            source,
        };
        file.write_all(text.as_bytes()).map_err(io)?;
        file.flush().map_err(io)
    }
}

/// Which part of two configurations differs, if any.
pub fn difference(a: &Config, b: &Config) -> Option<String> {
    let checks = [
        ("entrants", a.entrants == b.entrants),
        ("rules", a.rules == b.rules),
        ("piece sets", a.pieces == b.pieces),
        ("game counts", a.games == b.games),
        ("seeds", a.seed == b.seed),
        ("piece caps", a.max_pieces == b.max_pieces),
        ("think limits", a.think_limit_us == b.think_limit_us),
        ("violation limits", a.max_violations == b.max_violations),
    ];
    let differing: Vec<&str> = checks.iter().filter(|(_, same)| !same).map(|(what, _)| *what).collect();
    (!differing.is_empty()).then(|| differing.join(", "))
}
