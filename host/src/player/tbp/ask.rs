//! Asking a TBP bot for its move: the position brought up to date, `suggest`, the wait
//! while it thinks, and the first legal move of its answer.

use super::legal::Reach;
use super::{Tbp, ASK_AGAIN_AFTER, MOVES_TRIED};
use crate::player::process::{answer_limit, hard_limit, machine_delay};
use crate::player::Observation;
use crate::plugin::bot::{Failure, FailureKind};
use crate::plugin::printable;
use crate::plugin::tbp::messages::{BotMessage, FrontendMessage, MoveInfo};
use crate::process::run_delay::{self, BotThreads};
use std::collections::VecDeque;
use std::time::{Duration, Instant};
use tetrad_plugin_api::{Actions, PieceId};

/// The path of the move played, and the time of the move that is not the bot's: the
/// host's check of the answer, and under a time control the machine's delays (the host
/// woken late, the bot's answering thread kept from a CPU).
pub(super) struct Chosen {
    pub(super) path: Vec<Actions>,
    pub(super) uncharged: Duration,
}

impl Tbp {
    /// Brings the bot to the position `seen`, asks it, and plays its first legal move.
    pub(super) fn choose(&mut self, seen: &Observation<'_>) -> Result<Chosen, Failure> {
        let Some(current) = seen.current else {
            return Ok(Chosen {
                path: vec![Actions::NONE],
                uncharged: Duration::ZERO,
            });
        };
        let state = seen.state();
        let hold = u8::try_from(state.hold).ok().map(PieceId);
        let queue: VecDeque<PieceId> = std::iter::once(current.piece)
            .chain(
                state.queue[..state.queue_len as usize]
                    .iter()
                    .map(|&kind| PieceId(kind as u8)),
            )
            .collect();
        let bag = seen.bag_left();
        // Under a time control the bot thinks for the piece's share of its clock, less what
        // is left for its answer (learned from its answers: see `answer_time`), and the
        // answer is awaited as long as the clock lasts.
        let budget = self.budget.take();
        let think = budget.map_or(self.think, |budget| {
            let times = self.answer_times.lock().unwrap_or_else(|p| p.into_inner());
            budget.share - times.reserve(budget.share)
        });
        let think_limit = answer_limit(self.limit_given, budget);
        self.catch_up(seen.board, hold, &queue, bag, state.combo, state.back_to_back != 0)?;
        // The clock runs from here: the think time is part of the bot's time.
        let asked = Instant::now();
        let own_wait = run_delay::this_thread();
        let overslept = self.await_thinking(think)?;
        // The moment the host meant to ask: what comes after it is the answer's time, less
        // what the machine took (the host's timer late, the answering thread's wait).
        let meant_to_ask = asked + think;
        // Under a time control: the bot's threads as they are when first asked.
        let threads = budget.map(|_| BotThreads::of(self.bot.id()));
        let mut suggest_sent = None;
        loop {
            while let Some(line) = self.bot.spare_line() {
                self.unasked(&line)?;
            }
            self.bot.send_json(&FrontendMessage::Suggest)?;
            let first_asked = *suggest_sent.get_or_insert_with(Instant::now);
            // The time charged so far: from the first message on, less the machine's part
            // (with the host's own waits for a CPU, which the seat leaves out at the end).
            let mut charged = || match &threads {
                Some(threads) => asked.elapsed().saturating_sub(
                    overslept
                        + machine_delay(threads, first_asked.elapsed())
                        + run_delay::this_thread().saturating_sub(own_wait),
                ),
                None => asked.elapsed(),
            };
            let (moves, move_info) = loop {
                // Messages it may send and tetrad ignores still count against its time.
                let hard = hard_limit(self.limit_given).saturating_sub(asked.elapsed());
                match self
                    .bot
                    .receive_json_on_clock(think_limit, hard, &mut charged, "a `suggestion`")?
                {
                    BotMessage::Suggestion { moves, move_info } => break (moves, move_info),
                    BotMessage::Unknown => {}
                    BotMessage::Error { reason } => {
                        return Err(self.bot.broke(&format!("error: {}", printable(reason))));
                    }
                    BotMessage::Info { .. } => return Err(self.bot.unexpected_kind("info", "a `suggestion`")),
                    BotMessage::Ready => return Err(self.bot.unexpected_kind("ready", "a `suggestion`")),
                }
            };
            if moves.is_empty() {
                if charged() + ASK_AGAIN_AFTER >= think_limit {
                    let message = self.bot.broke("suggested no move within its think limit").message;
                    return Err(Failure::new(FailureKind::Timeout, message));
                }
                std::thread::sleep(ASK_AGAIN_AFTER);
                continue;
            }
            let answered = Instant::now();
            let machine = threads.as_ref().map_or(Duration::ZERO, |threads| {
                overslept + machine_delay(threads, answered.saturating_duration_since(first_asked))
            });
            let mut why_not = String::new();
            let mut reach = Reach::default();
            for suggested in moves.iter().take(MOVES_TRIED) {
                match self.legal(seen, hold, state.hold_available != 0, suggested, &mut reach) {
                    Ok((path, played)) => {
                        self.bot.send_json(&FrontendMessage::Play {
                            played: suggested.clone(),
                        })?;
                        self.played(seen.board, played);
                        if let Some(info) = move_info.as_ref().and_then(MoveInfo::read) {
                            self.searched.add(info);
                        }
                        let checking = answered.elapsed();
                        if budget.is_some() {
                            let took = answered.saturating_duration_since(meant_to_ask);
                            log::debug!(
                                "{} answered {} µs after it was meant to be asked, {} µs of it the machine's",
                                self.bot.label(),
                                took.as_micros(),
                                machine.as_micros()
                            );
                            self.answer_times
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .record(took.saturating_sub(machine));
                        }
                        return Ok(Chosen {
                            path,
                            uncharged: checking + machine,
                        });
                    }
                    Err(why) if why_not.is_empty() => why_not = why,
                    Err(_) => {}
                }
            }
            let first = serde_json::to_string(&moves[0]).unwrap_or_default();
            let tried = match moves.len() > MOVES_TRIED {
                true => format!("{} suggested, the first {MOVES_TRIED} tried", moves.len()),
                false => format!("{} suggested", moves.len()),
            };
            return Err(self.bot.broke(&format!(
                "suggested no legal move ({tried}; the first, {}, {why_not})",
                printable(first)
            )));
        }
    }

    /// Waits out the bot's think time, reading what it sends meanwhile: an error or an end
    /// is seen when it happens, not after the wait. Returns how late the host woke past
    /// the end, beyond its own wait for a CPU (which the seat leaves uncharged): a timer
    /// that fired late on a busy machine. A wait that ran over while reading the bot's
    /// lines is the bot's.
    fn await_thinking(&mut self, think: Duration) -> Result<Duration, Failure> {
        let until = Instant::now() + think;
        let own_wait = run_delay::this_thread();
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(Duration::ZERO);
            }
            match self.bot.line_within(left, "a `suggest` (it was thinking)")? {
                Some(line) => self.unasked(&line)?,
                None => break,
            }
        }
        let late = Instant::now().saturating_duration_since(until);
        Ok(late.saturating_sub(run_delay::this_thread().saturating_sub(own_wait)))
    }

    /// A message the bot sent when nothing was asked: one of a type tetrad does not know is
    /// ignored, as the protocol says; an error ends the game; anything else would be taken
    /// for the answer to the next question, so it breaks the protocol.
    fn unasked(&self, line: &str) -> Result<(), Failure> {
        match self.bot.read_as::<BotMessage>(line, "nothing")? {
            BotMessage::Unknown => Ok(()),
            BotMessage::Error { reason } => Err(self.bot.broke(&format!("error: {}", printable(reason)))),
            _ => Err(self.bot.spare(line, "its last answer")),
        }
    }
}
