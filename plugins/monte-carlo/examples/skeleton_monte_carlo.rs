//! Plays the random or the Monte-Carlo agent under the Kosters skeleton's own rules,
//! without the host: every one of `possibilities(piece)` moves is always allowed (see
//! `sim`). Game `i` uses the host's seeds for game `i` of a run with the same seed (its
//! pieces and, for Monte-Carlo, its playouts), so Monte-Carlo plays exactly the games
//! `tetrad run` plays. The last argument `1` (a vertical I only where the host's `leiden`
//! preset can take it) dates from before pieces hovered with their bottom on row 2; it
//! now changes nothing.
//!
//! ```text
//! cargo run --release -p tetrad-plugin-monte-carlo --example skeleton_monte_carlo -- \
//!     random|PLAYOUTS HEIGHT WIDTH GAMES SEED [1]
//! ```

use tetrad_plugin_api::{derive_seed, Board, FallingPiece, GameSetup, PieceId, PieceSet, Preset, Rules, SeededRng};
use tetrad_plugin_monte_carlo::route::Reach;
use tetrad_plugin_monte_carlo::search::SoFar;
use tetrad_plugin_monte_carlo::sim::Sim;
use tetrad_plugin_monte_carlo::skeleton::MoveTable;
use tetrad_plugin_monte_carlo::MonteCarlo;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u64 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("usage: skeleton_monte_carlo random|PLAYOUTS HEIGHT WIDTH GAMES SEED [1]"))
    };
    let playouts = (args.first().map(String::as_str) != Some("random")).then(|| number(0) as u32);
    let (height, width, games, seed) = (number(1) as usize, number(2) as usize, number(3), number(4));
    let host_moves = args.get(5).map(String::as_str) == Some("1");
    let rules = Rules {
        width,
        height,
        ..Rules::preset(Preset::Leiden)
    };
    let pieces = PieceSet::tetrominoes();
    let table = MoveTable::new(&pieces, width);
    let (mut lines, mut placed) = (Vec::new(), Vec::new());
    for game in 0..games {
        // The host's game seed, piece queue and plugin seed.
        let game_seed = derive_seed(seed, game);
        let mut queue = SeededRng::new(game_seed);
        let setup = GameSetup {
            rules,
            pieces: pieces.clone(),
            seed: derive_seed(game_seed, u64::MAX),
        };
        let mut agent = playouts.map(|p| MonteCarlo::new(&setup, p).expect("leiden"));
        let mut chooser = SeededRng::new(setup.seed);
        let mut sim = Sim::new(&vec![0; height], width);
        let mut so_far = SoFar::default();
        while !sim.ended() {
            let id = PieceId(queue.below(7) as u8);
            let kind = pieces.kind(id);
            let moves = table.kind(id.index());
            let piece = FallingPiece {
                id,
                pos: rules.spawn(kind),
            };
            let board = Board::from_rows(width, height, sim.rows());
            let number = match agent.as_mut() {
                Some(mc) => {
                    mc.set_all_moves(!host_moves);
                    mc.set_so_far(so_far);
                    mc.choose(&board, piece).expect("a move").number
                }
                None => {
                    let reach = host_moves.then(|| Reach::new(&rules, &board, kind, piece.pos));
                    let allowed: Vec<usize> = (0..moves.moves.len())
                        .filter(|&n| {
                            let mv = moves.moves[n];
                            let shape = &moves.shapes[usize::from(mv.shape)];
                            let x = mv.column as i8 - shape.left;
                            reach.as_ref().is_none_or(|r| r.contains(shape.orientation, x))
                        })
                        .collect();
                    allowed[chooser.below(allowed.len() as u32) as usize]
                }
            };
            let mv = moves.moves[number];
            so_far.rows += u64::from(sim.drop(&moves.shapes[usize::from(mv.shape)], usize::from(mv.column)));
            so_far.pieces += 1;
        }
        lines.push(so_far.rows as f64);
        placed.push(so_far.pieces as f64);
    }
    let ((lm, lc), (pm, pc)) = (mean_ci(&lines), mean_ci(&placed));
    let agent = playouts.map_or("random".to_string(), |p| format!("monte-carlo {p} playouts"));
    println!("{agent} {height}x{width} {games} games: lines {lm:.2} ± {lc:.2}, pieces {pm:.2} ± {pc:.2} (95%)");
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
