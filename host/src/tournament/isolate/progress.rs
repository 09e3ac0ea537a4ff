//! The progress file: a worker's [`Watch`] counters, mapped into the worker's memory and
//! read by the parent after the worker dies, so a forfeit keeps what the game had played.
//!
//! Writes to a shared file mapping land in the page cache as they happen: the parent's
//! plain `read` sees the last counters even when the worker was killed by a signal, with
//! no message per tick and no cost beyond the stores the watch makes anyway.
#![allow(unsafe_code)]

use crate::watch::{Watch, WatchCells, WatchedGame, WATCH_CELLS};
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;
use zerocopy::FromBytes;

/// Bytes in a progress file.
const FILE_LEN: usize = WATCH_CELLS * size_of::<u64>();

/// The worker's side: a watch whose counters live in the file at `path` (created or
/// emptied here). The mapping is kept for the life of the process.
pub fn shared_watch(path: &Path) -> std::io::Result<Watch> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    file.set_len(FILE_LEN as u64)?;
    // SAFETY: the file was created (or emptied) just now by this process and sized before
    // mapping; the parent, its only other user, only reads it and never truncates it while
    // this process lives, so the mapped bytes stay valid for the life of the mapping, which
    // is leaked and so lives as long as the process. Every access goes through atomics.
    let map = unsafe { memmap2::MmapMut::map_mut(&file)? };
    let map: &'static mut memmap2::MmapMut = Box::leak(Box::new(map));
    let bytes: &'static mut [u8] = map;
    let cells = WatchCells::mut_from_bytes(&mut bytes[..FILE_LEN])
        .map_err(|_| std::io::Error::other("the progress mapping is not aligned for 64-bit counters"))?;
    Ok(Watch::over(cells))
}

/// The parent's side: the progress the worker last recorded in the file at `path`, if it
/// can be read.
pub fn read(path: &Path) -> Option<WatchedGame> {
    let mut bytes = [0u8; FILE_LEN];
    File::open(path).ok()?.read_exact(&mut bytes).ok()?;
    let cells: [u64; WATCH_CELLS] = std::array::from_fn(|i| {
        let word = &bytes[i * 8..(i + 1) * 8];
        u64::from_ne_bytes(word.try_into().expect("eight bytes"))
    });
    Some(WatchedGame::from_cells(&cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_reads_what_the_worker_recorded() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("worker.progress");
        let watch = shared_watch(&path).expect("a shared watch");
        assert_eq!(read(&path), Some(WatchedGame::default()));
        watch.begin_game(7);
        watch.set_stats(50, 151, 2_000, 3_000);
        let seen = read(&path).expect("readable");
        assert_eq!(
            seen,
            WatchedGame {
                game: Some(7),
                lines: 50,
                pieces: 151,
                score: 2_000,
                ticks: 3_000
            }
        );
        assert_eq!(watch.progress(), seen);
    }

    #[test]
    fn a_missing_or_short_file_gives_nothing() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("short.progress");
        assert_eq!(read(&path), None);
        std::fs::write(&path, [1u8; 10]).expect("written");
        assert_eq!(read(&path), None);
    }
}
