//! The issue "Trust", items 3, 4, 6 and 7: two writers never share a results file or a
//! tune checkpoint; resume and merge refuse a results line that cannot be the
//! tournament's, naming its file and line; numbers and files that once panicked, aborted
//! or ate the memory are one line and a non-zero exit; a piece whose rotation box is wider
//! than the board is refused up front, under every preset.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// The arguments of a small, fast tournament writing to `out`.
fn quick(out: &Path, games: &str) -> Vec<String> {
    [
        "tournament",
        "--plugins",
        "random",
        "tree-search@depth=1",
        "--max-pieces",
        "100",
        "--games",
        games,
        "--jobs",
        "1",
        "--out",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([out.display().to_string()])
    .collect()
}

/// The lines of a results file, each parsed.
fn lines_of(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("unreadable line `{l}`: {e}")))
        .collect()
}

/// Writes `lines` as a results file.
fn write_lines(path: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// Waits until `path` has at least `lines` complete lines.
fn wait_for_lines(path: &Path, lines: usize, child: &mut Child) {
    let started = Instant::now();
    loop {
        let count = std::fs::read_to_string(path).map_or(0, |t| t.matches('\n').count());
        if count >= lines {
            return;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the writer ended ({status}) before {lines} lines");
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no {lines} lines in time");
        std::thread::sleep(Duration::from_millis(5));
    }
}

// Item 3: two processes on one --out file.

#[test]
fn a_second_writer_is_refused_while_the_first_runs_and_its_file_stays_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.jsonl");
    // Slow enough that the second process starts while the first still plays.
    let slow = format!("{}@mode=slow,sleep_us=3000", testkit());
    let args: Vec<String> = [
        "tournament",
        "--plugins",
        "random",
        &slow,
        "--games",
        "40",
        "--jobs",
        "1",
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut first = tetrad()
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&out, 3, &mut first);

    let mut resume = args.clone();
    resume.push("--resume".to_string());
    let second = tetrad().args(&resume).output().unwrap();
    assert_one_line_error(&second, &format!("{}: another tetrad is writing it", out.display()));
    assert_one_line_error(
        &tetrad().args(&args).output().unwrap(),
        &format!("{}: already exists", out.display()),
    );

    let finished = first.wait_with_output().unwrap();
    assert!(finished.status.success());
    let report: Value = serde_json::from_slice(&finished.stdout).unwrap();
    assert_eq!(report["games"], 80);
    let lines = lines_of(&out);
    assert_eq!(lines.len(), 81, "the header and every game, once");
    let mut games: Vec<(u64, u64)> = lines[1..]
        .iter()
        .map(|l| {
            (
                l["seats"][0]["result"]["index"].as_u64().unwrap(),
                l["seats"][0]["entrant"].as_u64().unwrap(),
            )
        })
        .collect();
    games.sort_unstable();
    games.dedup();
    assert_eq!(games.len(), 80);
    // Once the first has ended, the file is free to resume: nothing is left to play.
    let again = json(&tetrad().args(&resume).output().unwrap());
    assert_eq!(again["games"], 80);
}

#[test]
fn resume_appends_after_every_complete_line_and_drops_only_a_cut_off_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.jsonl");
    let mut child = tetrad()
        .args(quick(&out, "40"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&out, 5, &mut child);
    let _ = child.kill();
    let _ = child.wait();
    let mut before = std::fs::read(&out).unwrap();
    let complete = before.iter().rposition(|&b| b == b'\n').unwrap() + 1;
    before.truncate(complete);
    let mut cut = before.clone();
    cut.extend_from_slice(br#"{"kind":"fixture","game":1,"seed":5,"sea"#);
    std::fs::write(&out, &cut).unwrap();

    let mut resume = quick(&out, "40");
    resume.push("--resume".to_string());
    let output = tetrad().args(&resume).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let after = std::fs::read(&out).unwrap();
    assert!(
        after.starts_with(&before),
        "the lines written before the resume are kept as they were"
    );
    assert_eq!(lines_of(&out).len(), 81);
}

#[test]
fn a_second_tune_on_one_checkpoint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("t.json");
    let args: Vec<String> = [
        "tune",
        "--plugin",
        "bcts",
        "--options",
        "controller=dellacherie",
        "--params",
        "w1,w4",
        "--preset",
        "simplified",
        "--width",
        "6",
        "--height",
        "8",
        "--population",
        "4",
        "--games",
        "2",
        "--generations",
        "100000",
        "--max-pieces",
        "50",
        "--jobs",
        "1",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut first = tetrad()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !checkpoint.exists() {
        assert!(first.try_wait().unwrap().is_none(), "the first tune ended early");
        assert!(started.elapsed() < Duration::from_secs(120), "no checkpoint in time");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut resume = args.clone();
    resume.push("--resume".to_string());
    let second = tetrad().args(&resume).output().unwrap();
    let _ = first.kill();
    let _ = first.wait();
    assert_one_line_error(
        &second,
        &format!("{}: another tetrad tune is using this checkpoint", checkpoint.display()),
    );
    // Once the first has ended, the lock is gone with it: the next tune gets as far as
    // comparing its arguments with the checkpoint's.
    let mut more = resume.clone();
    let done = serde_json::from_str::<Value>(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap()["history"]
        .as_array()
        .unwrap()
        .len();
    let at = more.iter().position(|a| a == "--generations").unwrap() + 1;
    more[at] = (done + 1).to_string();
    let output = tetrad().args(&more).output().unwrap();
    assert_one_line_error(&output, "written for other tune arguments");
}

// Item 4: resume and merge trust what they read.

/// A finished four-game results file of two entrants, and its arguments.
fn finished(dir: &Path) -> (PathBuf, Vec<Value>) {
    let out = dir.join("done.jsonl");
    let output = tetrad().args(quick(&out, "4")).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let lines = lines_of(&out);
    assert_eq!(lines.len(), 9);
    (out, lines)
}

/// Resume and merge of `lines` both refuse with exactly `problem` at `line`.
fn both_refuse(dir: &Path, name: &str, lines: &[Value], line: usize, problem: &str) {
    let path = dir.join(name);
    write_lines(&path, lines);
    let expected = format!("{}:{line}: {problem}", path.display());
    let mut resume = quick(&path, "4");
    resume.push("--resume".to_string());
    assert_one_line_error(&tetrad().args(&resume).output().unwrap(), &expected);
    assert_one_line_error(&run(&["merge", path.to_str().unwrap()]), &expected);
}

#[test]
fn a_duplicated_game_line_is_refused_by_resume_and_merge_alike() {
    let dir = tempfile::tempdir().unwrap();
    let (_, mut lines) = finished(dir.path());
    let copy = lines[3].clone();
    lines.push(copy.clone());
    let (game, entrant) = (
        copy["seats"][0]["result"]["index"].clone(),
        copy["seats"][0]["entrant"].clone(),
    );
    let label = lines[0]["config"]["entrants"][entrant.as_u64().unwrap() as usize]["label"]
        .as_str()
        .unwrap()
        .to_string();
    both_refuse(
        dir.path(),
        "dup.jsonl",
        &lines,
        10,
        &format!("game {game} of entrant {entrant} (`{label}`) is already on line 4"),
    );
}

#[test]
fn a_game_past_the_game_count_an_unknown_entrant_or_a_foreign_seed_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, lines) = finished(dir.path());

    let mut past = lines.clone();
    past[5]["game"] = 25.into();
    past[5]["seats"][0]["result"]["index"] = 25.into();
    both_refuse(
        dir.path(),
        "past.jsonl",
        &past,
        6,
        "game 25 is past the tournament's 4 games (0 to 3)",
    );

    let mut stranger = lines.clone();
    stranger[2]["seats"][0]["entrant"] = 7.into();
    both_refuse(
        dir.path(),
        "stranger.jsonl",
        &stranger,
        3,
        "entrant 7 does not exist (the header lists 2)",
    );

    let mut foreign = lines.clone();
    let index = foreign[4]["seats"][0]["result"]["index"].as_u64().unwrap();
    foreign[4]["seats"][0]["result"]["seed"] = 12345.into();
    both_refuse(
        dir.path(),
        "foreign.jsonl",
        &foreign,
        5,
        &format!("game {index} has seed 12345, but game {index} of the tournament's seed 1 has seed"),
    );
}

#[test]
fn merge_counts_a_game_held_by_two_files_once_only_if_both_say_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let (path, lines) = finished(dir.path());
    let copy = dir.path().join("copy.jsonl");
    std::fs::copy(&path, &copy).unwrap();
    let merged = json(&run(&[
        "merge",
        path.to_str().unwrap(),
        copy.to_str().unwrap(),
        "--format",
        "json",
    ]));
    assert_eq!(merged["games"], 8, "two copies of one file are its games, once");

    let mut other = lines.clone();
    // A score, which no check bounds: only the other file can show it changed.
    let score = other[1]["seats"][0]["result"]["score"].as_u64().unwrap();
    other[1]["seats"][0]["result"]["score"] = (score + 1).into();
    let changed = dir.path().join("changed.jsonl");
    write_lines(&changed, &other);
    let game = &lines[1];
    assert_one_line_error(
        &run(&["merge", path.to_str().unwrap(), changed.to_str().unwrap()]),
        &format!(
            "{}:2: game {} of entrant {} differs from the same game at {}:2",
            changed.display(),
            game["seats"][0]["result"]["index"],
            game["seats"][0]["entrant"],
            path.display()
        ),
    );
}

// Item 6: panics and aborts on values and files.

#[test]
fn huge_counts_are_refused_in_one_line() {
    let max = u64::MAX.to_string();
    assert_one_line_error(
        &run(&["run", "--plugin", "random", "--games", &max]),
        "is not in 1..=1000000",
    );
    for population in [max.as_str(), "100000000"] {
        assert_one_line_error(
            &run(&["tune", "--plugin", "bcts", "--params", "w1", "--population", population]),
            "is not in 1..=100000",
        );
    }
    assert_one_line_error(
        &run(&["tournament", "--plugins", "random", "--games", &max]),
        "is not in 1..=1000000",
    );
    assert_one_line_error(
        &run(&["run", "--plugin", "random", "--jobs", "1000000"]),
        "is not in 1..=1024",
    );
    assert_one_line_error(
        &run(&[
            "tune",
            "--plugin",
            "bcts",
            "--params",
            "w1",
            "--population",
            "100000",
            "--games",
            "100",
        ]),
        "more than 1000000 games per generation",
    );
}

#[test]
fn tune_refuses_numbers_that_are_not_finite() {
    for (flag, value) in [
        ("--noise", "nan"),
        ("--noise", "-1"),
        ("--initial", "inf"),
        ("--initial", "1,nan"),
        ("--sd", "-inf"),
        ("--elite", "nan"),
    ] {
        let output = run(&["tune", "--plugin", "bcts", "--params", "w1", &format!("{flag}={value}")]);
        assert_one_line_error(&output, &format!("for '{flag}"));
        assert_eq!(output.status.code(), Some(2), "{flag} {value}");
    }
    assert_one_line_error(
        &run(&["tournament", "--plugins", "random", "random", "--sprt", "0,inf"]),
        "is not ELO0,ELO1",
    );
}

#[test]
fn endless_and_oversized_files_are_refused_with_their_cap() {
    assert_one_line_error(
        &run(&["tournament", "--plugins", "random", "--resume", "--out", "/dev/full"]),
        "/dev/full:1: a line longer than 16 MiB",
    );
    assert_one_line_error(&run(&["merge", "/dev/zero"]), "/dev/zero:1: a line longer than 16 MiB");
    assert_one_line_error(
        &run(&["run", "--plugin", "random", "--pieces", "/dev/zero"]),
        "/dev/zero: larger than 1 MiB",
    );
    assert_one_line_error(
        &run(&["replay", "--verify", "/dev/zero"]),
        "/dev/zero: larger than 256 MiB",
    );
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.toml");
    std::fs::write(&big, "#".repeat((1 << 20) + 1)).unwrap();
    assert_one_line_error(
        &run(&["run", "--plugin", "random", "--pieces", big.to_str().unwrap()]),
        &format!("{}: larger than 1 MiB", big.display()),
    );
}

#[test]
fn a_checkpoint_whose_mean_is_shorter_than_its_parameters_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("t.json");
    let args: Vec<String> = [
        "tune",
        "--plugin",
        "bcts",
        "--options",
        "controller=dellacherie",
        "--params",
        "w1,w4",
        "--preset",
        "simplified",
        "--width",
        "6",
        "--height",
        "8",
        "--population",
        "2",
        "--games",
        "1",
        "--generations",
        "2",
        "--max-pieces",
        "30",
        "--jobs",
        "1",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let output = tetrad().args(&args).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let mut saved: Value = serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    saved["history"].as_array_mut().unwrap().truncate(1);
    saved["mean"].as_array_mut().unwrap().truncate(1);
    std::fs::write(&checkpoint, saved.to_string()).unwrap();
    let mut resume = args.clone();
    resume.push("--resume".to_string());
    assert_one_line_error(
        &tetrad().args(&resume).output().unwrap(),
        &format!(
            "{}: not a usable tune checkpoint (current mean has 1 values for 2 parameters)",
            checkpoint.display()
        ),
    );
}

// Item 7: a piece whose rotation box is wider than the board.

#[test]
fn a_rotation_box_wider_than_the_board_is_refused_under_every_preset_and_plays_when_it_fits() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("boxed.toml");
    // A bar of five drawn in a box of six.
    let shape = "......\n......\n.#####\n......\n......\n......";
    std::fs::write(
        &set,
        format!("[[piece]]\nname = \"X\"\nshape = \"\"\"\n{shape}\n\"\"\"\n"),
    )
    .unwrap();
    for preset in ["classic", "leiden", "simplified"] {
        let narrow = run(&[
            "run",
            "--plugin",
            "random",
            "--pieces",
            set.to_str().unwrap(),
            "--preset",
            preset,
            "--width",
            "5",
        ]);
        assert_one_line_error(
            &narrow,
            "piece `X`: its rotations need a box of 6 columns, the board is 5 wide",
        );
        let fits = json(&run(&[
            "run",
            "--plugin",
            "random",
            "--pieces",
            set.to_str().unwrap(),
            "--preset",
            preset,
            "--width",
            "6",
            "--games",
            "3",
            "--format",
            "json",
        ]));
        for game in fits["games"].as_array().unwrap() {
            assert!(game["pieces"].as_u64().unwrap() > 0, "{preset}: {game}");
        }
    }
}
