//! The referee: when a seat's game ends, and why. By itself (a top-out, the piece cap, a
//! used-up sequence), or by the player: a failure, a slow update, too many protocol
//! violations, or a stall under a preset without gravity. The game loop, replay
//! verification, replay playback and the screens all ask it, so they all agree. Under a
//! time control it keeps the seat's clock: a player whose clock falls below zero loses on
//! time.

mod answer;
mod clock;

pub use answer::{Answer, Budget, Failure, FailureKind, Target, Violation};
pub use clock::{SeatClock, TimeControl};

use crate::engine::Game;
use serde::{Deserialize, Serialize};
use tetrad_plugin_api::{Actions, Movement, Rules};

/// Limits whose breach forfeits a game. `tetrad run` sets none: violations are counted
/// and not applied, and no update is too slow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// An update that takes longer forfeits the game as `timeout` (checked after it returns).
    pub think_limit_ns: Option<u64>,
    /// More violations than this in one game forfeit it as `violation`.
    pub max_violations: Option<u64>,
    /// The time control: a clock whose fall below zero loses the game as `time_loss`.
    pub time_control: Option<TimeControl>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// A piece could not enter, or locked where the preset says the game is over.
    ToppedOut,
    /// It reached `--max-pieces`, or played every piece of its `--sequence` line.
    Capped,
    /// The plugin failed (a panic, or a C plugin's error status).
    PluginError,
    /// Under a preset without gravity, the piece was not dropped in time.
    Stalled,
    /// An update took longer than the think limit.
    Timeout,
    /// More protocol violations than allowed.
    Violation,
    /// The plugin took its worker process down (isolation only).
    Crashed,
    /// The sandbox ended it: a forbidden system call, or its CPU time or file size used up.
    Sandbox,
    /// Under a time control, the player's clock fell below zero.
    TimeLoss,
    /// In versus: the opponent's game ended first, by a top-out or a forfeit.
    Won,
}

impl End {
    /// Every way a game can end, in report order.
    pub const ALL: [End; 10] = [
        End::ToppedOut,
        End::Capped,
        End::PluginError,
        End::Stalled,
        End::Timeout,
        End::Violation,
        End::Crashed,
        End::Sandbox,
        End::TimeLoss,
        End::Won,
    ];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            End::ToppedOut => "topped_out",
            End::Capped => "capped",
            End::PluginError => "plugin_error",
            End::Stalled => "stalled",
            End::Timeout => "timeout",
            End::Violation => "violation",
            End::Crashed => "crashed",
            End::Sandbox => "sandbox",
            End::TimeLoss => "time_loss",
            End::Won => "won",
        }
    }

    /// How a player's failure of `kind` ends its game.
    pub fn of_failure(kind: FailureKind) -> End {
        match kind {
            FailureKind::Error => End::PluginError,
            FailureKind::Timeout => End::Timeout,
            FailureKind::Crashed => End::Crashed,
            FailureKind::Sandbox => End::Sandbox,
        }
    }

    /// Whether the plugin forfeited the game, rather than playing it out.
    pub fn is_forfeit(self) -> bool {
        !matches!(self, End::ToppedOut | End::Capped | End::Won)
    }

    /// Whether the game was lost: topped out or forfeited.
    pub fn is_loss(self) -> bool {
        !matches!(self, End::Capped | End::Won)
    }
}

/// Ticks a piece may hover under a preset without gravity before the game is stalled:
/// generous enough for every turn and every shift across the board, many times over.
pub fn stall_limit(rules: &Rules) -> u32 {
    8 * (rules.width + rules.height) as u32
}

/// How a game ended, with the cause in words when the player forfeited it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// How it ended.
    pub end: End,
    /// What happened, for a forfeit.
    pub error: Option<String>,
}

impl Ending {
    fn forfeit(end: End, error: String) -> Ending {
        Ending {
            end,
            error: Some(error),
        }
    }
}

/// How `game` has ended by itself, if it has: topped out, capped at `max_pieces`, or out of
/// pieces in its sequence (which counts as capped).
pub fn ended(game: &Game, max_pieces: Option<u64>) -> Option<End> {
    if game.is_over() {
        Some(End::ToppedOut)
    } else if game.is_exhausted() || max_pieces.is_some_and(|max| game.stats().pieces >= max) {
        Some(End::Capped)
    } else if game.current().is_none() {
        Some(End::ToppedOut)
    } else {
        None
    }
}

/// The referee of one seat's game.
#[derive(Clone, Debug)]
pub struct Referee {
    limits: Limits,
    max_pieces: Option<u64>,
    /// Ticks a piece may hover before the game is stalled; `None` where pieces fall by
    /// themselves, or for a person, who may take their time.
    stall_ticks: Option<u32>,
    violations: u64,
    /// The seat's clock, under a time control.
    clock: Option<SeatClock>,
}

impl Referee {
    /// A referee for a machine player under `rules`, with the piece cap and the limits.
    pub fn new(rules: &Rules, max_pieces: Option<u64>, limits: Limits) -> Referee {
        Referee {
            limits,
            max_pieces,
            stall_ticks: (rules.movement() == Movement::DropOnly).then(|| stall_limit(rules)),
            violations: 0,
            clock: limits.time_control.map(SeatClock::new),
        }
    }

    /// A referee for a person at the keyboard: the game ends by itself alone.
    pub fn for_person(max_pieces: Option<u64>) -> Referee {
        Referee {
            limits: Limits::default(),
            max_pieces,
            stall_ticks: None,
            violations: 0,
            clock: None,
        }
    }

    /// Whether the game has ended by itself; asked before every tick.
    #[inline(always)]
    pub fn game_over(&self, game: &Game) -> Option<End> {
        ended(game, self.max_pieces)
    }

    /// Judges the player's answer: the actions to apply (none after a violation), or the
    /// forfeit it earns. Always inlined, and given the answer by value: in the game loop
    /// the answer then stays in registers.
    #[inline(always)]
    pub fn judge(&mut self, answer: Answer) -> Result<Actions, Ending> {
        if let Some(clock) = &mut self.clock {
            if let Some(why) = clock.charge(answer.elapsed_ns) {
                // A player stopped waiting for at the end of its clock lost on time; one
                // that failed otherwise keeps its own end.
                let timed_out = matches!(&answer.actions, Err(failure) if failure.kind == FailureKind::Timeout);
                if answer.actions.is_ok() || timed_out {
                    return Err(Ending::forfeit(End::TimeLoss, why));
                }
            }
        }
        let actions = match answer.actions {
            Ok(actions) => actions,
            Err(failure) => return Err(Ending::forfeit(End::of_failure(failure.kind), failure.message)),
        };
        if let Some(limit) = self.limits.think_limit_ns.filter(|&limit| answer.elapsed_ns > limit) {
            return Err(Ending::forfeit(
                End::Timeout,
                format!("update took {} µs, limit {} µs", answer.elapsed_ns / 1000, limit / 1000),
            ));
        }
        if let Some(violation) = answer.violation {
            self.violations += 1;
            if let Some(max) = self.limits.max_violations.filter(|&max| self.violations > max) {
                return Err(Ending::forfeit(
                    End::Violation,
                    format!("{violation} (more than {max} violations)"),
                ));
            }
        }
        Ok(actions)
    }

    /// Whether the tick just played stalled the game: a piece that hovered too long under a
    /// preset without gravity. Under a time control, a piece locked winds the clock.
    #[inline(always)]
    pub fn after_tick(&mut self, game: &Game) -> Option<Ending> {
        if let Some(clock) = &mut self.clock {
            clock.after_tick(game.stats().pieces);
        }
        let limit = self.stall_ticks?;
        (game.piece_ticks() >= limit && !game.is_over())
            .then(|| Ending::forfeit(End::Stalled, format!("piece not dropped within {limit} ticks")))
    }

    /// The seat's clock, under a time control.
    pub fn clock(&self) -> Option<&SeatClock> {
        self.clock.as_ref()
    }

    /// Protocol violations so far.
    pub fn violations(&self) -> u64 {
        self.violations
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tetrad_plugin_api::{PieceSet, Preset};

    fn answer(actions: Result<Actions, String>, elapsed_ns: u64, violation: bool) -> Answer {
        Answer {
            actions: actions.map_err(|message| Box::new(Failure::new(FailureKind::Error, message))),
            violation: violation.then_some(Violation::Bits(0x23)),
            elapsed_ns,
        }
    }

    #[test]
    fn a_failure_a_slow_update_and_one_violation_too_many_each_forfeit() {
        let rules = Rules::preset(Preset::Classic);
        let limits = Limits {
            think_limit_ns: Some(1_000_000),
            max_violations: Some(1),
            time_control: None,
        };
        let mut referee = Referee::new(&rules, None, limits);
        assert_eq!(referee.judge(answer(Ok(Actions::DROP), 10, false)), Ok(Actions::DROP));
        let failed = referee.judge(answer(Err("boom".into()), 10, false)).unwrap_err();
        assert_eq!((failed.end, failed.error.as_deref()), (End::PluginError, Some("boom")));
        let slow = referee.judge(answer(Ok(Actions::DROP), 2_000_000, false)).unwrap_err();
        assert_eq!(slow.end, End::Timeout);
        assert_eq!(referee.judge(answer(Ok(Actions::NONE), 10, true)), Ok(Actions::NONE));
        let too_many = referee.judge(answer(Ok(Actions::NONE), 10, true)).unwrap_err();
        assert_eq!(too_many.end, End::Violation);
        assert_eq!(referee.violations(), 2);
    }

    #[test]
    fn a_hovering_piece_stalls_a_machine_without_gravity_but_never_a_person() {
        let rules = Rules::preset(Preset::Leiden);
        let mut game = Game::new(rules, Arc::new(PieceSet::tetrominoes()), 1);
        let mut machine = Referee::new(&rules, None, Limits::default());
        let mut person = Referee::for_person(None);
        let limit = stall_limit(&rules);
        for _ in 1..limit {
            game.tick(Actions::NONE);
            assert_eq!(machine.after_tick(&game), None);
        }
        game.tick(Actions::NONE);
        assert_eq!(machine.after_tick(&game).map(|e| e.end), Some(End::Stalled));
        assert_eq!(person.after_tick(&game), None);
        // Gravity moves a piece by itself: no stall under classic.
        let classic = Rules::preset(Preset::Classic);
        assert!(Referee::new(&classic, None, Limits::default()).stall_ticks.is_none());
    }

    #[test]
    fn the_cap_ends_a_game_as_capped() {
        let rules = Rules::preset(Preset::Classic);
        let mut game = Game::new(rules, Arc::new(PieceSet::tetrominoes()), 1);
        let referee = Referee::new(&rules, Some(2), Limits::default());
        assert_eq!(referee.game_over(&game), None);
        while game.stats().pieces < 2 {
            game.tick(Actions::DROP);
        }
        assert_eq!(referee.game_over(&game), Some(End::Capped));
    }

    #[test]
    fn a_clock_below_zero_loses_on_time_but_a_crash_stays_a_crash() {
        let rules = Rules::preset(Preset::Classic);
        let limits = Limits {
            time_control: Some(TimeControl::PerMove(std::time::Duration::from_millis(1))),
            ..Limits::default()
        };
        let mut referee = Referee::new(&rules, None, limits);
        assert_eq!(
            referee.judge(answer(Ok(Actions::NONE), 600_000, false)),
            Ok(Actions::NONE)
        );
        let late = referee.judge(answer(Ok(Actions::DROP), 600_000, false)).unwrap_err();
        assert_eq!(late.end, End::TimeLoss);
        assert_eq!(referee.clock().map(SeatClock::used_ns), Some(1_200_000));
        let mut referee = Referee::new(&rules, None, limits);
        let crashed = Answer {
            actions: Err(Box::new(Failure::new(FailureKind::Crashed, "gone".to_string()))),
            violation: None,
            elapsed_ns: 5_000_000,
        };
        assert_eq!(referee.judge(crashed).unwrap_err().end, End::Crashed);
    }
}
