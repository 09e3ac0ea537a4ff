//! `tetrad play --web`: a person plays a bot in the browser. A server on 127.0.0.1 serves
//! one page behind a random token; the page sends key presses and releases with their
//! times, and the server is the referee (see [`crate::runner::Live`]): it plays the game
//! and streams each new state back at once (server-sent events, with Nagle's delay off).
//! The page shows the person's own presses before that state comes, from the rules of
//! movement the server sends it (see `predict`).
//! One page at a time: while one is connected, another is refused, and its key events
//! too (each carries the session its event stream was given).

mod choice;
mod game;
mod http;
mod predict;

pub use choice::{Choice, Offer, Settings};
pub use game::{Config, Results};

use game::Command;
use http::{guard, respond, Refusal, Request};
use std::io::{BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};

/// The page.
const PAGE: &str = include_str!("page.html");

/// The page's prediction of the person's own presses (see `predict.rs`).
const PREDICT: &str = include_str!("predict.js");

/// The page's event stream, while one is connected.
#[derive(Default)]
pub struct Shared {
    stream: Option<(String, TcpStream)>,
}

impl Shared {
    /// Sends `data` to the connected page, if any; a page gone is forgotten.
    fn push(&mut self, data: &str) {
        if let Some((_, stream)) = &mut self.stream {
            let sent = stream
                .write_all(format!("data: {data}\n\n").as_bytes())
                .and_then(|()| stream.flush());
            if sent.is_err() {
                self.stream = None;
            }
        }
    }

    /// A comment line to the connected page, so a page gone is noticed while nothing
    /// changes.
    fn ping(&mut self) {
        if let Some((_, stream)) = &mut self.stream {
            if stream.write_all(b":\n\n").and_then(|()| stream.flush()).is_err() {
                self.stream = None;
            }
        }
    }

    fn session(&self) -> Option<&str> {
        self.stream.as_ref().map(|(session, _)| session.as_str())
    }
}

/// What the server needs beyond the referee's config.
pub struct Server {
    listener: TcpListener,
    token: String,
    port: u16,
}

impl Server {
    /// Binds to 127.0.0.1 (loopback only) on `port`, or a free port for 0.
    pub fn bind(port: u16) -> std::io::Result<Server> {
        let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port)))?;
        let port = listener.local_addr()?.port();
        Ok(Server {
            listener,
            token: http::token()?,
            port,
        })
    }

    /// The page's address, token included.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/?token={}", self.port, self.token)
    }

    /// Serves until the process ends: each connection on its own thread, the referee on
    /// another. The page chooses among `offer`'s bots and setups.
    pub fn serve(self, config: Config, offer: Offer) -> std::io::Result<()> {
        let shared = Arc::new(Mutex::new(Shared::default()));
        let (commands, received) = channel();
        let dir = config.dir.clone();
        let settings = Mutex::new(config.choice.settings.clone());
        let handling = config.handling.clone();
        {
            let (shared, wake) = (Arc::clone(&shared), commands.clone());
            std::thread::spawn(move || game::run(config, received, wake, shared));
        }
        let site = Arc::new(Site {
            token: self.token,
            port: self.port,
            dir,
            offer,
            settings,
            handling,
        });
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            let (site, shared, commands) = (Arc::clone(&site), Arc::clone(&shared), commands.clone());
            std::thread::spawn(move || {
                // A connection that fails ends; the server goes on.
                let _ = connection(stream, &site, &shared, &commands);
            });
        }
        Ok(())
    }
}

/// What every connection checks and serves.
struct Site {
    token: String,
    port: u16,
    dir: std::path::PathBuf,
    /// The bots and setups the page may choose.
    offer: Offer,
    /// The choice the next game plays.
    settings: Mutex<Settings>,
    /// The handling the page starts with (the command line's), until the person saves
    /// their own in the browser.
    handling: crate::handling::Handling,
}

/// Serves the requests of one connection until it closes.
fn connection(
    stream: TcpStream,
    site: &Site,
    shared: &Mutex<Shared>,
    commands: &Sender<Command>,
) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    while let Some(request) = http::read(&mut reader)? {
        if let Err(refusal) = guard(&request, site.port, &site.token) {
            let why = match refusal {
                Refusal::Host => "421 Misdirected Request",
                Refusal::Origin | Refusal::Token => "403 Forbidden",
            };
            respond(&mut out, why, "text/plain", why.as_bytes())?;
            // A refused peer gets nothing more on this connection.
            break;
        }
        let lock = || shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match (request.method.as_str(), request.path.as_str()) {
            ("GET", "/") => {
                let page = PAGE.replace("__TOKEN__", &site.token).replace("__PREDICT__", PREDICT);
                respond(&mut out, "200 OK", "text/html; charset=utf-8", page.as_bytes())?;
            }
            ("GET", "/events") => {
                let mut shared = lock();
                if shared.session().is_some() {
                    drop(shared);
                    respond(
                        &mut out,
                        "409 Conflict",
                        "text/plain",
                        b"a game is open in another tab; close it first",
                    )?;
                    break;
                }
                let session = http::token()?;
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\r\n";
                out.write_all(head.as_bytes())?;
                let chosen = site
                    .settings
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .clone();
                let hello = serde_json::json!({
                    "t": "hello",
                    "session": session,
                    "handling": site.handling,
                    "bots": site.offer.names(),
                    "garbage_sets": Offer::garbage_sets(),
                    "settings": chosen,
                });
                shared.stream = Some((session, out.try_clone()?));
                shared.push(&hello.to_string());
                drop(shared);
                let _ = commands.send(Command::Hello);
                // The stream stays with the referee; this connection reads nothing more.
                return Ok(());
            }
            ("POST", path) => {
                if lock().session() != request.param("session").filter(|s| !s.is_empty()) {
                    respond(&mut out, "409 Conflict", "text/plain", b"not the connected page")?;
                    break;
                }
                let posted = match path {
                    "/settings" => choose(site, &request.body).map(|choice| vec![Command::Choose(Box::new(choice))]),
                    _ => post(path, &request),
                };
                match posted {
                    Ok(list) => {
                        for command in list {
                            let _ = commands.send(command);
                        }
                        respond(&mut out, "204 No Content", "text/plain", b"")?;
                    }
                    Err(why) => respond(&mut out, "400 Bad Request", "text/plain", why.as_bytes())?,
                }
            }
            ("GET", "/replay") => {
                let page = request
                    .param("game")
                    .and_then(|n| n.parse().ok())
                    .and_then(|n: u64| game::load(&site.dir, n).map(|replay| (n, replay)))
                    .and_then(|(n, replay)| crate::replay_page::page(&replay, &format!("game-{n}.json"), None).ok());
                match page {
                    Some(page) => respond(&mut out, "200 OK", "text/html; charset=utf-8", page.as_bytes())?,
                    None => respond(&mut out, "404 Not Found", "text/plain", b"no such game")?,
                }
            }
            _ => respond(&mut out, "404 Not Found", "text/plain", b"not found")?,
        }
        if request
            .header("connection")
            .is_some_and(|c| c.eq_ignore_ascii_case("close"))
        {
            break;
        }
    }
    Ok(())
}

/// The page's choice of opponent and setup (`/settings`, JSON), checked; taken as the
/// choice of the next game.
fn choose(site: &Site, body: &[u8]) -> Result<Choice, String> {
    let settings: Settings = serde_json::from_slice(body).map_err(|err| format!("settings: {err}"))?;
    let choice = site.offer.choose(&settings)?;
    *site.settings.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = settings;
    Ok(choice)
}

/// The commands of a POST: `/start` with the handling as JSON, `/stop`, or `/key` with one
/// event a line, `SEQ TIME_MS CODE 1|0`.
fn post(path: &str, request: &Request) -> Result<Vec<Command>, String> {
    match path {
        "/start" => {
            let handling: crate::handling::Handling =
                serde_json::from_slice(&request.body).map_err(|err| format!("handling: {err}"))?;
            Ok(vec![Command::Start(handling)])
        }
        "/stop" => Ok(vec![Command::Stop]),
        "/key" => {
            let text = std::str::from_utf8(&request.body).map_err(|_| "not UTF-8".to_string())?;
            text.lines()
                .filter(|line| !line.trim().is_empty())
                .map(|line| {
                    let parts: Vec<&str> = line.split_whitespace().collect();
                    let [seq, time, key, pressed] = parts[..] else {
                        return Err(format!("key event `{line}`: SEQ TIME_MS CODE 1|0"));
                    };
                    let time_ms: f64 = time.parse().map_err(|_| format!("time `{time}`"))?;
                    if !time_ms.is_finite() {
                        return Err(format!("time `{time}`"));
                    }
                    Ok(Command::Key {
                        seq: seq.parse().map_err(|_| format!("seq `{seq}`"))?,
                        time_ms,
                        key: key.chars().take(32).collect(),
                        pressed: pressed == "1",
                    })
                })
                .collect()
        }
        _ => Err("no such command".to_string()),
    }
}
