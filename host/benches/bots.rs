//! Process bots: what a decision costs when the bot is a program.
//!
//! - `bots/round-trip/c-bot`: one `piece` message out and one `placement` back, through
//!   the host's own `Player`, with `plugins/c-bot` (compiled here with `cc`), a bot that
//!   does no thinking: the protocol's cost alone;
//! - `bots/pieces/python-greedy`: pieces per second of the Python greedy bot in real
//!   games through `tetrad::runner::run`, process start included;
//! - `bots/start/c-bot`: a game's start: the process started, `hello`, `info`, `start`,
//!   `ready`, and its end;
//! - `bots/sandboxed/...`: the round trip and the start again, under `--sandbox`
//!   (best effort, so that the benchmark runs where a piece is missing).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tetrad::engine::Game;
use tetrad::player::{Observation, Player};
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

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let rules = Rules::preset(Preset::Simplified);
    let pieces = Arc::new(PieceSet::tetrominoes());

    let mut group = c.benchmark_group("bots");
    let plugin = Plugin::load(&c_bot(dir.path())).expect("the C bot loads");
    let mut player = Player::create(&plugin, &rules, &pieces, false, 1, "", None).expect("the C bot starts");
    let game = Game::new(rules, pieces.clone(), 1);
    let seen = Observation::of(&game, true);
    let clock = clock();
    group.throughput(Throughput::Elements(1));
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
