//! `testkit`: a plugin for the host's tests. It drops every piece where it appears and,
//! told by its options, misbehaves in a chosen way.
//!
//! Options: `mode=` one of `normal`, `fail-create`, `panic`, `bad-bits`, `both-shifts`,
//! `stall`, `slow` (sleeps `sleep_us` per update, default 2000), `segfault`, `abort`,
//! `exit`, `hang`; `after=N` misbehaves from tick N of the
//! game (default 0); `every=N` misbehaves only in games whose seed is a multiple of N
//! (default 1: every game).

use tetrad_plugin_api::{Actions, GameSetup, Info, Options, Solver, Tick};

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
}

/// The misbehaving test plugin.
pub struct Testkit {
    mode: Mode,
    sleep: std::time::Duration,
    after: u64,
    ticks: u64,
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
            other => return Err(format!("option `mode`: unknown mode `{other}`")),
        };
        let chosen = setup.seed.is_multiple_of(every);
        Ok(Testkit {
            mode: if chosen { mode } else { Mode::Normal },
            sleep,
            after,
            ticks: 0,
        })
    }

    fn update(&mut self, _tick: &Tick) -> Actions {
        self.ticks += 1;
        if self.ticks <= self.after {
            return Actions::DROP;
        }
        match self.mode {
            Mode::Normal => Actions::DROP,
            Mode::Panic => panic!("testkit was told to panic at tick {}", self.ticks),
            Mode::BadBits => Actions(0x20 | Actions::DROP.0),
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
        }
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
