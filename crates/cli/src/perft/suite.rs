//! `varia perft --suite FILE`: check every row of a `variant,fen,depth,nodes`
//! CSV file, rows in parallel, and report the mismatches.

use super::progress::{Progress, Units};
use super::{perft_divide_parallel, sorted_uci, Settings, MAX_DEPTH};
use anyhow::{anyhow, bail, Context as _};
use movegen::{with_position, VariantGame};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

/// The columns a suite file must have (others are ignored).
const COLUMNS: [&str; 4] = ["variant", "fen", "depth", "nodes"];

/// One row of a suite file, checked and parsed.
pub struct Row {
    /// Line in the file (the header is line 1).
    pub line: u64,
    /// The `variant` field as written.
    pub variant_text: String,
    /// The `fen` field as written.
    pub fen_text: String,
    /// The position (parsed once, when the file is loaded).
    pub position: VariantGame,
    /// Perft depth.
    pub depth: u32,
    /// The expected node count.
    pub expected: u64,
}

/// Line numbers from byte offsets. (The csv crate's own line count misses
/// blank and comment lines, and a record's start offset is where the reader
/// began looking for it: before any blank or comment lines.) Also used for
/// part and checkpoint files.
pub(super) struct Lines<'a> {
    data: &'a [u8],
    newlines: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(super) fn new(data: &'a [u8]) -> Lines<'a> {
        let newlines = data
            .iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i)
            .collect();
        Lines { data, newlines }
    }

    /// The 1-based line of the first record at or after byte `offset`.
    pub(super) fn line(&self, offset: u64) -> u64 {
        let mut at = usize::try_from(offset).unwrap_or(usize::MAX);
        let line_start = |i: usize| i == 0 || self.data.get(i - 1) == Some(&b'\n');
        while let Some(&b) = self.data.get(at) {
            match b {
                b'\r' | b'\n' => at += 1,
                b'#' if line_start(at) => {
                    at = match self.data[at..].iter().position(|&c| c == b'\n') {
                        Some(n) => at + n + 1,
                        None => self.data.len(),
                    }
                }
                _ => break,
            }
        }
        self.newlines.partition_point(|&nl| nl < at) as u64 + 1
    }
}

/// A csv error as `FILE: line N: what`.
fn csv_error(path: &Path, lines: &Lines, e: csv::Error) -> anyhow::Error {
    let file = path.display();
    let line = e.position().map(|p| lines.line(p.byte()));
    match (e.kind(), line) {
        (csv::ErrorKind::Io(io), _) => anyhow!("cannot read suite file {file}: {io}"),
        (csv::ErrorKind::Utf8 { .. }, Some(line)) => {
            anyhow!("{file}: line {line}: not valid UTF-8")
        }
        (_, Some(line)) => anyhow!("{file}: line {line}: {e}"),
        (_, None) => anyhow!("{file}: {e}"),
    }
}

/// Reads and checks a whole suite file; any problem is an error naming the
/// file and line.
pub fn load(path: &Path) -> anyhow::Result<Vec<Row>> {
    let file = path.display();
    let data =
        search::input::read(path).with_context(|| format!("cannot read suite file {file}"))?;
    // A last row without its newline is a file cut short (a killed writer, a
    // full disk): its node count may be cut too, so it is refused rather than
    // read as a mismatch.
    let tail = &data[data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)..];
    let tail_text = String::from_utf8_lossy(tail);
    if !tail_text.trim().is_empty() && !tail_text.trim_start().starts_with('#') {
        let line = data.iter().filter(|&&b| b == b'\n').count() + 1;
        bail!("{file}: line {line}: the last row has no newline (a cut-off file?); end the file with a newline");
    }
    let lines = Lines::new(&data);
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(data.as_slice());
    let header = csv
        .headers()
        .map_err(|e| csv_error(path, &lines, e))?
        .clone();
    if header.is_empty() {
        bail!("{file}: empty file (expected a header variant,fen,depth,nodes)");
    }
    let mut index = [0usize; 4];
    for (slot, name) in index.iter_mut().zip(COLUMNS) {
        *slot = header
            .iter()
            .position(|h| h.trim().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                anyhow!(
                    "{file}: line 1: header has no \"{name}\" column (expected variant,fen,depth,nodes)"
                )
            })?;
    }
    let mut rows = Vec::new();
    for record in csv.records() {
        let record = record.map_err(|e| csv_error(path, &lines, e))?;
        let line = record.position().map_or(0, |p| lines.line(p.byte()));
        let field = |i: usize| {
            record.get(index[i]).ok_or_else(|| {
                anyhow!(
                    "{file}: line {line}: expected {} fields (variant,fen,depth,nodes), found {}",
                    header.len(),
                    record.len()
                )
            })
        };
        let (variant_text, fen_text, depth_text, nodes_text) =
            (field(0)?, field(1)?, field(2)?, field(3)?);
        let kind: movegen::VariantKind = variant_text
            .parse()
            .map_err(|e| anyhow!("{file}: line {line}: {e}"))?;
        let position = VariantGame::from_fen(kind, fen_text.trim())
            .map_err(|e| anyhow!("{file}: line {line}: invalid FEN \"{fen_text}\": {e}"))?;
        let depth: u32 = depth_text.trim().parse().map_err(|_| {
            anyhow!(
                "{file}: line {line}: invalid depth \"{depth_text}\" (expected 1 to {MAX_DEPTH})"
            )
        })?;
        if depth == 0 || depth > MAX_DEPTH {
            bail!("{file}: line {line}: depth {depth} out of range (expected 1 to {MAX_DEPTH})");
        }
        let expected: u64 = nodes_text
            .trim()
            .parse()
            .map_err(|_| anyhow!("{file}: line {line}: invalid node count \"{nodes_text}\""))?;
        rows.push(Row {
            line,
            variant_text: variant_text.to_string(),
            fen_text: fen_text.to_string(),
            position,
            depth,
            expected,
        });
    }
    if rows.is_empty() {
        bail!("{file}: no rows after the header");
    }
    Ok(rows)
}

/// A row of `--out`.
#[derive(serde::Serialize)]
struct OutRow<'a> {
    variant: &'a str,
    fen: &'a str,
    depth: u32,
    nodes: u64,
    expected: u64,
    ok: bool,
}

/// The `--out` CSV of a suite run, header written.
type OutWriter = csv::Writer<BufWriter<File>>;

/// Runs every row on the pool, writes `--out` in input order as rows finish,
/// prints the mismatches, the divide of the first one, and a summary.
/// Exit code 1 if any row differs.
pub fn run(
    path: &Path,
    rows: &[Row],
    out: Option<&Path>,
    settings: &Settings,
) -> anyhow::Result<ExitCode> {
    let mut writer = match out {
        None => None,
        Some(p) => {
            let f = File::create(p)
                .with_context(|| format!("cannot write output file {}", p.display()))?;
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(BufWriter::new(f));
            w.write_record(["variant", "fen", "depth", "nodes", "expected", "ok"])?;
            Some(w)
        }
    };
    let start = Instant::now();
    let (got, write_error) = count_rows(rows, writer.as_mut(), settings);
    let seconds = start.elapsed().as_secs_f64();
    if let (Some(e), Some(p)) = (write_error, out) {
        return Err(e.context(format!("cannot write output file {}", p.display())));
    }
    if let (Some(mut w), Some(p)) = (writer, out) {
        w.flush()
            .with_context(|| format!("cannot write output file {}", p.display()))?;
    }
    report(path, rows, &got, seconds, settings)
}

/// Counts every row on the pool, writing the finished prefix of `writer`
/// in input order as rows finish. Returns each row's count and the first
/// write error (counting goes on after one; the file is then not written).
fn count_rows(
    rows: &[Row],
    mut writer: Option<&mut OutWriter>,
    settings: &Settings,
) -> (Vec<Option<u64>>, Option<anyhow::Error>) {
    let total_expected = rows.iter().fold(0u64, |s, r| s.saturating_add(r.expected));
    let progress = settings.progress(
        total_expected,
        Units::Percent,
        format!("0/{} rows", rows.len()),
    );
    let mut got: Vec<Option<u64>> = vec![None; rows.len()];
    let mut write_error: Option<anyhow::Error> = None;
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, u64)>();
        s.spawn(move || {
            use rayon::prelude::*;
            settings.pool.install(|| {
                rows.par_iter()
                    .enumerate()
                    .with_max_len(1)
                    .for_each_with(tx, |tx, (i, row)| {
                        let n = with_position!(&row.position, V, pos => movegen::perft(&pos, row.depth));
                        // The receiver only goes away if this thread's
                        // scope is unwinding; nothing left to report to.
                        let _ = tx.send((i, n));
                    });
            });
        });
        let mut done = 0usize;
        let mut next = 0usize;
        for (i, n) in rx {
            got[i] = Some(n);
            done += 1;
            progress.inc(rows[i].expected, n);
            progress.set_message(format!("{done}/{} rows", rows.len()));
            if let (Some(w), None) = (writer.as_deref_mut(), write_error.as_ref()) {
                if let Err(e) = write_prefix(w, rows, &got, &mut next) {
                    write_error = Some(e);
                }
            }
        }
    });
    progress.finish();
    (got, write_error)
}

/// Writes the rows from `next` on that have a count, in input order, and
/// flushes.
fn write_prefix(
    w: &mut OutWriter,
    rows: &[Row],
    got: &[Option<u64>],
    next: &mut usize,
) -> anyhow::Result<()> {
    while let Some(Some(n)) = got.get(*next) {
        let r = &rows[*next];
        w.serialize(OutRow {
            variant: &r.variant_text,
            fen: &r.fen_text,
            depth: r.depth,
            nodes: *n,
            expected: r.expected,
            ok: *n == r.expected,
        })?;
        *next += 1;
    }
    Ok(w.flush()?)
}

/// Prints the mismatches, the divide of the first one and the summary;
/// exit code 1 if any row differs.
fn report(
    path: &Path,
    rows: &[Row],
    got: &[Option<u64>],
    seconds: f64,
    settings: &Settings,
) -> anyhow::Result<ExitCode> {
    let stdout = std::io::stdout();
    let mut o = stdout.lock();
    let mut failed = Vec::new();
    let mut nodes = 0u64;
    for (row, n) in rows.iter().zip(got) {
        // Every row was sent unless a worker panicked, which aborts anyway.
        let n = n.unwrap_or(0);
        nodes = nodes.saturating_add(n);
        if n != row.expected {
            failed.push((row, n));
        }
    }
    for (row, n) in &failed {
        writeln!(
            o,
            "FAIL line {}: {} {} depth {}: got {}, expected {}",
            row.line,
            row.position.kind(),
            row.fen_text.trim(),
            row.depth,
            n,
            row.expected
        )?;
    }
    if let Some((row, _)) = failed.first() {
        writeln!(o)?;
        writeln!(
            o,
            "divide of line {} ({} {}) at depth {}:",
            row.line,
            row.position.kind(),
            row.fen_text.trim(),
            row.depth
        )?;
        let moves = divide(&row.position, row.depth, settings);
        let w = moves.iter().map(|(m, _)| m.len()).max().unwrap_or(0);
        for (m, n) in &moves {
            writeln!(o, "{m:<w$}  {n}")?;
        }
        if moves.is_empty() {
            writeln!(o, "(no legal moves)")?;
        }
        writeln!(o)?;
    }
    let passed = rows.len() - failed.len();
    writeln!(o, "suite   {}", path.display())?;
    writeln!(o, "rows    {}", rows.len())?;
    writeln!(o, "passed  {passed}")?;
    writeln!(o, "failed  {}", failed.len())?;
    writeln!(o, "nodes   {nodes}")?;
    writeln!(
        o,
        "time    {seconds:.3} s ({} nodes/s)",
        super::report::human_nps(nodes, seconds)
    )?;
    o.flush()?;
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Parallel divide of `game`'s position on the settings' pool, sorted by
/// UCI move (for the first failing row).
fn divide(game: &VariantGame, depth: u32, settings: &Settings) -> Vec<(String, u64)> {
    let hidden = Progress::hidden();
    with_position!(game, V, pos => sorted_uci(perft_divide_parallel(
        &pos,
        depth,
        settings.workers(&hidden),
    )))
}
