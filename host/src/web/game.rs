//! The web server's referee thread: it owns the live game, takes the page's commands
//! (start, key events with their times, stop) as they come, plays the game to the clock's
//! time whenever something is due, and pushes each new state to the page's event stream
//! at once. Every game ends recorded: its replay is saved and offered to the page.

use super::choice::{Choice, Settings};
use super::Shared;
use crate::engine::Game;
use crate::handling::{Handling, KeyEvent};
use crate::replay::Replay;
use crate::runner::{Live, Rates};
use crate::tournament::{FixtureRecord, GameRecord, Line, Writer};
use crate::tracked::Tracked;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the page asks of the referee.
pub enum Command {
    /// A new game, the one in play stopped, with the person's handling.
    Start(Handling),
    /// A key pressed or released `time_ms` after the game's time 0 by the page's clock;
    /// `seq` numbers it, so the page can tell when its effect is shown.
    Key {
        /// The page's number for the event.
        seq: u64,
        /// The page's time of the event, in milliseconds from the game's time 0.
        time_ms: f64,
        /// The key's code.
        key: String,
        /// Pressed or released.
        pressed: bool,
    },
    /// The game in play stopped.
    Stop,
    /// A page connected: it is sent the state at once.
    Hello,
    /// The opponent and setup of the next games, checked.
    Choose(Box<Choice>),
    /// The bot's answer is ready: played at once.
    Wake,
}

/// What the referee plays: the opponent and setup, and where games are saved.
pub struct Config {
    /// The opponent, its options and the setup of the next game (versus, realtime, timing
    /// rules), as the command line or the page chose them.
    pub choice: Choice,
    /// The first game's seed; each next game takes the next.
    pub seed: u64,
    /// The folder the games' replays are saved in.
    pub dir: PathBuf,
    /// The countdown before each game's time 0.
    pub countdown: Duration,
    /// The results file each finished game is appended to, if any.
    pub results: Option<Results>,
    /// The handling the page starts with (`--das`, `--arr`, ...), until the person saves
    /// their own in the browser.
    pub handling: crate::handling::Handling,
}

/// A results file the person's games go to (`--out`): those against the opponent and
/// setup it was opened for, and no other.
pub struct Results {
    /// Its writer, holding its lock.
    pub writer: Writer,
    /// The index of the next game: the games of earlier sessions come first.
    pub next: u64,
    /// The choice its games are of (the command line's).
    pub settings: Settings,
    /// Its file, for the page.
    pub path: PathBuf,
}

/// The game in play.
struct Playing {
    live: Live,
    /// Both seats' games with the colour of every locked cell, following the live game.
    colours: [Tracked; 2],
    /// The game's time 0, after the countdown.
    zero: Instant,
    /// Its number, from 1.
    number: u64,
    /// Its index in the results file.
    index: u64,
    /// Whether it goes to the results file (it is of the choice the file is for).
    counted: bool,
    saved: bool,
}

/// Runs the referee until the process ends (or every sender of commands is dropped).
pub fn run(mut config: Config, commands: Receiver<Command>, wake: Sender<Command>, shared: Arc<Mutex<Shared>>) {
    let first = config.results.as_ref().map_or(0, |results| results.next);
    let mut playing: Option<Playing> = None;
    let mut games = 0u64;
    let mut ack = 0u64;
    let mut last_sent = String::new();
    let mut message: Option<Value> = None;
    let mut pinged = Instant::now();
    loop {
        let wait = playing
            .as_ref()
            .filter(|p| p.live.end().is_none())
            .map_or(Duration::from_millis(500), |p| {
                let now = Instant::now();
                if now < p.zero {
                    return p.zero - now;
                }
                let now_us = (now - p.zero).as_micros() as u64;
                let due = p.live.next_due_us().unwrap_or(now_us + 500_000);
                Duration::from_micros(due.saturating_sub(now_us).min(500_000))
            });
        let mut next = match commands.recv_timeout(wait) {
            Ok(command) => Some(command),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        while let Some(command) = next.take().or_else(|| commands.try_recv().ok()) {
            match command {
                Command::Start(handling) => {
                    if let Some(p) = &mut playing {
                        let now = now_us(p.zero);
                        p.live.stop(now);
                    }
                    save(&mut config, &mut playing, &mut message);
                    games += 1;
                    // Game n of the session is game `first + n - 1` of its results file,
                    // dealt from that game's seed, as a tournament deals it; one of another
                    // choice than the file's is not written to it.
                    let counted = config
                        .results
                        .as_ref()
                        .is_some_and(|results| results.settings == config.choice.settings);
                    let index = first + games - 1;
                    let seed = crate::runner::game_seed(config.seed, index);
                    let choice = &config.choice;
                    let bot = (&choice.bot, choice.options.as_str());
                    match Live::new(choice.setup.clone(), seed, handling, bot) {
                        Ok(mut live) => {
                            let wake = wake.clone();
                            live.set_waker(move || drop(wake.send(Command::Wake)));
                            let rules = super::predict::rules(live.games()[0]);
                            playing = Some(Playing {
                                colours: live.games().map(|game| Tracked::new(game.clone())),
                                live,
                                zero: Instant::now() + config.countdown,
                                number: games,
                                index,
                                counted,
                                saved: false,
                            });
                            message = Some(json!({
                                "t": "start",
                                "countdown_ms": config.countdown.as_millis() as u64,
                                "game": games,
                                "rules": rules,
                            }));
                        }
                        Err(err) => message = Some(json!({"t": "error", "message": err.to_string()})),
                    }
                    last_sent.clear();
                }
                Command::Key {
                    seq,
                    time_ms,
                    key,
                    pressed,
                } => {
                    ack = ack.max(seq);
                    if let Some(p) = playing.as_mut().filter(|p| p.live.end().is_none()) {
                        let now = now_us(p.zero);
                        let time_us = ((time_ms.max(0.0) * 1000.0) as u64).min(now);
                        p.live.key(KeyEvent { time_us, key, pressed });
                    }
                }
                Command::Stop => {
                    if let Some(p) = &mut playing {
                        let now = now_us(p.zero);
                        p.live.stop(now);
                    }
                }
                Command::Hello => last_sent.clear(),
                Command::Choose(choice) => {
                    message = Some(json!({"t": "settings", "settings": choice.settings}));
                    config.choice = *choice;
                }
                Command::Wake => {}
            }
        }
        if let Some(p) = playing.as_mut().filter(|p| Instant::now() >= p.zero) {
            let now = now_us(p.zero);
            p.live.run_until(now);
        }
        if playing.as_ref().is_some_and(|p| p.live.end().is_some() && !p.saved) {
            save(&mut config, &mut playing, &mut message);
        }
        let mut out = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(value) = message.take() {
            out.push(&value.to_string());
        }
        if let Some(p) = &mut playing {
            for (colours, game) in p.colours.iter_mut().zip(p.live.games()) {
                colours.follow(game);
            }
            let text = state(p, ack).to_string();
            if text != last_sent {
                out.push(&text);
                last_sent = text;
                pinged = Instant::now();
            }
        }
        if pinged.elapsed() >= Duration::from_secs(1) {
            out.ping();
            pinged = Instant::now();
        }
    }
}

/// Microseconds since `zero`, 0 before it.
fn now_us(zero: Instant) -> u64 {
    Instant::now().saturating_duration_since(zero).as_micros() as u64
}

/// Saves the game in play once it has ended (or was stopped): its replay in the folder;
/// tells the page where.
fn save(config: &mut Config, playing: &mut Option<Playing>, message: &mut Option<Value>) {
    let Some(p) = playing.as_mut().filter(|p| !p.saved) else {
        return;
    };
    let (Some(replay), Some((end_us, _))) = (Replay::of_live(&p.live), p.live.end()) else {
        return;
    };
    p.saved = true;
    let path = config.dir.join(format!("game-{}.json", p.number));
    let saved = replay
        .save(&path)
        .map_err(|err| err.to_string())
        .and_then(|()| match p.counted {
            true => append(config.results.as_mut(), &mut p.live, p.index),
            false => Ok(()),
        });
    *message = Some(match saved {
        Ok(()) => {
            println!("game {}: {}", p.number, path.display());
            json!({
                "t": "end",
                "game": p.number,
                "ends": replay.seats.iter().map(|seat| seat.result.end.name()).collect::<Vec<_>>(),
                "end_ms": end_us / 1000,
                "path": path.display().to_string(),
                "results": results_note(config.results.as_ref(), p),
            })
        }
        Err(err) => json!({"t": "error", "message": err}),
    });
}

/// What became of the game in play for the results file, for the page: `None` without
/// one.
fn results_note(results: Option<&Results>, p: &Playing) -> Option<String> {
    let results = results?;
    let file = results.path.display();
    Some(match (p.counted, p.live.end()) {
        (true, Some((_, [Some(_), Some(_)]))) => format!("appended to {file}"),
        (true, _) => format!("stopped: not a result, not in {file}"),
        (false, _) => format!(
            "not in {file}: it holds games against {} at its setup only",
            results.settings.bot
        ),
    })
}

/// Appends the game ended by the rules to the results file, if there is one; a game
/// stopped unfinished is not a result.
fn append(results: Option<&mut Results>, live: &mut Live, index: u64) -> Result<(), String> {
    let Some(results) = results else {
        return Ok(());
    };
    let Some(seats) = live.results(index) else {
        return Ok(());
    };
    let fixture = FixtureRecord {
        game: index,
        seed: seats[0].seed,
        seats: vec![GameRecord::new(0, &seats[0]), GameRecord::new(1, &seats[1])],
    };
    results
        .writer
        .write(&Line::Fixture(fixture))
        .map_err(|err| err.to_string())
}

/// The state the page draws: both seats, the time, and the last key event played.
fn state(p: &Playing, ack: u64) -> Value {
    let now = Instant::now();
    let countdown_ms = p.zero.saturating_duration_since(now).as_millis() as u64;
    let time_us = p.live.end().map_or(p.live.now_us(), |(end, _)| end);
    let seconds = time_us as f64 / 1e6;
    let [person, bot] = p.live.games();
    let [my_colours, bot_colours] = &p.colours;
    let seats = [
        seat(person, my_colours, seconds, Some(p.live.hands())),
        seat(bot, bot_colours, seconds, None),
    ];
    json!({
        "t": "state",
        "game": p.number,
        "ack": ack,
        "countdown_ms": countdown_ms,
        "time_ms": time_us / 1000,
        "time_us": time_us,
        "over": p.live.end().is_some(),
        "seats": seats,
    })
}

/// Rows shown: the 20 of the field and 2 above it.
const SHOWN: usize = 22;

/// One seat as the page draws it: the shown rows as bits and the colours of their cells
/// (`colours`, following `game`), the falling piece and its ghost as cells, hold, next
/// pieces, waiting garbage, and live PPS, APM and VS; for the person's seat (`hands`,
/// theirs), also what the page needs to show their presses before the server's state
/// for them comes back.
fn seat(game: &Game, colours: &Tracked, seconds: f64, hands: Option<&crate::handling::Hands>) -> Value {
    let board = game.board();
    let height = board.height();
    let top = height.saturating_sub(SHOWN);
    let rows = &board.rows()[top..];
    let codes: Vec<Vec<i16>> = (top..height).map(|y| colours.row_codes(y)).collect();
    let pieces = game.pieces();
    let name = |id| pieces.kind(id).name().to_string();
    let (piece, ghost, kind) = match game.current().filter(|_| !game.is_over()) {
        Some(falling) => {
            let shape = pieces.kind(falling.piece).orientation(falling.pos.orientation);
            let (x, y) = (falling.pos.x, falling.pos.y);
            let ghost_y = board.drop_row(shape, x, y);
            let cells = |y: i8| -> Vec<[i64; 2]> {
                shape
                    .cells()
                    .iter()
                    .map(|&(dx, dy)| [i64::from(x + dx), i64::from(y + dy) - top as i64])
                    .collect()
            };
            (cells(y), cells(ghost_y), Some(name(falling.piece)))
        }
        None => (Vec::new(), Vec::new(), None),
    };
    let stats = game.stats();
    let (sent, received, pending) = game.garbage().map_or((0, 0, 0), |g| (g.sent, g.received, g.pending()));
    let rates = Rates::of(game, seconds);
    let mut drawn = json!({
        "width": board.width(),
        "rows": rows,
        "colours": codes,
        "piece": piece,
        "ghost": ghost,
        "kind": kind,
        "hold": game.held().map(name),
        "next": game.queue().take(5).map(name).collect::<Vec<_>>(),
        "garbage": pending,
        "pieces": stats.pieces,
        "lines": stats.lines,
        "sent": sent,
        "received": received,
        "pps": rates.pps,
        "apm": rates.apm,
        "vs": rates.vs,
    });
    if let (Some(hands), Value::Object(drawn)) = (hands, &mut drawn) {
        if let Value::Object(ahead) = super::predict::seat(game, hands, top) {
            drawn.extend(ahead);
        }
    }
    drawn
}

/// The replay of a saved game, for the page.
pub fn load(dir: &std::path::Path, game: u64) -> Option<Replay> {
    Replay::load(&dir.join(format!("game-{game}.json"))).ok()
}
