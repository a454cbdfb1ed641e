//! Traces: one CSV row per iteration, `iteration,<metric>,<weight names...>`
//! (the metric is `loss` for Texel, `result` for SPSA; weight names come
//! from [`search::EvalParams::weight_name`]). Values are written in Rust's
//! shortest round-trip form, so a trace read back gives the exact `f64`s
//! written — which is what lets SPSA resume from its last row bit for bit.
//! Each row is flushed as it is written; a last line cut short by a crash is
//! ignored when reading and cut off when appending.

use crate::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One row.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceRow {
    /// Iteration (0: the starting point).
    pub iteration: usize,
    /// Loss or result.
    pub metric: f64,
    /// The weights after this iteration.
    pub values: Vec<f64>,
}

/// A whole trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Name of the metric column.
    pub metric: String,
    /// Weight names.
    pub names: Vec<String>,
    /// Rows in file order.
    pub rows: Vec<TraceRow>,
}

fn header(metric: &str, names: &[String]) -> String {
    let mut h = format!("iteration,{metric}");
    for n in names {
        h.push(',');
        h.push_str(n);
    }
    h
}

/// Reads a trace. Malformed lines are errors naming the file and line; an
/// unterminated last line is ignored. Returns the trace and the byte length
/// of its complete lines.
pub fn read_with_len(path: &Path) -> Result<(Trace, u64)> {
    let name = path.display().to_string();
    let text = search::input::read_to_string(path).map_err(|e| Error(format!("{name}: {e}")))?;
    let mut lines = text.split_inclusive('\n');
    let head = lines
        .next()
        .filter(|l| l.ends_with('\n'))
        .ok_or_else(|| Error(format!("{name}: empty trace")))?;
    let cols: Vec<&str> = head.trim_end().split(',').collect();
    if cols.len() < 2 || cols[0] != "iteration" {
        return Err(Error(format!(
            "{name}:1: not a trace (expected \"iteration,<metric>,<weights...>\")"
        )));
    }
    let mut trace = Trace {
        metric: cols[1].to_string(),
        names: cols[2..].iter().map(|s| s.to_string()).collect(),
        rows: Vec::new(),
    };
    let mut len = head.len() as u64;
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        if !line.ends_with('\n') {
            break;
        }
        let t = line.trim();
        if t.is_empty() {
            len += line.len() as u64;
            continue;
        }
        let fields: Vec<&str> = t.split(',').collect();
        if fields.len() != cols.len() {
            return Err(Error(format!(
                "{name}:{n}: {} fields, the header has {}",
                fields.len(),
                cols.len()
            )));
        }
        let num = |s: &str| -> Result<f64> {
            s.parse::<f64>()
                .map_err(|_| Error(format!("{name}:{n}: bad number \"{s}\"")))
        };
        let iteration = fields[0]
            .parse::<usize>()
            .map_err(|_| Error(format!("{name}:{n}: bad iteration \"{}\"", fields[0])))?;
        trace.rows.push(TraceRow {
            iteration,
            metric: num(fields[1])?,
            values: fields[2..].iter().map(|s| num(s)).collect::<Result<_>>()?,
        });
        len += line.len() as u64;
    }
    Ok((trace, len))
}

/// Reads a trace.
pub fn read(path: &Path) -> Result<Trace> {
    read_with_len(path).map(|t| t.0)
}

/// Appends rows to a trace file, flushing each.
pub struct TraceWriter {
    file: std::fs::File,
    path: PathBuf,
}

impl TraceWriter {
    /// Creates (or truncates) `path` and writes the header.
    pub fn create(path: &Path, metric: &str, names: &[String]) -> Result<TraceWriter> {
        let io = |e: std::io::Error| Error(format!("{}: {e}", path.display()));
        let mut file = std::fs::File::create(path).map_err(io)?;
        writeln!(file, "{}", header(metric, names)).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(TraceWriter {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Opens an existing trace to continue it: its columns must be
    /// `metric` and `names`. Returns the writer and the trace so far.
    pub fn resume(path: &Path, metric: &str, names: &[String]) -> Result<(TraceWriter, Trace)> {
        let io = |e: std::io::Error| Error(format!("{}: {e}", path.display()));
        let (trace, len) = read_with_len(path)?;
        if trace.metric != metric || trace.names != names {
            return Err(Error(format!(
                "{}: its columns are \"{}\", this run's are \"{}\" (other --params?)",
                path.display(),
                header(&trace.metric, &trace.names),
                header(metric, names)
            )));
        }
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io)?;
        file.set_len(len).map_err(io)?;
        drop(file);
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io)?;
        Ok((
            TraceWriter {
                file,
                path: path.to_path_buf(),
            },
            trace,
        ))
    }

    /// Appends a row and flushes.
    pub fn write(&mut self, row: &TraceRow) -> Result<()> {
        let mut s = format!("{},{}", row.iteration, row.metric);
        for v in &row.values {
            s.push(',');
            s.push_str(&v.to_string());
        }
        s.push('\n');
        self.file
            .write_all(s.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|e| Error(format!("{}: {e}", self.path.display())))
    }
}
