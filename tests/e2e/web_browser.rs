//! `tetrad play --web` in headless Chromium, driven over the DevTools protocol (on a pipe):
//! keys pressed and held with real timings (a held key moves by DAS then ARR, a soft drop,
//! a hold, a turn, drops) against a TBP bot that thinks 500 ms a move; the recorded game
//! verifies, the board the page shows is the engine's, the page's guesses of the
//! person's presses agree with the server's states, and the page's own key-to-frame
//! latency (which the bot's thinking must not hold up) and frame rate are read.
//! Runs where Chromium is installed, and must run when TETRAD_BROWSER_TESTS=1.
//! `TETRAD_BROWSER_PRESSES=N` makes the run of timed taps N long (15 by default), for
//! the figures in BENCHMARKS.md.

use crate::common::*;
use crate::replay_page::chromium;
use crate::web::server_of;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tetrad::engine::{Game, TickReport};
use tetrad::handling::{Command as Said, Handler, Handling, KeyEvent, SoftDrop};
use tetrad::replay::{Replay, Watcher};
use tetrad_plugin_api::Actions;

/// Headless Chromium with the DevTools protocol on a pipe (its fds 3 and 4), one page
/// attached.
struct Browser {
    child: Child,
    to: std::fs::File,
    from: BufReader<std::fs::File>,
    session: String,
    id: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe(2) to fill.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: pipe(2) succeeded: both are open descriptors owned by nobody else.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

impl Browser {
    fn open(chromium: &std::path::Path, url: &str) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let (their_in, our_out) = pipe();
        let (our_in, their_out) = pipe();
        let (fd_in, fd_out) = (their_in.as_raw_fd(), their_out.as_raw_fd());
        let mut command = Command::new(chromium);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-pipe",
                "--window-size=1100,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec only dup2, which is async-signal-safe, on
        // descriptors open in the child.
        unsafe {
            command.pre_exec(move || {
                if libc::dup2(fd_in, 3) < 0 || libc::dup2(fd_out, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("run chromium");
        drop((their_in, their_out));
        let mut browser = Browser {
            child,
            to: std::fs::File::from(our_out),
            from: BufReader::new(std::fs::File::from(our_in)),
            session: String::new(),
            id: 0,
            _profile: profile,
        };
        let target = browser.call("Target.createTarget", json!({ "url": url }), false);
        let target_id = target["targetId"].as_str().unwrap().to_string();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target_id, "flatten": true }),
            false,
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser
    }

    /// Sends `method` with `params` (to the page when `paged`) and returns its result.
    fn call(&mut self, method: &str, params: Value, paged: bool) -> Value {
        self.id += 1;
        let mut message = json!({ "id": self.id, "method": method, "params": params });
        if paged {
            message["sessionId"] = Value::from(self.session.clone());
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.to.write_all(&bytes).unwrap();
        loop {
            let mut reply = Vec::new();
            self.from.read_until(0, &mut reply).unwrap();
            reply.pop();
            let reply: Value = serde_json::from_slice(&reply).unwrap();
            if reply["id"] == self.id {
                assert!(reply.get("error").is_none(), "{method}: {reply}");
                return reply["result"].clone();
            }
        }
    }

    /// The value of `expression` in the page.
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true }),
            true,
        );
        result["result"]["value"].clone()
    }

    fn key(&mut self, code: &str, key: &str, vk: u32, down: bool) {
        let kind = if down { "rawKeyDown" } else { "keyUp" };
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": kind, "code": code, "key": key, "windowsVirtualKeyCode": vk }),
            true,
        );
    }

    /// Presses `code` and holds it `ms` milliseconds.
    fn hold(&mut self, code: &str, key: &str, vk: u32, ms: u64) {
        self.key(code, key, vk, true);
        std::thread::sleep(Duration::from_millis(ms));
        self.key(code, key, vk, false);
    }

    /// Waits until `expression` is true in the page.
    fn until(&mut self, expression: &str) {
        let start = Instant::now();
        while self.eval(expression) != Value::Bool(true) {
            assert!(start.elapsed() < Duration::from_secs(20), "never true: {expression}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The last game of seat 0 as the engine re-simulates a replay.
struct Last(Option<Game>);

impl Watcher for Last {
    fn start(&mut self, games: &[Game]) {
        self.0 = Some(games[0].clone());
    }
    fn tick(&mut self, seat: usize, _: Actions, _: &TickReport, game: &Game) {
        if seat == 0 {
            self.0 = Some(game.clone());
        }
    }
    fn round_over(&mut self, games: &[Game]) {
        self.0 = Some(games[0].clone());
    }
}

#[test]
fn a_person_plays_a_bot_in_chromium_with_real_key_timings() {
    let Some(chromium) = chromium() else {
        eprintln!("no chromium: the browser test did not run");
        return;
    };
    let taps: usize = std::env::var("TETRAD_BROWSER_PRESSES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(15);
    let dir = tempfile::tempdir().unwrap();
    let bot = crate::tbp::stacker(dir.path(), "slow", &["--mode", "slow", "--sleep-ms", "500"]);
    let s = server_of(dir.path(), bot.to_str().unwrap(), &[]);
    let url = format!("http://127.0.0.1:{}/?token={}", s.port, s.token);
    let mut browser = Browser::open(&chromium, &url);
    browser.until("window.tetrad !== undefined && window.tetrad.session() !== null");
    browser.hold("F4", "F4", 115, 20);
    browser.until("window.tetrad.state() !== null && window.tetrad.state().countdown_ms === 0");
    // Left held 320 ms: a shift at once, at DAS (167 ms), then every ARR (33 ms).
    browser.hold("ArrowLeft", "ArrowLeft", 37, 320);
    browser.hold("Space", " ", 32, 30);
    // A soft drop held, a turn (a spin of the piece), a hold, a drop; then presses to time.
    browser.hold("ArrowDown", "ArrowDown", 40, 200);
    browser.hold("ArrowUp", "ArrowUp", 38, 30);
    browser.hold("KeyC", "c", 67, 30);
    browser.hold("Space", " ", 32, 30);
    for _ in 0..taps {
        browser.hold("ArrowRight", "ArrowRight", 39, 40);
        std::thread::sleep(Duration::from_millis(40));
    }
    browser.hold("Space", " ", 32, 30);
    // Pieces placed as a player places them, for the page's guesses to be checked: each
    // turned up to three times either way (kicking against the stack as it grows),
    // tapped up to four columns, every third held first, then dropped.
    let mut placed = std::collections::BTreeMap::<&str, usize>::new();
    let mut random = 0x9e37_79b9_7f4a_7c15u64;
    let mut draw = |n: u64| {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random % n
    };
    for piece in 0..12 {
        let mut keys = Vec::new();
        if piece % 3 == 1 {
            keys.push(("ShiftLeft", "Shift", 16));
        }
        let turn = if draw(2) == 0 {
            ("KeyX", "x", 88)
        } else {
            ("KeyZ", "z", 90)
        };
        keys.extend(std::iter::repeat_n(turn, draw(4) as usize));
        let tap = if draw(2) == 0 {
            ("ArrowLeft", "ArrowLeft", 37)
        } else {
            ("ArrowRight", "ArrowRight", 39)
        };
        keys.extend(std::iter::repeat_n(tap, draw(5) as usize));
        keys.push(("Space", " ", 32));
        for (code, key, vk) in keys {
            browser.hold(code, key, vk, 30);
            *placed.entry(code).or_default() += 1;
            std::thread::sleep(Duration::from_millis(30));
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    browser.eval("document.getElementById('stop').click()");
    browser.until("document.querySelector('#replay a') !== null");
    std::thread::sleep(Duration::from_millis(200));
    let shown = browser.eval("window.tetrad.drawn()");
    let latencies: Vec<f64> = serde_json::from_value(browser.eval("window.tetrad.latencies")).unwrap();
    let drawings: Vec<f64> = serde_json::from_value(browser.eval("window.tetrad.drawings")).unwrap();
    let paints: Vec<f64> = serde_json::from_value(browser.eval("window.tetrad.paints")).unwrap();
    let arrivals: Vec<f64> = serde_json::from_value(browser.eval("window.tetrad.arrivals")).unwrap();
    let dispatches: Vec<f64> = serde_json::from_value(browser.eval("window.tetrad.dispatches")).unwrap();
    let frames: Vec<f64> = serde_json::from_value(browser.eval("window.tetrad.frames")).unwrap();
    let checks = browser.eval("window.tetrad.checks");
    let late = browser.eval("window.tetrad.late");

    // The settings panel offers the bots, and shows the server's refusal of a bad speed.
    assert_eq!(
        browser.eval("document.getElementById('bot').value"),
        Value::from(bot.file_stem().unwrap().to_str().unwrap())
    );
    assert_eq!(
        browser.eval("[...document.getElementById('bot').options].some(o => o.value === 'bcts')"),
        Value::Bool(true)
    );
    browser.eval("document.getElementById('pps').value = '0'; document.getElementById('apply').click()");
    browser.until("document.getElementById('choice').textContent.startsWith('refused: speed 0')");

    let path = dir.path().join("game-1.json");
    let output = run(&["replay", "--verify", path.to_str().unwrap()]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = Replay::load(&path).unwrap();
    let person = &replay.seats[0];
    let keys = person.keys.as_ref().unwrap();
    let pressed = |code: &str| keys.iter().filter(|k| k.key == code && k.pressed).count();
    let at = |code: &str| placed.get(code).copied().unwrap_or(0);
    assert_eq!(
        (
            pressed("ArrowLeft"),
            pressed("ArrowDown"),
            pressed("KeyC"),
            pressed("ArrowUp")
        ),
        (1 + at("ArrowLeft"), 1, 1, 1)
    );
    assert_eq!(pressed("ArrowRight"), taps + at("ArrowRight"));
    for code in ["KeyX", "KeyZ", "ShiftLeft"] {
        assert_eq!(pressed(code), at(code), "{code}");
    }
    // The held left: shifts at the press, at DAS and every ARR after it, by the times the
    // page stamped.
    let press = keys.iter().find(|k| k.key == "ArrowLeft").unwrap().time_us;
    let times = person.times_us.as_ref().unwrap();
    let lefts: Vec<u64> = person
        .actions
        .iter()
        .zip(times)
        .filter(|(&a, _)| a == Actions::LEFT.0)
        .map(|(_, &t)| t - press)
        .collect();
    assert!(lefts.len() >= 5, "{lefts:?}");
    assert_eq!(&lefts[..4], [0, 167_000, 200_000, 233_000], "DAS then ARR: {lefts:?}");
    for bits in [Actions::HOLD, Actions::CW, Actions::DROP] {
        assert!(person.actions.contains(&bits.0), "{bits:?} in {:?}", person.actions);
    }
    assert_eq!(pressed("Space"), 3 + at("Space"));
    let drops = person.actions.iter().filter(|&&a| a == Actions::DROP.0).count() as u64;
    // A piece a drop; in a long run of taps, pieces also fall to rest under gravity and
    // lock by delay.
    if taps <= 15 {
        assert_eq!(person.result.pieces, drops, "{:?}: a piece a drop", person.result);
    } else {
        assert!(person.result.pieces >= drops, "{:?}", person.result);
    }
    assert!(replay.seats[1].result.pieces >= 1, "the bot played");

    // The board the page shows at the end is the engine's.
    let mut last = Last(None);
    replay.verify_watched(&mut last).unwrap();
    let game = last.0.unwrap();
    let rows = game.board().rows();
    let engine: Vec<u32> = rows[rows.len() - 22..].to_vec();
    let page: Vec<u32> = serde_json::from_value(shown["seats"][0]["rows"].clone()).unwrap();
    assert_eq!(page, engine, "the page's board is the engine's");
    // Every locked cell has a colour, and only those.
    let colours: Vec<Vec<i64>> = serde_json::from_value(shown["seats"][0]["colours"].clone()).unwrap();
    for (y, (row, codes)) in page.iter().zip(&colours).enumerate() {
        for (x, &code) in codes.iter().enumerate() {
            assert_eq!((row >> x) & 1 == 1, code != 0, "cell ({x}, {y}): {colours:?}");
        }
    }
    // Cells by their pieces (a colour the server lost track of, after a lock it could not
    // follow, is drawn grey; the board's cells are right either way).
    assert!(colours.iter().flatten().any(|&code| code > 0), "{colours:?}");
    assert_eq!(shown["seats"][0]["pieces"], game.stats().pieces);

    // Key press to the frame that shows it, as the page measured it, while the bot
    // thinks half a second a move. Were the bot asked on the referee's thread, a press
    // made while it thinks would wait for its answer: up to 500 ms.
    assert!(latencies.len() >= taps, "{latencies:?}");
    let (p50, p99) = quantiles(&latencies);
    eprintln!(
        "key to the frame that shows it (its time) over {} presses: p50 {p50:.1} ms, p99 {p99:.1} ms",
        latencies.len()
    );
    let (e50, e99) = quantiles(&paints);
    eprintln!("key to the end of that frame's drawing: p50 {e50:.1} ms, p99 {e99:.1} ms");
    let (h50, h99) = quantiles(&drawings);
    eprintln!("its handler in the page to the end of that drawing: p50 {h50:.1} ms, p99 {h99:.1} ms");
    eprintln!("presses shown in a frame that began more than a frame after them, and of those the ones whose delivery to the page spanned a frame's start: {late}");
    let (a50, a99) = quantiles(&arrivals);
    eprintln!("key to its state in the page: p50 {a50:.1} ms, p99 {a99:.1} ms");
    eprintln!("the page's guesses checked against the server's states: {checks}");
    let (d50, d99) = quantiles(&dispatches);
    eprintln!("key to its handler in the page: p50 {d50:.1} ms, p99 {d99:.1} ms");
    assert!(p99 < 250.0, "a press waited for the bot: {latencies:?}");
    // The page shows a press in the frame after it, guessing what the server will play:
    // half the presses are on screen within one frame (awaiting the server's state, the
    // median was a frame and a half). The guesses were right.
    assert!(p50 <= 16.7, "{latencies:?}");
    let (checked, corrected) = (
        checks["checked"].as_u64().unwrap(),
        checks["corrected"].as_u64().unwrap(),
    );
    assert!(checked >= 40, "{checks}");
    // A row fallen by gravity just before a press, not yet in the page, can turn a kick
    // otherwise: rare, and the server's state corrects it.
    assert!(corrected * 50 <= checked, "{checks}");
    // The page's frames while it played: intervals between animation frames.
    let (f50, f99) = quantiles(&frames);
    eprintln!(
        "frames over {} intervals: p50 {f50:.1} ms, p99 {f99:.1} ms",
        frames.len()
    );
}

/// The median and the 99th percentile of `values`.
fn quantiles(values: &[f64]) -> (f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let q = |p: f64| sorted[((p * sorted.len() as f64) as usize).min(sorted.len() - 1)];
    (q(0.5), q(0.99))
}

/// A seeded xorshift: numbers below `n`.
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A command as the page's handler writes it: its time, what, and which way.
fn as_page(time: u64, command: &Said) -> Value {
    let (c, d) = match *command {
        Said::Shift(d) => ("shift", Some(d)),
        Said::ShiftToWall(d) => ("wall", Some(d)),
        Said::Turn(d) => ("turn", Some(d)),
        Said::SoftDrop(true) => ("soft_on", None),
        Said::SoftDrop(false) => ("soft_off", None),
        Said::HardDrop => ("hard", None),
        Said::Hold => ("hold", None),
    };
    match d {
        Some(d) => json!({ "t": time, "c": c, "d": d }),
        None => json!({ "t": time, "c": c }),
    }
}

#[test]
fn the_page_s_handler_gives_the_commands_of_the_engine_s_from_where_the_server_s_was() {
    let Some(chromium) = chromium() else {
        eprintln!("no chromium: the browser test did not run");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let s = crate::web::server(dir.path());
    let url = format!("http://127.0.0.1:{}/?token={}", s.port, s.token);
    let mut browser = Browser::open(&chromium, &url);
    browser.until("typeof PredictedHands === 'function'");
    // Mostly the shift keys, and a key bound to nothing.
    let codes = [
        "ArrowLeft",
        "ArrowRight",
        "ArrowLeft",
        "ArrowRight",
        "ArrowLeft",
        "ArrowRight",
        "ArrowDown",
        "Space",
        "KeyX",
        "KeyZ",
        "KeyA",
        "KeyC",
        "KeyQ",
    ];
    let mut draws = Draws(0x2545_f491_4f6c_dd1d);
    let mut cases = Vec::new();
    for case in 0..300 {
        let handling = Handling {
            das_ms: [0, 1, 50, 167, 300][draws.below(5) as usize],
            arr_ms: [0, 0, 1, 33, 100][draws.below(5) as usize],
            soft_drop: if draws.below(2) == 0 {
                SoftDrop::Instant
            } else {
                SoftDrop::Factor(6)
            },
            turn_180: draws.below(2) == 0,
            ..Handling::default()
        };
        // Keys pressed and released in any order, some pressed while already down.
        let mut time = 0;
        let events: Vec<KeyEvent> = (0..40)
            .map(|_| {
                time += draws.below(4) * draws.below(60_000);
                let code = codes[draws.below(codes.len() as u64) as usize];
                KeyEvent {
                    time_us: time,
                    key: code.to_string(),
                    pressed: draws.below(2) == 0,
                }
            })
            .collect();
        let split = draws.below(events.len() as u64 + 1) as usize;
        let end = time + 400_000;
        let mut handler = Handler::new(handling.clone());
        for event in &events[..split] {
            handler.key(event);
        }
        let from = serde_json::to_value(&handler).unwrap();
        let mut commands: Vec<Value> = Vec::new();
        for event in &events[split..] {
            commands.extend(handler.key(event).iter().map(|(t, c)| as_page(*t, c)));
        }
        commands.extend(handler.until(end).iter().map(|(t, c)| as_page(*t, c)));
        let after = serde_json::to_value(&handler).unwrap();
        let later: Vec<Value> = events[split..]
            .iter()
            .map(|e| json!({ "control": handling.keys.get(&e.key), "pressed": e.pressed, "time_us": e.time_us }))
            .collect();
        cases.push(json!({
            "case": case, "handling": handling, "from": from, "events": later, "end": end,
            "commands": commands, "after": after,
        }));
    }
    let script = format!(
        "(() => {{ const cases = {}; const wrong = [];
          for (const k of cases) {{
            const hands = new PredictedHands(k.handling, k.from);
            const commands = [];
            for (const e of k.events) commands.push(...hands.key(e.control === null ? undefined : e.control, e.pressed, e.time_us));
            commands.push(...hands.until(k.end));
            const after = {{ held: hands.held, shifts: hands.shifts, shifting: hands.shifting, now_us: hands.now }};
            if (JSON.stringify(commands) !== JSON.stringify(k.commands) || JSON.stringify(after) !== JSON.stringify(k.after))
              wrong.push({{ case: k.case, page: {{ commands, after }}, engine: {{ commands: k.commands, after: k.after }} }});
          }}
          return {{ played: cases.length, wrong: wrong.slice(0, 2) }}; }})()",
        Value::Array(cases)
    );
    let result = browser.eval(&script);
    assert_eq!(result["played"], 300, "{result}");
    assert_eq!(result["wrong"], json!([]), "the page's handler and the engine's differ");
}
