//! Issue 47: a TBP bot's hold into a blocked spawn ends its game as the block out it is,
//! played by a scripted bot on a position a piece sequence builds.

use crate::common::*;
use serde_json::Value;

/// A TBP bot that plays a fixed list of moves, one per `suggest`, whatever it is told.
const SCRIPTED: &str = r#"
import json, sys
moves = json.loads(sys.argv[1])
def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()
send({"type": "info", "name": "scripted", "version": "0.1.0", "author": "tetrad", "features": []})
asked = 0
for line in sys.stdin:
    kind = json.loads(line).get("type")
    if kind == "rules":
        send({"type": "ready"})
    elif kind == "suggest":
        send({"type": "suggestion", "moves": [moves[min(asked, len(moves) - 1)]]})
        asked += 1
    elif kind == "quit":
        break
"#;

/// A move of `piece` with its centre at TBP's (`x`, `y`).
fn placed(piece: &str, orientation: &str, x: i32, y: i32) -> Value {
    serde_json::json!({
        "location": {"type": piece, "orientation": orientation, "x": x, "y": y},
        "spin": "none",
    })
}

#[test]
fn issue_47_a_hold_into_a_blocked_spawn_tops_the_seat_out_and_is_no_illegal_move() {
    // The I is held first (the O a hold brings in is placed), nine O's stack columns 6
    // and 7 to the field's row 18, and an S stood on end puts a cell in column 6 of the
    // buffer row the I spawns in, its other cells in the field. The T that follows still
    // enters (it spawns in columns 3 to 5); the bot then holds for the I, which cannot.
    let mut moves: Vec<Value> = (0..9).map(|k| placed("O", "north", 6, 2 * k)).collect();
    moves.push(placed("S", "east", 6, 19));
    moves.push(placed("I", "north", 1, 0));
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("scripted.py");
    std::fs::write(&script, SCRIPTED).unwrap();
    let manifest = dir.path().join("scripted.toml");
    let command = [
        "python3".to_string(),
        script.display().to_string(),
        Value::Array(moves).to_string(),
    ];
    let quoted: Vec<String> = command.iter().map(|c| format!("{c:?}")).collect();
    std::fs::write(
        &manifest,
        format!(
            "name = \"scripted\"\ncommand = [{}]\nprotocol = \"tbp\"\n",
            quoted.join(", ")
        ),
    )
    .unwrap();
    let sequence = dir.path().join("pieces.txt");
    std::fs::write(&sequence, "I O O O O O O O O O S T Z Z Z\n").unwrap();
    let output = run(&[
        "run",
        "--plugin",
        manifest.to_str().unwrap(),
        "--preset",
        "guideline",
        "--sequence",
        sequence.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(output.status.code().is_some(), "{}", stderr(&output));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    let game = &document["games"][0];
    assert_eq!(game["end"], "topped_out", "{game}");
    assert_eq!(
        game["pieces"], 10,
        "the O's and the S locked, then the hold ended it: {game}"
    );
}
