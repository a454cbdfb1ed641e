//! Traces: one CSV row per iteration, `iteration,<metric>,<weight names...>`
//! (the metric is `loss` for Texel, `result` for SPSA; weight names come
//! from [`search::EvalParams::weight_name`]). Values are written in Rust's
//! shortest round-trip form, so a trace read back gives the exact `f64`s
//! written — which is what lets SPSA resume from its last row bit for bit.
//!
//! A trace is an [`arena::record`] file (`varia tune trace v1`): the run's
//! settings in the sidecar `FILE.meta` (so `--resume` refuses a trace of
//! another run, naming the setting), locked for the run, a checksum as the last column of every row (an edited value is
//! an error naming its line), each row flushed as it is written, and a last
//! line cut short by a crash ignored when reading and cut off when
//! appending.

use crate::{Error, Result};
use arena::record::{AppendLog, Record, RecordFormat, RunIdentity};
use std::path::Path;

/// The trace file format.
pub const TRACE_FORMAT: RecordFormat = RecordFormat {
    kind: "varia tune trace",
    version: 1,
    checksum: true,
};

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

fn columns<'a>(metric: &'a str, names: &'a [String]) -> Vec<&'a str> {
    let mut c = vec!["iteration", metric];
    c.extend(names.iter().map(String::as_str));
    c
}

fn trace_of(record: &Record, name: &str) -> Result<Trace> {
    let cols = &record.columns;
    if cols.len() < 2 || cols[0] != "iteration" {
        return Err(Error::Line {
            file: name.to_string(),
            line: 1,
            message: "not a trace (expected the columns \"iteration,<metric>,<weights...>\")"
                .into(),
        });
    }
    let mut trace = Trace {
        metric: cols[1].to_string(),
        names: cols[2..].to_vec(),
        rows: Vec::new(),
    };
    for line in record.lines.iter().filter(|l| !l.comment) {
        let n = line.number;
        let fields: Vec<&str> = line.text.trim().split(',').collect();
        if fields.len() != cols.len() {
            return Err(Error::Line {
                file: name.to_string(),
                line: n,
                message: format!("{} fields, the header has {}", fields.len(), cols.len()),
            });
        }
        let bad = |what: &str, s: &str| Error::Line {
            file: name.to_string(),
            line: n,
            message: format!("bad {what} \"{s}\""),
        };
        let num = |s: &str| -> Result<f64> { s.parse::<f64>().map_err(|_| bad("number", s)) };
        let iteration = fields[0]
            .parse::<usize>()
            .map_err(|_| bad("iteration", fields[0]))?;
        trace.rows.push(TraceRow {
            iteration,
            metric: num(fields[1])?,
            values: fields[2..].iter().map(|s| num(s)).collect::<Result<_>>()?,
        });
    }
    Ok(trace)
}

/// Reads a trace. Malformed lines (and rows whose checksum does not
/// match) are errors naming the file and line; an unterminated last line is
/// ignored.
pub fn read(path: &Path) -> Result<Trace> {
    let name = path.display().to_string();
    let record = Record::read(path, &TRACE_FORMAT, &name)?;
    trace_of(&record, &name)
}

/// The trace at `path` as an append log of the run `identity` with the
/// columns `metric` and `names` (the one place `create` and `resume` open
/// it), and what it held; `name` is the file as errors name it.
fn open_log(
    path: &Path,
    metric: &str,
    names: &[String],
    identity: &RunIdentity,
    name: &str,
) -> Result<(AppendLog, Option<Record>)> {
    Ok(AppendLog::open(
        path,
        &TRACE_FORMAT,
        identity,
        &columns(metric, names),
        name,
    )?)
}

/// Appends rows to a trace file, flushing each.
#[derive(Debug)]
pub struct TraceWriter {
    log: AppendLog,
}

impl TraceWriter {
    /// Creates (or truncates) `path` and writes the header: the run's
    /// `identity` and the columns.
    pub fn create(
        path: &Path,
        metric: &str,
        names: &[String],
        identity: &RunIdentity,
    ) -> Result<TraceWriter> {
        let name = path.display().to_string();
        let log = AppendLog::create(
            path,
            &TRACE_FORMAT,
            identity,
            &columns(metric, names),
            &name,
        )?;
        Ok(TraceWriter { log })
    }

    /// Opens an existing trace to continue it: it must be of the run
    /// `identity`, with the columns `metric` and `names`. Returns the
    /// writer and the trace so far.
    pub fn resume(
        path: &Path,
        metric: &str,
        names: &[String],
        identity: &RunIdentity,
    ) -> Result<(TraceWriter, Trace)> {
        let name = path.display().to_string();
        let (log, record) = open_log(path, metric, names, identity, &name)?;
        let trace = match record {
            Some(r) => trace_of(&r, &name)?,
            None => Trace {
                metric: metric.to_string(),
                names: names.to_vec(),
                rows: Vec::new(),
            },
        };
        Ok((TraceWriter { log }, trace))
    }

    /// Appends a row and flushes.
    pub fn write(&mut self, row: &TraceRow) -> Result<()> {
        let mut s = format!("{},{}", row.iteration, row.metric);
        for v in &row.values {
            s.push(',');
            s.push_str(&v.to_string());
        }
        Ok(self.log.append(&s)?)
    }
}
