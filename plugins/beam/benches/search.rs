//! The beam's search speed: children made a second, on positions of a game it plays
//! against nothing (a seeded 7-bag, no garbage), at a fixed node budget per decision.
//!
//! `cargo bench -p tetrad-plugin-beam --bench search`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use tetrad_plugin_api::{
    Board, FallingPiece, GameSetup, Options, PieceId, PieceSet, Preset, Rules, SeededRng, Solver, Tick,
};
use tetrad_plugin_beam::Beam;

/// Children made per decision.
const BUDGET: u64 = 20_000;
/// Decisions timed.
const POSITIONS: usize = 40;

fn setup() -> GameSetup {
    GameSetup {
        rules: Rules::preset(Preset::Guideline),
        pieces: PieceSet::srs(),
        seed: 1,
    }
}

fn beam(options: &str) -> Beam {
    Beam::create(&setup(), &mut Options::parse(options).expect("options")).expect("a beam")
}

/// The pieces of a seeded 7-bag.
fn bag(rng: &mut SeededRng, pieces: &PieceSet, count: usize) -> Vec<PieceId> {
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut bag: Vec<PieceId> = pieces.ids().collect();
        while !bag.is_empty() {
            out.push(bag.swap_remove(rng.below(bag.len() as u32) as usize));
        }
    }
    out
}

/// The ticks of the first `POSITIONS` new pieces of a game the beam plays.
fn positions() -> Vec<Tick> {
    let setup = setup();
    let (rules, pieces) = (&setup.rules, &setup.pieces);
    let sequence = bag(&mut SeededRng::new(7), pieces, POSITIONS * 2 + 8);
    let mut bot = beam(&format!("nodes={BUDGET}"));
    let mut board = Board::new(rules.width, rules.height);
    let (mut hold, mut next) = (None, 0);
    let mut ticks = Vec::new();
    while ticks.len() < POSITIONS {
        let piece = sequence[next];
        let queue = &sequence[next + 1..next + 1 + rules.preview];
        let pos = rules.enter(&board, pieces.kind(piece));
        let tick = Tick::new(
            board.clone(),
            Some(FallingPiece { id: piece, pos }),
            Some(queue[0]),
            true,
        )
        .with_queue(queue)
        .with_hold(hold, true);
        let choice = bot.search(&tick).choice.expect("the game goes on");
        ticks.push(tick);
        next += 1;
        if choice.hold {
            if hold.is_none() {
                next += 1;
            }
            hold = Some(piece);
        }
        let shape = pieces.kind(choice.piece).orientation(choice.landing.pos.orientation);
        assert!(board.place(shape, choice.landing.pos.x, choice.landing.pos.y));
        board.clear_full_rows();
    }
    ticks
}

fn search(c: &mut Criterion) {
    let ticks = positions();
    let mut bot = beam(&format!("nodes={BUDGET}"));
    // A search that completes its beam stops below the budget: count what is made.
    let children: u64 = ticks.iter().map(|tick| bot.search(tick).nodes).sum();
    let mut group = c.benchmark_group("beam");
    group.throughput(Throughput::Elements(children));
    group.bench_function("search/20000-children", |b| {
        b.iter(|| {
            for tick in &ticks {
                black_box(bot.search(black_box(tick)));
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = search
}
criterion_main!(benches);
