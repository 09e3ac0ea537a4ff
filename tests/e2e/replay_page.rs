//! Replay pages (`tetrad replay FILE --html OUT`): written for a verified replay, refused
//! for one that does not verify, and opened in headless Chromium, whose screenshot at
//! piece N must show the engine's board at piece N. The browser tests run when Chromium
//! is installed, and must run when TETRAD_BROWSER_TESTS=1 (CI sets it).

use crate::common::{assert_one_line_error, run, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::Command;
use tetrad::engine::{Game, TickReport};
use tetrad::replay::{Replay, Watcher};
use tetrad_plugin_api::Actions;

/// Records game 0 of `args` (a `run` or `versus` command line) into `dir/name`.
fn record(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let file = dir.join(name);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--record", file.to_str().unwrap()]);
    let output = run(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    file
}

fn page_of(replay: &Path, out: &Path) -> String {
    let output = run(&["replay", replay.to_str().unwrap(), "--html", out.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains(" bytes from "), "{}", stdout(&output));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn a_replay_that_does_not_verify_gets_no_page() {
    let dir = tempfile::tempdir().unwrap();
    let replay = record(
        dir.path(),
        "game.json",
        &["run", "--plugin", "tree-search", "--games", "1", "--max-pieces", "30"],
    );
    let good = dir.path().join("good.html");
    let html = page_of(&replay, &good);
    assert!(html.contains("id=\"game\""));
    let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    value["seats"][0]["result"]["lines"] = (value["seats"][0]["result"]["lines"].as_u64().unwrap() + 1).into();
    let tampered = dir.path().join("tampered.json");
    std::fs::write(&tampered, value.to_string()).unwrap();
    let out = dir.path().join("tampered.html");
    let output = run(&["replay", tampered.to_str().unwrap(), "--html", out.to_str().unwrap()]);
    assert_one_line_error(&output, "does not replay");
    assert!(!out.exists(), "a page was written for a game that does not verify");
}

/// Headless Chromium, if it is installed; a test that must run fails without it.
pub(crate) fn chromium() -> Option<PathBuf> {
    let forced = std::env::var("TETRAD_BROWSER_TESTS").is_ok_and(|v| v == "1");
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists());
    assert!(
        found.is_some() || !forced,
        "TETRAD_BROWSER_TESTS=1 but no chromium: install it (apt-get install chromium)"
    );
    found
}

/// Runs headless Chromium on `url` with `extra` flags in a fresh profile; returns its
/// standard output and its log.
fn browse(chromium: &Path, url: &str, extra: &[&str]) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    // A browser that hangs fails the test after a minute rather than holding up the run.
    let output = Command::new("timeout")
        .arg("60")
        .arg(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
            "--window-size=1100,900",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        output.status.success(),
        "chromium failed ({}): {}",
        output.status,
        stderr(&output)
    );
    (stdout(&output), stderr(&output))
}

/// Every seat's game right after seat 0's `piece`th lock, as the engine re-simulates the
/// replay (the frame the page opens at with `#piece=N`).
struct AtPiece {
    piece: u64,
    latest: Vec<Vec<Vec<char>>>,
    seats: Option<Vec<Vec<Vec<char>>>>,
}

/// A game's shown rows as the page should draw them: `#` for a locked cell, the falling
/// piece's cells by its kind's index, `.` for an empty cell.
fn drawn(game: &Game) -> Vec<Vec<char>> {
    let rules = game.rules();
    let board = game.board();
    let mut rows: Vec<Vec<char>> = rules
        .shown_rows()
        .map(|y| {
            (0..rules.width)
                .map(|x| if board.filled(x, y) { '#' } else { '.' })
                .collect()
        })
        .collect();
    if let Some(falling) = game.current() {
        let shape = game.pieces().kind(falling.piece).orientation(falling.pos.orientation);
        for &(dx, dy) in shape.cells() {
            let (x, y) = (i32::from(falling.pos.x + dx), i32::from(falling.pos.y + dy));
            let row = y - rules.shown_rows().start as i32;
            if (0..rules.width as i32).contains(&x) && (0..rows.len() as i32).contains(&row) {
                rows[row as usize][x as usize] = char::from_digit(u32::from(falling.piece.0), 36).unwrap();
            }
        }
    }
    rows
}

impl Watcher for AtPiece {
    fn start(&mut self, games: &[Game]) {
        self.latest = games.iter().map(drawn).collect();
    }
    fn tick(&mut self, seat: usize, _: Actions, report: &TickReport, game: &Game) {
        if self.seats.is_some() {
            return;
        }
        self.latest[seat] = drawn(game);
        if seat == 0 && report.locked.is_some() && game.stats().pieces == self.piece {
            self.seats = Some(self.latest.clone());
        }
    }
    fn round_over(&mut self, _: &[Game]) {}
}

/// The page of `replay` opened at `#piece=N` shows no console message, and its board's
/// cells are the engine's: empty cells dark, locked cells lit, the falling piece in its
/// kind's colour.
fn check_in_browser(chromium: &Path, dir: &Path, replay: &Path, piece: u64) {
    let html = dir.join(format!("{}.html", replay.file_stem().unwrap().to_string_lossy()));
    let page = page_of(replay, &html);
    let data: serde_json::Value = {
        let start = page.find("id=\"game\">").unwrap() + "id=\"game\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end].replace("\\u003c", "<")).unwrap()
    };
    let url = format!("file://{}#piece={piece}", html.display());
    let (dom, log) = browse(chromium, &url, &["--dump-dom"]);
    let console: Vec<&str> = log.lines().filter(|l| l.contains("CONSOLE")).collect();
    assert!(console.is_empty(), "the page wrote to the console: {console:?}");
    // The page's script writes what it found on the body element.
    let body = &dom[dom.find("<body").unwrap()..];
    let body = &body[..body.find('>').unwrap()];
    assert!(!body.contains("data-problem"), "the page found a problem: {body}");
    let attribute = |name: &str| -> String {
        let at = body
            .find(&format!("{name}=\""))
            .unwrap_or_else(|| panic!("no {name} in {body}"));
        let rest = &body[at + name.len() + 2..];
        rest[..rest.find('"').unwrap()].to_string()
    };
    let ready_ms: f64 = attribute("data-ready-ms").parse().unwrap();
    assert!(ready_ms > 0.0);

    let loaded = Replay::load(replay).unwrap();
    let mut watcher = AtPiece {
        piece,
        latest: Vec::new(),
        seats: None,
    };
    loaded.verify_watched(&mut watcher).unwrap();
    let seats = watcher.seats.expect("the game reaches the piece");

    let shot = dir.join("shot.png");
    browse(chromium, &url, &[&format!("--screenshot={}", shot.display())]);
    let colours: Vec<String> = data["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["colour"].as_str().unwrap().trim_start_matches('#').to_string())
        .collect();
    let garbage = data["colours"]["garbage"].as_str().unwrap().trim_start_matches('#');
    let mut lit = 0;
    for (seat, expected) in seats.iter().enumerate() {
        let board: Vec<i64> = attribute(&format!("data-board-{seat}"))
            .split(',')
            .map(|n| n.parse().unwrap())
            .collect();
        let script = crate::common::workspace().join("tests/e2e/fixtures/png_cells.py");
        let output = Command::new("python3")
            .arg(&script)
            .arg(&shot)
            .args([board[0], board[1], board[2]].map(|n| n.to_string()))
            .args([expected[0].len().to_string(), expected.len().to_string()])
            .output()
            .expect("run python3");
        assert!(output.status.success(), "{}", stderr(&output));
        let shown = stdout(&output);
        assert_eq!(shown.lines().count(), expected.len());
        for (y, (want, got)) in expected.iter().zip(shown.lines()).enumerate() {
            for (x, (&cell, pixel)) in want.iter().zip(got.split(' ')).enumerate() {
                let at = format!(
                    "seat {} row {y} column {x} at piece {piece} of {}",
                    seat + 1,
                    replay.display()
                );
                match cell {
                    '.' => assert_eq!(pixel, "000000", "{at}: an empty cell drawn {pixel}"),
                    '#' => {
                        assert!(
                            colours.iter().any(|c| c == pixel) || pixel == garbage,
                            "{at}: a locked cell drawn {pixel}, not a piece's colour"
                        );
                        lit += 1;
                    }
                    kind => {
                        let kind = kind.to_digit(36).unwrap() as usize;
                        assert_eq!(pixel, colours[kind], "{at}: the falling piece's cell");
                    }
                }
            }
        }
    }
    assert!(lit > 0, "the board at piece {piece} has no locked cell to compare");
}

#[test]
fn a_page_in_chromium_shows_the_engines_board() {
    let Some(chromium) = chromium() else {
        eprintln!("no chromium: the browser test did not run");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let classic = record(
        dir.path(),
        "classic.json",
        &["run", "--plugin", "tree-search", "--games", "1", "--max-pieces", "60"],
    );
    check_in_browser(&chromium, dir.path(), &classic, 37);
    let guideline = record(
        dir.path(),
        "versus.json",
        &[
            "versus",
            "--plugins",
            "bcts@hold=true",
            "tree-search@depth=1",
            "--preset",
            "guideline",
            "--games",
            "1",
            "--max-pieces",
            "60",
        ],
    );
    check_in_browser(&chromium, dir.path(), &guideline, 41);
    // On the wall clock the seats' ticks interleave as their times fell.
    let realtime = record(
        dir.path(),
        "realtime.json",
        &[
            "versus",
            "--plugins",
            "bcts@hold=true",
            "tree-search@depth=1",
            "--preset",
            "guideline",
            "--pace",
            "realtime",
            "--pps",
            "50",
            "--move-ms",
            "1",
            "--games",
            "1",
            "--max-pieces",
            "60",
        ],
    );
    check_in_browser(&chromium, dir.path(), &realtime, 33);
}

#[test]
fn every_game_is_recorded_and_the_report_links_its_page() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let games = dir.path().join("results.games");
    let output = run(&[
        "versus",
        "--plugins",
        "tree-search@depth=1",
        "bcts",
        "--games",
        "3",
        "--max-pieces",
        "40",
        "--out",
        results.to_str().unwrap(),
        "--record-games",
        games.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    for game in 0..3 {
        let file = games.join(format!("game-{game}-0-1.json"));
        let verified = run(&["replay", "--verify", file.to_str().unwrap()]);
        assert!(verified.status.success(), "game {game}: {}", stderr(&verified));
    }
    // Game 1's replay is tampered with: the report draws the others, and says why not it.
    let tampered = games.join("game-1-0-1.json");
    let text = std::fs::read_to_string(&tampered).unwrap();
    std::fs::write(&tampered, text.replacen("\"seed\":", "\"seed\":1", 1)).unwrap();
    // The folder is found beside the results file.
    let html = dir.path().join("report.html");
    let output = run(&["report", results.to_str().unwrap(), "--html", html.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("2 game pages drawn"), "{}", stdout(&output));
    let report = std::fs::read_to_string(&html).unwrap();
    for section in ["id=\"ratings\"", "id=\"garbage\"", "id=\"pairwise\"", "id=\"games\""] {
        assert!(report.contains(section), "no {section} in the report");
    }
    assert!(report.contains("href=\"report-games/game-0-0-1.html\""));
    assert!(report.contains("href=\"report-games/game-2-0-1.html\""));
    assert!(!report.contains("href=\"report-games/game-1-0-1.html\""));
    assert!(dir.path().join("report-games/game-2-0-1.html").exists());
    assert!(!dir.path().join("report-games/game-1-0-1.html").exists());
    // A solo tournament records every game too, and isolated, a library's games are
    // recorded as it plays them as a bot process: the same games as in process.
    let games = ["game-0-0", "game-0-1", "game-1-0", "game-1-1"];
    let record_solo = |folder: &str, extra: &[&str]| -> std::path::PathBuf {
        let out = dir.path().join(folder);
        let mut args = vec!["tournament"];
        args.extend_from_slice(extra);
        args.extend([
            "--plugins",
            "random",
            "bcts",
            "--games",
            "2",
            "--max-pieces",
            "20",
            "--record-games",
        ]);
        args.push(out.to_str().unwrap());
        let output = run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        for name in games {
            let file = out.join(format!("{name}.json"));
            let verified = run(&["replay", "--verify", file.to_str().unwrap()]);
            assert!(verified.status.success(), "{name}: {}", stderr(&verified));
        }
        out
    };
    let solo = record_solo("solo", &[]);
    let isolated = record_solo("isolated", &["--isolate"]);
    let actions = |path: std::path::PathBuf| -> serde_json::Value {
        let replay: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        replay["seats"][0]["actions"].clone()
    };
    for name in games {
        let file = format!("{name}.json");
        assert_eq!(actions(isolated.join(&file)), actions(solo.join(&file)), "{name}");
    }
}

#[test]
fn a_player_is_named_with_its_options_on_its_page_and_when_verified() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "versus",
        "--plugins",
        "tree-search@depth=1",
        "tree-search",
        "--games",
        "1",
        "--max-pieces",
        "20",
    ];
    let replay = record(dir.path(), "game.json", &args);
    let verified = run(&["replay", "--verify", replay.to_str().unwrap()]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    let text = stdout(&verified);
    let version = env!("CARGO_PKG_VERSION");
    assert!(text.contains(&format!("(tree-search@depth=1 {version})")), "{text}");
    assert!(text.contains(&format!("(tree-search {version})")), "{text}");
    let page = page_of(&replay, &dir.path().join("game.html"));
    assert!(page.contains(&format!("\"players\":[\"tree-search@depth=1 {version}\"]")));
    // The seed as the command line and the terminal write it.
    assert!(page.contains("\"seed\":\"0x"), "the seed is not in hex");
}

#[test]
fn a_report_finds_the_games_where_the_tournament_recorded_them() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("t.jsonl");
    let recorded = dir.path().join("recorded");
    let output = run(&[
        "tournament",
        "--plugins",
        "random",
        "tree-search@depth=1",
        "--games",
        "3",
        "--max-pieces",
        "20",
        "--out",
        results.to_str().unwrap(),
        "--record-games",
        recorded.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The games in the file in the reverse of their order: the report sorts them.
    let text = std::fs::read_to_string(&results).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    std::fs::write(&results, lines.join("\n") + "\n").unwrap();
    // Run from elsewhere: the folder is found from the results file's.
    let elsewhere = tempfile::tempdir().unwrap();
    let report = crate::common::tetrad()
        .current_dir(elsewhere.path())
        .args(["report", results.to_str().unwrap(), "--html", "r.html"])
        .output()
        .unwrap();
    assert!(report.status.success(), "{}", stderr(&report));
    assert!(stdout(&report).contains("6 game pages drawn"), "{}", stdout(&report));
    let page = std::fs::read_to_string(elsewhere.path().join("r.html")).unwrap();
    let order: Vec<usize> = ["game-0-0", "game-0-1", "game-1-0", "game-1-1", "game-2-0", "game-2-1"]
        .iter()
        .map(|name| {
            page.find(&format!("href=\"r-games/{name}.html\""))
                .unwrap_or_else(|| panic!("no link to {name}"))
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "games out of order: {order:?}");
    let game = std::fs::read_to_string(elsewhere.path().join("r-games/game-1-1.html")).unwrap();
    assert!(game.contains("<a href=\"../r.html\">"), "no link back to the report");
    // Its legend names every piece in its colour.
    for (name, colour) in ["I", "O", "T", "S", "Z", "J", "L"].iter().zip(tetrad::palette::PIECES) {
        let entry = format!("style=\"background:{}\"></span>{name}</span>", colour.hex());
        assert!(game.contains(&entry), "no legend entry {entry}");
    }
}
