//! Results files: what the reader accepts, and each line it refuses, by number.

use super::*;
use crate::referee::End;
use crate::runner::{game_seed, MoveInfoMeans};
use std::sync::Arc;
use tetrad_plugin_api::{PieceSet, Preset, Rules};

fn config(games: u64) -> Config {
    let entrant = |label: &str| EntrantConfig {
        label: label.to_string(),
        plugin: "random 0.1.0".to_string(),
        options: String::new(),
    };
    Config {
        entrants: vec![entrant("a"), entrant("b")],
        setup: Setup::new(Rules::preset(Preset::Classic), Arc::new(PieceSet::tetrominoes())).unwrap(),
        games,
        seed: 1,
    }
}

fn header(games: u64, shard: &str) -> String {
    serde_json::to_string(&Line::header(&config(games), shard, None)).unwrap() + "\n"
}

fn game(entrant: usize, index: u64, seed: u64) -> String {
    let line = Line::Fixture(FixtureRecord::solo(GameRecord::new(entrant, &result(index, seed))));
    serde_json::to_string(&line).unwrap() + "\n"
}

fn result(index: u64, seed: u64) -> GameResult {
    GameResult {
        index,
        seed,
        lines: 1,
        pieces: 3,
        score: 3,
        ticks: 4,
        end: End::ToppedOut,
        error: None,
        violations: 0,
        sent: 0,
        received: 0,
        t_spins: 0,
        updates: 4,
        update_us_mean: 1.0,
        update_us_p99: 1.0,
        update_us_max: 1.0,
        move_info: None,
        time_used_ms: None,
        update_ns: new_histogram(),
        timeline: None,
    }
}

fn good(entrant: usize, index: u64) -> String {
    game(entrant, index, game_seed(1, index))
}

fn read_text(text: &str) -> Result<Contents, RecordError> {
    read_from(Path::new("r.jsonl"), text.as_bytes())
}

fn refusal(text: &str) -> String {
    read_text(text).err().expect("refused").to_string()
}

#[test]
fn a_whole_file_reads_back_with_its_line_numbers() {
    let text = header(3, "1/1") + &good(0, 0) + &good(1, 0) + &good(0, 2);
    let contents = read_text(&text).unwrap();
    assert_eq!(contents.fixtures.len(), 3);
    assert_eq!(contents.fixture_lines, vec![2, 3, 4]);
    let entrants: Vec<usize> = contents.seats().iter().map(|s| s.entrant).collect();
    assert_eq!(entrants, [0, 1, 0]);
    assert_eq!(contents.valid_len, text.len() as u64);
}

#[test]
fn a_cut_off_last_line_is_left_out() {
    let whole = header(3, "1/1") + &good(0, 0);
    let text = whole.clone() + &good(1, 0)[..20];
    let contents = read_text(&text).unwrap();
    assert_eq!(contents.fixtures.len(), 1);
    assert_eq!(contents.valid_len, whole.len() as u64);
}

#[test]
fn each_line_that_cannot_be_the_tournaments_is_refused_by_number() {
    let start = header(3, "1/1") + &good(0, 0);
    assert_eq!(
        refusal(&(start.clone() + &good(0, 0))),
        "r.jsonl:3: game 0 of entrant 0 (`a`) is already on line 2"
    );
    assert_eq!(
        refusal(&(start.clone() + &good(0, 3))),
        "r.jsonl:3: game 3 is past the tournament's 3 games (0 to 2)"
    );
    assert_eq!(
        refusal(&(start.clone() + &good(2, 1))),
        "r.jsonl:3: entrant 2 does not exist (the header lists 2)"
    );
    let seed = game_seed(1, 1);
    assert_eq!(
        refusal(&(start.clone() + &game(1, 1, 5))),
        format!("r.jsonl:3: game 1 has seed 5, but game 1 of the tournament's seed 1 has seed {seed}")
    );
    assert_eq!(
        refusal(&(header(4, "2/2") + &good(0, 1) + &good(0, 2))),
        "r.jsonl:3: game 2 is not in this file's shard 2/2"
    );
    assert_eq!(
        refusal(&(start.clone() + &header(3, "1/1"))),
        "r.jsonl:3: a second header line"
    );
    assert_eq!(
        refusal(&(good(0, 0) + &header(3, "1/1"))),
        "r.jsonl:1: a game before the header line; is it a tetrad results file?"
    );
    let seed = game_seed(1, 2);
    let misplaced = FixtureRecord {
        game: 2,
        seed,
        seats: vec![GameRecord::new(0, &result(1, game_seed(1, 1)))],
    };
    assert_eq!(
        refusal(&(start.clone() + &serde_json::to_string(&Line::Fixture(misplaced)).unwrap() + "\n")),
        format!(
            "r.jsonl:3: a seat of game 2 (seed {seed}) holds game 1 (seed {})",
            game_seed(1, 1)
        )
    );
    let empty = FixtureRecord {
        game: 2,
        seed,
        seats: Vec::new(),
    };
    assert_eq!(
        refusal(&(start.clone() + &serde_json::to_string(&Line::Fixture(empty)).unwrap() + "\n")),
        "r.jsonl:3: game 2 has no seat"
    );
    assert!(refusal(&(start + "{}\n")).starts_with("r.jsonl:3: not a tetrad results line"));
    assert_eq!(refusal(""), "r.jsonl: no header line; is it a tetrad results file?");
}

#[test]
fn a_shard_is_k_of_n_with_k_from_one() {
    assert_eq!(parse_shard("2/3"), Some(Shard { index: 1, count: 3 }));
    for bad in ["0/3", "4/3", "1/0", "0/0", "1", "a/b", "-1/2"] {
        assert_eq!(parse_shard(bad), None, "{bad}");
        assert!(refusal(&header(3, bad)).starts_with("r.jsonl:1: shard"), "{bad}");
    }
}

#[test]
fn a_second_writer_on_one_file_is_refused_until_the_first_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.jsonl");
    let first = Writer::create(&path, &config(3), "1/1", None).unwrap();
    let err = Writer::resume(&path, &config(3), "1/1").err().unwrap();
    assert!(matches!(err, RecordError::Locked { .. }), "{err}");
    assert!(matches!(
        Writer::create(&path, &config(3), "1/1", None),
        Err(RecordError::Exists { .. })
    ));
    drop(first);
    let (mut writer, done) = Writer::resume(&path, &config(3), "1/1").unwrap();
    assert!(done.is_empty());
    let record: Line = serde_json::from_str(&good(1, 2)).unwrap();
    writer.write(&record).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, header(3, "1/1") + &good(1, 2));
}

#[test]
fn a_file_of_another_format_version_is_refused_naming_the_version() {
    // The header of a version 1 file, as the tetrad before fixtures wrote it.
    let old = r#"{"kind":"header","config":{"entrants":[],"rules":{"preset":"classic"},"pieces":[],"games":1,"seed":1,"max_pieces":null,"think_limit_us":null,"max_violations":null},"shard":"1/1"}"#;
    let message = refusal(&format!("{old}\n"));
    assert!(
        message.starts_with("r.jsonl:1: a results file of format version 1; this tetrad reads version 2"),
        "{message}"
    );
    let newer = header(3, "1/1").replace(r#""version":2"#, r#""version":3"#);
    assert!(refusal(&newer).contains("format version 3"));
}

#[test]
fn numbers_no_game_reaches_are_refused_by_number() {
    let start = header(3, "1/1");
    let with = |change: &dyn Fn(&mut GameResult)| {
        let mut result = result(1, game_seed(1, 1));
        change(&mut result);
        let line = Line::Fixture(FixtureRecord::solo(GameRecord::new(0, &result)));
        start.clone() + &serde_json::to_string(&line).unwrap() + "\n"
    };
    // Ten columns and tetrominoes: 3 pieces fill 12 cells, one line of 10.
    assert!(read_text(&with(&|_| {})).is_ok());
    assert_eq!(
        refusal(&with(&|r| r.lines = 2)),
        "r.jsonl:2: 2 lines from 3 pieces, more than their cells fill (10 a line, at most 4 a piece)"
    );
    // Garbage that rose into the board is filled cells too.
    assert!(read_text(&with(&|r| (r.lines, r.received) = (2, 1))).is_ok());
    assert_eq!(
        refusal(&with(&|r| (r.lines, r.received) = (u64::MAX, 2))),
        format!(
            "r.jsonl:2: {} lines from 3 pieces and 2 rows of garbage, more than their cells fill (10 a line, at most 4 a piece)",
            u64::MAX
        )
    );
    assert_eq!(
        refusal(&with(&|r| r.ticks = 2)),
        "r.jsonl:2: 3 pieces in 2 ticks (a tick locks one piece at most)"
    );
    assert_eq!(
        refusal(&with(&|r| r.end = End::Won)),
        "r.jsonl:2: a solo game cannot be won"
    );
    assert_eq!(
        refusal(&with(&|r| r.end = End::Violation)),
        "r.jsonl:2: ended violation, but the tournament allows any number of violations"
    );
}

#[test]
fn move_info_is_kept_when_a_bot_told_it_and_a_line_without_it_still_reads() {
    let start = header(3, "1/1");
    let with = |info: Option<MoveInfoMeans>| {
        let mut result = result(1, game_seed(1, 1));
        result.move_info = info;
        let line = Line::Fixture(FixtureRecord::solo(GameRecord::new(0, &result)));
        start.clone() + &serde_json::to_string(&line).unwrap() + "\n"
    };
    let plain = with(None);
    assert!(!plain.contains("move_info"), "skipped when absent");
    assert!(read_text(&plain).is_ok());
    let told = MoveInfoMeans {
        moves: 3,
        nodes: Some(1500.5),
        nps: None,
        depth: Some(4.0),
    };
    let text = with(Some(told));
    assert!(
        text.contains(r#""move_info":{"moves":3,"nodes":1500.5,"depth":4.0}"#),
        "{text}"
    );
    let contents = read_text(&text).unwrap();
    assert_eq!(contents.seats()[0].result.move_info, Some(told));
    assert_eq!(
        refusal(&with(Some(MoveInfoMeans { moves: 9, ..told }))),
        "r.jsonl:2: move_info over 9 moves of a game of 3 pieces"
    );
    assert_eq!(
        refusal(&with(Some(MoveInfoMeans {
            depth: Some(-1.0),
            ..told
        }))),
        "r.jsonl:2: move_info depth is not a count"
    );
}
