//! The plugin end to end: options, and games played through the shared `step`, the very
//! movement code the host runs.

use super::*;
use tetrad_plugin_api::{step, Board, FallingPiece, PieceId, PieceSet, Preset, Rules, SeededRng};

#[test]
fn options_override_every_constant_and_the_split() {
    assert_eq!(parse_options(&mut Options::default()), Ok((Constants::SEED, 4)));
    let mut all = Options::parse("hole=-1,fill=2,single=3,multi=4,highest=-5,lowest=-6,chasm=7,split=1").unwrap();
    assert_eq!(
        parse_options(&mut all),
        Ok((
            Constants {
                hole: -1,
                fill: 2,
                single: 3,
                multi: 4,
                highest: -5,
                lowest: -6,
                chasm: 7,
            },
            1
        ))
    );
    assert_eq!(all.finish(), Ok(()));
    assert!(parse_options(&mut Options::parse("split=0").unwrap()).is_err());
    assert!(parse_options(&mut Options::parse("hole=lots").unwrap()).is_err());
}

/// Plays up to `pieces` pieces as the host does; returns (lines, pieces placed).
fn play(rules: Rules, pieces: u32, seed: u64) -> (u64, u32) {
    let setup = GameSetup {
        rules,
        pieces: PieceSet::tetrominoes(),
        seed,
    };
    let mut solver = Chasm::create(&setup, &mut Options::default()).unwrap();
    let mut rng = SeededRng::new(seed);
    let mut board = Board::new(rules.width, rules.height);
    let mut next = PieceId(rng.below(7) as u8);
    let mut lines = 0;
    for placed in 0..pieces {
        let id = std::mem::replace(&mut next, PieceId(rng.below(7) as u8));
        let kind = setup.pieces.kind(id);
        let mut pos = rules.spawn(kind);
        if !board.fits(kind.orientation(0), pos.x, pos.y) {
            return (lines, placed);
        }
        let mut new_piece = true;
        loop {
            let tick = Tick::new(
                board.clone(),
                Some(FallingPiece { id, pos }),
                (rules.preview > 0).then_some(next),
                new_piece,
            );
            new_piece = false;
            let actions = solver.update(&tick);
            assert!(!actions.is_violation());
            if step(&rules, &board, kind, &mut pos, actions).locked {
                break;
            }
        }
        let lock = board.lock(kind.orientation(pos.orientation), pos.x, pos.y);
        if lock.above_board {
            return (lines, placed);
        }
        lines += u64::from(lock.lines);
    }
    (lines, pieces)
}

#[test]
fn plays_classic_games_and_clears_lines() {
    let (lines, pieces) = play(Rules::preset(Preset::Classic), 200, 2);
    assert!(pieces > 50 && lines > 10, "{lines} lines in {pieces} pieces");
}

#[test]
fn plays_without_preview_and_on_other_presets() {
    let no_preview = Rules {
        preview: 0,
        ..Rules::preset(Preset::Classic)
    };
    assert!(play(no_preview, 60, 3).1 > 0);
    assert!(play(Rules::preset(Preset::Simplified), 60, 3).1 > 0);
}
