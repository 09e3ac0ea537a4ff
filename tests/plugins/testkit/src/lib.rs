//! `testkit`: a plugin for the host's tests. It drops every piece where it appears and,
//! told by its options, misbehaves in a chosen way.
//!
//! Options: `mode=` one of `normal`, `fail-create`, `panic`, `bad-bits`, `both-shifts`,
//! `stall`, `slow` (sleeps `sleep_us` per update, default 2000), `segfault`, `abort`,
//! `exit`, `hang`, or `hold` (holds every piece it may, and panics if what the host shows
//! of the hold slot and the queue is not what the rules say); `after=N` misbehaves from
//! tick N of the
//! game (default 0); `every=N` misbehaves only in games whose seed is a multiple of N
//! (default 1: every game).

use tetrad_plugin_api::{Actions, GameSetup, Info, Options, PieceId, Solver, Tick};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Normal,
    Panic,
    BadBits,
    BothShifts,
    Stall,
    Slow,
    Segfault,
    Abort,
    Exit,
    Hang,
    Hold,
    /// Sleeps half the host's think budget on each new piece; panics without one.
    HalfBudget,
}

/// The misbehaving test plugin.
pub struct Testkit {
    mode: Mode,
    sleep: std::time::Duration,
    after: u64,
    ticks: u64,
    /// Previewed pieces the rules show.
    preview: usize,
    /// Under `mode=hold`, after a hold: the piece held, and the piece that must enter
    /// (unknown when the preview is off and nothing was held before).
    held: Option<(PieceId, Option<PieceId>)>,
}

impl Solver for Testkit {
    const INFO: Info = Info {
        name: "testkit",
        version: env!("CARGO_PKG_VERSION"),
        author: "tetrad",
        description: "test plugin: drops pieces at once, misbehaves on request",
    };

    fn create(setup: &GameSetup, options: &mut Options) -> Result<Self, String> {
        let mode: String = options.get("mode", "normal".to_string())?;
        let after = options.get("after", 0u64)?;
        let every = options.get("every", 1u64)?.max(1);
        let sleep = std::time::Duration::from_micros(options.get("sleep_us", 2000u64)?);
        let mode = match mode.as_str() {
            "normal" => Mode::Normal,
            "fail-create" => return Err("testkit was told to fail at create".to_string()),
            "panic" => Mode::Panic,
            "bad-bits" => Mode::BadBits,
            "both-shifts" => Mode::BothShifts,
            "stall" => Mode::Stall,
            "slow" => Mode::Slow,
            "segfault" => Mode::Segfault,
            "abort" => Mode::Abort,
            "exit" => Mode::Exit,
            "hang" => Mode::Hang,
            "hold" => Mode::Hold,
            "half-budget" => Mode::HalfBudget,
            other => return Err(format!("option `mode`: unknown mode `{other}`")),
        };
        let chosen = setup.seed.is_multiple_of(every);
        Ok(Testkit {
            mode: if chosen { mode } else { Mode::Normal },
            sleep,
            after,
            ticks: 0,
            preview: setup.rules.preview,
            held: None,
        })
    }

    fn update(&mut self, tick: &Tick) -> Actions {
        self.ticks += 1;
        if self.ticks <= self.after {
            return Actions::DROP;
        }
        match self.mode {
            Mode::Normal => Actions::DROP,
            Mode::Panic => panic!("testkit was told to panic at tick {}", self.ticks),
            Mode::BadBits => Actions(0x80 | Actions::DROP.0),
            Mode::BothShifts => Actions::LEFT | Actions::RIGHT,
            Mode::Stall => Actions::NONE,
            Mode::Slow => {
                std::thread::sleep(self.sleep);
                Actions::DROP
            }
            Mode::Segfault => crash(),
            Mode::Abort => std::process::abort(),
            Mode::Exit => std::process::exit(3),
            Mode::Hang => loop {
                std::thread::park();
            },
            Mode::Hold => self.hold_each_piece(tick),
            Mode::HalfBudget => {
                if tick.new_piece {
                    let budget = tick.think_budget.expect("testkit was shown no think budget");
                    std::thread::sleep(budget / 2);
                }
                Actions::DROP
            }
        }
    }
}

impl Testkit {
    /// Holds every piece it may, and checks the host's view against the rules: the queue
    /// as long as the preview and led by the next piece; after a hold, the held piece in
    /// the slot, the right piece entering as new, and no second hold for it.
    fn hold_each_piece(&mut self, tick: &Tick) -> Actions {
        assert_eq!(tick.queue.len(), self.preview, "the queue is as long as the preview");
        assert_eq!(
            tick.queue.first().copied(),
            tick.next,
            "the queue starts with the next piece"
        );
        let current = tick.current.expect("a falling piece").id;
        if let Some((held, entering)) = self.held.take() {
            assert!(tick.new_piece, "the piece out of the hold is new");
            assert_eq!(tick.hold, Some(held), "the hold slot holds the held piece");
            if let Some(entering) = entering {
                assert_eq!(current, entering, "the held piece, or else the next, enters");
            }
            assert!(!tick.hold_available, "a piece out of the hold cannot be held again");
        }
        if tick.new_piece && tick.hold_available {
            self.held = Some((current, tick.hold.or(tick.next)));
            return Actions::HOLD;
        }
        Actions::DROP
    }
}

#[allow(unsafe_code)]
fn crash() -> Actions {
    // SAFETY: none; this deliberately writes through a null pointer to test the host's
    // crash isolation.
    unsafe { std::ptr::null_mut::<u32>().write_volatile(1) };
    Actions::NONE
}

tetrad_plugin_api::export_solver!(Testkit);
