//! Reading user files with a size cap. Every file tetrad reads on a user's word (a piece
//! set, a replay, a results file, a tune checkpoint) goes through here, so a huge file,
//! `/dev/zero` or a FIFO that never ends is one clear error, not all of the memory.
//!
//! Files are read through [`Read::take`] of one byte more than the cap, never by asking
//! the file for its size first: a device or a pipe has none.

use std::fs::File;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

/// One mebibyte.
pub const MIB: u64 = 1 << 20;

/// Largest piece-set file.
pub const PIECE_SET_CAP: u64 = MIB;
/// Largest replay file (a game of millions of ticks fits many times over).
pub const REPLAY_CAP: u64 = 256 * MIB;
/// Largest tune checkpoint.
pub const CHECKPOINT_CAP: u64 = 16 * MIB;
/// Largest results file, read line by line.
pub const RESULTS_CAP: u64 = 1024 * MIB;
/// Largest line of a results file (a game line is a few kilobytes).
pub const RESULTS_LINE_CAP: u64 = 16 * MIB;

/// A file that could not be read, or is larger than its cap.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Opening or reading failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// More bytes than the cap.
    #[error("{path}: larger than {}", size_text(*cap))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap, in bytes.
        cap: u64,
    },
    /// Not UTF-8.
    #[error("{path}: not a text file (invalid UTF-8 after byte {valid_up_to})")]
    NotText {
        /// The file.
        path: PathBuf,
        /// Length of the valid text before the first bad byte.
        valid_up_to: usize,
    },
}

/// A size as people say it: "16 MiB", "1 GiB", or bytes below a mebibyte.
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1024 * MIB && bytes.is_multiple_of(1024 * MIB) {
        format!("{} GiB", bytes / (1024 * MIB))
    } else if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

/// The whole of `path`, at most `cap` bytes.
pub fn read_bytes(path: &Path, cap: u64) -> Result<Vec<u8>, InputError> {
    let io = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > cap {
        return Err(InputError::TooLarge {
            path: path.to_path_buf(),
            cap,
        });
    }
    Ok(bytes)
}

/// Opens `path` for reading without waiting for a writer: a FIFO that no one writes to
/// then reads as empty, instead of blocking the open for ever.
pub fn open(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)?;
        // Reads wait as usual once it is open.
        rustix::io::ioctl_fionbio(file.as_fd(), false)?;
        Ok(file)
    }
    #[cfg(not(unix))]
    {
        File::open(path)
    }
}

/// What kind of file `metadata` describes, in words (for a file that is not a plain one).
pub fn file_kind(metadata: &std::fs::Metadata) -> &'static str {
    let kind = metadata.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_file() {
        "a file"
    } else {
        "not a file"
    }
}

/// The whole of `path` as text, at most `cap` bytes.
pub fn read_text(path: &Path, cap: u64) -> Result<String, InputError> {
    text(path, read_bytes(path, cap)?)
}

/// `bytes` read from `path` as text.
pub fn text(path: &Path, bytes: Vec<u8>) -> Result<String, InputError> {
    String::from_utf8(bytes).map_err(|err| InputError::NotText {
        path: path.to_path_buf(),
        valid_up_to: err.utf8_error().valid_up_to(),
    })
}

/// One line read by [`read_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line and its newline.
    Complete,
    /// The input ended before a newline (the line may be empty).
    Unterminated,
    /// The line is longer than the cap (what was read is in the buffer).
    TooLong,
}

/// Appends the next line of `reader`, through its `\n`, to `buf`, reading at most
/// `cap + 1` bytes: a line longer than `cap` bytes (newline included) is
/// [`Line::TooLong`], however long it really is.
pub fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>, cap: u64) -> io::Result<Line> {
    let read = reader.take(cap.saturating_add(1)).read_until(b'\n', buf)?;
    Ok(if read as u64 > cap {
        Line::TooLong
    } else if buf.ends_with(b"\n") {
        Line::Complete
    } else {
        Line::Unterminated
    })
}

/// Text from a plugin or a user's file, safe to print: control characters (a terminal's escape sequences
/// among them) are shown escaped, as `\u{1b}`, instead of reaching the terminal.
pub fn printable(text: String) -> String {
    if !text.chars().any(char::is_control) {
        return text;
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_over_its_cap_is_refused_by_name_and_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.toml");
        std::fs::write(&path, vec![b'#'; 2 * MIB as usize + 1]).unwrap();
        let err = read_text(&path, 2 * MIB).unwrap_err();
        assert_eq!(err.to_string(), format!("{}: larger than 2 MiB", path.display()));
        std::fs::write(&path, vec![b'#'; 2 * MIB as usize]).unwrap();
        assert_eq!(read_text(&path, 2 * MIB).unwrap().len(), 2 * MIB as usize);
    }

    #[test]
    fn endless_devices_end_at_the_cap() {
        let err = read_bytes(Path::new("/dev/zero"), MIB).unwrap_err();
        assert_eq!(err.to_string(), "/dev/zero: larger than 1 MiB");
        let mut zeros = io::BufReader::new(File::open("/dev/zero").unwrap());
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut zeros, &mut buf, 1000).unwrap(), Line::TooLong);
        assert_eq!(buf.len(), 1001);
    }

    #[test]
    fn lines_are_complete_unterminated_or_too_long() {
        let mut input: &[u8] = b"ab\ncdef\ngh";
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, 3).unwrap(), Line::Complete);
        assert_eq!(buf, b"ab\n");
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf, 3).unwrap(), Line::TooLong);
        let mut input: &[u8] = b"gh";
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf, 3).unwrap(), Line::Unterminated);
        buf.clear();
        assert_eq!(read_line(&mut input, &mut buf, 3).unwrap(), Line::Unterminated);
        assert!(buf.is_empty());
    }

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(size_text(MIB), "1 MiB");
        assert_eq!(size_text(1024 * MIB), "1 GiB");
        assert_eq!(size_text(100), "100 bytes");
    }

    #[test]
    fn bad_text_names_the_file() {
        let err = text(Path::new("f"), vec![b'a', 0xff]).unwrap_err();
        assert_eq!(err.to_string(), "f: not a text file (invalid UTF-8 after byte 1)");
    }

    #[test]
    fn plugin_text_reaches_the_terminal_without_its_escapes() {
        assert_eq!(printable("plain text, µs".to_string()), "plain text, µs");
        assert_eq!(printable("\u{1b}[2Jgone\n".to_string()), "\\u{1b}[2Jgone\\u{a}");
    }
}
