//! Parameter files: the evaluation's weights ([`crate::EvalParams`]) and the
//! search's settings ([`crate::SearchParams`]) are both read from and written
//! to TOML files of one game, with the same refusals and the same one-line
//! messages (the file named first). This module is the one place that does
//! the file side of it (a bounded read, the TOML parse, the write) and
//! holds the one error type, so the two kinds of file cannot drift apart;
//! each kind keeps only what its keys mean (`from_toml`, `to_toml`).

use movegen::VariantKind;
use std::collections::BTreeMap;
use std::path::Path;

/// Errors reading or writing a parameter file (weights or search settings).
#[derive(Debug, thiserror::Error)]
pub enum ParamsError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// File.
        path: String,
        /// Cause.
        source: std::io::Error,
    },
    /// Not valid TOML.
    #[error("{path}: invalid TOML: {message}")]
    Toml {
        /// File.
        path: String,
        /// Parser message (its first line).
        message: String,
    },
    /// A key that the file's kind does not have, or a value it does not
    /// accept.
    #[error("{path}: {message}")]
    Content {
        /// File.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl ParamsError {
    /// A [`ParamsError::Content`] of the text named `origin`.
    pub(crate) fn content(origin: &str, message: impl std::fmt::Display) -> ParamsError {
        ParamsError::Content {
            path: origin.to_string(),
            message: message.to_string(),
        }
    }
}

/// The keys of the TOML `text` (named `origin` in errors).
pub(crate) fn parse_table(
    text: &str,
    origin: &str,
) -> Result<BTreeMap<String, toml::Value>, ParamsError> {
    toml::from_str(text).map_err(|e| ParamsError::Toml {
        path: origin.to_string(),
        message: e.to_string().lines().next().unwrap_or_default().to_string(),
    })
}

/// Reads the file `path` (bounded, [`crate::input`]) and parses it with
/// `parse(kind, text, origin)`, the kind's own reading.
pub(crate) fn load<T>(
    kind: VariantKind,
    path: &Path,
    parse: impl FnOnce(VariantKind, &str, &str) -> Result<T, ParamsError>,
) -> Result<T, ParamsError> {
    let origin = path.display().to_string();
    let text = crate::input::read_to_string(path).map_err(|source| ParamsError::Io {
        path: origin.clone(),
        source,
    })?;
    parse(kind, &text, &origin)
}

/// Writes `text` to the file `path`.
pub(crate) fn save(path: &Path, text: &str) -> Result<(), ParamsError> {
    std::fs::write(path, text).map_err(|source| ParamsError::Io {
        path: path.display().to_string(),
        source,
    })
}
