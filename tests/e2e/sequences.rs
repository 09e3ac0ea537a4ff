//! `--sequence FILE`: games played on given pieces, and through it `bcts` pinned to the
//! MdpTetris simulator's own games, placement for placement.

use crate::common::*;
use std::path::Path;

/// The pieces of game `game` of an MdpTetris run whose first seed is `first_seed`, as
/// the simulator's measurement stream draws them: SplitMix64 from the state
/// `first_seed + game`, each piece's index `((z >> 32) * 7) >> 32` in the order I, O, T,
/// Z, S, J, L.
fn mdptetris_pieces(first_seed: u64, game: u64, count: usize) -> Vec<usize> {
    let mut state = first_seed.wrapping_add(game);
    (0..count)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            (((z >> 32) * 7) >> 32) as usize
        })
        .collect()
}

/// One line per game, in tetrad's piece names.
fn sequence_file(path: &Path, games: &[Vec<usize>]) {
    const NAMES: [&str; 7] = ["I", "O", "T", "Z", "S", "J", "L"];
    let lines: Vec<String> = games
        .iter()
        .map(|game| game.iter().map(|&i| NAMES[i]).collect::<Vec<_>>().join(" "))
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").expect("sequence file written");
}

/// `(lines, pieces, end)` of each game of `tetrad run ARGS --format json`.
fn games(args: &[&str]) -> Vec<(u64, u64, String)> {
    let mut all = vec!["run", "--jobs", "2", "--format", "json"];
    all.extend_from_slice(args);
    let output = run(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    json(&output)["games"]
        .as_array()
        .expect("games array")
        .iter()
        .map(|g| {
            let count = |key: &str| g[key].as_u64().expect("a count");
            (
                count("lines"),
                count("pieces"),
                g["end"].as_str().expect("an end").to_string(),
            )
        })
        .collect()
}

/// The simulator's first ten games (seeds 1 to 10) on 10 x 10, each controller in its
/// enumeration order, as `lines/pieces`. Its piece count includes the piece that tops
/// out; so does tetrad's under `simplified` (the placement that leaves a cell above the
/// board is counted, then ends the game), so the two compare as they are.
const DELLACHERIE: &str =
    "3297/8264 8755/21910 299/768 1983/4979 270/697 1418/3567 296/762 2046/5138 915/2309 10488/26242";
const BCTS: &str =
    "2410/6048 1482/3727 3897/9764 13031/32599 2038/5118 5203/13030 434/1106 1324/3332 6559/16419 7815/19559";

#[test]
fn the_mdptetris_piece_stream_starts_as_published() {
    let first = mdptetris_pieces(1, 0, 20);
    assert_eq!(first, vec![3, 5, 6, 3, 3, 5, 6, 3, 1, 5, 2, 4, 3, 3, 3, 1, 4, 5, 4, 6]);
}

/// "Strength and exactness", items 1 and 2: with MdpTetris's pieces and its enumeration
/// order, `bcts` plays the simulator's first ten games of each controller exactly.
#[test]
fn bcts_plays_the_mdptetris_simulators_first_ten_games() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("mdptetris-seeds-1-10.txt");
    // Longer than any of the games, so each ends by topping out, not by running out.
    let pieces: Vec<Vec<usize>> = (0..10).map(|game| mdptetris_pieces(1, game, 40_000)).collect();
    sequence_file(&path, &pieces);
    let file = path.to_str().expect("a UTF-8 path");
    for (options, expected) in [
        ("order=mdptetris,controller=dellacherie", DELLACHERIE),
        ("order=mdptetris", BCTS),
    ] {
        let played = games(&[
            "--plugin",
            "bcts",
            "--preset",
            "simplified",
            "--width",
            "10",
            "--height",
            "10",
            "--options",
            options,
            "--sequence",
            file,
        ]);
        let found: Vec<String> = played
            .iter()
            .map(|(lines, pieces, _)| format!("{lines}/{pieces}"))
            .collect();
        assert_eq!(found.join(" "), expected, "{options}");
        assert!(
            played.iter().all(|(_, _, end)| end == "topped_out"),
            "{options}: {played:?}"
        );
    }
}

#[test]
fn a_game_that_uses_up_its_line_ends_capped() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("short.txt");
    std::fs::write(&path, "I O T S\n\tZ  J L\r\nO\n").expect("written");
    let file = path.to_str().expect("a UTF-8 path");
    // `--games` defaults to the lines; every piece of each line is played.
    let played = games(&["--plugin", "bcts", "--preset", "simplified", "--sequence", file]);
    let pieces: Vec<(u64, &str)> = played.iter().map(|(_, p, end)| (*p, end.as_str())).collect();
    assert_eq!(pieces, vec![(4, "capped"), (3, "capped"), (1, "capped")]);
    // With the preview on, the last piece is played with none shown after it.
    let played = games(&[
        "--plugin",
        "bcts",
        "--preset",
        "classic",
        "--options",
        "lookahead=2",
        "--sequence",
        file,
        "--games",
        "2",
    ]);
    let pieces: Vec<(u64, &str)> = played.iter().map(|(_, p, end)| (*p, end.as_str())).collect();
    assert_eq!(pieces, vec![(4, "capped"), (3, "capped")]);
}

#[test]
fn bad_sequence_files_are_one_line_naming_the_file_line_and_token() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, "I O T\nI O X T\n").expect("written");
    let file = path.to_str().expect("a UTF-8 path");
    let output = run(&["run", "--plugin", "random", "--sequence", file]);
    assert_one_line_error(
        &output,
        &format!("{file}:2: `X` is not a piece of the set (I, O, T, S, Z, J, L)"),
    );
    let output = run(&["tournament", "--plugins", "random", "--sequence", file]);
    assert_one_line_error(&output, &format!("{file}:2: `X`"));
    std::fs::write(&path, "I O T\n").expect("written");
    let output = run(&["run", "--plugin", "random", "--sequence", file, "--games", "2"]);
    assert_one_line_error(&output, &format!("{file}: --games 2, but the file has 1 line"));
    let output = run(&["run", "--plugin", "random", "--sequence", "/dev/zero"]);
    assert_one_line_error(&output, "/dev/zero: larger than 256 MiB");
}

/// `(index, lines, pieces)` of every game of entrant 0 in a results file.
fn recorded(path: &Path) -> (serde_json::Value, Vec<(u64, u64, u64)>) {
    let text = std::fs::read_to_string(path).expect("a results file");
    let mut lines = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"));
    let header = lines.next().expect("a header");
    let mut games: Vec<(u64, u64, u64)> = lines
        .filter(|l| l["kind"] == "fixture")
        .map(|l| l["seats"][0].clone())
        .filter(|l| l["entrant"] == 0)
        .map(|l| {
            let count = |key: &str| l["result"][key].as_u64().expect("a count");
            (count("index"), count("lines"), count("pieces"))
        })
        .collect();
    games.sort_unstable();
    (header, games)
}

#[test]
fn tournaments_play_the_sequence_in_process_and_in_workers() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("games.txt");
    let pieces: Vec<Vec<usize>> = (0..3).map(|game| mdptetris_pieces(1, game, 40_000)).collect();
    sequence_file(&path, &pieces);
    let file = path.to_str().expect("a UTF-8 path");
    let rules = ["--preset", "simplified", "--width", "10", "--height", "10"];
    let mut expected: Vec<(u64, u64, u64)> = Vec::new();
    let played = games(
        &[
            &["--plugin", "bcts", "--options", "order=mdptetris", "--sequence", file],
            &rules[..],
        ]
        .concat(),
    );
    for (index, (lines, pieces, _)) in played.into_iter().enumerate() {
        expected.push((index as u64, lines, pieces));
    }
    assert_eq!(expected.len(), 3, "--games defaults to the lines");
    for isolate in [false, true] {
        let out = dir.path().join(format!("results-{isolate}.jsonl"));
        let out_text = out.to_str().expect("a UTF-8 path");
        let mut args = vec![
            "tournament",
            "--plugins",
            "bcts@order=mdptetris",
            "random",
            "--sequence",
            file,
            "--out",
            out_text,
            "--jobs",
            "2",
        ];
        args.extend_from_slice(&rules);
        if isolate {
            args.push("--isolate");
        }
        let output = run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        let (header, games) = recorded(&out);
        assert_eq!(games, expected, "isolated: {isolate}");
        let sequence = &header["config"]["setup"]["sequence"];
        assert_eq!(sequence["lines"], 3, "{header}");
        assert_eq!(header["config"]["games"], 3, "{header}");
    }
}
