//! Output files (`--out FILE`) that are complete or absent: the content is
//! written to `FILE.tmp` next to the target, synced, and renamed over it, so a
//! killed or failing run never leaves a half-written file behind, and a failed
//! write removes its temp file.
//!
//! Renaming replaces whatever the name points at, so it is used only where
//! that is a regular file or nothing yet. A symlink, device (`/dev/null`,
//! `/dev/stdout`) or FIFO is written through instead: the target keeps being
//! what it was (renaming over `/dev/null` as root would destroy it).

use anyhow::Context as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `path` with `write`: atomically (temp file and rename) when `path`
/// is a regular file or does not exist, else straight through the existing
/// name. Errors name the file.
pub fn write_output_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let replaceable = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta.file_type().is_file(),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    };
    let result = if replaceable {
        write_via_temp(path, write)
    } else {
        write_through(path, write)
    };
    result.with_context(|| format!("cannot write output file {}", path.display()))
}

/// Writes `path`'s existing file, device or symlink target in place.
fn write_through(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut f = BufWriter::new(File::create(path)?);
    write(&mut f)?;
    f.flush()?;
    Ok(())
}

/// Writes `path.tmp`, syncs it and renames it to `path`; removes the temp
/// file when any step fails.
fn write_via_temp(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    let tmp = PathBuf::from(name);
    let attempt = || -> anyhow::Result<()> {
        let mut f = BufWriter::new(File::create(&tmp)?);
        write(&mut f)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    };
    let result = attempt();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_neither_target_nor_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("part.csv");
        // As a full disk would: part of the content, then an error.
        let failed = write_output_file(&target, |w| {
            w.write_all(b"# varia perft part\n")?;
            Err(std::io::Error::from(std::io::ErrorKind::StorageFull).into())
        });
        let e = failed.unwrap_err();
        assert!(
            format!("{e:#}").contains("cannot write output file"),
            "{e:#}"
        );
        assert!(!target.exists());
        assert!(
            !dir.path().join("part.csv.tmp").exists(),
            "temp file left behind"
        );
        write_output_file(&target, |w| Ok(w.write_all(b"done\n")?)).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "done\n");
        assert!(!dir.path().join("part.csv.tmp").exists());
    }
}
