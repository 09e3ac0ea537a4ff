//! The command line turned into a [`Setup`]: the one place where a setup meets clap's
//! argument types.

use super::{SequenceDigest, Setup};
use crate::cli::GameArgs;
use crate::engine::{SequenceError, Sequences};
use crate::pieces::PieceFileError;
use crate::referee::Limits;
use std::path::Path;
use std::sync::Arc;
use tetrad_plugin_api::RulesError;

/// Why the command line describes no playable setup.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The piece-set file.
    #[error(transparent)]
    Pieces(#[from] PieceFileError),
    /// The rules do not fit the pieces, or a size is out of range.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The sequence file.
    #[error(transparent)]
    Sequence(#[from] SequenceError),
}

/// The setup of the rules options, the piece cap and the limits, checked; pieces are
/// seeded until [`play_sequence`] gives them.
pub fn setup(game: &GameArgs, max_pieces: Option<u64>, limits: Limits) -> Result<Setup, SetupError> {
    let pieces = match &game.pieces {
        Some(path) => crate::pieces::load(path)?,
        None => game.preset().pieces(),
    };
    let mut setup = Setup::new(game.rules(), Arc::new(pieces))?;
    setup.max_pieces = max_pieces;
    setup.limits = limits;
    Ok(setup)
}

/// Reads `--sequence FILE`, if given, and makes `setup` play it. The file's digest must be
/// `expected` when that is given (a worker checking the file its tournament read).
pub fn play_sequence(
    setup: &mut Setup,
    path: Option<&Path>,
    expected: Option<&SequenceDigest>,
) -> Result<Option<Arc<Sequences>>, SetupError> {
    let Some(path) = path else { return Ok(None) };
    let sequences = Sequences::load(path, &setup.pieces)?;
    let digest = SequenceDigest::of(&sequences);
    if expected.is_some_and(|expected| *expected != digest) {
        return Err(SequenceError::Changed {
            path: path.to_path_buf(),
        }
        .into());
    }
    setup.sequence = Some(digest);
    Ok(Some(Arc::new(sequences)))
}
