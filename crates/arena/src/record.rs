//! Resumable record files: one append-only, torn-line-tolerant layout shared
//! by the match runner's per-game CSV, the perft checkpoint and part files,
//! the tuner's traces and the data generator's output.
//!
//! Every long run of varia writes its results as it goes, and a run started
//! again with the same settings continues from the file. That needs the same
//! four things each time, so they live here once:
//!
//! - **the run's identity** ([`RunIdentity`]): every setting that changes the
//!   rows, written on top of the file; a file of another run is refused with
//!   the first differing field named, and is never changed;
//! - **torn lines**: every row is written with its newline in one write and
//!   flushed, so text after the last newline is a row cut short by a crash;
//!   it is cut off when the file is opened again;
//! - **integrity**: optionally, each row ends with a checksum column
//!   ([`checksum`], FNV-1a 64 of the row's text), so an edited count or a
//!   flipped result is an error naming the line instead of being taken
//!   silently;
//! - **"FILE already exists: pass --resume"** ([`refuse_existing`]).
//!
//! The layout (`#` lines are comments to CSV readers: `csv` with
//! `comment(Some(b'#'))`, pandas with `comment='#'`):
//!
//! ```text
//! # varia match v2                 <- the tag: kind and version
//! # variant: chess                 <- the identity, one `# key: value` line per field
//! # seed: 1
//! game,round,...,moves,check       <- column names (`check` when rows are checksummed)
//! 1,1,1,...,e2e4 e7e5,3f0c9a1b2d4e5f60
//! # game 1                         <- comment lines may follow anywhere (not checksummed)
//! ```
//!
//! The checksum of a row is `{:016x}` of FNV-1a 64 over the row's text up to
//! (not including) the comma before it. FNV-1a is chosen for being ten
//! lines, stable across platforms and versions, and enough to catch edits
//! and damage (it is not meant to resist forgery).

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

/// Refuses to start over an existing, non-empty `path` unless `resume` is
/// set. Returns whether the file exists (and is to be continued).
pub fn refuse_existing(path: &Path, resume: bool, what: &str) -> Result<bool, RecordError> {
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

    fn header(&self, tag: &str) -> String {
        let mut s = format!("{tag}\n");
        for (k, v) in &self.fields {
            s.push_str(&format!("# {k}: {v}\n"));
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
    /// The first line.
    pub fn tag(&self) -> String {
        format!("# {} v{}", self.kind, self.version)
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
    /// Bytes of the header block (tag, identity, column names).
    pub header_len: u64,
    header_lines: usize,
}

impl Record {
    /// Parses the text of a record file of `format`; `file` names it in errors.
    pub fn parse(text: &str, format: &RecordFormat, file: &str) -> Result<Record, RecordError> {
        let tag = format.tag();
        let wrong_kind = || RecordError::WrongKind {
            file: file.to_string(),
            kind: format.kind.to_string(),
            tag: tag.clone(),
        };
        let mut offset = 0u64;
        let mut lines = text.split_inclusive('\n').filter(|l| l.ends_with('\n'));
        let first = lines.next().ok_or_else(wrong_kind)?;
        offset += first.len() as u64;
        if first.trim_end() != tag {
            return Err(wrong_kind());
        }
        let mut identity = RunIdentity::new();
        let mut number = 1;
        let mut columns = None;
        for line in lines.by_ref() {
            number += 1;
            offset += line.len() as u64;
            let t = line.trim_end_matches(['\n', '\r']);
            let Some(field) = t.strip_prefix('#') else {
                columns = Some(t.to_string());
                break;
            };
            let (k, v) = field
                .split_once(':')
                .ok_or_else(|| RecordError::BadHeaderLine {
                    file: file.to_string(),
                    line: number,
                    text: t.to_string(),
                })?;
            identity.set(k.trim(), v.trim());
        }
        let columns = columns.ok_or_else(|| RecordError::NoColumns {
            file: file.to_string(),
        })?;
        let header_lines = number;
        let header_len = offset;
        let mut names: Vec<String> = columns.split(',').map(|c| c.trim().to_string()).collect();
        if format.checksum && names.last().map(String::as_str) == Some(CHECK_COLUMN) {
            names.pop();
        }
        let mut body = Vec::new();
        for line in lines {
            number += 1;
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
            header_lines,
        })
    }

    /// Reads and parses `path`.
    pub fn read(path: &Path, format: &RecordFormat, file: &str) -> Result<Record, RecordError> {
        let bytes = search::input::read(path).map_err(RecordError::io(file))?;
        let text = String::from_utf8(bytes).map_err(|_| RecordError::NotUtf8 {
            file: file.to_string(),
        })?;
        Record::parse(&text, format, file)
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
    /// line number (the header block as blank `#` lines), checksums removed;
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

/// The row text of a checksummed line, if its checksum matches.
fn verified(line: &str) -> Option<&str> {
    let (row, sum) = line.rsplit_once(',')?;
    let sum = u64::from_str_radix(sum.trim(), 16).ok()?;
    (sum == checksum(row)).then_some(row)
}

/// A record file open for appending.
#[derive(Debug)]
pub struct AppendLog {
    file: File,
    path: PathBuf,
    name: String,
    checksum: bool,
}

impl AppendLog {
    /// Opens `path` for the run `identity`, with `columns`. A missing or
    /// empty file is created with the header. An existing one must be of
    /// `format` and of this run (else the error names the first differing
    /// field, and the file is left as it is); a torn last line is cut off.
    /// Returns the log and, for an existing file, what it holds. `file`
    /// names the file in errors.
    pub fn open(
        path: &Path,
        format: &RecordFormat,
        identity: &RunIdentity,
        columns: &[&str],
        file: &str,
    ) -> Result<(AppendLog, Option<Record>), RecordError> {
        let mut head = identity.header(&format.tag());
        head.push_str(&format.column_line(columns));
        head.push('\n');
        let text = match search::input::read(path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|_| RecordError::NotUtf8 {
                file: file.to_string(),
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(RecordError::io(file)(e)),
        };
        // Empty, or a header cut short by a crash: start afresh.
        let record = if !head.starts_with(&text) {
            let record = Record::parse(&text, format, file)?;
            if let Some(d) = identity.first_difference(&record.identity, &[]) {
                return Err(RecordError::OtherRun {
                    file: file.to_string(),
                    field: d.field,
                    in_file: d.theirs,
                    this_run: d.ours,
                });
            }
            record.expect_columns(columns, file)?;
            Some(record)
        } else {
            let mut f = File::create(path).map_err(RecordError::io(file))?;
            f.write_all(head.as_bytes())
                .and_then(|()| f.flush())
                .map_err(RecordError::io(file))?;
            None
        };
        let mut log = AppendLog {
            file: OpenOptions::new()
                .append(true)
                .open(path)
                .map_err(RecordError::io(file))?,
            path: path.to_path_buf(),
            name: file.to_string(),
            checksum: format.checksum,
        };
        if let Some(r) = &record {
            log.truncate(r.complete_len)?;
        }
        Ok((log, record))
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

/// Writes a whole record file (header, columns, rows with their checksums)
/// to `out`.
pub fn write_all(
    out: &mut dyn Write,
    format: &RecordFormat,
    identity: &RunIdentity,
    columns: &[&str],
    rows: impl IntoIterator<Item = String>,
) -> std::io::Result<()> {
    let mut text = identity.header(&format.tag());
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

    #[test]
    fn fnv1a_of_known_strings() {
        assert_eq!(checksum(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(checksum("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(checksum("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn append_then_resume_keeps_rows_and_cuts_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
        let (mut log, old) =
            AppendLog::open(&path, &FORMAT, &identity(5), &["a", "b"], "r").unwrap();
        assert!(old.is_none());
        log.append("1,x").unwrap();
        log.append_raw("# note\n").unwrap();
        log.append("2,y").unwrap();
        drop(log);
        let mut text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# varia test v1\n# variant: chess\n# depth: 5\na,b,check\n1,x,"));
        let whole = text.len() as u64;
        text.push_str("3,z,12");
        std::fs::write(&path, &text).unwrap();
        let (_, old) = AppendLog::open(&path, &FORMAT, &identity(5), &["a", "b"], "r").unwrap();
        let old = old.unwrap();
        // A header cut short is written again.
        let torn = dir.path().join("torn.csv");
        std::fs::write(&torn, "# varia test v1\n# vari").unwrap();
        let (_, none) = AppendLog::open(&torn, &FORMAT, &identity(5), &["a", "b"], "t").unwrap();
        assert!(none.is_none());
        assert!(std::fs::read_to_string(&torn)
            .unwrap()
            .ends_with("a,b,check\n"));
        let rows: Vec<&str> = old.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(rows, ["1,x", "# note", "2,y"]);
        assert_eq!(old.lines[2].number, 7);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), whole);
        assert_eq!(old.csv_text().lines().nth(6), Some("2,y"));
    }

    #[test]
    fn other_runs_edits_and_other_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.csv");
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
            "r.csv: line 5: checksum mismatch (the row was changed after it was written)"
        );
        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        let e = AppendLog::open(&path, &FORMAT, &identity(5), &["a"], "r.csv").unwrap_err();
        assert!(
            e.to_string()
                .contains("is not a varia test (its first line should be \"# varia test v1\")"),
            "{e}"
        );
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
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.csv");
        assert!(!refuse_existing(&path, false, "match").unwrap());
        std::fs::write(&path, "1").unwrap();
        assert!(refuse_existing(&path, true, "match").unwrap());
        let e = refuse_existing(&path, false, "match")
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("x.csv already exists: pass --resume to continue that match, or choose another --out"), "{e}");
    }
}
