//! The search on hand-made games: T-spins, holds, options and reproducibility.

use super::*;
use tetrad_plugin_api::{Board, Entry, FallingPiece, PieceSet, Rules, Spin};

fn setup() -> GameSetup {
    GameSetup {
        rules: Rules::preset(Preset::Guideline),
        pieces: PieceSet::srs(),
        seed: 1,
    }
}

fn beam(options: &str) -> Beam {
    Beam::create(&setup(), &mut Options::parse(options).unwrap()).unwrap()
}

fn id(name: &str) -> PieceId {
    let pieces = PieceSet::srs();
    let found = pieces.ids().find(|&id| pieces.kind(id).name() == name);
    found.unwrap()
}

/// A guideline board (40 rows) whose lowest rows are drawn.
fn board(bottom: &str) -> Board {
    let lines: Vec<&str> = bottom.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut text = vec![".........."; 40 - lines.len()];
    text.extend(lines);
    Board::from_text(10, 40, &text.join("\n"))
}

/// The tick of a new piece `current` at its entry on `board`.
fn tick(board: Board, current: &str, queue: &[&str], hold: Option<&str>) -> Tick {
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let piece = id(current);
    let pos = rules.enter(&board, pieces.kind(piece));
    let queue: Vec<PieceId> = queue.iter().map(|name| id(name)).collect();
    Tick::new(board, Some(FallingPiece { id: piece, pos }), None, true)
        .with_queue(&queue)
        .with_hold(hold.map(id), true)
}

/// A T-spin double slot at columns 3..5, covered on the left.
const TSD: &str = "
    ...#......
    ###...####
    ####.#####";

#[test]
fn the_search_spins_a_t_into_a_ready_slot() {
    let tick = tick(board(TSD), "T", &["I", "O"], None);
    let choice = beam("depth=1,width=8").search(&tick).choice.unwrap();
    assert!(!choice.hold);
    let (rules, pieces) = (Rules::preset(Preset::Guideline), PieceSet::srs());
    let spin = choice.landing.entry.t_spin(&tick.board, choice.landing.pos);
    assert_eq!(spin, Spin::Full, "{choice:?}");
    let mut after = tick.board.clone();
    let kind = pieces.kind(id("T"));
    assert!(after.place(
        kind.orientation(choice.landing.pos.orientation),
        choice.landing.pos.x,
        choice.landing.pos.y
    ));
    assert_eq!(after.clear_full_rows(), 2, "a T-spin double");
    assert!(choice
        .landing
        .path(&rules, &tick.board, kind, tick.current.unwrap().pos)
        .is_some());
}

#[test]
fn the_search_holds_when_the_held_piece_fits_and_the_falling_one_does_not() {
    // A well four deep at the right: the held I clears four lines, an S only spoils it.
    let well = "
        #########.
        #########.
        #########.
        #########.";
    let tick = tick(board(well), "S", &["Z", "S"], Some("I"));
    let choice = beam("depth=1,width=8").search(&tick).choice.unwrap();
    assert!(choice.hold, "{choice:?}");
    assert_eq!(choice.piece, id("I"));
    // Played through `update`: a hold now, and the I placed as planned.
    let mut bot = beam("depth=1,width=8");
    assert_eq!(bot.update(&tick), Actions::HOLD);
    let rules = Rules::preset(Preset::Guideline);
    let i = id("I");
    let pos = rules.enter(&tick.board, PieceSet::srs().kind(i));
    let after = Tick::new(tick.board.clone(), Some(FallingPiece { id: i, pos }), None, true)
        .with_queue(&tick.queue)
        .with_hold(Some(id("S")), false);
    let path = choice
        .landing
        .path(&rules, &tick.board, PieceSet::srs().kind(i), pos)
        .unwrap();
    let mut played = vec![bot.update(&after)];
    let mut later = after.clone();
    later.new_piece = false;
    played.extend((1..path.len()).map(|_| bot.update(&later)));
    assert_eq!(played, path, "the I follows the planned path");
    assert_eq!(bot.last().unwrap().choice, Some(choice), "no second search");
}

#[test]
fn a_fixed_node_budget_gives_the_same_choice() {
    let garbage = "
        ....#.....
        ##..##.#..
        ###.######
        ####.#####
        #.########";
    let tick = tick(board(garbage), "L", &["J", "T", "S", "Z", "I", "O"], None);
    let first = beam("nodes=3000").search(&tick);
    let again = beam("nodes=3000").search(&tick);
    assert_eq!(first, again);
    assert_eq!(first.nodes, 3000, "the budget ends the search");
    assert!(first.choice.is_some());
    let more = beam("nodes=1000000").search(&tick);
    assert!(more.nodes > 3000 && more.depth == DEFAULT_DEPTH, "{more:?}");
}

#[test]
fn the_search_looks_ahead_to_keep_the_t_slot_for_the_t() {
    // The T comes second and no hold: with the falling O the search keeps the slot open
    // and the T spins into it next.
    let mut tick = tick(board(TSD), "O", &["T", "I"], None);
    tick.hold_available = false;
    let outcome = beam("depth=2,width=32").search(&tick);
    let choice = outcome.choice.unwrap();
    let mut after = tick.board.clone();
    let pieces = PieceSet::srs();
    let kind = pieces.kind(id("O"));
    after.place(
        kind.orientation(choice.landing.pos.orientation),
        choice.landing.pos.x,
        choice.landing.pos.y,
    );
    assert_eq!(fill_tslot(&mut after), Some(2), "the O leaves the slot: {choice:?}");
    assert!(choice.landing.entry == Entry::Drop || choice.landing.entry == Entry::Turn);
}

#[test]
fn options_are_checked() {
    let refuse = |options: &str| {
        Beam::create(&setup(), &mut Options::parse(options).unwrap())
            .err()
            .unwrap()
    };
    assert!(refuse("width=0").contains("width"));
    assert!(refuse("w_holes=inf").contains("w_holes"));
    let classic = GameSetup {
        rules: Rules::preset(Preset::Classic),
        ..setup()
    };
    let refused = Beam::create(&classic, &mut Options::parse("").unwrap()).err().unwrap();
    assert!(refused.contains("guideline"), "{refused}");
    assert_eq!(beam("w_holes=-1.5").weights.holes, -1.5);
    assert_eq!(beam("think_ms=20").limits.think, Some(Duration::from_millis(20)));
    assert!(refuse("clock_share=0").contains("clock_share"));
    assert!(refuse("clock_share=1.5").contains("clock_share"));
}

#[test]
fn the_hosts_think_budget_bounds_the_search() {
    let tick = tick(board(TSD), "L", &["J", "T", "S", "Z", "I", "O"], None);
    let budget = Some(Duration::from_millis(50));
    // Without a think time of its own the bot takes its share of the budget ...
    let bot = beam("");
    assert_eq!(bot.limits_for(&tick).think, None);
    let timed = tick.clone().with_think_budget(budget);
    assert_eq!(bot.limits_for(&timed).think, Some(Duration::from_millis(30)));
    // ... and a shorter think time of its own stays.
    assert_eq!(
        beam("think_ms=10").limits_for(&timed).think,
        Some(Duration::from_millis(10))
    );
    assert_eq!(
        beam("clock_share=0.2").limits_for(&timed).think,
        Some(Duration::from_millis(10))
    );
}

#[test]
fn a_think_time_stops_a_search_that_would_take_far_longer() {
    // A beam of 5000 over seven placements takes seconds; a millisecond stops it early,
    // with the best move found so far.
    let tick = tick(board(TSD), "L", &["J", "T", "S", "Z", "I", "O"], None);
    let started = std::time::Instant::now();
    let outcome = beam("width=5000,depth=7,think_ms=1").search(&tick);
    assert!(outcome.choice.is_some());
    assert!(outcome.depth < 7, "{outcome:?}");
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
}
