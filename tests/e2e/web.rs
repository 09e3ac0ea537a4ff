//! `tetrad play --web` through raw HTTP: only this server's Host, Origin and token get in
//! (DNS rebinding and cross-site requests refused), a second page cannot take over a
//! running game, and a game played with timed key events is recorded and verifies.

use crate::common::*;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server, killed when dropped.
pub(crate) struct Server {
    child: Child,
    pub(crate) port: u16,
    pub(crate) token: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn server(dir: &std::path::Path) -> Server {
    server_with(dir, &[])
}

/// The server with `extra` arguments.
fn server_with(dir: &std::path::Path, extra: &[&str]) -> Server {
    server_of(dir, "bcts", extra)
}

/// The server playing `plugin`, with `extra` arguments.
pub(crate) fn server_of(dir: &std::path::Path, plugin: &str, extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["play", "--web", "--plugin", plugin, "--gravity", "1/60", "--pps", "2"])
        .args(["--countdown", "200", "--record-games", dir.to_str().unwrap()])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.trim().to_string();
    let rest = url.strip_prefix("http://127.0.0.1:").expect(&url);
    let (port, token) = rest.split_once("/?token=").unwrap();
    Server {
        port: port.parse().unwrap(),
        token: token.to_string(),
        child,
    }
}

/// Sends `head` (with `\r\n` line ends added and the blank line) and `body`; the status
/// code and the body of the response.
fn request(port: u16, head: &[String], body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let mut text = head.join("\r\n");
    text.push_str(&format!(
        "\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    stream.write_all(text.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// The page's event stream: its messages, one JSON value each.
struct Events(BufReader<TcpStream>);

impl Events {
    fn open(s: &Server) -> Result<Events, u16> {
        let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
        let head = format!(
            "GET /events?token={} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            s.token, s.port
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        let code: u16 = status[9..12].parse().unwrap();
        if code != 200 {
            return Err(code);
        }
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                return Ok(Events(reader));
            }
        }
    }

    /// The next message of type `t`.
    fn next(&mut self, t: &str) -> Value {
        loop {
            let mut line = String::new();
            assert!(self.0.read_line(&mut line).unwrap() > 0, "the stream ended");
            if let Some(data) = line.strip_prefix("data: ") {
                let value: Value = serde_json::from_str(data).unwrap();
                if value["t"] == t {
                    return value;
                }
            }
        }
    }
}

fn post(s: &Server, path: &str, session: &str, body: &str) -> u16 {
    let head = [
        format!("POST {path}?token={}&session={session} HTTP/1.1", s.token),
        format!("Host: 127.0.0.1:{}", s.port),
        format!("Origin: http://127.0.0.1:{}", s.port),
    ];
    request(s.port, &head, body).0
}

#[test]
fn only_its_page_gets_in_and_a_second_tab_cannot_take_over() {
    let dir = tempfile::tempdir().unwrap();
    let s = server(dir.path());
    let (port, token) = (s.port, s.token.clone());
    let get = |target: &str, host: &str, origin: Option<&str>| {
        let mut head = vec![format!("GET {target} HTTP/1.1"), format!("Host: {host}")];
        head.extend(origin.map(|o| format!("Origin: {o}")));
        request(port, &head, "")
    };
    let ours = format!("127.0.0.1:{port}");
    let page = format!("/?token={token}");
    let (status, body) = get(&page, &ours, None);
    assert_eq!(status, 200);
    assert!(body.contains("EventSource") && body.contains(&token));
    assert_eq!(get(&page, &format!("localhost:{port}"), None).0, 200);
    // No token, or another.
    assert_eq!(get("/", &ours, None).0, 403);
    assert_eq!(get("/?token=0123", &ours, None).0, 403);
    // DNS rebinding: another site's name pointed at 127.0.0.1 sends its own Host.
    assert_eq!(get(&page, &format!("rebind.example:{port}"), None).0, 421);
    assert_eq!(get(&page, "127.0.0.1", None).0, 421);
    // Cross-site: another site's page, even with the token.
    assert_eq!(get(&page, &ours, Some("http://evil.example")).0, 403);
    let cross = [
        format!("POST /start?token={token}&session=x HTTP/1.1"),
        format!("Host: {ours}"),
        "Origin: http://evil.example".to_string(),
    ];
    assert_eq!(request(port, &cross, "{}").0, 403);
    let no_origin = [
        format!("POST /start?token={token}&session=x HTTP/1.1"),
        format!("Host: {ours}"),
    ];
    assert_eq!(request(port, &no_origin, "{}").0, 403);

    // One page: a second one's stream is refused, and so are commands without the first
    // page's session.
    let mut first = Events::open(&s).expect("the first page connects");
    let hello = first.next("hello");
    let session = hello["session"].as_str().unwrap().to_string();
    assert_eq!(Events::open(&s).err(), Some(409));
    assert_eq!(post(&s, "/start", "guessed", &hello["handling"].to_string()), 409);
    assert_eq!(post(&s, "/start", &session, &hello["handling"].to_string()), 204);
    first.next("start");
    // The first page gone, another may connect.
    drop(first);
    let mut connected = None;
    for _ in 0..30 {
        std::thread::sleep(Duration::from_millis(200));
        if let Ok(events) = Events::open(&s) {
            connected = Some(events);
            break;
        }
    }
    assert!(connected.is_some(), "a new page connects once the first has gone");
}

/// The handling given on the command line is the page's to start with (the page keeps
/// the person's own once saved); the defaults otherwise.
#[test]
fn the_command_line_s_handling_is_the_page_s_default() {
    let dir = tempfile::tempdir().unwrap();
    let given = server_with(dir.path(), &["--das", "100", "--arr", "0", "--key", "KeyJ=left"]);
    let hello = Events::open(&given).unwrap().next("hello");
    assert_eq!(hello["handling"]["das_ms"], 100, "{hello}");
    assert_eq!(hello["handling"]["arr_ms"], 0, "{hello}");
    assert_eq!(hello["handling"]["keys"]["KeyJ"], "left", "{hello}");
    drop(given);
    let plain = server(dir.path());
    let hello = Events::open(&plain).unwrap().next("hello");
    assert_eq!(hello["handling"]["das_ms"], 167, "{hello}");
}

#[test]
fn a_game_played_by_timed_keys_is_recorded_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let s = server(dir.path());
    let (mut events, session) = started(&s);
    // Left held for 300 ms (DAS, then ARR), a drop, a hold, a turn and a drop, with the
    // page's times.
    let keys = "1 10 ArrowLeft 1\n2 310 ArrowLeft 0\n3 320 Space 1\n4 330 Space 0\n5 340 KeyC 1\n6 350 KeyC 0\n7 360 ArrowUp 1\n8 370 ArrowUp 0\n9 380 Space 1\n10 390 Space 0";
    assert_eq!(post(&s, "/key", &session, keys), 204);
    let state = loop {
        let state = events.next("state");
        if state["ack"] == 10 && state["time_ms"].as_u64().unwrap() >= 390 {
            break state;
        }
    };
    assert!(state["seats"][0]["pieces"].as_u64().unwrap() >= 2, "{state}");
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(post(&s, "/stop", &session, ""), 204);
    let end = events.next("end");
    assert_eq!(end["ends"], serde_json::json!(["unfinished", "unfinished"]));
    let path = end["path"].as_str().unwrap();
    let output = run(&["replay", "--verify", path]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let person = &replay["seats"][0];
    assert_eq!(person["players"][0]["name"], "human");
    assert_eq!(person["keys"].as_array().unwrap().len(), 10);
    assert!(person["result"]["pieces"].as_u64().unwrap() >= 2);
    assert_eq!(
        replay["setup"]["timing"]["gravity"],
        serde_json::json!({"fixed": 1.0 / 60.0})
    );
    // The replay page is offered.
    let head = [
        format!("GET /replay?token={}&game=1 HTTP/1.1", s.token),
        format!("Host: 127.0.0.1:{}", s.port),
    ];
    let (status, body) = request(s.port, &head, "");
    assert_eq!(status, 200);
    assert!(body.contains("<html"), "{}", &body[..body.len().min(200)]);
}

/// The page's event stream on `s` and its session, once a game has started with the
/// server's handling and its countdown (200 ms in these tests) has run out.
fn started(s: &Server) -> (Events, String) {
    let mut events = Events::open(s).unwrap();
    let hello = events.next("hello");
    let session = hello["session"].as_str().unwrap().to_string();
    assert_eq!(post(s, "/start", &session, &hello["handling"].to_string()), 204);
    events.next("start");
    std::thread::sleep(Duration::from_millis(300));
    (events, session)
}

/// Plays one game on `s` to its end by the rules: three hard drops reach the cap of 3
/// pieces. Returns the end message.
fn play_to_the_cap(s: &Server) -> Value {
    let (mut events, session) = started(s);
    let keys = "1 10 Space 1\n2 20 Space 0\n3 30 Space 1\n4 40 Space 0\n5 50 Space 1\n6 60 Space 0";
    assert_eq!(post(s, "/key", &session, keys), 204);
    events.next("end")
}

#[test]
fn out_appends_the_persons_games_to_a_results_file_that_rates_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("me.jsonl");
    let out = out.to_str().unwrap();
    let extra = ["--max-pieces", "3", "--out", out, "--name", "ana"];
    let s = server_with(dir.path(), &extra);
    let end = play_to_the_cap(&s);
    assert_eq!(end["ends"], serde_json::json!(["capped", "capped"]), "{end}");
    let lines = |n: usize| -> Vec<Value> {
        // The line is written as the end is sent; wait for it a moment.
        for _ in 0..50 {
            let text = std::fs::read_to_string(out).unwrap();
            if text.lines().count() >= n {
                return text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("{out} has fewer than {n} lines");
    };
    let first = lines(2);
    assert_eq!(first[0]["kind"], "header");
    let entrants = &first[0]["config"]["entrants"];
    assert_eq!(entrants[0]["label"], "ana");
    assert_eq!(entrants[0]["plugin"], "person");
    assert_eq!(entrants[1]["label"], "bcts");
    assert_eq!(first[0]["config"]["setup"]["speed"]["pps"], 2.0);
    assert_eq!(first[1]["kind"], "fixture");
    let seats = first[1]["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0]["result"]["pieces"], 3);
    drop(s);

    // A second session of the same setup continues the file with the next game.
    let s = server_with(dir.path(), &extra);
    play_to_the_cap(&s);
    let both = lines(3);
    assert_eq!((both[1]["game"].as_u64(), both[2]["game"].as_u64()), (Some(0), Some(1)));
    drop(s);
    let merged = run(&["merge", out, "--format", "json"]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let report: Value = serde_json::from_str(&stdout(&merged)).unwrap();
    let rated = report["rated"].as_array().unwrap();
    let labels: Vec<&str> = rated.iter().map(|r| r["label"].as_str().unwrap()).collect();
    assert_eq!(labels.len(), 2, "{report}");
    assert!(labels.contains(&"ana") && labels.contains(&"bcts"), "{report}");
    assert!(rated.iter().all(|r| r["games"] == 2), "{report}");
    let html = dir.path().join("me.html");
    let page = run(&["report", out, "--html", html.to_str().unwrap()]);
    assert!(page.status.success(), "{}", stderr(&page));
    assert!(std::fs::read_to_string(&html).unwrap().contains("ana"));

    // Another opponent speed is another setup: refused in one line, the file kept.
    let other = run(&[
        "play",
        "--web",
        "--plugin",
        "bcts",
        "--gravity",
        "1/60",
        "--pps",
        "3",
        "--max-pieces",
        "3",
        "--out",
        out,
        "--name",
        "ana",
    ]);
    assert_one_line_error(&other, "different tournament");
    assert_eq!(lines(3).len(), 3);
}

#[test]
fn web_options_out_of_place_are_one_line_errors() {
    for (args, needle) in [
        (&["play", "--web", "--record", "x.json"][..], "--record-games"),
        (&["play", "--web", "--preset", "classic"][..], "guideline only"),
        (&["play", "--web", "--plugin", "no-such-bot"][..], "no bundled plugin"),
        (&["play", "--web", "--pps", "0"][..], "--pps"),
        (&["play", "--pps", "2"][..], "--web"),
        (&["play", "--out", "me.jsonl"][..], "--web"),
        (
            &[
                "play", "--web", "--plugin", "bcts", "--out", "me.jsonl", "--name", "bcts",
            ][..],
            "--name",
        ),
    ] {
        assert_one_line_error(&run(args), needle);
    }
}

/// Posts `body` to `/settings` with the page's token and `session`; the status and the
/// message.
/// The bots a page's `hello` offers.
fn offered(hello: &Value) -> Vec<&str> {
    hello["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect()
}

fn choose(s: &Server, session: &str, body: &str) -> (u16, String) {
    let head = [
        format!("POST /settings?token={}&session={session} HTTP/1.1", s.token),
        format!("Host: 127.0.0.1:{}", s.port),
        format!("Origin: http://127.0.0.1:{}", s.port),
    ];
    request(s.port, &head, body)
}

/// Starts a game on the page's `session` and plays it to the cap of 3 pieces; the end
/// message.
fn capped_game(s: &Server, events: &mut Events, session: &str, handling: &str) -> Value {
    assert_eq!(post(s, "/start", session, handling), 204);
    events.next("start");
    std::thread::sleep(Duration::from_millis(300));
    let keys = "1 10 Space 1\n2 20 Space 0\n3 30 Space 1\n4 40 Space 0\n5 50 Space 1\n6 60 Space 0";
    assert_eq!(post(s, "/key", session, keys), 204);
    events.next("end")
}

#[test]
fn the_page_chooses_the_next_opponent_and_its_setup_and_bad_choices_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ana.jsonl");
    let extra = ["--max-pieces", "3", "--out", out.to_str().unwrap(), "--name", "ana"];
    let s = server_with(dir.path(), &extra);
    let mut events = Events::open(&s).unwrap();
    let hello = events.next("hello");
    let session = hello["session"].as_str().unwrap().to_string();
    let handling = hello["handling"].to_string();
    // The command line's choice, and what else the page may choose.
    assert_eq!(
        hello["settings"],
        serde_json::json!({"bot": "bcts", "pps": 2.0, "garbage": null})
    );
    let bots = offered(&hello);
    assert_eq!(bots[0], "bcts");
    assert!(bots.contains(&"tree-search"), "{bots:?}");
    assert_eq!(hello["garbage_sets"], serde_json::json!(["jstris"]));

    // Only the page's session, from this server's origin, with the token, may choose.
    let other = r#"{"bot": "tree-search", "pps": 3, "garbage": "jstris"}"#;
    assert_eq!(choose(&s, "guessed", other).0, 409);
    let foreign = [
        format!("POST /settings?token={}&session={session} HTTP/1.1", s.token),
        format!("Host: 127.0.0.1:{}", s.port),
        "Origin: http://evil.example".to_string(),
    ];
    assert_eq!(request(s.port, &foreign, other).0, 403);
    // Bad choices are refused with a message the page shows.
    for (body, needle) in [
        (
            r#"{"bot": "no-such-bot", "pps": 2, "garbage": null}"#,
            "no bot `no-such-bot` here",
        ),
        (r#"{"bot": "bcts", "pps": 0, "garbage": null}"#, "speed 0"),
        (r#"{"bot": "bcts", "pps": -3, "garbage": null}"#, "speed -3"),
        (r#"{"bot": "bcts", "pps": 1e9, "garbage": null}"#, "at most 1000"),
        (r#"{"bot": "bcts", "pps": 2, "garbage": "tetrio"}"#, "not a garbage set"),
        (r#"{"bot": "bcts", "speed": 2}"#, "settings:"),
        ("not json", "settings:"),
    ] {
        let (status, message) = choose(&s, &session, body);
        assert_eq!(status, 400, "{body}");
        assert!(message.contains(needle), "{body}: {message}");
    }

    // Another opponent, speed and garbage: the next game plays them, its record says so,
    // and the results file (for bcts at 2 PPS, plain garbage) does not take it.
    assert_eq!(choose(&s, &session, other).0, 204);
    assert_eq!(events.next("settings")["settings"]["bot"], "tree-search");
    let end = capped_game(&s, &mut events, &session, &handling);
    assert!(end["results"].as_str().unwrap().starts_with("not in"), "{end}");
    let path = end["path"].as_str().unwrap();
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(replay["seats"][1]["players"][0]["name"], "tree-search");
    assert_eq!(replay["setup"]["speed"]["pps"], 3.0);
    assert_eq!(replay["setup"]["garbage"]["delay"], 500);
    let output = run(&["replay", "--verify", path]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap().lines().count(),
        1,
        "the header alone"
    );

    // Back to the file's choice: its games are appended again.
    let back = r#"{"bot": "bcts", "pps": 2, "garbage": null}"#;
    assert_eq!(choose(&s, &session, back).0, 204);
    let end = capped_game(&s, &mut events, &session, &handling);
    assert!(end["results"].as_str().unwrap().starts_with("appended"), "{end}");
    let lines: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[1]["kind"], "fixture");
}

#[test]
fn a_key_comes_back_played_at_once_while_a_tbp_bot_thinks() {
    // TETRAD_WEB_PRESSES=N times N presses (40 by default), for BENCHMARKS.md.
    let presses: u64 = std::env::var("TETRAD_WEB_PRESSES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    let dir = tempfile::tempdir().unwrap();
    let bot = crate::tbp::stacker(dir.path(), "slow", &["--mode", "slow", "--sleep-ms", "500"]);
    let s = server_of(dir.path(), bot.to_str().unwrap(), &[]);
    let (mut events, session) = started(&s);
    let zero = std::time::Instant::now();
    let mut waits = Vec::new();
    for seq in 1..=presses {
        std::thread::sleep(Duration::from_millis(40));
        // Shifts left and right, pressed and released: the piece stays in play.
        let side = if seq.is_multiple_of(2) {
            "ArrowLeft"
        } else {
            "ArrowRight"
        };
        let ms = 100.0 + zero.elapsed().as_secs_f64() * 1000.0;
        let sent = std::time::Instant::now();
        let keys = format!("{seq} {ms:.3} {side} 1\n{seq} {:.3} {side} 0", ms + 1.0);
        assert_eq!(post(&s, "/key", &session, &keys), 204);
        while events.next("state")["ack"].as_u64() < Some(seq) {}
        waits.push(sent.elapsed().as_secs_f64() * 1000.0);
    }
    waits.sort_by(f64::total_cmp);
    let q = |p: f64| waits[((p * waits.len() as f64) as usize).min(waits.len() - 1)];
    eprintln!(
        "key posted to its state back over {presses} presses: p50 {:.2} ms, p99 {:.2} ms",
        q(0.5),
        q(0.99)
    );
    // Were the bot asked on the referee's thread, a key posted while it thinks would wait
    // for its answer, up to 500 ms.
    assert!(q(0.99) < 200.0, "{waits:?}");
    assert_eq!(post(&s, "/stop", &session, ""), 204);
    let end = events.next("end");
    let output = run(&["replay", "--verify", end["path"].as_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn under_sandbox_the_page_offers_only_bots_that_run_in_a_process_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    // The sandbox shows a bot its manifest's folder: the script goes there.
    let script = dir.path().join("stacker.py");
    std::fs::copy(workspace().join("plugins/tbp-python/stacker.py"), &script).unwrap();
    let bot = dir.path().join("stacker.toml");
    let manifest = format!("name = \"stacker\"\ncommand = [\"python3\", {script:?}]\nprotocol = \"tbp\"\n");
    std::fs::write(&bot, manifest).unwrap();
    let s = server_of(dir.path(), bot.to_str().unwrap(), &["--sandbox"]);
    let mut events = Events::open(&s).unwrap();
    let hello = events.next("hello");
    let session = hello["session"].as_str().unwrap().to_string();
    let bots = offered(&hello);
    assert_eq!(bots[0], "stacker", "{bots:?}");
    // A library plays inside tetrad's own process, where no sandbox reaches: not offered,
    // and refused when the page asks for it anyway.
    for library in ["bcts", "beam", "tree-search", "random"] {
        assert!(!bots.contains(&library), "{library} offered under --sandbox: {bots:?}");
        let body = format!(r#"{{"bot": "{library}", "pps": 2, "garbage": null}}"#);
        let (status, message) = choose(&s, &session, &body);
        assert_eq!(status, 400, "{library}: {message}");
        assert!(message.contains(library), "{message}");
    }
    let same = r#"{"bot": "stacker", "pps": 3, "garbage": null}"#;
    assert_eq!(choose(&s, &session, same).0, 204);
}
