//! The fuzz targets' entry points: what the commands do with the bytes of each kind of
//! user file, from the reader to the last check, one function per kind. The fuzz targets in `fuzz/` run these; so does a
//! unit test that feeds them every file of the fuzz corpora, without the fuzzer.
//!
//! Each function returns whether the input was accepted; it must never panic, whatever
//! the bytes.

use crate::engine::Game;
use crate::input::text;
use crate::pieces;
use crate::replay::Replay;
use crate::tournament::{self, csv, markdown, table, Report};
use crate::tui::Playback;
use crate::tune::Checkpoint;
use std::path::Path;
use std::sync::Arc;
use tetrad_plugin_api::{Actions, Preset, Rules};

/// Ticks of the test game played on an accepted piece set.
const TEST_TICKS: usize = 400;

/// `--pieces FILE`: the piece-set parser, then the rules' check of the set under every
/// preset on its default board and on the smallest one, then a short game on each board
/// that takes the set.
pub fn piece_set(bytes: &[u8]) -> bool {
    let path = Path::new("fuzz.toml");
    let Ok(text) = text(path, bytes.to_vec()) else {
        return false;
    };
    let Ok(set) = pieces::parse(path, &text) else {
        return false;
    };
    let set = Arc::new(set);
    for preset in Preset::ALL {
        let mut small = Rules::preset(preset);
        (small.width, small.height) = (4, 4);
        for rules in [Rules::preset(preset), small] {
            if rules.validate(&set).is_ok() {
                test_game(rules, &set);
            }
        }
    }
    true
}

/// A short game with a fixed pattern of every action.
fn test_game(rules: Rules, set: &Arc<tetrad_plugin_api::PieceSet>) {
    let pattern = [
        Actions::LEFT,
        Actions::CW,
        Actions::RIGHT | Actions::CCW,
        Actions::NONE,
        Actions::DROP,
        Actions::RIGHT,
        Actions::LEFT | Actions::DROP,
    ];
    let mut game = Game::new(rules, set.clone(), 7);
    for tick in 0..TEST_TICKS {
        if game.is_over() || game.current().is_none() {
            break;
        }
        game.tick(pattern[tick % pattern.len()]);
    }
}

/// `tetrad replay [--verify] FILE`: the replay loader, then what playing it back does
/// (re-simulating every tick, and the verification).
pub fn replay(bytes: &[u8]) -> bool {
    let path = Path::new("fuzz.json");
    let Ok(text) = text(path, bytes.to_vec()) else {
        return false;
    };
    let Ok(replay) = Replay::parse(path, &text) else {
        return false;
    };
    Playback::new(replay).is_ok()
}

/// `tetrad merge FILE` (and `tournament --resume`): the results-file reader with its
/// checks, then the standings, the pairings and the report in every format.
pub fn results(bytes: &[u8]) -> bool {
    let Ok(contents) = tournament::record::read_from(Path::new("fuzz.jsonl"), bytes) else {
        return false;
    };
    let labels: Vec<String> = contents.config.entrants.iter().map(|e| e.label.clone()).collect();
    let versus = contents.config.setup.attack.is_some();
    let report = Report::new(&labels, versus, &contents.fixtures, contents.config.games, None);
    let _ = (table(&report), markdown(&report), csv(&report));
    serde_json::to_string(&report).is_ok()
}

/// `tetrad tune --resume`: the checkpoint reader with its checks, then what the command
/// prints of it.
pub fn checkpoint(bytes: &[u8]) -> bool {
    let path = Path::new("fuzz.json");
    let Ok(text) = text(path, bytes.to_vec()) else {
        return false;
    };
    let Ok(checkpoint) = Checkpoint::parse(path, &text) else {
        return false;
    };
    let _ = (checkpoint.options(), checkpoint.best_candidate());
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// Every file of `fuzz/corpus/<target>`, through `run`. A missing or empty corpus
    /// fails, so this cannot pass by testing nothing.
    fn replay_corpus(target: &str, run: fn(&[u8]) -> bool) {
        let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus")).join(target);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut files = 0;
        let mut accepted = 0;
        for entry in entries {
            let path = entry.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| run(&bytes));
            assert!(outcome.is_ok(), "{} panicked", path.display());
            files += 1;
            accepted += usize::from(outcome.unwrap_or(false));
        }
        assert!(files > 0, "{}: an empty corpus", dir.display());
        assert!(accepted > 0, "{}: no file of the corpus is accepted", dir.display());
    }

    #[test]
    fn the_piece_set_corpus_never_panics() {
        replay_corpus("pieces", piece_set);
    }

    #[test]
    fn the_replay_corpus_never_panics() {
        replay_corpus("replay", replay);
    }

    #[test]
    fn the_results_corpus_never_panics() {
        replay_corpus("results", results);
    }

    #[test]
    fn the_checkpoint_corpus_never_panics() {
        replay_corpus("checkpoint", checkpoint);
    }
}
