//! Where `--record-games DIR` keeps each game's replay, for the tournament that writes
//! them and the report that links them.

use std::path::{Path, PathBuf};

/// The replay of game `game` played by the entrants `seats` (by index, in seat order):
/// `DIR/game-12-0.json` alone, `DIR/game-12-0-1.json` in versus.
pub fn game_file(dir: &Path, game: u64, seats: &[usize]) -> PathBuf {
    let seats: Vec<String> = seats.iter().map(usize::to_string).collect();
    dir.join(format!("game-{game}-{}.json", seats.join("-")))
}

/// How the results file `results` names the folder `dir` its games are recorded in: by
/// a path relative to the results file's folder when `dir` lies inside it (the two can be
/// moved together), else by its absolute path; `dir` as given when either cannot be found.
pub fn folder_for_results(results: &Path, dir: &Path) -> PathBuf {
    let beside = match results.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let (Ok(dir), Ok(beside)) = (dir.canonicalize(), beside.canonicalize()) else {
        return dir.to_path_buf();
    };
    match dir.strip_prefix(&beside) {
        Ok(inside) if !inside.as_os_str().is_empty() => inside.to_path_buf(),
        _ => dir,
    }
}

/// The folder a results file at `results` names as `recorded` (see
/// [`folder_for_results`]), as a path from here.
pub fn folder_from_results(results: &Path, recorded: &Path) -> PathBuf {
    match (recorded.is_relative(), results.parent()) {
        (true, Some(parent)) => parent.join(recorded),
        _ => recorded.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_games_folder_is_named_from_the_results_files_folder() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("runs").join("t-games");
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(&inside).unwrap();
        let results = dir.path().join("runs").join("t.jsonl");
        let named = folder_for_results(&results, &inside);
        assert_eq!(named, Path::new("t-games"));
        assert_eq!(
            folder_from_results(&results, &named).canonicalize().unwrap(),
            inside.canonicalize().unwrap()
        );
        let far = folder_for_results(&results, outside.path());
        assert!(far.is_absolute(), "{}", far.display());
        assert_eq!(folder_from_results(&results, &far), far);
    }

    #[test]
    fn a_game_file_is_named_by_its_game_and_seats() {
        let dir = Path::new("games");
        assert_eq!(game_file(dir, 12, &[0]), Path::new("games/game-12-0.json"));
        assert_eq!(game_file(dir, 3, &[1, 2]), Path::new("games/game-3-1-2.json"));
    }
}
