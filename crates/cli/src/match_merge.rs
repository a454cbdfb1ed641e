//! `varia match-merge`: the per-game CSVs of a match played in shards
//! (`varia match --shard I/N`) combined into one summary. Game numbers are
//! the schedule's, so the shards of one match never share one: a number
//! seen twice is an error (two shards run with the same index, or a file
//! given twice); numbers missing below the largest are reported. Every
//! file's header must name the same match (all settings but the shard),
//! and every row's checksum must match ([`arena::record`]): an edited row
//! is an error naming its file and line. `--plot` draws the merged games
//! as one match ([`crate::match_plot`]).

use anyhow::{anyhow, bail};
use arena::results::{read_games_file, summarize, write_games, write_summary, GameRow};
use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `varia match-merge`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_help = "\
Examples:
  varia match-merge part1.csv part2.csv part3.csv
  varia match-merge parts/*.csv --summary summary.csv --out all-games.csv --plot elo.svg")]
pub struct Args {
    /// Per-game CSV files (`varia match --out`), one per shard.
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,

    /// Summary CSV, one row per pairing.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,

    /// All games in one per-game CSV, in game order.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// SVG plot of each pairing's Elo with its 95% interval over the games,
    /// in game order.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,

    /// The number of games the whole match has (reports games missing
    /// beyond the largest game number found too).
    #[arg(long, value_name = "N")]
    pub games: Option<usize>,
}

/// `1-3, 7, 9-12`.
fn ranges(numbers: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            numbers[i].to_string()
        } else {
            format!("{}-{}", numbers[i], numbers[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}

/// Runs `varia match-merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout();
    let mut by_game: BTreeMap<usize, (GameRow, usize)> = BTreeMap::new();
    let mut duplicates: Vec<String> = Vec::new();
    let mut identity: Option<arena::RunIdentity> = None;
    for (f, path) in args.files.iter().enumerate() {
        let file = read_games_file(path)?;
        match &identity {
            None => identity = Some(file.identity.clone()),
            Some(first) => {
                if let Some(d) = first.first_difference(&file.identity, &["shard"]) {
                    bail!(
                        "files of different matches: {} has {} {}, {} has {}",
                        args.files[0].display(),
                        d.field,
                        d.ours,
                        path.display(),
                        d.theirs
                    );
                }
            }
        }
        for row in file.rows {
            if let Some((_, first)) = by_game.get(&row.game) {
                if duplicates.len() < 5 {
                    duplicates.push(format!(
                        "game {} in {} and {}",
                        row.game,
                        args.files[*first].display(),
                        path.display()
                    ));
                }
                continue;
            }
            by_game.insert(row.game, (row, f));
        }
    }
    if !duplicates.is_empty() {
        bail!("duplicate game numbers: {}", duplicates.join("; "));
    }
    let rows: Vec<GameRow> = by_game.into_values().map(|(r, _)| r).collect();
    let Some(first) = rows.first() else {
        bail!("no games in {} file(s)", args.files.len());
    };
    let variant = first.variant.clone();
    if let Some(r) = rows.iter().find(|r| r.variant != variant) {
        bail!(
            "games of different variants: game {} is {}, game {} is {}",
            first.game,
            variant,
            r.game,
            r.variant
        );
    }
    // Player order of the schedule: as the names first appear in game order.
    let mut order: Vec<String> = Vec::new();
    for r in &rows {
        for n in [&r.white, &r.black] {
            if !order.contains(n) {
                order.push(n.clone());
            }
        }
    }
    let last = rows
        .last()
        .map_or(0, |r| r.game)
        .max(args.games.unwrap_or(0));
    let present: std::collections::HashSet<usize> = rows.iter().map(|r| r.game).collect();
    let missing: Vec<usize> = (1..=last).filter(|g| !present.contains(g)).collect();
    if let Some(n) = args.games {
        if let Some(r) = rows.iter().find(|r| r.game > n) {
            bail!("game {} is beyond --games {n}", r.game);
        }
    }

    let stats = summarize(&rows, &order);
    if let Some(path) = &args.summary {
        write_summary(path, &variant, &stats).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    }
    if let Some(path) = &args.out {
        let mut whole = identity.unwrap_or_default();
        whole.set("shard", "all");
        write_games(path, &whole, &rows)?;
    }
    if let Some(path) = &args.plot {
        let mut plot = arena::plot::MatchPlot::new(&order, None);
        for r in &rows {
            plot.add(r);
        }
        let title = format!(
            "{variant}: {} games from {} file(s)",
            rows.len(),
            args.files.len()
        );
        crate::match_plot::write_plot(path, &plot, &title)?;
    }
    writeln!(
        stdout,
        "{variant}: {} games from {} file(s)",
        rows.len(),
        args.files.len()
    )?;
    for s in &stats {
        writeln!(stdout, "{}", s.line())?;
    }
    if !missing.is_empty() {
        eprintln!(
            "warning: {} game(s) missing: {}",
            missing.len(),
            ranges(&missing)
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn ranges_compress_runs() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1-3, 7, 9-10");
        assert_eq!(ranges(&[]), "");
    }
}
