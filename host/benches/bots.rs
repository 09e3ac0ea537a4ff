//! Process bots: what a decision costs when the bot is a program.
//!
//! - `bots/floor/ping-pong/{one-core,two-cores}`: the machine's floor, two bytes out
//!   through a pipe and back from a C program that echoes them, the two ends on one CPU
//!   or on two: what a round trip cannot go below;
//! - `bots/round-trip/c-bot`: one `piece` message out and one `placement` back, through
//!   the host's own `Player`, with `plugins/c-bot` (compiled here with `cc`), a bot that
//!   does no thinking: the protocol's cost alone, the bot on the waiting thread's CPU as
//!   by default; `bots/round-trip/c-bot-unpinned` the same with `--no-pin`;
//! - `bots/json/{piece-out,placement-in}`: the JSON of one round trip alone, a `piece`
//!   message written and a `placement` read, where a round trip's time above the floor
//!   goes;
//! - `bots/pieces/python-greedy`: pieces per second of the Python greedy bot in real
//!   games through `tetrad::runner::run`, process start included;
//! - `bots/start/c-bot`: a game's start: the process started, `hello`, `info`, `start`,
//!   `ready`, and its end;
//! - `bots/sandboxed/...`: the round trip and the start again, under `--sandbox`
//!   (best effort, so that the benchmark runs where a piece is missing).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rustix::thread::{sched_getaffinity, sched_setaffinity, CpuSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tetrad::engine::Game;
use tetrad::player::{Observation, Player};
use tetrad::plugin::bot::messages::{BotMessage, Falling, HostMessage, State};
use tetrad::plugin::Plugin;
use tetrad::runner::{run, RunSpec};
use tetrad::setup::Setup;
use tetrad::watch::clock;
use tetrad_plugin_api::{PieceSet, Preset, Rules};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The C bot, compiled into a temporary folder with its manifest beside it.
fn c_bot(dir: &Path) -> PathBuf {
    let source = workspace().join("plugins/c-bot/bot.c");
    let binary = dir.join("bot");
    let status = std::process::Command::new("cc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("cc runs");
    assert!(status.success(), "the C bot compiles");
    let manifest = dir.join("bot.toml");
    std::fs::write(&manifest, "name = \"c-bot\"\ncommand = [\"./bot\"]\n").expect("manifest written");
    manifest
}

/// A C program that echoes what it reads, compiled into `dir`.
fn echo(dir: &Path) -> PathBuf {
    let source = dir.join("echo.c");
    std::fs::write(
        &source,
        "#include <unistd.h>\nint main(void) { char b[64]; ssize_t n;\n\
         while ((n = read(0, b, sizeof b)) > 0) if (write(1, b, n) != n) return 1; return 0; }\n",
    )
    .expect("source written");
    let binary = dir.join("echo");
    let status = std::process::Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("cc runs");
    assert!(status.success(), "the echo program compiles");
    binary
}

/// The set of one CPU.
fn only(cpu: usize) -> CpuSet {
    let mut set = CpuSet::new();
    set.set(cpu);
    set
}

/// The floor: two bytes to the echo program and back, this thread on `host` and the
/// program on `bot`.
fn ping_pong(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    echo: &Path,
    host: usize,
    bot: usize,
) {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let all = sched_getaffinity(None).expect("this thread's CPUs");
    sched_setaffinity(None, &only(host)).expect("pinned");
    let set = only(bot);
    let mut command = std::process::Command::new(echo);
    command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped());
    // SAFETY: one system call between fork and exec, on a set made before the fork.
    unsafe {
        command.pre_exec(move || {
            let _ = sched_setaffinity(None, &set);
            Ok(())
        });
    }
    let mut child = command.spawn().expect("the echo program starts");
    let mut to = child.stdin.take().expect("its stdin");
    let mut from = child.stdout.take().expect("its stdout");
    let mut back = [0u8; 2];
    c.bench_function(name, |b| {
        b.iter(|| {
            to.write_all(b"x\n").expect("written");
            from.read_exact(&mut back).expect("read back");
        })
    });
    drop(to);
    let _ = child.wait();
    sched_setaffinity(None, &all).expect("unpinned");
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let rules = Rules::preset(Preset::Simplified);
    let pieces = Arc::new(PieceSet::tetrominoes());

    let mut group = c.benchmark_group("bots");
    group.throughput(Throughput::Elements(1));
    let cpus: Vec<usize> = {
        let set = sched_getaffinity(None).expect("this thread's CPUs");
        (0..CpuSet::MAX_CPU).filter(|&cpu| set.is_set(cpu)).collect()
    };
    let echo = echo(dir.path());
    ping_pong(&mut group, "floor/ping-pong/one-core", &echo, cpus[0], cpus[0]);
    if cpus.len() > 1 {
        ping_pong(&mut group, "floor/ping-pong/two-cores", &echo, cpus[0], cpus[1]);
    }

    let plugin = Plugin::load(&c_bot(dir.path())).expect("the C bot loads");
    let game = Game::new(rules, pieces.clone(), 1);
    let seen = Observation::of(&game, true);
    let clock = clock();
    let message = HostMessage::Piece {
        field: std::borrow::Cow::Borrowed(seen.board.rows()),
        current: seen.current.map(|falling| Falling {
            piece: falling.piece.0,
            orientation: falling.pos.orientation,
            x: falling.pos.x,
            y: falling.pos.y,
        }),
        next: seen.next.map(|piece| piece.0),
        new_piece: true,
        state: State::from_abi(&seen.state()),
    };
    group.bench_function("json/piece-out", |b| {
        b.iter(|| serde_json::to_string(std::hint::black_box(&message)).expect("serialises"))
    });
    let reply = "{\"type\":\"placement\",\"orientation\":0,\"column\":3}\n";
    group.bench_function("json/placement-in", |b| {
        b.iter(|| serde_json::from_str::<BotMessage>(std::hint::black_box(reply)).expect("parses"))
    });
    // Unpinned first: the default pins this thread for good.
    tetrad::process::affinity::set_enabled(false);
    let mut free = Player::create(&plugin, &rules, &pieces, false, 1, "", None).expect("the C bot starts");
    group.bench_function("round-trip/c-bot-unpinned", |b| {
        b.iter(|| free.decide(&seen, clock, None).decision.expect("a placement"))
    });
    drop(free);
    tetrad::process::affinity::set_enabled(true);
    let mut player = Player::create(&plugin, &rules, &pieces, false, 1, "", None).expect("the C bot starts");
    group.bench_function("round-trip/c-bot", |b| {
        b.iter(|| player.decide(&seen, clock, None).decision.expect("a placement"))
    });
    group.bench_function("start/c-bot", |b| {
        b.iter(|| Player::create(&plugin, &rules, &pieces, false, 1, "", None).expect("the C bot starts"))
    });

    let greedy = Plugin::load(&workspace().join("plugins/python/greedy.toml")).expect("the Python bot loads");
    let mut setup = Setup::new(rules, pieces.clone()).expect("valid rules");
    setup.max_pieces = Some(300);
    let spec = RunSpec {
        setup,
        games: 2,
        seed: 1,
        sequences: None,
        jobs: 1,
        options: String::new(),
        watch: None,
        pieces_played: None,
    };
    group.sample_size(10);
    group.throughput(Throughput::Elements(600));
    group.bench_function("pieces/python-greedy", |b| {
        b.iter(|| run(&greedy, &spec, |_| {}).expect("plays"))
    });

    // From here on every bot process starts in the sandbox.
    let policy = tetrad::sandbox::Policy {
        mode: tetrad::sandbox::Mode::BestEffort,
        read: Vec::new(),
        limits: Default::default(),
        launcher: Some(env!("CARGO_BIN_EXE_tetrad").into()),
    };
    let missing = tetrad::sandbox::enable(policy).expect("the sandbox, as far as the system goes");
    if !missing.is_empty() {
        eprintln!("sandboxed benchmarks without {}", missing.join(", "));
    }
    let mut boxed = Player::create(&plugin, &rules, &pieces, false, 1, "", None).expect("the C bot starts");
    group.sample_size(100);
    group.throughput(Throughput::Elements(1));
    group.bench_function("sandboxed/round-trip/c-bot", |b| {
        b.iter(|| boxed.decide(&seen, clock, None).decision.expect("a placement"))
    });
    group.bench_function("sandboxed/start/c-bot", |b| {
        b.iter(|| Player::create(&plugin, &rules, &pieces, false, 1, "", None).expect("the C bot starts"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
