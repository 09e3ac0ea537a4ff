//! Piece-set files: a TOML list of pieces, each drawn as rows of `#` and `.`.
//!
//! ```toml
//! [[piece]]
//! name = "P"
//! shape = """
//! ##
//! ##
//! #.
//! """
//! ```
//!
//! A shape is any 4-connected polyomino whose bounding box is at most 8 by 8. The drawing
//! is its first orientation; the others are its clockwise turns, duplicates removed. A
//! square drawing (N rows of N characters, `.` rows included) is the piece's rotation
//! box, and the cells keep their places in it; any other drawing is trimmed to its cells
//! and turns inside the smallest square around them, anchored top left.

use crate::input::{self, InputError, PIECE_SET_CAP};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use tetrad_plugin_api::{PieceKind, PieceSet, MAX_PIECE_SIZE};

/// Why a piece-set file cannot be used. Every message names the file, and the piece
/// where there is one.
#[derive(Debug, thiserror::Error)]
pub enum PieceFileError {
    /// The file could not be read, or is larger than [`PIECE_SET_CAP`].
    #[error(transparent)]
    Read(#[from] InputError),
    /// Not valid TOML, or not of the documented form.
    #[error("{path}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The parser's message, on one line.
        message: String,
    },
    /// A piece breaks a rule.
    #[error("{path}: piece `{piece}`: {problem}")]
    Piece {
        /// The file.
        path: PathBuf,
        /// The piece's name (or its position in the file, if it has no usable name).
        piece: String,
        /// What is wrong.
        problem: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    piece: Vec<PieceEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceEntry {
    name: String,
    shape: String,
}

/// Reads a piece set from `path` (at most [`PIECE_SET_CAP`] bytes).
pub fn load(path: &Path) -> Result<PieceSet, PieceFileError> {
    let text = input::read_text(path, PIECE_SET_CAP)?;
    parse(path, &text)
}

/// Parses a piece set; `path` is only used in messages.
pub fn parse(path: &Path, text: &str) -> Result<PieceSet, PieceFileError> {
    let file: File = toml::from_str(text).map_err(|err| PieceFileError::Syntax {
        path: path.to_path_buf(),
        message: one_line(&err.to_string()),
    })?;
    if file.piece.is_empty() {
        return Err(PieceFileError::Syntax {
            path: path.to_path_buf(),
            message: "no pieces: add at least one [[piece]]".to_string(),
        });
    }
    if file.piece.len() > 255 {
        return Err(PieceFileError::Syntax {
            path: path.to_path_buf(),
            message: format!("{} pieces; at most 255 are supported", file.piece.len()),
        });
    }
    let mut kinds: Vec<PieceKind> = Vec::with_capacity(file.piece.len());
    for (index, entry) in file.piece.iter().enumerate() {
        let name = entry.name.trim();
        let bad = |problem: String| PieceFileError::Piece {
            path: path.to_path_buf(),
            piece: if name.is_empty() {
                format!("#{}", index + 1)
            } else {
                name.to_string()
            },
            problem,
        };
        if name.is_empty() || name.chars().any(|c| c.is_control()) {
            return Err(bad("the name must be non-empty text".to_string()));
        }
        if kinds.iter().any(|k| k.name() == name) {
            return Err(bad("the name is used by an earlier piece".to_string()));
        }
        let (box_size, cells) = shape_cells(&entry.shape).map_err(bad)?;
        kinds.push(match box_size {
            Some(size) => PieceKind::in_box(name, size, cells),
            None => PieceKind::from_cells(name, &cells),
        });
    }
    Ok(PieceSet::new(kinds))
}

/// A checked drawing: its rotation box side if the drawing is square, and its cells.
type Drawing = (Option<u8>, Vec<(i8, i8)>);

/// The filled cells of a drawing, checked: only `#` and `.`, non-empty, connected, and
/// within the largest rotation box. A square drawing also gives its box size, and its
/// cells are returned in place; otherwise they are moved to the top left.
fn shape_cells(shape: &str) -> Result<Drawing, String> {
    let rows: Vec<&str> = shape.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let square = rows.iter().all(|r| r.chars().count() == rows.len()) && rows.len() <= MAX_PIECE_SIZE;
    let mut cells = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                '#' => cells.push((x as i32, y as i32)),
                '.' => {}
                other => return Err(format!("row {} has `{other}`; draw with `#` and `.` only", y + 1)),
            }
        }
    }
    if cells.is_empty() {
        return Err("the shape is empty".to_string());
    }
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let width = cells.iter().map(|c| c.0).max().unwrap_or(0) - min_x + 1;
    let height = cells.iter().map(|c| c.1).max().unwrap_or(0) - min_y + 1;
    if width.max(height) > MAX_PIECE_SIZE as i32 {
        return Err(format!(
            "the shape is {width}x{height}; at most {MAX_PIECE_SIZE}x{MAX_PIECE_SIZE} is supported"
        ));
    }
    if !connected(&cells) {
        return Err("the cells are not connected (edge to edge)".to_string());
    }
    if square {
        return Ok((
            Some(rows.len() as u8),
            cells.iter().map(|&(x, y)| (x as i8, y as i8)).collect(),
        ));
    }
    Ok((
        None,
        cells
            .iter()
            .map(|&(x, y)| ((x - min_x) as i8, (y - min_y) as i8))
            .collect(),
    ))
}

/// Whether the cells form one piece, joined edge to edge.
fn connected(cells: &[(i32, i32)]) -> bool {
    let mut reached = vec![false; cells.len()];
    let mut stack = vec![0];
    reached[0] = true;
    while let Some(i) = stack.pop() {
        let (x, y) = cells[i];
        for (j, &(u, v)) in cells.iter().enumerate() {
            if !reached[j] && (x - u).abs() + (y - v).abs() == 1 {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    reached.iter().all(|&r| r)
}

/// The parser's report on one line: where (its first line) and what (its last line),
/// without the quoted source snippet in between.
fn one_line(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    match lines.as_slice() {
        [] => "unreadable".to_string(),
        [only] => only.to_string(),
        [first, .., last] => format!("{first}: {last}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(Path::new("set.toml"), text).unwrap_err().to_string()
    }

    #[test]
    fn bundled_sets_parse_with_expected_orientations() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../pieces");
        let tetrominoes = load(&dir.join("tetrominoes.toml")).unwrap();
        assert_eq!(tetrominoes, PieceSet::tetrominoes(), "the file is the built-in set");
        let pentominoes = load(&dir.join("pentominoes.toml")).unwrap();
        assert_eq!(pentominoes.len(), 12);
        // Free pentominoes: F, I, L, N, P, T, U, V, W, X, Y, Z have 4, 2, 4, 4, 4, 4, 4,
        // 4, 4, 1, 4, 2 distinct turns.
        let counts: Vec<usize> = pentominoes.kinds().iter().map(|k| k.orientations().len()).collect();
        assert_eq!(counts, vec![4, 2, 4, 4, 4, 4, 4, 4, 4, 1, 4, 2]);
        assert!(pentominoes.kinds().iter().all(|k| k.cell_count() == 5));
        let small = load(&dir.join("small.toml")).unwrap();
        assert!(small.kinds().iter().all(|k| k.cell_count() <= 3));
        let unusual = load(&dir.join("unusual.toml")).unwrap();
        assert!(unusual.len() >= 5);
    }

    #[test]
    fn each_mistake_names_the_file_the_piece_and_the_problem() {
        let piece =
            |name: &str, shape: &str| format!("[[piece]]\nname = \"{name}\"\nshape = \"\"\"\n{shape}\n\"\"\"\n");
        assert_eq!(
            err(&piece("gap", "#.#")),
            "set.toml: piece `gap`: the cells are not connected (edge to edge)"
        );
        assert_eq!(err(&piece("none", "...")), "set.toml: piece `none`: the shape is empty");
        assert_eq!(
            err(&piece("long", "#########")),
            "set.toml: piece `long`: the shape is 9x1; at most 8x8 is supported"
        );
        assert_eq!(
            err(&format!("{}{}", piece("A", "##"), piece("A", "#"))),
            "set.toml: piece `A`: the name is used by an earlier piece"
        );
        assert_eq!(
            err(&piece("x", "#o")),
            "set.toml: piece `x`: row 1 has `o`; draw with `#` and `.` only"
        );
        assert!(
            err("[[piece]\nname=").starts_with("set.toml: TOML parse error"),
            "{}",
            err("[[piece]\nname=")
        );
        assert!(err("[[piece]]\nname = \"a\"\nshape = \"#\"\ncolour = 1\n").contains("unknown field `colour`"));
        assert_eq!(
            err(""),
            "set.toml: TOML parse error at line 1, column 1: missing field `piece`"
        );
        assert!(!err("[[piece]\nname=").contains('\n'));
    }

    #[test]
    fn a_drawing_is_normalised_to_its_top_left() {
        let set = parse(
            Path::new("s"),
            "[[piece]]\nname = \"d\"\nshape = \"\"\"\n...\n.##\n\"\"\"\n",
        )
        .unwrap();
        assert_eq!(set.kinds()[0].orientation(0).cells(), &[(0, 0), (1, 0)]);
        assert_eq!(set.kinds()[0].orientations().len(), 2);
    }
}
