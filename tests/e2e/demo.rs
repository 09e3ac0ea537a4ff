//! `tetrad demo`, `play` and `replay` (issue 7): the demo's state driven with real plugin
//! libraries, replays of `tetrad run` verified, the screens refusing a non-terminal, and
//! the demo on a real pseudo-terminal under tmux.

use crate::common::*;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use tetrad::plugin::Plugin;
use tetrad::replay::{RecordedEnd, Replay};
use tetrad::setup::Setup;
use tetrad::tui::{App, Session};

fn plugin(crate_name: &str, options: &str) -> (Plugin, String) {
    (Plugin::load(&built_plugin(crate_name)).unwrap(), options.to_string())
}

fn random() -> (Plugin, String) {
    plugin("tetrad-plugin-random", "")
}

fn setup(seed: u64, record: Option<PathBuf>) -> Session {
    Session {
        setup: Setup::default(),
        seed,
        record,
    }
}

fn press(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn type_text(app: &mut App, text: &str) {
    text.chars().for_each(|c| press(app, KeyCode::Char(c)));
}

/// Plays at full speed until the game ends.
fn play_out(app: &mut App) {
    for _ in 0..1000 {
        press(app, KeyCode::Char('+'));
    }
    let started = Instant::now();
    while app.end().is_none() {
        app.on_tick(Duration::from_millis(16));
        assert!(started.elapsed() < Duration::from_secs(30), "the game did not end");
    }
}

#[test]
fn tab_hands_the_game_to_the_next_plugin_which_plays_on_from_the_same_board() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("switch.json");
    let plugins = vec![random(), plugin("tetrad-plugin-tree-search", "")];
    let mut app = App::demo(setup(2, Some(path.clone())), plugins).unwrap();
    assert_eq!(
        (app.player(0), app.plugin_slot(0)),
        ("random 0.1.0".to_string(), Some((0, 2)))
    );
    for _ in 0..30 {
        press(&mut app, KeyCode::Char('s'));
    }
    assert!(app.paused());
    let before = app.tracked().game().clone();
    press(&mut app, KeyCode::Tab);
    assert_eq!(
        (app.player(0), app.plugin_slot(0)),
        ("tree-search 0.1.0".to_string(), Some((1, 2)))
    );
    assert_eq!(app.status(), Some("tree-search 0.1.0 plays on"));
    assert_eq!(app.stats(), before.stats(), "the same game goes on");
    assert_eq!(app.tracked().game().board(), before.board());
    for _ in 0..30 {
        press(&mut app, KeyCode::Char('s'));
    }
    assert_eq!(app.stats().ticks, 60);
    assert!(app.sides()[0].update_us().is_some());
    press(&mut app, KeyCode::Char('q'));
    assert!(app.should_quit());

    let replay = Replay::load(&path).unwrap();
    let names: Vec<(u64, &str)> = replay.seats[0]
        .players
        .iter()
        .map(|p| (p.from_tick, p.name.as_str()))
        .collect();
    assert_eq!(names, vec![(0, "random"), (30, "tree-search")]);
    let outcome = replay.verify().unwrap()[0];
    assert_eq!((outcome.ticks, outcome.end), (60, RecordedEnd::Unfinished));
}

#[test]
fn a_plugin_error_ends_the_game_and_another_plugin_can_play_on() {
    let plugins = vec![plugin("tetrad-testkit", "mode=panic,after=5"), random()];
    let mut app = App::demo(setup(1, None), plugins).unwrap();
    play_out(&mut app);
    assert_eq!(app.end(), Some(RecordedEnd::PluginError));
    assert!(
        app.error().unwrap().contains("testkit was told to panic at tick 6"),
        "{:?}",
        app.error()
    );
    assert_eq!(app.stats().ticks, 5);
    press(&mut app, KeyCode::Tab);
    assert_eq!((app.end(), app.error()), (None, None));
    play_out(&mut app);
    assert_eq!(app.end(), Some(RecordedEnd::ToppedOut));
}

#[test]
fn plugins_open_by_path_from_the_keyboard_and_a_refusal_keeps_the_player() {
    let mut app = App::demo(setup(1, None), vec![random()]).unwrap();
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.status(), Some("only one plugin is loaded; press o to open another"));
    press(&mut app, KeyCode::Char('o'));
    type_text(&mut app, "/nonexistent/lib.so");
    assert_eq!(app.prompt(), Some("/nonexistent/lib.so"));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.prompt(), None);
    assert_eq!(app.status(), Some("cannot open: /nonexistent/lib.so: no such file"));
    press(&mut app, KeyCode::Char('o'));
    type_text(&mut app, "typo");
    press(&mut app, KeyCode::Esc);
    assert_eq!((app.prompt(), app.should_quit()), (None, false));

    press(&mut app, KeyCode::Char('o'));
    type_text(
        &mut app,
        &built_plugin("tetrad-plugin-tree-search").display().to_string(),
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        (app.player(0), app.plugin_slot(0)),
        ("tree-search 0.1.0".to_string(), Some((1, 2)))
    );

    let plugins = vec![random(), plugin("tetrad-testkit", "mode=fail-create")];
    let mut app = App::demo(setup(1, None), plugins).unwrap();
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.player(0), "random 0.1.0");
    let status = app.status().unwrap();
    assert!(
        status.ends_with("create failed: testkit was told to fail at create"),
        "{status}"
    );
}

fn run_json(seed: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "run", "--plugin", "random", "--games", "3", "--seed", seed, "--format", "json",
    ];
    args.extend_from_slice(extra);
    json(&run(&args))
}

fn same_game(app: &App, game: &Value) {
    let stats = app.stats();
    let got = [stats.lines, stats.pieces, stats.score, stats.ticks];
    let want = ["lines", "pieces", "score", "ticks"].map(|k| game[k].as_u64().unwrap());
    assert_eq!(got, want);
}

#[test]
fn the_demo_plays_the_games_of_tetrad_run_with_the_same_seed() {
    let document = run_json("5", &[]);
    let games = document["games"].as_array().unwrap();
    let mut app = App::demo(setup(5, None), vec![random()]).unwrap();
    play_out(&mut app);
    same_game(&app, &games[0]);
    press(&mut app, KeyCode::Char('n'));
    play_out(&mut app);
    same_game(&app, &games[1]);
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.stats().ticks, 0);
    play_out(&mut app);
    same_game(&app, &games[1]);
}

#[test]
fn run_record_saves_game_0_and_replay_verify_confirms_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let file = path.to_str().unwrap();
    let document = run_json("8", &["--record", file, "--jobs", "2"]);
    let game = &document["games"][0];
    let replay = Replay::load(&path).unwrap();
    assert_eq!(replay.seed, game["seed"].as_u64().unwrap());
    assert_eq!(replay.seats[0].players.len(), 1);
    assert_eq!(replay.seats[0].players[0].name, "random");

    let output = run(&["replay", "--verify", file]);
    assert!(output.status.success(), "{}", stderr(&output));
    let expected = format!(
        "ok  {file}: {}, {}, {} points, {} ticks, ended topped_out (random 0.1.0)\n",
        tetrad::report::plural(game["lines"].as_u64().unwrap(), "line"),
        tetrad::report::plural(game["pieces"].as_u64().unwrap(), "piece"),
        game["score"],
        game["ticks"]
    );
    assert_eq!(stdout(&output), expected);

    let mut tampered = replay.clone();
    tampered.seats[0].result.pieces += 1;
    tampered.save(&path).unwrap();
    let output = run(&["replay", "--verify", file]);
    let message = format!(
        "tetrad: {file}: does not replay: recorded {} pieces, re-simulated {}",
        game["pieces"].as_u64().unwrap() + 1,
        game["pieces"]
    );
    assert_one_line_error(&output, &message);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn the_screens_need_a_terminal_and_say_what_to_run_instead() {
    let output = run(&["demo", "--plugin", "random"]);
    assert_one_line_error(
        &output,
        "tetrad: demo needs a terminal; use `tetrad run` for headless games",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_one_line_error(&run(&["play"]), "tetrad: play needs a terminal");
    assert_one_line_error(
        &run(&["replay", "game.json"]),
        "tetrad: replay needs a terminal; use `tetrad replay --verify FILE`",
    );
}

#[test]
fn real_time_play_checks_its_rules_and_says_in_one_line_where_the_terminal_cannot() {
    assert_one_line_error(
        &run(&["play", "--gravity", "0.02G"]),
        "tetrad: timing rules (gravity, lock delay) are played under preset guideline only, not classic",
    );
    assert_one_line_error(
        &run(&[
            "play",
            "--preset",
            "guideline",
            "--gravity",
            "guideline",
            "--lock-delay",
            "300",
        ]),
        "tetrad: play needs a terminal",
    );
    let tetrad = quoted(Path::new(env!("CARGO_BIN_EXE_tetrad")));
    let play = format!("{tetrad} play --preset guideline --gravity 1");
    let Some(tmux) = Tmux::start("realtime", &play) else {
        return;
    };
    // tmux does not report key releases (3.3 does not speak the kitty keyboard protocol).
    let started = Instant::now();
    let screen = loop {
        let screen = tmux.screen();
        if screen.contains("exited") || screen.contains("tetrad play") {
            break screen;
        }
        assert!(started.elapsed() < Duration::from_secs(5), "{screen}");
        std::thread::sleep(Duration::from_millis(50));
    };
    if screen.contains("tetrad play") {
        eprintln!("skipping: this tmux reports key releases");
        tmux.keys(&["q"]);
        return;
    }
    assert!(
        screen.contains("tetrad: terminal: this terminal does not report key releases (the kitty keyboard protocol)"),
        "{screen}"
    );
    assert!(screen.contains("exited 1"), "{screen}");
}

#[test]
fn real_time_play_against_a_bot_says_in_one_line_where_the_terminal_cannot() {
    let tetrad = quoted(Path::new(env!("CARGO_BIN_EXE_tetrad")));
    let play = format!("{tetrad} play --versus --gravity guideline --plugin bcts --countdown 0");
    let Some(tmux) = Tmux::start("live", &play) else {
        return;
    };
    let started = Instant::now();
    let screen = loop {
        let screen = tmux.screen();
        if screen.contains("exited") || screen.contains("play versus") {
            break screen;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{screen}");
        std::thread::sleep(Duration::from_millis(50));
    };
    if screen.contains("play versus") {
        eprintln!("skipping: this tmux reports key releases");
        tmux.keys(&["q"]);
        return;
    }
    assert!(
        screen.contains("tetrad: terminal: this terminal does not report key releases (the kitty keyboard protocol)"),
        "{screen}"
    );
    assert!(screen.contains("exited 1"), "{screen}");
}

/// A tmux server of our own, with one session running a command; killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `command` in a 100x40 pane, or `None` when tmux is not installed.
    fn start(name: &str, command: &str) -> Option<Tmux> {
        let found = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            eprintln!("skipping the pseudo-terminal test: tmux is not installed");
            return None;
        }
        let tmux = Tmux {
            socket: format!("tetrad-e2e-{name}-{}", std::process::id()),
        };
        // The shell reports the exit code and keeps the pane, so the screen after the
        // program ends can be read.
        let shell = format!("{command}; echo \"exited $?\"; sleep 30");
        tmux.run(&["new-session", "-d", "-x", "100", "-y", "40", &shell]);
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "tmux {args:?}: {}", stderr(&output));
        stdout(&output)
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.run(&["send-keys", key]);
        }
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p"])
    }

    /// Waits until the screen shows `needle` (or, with `present` false, stops showing it).
    fn wait(&self, needle: &str, present: bool) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) == present {
                return screen;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "waited for `{needle}` (present: {present}); the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}

fn quoted(path: &Path) -> String {
    format!("'{}'", path.display())
}

#[test]
fn the_demo_runs_on_a_pseudo_terminal_and_restores_it() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("demo.json");
    let tetrad = quoted(Path::new(env!("CARGO_BIN_EXE_tetrad")));
    let demo = format!(
        "{tetrad} demo --plugin random --plugin tree-search --seed 3 --record {}",
        quoted(&record)
    );
    let Some(tmux) = Tmux::start("demo", &demo) else {
        return;
    };
    let screen = tmux.wait("random 0.1.0", true);
    assert!(screen.contains("┌ tetrad demo"), "{screen}");
    for label in [
        "next",
        "lines",
        "level",
        "points",
        "pieces/s",
        "µs/update",
        "plugin 1 of 2",
    ] {
        // The panel may still be painting when the plugin's name shows; wait for each.
        tmux.wait(label, true);
    }
    // Three single ticks by random, then pause; the keys; tree-search takes over.
    tmux.keys(&["s", "s", "s"]);
    tmux.wait("PAUSED", true);
    tmux.keys(&["?"]);
    tmux.wait("switch to the next plugin", true);
    tmux.keys(&["Escape"]);
    tmux.wait("switch to the next plugin", false);
    tmux.keys(&["Tab"]);
    tmux.wait("tree-search 0.1.0 plays on", true);
    tmux.keys(&["s", "p"]);
    tmux.wait("PAUSED", false);
    tmux.keys(&["p"]);
    tmux.wait("PAUSED", true);
    tmux.keys(&["q"]);
    let screen = tmux.wait("exited 0", true);
    assert!(!screen.contains("tetrad demo"), "the terminal is restored:\n{screen}");
    drop(tmux);

    let replay = Replay::load(&record).unwrap();
    let players: Vec<(u64, &str)> = replay.seats[0]
        .players
        .iter()
        .map(|p| (p.from_tick, p.name.as_str()))
        .collect();
    assert_eq!(players, vec![(0, "random"), (3, "tree-search")]);
    assert!(replay.seats[0].actions.len() >= 4);
    assert_eq!(replay.verify().unwrap()[0].end, RecordedEnd::Unfinished);

    let Some(tmux) = Tmux::start("replay", &format!("{tetrad} replay {}", quoted(&record))) else {
        return;
    };
    let screen = tmux.wait("tick ", true);
    assert!(
        screen.contains("┌ tetrad replay") && screen.contains("random 0.1.0"),
        "{screen}"
    );
    tmux.keys(&["End"]);
    let ticks = replay.seats[0].actions.len();
    tmux.wait(&format!("tick {ticks} of {ticks}"), true);
    tmux.wait("tree-search 0.1.0", true);
    tmux.keys(&["q"]);
    tmux.wait("exited 0", true);
}

#[test]
fn the_demo_swaps_live_to_a_process_bot_opened_by_its_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("to-bot.json");
    let mut app = App::demo(setup(3, Some(path.clone())), vec![random()]).unwrap();
    for _ in 0..20 {
        press(&mut app, KeyCode::Char('s'));
    }
    let before = app.tracked().game().clone();
    press(&mut app, KeyCode::Char('o'));
    type_text(
        &mut app,
        &workspace().join("plugins/python/greedy.toml").display().to_string(),
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.status(), Some("greedy-py 0.1.0 plays on"), "{:?}", app.status());
    assert_eq!(app.tracked().game().board(), before.board(), "the same game goes on");
    for _ in 0..200 {
        press(&mut app, KeyCode::Char('s'));
    }
    assert!(app.stats().pieces > before.stats().pieces + 5, "the bot places pieces");
    assert_eq!(app.sides()[0].violations(), 0);
    press(&mut app, KeyCode::Char('q'));
    let replay = Replay::load(&path).unwrap();
    let names: Vec<&str> = replay.seats[0].players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["random", "greedy-py"]);
    replay.verify().unwrap();
}

fn versus_setup(seed: u64, record: Option<PathBuf>) -> Session {
    let mut session = setup(seed, record);
    session.setup.attack = Some(Default::default());
    session
}

#[test]
fn a_versus_demo_plays_the_game_of_tetrad_versus_with_the_same_seed() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("versus.json");
    let report = json(&run(&[
        "versus",
        "--plugins",
        "bcts",
        "tree-search",
        "--games",
        "1",
        "--seed",
        "4",
        "--format",
        "json",
    ]));
    let game = &report["games"][0];
    let plugins = vec![
        plugin("tetrad-plugin-bcts", ""),
        plugin("tetrad-plugin-tree-search", ""),
    ];
    let mut app = App::demo(versus_setup(4, Some(record.clone())), plugins).unwrap();
    assert_eq!(app.sides().len(), 2);
    assert_eq!(
        (app.player(0), app.player(1)),
        ("bcts 0.1.0".to_string(), "tree-search 0.1.0".to_string())
    );
    play_out(&mut app);
    // Both boards end in the same tick, as the headless match did, with its totals.
    for (seat, side) in app.sides().iter().enumerate() {
        let garbage = side.garbage().unwrap();
        let got = [side.stats().lines, side.stats().pieces, garbage.sent];
        let want = ["lines", "pieces", "sent"].map(|key| game[key][seat].as_u64().unwrap());
        assert_eq!(got, want, "seat {seat}");
    }
    let winner = app.sides().iter().position(|side| side.end() == Some(RecordedEnd::Won));
    let names = ["bcts", "tree-search"];
    assert_eq!(winner.map(|w| names[w]), game["winner"].as_str());
    // The recording holds both seats and re-simulates to the same ends.
    let replay = Replay::load(&record).unwrap();
    let outcomes = replay.verify().unwrap();
    let ends: Vec<_> = app.sides().iter().map(|side| side.end().unwrap()).collect();
    assert_eq!(outcomes.iter().map(|o| o.end).collect::<Vec<_>>(), ends);
    // Played back, the replay ends where the game did, and seeks in both boards.
    let mut playback = App::replay(tetrad::tui::Playback::new(replay).unwrap());
    assert_eq!(playback.sides().len(), 2);
    press(&mut playback, KeyCode::End);
    let finals: Vec<_> = playback.sides().iter().map(|side| (side.stats(), side.end())).collect();
    let played: Vec<_> = app.sides().iter().map(|side| (side.stats(), side.end())).collect();
    assert_eq!(finals, played);
    press(&mut playback, KeyCode::Home);
    assert!(playback
        .sides()
        .iter()
        .all(|side| side.stats().ticks == 0 && side.end().is_none()));
    play_out(&mut playback);
    let finals: Vec<_> = playback.sides().iter().map(|side| (side.stats(), side.end())).collect();
    assert_eq!(finals, played, "playing through gives what seeking gave");
}

#[test]
fn either_versus_board_swaps_its_plugin_live_and_the_other_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("swap.json");
    let plugins = vec![random(), plugin("tetrad-plugin-tree-search", "")];
    let mut app = App::demo(versus_setup(2, Some(record.clone())), plugins).unwrap();
    for _ in 0..20 {
        press(&mut app, KeyCode::Char('s'));
    }
    // Tab acts on the left board first; 2 selects the right one.
    press(&mut app, KeyCode::Char('2'));
    assert_eq!(app.selected(), 1);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.status(), Some("random 0.1.0 plays on"));
    assert_eq!(
        (app.player(0), app.player(1)),
        ("random 0.1.0".to_string(), "random 0.1.0".to_string())
    );
    press(&mut app, KeyCode::Char('1'));
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.player(0), "tree-search 0.1.0");
    for _ in 0..20 {
        press(&mut app, KeyCode::Char('s'));
    }
    assert!(app.sides().iter().all(|side| side.stats().ticks == 40), "lockstep");
    press(&mut app, KeyCode::Char('q'));
    let replay = Replay::load(&record).unwrap();
    let players = |seat: usize| -> Vec<(u64, String)> {
        replay.seats[seat]
            .players
            .iter()
            .map(|p| (p.from_tick, p.name.clone()))
            .collect()
    };
    assert_eq!(players(0), [(0, "random".to_string()), (20, "tree-search".to_string())]);
    assert_eq!(players(1), [(0, "tree-search".to_string()), (20, "random".to_string())]);
    let outcomes = replay.verify().unwrap();
    assert!(outcomes
        .iter()
        .all(|o| o.end == RecordedEnd::Unfinished && o.ticks == 40));
}

#[test]
fn a_person_plays_versus_a_plugin_in_lockstep() {
    let mut app = App::play_versus(versus_setup(3, None), random()).unwrap();
    assert_eq!(
        (app.player(0), app.player(1)),
        ("you".to_string(), "random 0.1.0".to_string())
    );
    // Each key is one tick of both games; random's pieces lock as it drops them.
    for _ in 0..10 {
        press(&mut app, KeyCode::Char(' '));
    }
    let ticks: Vec<u64> = app.sides().iter().map(|side| side.stats().ticks).collect();
    assert_eq!(ticks, [10, 10]);
    assert!(app.sides()[1].stats().pieces > 0);
    // Dropping to the end: once one board is out, both games are over.
    for _ in 0..10_000 {
        if app.end().is_some() {
            break;
        }
        press(&mut app, KeyCode::Char(' '));
    }
    let ends: Vec<_> = app.sides().iter().map(|side| side.end()).collect();
    assert!(ends.iter().all(Option::is_some), "{ends:?}");
    assert!(ends.iter().any(|end| end.unwrap().is_loss()), "{ends:?}");
}

#[test]
fn versus_on_a_pseudo_terminal_two_boards_a_live_swap_and_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("versus.json");
    let tetrad = quoted(Path::new(env!("CARGO_BIN_EXE_tetrad")));
    let demo = format!(
        "{tetrad} demo --versus --plugin bcts --plugin tree-search --seed 3 --record {}",
        quoted(&record)
    );
    let Some(tmux) = Tmux::start("versus", &demo) else {
        return;
    };
    let screen = tmux.wait("tree-search 0.1.0", true);
    assert!(screen.contains("demo versus · classic 10x20"), "{screen}");
    for label in ["┌ bcts 0.1.0", "waiting", "received", "plugin 2 of 2"] {
        tmux.wait(label, true);
    }
    // Pause, then hand the right board to bcts: the left plays on unchanged.
    tmux.keys(&["p", "2", "Tab"]);
    tmux.wait("bcts 0.1.0 plays on", true);
    tmux.keys(&["s", "s", "q"]);
    tmux.wait("exited 0", true);
    drop(tmux);
    let replay = Replay::load(&record).unwrap();
    assert_eq!(replay.seats.len(), 2);
    assert_eq!(replay.seats[1].players.len(), 2, "tree-search, then bcts");
    assert!(replay
        .verify()
        .unwrap()
        .iter()
        .all(|o| o.end == RecordedEnd::Unfinished));

    let Some(tmux) = Tmux::start("versus-replay", &format!("{tetrad} replay {}", quoted(&record))) else {
        return;
    };
    tmux.wait("replay versus", true);
    tmux.keys(&["End"]);
    let ticks = replay.seats[0].actions.len();
    let screen = tmux.wait(&format!("tick {ticks} of {ticks}"), true);
    assert_eq!(screen.matches("STOPPED").count(), 2, "{screen}");
    tmux.keys(&["q"]);
    tmux.wait("exited 0", true);

    let play = format!("{tetrad} play --versus --plugin random --seed 3");
    let Some(tmux) = Tmux::start("versus-play", &play) else {
        return;
    };
    let screen = tmux.wait("random 0.1.0", true);
    assert!(screen.contains("┌ you "), "{screen}");
    tmux.keys(&["q"]);
    tmux.wait("exited 0", true);
}

#[test]
fn the_demo_of_a_tbp_bot_plays_guideline_without_a_preset() {
    let dir = tempfile::tempdir().unwrap();
    let bot = crate::tbp::stacker(dir.path(), "stacker", &[]);
    let tetrad = quoted(Path::new(env!("CARGO_BIN_EXE_tetrad")));
    let demo = format!("{tetrad} demo --plugin {} --seed 3", quoted(&bot));
    let Some(tmux) = Tmux::start("tbp-demo", &demo) else {
        return;
    };
    // The panel names the rules: the protocol's own, not the classic default.
    tmux.wait("stacker 0.1.0", true);
    tmux.wait("guideline 10x40, bag", true);
    tmux.keys(&["q"]);
    tmux.wait("exited 0", true);
}
