//! A game's setup from Python's arguments, checked by the host's own rules, and the
//! pieces of game `i` of a run: the seeded stream `tetrad run --seed` deals, or a given
//! sequence.

use crate::TetradError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use tetrad_engine::engine::{Game, PieceQueue, Sequences};
use tetrad_engine::setup::Setup;
use tetrad_plugin_api::{Board, PieceId, PieceKind, PieceSet, Preset, Randomizer, Rules};

/// The host's one-line message as the package's exception.
pub fn refused(message: impl std::fmt::Display) -> PyErr {
    TetradError::new_err(message.to_string())
}

/// The rules asked for: the preset's defaults where a size, the preview or the
/// randomizer is not given, as `tetrad run` takes them.
pub fn rules(
    preset: &str,
    width: Option<usize>,
    height: Option<usize>,
    preview: Option<usize>,
    randomizer: Option<&str>,
) -> PyResult<Rules> {
    let preset = Preset::from_str(preset).map_err(refused)?;
    let defaults = Rules::preset(preset);
    let randomizer = match randomizer {
        Some(name) => Randomizer::from_str(name).map_err(refused)?,
        None => defaults.randomizer,
    };
    Ok(Rules {
        preset,
        width: width.unwrap_or(defaults.width),
        height: height.unwrap_or(defaults.height),
        preview: preview.unwrap_or(defaults.preview),
        randomizer,
    })
}

/// The setup of `rules` with the preset's pieces, or those of a piece-set file, checked.
pub fn setup(rules: Rules, pieces: Option<&Path>) -> PyResult<Setup> {
    let set = match pieces {
        Some(path) => tetrad_engine::pieces::load(path).map_err(refused)?,
        None => rules.preset.pieces(),
    };
    Setup::new(rules, Arc::new(set)).map_err(refused)
}

/// Where a game's pieces come from.
#[derive(Clone, Debug)]
pub enum Deal {
    /// Game `index` of `tetrad run --seed run_seed`.
    Seeded { run_seed: u64 },
    /// The games of a sequence file (`--sequence`): game `index` plays line `index`.
    File(Arc<Sequences>),
    /// The same given pieces for every game.
    Given(Arc<[PieceId]>),
}

impl Deal {
    /// From Python's `sequence` argument: `None` (seeded), a path (a sequence file) or a
    /// list of piece names.
    pub fn from_arg(sequence: Option<&Bound<'_, PyAny>>, run_seed: u64, pieces: &PieceSet) -> PyResult<Deal> {
        let Some(sequence) = sequence.filter(|s| !s.is_none()) else {
            return Ok(Deal::Seeded { run_seed });
        };
        if sequence.is_instance_of::<PyList>() || sequence.is_instance_of::<PyTuple>() {
            let names: Vec<String> = sequence.extract()?;
            let text = names.join(" ");
            let parsed = Sequences::parse(Path::new("sequence"), &text, pieces).map_err(refused)?;
            return Ok(Deal::Given(parsed.game(0)));
        }
        let path: PathBuf = if sequence.is_instance_of::<PyString>() {
            PathBuf::from(sequence.extract::<String>()?)
        } else {
            sequence.extract()?
        };
        let sequences = Sequences::load(&path, pieces).map_err(refused)?;
        Ok(Deal::File(Arc::new(sequences)))
    }

    /// Game `index`, dealt as the host deals it.
    pub fn game(&self, setup: &Setup, index: u64, board: Option<Board>) -> Result<Game, String> {
        let given = |pieces: Arc<[PieceId]>| {
            Game::with_queue(
                setup.rules,
                setup.pieces.clone(),
                PieceQueue::given(pieces),
                board.clone(),
            )
        };
        Ok(match self {
            Deal::Seeded { run_seed } => Game::with_board(
                setup.rules,
                setup.pieces.clone(),
                tetrad_engine::setup::game_seed(*run_seed, index),
                board.clone(),
            ),
            Deal::File(sequences) => {
                if index >= sequences.len() {
                    return Err(format!(
                        "{}: game {index} asked, but the file has {} lines",
                        sequences.path().display(),
                        sequences.len()
                    ));
                }
                given(sequences.game(index))
            }
            Deal::Given(pieces) => given(pieces.clone()),
        })
    }

    /// The seed the host gives game `index`'s player for its own randomness.
    pub fn player_seed(&self, index: u64) -> u64 {
        match self {
            Deal::Seeded { run_seed } => tetrad_engine::setup::game_seed(*run_seed, index),
            _ => index,
        }
    }
}

/// Pieces as the bot protocol's `start` sends them: name, box side, each orientation's cells.
pub type ProtocolPieces = Vec<(String, u8, Vec<Vec<(i8, i8)>>)>;

/// A piece set as the bot protocol's `start` sends it: (name, box, orientations' cells).
/// The preset's own set when it is that one (so the guideline's pieces keep their kicks).
pub fn protocol_pieces(preset: Preset, given: ProtocolPieces) -> PieceSet {
    let own = preset.pieces();
    let same = own.len() == given.len()
        && own
            .kinds()
            .iter()
            .zip(&given)
            .all(|(kind, (name, size, orientations))| {
                kind.name() == name
                    && kind.box_size() == *size
                    && kind.orientations().len() == orientations.len()
                    && kind.orientations().iter().zip(orientations).all(|(o, cells)| {
                        let mut theirs = cells.clone();
                        theirs.sort_by_key(|&(x, y)| (y, x));
                        o.cells() == theirs.as_slice()
                    })
            });
    if same {
        return own;
    }
    PieceSet::new(
        given
            .into_iter()
            .map(|(name, size, orientations)| PieceKind::from_orientations(name, size, orientations))
            .collect(),
    )
}
