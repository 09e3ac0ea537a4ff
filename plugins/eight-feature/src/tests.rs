//! The plugin end to end: options, and games played through the shared `step`, the very
//! movement code the host runs.

use super::*;
use tetrad_plugin_api::{step, Board, FallingPiece, PieceId, PieceSet, Preset, Rules, SeededRng};

fn setup(rules: Rules) -> GameSetup {
    GameSetup {
        rules,
        pieces: PieceSet::tetrominoes(),
        seed: 1,
    }
}

#[test]
fn options_set_every_weight_and_the_limit() {
    let setup = setup(Rules::preset(Preset::Classic));
    let mut none = Options::default();
    assert_eq!(
        parse_options(&setup, &mut none),
        Ok(Settings {
            weights: Weights::DEFAULT,
            limit: 14,
            heights: Heights::FromFloor,
            walls: Walls::Clipped,
        })
    );
    let mut top = Options::parse("heights=top").unwrap();
    assert_eq!(parse_options(&setup, &mut top).unwrap().heights, Heights::FromTop);
    let mut all =
        Options::parse("w1=1,w2=2,w3=3,w4=4,w5=5,w6=6,w7=-7,w8=0.5,deep_limit=3,heights=top,walls=signed").unwrap();
    assert_eq!(
        parse_options(&setup, &mut all),
        Ok(Settings {
            weights: Weights([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, -7.0, 0.5]),
            limit: 3,
            heights: Heights::FromTop,
            walls: Walls::Signed,
        })
    );
    assert_eq!(all.finish(), Ok(()));
    let mut bad = Options::parse("w4=inf").unwrap();
    assert_eq!(
        parse_options(&setup, &mut bad),
        Err("option `w4`: inf is not a finite number".to_string())
    );
    assert!(parse_options(&setup, &mut Options::parse("heights=side").unwrap()).is_err());
    assert_eq!(
        parse_options(&setup, &mut Options::parse("walls=abs").unwrap()),
        Err("option `walls`: `abs` is neither `clip` nor `signed`".to_string())
    );
    let mut unknown = Options::parse("w9=1").unwrap();
    parse_options(&setup, &mut unknown).unwrap();
    assert!(unknown.finish().unwrap_err().starts_with("unknown option `w9`"));
    let tall = self::setup(Rules {
        height: 30,
        ..Rules::preset(Preset::Classic)
    });
    assert_eq!(parse_options(&tall, &mut Options::default()).unwrap().limit, 21);
}

/// Plays `pieces` pieces (or until the game ends) as the host does: `update` every tick,
/// then `step`; checks that each piece locks where the search put it. Returns the lines.
fn play(rules: Rules, options: &str, pieces: u32, seed: u64) -> (u64, u32) {
    let setup = setup(rules);
    let mut solver = EightFeature::create(&setup, &mut Options::parse(options).unwrap()).unwrap();
    let settings = parse_options(&setup, &mut Options::parse(options).unwrap()).unwrap();
    let mut oracle = Searcher::new(rules, setup.pieces.clone(), settings);
    let mut rng = SeededRng::new(seed);
    let mut draw = || PieceId(rng.below(7) as u8);
    let mut board = Board::new(rules.width, rules.height);
    let mut next = draw();
    let mut lines = 0;
    for placed in 0..pieces {
        let id = std::mem::replace(&mut next, draw());
        let kind = setup.pieces.kind(id);
        let mut pos = rules.spawn(kind);
        if !board.fits(kind.orientation(0), pos.x, pos.y) {
            return (lines, placed);
        }
        let preview = (rules.preview > 0).then_some(next);
        let expected = oracle
            .decide(&board, FallingPiece { id, pos }, preview)
            .unwrap()
            .placement
            .pos;
        let mut new_piece = true;
        loop {
            let tick = Tick::new(board.clone(), Some(FallingPiece { id, pos }), preview, new_piece);
            new_piece = false;
            let actions = solver.update(&tick);
            assert!(!actions.is_violation());
            if step(&rules, &board, kind, &mut pos, actions).locked {
                break;
            }
        }
        assert_eq!(pos, expected, "piece {placed} locked off its target");
        let lock = board.lock(kind.orientation(pos.orientation), pos.x, pos.y);
        if lock.above_board {
            return (lines, placed);
        }
        lines += u64::from(lock.lines);
    }
    (lines, pieces)
}

#[test]
fn classic_games_lock_every_piece_where_the_search_chose() {
    // Whole games with the default weights (capped: they play long), and under the
    // seed's letter (heights=top,walls=signed) with the weights its own tune chose (see
    // the README).
    let rules = Rules::preset(Preset::Classic);
    for seed in [11, 12, 13] {
        let (lines, pieces) = play(rules, "", 600, seed);
        assert!(pieces > 100 && lines > 0, "{lines} lines in {pieces} pieces");
    }
    let top = "heights=top,walls=signed,w1=-0.1616,w2=5.5363,w3=-0.841,w4=10,w5=14.1917,w6=0,w7=-0.7529,w8=-11.6818";
    let (lines, pieces) = play(rules, top, 300, 11);
    assert!(lines > 0 && pieces >= 20, "{lines} lines in {pieces} pieces");
}

#[test]
fn small_boards_and_no_preview_play_too() {
    let small = Rules {
        width: 6,
        height: 12,
        ..Rules::preset(Preset::Classic)
    };
    let (_, pieces) = play(small, "", 40, 3);
    assert!(pieces > 0);
    let shallow = Rules {
        preview: 0,
        ..Rules::preset(Preset::Classic)
    };
    let (lines, _) = play(shallow, "", 120, 5);
    assert!(lines > 0);
}
