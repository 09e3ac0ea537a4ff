//! `tetrad versus` and `tetrad tournament --versus`: two bots on one seeded sequence,
//! garbage between them, winners, Elo and ratings; results files resumed and merged.

use crate::common::*;
use serde_json::Value;
use std::path::Path;

fn versus(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["versus", "--format", "json"];
    args.extend_from_slice(extra);
    run(&args)
}

/// Every fixture line of a results file, without timings, in file order.
fn fixtures_in(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut fixtures: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["kind"] == "fixture")
        .map(|mut fixture| {
            for seat in fixture["seats"].as_array_mut().unwrap() {
                seat.as_object_mut().unwrap().remove("update_ns");
                let result = seat["result"].as_object_mut().unwrap();
                for timing in ["update_us_mean", "update_us_p99", "update_us_max"] {
                    result.remove(timing);
                }
            }
            fixture
        })
        .collect();
    fixtures.sort_by_key(|f| {
        (
            f["game"].as_u64(),
            f["seats"][0]["entrant"].as_u64(),
            f["seats"][1]["entrant"].as_u64(),
        )
    });
    fixtures
}

#[test]
fn a_strong_bot_sweeps_a_random_one() {
    let report = json(&versus(&["--plugins", "tree-search@depth=1", "random", "--games", "6"]));
    assert_eq!(report["score"], serde_json::json!({"wins": 6, "draws": 0, "losses": 0}));
    assert_eq!(report["elo"], Value::Null, "an infinite difference is written as null");
    assert!(report["los"].as_f64().unwrap() > 0.99, "{report}");
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["winner"], "tree-search@depth=1");
        assert!(game["why"].as_str().unwrap().starts_with("random "), "{game}");
    }
    // The winner cleared lines; the loser none.
    let lines = |seat: usize| -> u64 {
        report["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["lines"][seat].as_u64().unwrap())
            .sum()
    };
    assert!(lines(0) > 0 && lines(1) == 0, "{report}");
}

#[test]
fn twins_top_out_in_the_same_tick_and_draw() {
    // The same deterministic bot in both seats: the same pieces, the same garbage holes,
    // so the same boards tick for tick, and both games end in the same tick.
    let report = json(&versus(&["--plugins", "bcts", "bcts", "--games", "3"]));
    assert_eq!(report["score"], serde_json::json!({"wins": 0, "draws": 3, "losses": 0}));
    for game in report["games"].as_array().unwrap() {
        assert_eq!(game["winner"], Value::Null);
        assert_eq!(game["why"], "bcts topped_out, bcts#2 topped_out");
        assert_eq!(game["lines"][0], game["lines"][1]);
        assert!(game["sent"][0].as_u64().unwrap() > 0, "{game}");
    }
    assert_eq!(report["elo"], 0.0);
    // The piece cap is a draw too.
    let capped = json(&versus(&[
        "--plugins",
        "bcts",
        "random",
        "--games",
        "2",
        "--max-pieces",
        "3",
    ]));
    assert_eq!(capped["score"]["draws"], 2);
    assert_eq!(capped["games"][0]["why"], "bcts capped, random capped");
}

#[test]
fn the_same_seed_replays_the_same_match_and_another_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let play = |name: &str, seed: &str| {
        let out = dir.path().join(name);
        let args = [
            "--plugins",
            "tree-search@depth=1",
            "bcts",
            "--games",
            "4",
            "--seed",
            seed,
            "--max-pieces",
            "400",
            "--out",
            out.to_str().unwrap(),
        ];
        assert!(versus(&args).status.success());
        fixtures_in(&out)
    };
    let first = play("a.jsonl", "9");
    assert_eq!(first.len(), 4);
    assert_eq!(
        first,
        play("b.jsonl", "9"),
        "garbage holes and every decision come from the seed"
    );
    assert_ne!(first, play("c.jsonl", "10"));
    // Garbage arrived: some seat received rows, and no seat received more than the other sent.
    let received: u64 = first
        .iter()
        .map(|f| f["seats"][0]["result"]["received"].as_u64().unwrap_or(0))
        .sum();
    assert!(received > 0);
    for fixture in &first {
        let rows = |seat: usize, what: &str| fixture["seats"][seat]["result"][what].as_u64().unwrap_or(0);
        assert!(rows(0, "received") <= rows(1, "sent") && rows(1, "received") <= rows(0, "sent"));
    }
}

#[test]
fn a_versus_tournament_resumes_and_merges_to_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let args = |out: &str, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = [
            "tournament",
            "--versus",
            "--plugins",
            "bcts",
            "tree-search@depth=1",
            "random",
            "--games",
            "4",
            "--max-pieces",
            "300",
            "--format",
            "json",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(out.to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let run_args = |args: Vec<String>| run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let whole = json(&run_args(args(&path("whole.jsonl"), &[])));
    assert_eq!(whole["games"], 12, "4 games for each of 3 pairs");
    let rated = whole["rated"].as_array().unwrap();
    assert_eq!(rated.len(), 3);
    assert_eq!(rated.iter().map(|r| r["games"].as_u64().unwrap()).sum::<u64>(), 24);
    assert_eq!(rated.iter().map(|r| r["points"].as_f64().unwrap()).sum::<f64>(), 12.0);

    // Cut the file after its first 5 fixtures, as a kill would, and resume it.
    let text = std::fs::read_to_string(path("whole.jsonl")).unwrap();
    let cut: Vec<&str> = text.lines().take(6).collect();
    std::fs::write(path("cut.jsonl"), cut.join("\n") + "\n").unwrap();
    let resumed = json(&run_args(args(&path("cut.jsonl"), &["--resume"])));
    assert_eq!(
        fixtures_in(Path::new(&path("cut.jsonl"))),
        fixtures_in(Path::new(&path("whole.jsonl")))
    );
    assert_eq!(resumed["pairings"], whole["pairings"]);
    assert_eq!(resumed["rated"], whole["rated"]);

    // Two shards merge into the whole.
    for shard in ["1/2", "2/2"] {
        let out = path(&format!("shard{}.jsonl", &shard[..1]));
        assert!(run_args(args(&out, &["--shard", shard])).status.success());
    }
    let merged = json(&run(&[
        "merge",
        &path("shard1.jsonl"),
        &path("shard2.jsonl"),
        "--format",
        "json",
    ]));
    assert_eq!(merged["games"], 12);
    assert_eq!(merged["pairings"], whole["pairings"]);
    assert_eq!(merged["rated"], whole["rated"]);
}

#[test]
fn versus_refuses_what_it_cannot_play_in_one_line() {
    assert_one_line_error(
        &run(&["versus", "--plugins", "bcts", "random", "chasm"]),
        "tetrad versus plays exactly two plugins; 3 given",
    );
    assert_one_line_error(
        &run(&["tournament", "--plugins", "bcts", "random", "--attack", "0,1,2,4"]),
        "--attack sets the garbage of versus games",
    );
    assert_one_line_error(
        &run(&["versus", "--plugins", "bcts", "random", "--attack", "0,one"]),
        "`one` is not a number of rows",
    );
    // The screens check their versus options before they look for a terminal.
    assert_one_line_error(
        &run(&["demo", "--plugin", "bcts", "--attack", "1,2"]),
        "--attack sets the garbage of versus games: add --versus",
    );
    assert_one_line_error(
        &run(&["play", "--plugin", "random"]),
        "--plugin picks your opponent in `tetrad play --versus`",
    );
}

#[test]
fn an_isolated_seat_that_crashes_or_hangs_loses_and_the_match_goes_on() {
    let kit = testkit();
    for (mode, end) in [("segfault", "crashed"), ("exit", "crashed"), ("hang", "timeout")] {
        let misbehaving = format!("{kit}@mode={mode},after=5");
        let output = versus(&[
            "--plugins",
            "bcts",
            &misbehaving,
            "--games",
            "2",
            "--max-pieces",
            "100",
            "--isolate",
            "--think-limit-us",
            "200000",
        ]);
        let report = json(&output);
        assert_eq!(report["score"]["wins"], 2, "{mode}: {report}");
        for game in report["games"].as_array().unwrap() {
            assert_eq!(game["why"], format!("testkit@mode={mode},after=5 {end}"), "{mode}");
        }
    }
    // Isolated or not, a well-behaved match is the same match.
    let plain = [
        "--plugins",
        "bcts",
        "tree-search@depth=1",
        "--games",
        "2",
        "--max-pieces",
        "200",
    ];
    let isolated: Vec<&str> = plain.iter().copied().chain(["--isolate"]).collect();
    let games = |args: &[&str]| json(&versus(args))["games"].clone();
    assert_eq!(games(&plain), games(&isolated));
    // So under guideline, where a seat is shown the SRS pieces, the queue and the hold
    // slot through the protocol, and holds.
    let plain = [
        "--preset",
        "guideline",
        "--plugins",
        "bcts@hold=true",
        "bcts",
        "--games",
        "2",
        "--max-pieces",
        "300",
    ];
    let isolated: Vec<&str> = plain.iter().copied().chain(["--isolate"]).collect();
    assert_eq!(games(&plain), games(&isolated));
}

#[test]
fn a_recorded_versus_game_verifies_and_a_tampered_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("versus.json");
    let path = file.to_str().unwrap();
    for isolate in [false, true] {
        let mut args = vec![
            "--plugins",
            "bcts",
            "tree-search@depth=1",
            "--games",
            "2",
            "--record",
            path,
        ];
        if isolate {
            args.push("--isolate");
        }
        let report = json(&versus(&args));
        let verified = run(&["replay", "--verify", path]);
        assert!(verified.status.success(), "{}", stderr(&verified));
        let line = stdout(&verified);
        // Both seats, in order, with the ends the match reported for game 0.
        let game = &report["games"][0];
        let (first, second) = line.split_once(" | ").expect("two seats");
        assert!(first.contains(&format!("{} lines", game["lines"][0])), "{line}");
        assert!(second.contains(&format!("{} lines", game["lines"][1])), "{line}");
        let winner_first = game["winner"] == "bcts";
        assert_eq!(first.contains("ended won"), winner_first, "{line}");
    }
    // A changed result does not replay, and the error names the seat.
    let mut replay: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    replay["seats"][1]["result"]["lines"] = (replay["seats"][1]["result"]["lines"].as_u64().unwrap() + 1).into();
    std::fs::write(&file, replay.to_string()).unwrap();
    assert_one_line_error(&run(&["replay", "--verify", path]), "does not replay: seat 2: recorded");
    // A solo tournament has no versus game to record.
    assert_one_line_error(
        &run(&["tournament", "--plugins", "bcts", "random", "--record", path]),
        "--record saves a versus game",
    );
}

#[test]
fn sprt_stops_a_match_at_the_same_game_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("jobs{jobs}.jsonl"));
        let args = [
            "--plugins",
            "tree-search@depth=1",
            "random",
            "--games",
            "1000",
            "--sprt",
            "0,50",
            "--jobs",
            jobs,
            "--out",
            out.to_str().unwrap(),
        ];
        let report = json(&versus(&args));
        // The test counts games in order, and stops at the first that decides it.
        assert_eq!(report["sprt"]["verdict"], "H1", "{report}");
        let games = report["games"].as_array().unwrap();
        let indices: Vec<u64> = games.iter().map(|g| g["game"].as_u64().unwrap()).collect();
        assert_eq!(indices, (0..games.len() as u64).collect::<Vec<_>>());
        assert!(games.len() < 100, "stopped early: {}", games.len());
        // A resume of the decided file plays nothing more and reports the same.
        let mut resumed = args.to_vec();
        resumed.push("--resume");
        assert_eq!(json(&versus(&resumed))["sprt"], report["sprt"]);
        reports.push(report);
    }
    assert_eq!(reports[0]["games"], reports[1]["games"]);
    assert_eq!(reports[0]["sprt"], reports[1]["sprt"]);
}

/// Replays a recorded match seat by seat and checks each lock against the garbage rules:
/// an attack cancels waiting rows before any go out, what still waits rises on the lock
/// and only then, each batch full but for one hole in one column.
#[test]
fn in_real_games_garbage_cancels_first_and_rises_on_the_lock_one_hole_a_batch() {
    use tetrad::engine::Game;
    use tetrad::replay::Replay;
    use tetrad_plugin_api::Actions;

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("match.json");
    let path = file.to_str().unwrap();
    // A generous table, so that the bots' singles and doubles send garbage too.
    let args = [
        "--plugins",
        "bcts",
        "tree-search@depth=1",
        "--games",
        "1",
        "--attack",
        "1,2,3,4",
    ];
    versus(&[&args[..], &["--record", path]].concat());
    let replay = Replay::load(&file).unwrap();
    let setup = &replay.setup;
    let attack = setup.attack.clone().unwrap();
    let mut games: Vec<Game> = (0..2)
        .map(|_| {
            let mut game = Game::new(setup.rules, setup.pieces.clone(), replay.seed);
            game.enable_garbage(attack.clone(), replay.seed);
            game
        })
        .collect();
    let width = setup.rules.width as u32;
    let (mut cancelled, mut risen, mut tall_batches) = (0, 0, 0);
    // The batches waiting at each seat, in arrival order, as row counts.
    let mut batches: [std::collections::VecDeque<u64>; 2] = Default::default();
    let longest = replay.seats.iter().map(|s| s.actions.len()).max().unwrap();
    for tick in 0..longest {
        for (seat, game) in games.iter_mut().enumerate() {
            let Some(&bits) = replay.seats[seat].actions.get(tick) else {
                continue;
            };
            let garbage = game.garbage().unwrap();
            let (waiting, sent, received) = (garbage.pending(), garbage.sent, garbage.received);
            let report = game.tick(Actions(bits));
            let garbage = game.garbage().unwrap();
            let Some(locked) = report.locked else {
                assert_eq!(
                    (garbage.pending(), garbage.received),
                    (waiting, received),
                    "rises only on a lock"
                );
                continue;
            };
            let rows = u64::from(attack.rows(locked.lines));
            let cancels = rows.min(u64::from(waiting));
            assert_eq!(
                garbage.sent - sent,
                rows - cancels,
                "tick {tick}: the attack cancels first"
            );
            if report.topped_out {
                continue;
            }
            let rose = garbage.received - received;
            assert_eq!(rose, u64::from(waiting) - cancels, "tick {tick}: the rest rises now");
            assert_eq!(garbage.pending(), 0);
            // The risen rows are the bottom ones, each missing exactly one cell; this
            // checks every row, and the hole columns below check each batch.
            let board = game.board().rows();
            for row in &board[board.len() - rose as usize..] {
                assert_eq!(row.count_ones(), width - 1, "tick {tick}: one hole a row");
            }
            // Cancelling eats the oldest batches first; the rest rise in arrival order,
            // each pushing the earlier ones up, so from the top down they come oldest first.
            let mut cancelling = cancels;
            while cancelling > 0 {
                let front = batches[seat].front_mut().unwrap();
                let eaten = cancelling.min(*front);
                (*front, cancelling) = (*front - eaten, cancelling - eaten);
                if *front == 0 {
                    batches[seat].pop_front();
                }
            }
            let mut top = board.len() - rose as usize;
            for rows in batches[seat].drain(..) {
                let batch = &board[top..top + rows as usize];
                assert!(
                    batch.iter().all(|row| *row == batch[0]),
                    "tick {tick}: one hole column a batch"
                );
                top += rows as usize;
                tall_batches += u32::from(rows > 1);
            }
            cancelled += cancels;
            risen += rose;
        }
        let sent: Vec<u32> = games.iter_mut().map(Game::take_outgoing).collect();
        for (seat, rows) in sent.into_iter().enumerate() {
            games[1 - seat].receive(rows);
            if rows > 0 {
                batches[1 - seat].push_back(u64::from(rows));
            }
        }
    }
    assert!(
        cancelled > 0 && risen > 0 && tall_batches > 0,
        "this game cancels ({cancelled} rows) and raises garbage ({risen} rows, {tall_batches} batches of several)"
    );
    // The same seed draws the same holes: the whole match plays again identically.
    let again = json(&versus(&args));
    let first = json(&versus(&args));
    assert_eq!(again["games"], first["games"]);
}
