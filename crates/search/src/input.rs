//! Reading input files with a bound: every file the toolkit reads (evaluation
//! weights, perft suites, checkpoints and part files, opening books, EPD and
//! PGN, match CSVs, datagen inputs and outputs it resumes, tuning traces)
//! goes through here, so a path that names a device, FIFO or directory
//! (`/dev/zero`, `/dev/stdin`) or a file larger than [`MAX_INPUT_BYTES`] is
//! refused with one line instead of growing memory or spinning forever.
//!
//! The functions return [`std::io::Error`] so that callers keep their own
//! error types and messages (and can still tell `NotFound` apart); the refusals
//! are `InvalidInput` and `FileTooLarge` errors that say what is wrong. The
//! module lives in `search`, the lowest crate that reads files.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::Path;

/// The largest input file accepted, in bytes (2 GiB: far beyond any book,
/// suite or weights file, and more than a long match's games).
pub const MAX_INPUT_BYTES: u64 = 2 << 30;

/// Opens `path` for reading if it is a regular file of at most
/// [`MAX_INPUT_BYTES`] (after following symlinks). Streaming readers use this;
/// the file's size when opened is returned too.
pub fn open(path: &Path) -> io::Result<(File, u64)> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (devices, FIFOs and directories are not read)",
        ));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_large(meta.len()));
    }
    Ok((file, meta.len()))
}

/// The bytes of `path`, a regular file of at most [`MAX_INPUT_BYTES`] (also if
/// it grows while being read).
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let (file, len) = open(path)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The text of `path`, as [`read`]; not UTF-8 is an `InvalidData` error.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not valid UTF-8"))
}

fn too_large(len: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("file too large ({len} bytes; input files are at most {MAX_INPUT_BYTES} bytes)"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_read_and_devices_refused() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("a.txt");
        std::fs::write(&f, "hello\n").unwrap();
        assert_eq!(read_to_string(&f).unwrap(), "hello\n");
        let e = read_to_string(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("not a regular file"), "{e}");
        assert_eq!(
            read(dir.path()).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
        let missing = read(&dir.path().join("missing")).unwrap_err();
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert_eq!(
            read_to_string(&f).unwrap_err().kind(),
            io::ErrorKind::InvalidData
        );
        // A sparse file past the bound is refused without being read.
        let big = File::create(&f).unwrap();
        big.set_len(MAX_INPUT_BYTES + 1).unwrap();
        let e = read(&f).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
        assert!(e.to_string().contains("file too large"), "{e}");
    }
}
