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
//!
//! **Compressed input.** [`read`] (and so [`read_to_string`]) decompresses a
//! gzip file: the games of the SPRT tests the repository keeps are stored as
//! `.csv.gz`, and a user may compress a book, a PGN or a finished match the
//! same way. Whether a file is gzip is decided by its content (it starts with
//! [`GZIP_MAGIC`], as `gzip` and `zcat` decide), not by its name, so a file
//! renamed either way is still read right; no text or weights file varia reads
//! starts with those bytes (0x1f is a control character, and a network starts
//! with its own magic). Concatenated gzip members are read as one stream (as
//! `zcat` does), the bound applies to the decompressed bytes too, and a
//! truncated or damaged stream is an `InvalidData` error saying so. Only
//! reading is compressed: a writer that appends refuses a gzip file
//! ([`is_gzip`], [`has_gz_extension`]), since appending plain rows to it, or
//! cutting a torn line at an offset of the decompressed text, would damage it.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::Path;

/// The first two bytes of every gzip stream (RFC 1952): what [`read`] looks
/// for to decompress a file.
pub const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

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
/// it grows while being read); a gzip file (see the module docs) is
/// decompressed, and its decompressed bytes are bounded the same way.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    let (file, len) = open(path)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    if bytes.starts_with(&GZIP_MAGIC) {
        return gunzip(&bytes);
    }
    Ok(bytes)
}

/// The decompressed bytes of the gzip stream `compressed` (one member or
/// several, one after the other), at most [`MAX_INPUT_BYTES`].
fn gunzip(compressed: &[u8]) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(compressed.len().saturating_mul(4));
    flate2::read::MultiGzDecoder::new(compressed)
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("truncated or corrupt gzip data ({e})"),
            )
        })?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Whether `path` is gzip data (starts with [`GZIP_MAGIC`]): what [`read`]
/// would decompress. A missing file, and one that is not a regular file (a
/// FIFO, which opening would block on, or a device), is `false`; another
/// error to open or read it is returned.
pub fn is_gzip(path: &Path) -> io::Result<bool> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
        Ok(_) => return Ok(false),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    }
    let file = File::open(path)?;
    let mut head = Vec::with_capacity(GZIP_MAGIC.len());
    file.take(GZIP_MAGIC.len() as u64).read_to_end(&mut head)?;
    Ok(head == GZIP_MAGIC)
}

/// Whether `path`'s name ends in `.gz` (any case): a file meant to hold gzip
/// data, which a writer of plain text should not create.
pub fn has_gz_extension(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// The name `path` had before `gzip FILE` made it `FILE.gz`: `path` without
/// its `.gz` (see [`has_gz_extension`]), or `path` itself.
pub fn uncompressed_name(path: &Path) -> std::path::PathBuf {
    if has_gz_extension(path) {
        path.with_extension("")
    } else {
        path.to_path_buf()
    }
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

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut enc, bytes).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn gzip_files_are_read_decompressed_whatever_their_name() {
        let dir = tempfile::tempdir().unwrap();
        let text = "game,result\n1,1-0\n".repeat(100);
        for name in ["a.csv.gz", "renamed.csv"] {
            let f = dir.path().join(name);
            std::fs::write(&f, gzip(text.as_bytes())).unwrap();
            assert!(is_gzip(&f).unwrap(), "{name}");
            assert_eq!(read_to_string(&f).unwrap(), text, "{name}");
        }
        // Two members one after the other read as one stream, as zcat does.
        let f = dir.path().join("two.gz");
        let mut two = gzip(b"first\n");
        two.extend(gzip(b"second\n"));
        std::fs::write(&f, two).unwrap();
        assert_eq!(read_to_string(&f).unwrap(), "first\nsecond\n");
        // A plain file is read as it is; a missing one is not gzip.
        let plain = dir.path().join("plain.csv");
        std::fs::write(&plain, &text).unwrap();
        assert!(!is_gzip(&plain).unwrap());
        assert_eq!(read_to_string(&plain).unwrap(), text);
        assert!(!is_gzip(&dir.path().join("missing.gz")).unwrap());
        assert!(!is_gzip(Path::new("/dev/null")).unwrap());
        assert!(!is_gzip(dir.path()).unwrap());
        assert!(has_gz_extension(Path::new("x/games.csv.GZ")));
        assert!(!has_gz_extension(Path::new("games.csv")));
        assert_eq!(
            uncompressed_name(Path::new("x/games.pgn.GZ")),
            Path::new("x/games.pgn")
        );
        assert_eq!(
            uncompressed_name(Path::new("games.csv")),
            Path::new("games.csv")
        );
    }

    #[test]
    fn truncated_or_damaged_gzip_is_one_invalid_data_error() {
        let dir = tempfile::tempdir().unwrap();
        let whole = gzip("1,2,3\n".repeat(1000).as_bytes());
        let f = dir.path().join("cut.csv.gz");
        for bytes in [
            &whole[..whole.len() / 2],
            &whole[..whole.len() - 4],
            &whole[..2],
        ] {
            std::fs::write(&f, bytes).unwrap();
            let e = read(&f).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
            assert!(e.to_string().contains("truncated or corrupt gzip"), "{e}");
            assert!(!e.to_string().contains('\n'), "{e}");
        }
        let mut damaged = whole.clone();
        let n = damaged.len();
        damaged[n - 8] ^= 0xff; // the CRC of the decompressed data
        std::fs::write(&f, damaged).unwrap();
        assert_eq!(read(&f).unwrap_err().kind(), io::ErrorKind::InvalidData);
    }
}
