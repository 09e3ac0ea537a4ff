//! Placements played per second on one core, as the Python package's batch plays them:
//! the falling piece's placements enumerated by the move generator, one chosen at random,
//! and played, by landing it at once ([`Game::land`]) or tick by tick along its path; a
//! game that ends is followed by the next seed. Under `classic` (the default preset,
//! whose gravity makes the move generator check or play every path) and `simplified`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::sync::Arc;
use tetrad_engine::engine::Game;
use tetrad_plugin_api::{placements_into, PieceSet, Placement, Preset, Rules, SeededRng};

/// Placements per iteration.
const PLACEMENTS: u64 = 1000;

/// The games played so far, and the generator that chooses their placements.
struct Games {
    rules: Rules,
    pieces: Arc<PieceSet>,
    game: Game,
    seed: u64,
    rng: SeededRng,
    found: Vec<Placement>,
}

impl Games {
    fn new(preset: Preset) -> Games {
        let rules = Rules::preset(preset);
        let pieces = Arc::new(PieceSet::tetrominoes());
        Games {
            game: Game::new(rules, pieces.clone(), 0),
            rules,
            pieces,
            seed: 0,
            rng: SeededRng::new(1),
            found: Vec::with_capacity(256),
        }
    }

    /// Plays `PLACEMENTS` random placements, a new game after each that ends.
    fn play(&mut self, land: bool) {
        for _ in 0..PLACEMENTS {
            let falling = match self.game.current().filter(|_| !self.game.is_over()) {
                Some(falling) => falling,
                None => {
                    self.seed += 1;
                    self.game = Game::new(self.rules, self.pieces.clone(), self.seed);
                    self.game.current().expect("a new game has a piece")
                }
            };
            let kind = self.pieces.kind(falling.piece);
            placements_into(&self.rules, self.game.board(), kind, falling.pos, &mut self.found);
            let placement = self.found[self.rng.below(self.found.len() as u32) as usize];
            if land {
                black_box(self.game.land(&placement));
            } else {
                for actions in placement.path(self.rules.movement()) {
                    if self.game.tick(actions).locked.is_some() {
                        break;
                    }
                }
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("placements");
    group.throughput(Throughput::Elements(PLACEMENTS));
    for preset in [Preset::Classic, Preset::Simplified] {
        for (name, land) in [("land", true), ("ticks", false)] {
            let mut games = Games::new(preset);
            group.bench_function(BenchmarkId::new(name, preset.name()), |b| b.iter(|| games.play(land)));
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
