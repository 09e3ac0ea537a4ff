//! The bot's own thread in a live game. When the bot is to be asked, its seat goes there:
//! the player decides on that thread, timed on the game's clock exactly as on the game's
//! own thread, and the seat comes back with the decision. Meanwhile the referee goes on
//! playing the person's keys, so a bot that thinks long never holds up the person's game.

use crate::referee::Ending;
use crate::runner::seat::Seat;
use crate::watch::clock;
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use tetrad_plugin_api::Actions;

/// Called on the bot's thread when an answer is ready, so the referee's loop wakes at once.
pub type Waker = Box<dyn Fn() + Send>;

/// The seat back from its thread, with its decision and the nanoseconds it took.
pub(super) struct Answered {
    pub(super) seat: Seat<'static>,
    pub(super) decided: Result<Actions, Ending>,
    pub(super) elapsed_ns: u64,
}

/// The bot's thread, and the way to it and back.
pub(super) struct Thinker {
    asks: Sender<Seat<'static>>,
    answers: Receiver<Answered>,
    waker: Arc<Mutex<Option<Waker>>>,
}

impl Thinker {
    /// Starts the bot's thread. It ends when the thinker is dropped, once the decision in
    /// hand (if any) is made; the seat, and with it the player, is dropped there.
    pub(super) fn start() -> Thinker {
        let (asks, asked) = channel::<Seat<'static>>();
        let (answer, answers) = channel();
        let waker: Arc<Mutex<Option<Waker>>> = Arc::default();
        let wake = Arc::clone(&waker);
        std::thread::Builder::new()
            .name("tetrad-bot".to_string())
            .spawn(move || {
                for mut seat in asked {
                    let (decided, elapsed_ns) = seat.next_actions(clock(), None);
                    let answered = Answered {
                        seat,
                        decided,
                        elapsed_ns,
                    };
                    if answer.send(answered).is_err() {
                        return;
                    }
                    if let Some(wake) = wake.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).as_ref() {
                        wake();
                    }
                }
            })
            .expect("a thread for the bot");
        Thinker { asks, answers, waker }
    }

    /// Sends `seat` to be asked for its next tick.
    pub(super) fn ask(&self, seat: Seat<'static>) {
        self.asks.send(seat).expect("the bot's thread runs while the game does");
    }

    /// The answer, if it has come.
    pub(super) fn answered(&self) -> Option<Answered> {
        match self.answers.try_recv() {
            Ok(answered) => Some(answered),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => panic!("the bot's thread ended with the seat"),
        }
    }

    /// Waits for the answer.
    pub(super) fn wait(&self) -> Answered {
        self.answers.recv().expect("the bot's thread ended with the seat")
    }

    /// Calls `waker` whenever an answer is ready.
    pub(super) fn set_waker(&self, waker: Waker) {
        *self.waker.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(waker);
    }

    /// Whether a waker is set.
    pub(super) fn has_waker(&self) -> bool {
        self.waker
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .is_some()
    }
}
