//! TBP bots: the bundled Python bot (`plugins/tbp-python/stacker.py`) through the real
//! frontend, playing solo and versus, and misbehaving in each way the protocol allows.

use crate::common::*;
use std::path::{Path, PathBuf};

/// A manifest for the stacker with these extra arguments.
pub(crate) fn stacker(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let script = workspace().join("plugins/tbp-python/stacker.py");
    let mut command = vec!["python3".to_string(), script.display().to_string()];
    command.extend(args.iter().map(|a| a.to_string()));
    let quoted: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
    let manifest = dir.join(format!("{name}.toml"));
    std::fs::write(
        &manifest,
        format!(
            "name = \"{name}\"\ncommand = [{}]\nprotocol = \"tbp\"\n",
            quoted.join(", ")
        ),
    )
    .unwrap();
    manifest
}

fn guideline_run(plugin: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "run",
        "--plugin",
        plugin.to_str().unwrap(),
        "--preset",
        "guideline",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn a_whole_conversation_follows_the_protocol_and_the_bot_plays_well() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("transcript.txt");
    let bot = stacker(dir.path(), "stacker", &["--transcript", transcript.to_str().unwrap()]);
    let document = json(&guideline_run(&bot, &["--games", "1", "--max-pieces", "60"]));
    assert_eq!(document["plugin"]["flavour"], "tbp");
    let game = &document["games"][0];
    assert_eq!(
        (game["end"].as_str(), game["violations"].as_u64()),
        (Some("capped"), Some(0)),
        "{game}"
    );
    // A heuristic bot on an empty guideline board clears most of what 60 pieces can.
    assert!(game["lines"].as_u64().unwrap() >= 15, "{game}");
    let said = std::fs::read_to_string(&transcript).unwrap();
    let said: Vec<&str> = said.lines().collect();
    // One process: rules, one start, then for each piece a suggest and a play, and a
    // new_piece for each piece that joins the queue (two after a hold into an empty hold),
    // then stop and quit.
    assert_eq!(&said[..4], ["started", "rules", "start", "suggest"], "{said:?}");
    assert_eq!(said.last(), Some(&"quit"));
    let count = |kind: &str| said.iter().filter(|&&s| s == kind).count();
    assert_eq!(count("start"), 1, "solo, the bot is never restarted: {said:?}");
    assert_eq!(count("play"), 60);
    assert_eq!(count("suggest"), 60);
    assert!(count("new_piece") >= 59, "{said:?}");
    for pair in said.windows(2) {
        if pair[0] == "suggest" {
            assert_eq!(pair[1], "play", "{said:?}");
        }
    }
}

#[test]
fn one_process_plays_a_runs_games_one_after_another_until_one_fails() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("transcript.txt");
    let bot = stacker(dir.path(), "stacker", &["--transcript", transcript.to_str().unwrap()]);
    let args = ["--games", "3", "--jobs", "1", "--max-pieces", "10"];
    let document = json(&guideline_run(&bot, &args));
    assert_eq!(document["summary"]["games"], 3, "{document}");
    let said = std::fs::read_to_string(&transcript).unwrap();
    let count = |kind: &str| count_in(&said, kind);
    // The process that told the bot's info took the rules, and played every game.
    assert_eq!(
        (
            count("started"),
            count("rules"),
            count("start"),
            count("stop"),
            count("quit")
        ),
        (1, 1, 3, 3, 1),
        "{said}"
    );

    // A bot that crashes in each game is started again for the next.
    std::fs::remove_file(&transcript).unwrap();
    let crashing = stacker(
        dir.path(),
        "crashing",
        &["--mode", "crash", "--transcript", transcript.to_str().unwrap()],
    );
    let output = guideline_run(&crashing, &args);
    let document = forfeited_json(&output);
    assert_eq!(document["summary"]["games"], 3, "{document}");
    let said = std::fs::read_to_string(&transcript).unwrap();
    assert_eq!(count_in(&said, "started"), 3, "{said}");
}

fn count_in(said: &str, kind: &str) -> usize {
    said.lines().filter(|&s| s == kind).count()
}

#[test]
fn a_bot_that_first_answers_no_move_is_asked_again() {
    let dir = tempfile::tempdir().unwrap();
    let bot = stacker(dir.path(), "hesitant", &["--mode", "empty-first"]);
    let document = json(&guideline_run(&bot, &["--games", "1", "--max-pieces", "30"]));
    assert_eq!(document["games"][0]["end"], "capped", "{document}");
}

#[test]
fn silence_a_crash_and_an_illegal_move_each_forfeit_one_game_with_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    for (mode, end, cause) in [
        ("silent", "timeout", "no answer within"),
        ("crash", "crashed", "exited with code 3"),
        ("illegal", "plugin_error", "suggested no legal move"),
    ] {
        let bot = stacker(dir.path(), mode, &["--mode", mode]);
        let out = dir.path().join(format!("{mode}.jsonl"));
        let output = run(&[
            "tournament",
            "--plugins",
            bot.to_str().unwrap(),
            "--preset",
            "guideline",
            "--games",
            "1",
            "--think-limit-us",
            "300000",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(output.status.code().is_some(), "{}", stderr(&output));
        let games = crate::trust_isolation::games_in(&out);
        let result = &games[0]["result"];
        assert_eq!(result["end"], end, "{mode}: {result}");
        let error = result["error"].as_str().unwrap_or_default();
        assert!(error.contains(cause), "{mode}: `{cause}` not in `{error}`");
    }
}

#[test]
fn a_tbp_bot_plays_versus_against_a_library_bot_and_is_refused_other_rules() {
    let dir = tempfile::tempdir().unwrap();
    let bot = stacker(dir.path(), "stacker", &[]);
    let output = run(&[
        "versus",
        "--preset",
        "guideline",
        "--plugins",
        bot.to_str().unwrap(),
        "bcts",
        "--games",
        "2",
        "--max-pieces",
        "200",
        "--format",
        "json",
    ]);
    let document = json(&output);
    for game in document["games"].as_array().unwrap() {
        // A real game: both played, and it ended by a top-out or the cap, not a forfeit.
        let why = game["why"].as_str().unwrap();
        assert!(why.contains("topped_out") || why.contains("capped"), "{game}");
    }
    let refused = run(&[
        "run",
        "--plugin",
        bot.to_str().unwrap(),
        "--preset",
        "classic",
        "--games",
        "1",
    ]);
    assert_one_line_error(
        &refused,
        "a TBP bot plays the guideline preset on its 10x40 board, not classic 10x20",
    );
    // Without --preset a TBP bot plays the only rules it knows.
    let checked = run(&["check", bot.to_str().unwrap(), "--max-pieces", "50"]);
    let report = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{report}");
    assert!(report.contains("test game    guideline"), "{report}");
    let alone = run(&[
        "tournament",
        "--plugins",
        bot.to_str().unwrap(),
        "--games",
        "1",
        "--max-pieces",
        "20",
    ]);
    assert!(alone.status.success(), "{}", String::from_utf8_lossy(&alone.stderr));
    let with_options = run(&[
        "run",
        "--plugin",
        bot.to_str().unwrap(),
        "--preset",
        "guideline",
        "--options",
        "depth=3",
    ]);
    assert_one_line_error(
        &with_options,
        "a TBP bot takes no options but `think_ms` (`depth=3`); give it arguments in its manifest",
    );
    // The host's own option: how long the bot thinks, in place of its manifest's.
    let quick = run(&[
        "run",
        "--plugin",
        bot.to_str().unwrap(),
        "--options",
        "think_ms=1",
        "--games",
        "1",
        "--max-pieces",
        "20",
    ]);
    assert!(quick.status.success(), "{}", String::from_utf8_lossy(&quick.stderr));
}

#[test]
fn guideline_games_of_a_tbp_bot_and_of_a_holding_library_replay_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let bot = stacker(dir.path(), "stacker", &[]);
    for (plugin, options) in [(bot.to_str().unwrap(), ""), ("bcts", "hold=true")] {
        let replay = dir.path().join("game.replay");
        let played = run(&[
            "run",
            "--plugin",
            plugin,
            "--options",
            options,
            "--preset",
            "guideline",
            "--games",
            "1",
            "--max-pieces",
            "60",
            "--record",
            replay.to_str().unwrap(),
        ]);
        assert!(played.status.success(), "{}", stderr(&played));
        // The file keeps the SRS pieces: read back, I, S and Z still have four states.
        let verified = run(&["replay", replay.to_str().unwrap(), "--verify"]);
        assert!(verified.status.success(), "{plugin}: {}", stderr(&verified));
        assert!(stdout(&verified).starts_with("ok "), "{}", stdout(&verified));
    }
}

/// The `rules` and `start` messages a stacker logging whole messages read, in a run of one
/// guideline game of 3 pieces with `extra` arguments.
fn told(extra: &[&str]) -> (serde_json::Value, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("read.jsonl");
    let bot = stacker(dir.path(), "stacker", &["--log-json", log.to_str().unwrap()]);
    let mut args = vec!["--games", "1", "--max-pieces", "3"];
    args.extend_from_slice(extra);
    let output = guideline_run(&bot, &args);
    assert!(output.status.success(), "{}", stderr(&output));
    let read = std::fs::read_to_string(&log).unwrap();
    let messages: Vec<serde_json::Value> = read.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let first = |kind: &str| {
        messages
            .iter()
            .find(|m| m["type"] == kind)
            .unwrap_or_else(|| panic!("no `{kind}` in {read}"))
            .clone()
    };
    (first("rules"), first("start"))
}

#[test]
fn the_randomizer_told_is_the_bag_uniform_or_unknown_for_a_given_sequence() {
    // The guideline's 7-bag: named in `rules`, its state at the end of the queue in `start`.
    let (rules, start) = told(&[]);
    assert_eq!(rules["randomizer"], "seven_bag", "{rules}");
    assert_eq!(start["randomizer"]["type"], "seven_bag", "{start}");
    assert!(!start["randomizer"]["bag_state"].as_array().unwrap().is_empty());
    // Uniform: the same type in both, as the extension asks, and no more.
    let (rules, start) = told(&["--randomizer", "uniform"]);
    assert_eq!(rules["randomizer"], "uniform", "{rules}");
    assert_eq!(start["randomizer"], serde_json::json!({"type": "uniform"}), "{start}");
    // A given sequence is dealt by no randomizer: `unknown`, and no state in `start`.
    let dir = tempfile::tempdir().unwrap();
    let sequence = dir.path().join("pieces.txt");
    std::fs::write(&sequence, "T I O L J S Z T I O\n").unwrap();
    let (rules, start) = told(&["--sequence", sequence.to_str().unwrap()]);
    assert_eq!(rules["randomizer"], "unknown", "{rules}");
    assert!(start.get("randomizer").is_none(), "{start}");
    assert_eq!(start["queue"][0], "T", "{start}");
}

#[test]
fn move_info_is_recorded_per_game_and_shown_in_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let bot = stacker(dir.path(), "searching", &["--move-info"]);
    let plain = stacker(dir.path(), "plain", &[]);
    let results = dir.path().join("results.jsonl");
    let output = run(&[
        "tournament",
        "--preset",
        "guideline",
        "--plugins",
        bot.to_str().unwrap(),
        plain.to_str().unwrap(),
        "--games",
        "2",
        "--max-pieces",
        "20",
        "--jobs",
        "1",
        "--out",
        results.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&results).unwrap();
    let mut told = 0;
    for line in text.lines().skip(1) {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        for seat in record["seats"].as_array().into_iter().flatten().chain([&record]) {
            let Some(result) = seat.get("result") else { continue };
            let entrant = seat["entrant"].as_u64().unwrap();
            match (entrant, result.get("move_info")) {
                (0, Some(info)) => {
                    told += 1;
                    // One move a piece; the stacker rates at most 2 pieces x 4 turns x 10 columns.
                    assert_eq!(info["moves"], result["pieces"], "{line}");
                    let nodes = info["nodes"].as_f64().unwrap();
                    assert!(nodes > 0.0 && nodes <= 80.0, "{line}");
                    assert_eq!(info["depth"].as_f64(), Some(1.0), "{line}");
                    assert_eq!(info["nps"].as_f64(), Some(nodes * 1000.0), "{line}");
                }
                (1, None) => {}
                other => panic!("{other:?}: {line}"),
            }
        }
    }
    assert_eq!(told, 2, "{text}");
    let page = dir.path().join("report.html");
    let output = run(&["report", results.to_str().unwrap(), "--html", page.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let page = std::fs::read_to_string(&page).unwrap();
    let table = &page[page.find("<table id=\"search\">").expect("a search table")..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(
        table.matches("<td class=\"label\">searching</td>").count(),
        2,
        "{table}"
    );
    assert!(!table.contains("plain"), "{table}");
}
