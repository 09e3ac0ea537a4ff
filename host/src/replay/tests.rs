//! Replay files: round trips through the file, verification, and refusals.

use super::*;
use crate::engine::Game;
use crate::referee::{ended, stall_limit, Limits, TimeControl};
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

/// The classic game of seed 11 played with `actions` and stopped there, ended `end`,
/// `player` playing it under `limits`.
fn stopped(actions: Vec<u32>, end: RecordedEnd, player: PlayerRecord, limits: Limits) -> Replay {
    let mut replay = Replay::new(&setup(Rules::default(), PieceSet::tetrominoes(), None), 11);
    replay.setup.limits = limits;
    let mut game = Game::new(Rules::default(), Arc::new(PieceSet::tetrominoes()), 11);
    for &bits in &actions {
        game.tick(Actions(bits));
    }
    replay.seats[0].players.push(player);
    replay.seats[0].actions = actions;
    replay.seats[0].result = Outcome::new(game.stats(), end);
    assert!(ended(&game, None).is_none(), "the game goes on");
    replay
}

/// A player of the plugin file `path`.
fn plugin_at(path: &str) -> PlayerRecord {
    PlayerRecord {
        name: "p".to_string(),
        version: Some("1".to_string()),
        path: Some(path.into()),
        ..PlayerRecord::human(0)
    }
}

#[test]
fn an_unfinished_game_or_a_plugin_error_verifies_where_it_stopped() {
    let mut actions = classic().seats[0].actions.clone();
    actions.truncate(20);
    let limits = Limits::default();
    let mut replay = stopped(actions, RecordedEnd::Unfinished, plugin_at("libp.so"), limits);
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

/// Issue 50: each forfeit is believed only where the recorded setup and the player's kind
/// can produce it; the rest is taken as recorded.
#[test]
fn a_forfeit_the_setup_and_the_player_cannot_produce_is_refused() {
    use RecordedEnd::*;
    let actions: Vec<u32> = classic().seats[0].actions[..20].to_vec();
    let every_limit = Limits {
        think_limit_ns: Some(1_000_000),
        max_violations: Some(0),
        time_control: Some(TimeControl::PerMove(std::time::Duration::from_secs(1))),
    };
    // In process: no think limit recorded.
    let in_process = Limits {
        think_limit_ns: None,
        ..every_limit
    };
    let verdict = |end, player: PlayerRecord, limits| {
        stopped(actions.clone(), end, player, limits)
            .verify()
            .map(|outcomes| outcomes[0].end)
            .map_err(|err| err.to_string())
    };
    let forfeits = [PluginError, Timeout, Violation, Crashed, Sandbox, TimeLoss];
    for end in forfeits {
        // A person's game ends by the rules alone, whatever the limits.
        let refused = verdict(end, PlayerRecord::human(0), every_limit).unwrap_err();
        assert!(refused.contains("a person played it"), "{refused}");
        // A bot process can end every way, under the limits each end needs.
        assert_eq!(verdict(end, plugin_at("bot.toml"), in_process), Ok(end));
        // So can a library under a think limit, which may have been isolated.
        assert_eq!(verdict(end, plugin_at("libp.so"), every_limit), Ok(end));
    }
    // A library in tetrad's own process fails, breaks the protocol or runs out of time,
    // but it has no process to crash or to be ended by the sandbox.
    for end in [PluginError, Violation, TimeLoss] {
        assert_eq!(verdict(end, plugin_at("libp.so"), in_process), Ok(end));
    }
    for (end, what) in [(Crashed, "crashes"), (Sandbox, "is ended by the sandbox")] {
        let refused = verdict(end, plugin_at("libp.so"), in_process).unwrap_err();
        assert_eq!(
            refused,
            format!(
                "does not replay: ended {}, but `p 1` is a library played in tetrad's own process (the setup \
                 records no think limit, which an isolated seat has), and only a process {what}",
                end.name()
            )
        );
    }
    let refused = verdict(Timeout, plugin_at("libp.so"), in_process).unwrap_err();
    assert!(
        refused.contains("no think limit and `p 1` is not a bot process"),
        "{refused}"
    );
    // A seat whose player is not recorded forfeits nothing.
    let mut nobody = stopped(actions.clone(), PluginError, plugin_at("libp.so"), every_limit);
    nobody.seats[0].players.clear();
    let refused = nobody.verify().unwrap_err().to_string();
    assert!(refused.contains("no player is recorded at tick 20"), "{refused}");
    // A person's game never stalls either (a plugin's does, under a preset without gravity).
    let mut stall = Replay::new(&setup(Rules::preset(Preset::Leiden), PieceSet::tetrominoes(), None), 2);
    let limit = stall_limit(&stall.setup.rules);
    stall.seats[0].actions = vec![Actions::LEFT.0; limit as usize];
    stall.seats[0].result = Outcome {
        ticks: u64::from(limit),
        ..Outcome::new(Stats::default(), Stalled)
    };
    stall.seats[0].players.push(plugin_at("libp.so"));
    assert_eq!(stall.verify().unwrap()[0].end, Stalled);
    stall.seats[0].players = vec![PlayerRecord::human(0)];
    assert!(stall
        .verify()
        .unwrap_err()
        .to_string()
        .contains("a person's game never stalls"));
}

/// Issue 50: a `violation` needs one more violation than the limit, and each before the
/// last was an answer not applied, recorded as an empty tick.
#[test]
fn a_violation_needs_as_many_empty_ticks_as_the_limit() {
    let mut actions: Vec<u32> = classic().seats[0].actions[..20].to_vec();
    let limits = |max| Limits {
        max_violations: Some(max),
        ..Limits::default()
    };
    let verdict = |actions: &[u32], max| {
        stopped(
            actions.to_vec(),
            RecordedEnd::Violation,
            plugin_at("libp.so"),
            limits(max),
        )
        .verify()
        .map(|outcomes| outcomes[0].end)
        .map_err(|err| err.to_string())
    };
    assert!(actions.iter().all(|&bits| bits != 0));
    // A limit of none: the first violation forfeits, and nothing of it is recorded.
    assert_eq!(verdict(&actions, 0), Ok(RecordedEnd::Violation));
    assert_eq!(
        verdict(&actions, 2),
        Err(
            "does not replay: ended violation, which takes 3 violations under the setup's limit, but only 0 of \
             its ticks are empty (an answer that broke the protocol is not applied: it is recorded as 0)"
                .to_string()
        )
    );
    actions[3] = 0;
    assert!(verdict(&actions, 2).unwrap_err().contains("only 1 of its ticks"));
    actions[11] = 0;
    assert_eq!(verdict(&actions, 2), Ok(RecordedEnd::Violation));
    let refused = stopped(actions, RecordedEnd::Violation, plugin_at("libp.so"), Limits::default())
        .verify()
        .unwrap_err();
    assert!(
        refused.to_string().contains("allows any number of violations"),
        "{refused}"
    );
}
