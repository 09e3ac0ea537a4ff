//! The process flavour: a program named by a manifest, one process per game, asked through
//! the bot protocol for actions at every tick or for a placement at every piece.

use super::{Budget, CreateError, Decision, Observation, Reply, Target};
use crate::plugin::bot::messages::{Answers, BotMessage, Falling, HostMessage, Start, State};
use crate::plugin::bot::{BotProcess, Failure, FailureKind, IdleBot};
use crate::plugin::{Manifest, Plugin};
use crate::process::run_delay::{self, BotThreads};
use crate::watch::Watch;
use std::borrow::Cow;
use std::time::Duration;
use tetrad_plugin_api::{Actions, PieceSet, Rules};

/// The think limit of a process bot when the user sets none: a bot that hangs must not
/// hang the run.
pub const DEFAULT_BOT_THINK_LIMIT: Duration = Duration::from_secs(10);

/// The shortest time a bot has to answer `start`, whatever the think limit: starting an
/// interpreter and its imports takes a while.
const START_LIMIT_FLOOR: Duration = Duration::from_secs(2);

/// How much longer than its clock has left a bot's answer is awaited under a time control:
/// enough that the referee sees the clock below zero when the answer does not come.
pub(super) const CLOCK_GRACE: Duration = Duration::from_millis(1);

/// How long to wait for a bot's answer: the think limit (`None`: none was set, the default
/// applies), or under a time control the time its clock has left, within the think limit
/// if one was set. Under a time control, the wait goes on by what the machine took (see
/// [`machine_delay`]), up to [`hard_limit`].
pub(super) fn answer_limit(think_limit: Option<Duration>, budget: Option<Budget>) -> Duration {
    match (budget, think_limit) {
        (Some(budget), Some(limit)) => (budget.limit + CLOCK_GRACE).min(limit),
        (Some(budget), None) => budget.limit + CLOCK_GRACE,
        (None, limit) => limit.unwrap_or(DEFAULT_BOT_THINK_LIMIT),
    }
}

/// The longest an answer is awaited however much of the wait the machine took: the think
/// limit if one was set, else the default one.
pub(super) fn hard_limit(think_limit: Option<Duration>) -> Duration {
    think_limit.unwrap_or(DEFAULT_BOT_THINK_LIMIT)
}

/// The machine's part in a bot's answer that came `took` after the question, from its
/// `threads` as they were when it was asked (see [`BotThreads::machine_part`]): not charged
/// to the bot's clock.
pub(super) fn machine_delay(threads: &BotThreads, took: Duration) -> Duration {
    static CPUS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cpus = *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from));
    threads.machine_part(took, cpus)
}

/// A bot process playing one game.
pub struct Process {
    bot: BotProcess,
    answers: Answers,
    /// The think limit, if one was set.
    think_limit: Option<Duration>,
    /// What the next answer may spend under a time control.
    budget: Option<Budget>,
    /// The action bits it may answer with.
    accepted: u32,
}

impl Process {
    /// Starts `manifest`'s bot for a game under these rules and sends it the game. The bot
    /// refusing the game (its `error`), or failing to start at all, is a refusal; a bot
    /// that times out or ends while it starts forfeits the game.
    pub fn create(
        plugin: &Plugin,
        manifest: &Manifest,
        rules: &Rules,
        pieces: &PieceSet,
        plugin_seed: u64,
        options: &str,
        think_limit_ns: Option<u64>,
    ) -> Result<Process, CreateError> {
        let failed = |failure: Failure, forfeit: bool| CreateError {
            plugin: plugin.info().name.clone(),
            path: plugin.path().display().to_string(),
            message: failure.message,
            forfeit: (forfeit && failure.kind != FailureKind::Error).then_some(failure.kind),
        };
        let start_limit = match think_limit_ns {
            Some(ns) => Duration::from_nanos(ns).max(START_LIMIT_FLOOR),
            None => DEFAULT_BOT_THINK_LIMIT,
        };
        // This thread waits for every answer: it and the bot share a CPU.
        let cpu = manifest.pin.then(crate::process::affinity::this_threads_cpu).flatten();
        // The process that told the bot's info, if it is still there, else a new one.
        let idle = plugin.idle_bots().and_then(|idle| idle.take(None));
        if let (Some(idle), Some(cpu)) = (&idle, cpu) {
            crate::process::affinity::pin_process(idle.bot.id(), cpu);
        }
        let (mut bot, answers) = match idle {
            Some(IdleBot {
                bot,
                answers: Some(answers),
                ..
            }) => (bot, answers),
            _ => {
                let (bot, info) = BotProcess::start(manifest).map_err(|failure| failed(failure, true))?;
                (bot, info.answers)
            }
        };
        let start = Start::new(rules, pieces, plugin_seed, options);
        bot.send(&HostMessage::Start(Box::new(start)))
            .map_err(|failure| failed(failure, true))?;
        match bot.receive(start_limit, "`ready`") {
            Ok(BotMessage::Ready) => {}
            Ok(other) => return Err(failed(bot.unexpected(&other, "`ready`"), true)),
            Err(failure) => return Err(failed(failure, true)),
        }
        Ok(Process {
            bot,
            answers,
            think_limit: think_limit_ns.map(Duration::from_nanos),
            budget: None,
            accepted: plugin.accepted_actions(),
        })
    }

    /// What the next answer may spend.
    pub(super) fn set_budget(&mut self, budget: Budget) {
        self.budget = Some(budget);
    }

    /// The action bits the bot may answer with: every bit the protocol defines, or a
    /// library's served as a bot, those of its ABI version.
    pub(super) fn accepted_actions(&self) -> u32 {
        self.accepted
    }

    /// Asks the bot about this tick (or this piece) and reads its answer within the think
    /// limit. Never inlined: a round trip costs microseconds anyway, and kept out of line it
    /// leaves the library flavour's path through the game loop as it was.
    #[inline(never)]
    pub(super) fn decide(&mut self, seen: &Observation<'_>, clock: &quanta::Clock, watch: Option<&Watch>) -> Reply {
        let field = seen.board.rows();
        let current = seen.current.map(|falling| Falling {
            piece: falling.piece.0,
            orientation: falling.pos.orientation,
            x: falling.pos.x,
            y: falling.pos.y,
        });
        let next = seen.next.map(|piece| piece.0);
        let state = State::from_abi(&seen.state());
        let (message, awaited) = match self.answers {
            Answers::Tick => (
                HostMessage::Tick {
                    field: Cow::Borrowed(field),
                    current,
                    next,
                    new_piece: seen.new_piece,
                    state,
                },
                "`actions`",
            ),
            Answers::Placement => (
                HostMessage::Piece {
                    field: Cow::Borrowed(field),
                    current,
                    next,
                    new_piece: true,
                    state,
                },
                "`placement`",
            ),
        };
        let budget = self.budget.take();
        let wait = answer_limit(self.think_limit, budget);
        // Under a time control, the machine's delays are not the bot's time.
        let threads = budget.map(|_| BotThreads::of(self.bot.id()));
        let started = clock.raw();
        if let Some(watch) = watch {
            watch.set_update_started(Some(started));
        }
        // A line already waiting would be taken for this request's answer: the bot answered
        // an earlier one twice.
        let answer = match self.bot.spare_line() {
            Some(line) => Err(self.bot.spare(&line, "its answer")),
            None => self.bot.send(&message).and_then(|()| match &threads {
                Some(threads) => {
                    let asked = std::time::Instant::now();
                    let hard = hard_limit(self.think_limit);
                    let own_wait = run_delay::this_thread();
                    let mut charged = || {
                        let took = asked.elapsed();
                        let host_waited = run_delay::this_thread().saturating_sub(own_wait);
                        took.saturating_sub(machine_delay(threads, took) + host_waited)
                    };
                    self.bot.receive_on_clock(wait, hard, &mut charged, awaited)
                }
                None => self.bot.receive(wait, awaited),
            }),
        };
        let mut elapsed_ns = clock.delta_as_nanos(started, clock.raw());
        if let Some(threads) = &threads {
            let machine = machine_delay(threads, Duration::from_nanos(elapsed_ns));
            elapsed_ns -= machine.as_nanos() as u64;
        }
        if let Some(watch) = watch {
            watch.set_update_started(None);
        }
        let decision = match (answer, self.answers) {
            (Ok(BotMessage::Actions { bits }), Answers::Tick) => Ok(Decision::Actions(Actions(bits))),
            (
                Ok(BotMessage::Placement {
                    orientation,
                    column,
                    slide,
                }),
                Answers::Placement,
            ) => Ok(Decision::Placement(Target {
                orientation,
                column,
                slide,
            })),
            (Ok(other), _) => Err(Box::new(self.bot.unexpected(&other, awaited))),
            (Err(failure), _) => Err(Box::new(failure)),
        };
        Reply { decision, elapsed_ns }
    }
}
