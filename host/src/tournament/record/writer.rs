//! The results file's writer: a new file with its header, or a resumed one appended to,
//! under an exclusive lock for the writer's whole life.

use super::{difference, read_from, Config, FixtureRecord, Line, RecordError};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufReader, ErrorKind, Write};
use std::path::{Path, PathBuf};
/// Where finished games go: a file written line by line and flushed after each line, or
/// nowhere when the tournament has no results file.
///
/// A writer holds an exclusive advisory lock on its file for its whole life (the lock
/// goes with the file handle, so also when the process is killed): a second tournament,
/// resumed or not, on the same file is refused at once instead of mixing its lines in.
pub struct Writer {
    path: PathBuf,
    file: Option<File>,
}

impl Writer {
    /// Starts a new file with its header (naming `games`, the folder the games are
    /// recorded in, if they are); refuses to overwrite an existing one.
    pub fn create(path: &Path, config: &Config, shard: &str, games: Option<&Path>) -> Result<Writer, RecordError> {
        let file = OpenOptions::new()
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(|source| match source.kind() {
                ErrorKind::AlreadyExists => RecordError::Exists {
                    path: path.to_path_buf(),
                },
                _ => RecordError::Io {
                    path: path.to_path_buf(),
                    source,
                },
            })?;
        lock(path, &file)?;
        let mut writer = Writer {
            path: path.to_path_buf(),
            file: Some(file),
        };
        writer.write(&Line::header(config, shard, games))?;
        Ok(writer)
    }

    /// Continues an existing file: locks it, checks it belongs to this tournament (and
    /// every game line, as [`read_from`] does), cuts off a half-written last line, and
    /// returns the fixtures already played. New ones are appended after the old ones.
    pub fn resume(path: &Path, config: &Config, shard: &str) -> Result<(Writer, Vec<FixtureRecord>), RecordError> {
        let io = |source| RecordError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = OpenOptions::new().read(true).append(true).open(path).map_err(io)?;
        lock(path, &file)?;
        let contents = read_from(path, BufReader::new(&file))?;
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
        // Only a line cut off by a killed writer lies past the complete lines: the lock
        // shows no other process is writing it.
        if file.metadata().map_err(io)?.len() > contents.valid_len {
            file.set_len(contents.valid_len).map_err(io)?;
        }
        Ok((
            Writer {
                path: path.to_path_buf(),
                file: Some(file),
            },
            contents.fixtures,
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

/// Takes the exclusive lock on a results file, or says who has it.
fn lock(path: &Path, file: &File) -> Result<(), RecordError> {
    file.try_lock().map_err(|err| match err {
        TryLockError::WouldBlock => RecordError::Locked {
            path: path.to_path_buf(),
        },
        TryLockError::Error(source) => RecordError::Io {
            path: path.to_path_buf(),
            source,
        },
    })
}
