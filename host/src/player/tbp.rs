//! The TBP flavour: a program speaking the Tetris Bot Protocol, one process playing a run's
//! games one after another, with tetrad as its frontend. The bot is told each position
//! (`start`), asked for moves (`suggest`), and told the move played (`play`) and each piece
//! that joins the queue (`new_piece`); the first legal move it suggests is played on a path
//! the host finds through SRS. When the board is not the one the bot expects (garbage rose, in versus),
//! the bot is stopped and started again from the board as it is.

use super::{Budget, CreateError, Decision, Observation, Reply, DEFAULT_BOT_THINK_LIMIT};
use crate::plugin::bot::{Failure, FailureKind, IdleBot, Lease, HELLO_LIMIT};
use crate::plugin::tbp::messages::{BotMessage, FrontendMessage, Move, RandomizerKind, RandomizerState, Start};
use crate::plugin::tbp::start;
use crate::plugin::{printable, Manifest, Plugin};
use crate::watch::Watch;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tetrad_plugin_api::{Actions, Board, PieceId, PieceSet, Preset, Randomizer, Rules};

/// How long to wait before asking again a bot that suggested no move (it may know too
/// little yet, just after `start` or `play`).
const ASK_AGAIN_AFTER: Duration = Duration::from_millis(2);

/// The most moves of one suggestion that are tried, in the bot's order of preference: a
/// bot lists its best first, and a suggestion of thousands must not cost the host seconds.
pub const MOVES_TRIED: usize = 100;

/// What the bot knows of the game: the position after the last move it was told of.
struct Known {
    /// The board it expects.
    board: Board,
    /// Its hold.
    hold: Option<PieceId>,
    /// Its queue, the falling piece first.
    queue: VecDeque<PieceId>,
}

/// The think time in milliseconds that `options` give (`think_ms=N`), else `manifest`'s;
/// any other option is refused: the protocol has none.
fn think_option(options: &str, manifest: u64) -> Result<u64, String> {
    let mut parsed = tetrad_plugin_api::Options::parse(options)?;
    let think_ms = parsed.get("think_ms", manifest)?;
    parsed.finish().map_err(|_| {
        format!("a TBP bot takes no options but `think_ms` (`{options}`); give it arguments in its manifest")
    })?;
    Ok(think_ms)
}

/// A TBP bot playing one game.
pub struct Tbp {
    bot: Lease,
    pieces: PieceSet,
    rules: Rules,
    think_limit: Duration,
    /// The think limit, if one was set (`think_limit` is then the same).
    limit_given: Option<Duration>,
    /// How long the bot calculates before each `suggest` (its manifest's `think_ms`, or
    /// the `think_ms` option), without a time control.
    think: Duration,
    /// What the next move may spend under a time control.
    budget: Option<Budget>,
    /// `None` until the first `start`.
    known: Option<Known>,
    /// The randomizer the bot was told in `rules`.
    randomizer: RandomizerKind,
    /// The `move_info` of the suggestions played, summed.
    searched: Searched,
    /// How late its answers came after the host meant to ask, under a time control: the
    /// plugin's, over the run.
    answer_times: Arc<Mutex<AnswerTimes>>,
}

/// The randomizer a bot is told: the game's, or `unknown` when the pieces come from a
/// given sequence (`--sequence`), which no randomizer deals.
fn told_randomizer(rules: &Rules, given_pieces: bool) -> RandomizerKind {
    match rules.randomizer {
        _ if given_pieces => RandomizerKind::Unknown,
        Randomizer::Bag => RandomizerKind::SevenBag,
        Randomizer::Uniform => RandomizerKind::Uniform,
    }
}

impl Tbp {
    /// Starts `manifest`'s bot, reads its `info` and tells it the rules (the randomizer
    /// `unknown` when `given_pieces`: the games play a sequence). Rules other than the
    /// guideline's 10x40 board are refused in one line: TBP assumes that board.
    pub fn create(
        plugin: &Plugin,
        manifest: &Manifest,
        rules: &Rules,
        pieces: &PieceSet,
        given_pieces: bool,
        options: &str,
        think_limit: Option<Duration>,
    ) -> Result<Tbp, CreateError> {
        let limit_given = think_limit;
        let think_limit = think_limit.unwrap_or(DEFAULT_BOT_THINK_LIMIT);
        let refused = |message: String, forfeit: Option<FailureKind>| CreateError {
            plugin: plugin.info().name.clone(),
            path: plugin.path().display().to_string(),
            message,
            forfeit,
        };
        // The protocol has no options; the host's one is the think time. Any other key,
        // taken silently, would change nothing, so it is refused.
        let think_ms = think_option(options, manifest.think_ms).map_err(|message| refused(message, None))?;
        // The think time counts against the think limit: one that fills it leaves the bot
        // no time to answer.
        let think = Duration::from_millis(think_ms);
        if think >= think_limit {
            return Err(refused(
                format!(
                    "think_ms={think_ms} leaves no time to answer within the think limit of {} ms",
                    think_limit.as_millis()
                ),
                None,
            ));
        }
        if rules.preset != Preset::Guideline || rules.width != 10 || rules.height != 40 || !pieces.is_srs() {
            return Err(refused(
                format!(
                    "a TBP bot plays the guideline preset on its 10x40 board, not {} {}x{}",
                    rules.preset.name(),
                    rules.width,
                    rules.height
                ),
                None,
            ));
        }
        let failed = |failure: Failure| {
            let forfeit = (failure.kind != FailureKind::Error).then_some(failure.kind);
            refused(failure.message, forfeit)
        };
        // The randomizer extension's attributes go to every bot, whatever `features` its
        // `info` lists: the protocol asks a bot to ignore attributes it does not know, so
        // they are allowed to any bot, and a bot may read them without listing a feature
        // (Cold Clear 2 lists none and reads the bag). The extension names no feature.
        let randomizer = told_randomizer(rules, given_pieces);
        let told = FrontendMessage::Rules {
            randomizer: Some(randomizer),
        };
        let told_text = serde_json::to_string(&told).expect("messages serialise");
        // A process that played a game under these rules, or the one that told the bot's
        // info, before a new one.
        let idle = plugin.idle_bots();
        // A TBP bot that searches on one thread (its manifest's `pin = true`) shares this
        // thread's CPU.
        let cpu = manifest.pin.then(crate::process::affinity::this_threads_cpu).flatten();
        let (bot, ready) = match idle.and_then(|idle| idle.take(Some(&told_text))) {
            Some(IdleBot { bot, rules, .. }) => {
                if let Some(cpu) = cpu {
                    crate::process::affinity::pin_process(bot.id(), cpu);
                }
                (bot, rules.is_some())
            }
            None => (start(manifest).map_err(failed)?.0, false),
        };
        let mut tbp = Tbp {
            bot: Lease::new(bot, idle.cloned(), told_text),
            pieces: pieces.clone(),
            rules: *rules,
            think_limit,
            limit_given,
            think,
            budget: None,
            known: None,
            randomizer,
            searched: Searched::default(),
            answer_times: answer_time::of_plugin(plugin.path()),
        };
        if ready {
            return Ok(tbp);
        }
        match tbp.tell_rules(&told) {
            Ok(()) => Ok(tbp),
            Err(refusal) => {
                tbp.bot.spoil();
                Err(match refusal {
                    Refusal::Rules(reason) => {
                        refused(format!("the bot refused the rules ({})", printable(reason)), None)
                    }
                    Refusal::Failed(failure) => failed(failure),
                })
            }
        }
    }

    /// Tells the bot the rules and waits for its `ready`.
    fn tell_rules(&mut self, told: &FrontendMessage) -> Result<(), Refusal> {
        self.bot.send_json(told)?;
        let asked = Instant::now();
        loop {
            let left = self.think_limit.max(HELLO_LIMIT).saturating_sub(asked.elapsed());
            match self.bot.receive_json(left, "`ready`")? {
                BotMessage::Ready => return Ok(()),
                BotMessage::Error { reason } => return Err(Refusal::Rules(reason)),
                BotMessage::Unknown => {}
                BotMessage::Info { .. } => return Err(self.bot.unexpected_kind("info", "`ready`").into()),
                BotMessage::Suggestion { .. } => return Err(self.bot.unexpected_kind("suggestion", "`ready`").into()),
            }
        }
    }

    /// What the next move may spend.
    pub(super) fn set_budget(&mut self, budget: Budget) {
        self.budget = Some(budget);
    }

    /// The bot's move for the falling piece, as the whole path to it. Never inlined: a
    /// round trip costs microseconds anyway.
    #[inline(never)]
    pub(super) fn decide(&mut self, seen: &Observation<'_>, clock: &quanta::Clock, watch: Option<&Watch>) -> Reply {
        let started = clock.raw();
        if let Some(watch) = watch {
            watch.set_update_started(Some(started));
        }
        let chosen = self.choose(seen);
        // The host's own check of the answer and the machine's delays are not the bot's time.
        let uncharged_ns = chosen.as_ref().map_or(0, |chosen| chosen.uncharged.as_nanos() as u64);
        let decision = chosen.map(|chosen| Decision::Path(chosen.path)).map_err(Box::new);
        if decision.is_err() {
            // Started again only after it failed or broke the protocol.
            self.bot.spoil();
        }
        let elapsed_ns = clock.delta_as_nanos(started, clock.raw()).saturating_sub(uncharged_ns);
        if let Some(watch) = watch {
            watch.set_update_started(None);
        }
        Reply { decision, elapsed_ns }
    }

    /// Tells the bot the position: the pieces that joined the queue since the last move, or
    /// else (the first piece, or a board it does not expect) a fresh `start`.
    fn catch_up(
        &mut self,
        board: &Board,
        hold: Option<PieceId>,
        queue: &VecDeque<PieceId>,
        bag: Option<Vec<PieceId>>,
        combo: u32,
        back_to_back: bool,
    ) -> Result<(), Failure> {
        if let Some(known) = &mut self.known {
            let follows = known.queue.len() <= queue.len() && known.queue.iter().zip(queue).all(|(a, b)| a == b);
            if known.board == *board && known.hold == hold && follows {
                for &piece in queue.iter().skip(known.queue.len()) {
                    let name = self.pieces.kind(piece).name().to_string();
                    self.bot.send_json(&FrontendMessage::NewPiece { piece: name })?;
                    known.queue.push_back(piece);
                }
                return Ok(());
            }
            self.bot.send_json(&FrontendMessage::Stop)?;
        }
        let name = |piece: PieceId| self.pieces.kind(piece).name().to_string();
        let start = Start {
            hold: hold.map(name),
            queue: queue.iter().map(|&piece| name(piece)).collect(),
            combo,
            back_to_back,
            board: (0..board.height())
                .rev()
                .map(|y| {
                    (0..board.width())
                        .map(|x| board.filled(x, y).then(|| "G".to_string()))
                        .collect()
                })
                .collect(),
            // The state at the end of the queue, of the randomizer `rules` named: the bag
            // left, or for a uniform randomizer an object with its type alone; none for an
            // unknown one.
            randomizer: match self.randomizer {
                RandomizerKind::SevenBag => bag.map(|bag| RandomizerState::SevenBag {
                    bag_state: bag.into_iter().map(name).collect(),
                }),
                RandomizerKind::Uniform => Some(RandomizerState::Uniform),
                RandomizerKind::Unknown => None,
            },
        };
        self.bot.send_json(&FrontendMessage::Start(Box::new(start)))?;
        self.known = Some(Known {
            board: board.clone(),
            hold,
            queue: queue.clone(),
        });
        Ok(())
    }

    /// The path that plays `suggested`, if it is legal now: see [`legal`].
    fn legal(
        &self,
        seen: &Observation<'_>,
        hold: Option<PieceId>,
        hold_available: bool,
        suggested: &Move,
        reach: &mut Reach,
    ) -> Result<(Vec<Actions>, Played), String> {
        let current = seen.current.ok_or("no piece is falling")?;
        let swap = hold.or(seen.next).filter(|_| hold_available);
        legal(&self.rules, &self.pieces, seen.board, current, swap, suggested, reach)
    }

    /// The `move_info` numbers of the moves played so far, summed.
    pub fn searched(&self) -> Searched {
        self.searched
    }

    /// Updates what the bot knows after `played` on `board`.
    fn played(&mut self, board: &Board, played: Played) {
        // A hold whose piece could not enter ended the game: nothing more to know.
        let (Some(known), Some(pos)) = (&mut self.known, played.pos) else {
            return;
        };
        let mut after = board.clone();
        let shape = self.pieces.kind(played.piece).orientation(pos.orientation);
        after.lock(shape, pos.x, pos.y);
        known.board = after;
        let falling = known.queue.pop_front();
        if played.held {
            if known.hold.is_none() {
                // Held into an empty hold: the next piece came in, and it was placed.
                known.queue.pop_front();
            }
            known.hold = falling;
        }
    }
}

impl Drop for Tbp {
    fn drop(&mut self) {
        // The game is over: the bot stops calculating, and its process waits for the next
        // game among the plugin's idle ones (or gets `quit` if it failed).
        if self.known.is_some() && self.bot.send_json(&FrontendMessage::Stop).is_err() {
            self.bot.spoil();
        }
    }
}

/// Why a bot did not take the rules.
enum Refusal {
    /// Its `error`, with its reason.
    Rules(String),
    /// It failed while it was told them.
    Failed(Failure),
}

impl From<Failure> for Refusal {
    fn from(failure: Failure) -> Refusal {
        Refusal::Failed(failure)
    }
}

mod answer_time;
mod ask;
mod legal;
mod searched;

use answer_time::AnswerTimes;
#[cfg(test)]
use legal::covered;
use legal::{legal, Played, Reach};
pub use searched::{MoveInfoMeans, Searched};

#[cfg(test)]
mod tests;
