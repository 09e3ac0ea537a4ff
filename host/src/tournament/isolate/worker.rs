//! The worker's side of isolation: takes the process's stdin and stdout for the parent
//! before any plugin code runs, plays the games the parent asks for, and ends a `create`
//! or an update that outlasts its limit, or the whole process once the parent is gone.

use super::progress;
use super::protocol::{Reply, ReplyKind, Request, CREATE_LIMIT_FLOOR, HEARTBEAT};
use crate::plugin::Plugin;
use crate::runner::{self, game_seed, RunSpec};
use crate::tournament::record::GameRecord;
use crate::watch::Watch;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsFd;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The worker's private line to its parent: the original stdin and stdout, which no plugin
/// code can reach by writing to fd 1 or reading fd 0.
pub struct Channel {
    requests: BufReader<File>,
    replies: Arc<Mutex<File>>,
}

impl Channel {
    /// Takes stdin and stdout for the parent. Afterwards fd 0 reads nothing (`/dev/null`)
    /// and fd 1 writes where fd 2 does (the worker's log), so whatever a plugin prints,
    /// from its library constructor on, never reaches the parent as a reply.
    pub fn take_stdio() -> std::io::Result<Channel> {
        let requests = File::from(std::io::stdin().as_fd().try_clone_to_owned()?);
        let replies = File::from(std::io::stdout().as_fd().try_clone_to_owned()?);
        let nothing = File::open("/dev/null")?;
        rustix::stdio::dup2_stdin(&nothing)?;
        rustix::stdio::dup2_stdout(std::io::stderr().as_fd())?;
        Ok(Channel {
            requests: BufReader::new(requests),
            replies: Arc::new(Mutex::new(replies)),
        })
    }

    /// The requests to read and the replies to write (one whole line a write).
    pub fn into_parts(self) -> (BufReader<File>, Arc<Mutex<File>>) {
        (self.requests, self.replies)
    }
}

/// Ends this process when `parent` is no longer its parent: at once on Linux, through a
/// death signal, and from the heartbeat elsewhere. Called before the plugin is loaded.
pub fn follow_parent(parent: u32) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // Failure leaves the heartbeat's check, which ends the worker within half a second.
        let _ = rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL));
    }
    if !parent_is(parent) {
        std::process::exit(0);
    }
}

fn parent_is(parent: u32) -> bool {
    match rustix::process::getppid() {
        // The sandbox's launcher keeps the first process of the bot's PID namespace and
        // starts the bot as the second (outside a namespace, process 2 is the kernel's):
        // it ends with the parent and takes the namespace with it.
        Some(pid) if pid.as_raw_nonzero().get() == 1 && rustix::process::getpid().as_raw_nonzero().get() == 2 => true,
        Some(pid) => pid.as_raw_nonzero().get() as u32 == parent,
        // A parent outside this process's PID namespace.
        None => true,
    }
}

/// How far past the think limit the watchdog lets an update run before it ends the
/// worker. A bot process's own deadline ends a late answer at the limit itself, with its
/// cause; the watchdog is for what cannot be interrupted (a library's update), and waiting
/// this little longer keeps the two from racing.
const OVERRUN_MARGIN_NS: u64 = 250_000_000;

/// What the worker needs besides the plugin and the game setup.
pub struct ServeOptions<'a> {
    /// The update limit, in microseconds.
    pub think_limit_us: u64,
    /// The parent's process id.
    pub parent: u32,
    /// The file shared with the parent for progress, if it gave one.
    pub progress: Option<&'a Path>,
}

/// Plays the games the parent asks for until it closes the request channel.
pub fn serve(channel: Channel, plugin: &Plugin, spec: &RunSpec, options: ServeOptions<'_>) -> anyhow::Result<()> {
    let watch = options.progress.and_then(|path| match progress::shared_watch(path) {
        Ok(watch) => Some(watch),
        Err(err) => {
            // Goes to the worker's log; the games still play, a crash just keeps less.
            eprintln!("tetrad worker: progress file {}: {err}", path.display());
            None
        }
    });
    let watch = Arc::new(watch.unwrap_or_default());
    let spec = RunSpec {
        watch: Some(watch.clone()),
        ..spec.clone()
    };
    let playing: Arc<Mutex<Option<Request>>> = Arc::default();
    let guard = Guard {
        watch,
        replies: channel.replies.clone(),
        playing: playing.clone(),
        limits: Limits::new(options.think_limit_us),
        parent: options.parent,
    };
    std::thread::spawn(move || guard.run());
    let Channel { requests, replies } = channel;
    for line in requests.lines() {
        let line = line?;
        let request: Request =
            serde_json::from_str(&line).map_err(|err| anyhow::anyhow!("unreadable request `{line}`: {err}"))?;
        if request.seed != game_seed(spec.seed, request.game) {
            anyhow::bail!(
                "request for game {} with seed {}: not this tournament's",
                request.game,
                request.seed
            );
        }
        *lock(&playing) = Some(request);
        let kind = match runner::play_game(plugin, &spec, request.game) {
            Ok(result) => ReplyKind::Result {
                record: Box::new(GameRecord::new(request.entrant, &result)),
            },
            Err(err) => ReplyKind::CreateFailed {
                message: err.to_string(),
            },
        };
        // Cleared before the answer goes out: from here on the watchdog has no game to
        // time out, and sends heartbeats only.
        *lock(&playing) = None;
        send(&replies, &Reply::answering(&request, kind));
    }
    Ok(())
}

/// Locks `mutex`, whatever a panicking holder left: the data are plain values.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn send(replies: &Mutex<File>, reply: &Reply) {
    let mut text = serde_json::to_string(reply).expect("replies serialise");
    text.push('\n');
    // One write per reply, under the lock, so the heartbeat never splits a line. A parent
    // that went away gets nothing; the worker ends with it.
    let _ = lock(replies).write_all(text.as_bytes());
}

/// How long a worker lets a call run.
#[derive(Clone, Copy)]
struct Limits {
    think_limit_us: u64,
    create_limit: Duration,
}

impl Limits {
    fn new(think_limit_us: u64) -> Limits {
        Limits {
            think_limit_us,
            create_limit: Duration::from_micros(think_limit_us).max(CREATE_LIMIT_FLOOR),
        }
    }
}

/// The worker's watchdog thread: heartbeats, the limits, and the parent's presence.
struct Guard {
    watch: Arc<Watch>,
    replies: Arc<Mutex<File>>,
    playing: Arc<Mutex<Option<Request>>>,
    limits: Limits,
    parent: u32,
}

impl Guard {
    fn run(self) {
        loop {
            std::thread::sleep(HEARTBEAT);
            if !parent_is(self.parent) {
                std::process::exit(0);
            }
            let playing = *lock(&self.playing);
            match (playing, self.overrun()) {
                (Some(request), Some(message)) => {
                    send(
                        &self.replies,
                        &Reply::answering(&request, ReplyKind::Timeout { message }),
                    );
                    std::process::exit(0);
                }
                _ => send(&self.replies, &Reply::alive()),
            }
        }
    }

    /// What has run past its limit, if anything.
    fn overrun(&self) -> Option<String> {
        let Limits {
            think_limit_us,
            create_limit,
        } = self.limits;
        if let Some(creating) = self
            .watch
            .creating_ns()
            .filter(|&ns| ns > create_limit.as_nanos() as u64)
        {
            return Some(format!(
                "create still running after {:.1} s, limit {:.1} s",
                creating as f64 / 1e9,
                create_limit.as_secs_f64()
            ));
        }
        let running = self
            .watch
            .running_ns()
            .filter(|&ns| ns > think_limit_us.saturating_mul(1000) + OVERRUN_MARGIN_NS)?;
        Some(format!(
            "update still running after {} µs, limit {think_limit_us} µs",
            running / 1000
        ))
    }
}
