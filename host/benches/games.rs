//! Games per second against `--jobs`: the host's whole path (engine, ABI calls into a
//! bundled plugin loaded as a shared library, result collection) on 1 and 2 threads.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::sync::Arc;
use tetrad::plugin::{resolve, Plugin};
use tetrad::runner::{run, Limits, RunSpec};
use tetrad_plugin_api::{PieceSet, Preset, Rules};

const GAMES: u64 = 16;

fn bench(c: &mut Criterion) {
    let plugin = Plugin::load(&resolve("tree-search").expect("tree-search is built")).expect("loads");
    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(20);
    for jobs in [1, 2] {
        let spec = RunSpec {
            rules: Rules::preset(Preset::Classic),
            pieces: Arc::new(PieceSet::tetrominoes()),
            games: GAMES,
            seed: 1,
            jobs,
            max_pieces: Some(200),
            options: "depth=1".to_string(),
            limits: Limits::default(),
            watch: None,
        };
        group.bench_function(
            BenchmarkId::new("tree-search-depth1-200-pieces", format!("jobs{jobs}")),
            |b| b.iter(|| run(&plugin, &spec, |_| {}).expect("plays")),
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
