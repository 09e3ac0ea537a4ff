//! Decisions pinned before the engine and the plugins were optimised (issue 9): the same
//! seeded runs must keep giving exactly these games. Lines, pieces, score and ticks
//! together fingerprint every placement a plugin chose and every path it played.

use crate::common::*;

/// `(lines, pieces, score, ticks)` of each game of `tetrad run ARGS --seed 1 --jobs 1`.
fn games(args: &[&str]) -> Vec<(u64, u64, u64, u64)> {
    let mut all = vec!["run", "--seed", "1", "--jobs", "1", "--format", "json"];
    all.extend_from_slice(args);
    let document = json(&run(&all));
    document["games"]
        .as_array()
        .expect("games array")
        .iter()
        .map(|g| {
            let field = |key: &str| g[key].as_u64().expect("a count");
            (field("lines"), field("pieces"), field("score"), field("ticks"))
        })
        .collect()
}

#[test]
fn bcts_plays_the_same_games_under_simplified() {
    let found = games(&[
        "--plugin",
        "bcts",
        "--preset",
        "simplified",
        "--games",
        "3",
        "--max-pieces",
        "5000",
    ]);
    // Pinned again when hole depth became MdpTetris's (each cell above a hole counted
    // once): games 0 and 1 changed, from (1997, 5000, 9083680, 13070) and
    // (1999, 5000, 8876340, 13023).
    assert_eq!(
        found,
        vec![
            (1999, 5000, 8991740, 13002),
            (1998, 5000, 8978880, 13040),
            (1999, 5000, 8868300, 13037)
        ]
    );
    let dellacherie = games(&[
        "--plugin",
        "bcts",
        "--preset",
        "simplified",
        "--options",
        "controller=dellacherie",
        "--games",
        "3",
        "--max-pieces",
        "5000",
    ]);
    assert_eq!(
        dellacherie,
        vec![
            (1998, 5000, 9029040, 13030),
            (1998, 5000, 8886640, 13049),
            (1995, 5000, 8924580, 13035)
        ]
    );
}

#[test]
fn bcts_plays_the_same_games_under_classic_and_leiden() {
    let lookahead = games(&[
        "--plugin",
        "bcts",
        "--preset",
        "classic",
        "--options",
        "lookahead=2",
        "--games",
        "2",
        "--max-pieces",
        "500",
    ]);
    assert_eq!(lookahead, vec![(198, 500, 99360, 1822), (198, 500, 96600, 1805)]);
    // Pinned again when `leiden` pieces began to hover with their bottom on row 2, as the
    // Kosters skeleton places them: a vertical I now reaches every column (games 0 and 2
    // went from 306 and 790 pieces to 678 and 1141). Pinned again when hole depth became
    // MdpTetris's: game 2 went from 1141 pieces to 1392.
    let leiden = games(&["--plugin", "bcts", "--preset", "leiden", "--games", "3"]);
    assert_eq!(
        leiden,
        vec![
            (265, 678, 162860, 1769),
            (38, 110, 3780, 285),
            (551, 1392, 683300, 3606)
        ]
    );
}

#[test]
fn random_and_tree_search_play_the_same_games() {
    let random_classic = games(&["--plugin", "random", "--preset", "classic", "--games", "3"]);
    assert_eq!(random_classic, vec![(0, 23, 0, 81), (0, 22, 0, 74), (0, 15, 0, 48)]);
    let random_simplified = games(&["--plugin", "random", "--preset", "simplified", "--games", "3"]);
    assert_eq!(random_simplified, vec![(0, 21, 0, 47), (0, 18, 0, 36), (0, 24, 0, 60)]);
    let tree_classic = games(&[
        "--plugin",
        "tree-search",
        "--preset",
        "classic",
        "--games",
        "2",
        "--max-pieces",
        "300",
    ]);
    assert_eq!(tree_classic, vec![(118, 300, 32940, 1076), (118, 300, 39900, 1080)]);
    let tree_simplified = games(&[
        "--plugin",
        "tree-search",
        "--preset",
        "simplified",
        "--games",
        "2",
        "--max-pieces",
        "300",
    ]);
    assert_eq!(tree_simplified, vec![(119, 300, 32140, 793), (115, 300, 34640, 784)]);
}
