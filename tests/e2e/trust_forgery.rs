//! The issue "Hosting without surprises", items 4 and 5: text read from a file reaches the
//! terminal escaped, and a replay or a results file that cannot be the record of a real
//! game is refused in one line. Each forged file is a real one, written by the binary,
//! then edited.

use crate::common::*;
use serde_json::Value;
use std::path::Path;
use tetrad::replay::Replay;
use tetrad::tui::{App, Playback};

/// Text that would clear the screen and print a forged verdict, were it printed raw.
const FORGED: &str = "\u{1b}[2J\u{1b}[H\rok  all good\u{0}";

/// The escaped form of [`FORGED`]'s first control character, as tetrad prints it.
const ESCAPED: &str = "\\u{1b}[2J";

/// Asserts that `text` holds no control character but the newlines that end its lines.
fn assert_printable(text: &str) {
    let raw: Vec<char> = text.chars().filter(|&c| c.is_control() && c != '\n').collect();
    assert!(raw.is_empty(), "control characters {raw:?} in: {text:?}");
}

/// Reads a JSON file.
fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The lines of a results file, each parsed.
fn lines_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Writes `lines` as a results file.
fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// The arguments of a small versus match, after `versus`.
fn match_args() -> Vec<String> {
    [
        "--plugins",
        "tree-search@depth=1",
        "random",
        "--games",
        "2",
        "--jobs",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Plays a small versus match, recording game 0 in `record`; returns the replay.
fn recorded_match(record: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["versus".to_string()];
    args.extend(match_args());
    args.extend(extra.iter().map(|s| s.to_string()));
    args.extend(["--record".to_string(), record.display().to_string()]);
    let output = tetrad().args(&args).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let verified = run(&["replay", "--verify", record.to_str().unwrap()]);
    assert!(
        verified.status.success(),
        "the real replay verifies: {}",
        stderr(&verified)
    );
    read_json(record)
}

/// The seat that won a recorded versus game, and the seat that lost it.
fn winner_and_loser(replay: &Value) -> (usize, usize) {
    let won = |seat: usize| replay["seats"][seat]["result"]["end"] == "won";
    match (won(0), won(1)) {
        (true, false) => (0, 1),
        (false, true) => (1, 0),
        _ => panic!("one seat won: {replay}"),
    }
}

// Item 4: text from files is escaped.

#[test]
fn a_replays_player_names_reach_the_terminal_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("names.json");
    let mut replay = recorded_match(&file, &[]);
    replay["seats"][0]["players"][0]["name"] = FORGED.into();
    replay["seats"][1]["players"][0]["version"] = FORGED.into();
    std::fs::write(&file, replay.to_string()).unwrap();

    let verified = run(&["replay", "--verify", file.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    let line = stdout(&verified);
    assert_printable(&line);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(line.starts_with("ok  "), "{line}");
    assert_eq!(line.matches(ESCAPED).count(), 2, "both names, escaped: {line}");

    // The replay screen shows the players as they are named here.
    let app = App::replay(Playback::new(Replay::load(&file).unwrap()).unwrap());
    for board in 0..2 {
        let player = app.player(board);
        assert_printable(&player);
        assert!(player.contains(ESCAPED), "{player}");
    }
}

#[test]
fn a_results_headers_labels_reach_the_terminal_escaped_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("labels.jsonl");
    let output = run(&[
        "tournament",
        "--plugins",
        "random",
        "tree-search@depth=1",
        "--max-pieces",
        "30",
        "--games",
        "2",
        "--jobs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut lines = lines_of(&out);
    lines[0]["config"]["entrants"][0]["label"] = FORGED.into();
    write_lines(&out, &lines);
    for format in ["table", "markdown", "csv"] {
        let merged = run(&["merge", out.to_str().unwrap(), "--format", format]);
        assert!(merged.status.success(), "{}", stderr(&merged));
        let text = stdout(&merged);
        assert_printable(&text);
        assert!(text.contains(ESCAPED), "{format}: {text}");
    }
    // A refusal that names the entrant escapes its label too.
    let at = (1..lines.len())
        .find(|&at| lines[at]["seats"][0]["entrant"] == 0)
        .expect("a game of entrant 0");
    let copy = lines[at].clone();
    lines.push(copy);
    write_lines(&out, &lines);
    let refused = run(&["merge", out.to_str().unwrap()]);
    assert_one_line_error(&refused, &format!("is already on line {}", at + 1));
    assert_printable(&stderr(&refused));
}

// Item 5: nothing forged is accepted. Replays first.

#[test]
fn a_versus_replay_whose_winner_is_marked_crashed_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("crashed.json");
    // Under a think limit, as an isolated game records, a seat can have crashed (issue
    // 50): the winner's crash is refused for where it falls.
    let mut replay = recorded_match(&file, &["--think-limit-us", "10000000"]);
    let (winner, _) = winner_and_loser(&replay);
    replay["seats"][winner]["result"]["end"] = "crashed".into();
    std::fs::write(&file, replay.to_string()).unwrap();
    let output = run(&["replay", "--verify", file.to_str().unwrap()]);
    assert_one_line_error(
        &output,
        &format!(
            "{}: does not replay: seat {}: ended crashed after",
            file.display(),
            winner + 1
        ),
    );
    assert!(stdout(&output).is_empty(), "{}", stdout(&output));
}

#[test]
fn a_versus_replay_with_a_timeout_but_no_think_limit_between_libraries_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("timeout.json");
    // A real timeout: the test plugin sleeps 200 ms an update from tick 4, over a 50 ms limit.
    let slow = format!("{}@mode=slow,sleep_us=200000,after=4", testkit());
    let mut args = vec!["versus", "--plugins", &slow, "random", "--games", "1", "--jobs", "1"];
    args.extend(["--think-limit-us", "50000", "--record", file.to_str().unwrap()]);
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let verified = run(&["replay", "--verify", file.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert!(stdout(&verified).contains("ended timeout"), "{}", stdout(&verified));

    let mut replay = read_json(&file);
    replay["setup"]["think_limit_us"] = Value::Null;
    std::fs::write(&file, replay.to_string()).unwrap();
    let output = run(&["replay", "--verify", file.to_str().unwrap()]);
    assert_one_line_error(
        &output,
        &format!(
            "{}: does not replay: seat 1: ended timeout, but the setup has no think limit",
            file.display()
        ),
    );
}

// Results files: seats that cannot all be true, and numbers no game reaches.

/// A finished versus results file of two games, and its arguments.
fn versus_results(out: &Path) -> (Vec<String>, Vec<Value>) {
    let mut args = vec!["versus".to_string()];
    args.extend(match_args());
    args.extend(["--out".to_string(), out.display().to_string()]);
    let output = tetrad().args(&args).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = lines_of(out);
    assert_eq!(lines.len(), 3, "the header and two games");
    (args, lines)
}

/// Resume (with `args` and the file) and merge both refuse `lines` with `problem` at
/// `line` of the file, in one line.
fn both_refuse(path: &Path, args: &[String], lines: &[Value], line: usize, problem: &str) {
    write_lines(path, lines);
    let expected = format!("{}:{line}: {problem}", path.display());
    let mut resume = args.to_vec();
    resume.push("--resume".to_string());
    assert_one_line_error(&tetrad().args(&resume).output().unwrap(), &expected);
    assert_one_line_error(&run(&["merge", path.to_str().unwrap()]), &expected);
}

/// The seat that won game `line`'s fixture, and the seat that lost it.
fn seats_of(fixture: &Value) -> (usize, usize) {
    let won = |seat: usize| fixture["seats"][seat]["result"]["end"] == "won";
    match (won(0), won(1)) {
        (true, false) => (0, 1),
        (false, true) => (1, 0),
        _ => panic!("one seat won: {fixture}"),
    }
}

#[test]
fn a_versus_fixture_whose_seats_cannot_all_be_true_is_refused_by_resume_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("match.jsonl");
    let (args, lines) = versus_results(&out);
    let (winner, loser) = seats_of(&lines[2]);

    let mut both_won = lines.clone();
    both_won[2]["seats"][loser]["result"]["end"] = "won".into();
    both_refuse(&out, &args, &both_won, 3, "both seats won");

    let mut both_lost = lines.clone();
    both_lost[2]["seats"][winner]["result"]["end"] = "topped_out".into();
    both_refuse(
        &out,
        &args,
        &both_lost,
        3,
        &format!("seat {}: ended topped_out after", winner + 1),
    );
    assert_one_line_error(
        &run(&["merge", out.to_str().unwrap()]),
        "the seats of a versus game end together, on one tick",
    );

    let mut unbeaten = lines.clone();
    unbeaten[2]["seats"][loser]["result"]["end"] = "capped".into();
    both_refuse(
        &out,
        &args,
        &unbeaten,
        3,
        &format!("seat {}: ended won, but no other seat lost", winner + 1),
    );

    // The real file still resumes and merges.
    write_lines(&out, &lines);
    assert!(run(&["merge", out.to_str().unwrap()]).status.success());
}

#[test]
fn a_solo_game_marked_won_is_refused_by_resume_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("solo.jsonl");
    let args: Vec<String> = [
        "tournament",
        "--plugins",
        "random",
        "tree-search@depth=1",
        "--max-pieces",
        "30",
        "--games",
        "2",
        "--jobs",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let output = tetrad().args(&args).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let mut lines = lines_of(&out);
    lines[3]["seats"][0]["result"]["end"] = "won".into();
    both_refuse(&out, &args, &lines, 4, "a solo game cannot be won");
}

#[test]
fn lines_beyond_what_the_pieces_allow_are_refused_by_resume_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("absurd.jsonl");
    let (args, lines) = versus_results(&out);
    let (winner, _) = seats_of(&lines[1]);
    let result = &lines[1]["seats"][winner]["result"];
    let pieces = result["pieces"].as_u64().unwrap();
    let received = result["received"].as_u64().unwrap_or(0);
    // Ten columns: a tetromino fills 4 cells, a row of garbage at most 10.
    let most = (pieces * 4 + received * 10) / 10;
    let mut absurd = lines.clone();
    absurd[1]["seats"][winner]["result"]["lines"] = (most + 1).into();
    both_refuse(
        &out,
        &args,
        &absurd,
        2,
        &format!("seat {}: {} lines from {pieces} pieces", winner + 1, most + 1),
    );
    // As many as the cells allow pass this check.
    let mut most_lines = lines.clone();
    most_lines[1]["seats"][winner]["result"]["lines"] = most.into();
    write_lines(&out, &most_lines);
    assert!(run(&["merge", out.to_str().unwrap()]).status.success());

    let mut early = lines.clone();
    early[1]["seats"][winner]["result"]["ticks"] = (pieces - 1).into();
    both_refuse(
        &out,
        &args,
        &early,
        2,
        &format!("seat {}: {pieces} pieces in {} ticks", winner + 1, pieces - 1),
    );
}
