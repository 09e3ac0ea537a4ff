//! The bot's seat of a live game and its place on its timeline: asked on its own thread
//! (see [`super::thinker`]), its decisions placed as the realtime runner places them, its
//! ticks and its game's own events played when the referee comes to their time, and the
//! garbage the person sends delivered before its next event.

use super::thinker::{Answered, Thinker};
use super::BotName;
use crate::engine::{Deliveries, Game, Speed};
use crate::referee::Ending;
use crate::runner::seat::Seat;
use std::collections::VecDeque;
use tetrad_plugin_api::Actions;

/// The bot's decision placed on its timeline.
struct Decided {
    /// When it takes effect.
    time_us: u64,
    /// The tick, or the end of the game.
    event: Result<Actions, Ending>,
    /// The pieces locked when it was asked for: a lock by the game's timing since then
    /// leaves it without its piece.
    pieces: u64,
}

/// Where the bot's seat is.
enum Whereabouts {
    /// Here, between questions.
    Home(Box<Seat<'static>>),
    /// On its thread, asked at the bot's `now_us`; its game as it left, played on by its
    /// own timing for the face alone, and the pieces locked when it was asked.
    Away { shown: Box<Game>, pieces: u64 },
}

/// What the bot's seat does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// An event of its game's timing.
    Timed,
    /// Its decided tick (or end).
    Decided,
    /// It is to be asked.
    Ask,
    /// It is thinking: nothing after the moment it was asked is known.
    Thinking,
}

/// What one of the bot's events did: the garbage rows it sent, and how its game ended
/// with it, if it did.
pub(super) type Played = (u32, Option<Ending>);

/// The bot's seat (seat 1).
pub(super) struct Bot {
    seat: Whereabouts,
    thinker: Thinker,
    pub(super) name: BotName,
    speed: Speed,
    /// Garbage the person sent, and when: delivered before the bot's next event.
    inbox: VecDeque<(u64, u32)>,
    deliveries: Deliveries,
    /// When its last tick happened (0 before the first): it is asked from then.
    now_us: u64,
    last_lock_us: Option<u64>,
    next: Option<Decided>,
    pub(super) ticks: Vec<u32>,
    pub(super) times_us: Vec<u64>,
}

impl Bot {
    /// The bot seated at `seat` under the setup's `speed` and `deliveries`.
    pub(super) fn new(seat: Seat<'static>, name: BotName, speed: Speed, deliveries: Deliveries) -> Bot {
        Bot {
            seat: Whereabouts::Home(Box::new(seat)),
            thinker: Thinker::start(),
            name,
            speed,
            inbox: VecDeque::new(),
            deliveries,
            now_us: 0,
            last_lock_us: None,
            next: None,
            ticks: Vec::new(),
            times_us: Vec::new(),
        }
    }

    /// The bot's thread, for its waker.
    pub(super) fn thinker(&self) -> &Thinker {
        &self.thinker
    }

    /// When the seat next does something, and what. While it thinks, the moment it was
    /// asked: nothing of the bot's after it is known.
    pub(super) fn due(&self) -> (u64, Step) {
        let Whereabouts::Home(seat) = &self.seat else {
            return (self.now_us, Step::Thinking);
        };
        let (own, step) = match &self.next {
            Some(decided) => (decided.time_us, Step::Decided),
            None => (self.now_us, Step::Ask),
        };
        match seat.game().next_event_us() {
            Some(at) if at <= own => (at, Step::Timed),
            _ => (own, step),
        }
    }

    /// When its shown game next does something by itself, while it thinks.
    pub(super) fn shown_due(&self) -> Option<Option<u64>> {
        match &self.seat {
            Whereabouts::Home(_) => None,
            Whereabouts::Away { shown, .. } => Some(shown.next_event_us()),
        }
    }

    /// Its game as it is shown.
    pub(super) fn game(&self) -> &Game {
        match &self.seat {
            Whereabouts::Home(seat) => seat.game(),
            Whereabouts::Away { shown, .. } => shown,
        }
    }

    /// While it thinks, its shown game's piece falls (and locks) by the timing rules, up
    /// to `to_us`: for the face alone, the record waits for its answer.
    pub(super) fn show_until(&mut self, to_us: u64) {
        if let Whereabouts::Away { shown, .. } = &mut self.seat {
            while !shown.is_over() && shown.advance(to_us).is_some() {}
        }
    }

    /// `rows` of garbage the person sent at `time_us`.
    pub(super) fn receive(&mut self, rows: u32, time_us: u64) {
        if rows > 0 {
            self.inbox.push_back((time_us, rows));
        }
    }

    /// The seat, here (its answer awaited if it is thinking), with the garbage sent to
    /// it delivered.
    pub(super) fn seat(&mut self) -> &mut Seat<'static> {
        self.home().0
    }

    /// As [`Bot::seat`], with its deliveries.
    fn home(&mut self) -> (&mut Seat<'static>, &mut Deliveries) {
        if let Whereabouts::Away { .. } = self.seat {
            let answered = self.thinker.wait();
            self.answer(answered);
        }
        let Whereabouts::Home(seat) = &mut self.seat else {
            unreachable!("the seat is back")
        };
        for (time, rows) in self.inbox.drain(..) {
            self.deliveries.deliver(1, seat.game_mut(), rows, time);
        }
        (seat, &mut self.deliveries)
    }

    /// Takes its answer if it has come.
    pub(super) fn collect(&mut self) {
        if let Whereabouts::Away { .. } = self.seat {
            if let Some(answered) = self.thinker.answered() {
                self.answer(answered);
            }
        }
    }

    /// Waits for its answer, if it is thinking.
    pub(super) fn wait(&mut self) {
        self.seat();
    }

    /// Asks for its next tick: on its thread, unless the answer needs no thinking (a
    /// path in flight, a game over).
    pub(super) fn ask(&mut self) {
        let seat = self.seat();
        let pieces = seat.game().stats().pieces;
        if let Some(decided) = seat.next_without_asking() {
            return self.place(decided, 0, pieces);
        }
        let shown = Box::new(seat.game().clone());
        let Whereabouts::Home(seat) = std::mem::replace(&mut self.seat, Whereabouts::Away { shown, pieces }) else {
            unreachable!("the seat was here")
        };
        self.thinker.ask(*seat);
    }

    /// The seat back with its decision, placed on its timeline.
    fn answer(&mut self, answered: Answered) {
        let Answered {
            seat,
            decided,
            elapsed_ns,
        } = answered;
        let away = std::mem::replace(&mut self.seat, Whereabouts::Home(Box::new(seat)));
        let Whereabouts::Away { pieces, .. } = away else {
            unreachable!("an answer comes for a seat away")
        };
        self.place(decided, elapsed_ns, pieces);
    }

    /// Places the decision, which took `elapsed_ns` to think, on its timeline as the
    /// realtime runner places it.
    fn place(&mut self, decided: Result<Actions, Ending>, elapsed_ns: u64, pieces: u64) {
        let think_us = elapsed_ns.div_ceil(1000);
        let (now_us, last_lock_us, speed) = (self.now_us, self.last_lock_us, self.speed);
        let (time_us, event) = match decided {
            Ok(actions) => {
                let locks = self.seat().locks(actions);
                (speed.tick_time(now_us, think_us, locks, last_lock_us), Ok(actions))
            }
            // It fails (or runs out of time) when its answer would have come.
            Err(ending) => (now_us.saturating_add(think_us), Err(ending)),
        };
        self.next = Some(Decided { time_us, event, pieces });
    }

    /// Plays the event of its game's timing due at `time`.
    pub(super) fn play_timed(&mut self, time: u64) -> Played {
        let (seat, deliveries) = self.home();
        deliveries.before_tick(1, seat.game_mut(), time);
        let (_, ending) = seat.advance(time, None, None);
        (seat.game_mut().take_outgoing(), ending)
    }

    /// Plays its decided event, due at `time`.
    pub(super) fn play_decided(&mut self, time: u64) -> Played {
        let Some(Decided { event, pieces, .. }) = self.next.take() else {
            return (0, None);
        };
        let actions = match event {
            Err(ending) => return (0, Some(ending)),
            // Its piece locked by delay while it thought: asked again.
            Ok(_) if self.seat().game().stats().pieces != pieces => {
                self.now_us = time;
                return (0, None);
            }
            Ok(actions) => actions,
        };
        let (seat, deliveries) = self.home();
        seat.advance(time, None, None);
        deliveries.before_tick(1, seat.game_mut(), time);
        let pieces = seat.game().stats().pieces;
        let ending = seat.play_tick(actions, None, None);
        let locked = seat.game().stats().pieces != pieces;
        let rows = seat.game_mut().take_outgoing();
        self.now_us = time;
        if locked {
            self.last_lock_us = Some(time);
        }
        self.ticks.push(actions.0);
        self.times_us.push(time);
        (rows, ending)
    }
}
