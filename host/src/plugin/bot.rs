//! A process bot's side of the bot protocol as the host speaks it: the bot started from its
//! manifest on a private line, the hello and its info, and every later message with a
//! deadline. What each message holds is in [`messages`]; `docs/protocol.md` is the spec.

pub mod messages;

use super::manifest::Manifest;
use crate::process::{file_safe, ChildProcess, NoLine};
use messages::{BotMessage, HostMessage, PROTOCOL_VERSION};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// How long a bot may take to say hello after it starts.
pub const HELLO_LIMIT: Duration = Duration::from_secs(10);

/// How a bot failed a game: the referee turns the kind into the game's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What kind of failure.
    pub kind: FailureKind,
    /// What happened, for the report.
    pub message: String,
}

/// The kinds of a player's failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// The player reported an error, or broke the protocol's form.
    Error,
    /// No answer within the limit.
    Timeout,
    /// The player's process ended.
    Crashed,
}

impl Failure {
    /// A failure of `kind` described by `message`.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }
}

/// What a bot says of itself in its info.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotInfo {
    /// Short name.
    pub name: String,
    /// Version, author and description (empty when not given).
    pub version: String,
    /// Author.
    pub author: String,
    /// One-line description.
    pub description: String,
    /// The question it answers.
    pub answers: messages::Answers,
}

/// A running bot process.
pub struct BotProcess {
    process: ChildProcess,
    label: String,
}

impl BotProcess {
    /// Starts the bot of `manifest` and reads its info. `Err` is one line: the program
    /// could not start, or did not say hello as the protocol asks.
    pub fn start(manifest: &Manifest) -> Result<(BotProcess, BotInfo), Failure> {
        let mut bot = BotProcess::spawn(manifest)?;
        bot.send(&HostMessage::Hello {
            protocol: PROTOCOL_VERSION,
        })?;
        let info = match bot.receive(HELLO_LIMIT, "its info")? {
            BotMessage::Info(info) => info,
            other => return Err(bot.unexpected(&other, "its info")),
        };
        if info.protocol != PROTOCOL_VERSION {
            return Err(Failure::new(
                FailureKind::Error,
                format!(
                    "{}: speaks bot protocol version {}; this tetrad speaks version {PROTOCOL_VERSION}",
                    bot.label, info.protocol
                ),
            ));
        }
        let info = BotInfo {
            name: super::printable(info.name),
            version: super::printable(info.version.unwrap_or_default()),
            author: super::printable(info.author.unwrap_or_default()),
            description: super::printable(info.description.unwrap_or_default()),
            answers: info.answers,
        };
        Ok((bot, info))
    }

    /// Starts the program of `manifest`, its output logged, and says nothing to it yet
    /// (a bot of another protocol speaks first, say). `Err`: it could not start.
    pub fn spawn(manifest: &Manifest) -> Result<BotProcess, Failure> {
        let log = next_log(&manifest.name);
        let label = format!("bot `{}` ({})", manifest.name, manifest.path.display());
        let process = ChildProcess::spawn_following(manifest.command(), &log, &label).map_err(|err| {
            Failure::new(
                FailureKind::Error,
                format!("{label}: cannot start `{}`: {err}", manifest.program.display()),
            )
        })?;
        Ok(BotProcess { process, label })
    }

    /// Sends one message.
    #[inline]
    pub fn send(&mut self, message: &HostMessage<'_>) -> Result<(), Failure> {
        self.send_json(message)
    }

    /// Sends any message, as one line of JSON.
    #[inline]
    pub fn send_json<M: serde::Serialize>(&mut self, message: &M) -> Result<(), Failure> {
        let text = serde_json::to_string(message).expect("messages serialise");
        self.process
            .send_line(&text)
            .map_err(|_| self.ended("while tetrad wrote to it"))
    }

    /// The bot's next message, waiting at most `deadline`; `awaited` names what was
    /// expected, for the failure's message.
    #[inline]
    pub fn receive(&mut self, deadline: Duration, awaited: &str) -> Result<BotMessage, Failure> {
        match self.receive_json::<BotMessage>(deadline, awaited)? {
            BotMessage::Error { message } => Err(Failure::new(FailureKind::Error, super::printable(message))),
            message => Ok(message),
        }
    }

    /// The bot's next line, read as a message of type `M`, waiting at most `deadline`;
    /// `awaited` names what was expected. Silence until the deadline kills the bot.
    pub fn receive_json<M: serde::de::DeserializeOwned>(
        &mut self,
        deadline: Duration,
        awaited: &str,
    ) -> Result<M, Failure> {
        let line = match self.process.next_line(deadline) {
            Ok(line) => line,
            Err(NoLine::Silent) => {
                self.process.kill();
                return Err(Failure::new(
                    FailureKind::Timeout,
                    format!(
                        "{}: no answer within {} while tetrad waited for {awaited}{}",
                        self.label,
                        duration_text(deadline),
                        self.log_hint()
                    ),
                ));
            }
            Err(NoLine::Closed) => return Err(self.ended(&format!("while tetrad waited for {awaited}"))),
        };
        match serde_json::from_str::<M>(&line) {
            Ok(message) => Ok(message),
            Err(err) => Err(Failure::new(
                FailureKind::Error,
                format!(
                    "{}: sent `{}` when tetrad waited for {awaited} ({err})",
                    self.label,
                    super::printable(clip(line.trim_end()).to_string())
                ),
            )),
        }
    }

    /// The failure for a message of the wrong type.
    pub fn unexpected(&self, message: &BotMessage, awaited: &str) -> Failure {
        self.unexpected_kind(message.kind(), awaited)
    }

    /// The failure of a bot that sent a message of type `kind` when another was due.
    pub fn unexpected_kind(&self, kind: &str, awaited: &str) -> Failure {
        Failure::new(
            FailureKind::Error,
            format!(
                "{}: sent a `{kind}` message when tetrad waited for {awaited}",
                self.label
            ),
        )
    }

    /// The failure of a bot whose message broke its protocol, `what` saying how.
    pub fn broke(&self, what: &str) -> Failure {
        Failure::new(FailureKind::Error, format!("{}: {what}", self.label))
    }

    /// Says goodbye and ends the process (killed if it does not end by itself); dropping
    /// the bot does the same.
    pub fn quit(self) {}

    /// The failure of a bot whose process ended.
    fn ended(&mut self, when: &str) -> Failure {
        let cause = self.process.exit_cause();
        Failure::new(
            FailureKind::Crashed,
            format!("{}: {cause} {when}{}", self.label, self.log_hint()),
        )
    }

    /// `(its output: LOG)`, if the bot wrote to its log.
    fn log_hint(&self) -> String {
        self.process
            .log_with_output()
            .map(|log| format!(" (its output: {})", log.display()))
            .unwrap_or_default()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        // The process itself ends as its line is dropped: its input closes, and it is
        // killed if it is still there a moment later.
        let _ = self.send(&HostMessage::Quit);
    }
}

/// The folder of this process's bot logs, made on first use.
pub fn log_folder() -> &'static Path {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        let folder = std::env::temp_dir().join(format!("tetrad-bots-{}", std::process::id()));
        if let Err(err) = std::fs::create_dir_all(&folder) {
            log::warn!("bot logs: {}: {err}", folder.display());
        }
        log::info!("bot logs in {}", folder.display());
        folder
    })
}

/// A new log file for a bot named `name`.
fn next_log(name: &str) -> PathBuf {
    static STARTED: AtomicU64 = AtomicU64::new(0);
    let number = STARTED.fetch_add(1, Ordering::Relaxed) + 1;
    log_folder().join(format!("bot-{number:04}-{}.log", file_safe(name)))
}

/// At most 200 characters of a line, for a message.
fn clip(line: &str) -> &str {
    match line.char_indices().nth(200) {
        Some((at, _)) => &line[..at],
        None => line,
    }
}

fn duration_text(duration: Duration) -> String {
    if duration >= Duration::from_secs(1) {
        format!("{:.1} s", duration.as_secs_f64())
    } else {
        format!("{} µs", duration.as_micros())
    }
}
