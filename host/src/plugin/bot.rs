//! A process bot's side of the bot protocol as the host speaks it: the bot started from its
//! manifest on a private line, the hello and its info, and every later message with a
//! deadline. What each message holds is in [`messages`]; `docs/protocol.md` is the spec.

mod idle;
pub mod messages;

pub use crate::referee::{Failure, FailureKind};
pub use idle::{IdleBot, IdleBots, Lease};

use super::manifest::Manifest;
use crate::process::{file_safe, output_hint, ChildProcess, NoLine, NotSent, WRITE_LIMIT};
use messages::{BotMessage, HostMessage, PROTOCOL_VERSION};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

/// How long a bot may take to say hello after it starts.
pub const HELLO_LIMIT: Duration = Duration::from_secs(10);

/// The shortest wait for a bot's line on a clock that leaves the machine's delays
/// uncharged: between two, what the machine took is read again.
const MACHINE_STEP: Duration = Duration::from_millis(1);

/// The longest line a bot may send, newline included: a longer one ends its game as a
/// `plugin_error` the moment the cap is passed, and no more of it is read.
pub const LINE_CAP_BYTES: u64 = 1 << 20;

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
    /// Under `--sandbox`, its scratch folder, removed after the process has ended.
    scratch: Option<crate::sandbox::Scratch>,
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
        // Names, paths and commands come from files anyone may write: printed escaped.
        let label = super::printable(format!("bot `{}` ({})", manifest.name, manifest.path.display()));
        let cannot_start = |err: std::io::Error| {
            Failure::new(
                FailureKind::Error,
                format!(
                    "{label}: cannot start `{}`: {err}",
                    super::printable(manifest.program.display().to_string())
                ),
            )
        };
        // Its own folder is the manifest's (or, for a library served as a bot, the library's).
        let own = std::path::absolute(&manifest.path)
            .ok()
            .and_then(|path| path.parent().map(Path::to_path_buf))
            .unwrap_or_else(|| manifest.working_dir.clone());
        let (mut command, scratch) = crate::sandbox::wrap(manifest.command(), &[&own], &[]).map_err(cannot_start)?;
        // A bot that thinks only while the host waits shares the waiting thread's CPU, if
        // that thread has one.
        if let (true, Some(cpu)) = (manifest.pin, crate::process::affinity::current_cpu()) {
            crate::process::affinity::pin_child(&mut command, cpu);
        }
        let process = ChildProcess::spawn_following(command, &log, &label, LINE_CAP_BYTES).map_err(cannot_start)?;
        Ok(BotProcess {
            process,
            label,
            scratch,
        })
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
        match self.process.send_line(&text) {
            Ok(()) => Ok(()),
            Err(NotSent::Closed) => Err(self.ended("while tetrad wrote to it")),
            Err(NotSent::Full) => {
                self.process.kill();
                Err(Failure::new(
                    FailureKind::Timeout,
                    format!(
                        "{}: read none of its input for {} while tetrad wrote to it{}",
                        self.label,
                        duration_text(WRITE_LIMIT),
                        self.log_hint()
                    ),
                ))
            }
        }
    }

    /// The bot's next message, waiting at most `deadline`; `awaited` names what was
    /// expected, for the failure's message.
    #[inline]
    pub fn receive(&mut self, deadline: Duration, awaited: &str) -> Result<BotMessage, Failure> {
        let started = std::time::Instant::now();
        self.receive_on_clock(deadline, deadline, &mut || started.elapsed(), awaited)
    }

    /// [`BotProcess::receive`] on a clock that leaves the machine's delays uncharged (see
    /// [`BotProcess::receive_json_on_clock`]).
    #[inline]
    pub fn receive_on_clock(
        &mut self,
        limit: Duration,
        hard: Duration,
        charged: &mut dyn FnMut() -> Duration,
        awaited: &str,
    ) -> Result<BotMessage, Failure> {
        match self.receive_json_on_clock::<BotMessage>(limit, hard, charged, awaited)? {
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
        let started = std::time::Instant::now();
        self.receive_json_on_clock(deadline, deadline, &mut || started.elapsed(), awaited)
    }

    /// The bot's next line, read as a message of type `M`, waited for until `charged()`
    /// (the time charged to the bot so far: the wall clock's, less what the machine took)
    /// reaches `limit`, and never longer than `hard` on the wall clock. Silence until then
    /// kills the bot; `awaited` names what was expected.
    pub fn receive_json_on_clock<M: serde::de::DeserializeOwned>(
        &mut self,
        limit: Duration,
        hard: Duration,
        charged: &mut dyn FnMut() -> Duration,
        awaited: &str,
    ) -> Result<M, Failure> {
        let started = std::time::Instant::now();
        loop {
            let hard_left = hard.saturating_sub(started.elapsed());
            let left = limit.saturating_sub(charged());
            if left.is_zero() || hard_left.is_zero() {
                self.process.kill();
                return Err(Failure::new(
                    FailureKind::Timeout,
                    format!(
                        "{}: no answer within {} while tetrad waited for {awaited}{}",
                        self.label,
                        duration_text(limit),
                        self.log_hint()
                    ),
                ));
            }
            // A wait of a millisecond at least: the machine's share is read between waits.
            let wait = left.max(MACHINE_STEP).min(hard_left);
            if let Some(line) = self.line_within(wait, awaited)? {
                return self.read_as(&line, awaited);
            }
        }
    }

    /// The bot's next line, if it sends one within `deadline` (`None`: it stayed silent, and
    /// runs on); `awaited` names what was expected, for the failure's message.
    pub fn line_within(&mut self, deadline: Duration, awaited: &str) -> Result<Option<String>, Failure> {
        match self.process.next_line(deadline) {
            Ok(line) => Ok(Some(line)),
            Err(NoLine::Silent) => Ok(None),
            Err(NoLine::Closed) => Err(self.ended(&format!("while tetrad waited for {awaited}"))),
            Err(NoLine::TooLong) => {
                self.process.kill();
                Err(self.broke(&format!(
                    "sent a line longer than {} MiB while tetrad waited for {awaited}",
                    LINE_CAP_BYTES >> 20
                )))
            }
        }
    }

    /// `line` read as a message of type `M`; `awaited` names what was expected.
    pub fn read_as<M: serde::de::DeserializeOwned>(&self, line: &str, awaited: &str) -> Result<M, Failure> {
        serde_json::from_str::<M>(line).map_err(|err| {
            Failure::new(
                FailureKind::Error,
                format!(
                    "{}: sent `{}` when tetrad waited for {awaited} ({err})",
                    self.label,
                    super::printable(clip(line.trim_end()).to_string())
                ),
            )
        })
    }

    /// A line the bot sent that nothing asked for, if one has arrived: sent before a
    /// request, it would be taken for that request's answer.
    pub fn spare_line(&mut self) -> Option<String> {
        self.process.waiting_line()
    }

    /// The failure of a bot that sent `line` when nothing asked for it, `after` saying what
    /// it had answered already.
    pub fn spare(&self, line: &str, after: &str) -> Failure {
        self.broke(&format!(
            "sent `{}` after {after}, when nothing was asked of it",
            super::printable(clip(line.trim_end()).to_string())
        ))
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

    /// Whether the process has ended (it is then of no use for another game).
    pub fn has_ended(&mut self) -> bool {
        self.process.has_ended()
    }

    /// The failure of a bot whose process ended.
    fn ended(&mut self, when: &str) -> Failure {
        let cause = self.process.exit_cause();
        if self.scratch.is_some() {
            if let Some(why) = crate::sandbox::stopped(self.process.exit_signal(), self.process.exit_code()) {
                return Failure::new(
                    FailureKind::Sandbox,
                    format!("{}: {cause} {when}: {why}{}", self.label, self.log_hint()),
                );
            }
        }
        Failure::new(
            FailureKind::Crashed,
            format!("{}: {cause} {when}{}", self.label, self.log_hint()),
        )
    }

    /// How the bot is named in messages: its manifest's name and path.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The process ID of the bot (of its launcher, in the sandbox).
    pub fn id(&self) -> u32 {
        self.process.id()
    }

    /// Whether the bot runs in the sandbox.
    pub fn sandboxed(&self) -> bool {
        self.scratch.is_some()
    }

    /// Where to read what the bot printed, if it printed anything.
    fn log_hint(&self) -> String {
        output_hint("its output", self.process.log_with_output())
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        // The process itself ends as its line is dropped: its input closes, and it is
        // killed if it is still there a moment later.
        let _ = self.send(&HostMessage::Quit);
    }
}

/// Where this process's bot logs go, if not the default (see [`log_folder`]). Set once, before
/// the first bot starts; `false` if a bot had started already.
pub fn set_log_folder(folder: PathBuf) -> bool {
    LOG_FOLDER.set(folder).is_ok()
}

static LOG_FOLDER: OnceLock<PathBuf> = OnceLock::new();
/// Whether the folder has been made.
static LOG_FOLDER_MADE: OnceLock<()> = OnceLock::new();

/// The folder of this process's bot logs, made on first use: the one set with
/// [`set_log_folder`], else `tetrad-bots-PID` in the temporary directory.
pub fn log_folder() -> &'static Path {
    let folder = LOG_FOLDER.get_or_init(|| std::env::temp_dir().join(format!("tetrad-bots-{}", std::process::id())));
    LOG_FOLDER_MADE.get_or_init(|| {
        if let Err(err) = std::fs::create_dir_all(folder) {
            log::warn!("bot logs: {}: {err}", folder.display());
        }
        log::info!("bot logs in {}", folder.display());
    });
    folder
}

/// At the end of a run: the bot log folder goes, unless logs are kept; a kept folder that
/// holds no log (every bot was silent) goes too. Each bot's process has ended by then.
pub fn finish_logs() {
    if LOG_FOLDER_MADE.get().is_none() {
        return;
    }
    let folder = log_folder();
    crate::process::finish_log_folder(folder);
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
