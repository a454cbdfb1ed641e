//! Resumable record files: one append-only, torn-line-tolerant layout shared
//! by the match runner's per-game CSV, the perft checkpoint and part files,
//! the tuner's traces and the data generator's output.
//!
//! Every long run of varia writes its results as it goes, and a run started
//! again with the same settings continues from the file. That needs the same
//! five things each time, so they live here once:
//!
//! - **the run's identity** ([`RunIdentity`]): every setting that changes the
//!   rows, written to a sidecar file `FILE.meta` next to the CSV ([`meta_path`])
//!   so that the CSV itself opens with every reader's defaults (pandas,
//!   `csv.DictReader`, R's `read.csv`, a spreadsheet: the first line is the
//!   header); a file of another run is refused with the first differing field
//!   named, and is never changed;
//! - **one writer** ([`OutputLock`]): the file is locked for the life of the
//!   run, so a second run given the same file (a job started twice, a requeue
//!   racing its first run) stops at once instead of interleaving its rows;
//! - **torn lines**: every row is written with its newline in one write and
//!   flushed, so text after the last newline is a row cut short by a crash;
//!   it is cut off when the file is opened again;
//! - **integrity**: optionally, each row ends with a checksum column
//!   ([`checksum`], FNV-1a 64 of the row's text), so an edited count or a
//!   flipped result is an error naming the line instead of being taken
//!   silently;
//! - **"FILE already exists: pass --resume"** ([`refuse_existing`]).
//!
//! The layout:
//!
//! ```text
//! FILE:
//! game,round,...,moves,check       <- column names (`check` when rows are checksummed)
//! 1,1,1,...,e2e4 e7e5,3f0c9a1b2d4e5f60
//!
//! FILE.meta:
//! varia match v1                   <- the tag: kind and version
//! variant: chess                   <- the identity, one `key: value` line per field
//! seed: 1
//! ```
//!
//! A format may append its own `#` marker lines to the rows (the data
//! generator's `# game N`); they are not checksummed.
//!
//! Files of older versions held the tag and identity on top of the CSV, as
//! `#` lines (`# varia match v1`, `# variant: chess`, ...). They are still
//! read ([`Record::read`]), and [`AppendLog::open`] converts one to this
//! layout when a run resumes it (after checking it is the same run).
//!
//! **Compressed files.** [`Record::read`] reads a gzip file as well (through
//! [`search::input::read`], which decides by the content), so a finished
//! run's CSV can be kept as `FILE.gz`; its sidecar is `FILE.gz.meta`, or
//! `FILE.meta` as `gzip FILE` leaves it. Writing stays plain:
//! [`AppendLog::open`] and [`write_file`] refuse a gzip file or a `.gz` name
//! ([`RecordError::Compressed`]), since a resume appends rows and cuts a torn
//! line at a byte offset, which a compressed stream does not allow.
//!
//! The checksum of a row is `{:016x}` of FNV-1a 64 over the row's text up to
//! (not including) the comma before it. FNV-1a is chosen for being ten
//! lines, stable across platforms and versions, and enough to catch edits
//! and damage (it is not meant to resist forgery).
//!
//! **Locking.** [`OutputLock`] takes `flock(2)` (through the standard
//! library's `File::try_lock`) on a side file `FILE.lock`, never on the data
//! file itself (which resume rewrites and truncates). Such a lock belongs to
//! the open file and ends with the process however it ends (a crash, `kill
//! -9`, a node reboot on a local disk), so there is no stale lock to clean
//! up; the side file is left in place (removing it would race with a
//! second run opening it). On NFS, Linux maps `flock` to POSIX byte-range
//! locks held by the server's lock manager, so runs on different nodes
//! exclude each other; Lustre does the same when mounted with `-o flock`
//! (without it the call fails, and the run stops with that error rather
//! than going on unguarded). The holder's pid and host are written into the
//! side file, for the refusal message only.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Name of the checksum column.
pub const CHECK_COLUMN: &str = "check";

/// FNV-1a 64 of `text`: the row checksum of record files.
pub fn checksum(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// `row` with its checksum column appended (no newline).
pub fn with_checksum(row: &str) -> String {
    format!("{row},{:016x}", checksum(row))
}

/// An error reading or writing a record file. `file` is the file as the
/// caller names it (e.g. `checkpoint file x.ckpt`).
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Reading or writing failed.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file exists and `--resume` was not given.
    #[error(
        "{path} already exists: pass --resume to continue that {what}, or choose another --out"
    )]
    Exists {
        /// The path.
        path: String,
        /// What it records (`match`, `run`).
        what: String,
    },
    /// The file is not UTF-8.
    #[error("{file} is not valid UTF-8")]
    NotUtf8 {
        /// The file.
        file: String,
    },
    /// The first line is not the expected tag.
    #[error("{file} is not a {kind} (its first line should be \"{tag}\")")]
    WrongKind {
        /// The file.
        file: String,
        /// What it should be (`varia perft checkpoint`).
        kind: String,
        /// The expected first line.
        tag: String,
    },
    /// An identity line that is not `# key: value`.
    #[error("{file}: line {line}: expected \"# key: value\" in the header, found \"{text}\"")]
    BadHeaderLine {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
    /// The header block has no column line.
    #[error("{file}: no column names after the header")]
    NoColumns {
        /// The file.
        file: String,
    },
    /// A field of the identity differs from this run's.
    #[error("{file} belongs to another run: its {field} is {in_file}, this run's is {this_run} (use another file, or delete it to start over)")]
    OtherRun {
        /// The file.
        file: String,
        /// The first differing field.
        field: String,
        /// Its value in the file.
        in_file: String,
        /// Its value in this run.
        this_run: String,
    },
    /// The column names differ from this run's.
    #[error("{file}: columns are \"{found}\", expected \"{expected}\"")]
    Columns {
        /// The file.
        file: String,
        /// The file's column line.
        found: String,
        /// This run's.
        expected: String,
    },
    /// Another run writes the file.
    #[error("{file} is being written by another run ({holder}): wait for it to end, or choose another file")]
    Locked {
        /// The file.
        file: String,
        /// Who holds it (`pid 1234 on node7`), as far as known.
        holder: String,
    },
    /// A CSV without its identity sidecar.
    #[error("{file}: its run identity {meta} is missing (it is written next to the CSV and must be kept, or copied, with it)")]
    NoMeta {
        /// The file.
        file: String,
        /// The sidecar's path.
        meta: String,
    },
    /// A gzip file (or a `.gz` name) given to a writer.
    #[error("{file} is gzip (by its content or its .gz name): varia reads compressed files but writes and resumes only plain ones; to continue it, decompress it (gunzip -k {file}) and resume the plain file, or write to a name without .gz")]
    Compressed {
        /// The file.
        file: String,
    },
    /// A row whose checksum does not match its text.
    #[error("{file}: line {line}: checksum mismatch (the row was changed after it was written)")]
    Checksum {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
    },
}

impl RecordError {
    fn io(file: &str) -> impl FnOnce(std::io::Error) -> RecordError + '_ {
        move |source| RecordError::Io {
            file: file.to_string(),
            source,
        }
    }
}

/// The sidecar holding the run identity of the record file `path`:
/// `path` with `.meta` appended (`games.csv.meta`).
pub fn meta_path(path: &Path) -> PathBuf {
    with_suffix(path, ".meta")
}

/// The side file [`OutputLock`] locks for `path`: `path` with `.lock`
/// appended.
pub fn lock_path(path: &Path) -> PathBuf {
    with_suffix(path, ".lock")
}

/// The sidecar files a reader of the record file `path` tries, in order:
/// [`meta_path`], and for a compressed `FILE.gz` also `FILE.meta` (where it
/// stays after `gzip FILE`).
fn meta_candidates(path: &Path) -> Vec<PathBuf> {
    let mut candidates = vec![meta_path(path)];
    let plain = search::input::uncompressed_name(path);
    if plain != path {
        candidates.push(meta_path(&plain));
    }
    candidates
}

/// The sidecar text of the record file `path` for a reader: the first of
/// [`meta_candidates`] that exists, `None` if none does.
fn read_meta(path: &Path, file: &str) -> Result<Option<String>, RecordError> {
    for meta in meta_candidates(path) {
        if let Some(text) = read_text(&meta, file)? {
            return Ok(Some(text));
        }
    }
    Ok(None)
}

/// Refuses `path` to a writer if it is gzip data or named `.gz` (see the
/// module docs).
fn refuse_compressed(path: &Path, file: &str) -> Result<(), RecordError> {
    let gzip = search::input::is_gzip(path).map_err(RecordError::io(file))?;
    if gzip || search::input::has_gz_extension(path) {
        return Err(RecordError::Compressed {
            file: file.to_string(),
        });
    }
    Ok(())
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// An exclusive lock on an output file for the life of a run (see the
/// module docs for why `flock` on a side file). Dropping it (or the
/// process ending) releases it.
#[derive(Debug)]
pub struct OutputLock {
    /// The locked side file; `None` for an output that is not a regular
    /// file (`/dev/null`, a FIFO), which needs no lock.
    _file: Option<File>,
}

impl OutputLock {
    /// Locks `path` (through [`lock_path`]) or fails at once: with
    /// [`RecordError::Locked`] naming the holder's pid and host if another
    /// process holds it, or with the filesystem's error if it cannot lock.
    /// `file` names the file in errors.
    pub fn acquire(path: &Path, file: &str) -> Result<OutputLock, RecordError> {
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Ok(OutputLock { _file: None });
        }
        let lock = lock_path(path);
        let lock_name = lock.display().to_string();
        let mut f = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock)
            .map_err(RecordError::io(&lock_name))?;
        match f.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut text = String::new();
                let _ = std::io::Read::read_to_string(&mut f, &mut text);
                let holder = text.trim();
                return Err(RecordError::Locked {
                    file: file.to_string(),
                    holder: if holder.is_empty() {
                        "holder unknown".to_string()
                    } else {
                        holder.to_string()
                    },
                });
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(RecordError::Io {
                    file: format!("{lock_name} (locking; on Lustre mount with -o flock)"),
                    source: e,
                })
            }
        }
        // Who holds it, for the message of a second run.
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty());
        let holder = match host {
            Some(h) => format!("pid {} on {h}\n", std::process::id()),
            None => format!("pid {}\n", std::process::id()),
        };
        f.set_len(0)
            .and_then(|()| f.write_all(holder.as_bytes()))
            .and_then(|()| f.flush())
            .map_err(RecordError::io(&lock_name))?;
        Ok(OutputLock { _file: Some(f) })
    }
}

/// Writes `text` to `path` whole or not at all (a temp file renamed over
/// it), for the rewrites of [`AppendLog`] and the sidecar.
fn replace_file(path: &Path, text: &str, file: &str) -> Result<(), RecordError> {
    let tmp = with_suffix(path, ".tmp");
    let result = File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(RecordError::io(file))
}

/// Refuses to start over an existing, non-empty `path` unless `resume` is
/// set, refuses a file another run is writing (see [`OutputLock`]), and a
/// gzip file or `.gz` name ([`RecordError::Compressed`]: a run's output is
/// written plain). Returns whether the file exists (and is to be continued).
pub fn refuse_existing(path: &Path, resume: bool, what: &str) -> Result<bool, RecordError> {
    refuse_compressed(path, &path.display().to_string())?;
    drop(OutputLock::acquire(path, &path.display().to_string())?);
    let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if exists && !resume {
        return Err(RecordError::Exists {
            path: path.display().to_string(),
            what: what.to_string(),
        });
    }
    Ok(exists)
}

/// The settings of a run that decide what its rows hold, as ordered
/// `key: value` fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunIdentity {
    fields: Vec<(String, String)>,
}

/// Where two identities first differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The field.
    pub field: String,
    /// Its value in `self` (`(none)` if absent).
    pub ours: String,
    /// Its value in the other identity (`(none)` if absent).
    pub theirs: String,
}

impl RunIdentity {
    /// An empty identity.
    pub fn new() -> RunIdentity {
        RunIdentity::default()
    }

    /// Adds (or replaces) a field, keeping the first position of its key.
    /// Keys hold no `:`; values no newline (they are written as is).
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> RunIdentity {
        self.set(key, value);
        self
    }

    /// Adds (or replaces) a field.
    pub fn set(&mut self, key: &str, value: impl fmt::Display) {
        let value = value.to_string().replace(['\n', '\r'], " ");
        match self.fields.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.fields.push((key.to_string(), value)),
        }
    }

    /// The value of a field.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The fields in order.
    pub fn fields(&self) -> &[(String, String)] {
        &self.fields
    }

    /// The first field (in `self`'s order, then `other`'s extra ones) whose
    /// value differs, skipping the keys in `ignore`.
    pub fn first_difference(&self, other: &RunIdentity, ignore: &[&str]) -> Option<Difference> {
        let none = || "(none)".to_string();
        let ours = self
            .fields
            .iter()
            .map(|(k, v)| (k, v.clone(), other.get(k).map_or_else(none, str::to_string)));
        let extra = other
            .fields
            .iter()
            .filter(|(k, _)| self.get(k).is_none())
            .map(|(k, v)| (k, none(), v.clone()));
        ours.chain(extra)
            .find(|(k, a, b)| a != b && !ignore.contains(&k.as_str()))
            .map(|(k, a, b)| Difference {
                field: k.clone(),
                ours: a,
                theirs: b,
            })
    }

    /// The sidecar's text: the tag, then one `key: value` line per field.
    fn meta(&self, tag: &str) -> String {
        let mut s = format!("{tag}\n");
        for (k, v) in &self.fields {
            s.push_str(&format!("{k}: {v}\n"));
        }
        s
    }
}

/// The kind of a record file: its tag line is `# {kind} v{version}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordFormat {
    /// What the file is (`varia match`, `varia perft checkpoint`).
    pub kind: &'static str,
    /// Layout version.
    pub version: u32,
    /// Whether rows end with a [`CHECK_COLUMN`].
    pub checksum: bool,
}

impl RecordFormat {
    /// The first line of the sidecar (`varia match v1`).
    pub fn tag(&self) -> String {
        format!("{} v{}", self.kind, self.version)
    }

    /// The first line of a file of an older version, which held the
    /// identity on top (`# varia match v1`).
    pub fn legacy_tag(&self) -> String {
        format!("# {}", self.tag())
    }

    /// The text of `FILE.meta` for the run `identity`.
    pub fn meta_text(&self, identity: &RunIdentity) -> String {
        identity.meta(&self.tag())
    }

    fn column_line(&self, columns: &[&str]) -> String {
        let mut line = columns.join(",");
        if self.checksum {
            line.push(',');
            line.push_str(CHECK_COLUMN);
        }
        line
    }
}

/// One complete line after the column names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the file.
    pub number: usize,
    /// The text, without newline or checksum column.
    pub text: String,
    /// Whether it is a `#` comment.
    pub comment: bool,
    /// Byte offset just after this line (its newline) in the file.
    pub end: u64,
}

/// A record file read back: header, columns and the complete lines, every
/// row's checksum verified (and removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The identity in the header.
    pub identity: RunIdentity,
    /// Column names (without the checksum column).
    pub columns: Vec<String>,
    /// Lines after the column names.
    pub lines: Vec<Line>,
    /// Bytes of complete lines (a torn last line is beyond).
    pub complete_len: u64,
    /// Bytes before the first row: the column names (and, in a file of an
    /// older version, the tag and identity lines above them).
    pub header_len: u64,
    header_lines: usize,
}

impl Record {
    /// Parses the text of a record file of `format` that carries its
    /// identity on top, as older versions wrote it (first line `# KIND vN`,
    /// then `# key: value` lines). Text of today's layout (no identity on
    /// top) parses with an empty identity: read it with its sidecar through
    /// [`Record::read`] or [`Record::parse_with_meta`]. `file` names it in
    /// errors.
    pub fn parse(text: &str, format: &RecordFormat, file: &str) -> Result<Record, RecordError> {
        if !text.starts_with('#') {
            return body(text, RunIdentity::new(), 0, 0, format, file);
        }
        let tag = format.legacy_tag();
        let wrong_kind = || RecordError::WrongKind {
            file: file.to_string(),
            kind: format.kind.to_string(),
            tag: tag.clone(),
        };
        let mut offset = 0;
        let mut number = 0;
        let mut identity = RunIdentity::new();
        for line in text.split_inclusive('\n').filter(|l| l.ends_with('\n')) {
            let t = line.trim_end_matches(['\n', '\r']);
            if number == 0 {
                if t.trim_end() != tag {
                    return Err(wrong_kind());
                }
            } else if let Some(field) = t.strip_prefix('#') {
                set_header_field(&mut identity, field, t, file, number + 1)?;
            } else {
                break;
            }
            number += 1;
            offset += line.len();
        }
        if number == 0 {
            return Err(wrong_kind());
        }
        body(
            &text[offset..],
            identity,
            number,
            offset as u64,
            format,
            file,
        )
    }

    /// Parses a record file of today's layout: `meta`, the text of its
    /// sidecar `FILE.meta` (the tag, then `key: value` lines), and `text`,
    /// the CSV's. `file` names the CSV in errors.
    pub fn parse_with_meta(
        meta: &str,
        text: &str,
        format: &RecordFormat,
        file: &str,
    ) -> Result<Record, RecordError> {
        let identity = parse_meta(meta, format, file)?;
        body(text, identity, 0, 0, format, file)
    }

    /// Reads and parses `path` with its sidecar [`meta_path`], or a file of
    /// an older version with the identity on top. A gzip file is read
    /// decompressed, its sidecar `FILE.gz.meta` or else `FILE.meta`.
    pub fn read(path: &Path, format: &RecordFormat, file: &str) -> Result<Record, RecordError> {
        let bytes = search::input::read(path).map_err(RecordError::io(file))?;
        let text = String::from_utf8(bytes).map_err(|_| RecordError::NotUtf8 {
            file: file.to_string(),
        })?;
        if text.starts_with('#') {
            return Record::parse(&text, format, file);
        }
        let Some(meta_text) = read_meta(path, file)? else {
            let candidates = meta_candidates(path);
            let mut meta = candidates[0].display().to_string();
            for other in &candidates[1..] {
                meta.push_str(&format!(" (or {})", other.display()));
            }
            return Err(RecordError::NoMeta {
                file: file.to_string(),
                meta,
            });
        };
        Record::parse_with_meta(&meta_text, &text, format, file)
    }

    /// Checks the column names.
    pub fn expect_columns(&self, columns: &[&str], file: &str) -> Result<(), RecordError> {
        if self
            .columns
            .iter()
            .map(String::as_str)
            .ne(columns.iter().copied())
        {
            return Err(RecordError::Columns {
                file: file.to_string(),
                found: self.columns.join(","),
                expected: columns.join(","),
            });
        }
        Ok(())
    }

    /// The rows as CSV text: the column names, then each line at its own
    /// line number (an older file's identity lines as blank `#` lines),
    /// checksums removed;
    /// for a CSV reader with `comment(Some(b'#'))`, whose reported line
    /// numbers are then the file's.
    pub fn csv_text(&self) -> String {
        let mut s = "#\n".repeat(self.header_lines - 1);
        s.push_str(&self.columns.join(","));
        s.push('\n');
        for l in &self.lines {
            s.push_str(&l.text);
            s.push('\n');
        }
        s
    }
}

/// The text of `path`, `None` if it does not exist.
fn read_text(path: &Path, file: &str) -> Result<Option<String>, RecordError> {
    match search::input::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| RecordError::NotUtf8 {
                file: file.to_string(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(RecordError::io(file)(e)),
    }
}

/// Sets one `key: value` field of a header (`field`, found in the line
/// `text`, line `line` of `file`) in `identity`; a field without a colon is
/// an error naming the line.
fn set_header_field(
    identity: &mut RunIdentity,
    field: &str,
    text: &str,
    file: &str,
    line: usize,
) -> Result<(), RecordError> {
    let (k, v) = field
        .split_once(':')
        .ok_or_else(|| RecordError::BadHeaderLine {
            file: file.to_string(),
            line,
            text: text.to_string(),
        })?;
    identity.set(k.trim(), v.trim());
    Ok(())
}

/// The identity in a sidecar's text (its first line must be `format`'s tag).
fn parse_meta(meta: &str, format: &RecordFormat, file: &str) -> Result<RunIdentity, RecordError> {
    let tag = format.tag();
    let mut lines = meta.lines();
    if lines.next().map(str::trim_end) != Some(tag.as_str()) {
        return Err(RecordError::WrongKind {
            file: file.to_string(),
            kind: format.kind.to_string(),
            tag,
        });
    }
    let mut identity = RunIdentity::new();
    for (i, t) in lines.enumerate() {
        if t.trim().is_empty() {
            continue;
        }
        set_header_field(&mut identity, t, t, file, i + 2)?;
    }
    Ok(identity)
}

/// Parses the CSV part of a record file: `text` starts with the column
/// names, which are line `before + 1` of the file at byte `offset`.
fn body(
    text: &str,
    identity: RunIdentity,
    before: usize,
    offset: u64,
    format: &RecordFormat,
    file: &str,
) -> Result<Record, RecordError> {
    let mut lines = text.split_inclusive('\n').filter(|l| l.ends_with('\n'));
    let columns = lines.next().ok_or_else(|| RecordError::NoColumns {
        file: file.to_string(),
    })?;
    let mut offset = offset + columns.len() as u64;
    let header_len = offset;
    let mut names: Vec<String> = columns
        .trim_end_matches(['\n', '\r'])
        .split(',')
        .map(|c| c.trim().to_string())
        .collect();
    if format.checksum && names.last().map(String::as_str) == Some(CHECK_COLUMN) {
        names.pop();
    }
    let mut body = Vec::new();
    // The column names are line `before + 1`; the rows follow.
    for (number, line) in (before + 2..).zip(lines) {
        offset += line.len() as u64;
        let t = line.trim_end_matches(['\n', '\r']);
        let comment = t.starts_with('#') || t.trim().is_empty();
        let text = if format.checksum && !comment {
            verified(t).ok_or_else(|| RecordError::Checksum {
                file: file.to_string(),
                line: number,
            })?
        } else {
            t
        };
        body.push(Line {
            number,
            text: text.to_string(),
            comment,
            end: offset,
        });
    }
    Ok(Record {
        identity,
        columns: names,
        lines: body,
        complete_len: offset,
        header_len,
        header_lines: before + 1,
    })
}

/// The row text of a checksummed line, if its checksum matches.
fn verified(line: &str) -> Option<&str> {
    let (row, sum) = line.rsplit_once(',')?;
    let sum = u64::from_str_radix(sum.trim(), 16).ok()?;
    (sum == checksum(row)).then_some(row)
}

/// A record file open for appending, locked for as long as it is open.
#[derive(Debug)]
pub struct AppendLog {
    file: File,
    path: PathBuf,
    name: String,
    checksum: bool,
    _lock: OutputLock,
}

impl AppendLog {
    /// Opens `path` for the run `identity`, with `columns`, and locks it
    /// ([`OutputLock`]: a file another run is writing is refused at once).
    /// A missing or empty file is created with the column names and its
    /// sidecar `FILE.meta`. An existing one must be of `format` and of this
    /// run (else the error names the first differing field, and the file is
    /// left as it is); a torn last line is cut off, and a file of an older
    /// version (identity on top) is converted to today's layout. Returns the
    /// log and, for an existing file, what it holds. `file` names the file
    /// in errors.
    pub fn open(
        path: &Path,
        format: &RecordFormat,
        identity: &RunIdentity,
        columns: &[&str],
        file: &str,
    ) -> Result<(AppendLog, Option<Record>), RecordError> {
        refuse_compressed(path, file)?;
        let lock = OutputLock::acquire(path, file)?;
        let head = format.column_line(columns) + "\n";
        let meta = meta_path(path);
        let mut text = read_text(path, file)?.unwrap_or_default();
        if text.starts_with('#') {
            // An older version's file: check it as it is, then move its
            // identity to the sidecar (sidecar first: a crash in between
            // leaves the old file, converted again next time).
            let old = Record::parse(&text, format, file)?;
            check_run(&old, identity, columns, file)?;
            replace_file(&meta, &format.meta_text(&old.identity), file)?;
            text = format!("{head}{}", &text[old.header_len as usize..]);
            replace_file(path, &text, file)?;
        }
        // Empty, or column names cut short by a crash: start afresh.
        let record = if head.starts_with(&text) {
            replace_file(&meta, &format.meta_text(identity), file)?;
            replace_file(path, &head, file)?;
            None
        } else {
            let Some(meta_text) = read_text(&meta, file)? else {
                return Err(RecordError::NoMeta {
                    file: file.to_string(),
                    meta: meta.display().to_string(),
                });
            };
            let record = Record::parse_with_meta(&meta_text, &text, format, file)?;
            check_run(&record, identity, columns, file)?;
            Some(record)
        };
        let mut log = AppendLog::append_to(path, format, file, lock)?;
        if let Some(r) = &record {
            log.truncate(r.complete_len)?;
        }
        Ok((log, record))
    }

    /// Opens `path` as a new, empty record file for the run `identity`
    /// (whatever it held is dropped), locked as [`AppendLog::open`] locks it.
    pub fn create(
        path: &Path,
        format: &RecordFormat,
        identity: &RunIdentity,
        columns: &[&str],
        file: &str,
    ) -> Result<AppendLog, RecordError> {
        refuse_compressed(path, file)?;
        let lock = OutputLock::acquire(path, file)?;
        replace_file(&meta_path(path), &format.meta_text(identity), file)?;
        replace_file(path, &(format.column_line(columns) + "\n"), file)?;
        AppendLog::append_to(path, format, file, lock)
    }

    /// The log appending to `path` (which exists), holding `lock`.
    fn append_to(
        path: &Path,
        format: &RecordFormat,
        file: &str,
        lock: OutputLock,
    ) -> Result<AppendLog, RecordError> {
        Ok(AppendLog {
            file: OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(RecordError::io(file))?,
            path: path.to_path_buf(),
            name: file.to_string(),
            checksum: format.checksum,
            _lock: lock,
        })
    }

    /// Cuts the file to its first `len` bytes (a torn line, or a partial
    /// block the caller does not keep).
    pub fn truncate(&mut self, len: u64) -> Result<(), RecordError> {
        let current = self.file.metadata().map_err(RecordError::io(&self.name))?;
        if current.len() > len {
            self.file
                .set_len(len)
                .map_err(RecordError::io(&self.name))?;
        }
        Ok(())
    }

    /// Appends one row (no newline; its checksum is added if the format
    /// has one) and flushes.
    pub fn append(&mut self, row: &str) -> Result<(), RecordError> {
        let mut line = if self.checksum {
            with_checksum(row)
        } else {
            row.to_string()
        };
        line.push('\n');
        self.append_raw(&line)
    }

    /// Appends complete lines as they are (comments, or a block of rows of
    /// a format without checksums) in one write, and flushes.
    pub fn append_raw(&mut self, lines: &str) -> Result<(), RecordError> {
        self.file
            .write_all(lines.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(RecordError::io(&self.name))
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A file of this run: its identity is `identity` and its columns are
/// `columns` (else the error names the first differing field).
fn check_run(
    record: &Record,
    identity: &RunIdentity,
    columns: &[&str],
    file: &str,
) -> Result<(), RecordError> {
    if let Some(d) = identity.first_difference(&record.identity, &[]) {
        return Err(RecordError::OtherRun {
            file: file.to_string(),
            field: d.field,
            in_file: d.theirs,
            this_run: d.ours,
        });
    }
    record.expect_columns(columns, file)
}

/// Writes a whole record file, `path` and its sidecar [`meta_path`], each
/// whole or not at all.
pub fn write_file(
    path: &Path,
    format: &RecordFormat,
    identity: &RunIdentity,
    columns: &[&str],
    rows: impl IntoIterator<Item = String>,
) -> Result<(), RecordError> {
    let file = path.display().to_string();
    refuse_compressed(path, &file)?;
    let mut text = Vec::new();
    write_csv(&mut text, format, columns, rows).map_err(RecordError::io(&file))?;
    replace_file(&meta_path(path), &format.meta_text(identity), &file)?;
    replace_file(path, &String::from_utf8_lossy(&text), &file)
}

/// Writes the CSV of a record file (column names, rows with their
/// checksums) to `out`; its identity goes to the sidecar
/// ([`RecordFormat::meta_text`]).
pub fn write_csv(
    out: &mut dyn Write,
    format: &RecordFormat,
    columns: &[&str],
    rows: impl IntoIterator<Item = String>,
) -> std::io::Result<()> {
    write_text(out, String::new(), format, columns, rows)
}

/// Writes a whole record file with its identity on top, as `#` lines (the
/// older layout, for a stream such as stdout that has no sidecar; every
/// reader here still takes it).
pub fn write_all(
    out: &mut dyn Write,
    format: &RecordFormat,
    identity: &RunIdentity,
    columns: &[&str],
    rows: impl IntoIterator<Item = String>,
) -> std::io::Result<()> {
    let mut head = format!("{}\n", format.legacy_tag());
    for (k, v) in identity.fields() {
        head.push_str(&format!("# {k}: {v}\n"));
    }
    write_text(out, head, format, columns, rows)
}

fn write_text(
    out: &mut dyn Write,
    mut text: String,
    format: &RecordFormat,
    columns: &[&str],
    rows: impl IntoIterator<Item = String>,
) -> std::io::Result<()> {
    text.push_str(&format.column_line(columns));
    text.push('\n');
    for row in rows {
        if format.checksum {
            text.push_str(&with_checksum(&row));
        } else {
            text.push_str(&row);
        }
        text.push('\n');
    }
    out.write_all(text.as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT: RecordFormat = RecordFormat {
        kind: "varia test",
        version: 1,
        checksum: true,
    };

    fn identity(depth: u32) -> RunIdentity {
        RunIdentity::new()
            .with("variant", "chess")
            .with("depth", depth)
    }

    /// A fresh temporary folder and the path of `name` in it (the folder
    /// lives as long as the returned guard).
    fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        (dir, path)
    }

    /// The identity `Record::read` finds in the file at `path`.
    fn identity_read(path: &Path) -> RunIdentity {
        Record::read(path, &FORMAT, "r").unwrap().identity
    }

    #[test]
    fn fnv1a_of_known_strings() {
        assert_eq!(checksum(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(checksum("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(checksum("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn append_then_resume_keeps_rows_and_cuts_a_torn_line() {
        let (dir, path) = scratch("r.csv");
        let (mut log, old) =
            AppendLog::open(&path, &FORMAT, &identity(5), &["a", "b"], "r").unwrap();
        assert!(old.is_none());
        log.append("1,x").unwrap();
        log.append_raw("# note\n").unwrap();
        log.append("2,y").unwrap();
        drop(log);
        let mut text = std::fs::read_to_string(&path).unwrap();
        // The CSV opens with its column names; the identity is beside it.
        assert!(text.starts_with("a,b,check\n1,x,"), "{text}");
        assert_eq!(
            std::fs::read_to_string(meta_path(&path)).unwrap(),
            "varia test v1\nvariant: chess\ndepth: 5\n"
        );
        let whole = text.len() as u64;
        text.push_str("3,z,12");
        std::fs::write(&path, &text).unwrap();
        let (_, old) = AppendLog::open(&path, &FORMAT, &identity(5), &["a", "b"], "r").unwrap();
        let old = old.unwrap();
        // Column names cut short are written again.
        let torn = dir.path().join("torn.csv");
        std::fs::write(&torn, "a,b,ch").unwrap();
        let (_, none) = AppendLog::open(&torn, &FORMAT, &identity(5), &["a", "b"], "t").unwrap();
        assert!(none.is_none());
        assert_eq!(std::fs::read_to_string(&torn).unwrap(), "a,b,check\n");
        let rows: Vec<&str> = old.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(rows, ["1,x", "# note", "2,y"]);
        assert_eq!(old.lines[2].number, 4);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole);
        assert_eq!(old.csv_text().lines().nth(3), Some("2,y"));
        assert_eq!(identity_read(&path), identity(5));
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn gzip_files_are_read_with_either_sidecar_and_never_written() {
        let (dir, path) = scratch("r.csv");
        let (mut log, _) = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r").unwrap();
        log.append("1").unwrap();
        drop(log);
        let plain = Record::read(&path, &FORMAT, "r").unwrap();
        // `gzip r.csv`: r.csv.gz, its sidecar still r.csv.meta.
        let gz = dir.path().join("r.csv.gz");
        std::fs::write(&gz, gzip(&std::fs::read(&path).unwrap())).unwrap();
        assert_eq!(Record::read(&gz, &FORMAT, "r").unwrap(), plain);
        // Its own sidecar r.csv.gz.meta comes first.
        std::fs::write(meta_path(&gz), FORMAT.meta_text(&identity(7))).unwrap();
        assert_eq!(identity_read(&gz), identity(7));
        std::fs::remove_file(meta_path(&gz)).unwrap();
        std::fs::remove_file(meta_path(&path)).unwrap();
        let e = Record::read(&gz, &FORMAT, "r.csv.gz").unwrap_err();
        assert!(matches!(e, RecordError::NoMeta { .. }), "{e}");
        assert!(e.to_string().contains("r.csv.gz.meta (or "), "{e}");
        // No writer takes a gzip file (by content or by name) or a .gz name.
        let before = std::fs::read(&gz).unwrap();
        let hidden = dir.path().join("hidden.csv");
        std::fs::write(&hidden, &before).unwrap();
        let new = dir.path().join("new.csv.gz");
        for p in [&gz, &hidden, &new] {
            let file = p.display().to_string();
            let opened = AppendLog::open(p, &FORMAT, &identity(5), &["a"], &file);
            let created = AppendLog::create(p, &FORMAT, &identity(5), &["a"], &file);
            let written = write_file(p, &FORMAT, &identity(5), &["a"], ["1".to_string()]);
            let existing = refuse_existing(p, true, "run");
            for e in [
                opened.unwrap_err(),
                created.unwrap_err(),
                written.unwrap_err(),
                existing.unwrap_err(),
            ] {
                assert!(matches!(e, RecordError::Compressed { .. }), "{e}");
                assert!(e.to_string().starts_with(&file), "{e}");
            }
            assert!(!lock_path(p).exists() && !meta_path(p).exists());
        }
        assert_eq!(std::fs::read(&gz).unwrap(), before);
        assert_eq!(std::fs::read(&hidden).unwrap(), before);
        assert!(!new.exists());
    }

    #[test]
    fn a_file_of_an_older_version_resumes_converted() {
        let (_dir, path) = scratch("old.csv");
        let rows = format!(
            "{}\n# note\n{}\n",
            with_checksum("1,x"),
            with_checksum("2,y")
        );
        let old = format!("# varia test v1\n# variant: chess\n# depth: 5\na,b,check\n{rows}3,z");
        std::fs::write(&path, &old).unwrap();
        // Still read as it is.
        let r = Record::read(&path, &FORMAT, "old").unwrap();
        assert_eq!((r.identity.clone(), r.lines.len()), (identity(5), 3));
        assert_eq!(r.lines[0].number, 5);
        // Another run is refused before anything changes.
        let e = AppendLog::open(&path, &FORMAT, &identity(6), &["a", "b"], "old").unwrap_err();
        assert!(
            e.to_string().contains("its depth is 5, this run's is 6"),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
        assert!(!meta_path(&path).exists());
        // The same run converts it and goes on.
        let (mut log, r) =
            AppendLog::open(&path, &FORMAT, &identity(5), &["a", "b"], "old").unwrap();
        let r = r.unwrap();
        assert_eq!(r.lines.iter().filter(|l| !l.comment).count(), 2);
        log.append("3,z").unwrap();
        drop(log);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("a,b,check\n{rows}{}\n", with_checksum("3,z")));
        assert_eq!(identity_read(&path), identity(5));
    }

    #[test]
    fn a_second_writer_is_refused_while_the_first_holds_the_file() {
        let (_dir, path) = scratch("r.csv");
        let (mut log, _) = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap();
        log.append("1").unwrap();
        // A lock is per open file: a second open, even in this process,
        // conflicts as another process's would.
        let e = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap_err();
        let pid = std::process::id();
        assert!(
            e.to_string()
                .starts_with(&format!("r.csv is being written by another run (pid {pid}")),
            "{e}"
        );
        let e = refuse_existing(&path, true, "match").unwrap_err();
        assert!(matches!(e, RecordError::Locked { .. }), "{e}");
        let e = AppendLog::create(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap_err();
        assert!(matches!(e, RecordError::Locked { .. }), "{e}");
        log.append("2").unwrap();
        drop(log);
        let r = Record::read(&path, &FORMAT, "r.csv").unwrap();
        let rows: Vec<&str> = r.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(rows, ["1", "2"]);
        // Released with the log.
        let (_, again) = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap();
        assert_eq!(again.unwrap().lines.len(), 2);
        // The identity must stay with the CSV.
        std::fs::remove_file(meta_path(&path)).unwrap();
        let e = Record::read(&path, &FORMAT, "r.csv").unwrap_err();
        assert!(e.to_string().contains("r.csv.meta is missing"), "{e}");
    }

    #[test]
    fn other_runs_edits_and_other_files_are_refused() {
        let (_dir, path) = scratch("r.csv");
        let (mut log, _) = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap();
        log.append("17").unwrap();
        drop(log);
        let before = std::fs::read_to_string(&path).unwrap();
        let e = AppendLog::open(&path, &FORMAT, &identity(6), &["a"], "r.csv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.csv belongs to another run: its depth is 5, this run's is 6 (use another file, or delete it to start over)"
        );
        let e = AppendLog::open(
            &path,
            &FORMAT,
            &identity(5).with("seed", 1),
            &["a"],
            "r.csv",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("its seed is (none), this run's is 1"),
            "{e}"
        );
        let e = AppendLog::open(&path, &FORMAT, &identity(5), &["b"], "r.csv").unwrap_err();
        assert!(
            e.to_string().contains("columns are \"a\", expected \"b\""),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);

        std::fs::write(&path, before.replace("\n17,", "\n18,")).unwrap();
        let e = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap_err();
        assert_eq!(
            e.to_string(),
            "r.csv: line 2: checksum mismatch (the row was changed after it was written)"
        );
        std::fs::write(meta_path(&path), "varia other v1\n").unwrap();
        let e = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap_err();
        assert!(
            e.to_string()
                .contains("is not a varia test (its first line should be \"varia test v1\")"),
            "{e}"
        );
        std::fs::write(&path, "# varia other v1\na\n").unwrap();
        let e = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap_err();
        assert!(e.to_string().contains("\"# varia test v1\""), "{e}");
    }

    #[test]
    fn differences_and_the_exists_check() {
        let a = identity(4);
        let b = identity(4).with("variant", "atomic");
        let d = a.first_difference(&b, &[]).unwrap();
        assert_eq!(
            (d.field.as_str(), d.ours.as_str(), d.theirs.as_str()),
            ("variant", "chess", "atomic")
        );
        assert_eq!(a.first_difference(&b, &["variant"]), None);
        let (_dir, path) = scratch("x.csv");
        assert!(!refuse_existing(&path, false, "match").unwrap());
        std::fs::write(&path, "1").unwrap();
        assert!(refuse_existing(&path, true, "match").unwrap());
        let e = refuse_existing(&path, false, "match")
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("x.csv already exists: pass --resume to continue that match, or choose another --out"), "{e}");
    }
}
