//! The host's whole path (engine, ABI calls into a bundled plugin loaded as a shared
//! library, timing, result collection) through `tetrad::runner::run`, as `tetrad run`:
//!
//! - `games/*`: games per second against `--jobs`;
//! - `pieces/*`: pieces per second of a one-piece evaluator (`bcts`) under `simplified`;
//! - `ticks/*`: the host's cost per tick, with a plugin that does nothing (`testkit` in
//!   `stall` mode: it never drops, so each game is the stall limit's 768 ticks on 32x64).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::PathBuf;
use std::sync::Arc;
use tetrad::plugin::{resolve, Plugin};
use tetrad::runner::{run, RunSpec};
use tetrad::setup::Setup;
use tetrad_plugin_api::{PieceSet, Preset, Rules};

fn spec(rules: Rules, games: u64, jobs: usize, max_pieces: Option<u64>, options: &str) -> RunSpec {
    let mut setup = Setup::new(rules, Arc::new(PieceSet::tetrominoes())).expect("valid rules");
    setup.max_pieces = max_pieces;
    RunSpec {
        setup,
        games,
        seed: 1,
        sequences: None,
        jobs,
        options: options.to_string(),
        watch: None,
        pieces_played: None,
    }
}

/// The test plugin, built next to the benchmark as a dev-dependency.
fn testkit() -> PathBuf {
    let exe = std::env::current_exe().expect("the benchmark's path");
    let deps = exe.parent().expect("the benchmark's folder");
    let file = libloading::library_filename("tetrad_testkit");
    [deps.join(&file), deps.join("..").join(&file)]
        .into_iter()
        .find(|p| p.is_file())
        .expect("the testkit plugin is built")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("games");
    group.sample_size(20);
    let tree_search = Plugin::load(&resolve("tree-search").expect("tree-search is built")).expect("loads");
    const GAMES: u64 = 64;
    group.throughput(Throughput::Elements(GAMES));
    for jobs in [1, 2] {
        let spec = spec(Rules::preset(Preset::Classic), GAMES, jobs, Some(200), "depth=1");
        group.bench_function(
            BenchmarkId::new("tree-search-depth1-200-pieces", format!("jobs{jobs}")),
            |b| b.iter(|| run(&tree_search, &spec, |_| {}).expect("plays")),
        );
    }
    let bcts = Plugin::load(&resolve("bcts").expect("bcts is built")).expect("loads");
    for jobs in [1, 2] {
        let spec = spec(Rules::preset(Preset::Simplified), GAMES, jobs, Some(200), "");
        group.bench_function(
            BenchmarkId::new("bcts-simplified-200-pieces", format!("jobs{jobs}")),
            |b| b.iter(|| run(&bcts, &spec, |_| {}).expect("plays")),
        );
    }
    group.finish();

    let mut group = c.benchmark_group("pieces");
    group.sample_size(20);
    const PIECES: u64 = 2000;
    for options in ["controller=dellacherie", ""] {
        let spec = spec(Rules::preset(Preset::Simplified), 4, 1, Some(PIECES), options);
        let played: u64 = run(&bcts, &spec, |_| {})
            .expect("plays")
            .results
            .iter()
            .map(|r| r.pieces)
            .sum();
        group.throughput(Throughput::Elements(played));
        let label = if options.is_empty() { "bcts" } else { options };
        group.bench_function(BenchmarkId::new("simplified-jobs1", label), |b| {
            b.iter(|| run(&bcts, &spec, |_| {}).expect("plays"))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("ticks");
    group.sample_size(20);
    let stall = Plugin::load(&testkit()).expect("testkit loads");
    let rules = Rules {
        width: 32,
        height: 64,
        ..Rules::preset(Preset::Simplified)
    };
    let spec = spec(rules, 8, 1, None, "mode=stall");
    let ticks: u64 = run(&stall, &spec, |_| {})
        .expect("plays")
        .results
        .iter()
        .map(|r| r.ticks)
        .sum();
    group.throughput(Throughput::Elements(ticks));
    group.bench_function("host-per-tick/testkit-stall-32x64", |b| {
        b.iter(|| run(&stall, &spec, |_| {}).expect("plays"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
