//! The SDK against hand-made ABI structs.

use super::convert::{fill_tick, orientation_counts, piece_from_abi};
use super::guard::{guarded, GUARD_DEPTH, LOADED_BY_HOST, PANIC_MESSAGE};
use super::*;
use crate::abi::{GameInfoBuf, TetradField, TetradPiece, TetradState, NO_PIECE};
use crate::model::board::Board;
use crate::model::piece::{PieceId, PieceSet};
use crate::model::rules::{Preset, Rules};
use std::cell::Cell;
use std::panic;
use std::sync::atomic::Ordering;

#[test]
fn the_exported_header_has_the_name_the_loader_looks_for() {
    assert_eq!(
        abi_stable::library::ROOT_MODULE_LOADER_NAME,
        "_1as_0lib_1header_0root_bmodule_bloader"
    );
}

#[test]
fn game_info_round_trips_through_the_abi() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        let pieces = match preset {
            Preset::Guideline => PieceSet::srs(),
            _ => PieceSet::tetrominoes(),
        };
        let buf = GameInfoBuf::new(&rules, &pieces, 42, 2);
        let setup = setup_from_abi(buf.info()).unwrap();
        assert_eq!(setup.rules, rules);
        assert_eq!(setup.pieces, pieces);
        assert_eq!(setup.seed, 42);
        // The version 1 ABI shows one next piece, whatever the preset previews.
        let buf = GameInfoBuf::new(&rules, &pieces, 42, 1);
        assert_eq!(buf.info().abi_version, 1);
        let shown = Rules {
            preview: rules.preview.min(1),
            ..rules
        };
        assert_eq!(setup_from_abi(buf.info()).unwrap().rules, shown);
    }
    let mut info = *GameInfoBuf::new(&Rules::default(), &PieceSet::tetrominoes(), 1, 2).info();
    info.abi_version = 3;
    assert_eq!(
        setup_from_abi(&info).unwrap_err(),
        "host speaks ABI version 3, plugin expects 1 to 2"
    );
}

#[test]
fn the_version_2_state_is_read_and_checked() {
    let rules = Rules::preset(Preset::Guideline);
    let pieces = PieceSet::srs();
    let setup = GameSetup {
        rules,
        pieces: pieces.clone(),
        seed: 1,
    };
    let counts = orientation_counts(&pieces);
    let mut tick = Tick::new(Board::new(rules.width, rules.height), None, None, false);
    let rows = vec![0u32; rules.height];
    let field = TetradField {
        width: rules.width as u32,
        height: rules.height as u32,
        rows: rows.as_ptr(),
    };
    let current = TetradPiece {
        kind: 5,
        orientation: 0,
        x: 3,
        y: 18,
    };
    let next = TetradPiece::next(Some(PieceId(2)));
    let mut state = TetradState {
        hold: 6,
        hold_available: 1,
        queue_len: 3,
        combo: 4,
        back_to_back: 1,
        pending_garbage: 7,
        ..TetradState::EMPTY
    };
    state.queue[..3].copy_from_slice(&[2, 0, 1]);
    let mut fill = |state: Option<&TetradState>| {
        fill_tick(&mut tick, &setup, &counts, &field, &current, &next, state, true).map(|()| tick.clone())
    };
    let read = fill(Some(&state)).unwrap();
    assert_eq!(read.queue, [PieceId(2), PieceId(0), PieceId(1)]);
    assert_eq!(
        (read.next, read.hold, read.hold_available),
        (Some(PieceId(2)), Some(PieceId(6)), true)
    );
    assert_eq!((read.combo, read.back_to_back, read.pending_garbage), (4, true, 7));
    // A version 1 host: the next piece is the whole queue, nothing is held.
    let v1 = fill(None).unwrap();
    assert_eq!(
        (v1.queue, v1.hold, v1.hold_available, v1.combo),
        (vec![PieceId(2)], None, false, 0)
    );
    // Every kind is checked, and so are the lengths.
    let bad = |change: fn(&mut TetradState)| {
        let mut bad = state;
        change(&mut bad);
        bad
    };
    assert_eq!(
        fill(Some(&bad(|s| s.hold = 7))).unwrap_err(),
        "host sent unknown piece kind 7"
    );
    assert_eq!(
        fill(Some(&bad(|s| s.queue[1] = -5))).unwrap_err(),
        "host sent unknown piece kind -5"
    );
    assert_eq!(
        fill(Some(&bad(|s| s.queue_len = 9))).unwrap_err(),
        "host sent a queue of 9 pieces"
    );
    assert_eq!(
        fill(Some(&bad(|s| s.size = 40))).unwrap_err(),
        "host sent a state of 40 bytes"
    );
}

#[test]
fn piece_views_are_checked_against_the_piece_set() {
    let pieces = PieceSet::tetrominoes();
    let counts = orientation_counts(&pieces);
    let view = |kind, orientation| TetradPiece {
        kind,
        orientation,
        x: 3,
        y: -1,
    };
    assert_eq!(piece_from_abi(&counts, &view(NO_PIECE, 0)), Ok(None));
    for (id, kind) in pieces.kinds().iter().enumerate() {
        let last = kind.orientations().len() as i32 - 1;
        let read = piece_from_abi(&counts, &view(id as i32, last)).unwrap().unwrap();
        assert_eq!(read.id, PieceId(id as u8));
        assert_eq!((read.pos.orientation as i32, read.pos.x, read.pos.y), (last, 3, -1));
        assert_eq!(
            piece_from_abi(&counts, &view(id as i32, last + 1)),
            Err(format!("host sent unknown orientation {}", last + 1))
        );
    }
    for kind in [7, 255, 256, -2] {
        assert_eq!(
            piece_from_abi(&counts, &view(kind, 0)),
            Err(format!("host sent unknown piece kind {kind}"))
        );
    }
    assert_eq!(
        piece_from_abi(&counts, &view(2, -1)),
        Err("host sent unknown orientation -1".to_string())
    );
}

#[test]
fn the_rows_are_read_on_each_new_piece_and_held_between() {
    let rules = Rules::preset(Preset::Classic);
    let pieces = PieceSet::tetrominoes();
    let setup = GameSetup {
        rules,
        pieces: pieces.clone(),
        seed: 1,
    };
    let counts = orientation_counts(&pieces);
    let mut tick = Tick::new(Board::new(rules.width, rules.height), None, None, false);
    let piece = TetradPiece {
        kind: 0,
        orientation: 0,
        x: 3,
        y: 0,
    };
    let no_piece = TetradPiece {
        kind: NO_PIECE,
        ..piece
    };
    let mut rows = vec![0u32; rules.height];
    let mut fill = |rows: &[u32], new_piece| {
        let field = TetradField {
            width: rules.width as u32,
            height: rules.height as u32,
            rows: rows.as_ptr(),
        };
        fill_tick(&mut tick, &setup, &counts, &field, &piece, &no_piece, None, new_piece).map(|()| tick.board.clone())
    };
    // Bits beyond the width are dropped; the surface is found.
    rows[19] = 0b1_0000_0000_0001;
    let board = fill(&rows, true).unwrap();
    assert_eq!((board.rows()[19], board.surface()), (0b1, 19));
    assert_eq!(fill(&rows, false).unwrap(), board);
    rows[18] = 0b11;
    let next = fill(&rows, true).unwrap();
    assert_eq!((next.rows()[18], next.surface()), (0b11, 18));
    // A host that changes the rows during a piece breaks the header's promise: a debug
    // build says so (a release build keeps the rows it holds).
    rows[17] = 0b1;
    let changed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fill(&rows, false)));
    assert_eq!(changed.is_err(), cfg!(debug_assertions));
}

#[test]
fn panics_become_errors_with_their_message() {
    let result: Result<(), String> = guarded(|| panic!("boom {}", 7));
    let message = result.unwrap_err();
    assert!(message.starts_with("panicked at "), "{message}");
    assert!(message.ends_with(": boom 7"), "{message}");
}

#[test]
fn linked_in_only_panics_inside_guarded_calls_are_recorded() {
    // Linked into this test process, the SDK was never loaded by a host.
    assert!(!LOADED_BY_HOST.load(Ordering::Acquire));
    guarded(|| Ok(())).unwrap();
    // Outside any guarded call, the panic goes to the hook that was there before.
    assert!(panic::catch_unwind(|| panic!("outside any guarded call")).is_err());
    assert_eq!(PANIC_MESSAGE.with(|m| m.borrow_mut().take()), None);
    // Nested calls record, and leave the depth as it was.
    let nested: Result<(), String> = guarded(|| guarded(|| panic!("nested")));
    assert!(nested.unwrap_err().ends_with(": nested"));
    assert_eq!(GUARD_DEPTH.with(Cell::get), 0);
}
