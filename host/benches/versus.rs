//! Versus games through the tournament engine, as `tetrad versus` plays them:
//!
//! - `versus-games/*`: versus games per second against `--jobs` (two bundled plugins
//!   loaded as shared libraries, garbage between them);
//! - `versus-ticks/*`: the host's own cost per versus tick (both seats' ticks and the
//!   exchange), with two players that do nothing (`testkit` in `stall` mode on 32x64: both
//!   stall at the same tick, 768 ticks a game), beside the same players alone.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::path::PathBuf;
use std::sync::Arc;
use tetrad::engine::AttackTable;
use tetrad::plugin::{resolve, Plugin};
use tetrad::runner::RunSpec;
use tetrad::setup::Setup;
use tetrad::tournament::{Entrant, Shard, Tournament, Writer};
use tetrad_plugin_api::{PieceSet, Preset, Rules};

/// A versus tournament of `entrants` (plugin, options), or a solo one without `attack`.
fn tournament(entrants: &[(&Arc<Plugin>, &str)], rules: Rules, games: u64, jobs: usize, attack: bool) -> Tournament {
    let mut setup = Setup::new(rules, Arc::new(PieceSet::tetrominoes())).expect("valid rules");
    setup.max_pieces = Some(200);
    setup.attack = attack.then(AttackTable::default);
    Tournament {
        entrants: entrants
            .iter()
            .enumerate()
            .map(|(i, (plugin, options))| Entrant {
                label: format!("{}#{i}", plugin.info().name),
                plugin: Arc::clone(plugin),
                options: options.to_string(),
            })
            .collect(),
        spec: RunSpec {
            setup,
            games,
            seed: 1,
            sequences: None,
            jobs,
            options: String::new(),
            watch: None,
            pieces_played: None,
        },
        shard: Shard::ALL,
        isolation: None,
        sprt: None,
        record: None,
        record_games: None,
    }
}

/// Plays every fixture and returns the ticks played, over all seats.
fn play(tournament: &Tournament) -> u64 {
    let (fixtures, _) = tournament.play(Vec::new(), &mut Writer::none(), |_| {}).expect("plays");
    fixtures.iter().flat_map(|f| &f.seats).map(|s| s.result.ticks).sum()
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
    let mut group = c.benchmark_group("versus-games");
    group.sample_size(20);
    let load = |name: &str| Arc::new(Plugin::load(&resolve(name).expect("bundled plugin is built")).expect("loads"));
    let (bcts, tree_search) = (load("bcts"), load("tree-search"));
    const GAMES: u64 = 32;
    group.throughput(Throughput::Elements(GAMES));
    for jobs in [1, 2] {
        let pair = [(&bcts, ""), (&tree_search, "depth=1")];
        let versus = tournament(&pair, Rules::preset(Preset::Classic), GAMES, jobs, true);
        group.bench_function(
            BenchmarkId::new("bcts-vs-tree-search-depth1-classic", format!("jobs{jobs}")),
            |b| b.iter(|| play(&versus)),
        );
    }
    group.finish();

    let mut group = c.benchmark_group("versus-ticks");
    group.sample_size(20);
    let stall = Arc::new(Plugin::load(&testkit()).expect("testkit loads"));
    let rules = Rules {
        width: 32,
        height: 64,
        ..Rules::preset(Preset::Simplified)
    };
    let pair = [(&stall, "mode=stall"), (&stall, "mode=stall")];
    for (name, attack) in [("versus", true), ("solo-pair", false)] {
        let played = tournament(&pair, rules, 8, 1, attack);
        // Seat-ticks: a versus tick is two of them.
        group.throughput(Throughput::Elements(play(&played)));
        group.bench_function(BenchmarkId::new("host-per-seat-tick/testkit-stall-32x64", name), |b| {
            b.iter(|| play(&played))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
