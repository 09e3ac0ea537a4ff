//! A person's results file (`tetrad play --out`): a two-entrant results file, the person
//! against one bot, opened or continued, to which each game ended by the rules is appended
//! as a fixture, so `tetrad report` rates the person among the bots.

use super::{Config, EntrantConfig, FixtureRecord, GameRecord, Line, RecordError, Writer};
use crate::plugin::Plugin;
use crate::runner::GameResult;
use crate::setup::Setup;
use std::path::{Path, PathBuf};

/// Games a person's results file is made for: its header names a count, as a
/// tournament's does, and a person plays on until they stop.
pub const PERSON_GAMES: u64 = 1_000_000;

/// Why a person's results file cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum PersonError {
    /// The person's name is empty, or the bot's.
    #[error("--name `{0}`: give a name of your own, not empty nor the bot's")]
    Name(String),
    /// The file cannot be read or written, or holds another setup or opponent.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The file holds all its games.
    #[error("{}: holds its {PERSON_GAMES} games; start another --out file", .0.display())]
    Full(PathBuf),
}

/// A person's results file, open for appending.
pub struct PersonResults {
    writer: Writer,
    next: u64,
}

impl PersonResults {
    /// The results file `path` for the person `name` against `bot` with `options`, under
    /// `setup` from `seed`: continued when it holds the same setup, opponent and seed
    /// (its games go on from the last), else started; a file of another setup is refused,
    /// as `--resume` refuses.
    pub fn open(
        path: &Path,
        name: &str,
        bot: &Plugin,
        options: &str,
        setup: &Setup,
        seed: u64,
    ) -> Result<PersonResults, PersonError> {
        let info = bot.info();
        if name.trim().is_empty() || name == info.name {
            return Err(PersonError::Name(name.to_string()));
        }
        let config = Config {
            entrants: vec![
                EntrantConfig {
                    label: name.to_string(),
                    plugin: "person".to_string(),
                    options: String::new(),
                },
                EntrantConfig {
                    label: info.name.clone(),
                    plugin: format!("{} {}", info.name, info.version),
                    options: options.to_string(),
                },
            ],
            setup: setup.clone(),
            games: PERSON_GAMES,
            seed,
        };
        let (writer, next) = match path.exists() {
            true => {
                let (writer, done) = Writer::resume(path, &config, "1/1")?;
                (writer, done.iter().map(|f| f.game + 1).max().unwrap_or(0))
            }
            false => (Writer::create(path, &config, "1/1", None)?, 0),
        };
        if next >= PERSON_GAMES {
            return Err(PersonError::Full(path.to_path_buf()));
        }
        Ok(PersonResults { writer, next })
    }

    /// The index of the next game: the games of earlier sessions come first.
    pub fn next(&self) -> u64 {
        self.next
    }

    /// The writer, holding the file's lock, and the next game's index.
    pub fn into_parts(self) -> (Writer, u64) {
        (self.writer, self.next)
    }

    /// Appends game `seats[0].index`: the person's result, then the bot's. The next game
    /// comes after it.
    pub fn append(&mut self, seats: &[GameResult; 2]) -> Result<(), RecordError> {
        let fixture = FixtureRecord {
            game: seats[0].index,
            seed: seats[0].seed,
            seats: vec![GameRecord::new(0, &seats[0]), GameRecord::new(1, &seats[1])],
        };
        self.writer.write(&Line::Fixture(fixture))?;
        self.next = self.next.max(seats[0].index + 1);
        Ok(())
    }
}
