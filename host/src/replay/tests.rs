//! Replay files: round trips through the file, verification, and refusals.

use super::*;
use crate::engine::Game;
use crate::referee::{ended, stall_limit};
use std::sync::Arc;
use tetrad_plugin_api::{Actions, PieceSet, Preset, Rules};

/// The setup of `rules` and `pieces` with the cap `max_pieces`.
fn setup(rules: Rules, pieces: PieceSet, max_pieces: Option<u64>) -> Setup {
    let mut setup = Setup::new(rules, Arc::new(pieces)).unwrap();
    setup.max_pieces = max_pieces;
    setup
}

/// Plays a game to its end with a fixed pattern of actions and records it.
fn recorded(rules: Rules, pieces: PieceSet, seed: u64, max_pieces: Option<u64>) -> Replay {
    let setup = setup(rules, pieces, max_pieces);
    let mut game = Game::new(rules, setup.pieces.clone(), seed);
    let mut replay = Replay::new(&setup, seed);
    replay.seats[0].players.push(PlayerRecord::human(0));
    let pattern = [
        Actions::LEFT,
        Actions::CW | Actions::DROP,
        Actions::RIGHT,
        Actions::RIGHT | Actions::DROP,
        Actions::CCW | Actions::LEFT | Actions::DROP,
    ];
    let mut tick = 0;
    let end = loop {
        if let Some(end) = ended(&game, max_pieces) {
            break end;
        }
        let actions = pattern[tick % pattern.len()];
        tick += 1;
        replay.seats[0].actions.push(actions.0);
        game.tick(actions);
    };
    replay.seats[0].result = Outcome::new(game.stats(), end.into());
    replay
}

fn classic() -> Replay {
    recorded(Rules::default(), PieceSet::tetrominoes(), 11, None)
}

#[test]
fn a_game_survives_the_file_and_verifies() {
    let replay = classic();
    assert!(replay.seats[0].result.pieces > 5);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    replay.save(&path).unwrap();
    let loaded = Replay::load(&path).unwrap();
    assert_eq!(loaded, replay);
    assert_eq!(loaded.verify().unwrap(), [replay.seats[0].result]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(r#"{"format":"tetrad-replay","version":2,"setup":{"rules":{"preset":"classic""#));
}

#[test]
fn every_preset_and_a_cap_verify() {
    for preset in Preset::ALL {
        let replay = recorded(Rules::preset(preset), preset.pieces(), 3, None);
        assert_eq!(replay.verify().unwrap()[0].end, RecordedEnd::ToppedOut, "{preset}");
    }
    let capped = recorded(Rules::default(), PieceSet::tetrominoes(), 3, Some(4));
    assert_eq!(capped.verify().unwrap()[0].end, RecordedEnd::Capped);
    assert_eq!(capped.seats[0].result.pieces, 4);
}

#[test]
fn the_piece_set_is_stored_and_rebuilt_exactly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../pieces");
    for file in ["tetrominoes.toml", "pentominoes.toml", "small.toml", "unusual.toml"] {
        let set = crate::pieces::load(&dir.join(file)).unwrap();
        let rules = Rules {
            width: 16,
            height: 16,
            ..Rules::default()
        };
        let replay = Replay::new(&setup(rules, set.clone(), None), 1);
        let text = serde_json::to_string(&replay).unwrap();
        let rebuilt = Replay::parse(Path::new("r.json"), &text).unwrap().setup.pieces;
        assert_eq!(*rebuilt, set, "{file}");
        let played = recorded(rules, set, 5, Some(30));
        played.verify().unwrap();
    }
}

#[test]
fn a_changed_action_or_result_does_not_verify() {
    let replay = classic();
    let mut wrong_result = replay.clone();
    wrong_result.seats[0].result.score += 40;
    wrong_result.seats[0].result.end = RecordedEnd::Capped;
    let message = wrong_result.verify().unwrap_err().to_string();
    let expected = format!(
        "does not replay: recorded {} points, re-simulated {}; recorded end capped, re-simulated topped_out",
        replay.seats[0].result.score + 40,
        replay.seats[0].result.score
    );
    assert_eq!(message, expected);

    let mut changed = replay.clone();
    let first_drop = changed.seats[0]
        .actions
        .iter()
        .position(|&a| a & Actions::DROP.0 != 0)
        .unwrap();
    changed.seats[0].actions[first_drop] = Actions::NONE.0;
    assert!(matches!(changed.verify(), Err(ReplayError::Mismatch(_))));

    let mut longer = replay.clone();
    longer.seats[0].actions.push(0);
    let message = longer.verify().unwrap_err().to_string();
    assert!(message.contains("the game ended (topped_out) after tick"), "{message}");

    let mut violation = replay;
    violation.seats[0].actions[0] = (Actions::LEFT | Actions::RIGHT).0;
    assert!(violation
        .verify()
        .unwrap_err()
        .to_string()
        .contains("no player can have applied"));
}

#[test]
fn an_unfinished_game_or_a_plugin_error_verifies_where_it_stopped() {
    let mut replay = classic();
    replay.seats[0].actions.truncate(20);
    replay.seats[0].result.end = RecordedEnd::Unfinished;
    let mut game = Game::new(Rules::default(), Arc::new(PieceSet::tetrominoes()), 11);
    for &bits in &replay.seats[0].actions {
        game.tick(Actions(bits));
    }
    replay.seats[0].result = Outcome::new(game.stats(), RecordedEnd::Unfinished);
    assert_eq!(replay.verify().unwrap()[0].end, RecordedEnd::Unfinished);
    replay.seats[0].result.end = RecordedEnd::PluginError;
    assert_eq!(replay.verify().unwrap()[0].end, RecordedEnd::PluginError);
    replay.seats[0].result.end = RecordedEnd::Stalled;
    assert!(replay.verify().is_err(), "a classic piece never stalls");
    replay.seats[0].result.end = RecordedEnd::ToppedOut;
    assert!(replay.verify().is_err());
}

#[test]
fn a_stall_shows_in_the_piece_ticks() {
    let rules = Rules::preset(Preset::Leiden);
    let mut replay = Replay::new(&setup(rules, PieceSet::tetrominoes(), None), 2);
    let limit = stall_limit(&rules);
    replay.seats[0].actions = vec![Actions::LEFT.0; limit as usize];
    replay.seats[0].result = Outcome {
        ticks: u64::from(limit),
        ..Outcome::new(Stats::default(), RecordedEnd::Stalled)
    };
    assert_eq!(replay.verify().unwrap()[0].end, RecordedEnd::Stalled);
    replay.seats[0].actions.pop();
    replay.seats[0].result.ticks -= 1;
    assert!(replay.verify().is_err());
}

#[test]
fn bad_files_are_refused_with_the_file_and_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.json");
    let write = |replay: &serde_json::Value| std::fs::write(&path, replay.to_string()).unwrap();
    let error = |path: &Path| Replay::load(path).unwrap_err().to_string();
    let classic = || serde_json::to_value(classic()).unwrap();

    let mut newer = classic();
    newer["version"] = 3.into();
    write(&newer);
    let expected = format!(
        "{}: replay format version 3; this tetrad reads versions 1 and 2",
        path.display()
    );
    assert_eq!(error(&path), expected);

    let mut bad_piece = classic();
    let cells = bad_piece["setup"]["pieces"][1]["cells"].as_array_mut().unwrap();
    cells.push(serde_json::json!([2, 0]));
    write(&bad_piece);
    assert!(
        error(&path).ends_with("piece `O`: cell [2, 0] is outside its 2x2 box"),
        "{}",
        error(&path)
    );

    let mut bad_rules = classic();
    bad_rules["setup"]["rules"]["width"] = 99.into();
    write(&bad_rules);
    assert!(error(&path).ends_with("width 99 is out of range 4..=32 for preset classic"));

    std::fs::write(&path, "{\"format\": ").unwrap();
    assert!(error(&path).contains("not a replay file"));
    assert!(error(&dir.path().join("missing.json")).contains("missing.json"));
}

#[test]
fn a_version_1_file_reads_as_a_fixture_of_one_seat_and_verifies() {
    let replay = classic();
    let seat = replay.seat();
    // A version 1 file: the rules, pieces and cap at the top, one player's ticks.
    let old = serde_json::json!({
        "format": FORMAT,
        "version": 1,
        "rules": RulesRecord::of(&replay.setup.rules),
        "pieces": PieceRecord::all(&replay.setup.pieces),
        "seed": replay.seed,
        "max_pieces": null,
        "players": seat.players,
        "actions": seat.actions,
        "result": seat.result,
    });
    let read = Replay::parse(Path::new("old.json"), &old.to_string()).unwrap();
    assert_eq!(read, replay);
    assert_eq!(read.verify().unwrap(), [seat.result]);
}
