//! Where `--record-games DIR` keeps each game's replay, for the tournament that writes
//! them and the report that links them.

use std::path::{Path, PathBuf};

/// The replay of game `game` played by the entrants `seats` (by index, in seat order):
/// `DIR/game-12-0.json` alone, `DIR/game-12-0-1.json` in versus.
pub fn game_file(dir: &Path, game: u64, seats: &[usize]) -> PathBuf {
    let seats: Vec<String> = seats.iter().map(usize::to_string).collect();
    dir.join(format!("game-{game}-{}.json", seats.join("-")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_file_is_named_by_its_game_and_seats() {
        let dir = Path::new("games");
        assert_eq!(game_file(dir, 12, &[0]), Path::new("games/game-12-0.json"));
        assert_eq!(game_file(dir, 3, &[1, 2]), Path::new("games/game-3-1-2.json"));
    }
}
