//! The placements `bcts` chooses over seeded games, pinned before its evaluation was
//! optimised (issue 9): a digest of every chosen position must not change.

use tetrad_plugin_api::{GameSetup, Options, PieceId, PieceSet, Preset, Rules, SeededRng, Solver};
use tetrad_plugin_bcts::Controller;

/// Plays up to `pieces` pieces with `options` under `rules`, locking each chosen
/// placement with the model's own `lock`, and returns (pieces placed, lines, a digest of
/// every chosen position and path).
fn play(rules: Rules, options: &str, seed: u64, pieces: usize) -> (usize, u32, u64) {
    let setup = GameSetup {
        rules,
        pieces: PieceSet::tetrominoes(),
        seed,
    };
    let mut controller = Controller::create(&setup, &mut Options::parse(options).unwrap()).unwrap();
    let mut rng = SeededRng::new(seed);
    let mut draw = || PieceId(rng.below(7) as u8);
    let mut board = tetrad_plugin_api::Board::new(rules.width, rules.height);
    let (mut current, mut next) = (draw(), draw());
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    let mut lines = 0;
    for placed in 0..pieces {
        let kind = setup.pieces.kind(current);
        let start = rules.spawn(kind);
        let preview = (rules.preview > 0).then_some(next);
        let Some(choice) = controller.choose(&board, current, start, preview) else {
            return (placed, lines, digest);
        };
        let p = choice.pos;
        for byte in [
            p.orientation,
            p.x as u8,
            p.y as u8,
            choice.turns as u8,
            choice.shifts as u8,
            choice.slide as u8,
        ] {
            digest = (digest ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        let lock = board.lock(kind.orientation(p.orientation), p.x, p.y);
        if rules.lock_ends_game(&lock, &board) {
            return (placed + 1, lines, digest);
        }
        lines += lock.lines;
        current = next;
        next = draw();
    }
    (pieces, lines, digest)
}

#[test]
fn one_piece_controllers_choose_the_same_placements() {
    // BCTS pinned again when hole depth became MdpTetris's (each cell above a hole
    // counted once): 799 lines to 798 in 2000 pieces.
    let simplified = Rules::preset(Preset::Simplified);
    assert_eq!(play(simplified, "", 7, 2000), (2000, 798, 2067772155908558215));
    assert_eq!(
        play(simplified, "controller=dellacherie", 7, 2000),
        (2000, 798, 13280585250965377548)
    );
    // Pinned again when `leiden` pieces began to hover with their bottom on row 2 (as the
    // Kosters skeleton places them, no path through the well): the vertical I reaches
    // columns it could not before, and this game went from 323 pieces to 1169. Pinned
    // again when hole depth became MdpTetris's (each cell above a hole counted once):
    // 1169 pieces to 967.
    let leiden = Rules::preset(Preset::Leiden);
    assert_eq!(play(leiden, "", 7, 2000), (967, 381, 8292131807861449282));
    let classic = Rules::preset(Preset::Classic);
    assert_eq!(
        play(classic, "controller=dellacherie", 7, 1000),
        (1000, 399, 11817132863887312288)
    );
    // The surface features' table and loops, on the board `tuned` was made for.
    let small = Rules {
        width: 10,
        height: 10,
        ..simplified
    };
    assert_eq!(
        play(small, "controller=tuned", 7, 3000),
        (3000, 1198, 18146984985774706525)
    );
}

#[test]
fn two_piece_search_chooses_the_same_placements() {
    let classic = Rules::preset(Preset::Classic);
    assert_eq!(play(classic, "lookahead=2", 3, 200), (200, 78, 4672669496153220374));
    let simplified = Rules {
        preview: 1,
        ..Rules::preset(Preset::Simplified)
    };
    assert_eq!(play(simplified, "lookahead=2", 3, 200), (200, 79, 12891653449690412328));
}
