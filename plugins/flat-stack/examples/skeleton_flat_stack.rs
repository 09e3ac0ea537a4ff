//! Plays the smart agent under the Kosters skeleton's own rules, without the host: every
//! one of `possibilities(piece)` moves is always allowed, a piece that cannot fall stays
//! where `letitfall` starts it, and `clearrows` never clears the top row. Used to check
//! that the host's `leiden` preset plays the skeleton's games (since pieces hover with
//! their bottom on row 2, it does, game for game).
//!
//! ```text
//! cargo run --release -p tetrad-plugin-flat-stack --example skeleton_flat_stack -- \
//!     HEIGHT WIDTH GAMES SEED [--host-moves] [--column-major]
//! ```
//!
//! `--host-moves`: only the moves the host's `leiden` preset can carry out (as the plugin
//! finds them, see `route`); now that every move is reachable this changes nothing, and
//! the games are exactly the ones `tetrad run --seed SEED` plays either way. `--column-major`: ties go to the
//! first move in column-major order (leftmost column first, then the skeleton's
//! orientation order) instead of the skeleton's orientation-major order. The last line
//! counts decisions where more than one move had the best score.

use tetrad_plugin_api::{derive_seed, Board, PieceId, PieceSet, Preset, Rules, SeededRng};
use tetrad_plugin_flat_stack::eval::Position;
use tetrad_plugin_flat_stack::route::Reach;
use tetrad_plugin_flat_stack::skeleton::{Move, MoveTable};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let numbers: Vec<u64> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(|a| a.parse().expect("HEIGHT WIDTH GAMES SEED are whole numbers"))
        .collect();
    let [height, width, games, seed] = numbers[..] else {
        eprintln!("usage: skeleton_flat_stack HEIGHT WIDTH GAMES SEED [--host-moves] [--column-major]");
        std::process::exit(2);
    };
    let (host_reach, column_major) = (flag("--host-moves"), flag("--column-major"));
    let (height, width) = (height as usize, width as usize);
    let set = PieceSet::tetrominoes();
    let table = MoveTable::new(&set, width);
    let rules = Rules {
        width,
        height,
        ..Rules::preset(Preset::Leiden)
    };
    let full = u32::MAX >> (32 - width);
    // The order moves are tried in, per kind: indices into the kind's skeleton moves.
    let orders: Vec<Vec<usize>> = (0..7)
        .map(|k| {
            let moves = &table.kind(k).moves;
            let mut order: Vec<usize> = (0..moves.len()).collect();
            if column_major {
                order.sort_by_key(|&n| (moves[n].column, moves[n].shape));
            }
            order
        })
        .collect();
    let (mut all_lines, mut all_pieces) = (Vec::new(), Vec::new());
    let (mut decisions, mut tied) = (0u64, 0u64);
    for game in 0..games {
        let mut rng = SeededRng::new(derive_seed(seed, game));
        let mut rows = vec![0u32; height];
        let (mut lines, mut pieces) = (0u64, 0u64);
        while rows[2] == 0 {
            let k = rng.below(7) as usize;
            let kind = table.kind(k);
            let position = Position::new(&rows, width);
            let reach = (host_reach && rows[..4].iter().any(|&r| r != 0)).then(|| {
                let kind = set.kind(PieceId(k as u8));
                Reach::new(&rules, &Board::from_rows(width, height, &rows), kind, rules.spawn(kind))
            });
            let mut best: Option<(usize, i32)> = None;
            let mut best_count = 0;
            for &number in &orders[k] {
                let mv: &Move = &kind.moves[number];
                let shape = &kind.shapes[usize::from(mv.shape)];
                if let Some(reach) = &reach {
                    if !reach.contains(shape.orientation, mv.column as i8 - shape.left) {
                        continue;
                    }
                }
                // Scores at least as good as the best so far (None for game-ending moves).
                let floor = best.map_or(i32::MIN, |(_, b)| b - 1);
                let Some(score) = position.score_above(shape, usize::from(mv.column), floor) else {
                    continue;
                };
                match best {
                    Some((_, b)) if score == b => best_count += 1,
                    _ => (best, best_count) = (Some((number, score)), 1),
                }
            }
            decisions += 1;
            tied += u64::from(best_count > 1);
            let mv = kind.moves[best.map_or(0, |b| b.0)];
            let shape = &kind.shapes[usize::from(mv.shape)];
            let column = usize::from(mv.column);
            let y = position.landing_row(shape, column).max(0) as usize;
            for i in 0..usize::from(shape.height) {
                rows[y + i] |= shape.rows[i] << column;
            }
            // clearrows() tests rows h-2 down to 0, our rows 1..h: row 0 is never cleared,
            // but it moves down with the rest.
            let mut write = height;
            for read in (0..height).rev() {
                if rows[read] != full || read == 0 {
                    write -= 1;
                    rows[write] = rows[read];
                }
            }
            let cleared = write;
            rows[..write].fill(0);
            lines += cleared as u64;
            pieces += 1;
        }
        all_lines.push(lines as f64);
        all_pieces.push(pieces as f64);
    }
    let ((lm, lc), (pm, pc)) = (mean_ci(&all_lines), mean_ci(&all_pieces));
    println!("flat-stack {height}x{width} {games} games: lines {lm:.2} ± {lc:.2}, pieces {pm:.2} ± {pc:.2} (95%)");
    println!(
        "{tied} of {decisions} decisions ({:.1}%) had more than one best move",
        100.0 * tied as f64 / decisions as f64
    );
}

/// The two-sided 95% critical value of Student's t (as the host's summaries use it).
fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        1..=30 => TABLE[df - 1],
        _ => 1.959_964 + 2.372 / df as f64 + 2.82 / (df * df) as f64,
    }
}

/// Mean and 95% half-width.
fn mean_ci(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, t95(values.len().saturating_sub(1)) * (var / n).sqrt())
}
