//! Presets, sizes and spawn rows pinned.

use super::*;

#[test]
fn presets_parse_and_validate() {
    let set = PieceSet::tetrominoes();
    for preset in Preset::ALL {
        assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
        let pieces = if preset == Preset::Guideline {
            PieceSet::srs()
        } else {
            set.clone()
        };
        assert_eq!(Rules::preset(preset).validate(&pieces), Ok(()));
    }
    let guideline = Rules::preset(Preset::Guideline);
    assert_eq!(guideline.validate(&set), Err(RulesError::GuidelinePieces));
    let too_many = Rules {
        preview: 7,
        ..guideline
    };
    assert!(too_many
        .validate(&PieceSet::srs())
        .unwrap_err()
        .to_string()
        .contains("preview 7"));
    assert!("tengen".parse::<Preset>().is_err());
}

#[test]
fn out_of_range_sizes_name_the_value() {
    let set = PieceSet::tetrominoes();
    let mut rules = Rules::preset(Preset::Leiden);
    rules.width = 21;
    let err = rules.validate(&set).unwrap_err();
    assert_eq!(err.to_string(), "width 21 is out of range 4..=20 for preset leiden");
    rules.width = 10;
    rules.preview = 1;
    assert!(rules.validate(&set).is_err());
}

#[test]
fn a_rotation_box_wider_than_the_board_is_refused_by_name() {
    // A bar of 5 drawn in a box of 6: it fits a 5-wide board, its box does not.
    let cells = (1..6).map(|x| (x, 2)).collect();
    let set = PieceSet::new(vec![PieceKind::in_box("X", 6, cells)]);
    // (The guideline refuses any set but its own first.)
    for preset in [Preset::Classic, Preset::Leiden, Preset::Simplified] {
        let mut rules = Rules::preset(preset);
        rules.width = 5;
        let err = rules.validate(&set).unwrap_err();
        assert_eq!(
            err.to_string(),
            "piece `X`: its rotations need a box of 6 columns, the board is 5 wide",
            "{preset}"
        );
        rules.width = 6;
        assert_eq!(rules.validate(&set), Ok(()), "{preset}");
    }
}

#[test]
fn spawn_is_centred_with_the_top_cell_on_row_zero() {
    let set = PieceSet::tetrominoes();
    let rules = Rules::default();
    let i = set.kind(crate::model::piece::PieceId(0));
    let o = set.kind(crate::model::piece::PieceId(1));
    assert_eq!(
        rules.spawn(i),
        PiecePos {
            orientation: 0,
            x: 3,
            y: -1
        }
    );
    assert_eq!(
        rules.spawn(o),
        PiecePos {
            orientation: 0,
            x: 4,
            y: 0
        }
    );
    let simplified = Rules::preset(Preset::Simplified);
    assert_eq!(simplified.spawn(o).y, -2);
}

#[test]
fn guideline_pieces_spawn_in_the_two_buffer_rows_over_the_field_rounded_left() {
    let set = PieceSet::srs();
    let rules = Rules::preset(Preset::Guideline);
    // Every piece's cells lie in rows 18 and 19 (the 22nd and 21st rows counted from
    // the bottom of the visible field, which starts at row 20), I alone in row 19; I
    // and O in the middle columns, the others in columns 3 to 5.
    let mut seen = Vec::new();
    for kind in set.kinds() {
        let pos = rules.spawn(kind);
        let cells: Vec<(i8, i8)> = kind
            .orientation(0)
            .cells()
            .iter()
            .map(|&(x, y)| (pos.x + x, pos.y + y))
            .collect();
        let columns = (
            cells.iter().map(|c| c.0).min().unwrap(),
            cells.iter().map(|c| c.0).max().unwrap(),
        );
        let rows = (
            cells.iter().map(|c| c.1).min().unwrap(),
            cells.iter().map(|c| c.1).max().unwrap(),
        );
        seen.push((kind.name().to_string(), columns, rows));
    }
    let expected = [
        ("I", (3, 6), (19, 19)),
        ("O", (4, 5), (18, 19)),
        ("T", (3, 5), (18, 19)),
        ("S", (3, 5), (18, 19)),
        ("Z", (3, 5), (18, 19)),
        ("J", (3, 5), (18, 19)),
        ("L", (3, 5), (18, 19)),
    ];
    for ((name, columns, rows), (want, want_columns, want_rows)) in seen.iter().zip(expected) {
        assert_eq!((name.as_str(), *columns, *rows), (want, want_columns, want_rows));
    }
}

/// A 10x40 board with `rows` drawn from the top of the visible field (row 20) down.
fn field_top(rows: &str) -> Board {
    let lines: Vec<&str> = rows.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let mut board = Board::new(10, 40);
    for (i, line) in lines.iter().enumerate() {
        for (x, b) in line.bytes().enumerate() {
            if b == b'#' {
                board.fill(x, 20 + i);
            }
        }
    }
    board
}

#[test]
fn a_guideline_piece_drops_one_row_as_it_enters_when_nothing_blocks_it() {
    // The guideline spawns in rows 21 and 22 and drops one row at once: on a free board
    // every piece enters with its bottom cell in row 20, the field's top row.
    let set = PieceSet::srs();
    let rules = Rules::preset(Preset::Guideline);
    let empty = Board::new(10, 40);
    for kind in set.kinds() {
        let spawn = rules.spawn(kind);
        assert_eq!(
            rules.enter(&empty, kind),
            PiecePos {
                y: spawn.y + 1,
                ..spawn
            },
            "{}",
            kind.name()
        );
    }
    let t = set.kind(crate::model::piece::PieceId(2));
    // A cell in the field's top row under the T (columns 3 to 5): it stays where it spawned.
    let blocked = field_top("....#.....");
    assert_eq!(rules.enter(&blocked, t), rules.spawn(t));
    // A cell beside it does not stop the drop.
    let beside = field_top("......#...");
    assert_eq!(rules.enter(&beside, t).y, rules.spawn(t).y + 1);
    // Where it cannot spawn, it stays at its spawn, for the caller's block out.
    let mut over = Board::new(10, 40);
    over.fill(4, 18);
    assert_eq!(rules.enter(&over, t), rules.spawn(t));
}

#[test]
fn the_seeds_presets_enter_where_they_spawn() {
    let set = PieceSet::tetrominoes();
    for preset in [Preset::Classic, Preset::Leiden, Preset::Simplified] {
        let rules = Rules::preset(preset);
        let empty = Board::new(rules.width, rules.height);
        for kind in set.kinds() {
            assert_eq!(rules.enter(&empty, kind), rules.spawn(kind), "{preset} {}", kind.name());
        }
    }
}
