//! Data generation: resumable, deterministic self-play in the three formats,
//! shards, the filters, extraction from match games, and position-file errors.

use arena::{Adjudication, EngineConfig, InProcess, MatchConfig, MoveLimits, Player, PlayerError};
use movegen::variants::{Chess, Suicide};
use movegen::{Position, VariantKind};
use search::Evaluator;
use std::path::Path;
use tune::datafile::{progress_path, Format};
use tune::datagen::{from_games, run, DatagenConfig, PlyRange, SearchLimit, WinRule};
use tune::packed::{PackedPosition, PackedReader};

fn cfg(games: usize, threads: usize) -> DatagenConfig {
    DatagenConfig {
        variant: VariantKind::Suicide,
        games,
        limit: SearchLimit::Nodes(150),
        random_plies: PlyRange::exactly(6),
        max_plies: 200,
        seed: 5,
        threads,
        hash_mb: 1,
        book: Vec::new(),
        book_name: "none".into(),
        evaluator: None,
        format: Format::Csv,
        score_cap: 3000,
        win: Some(WinRule {
            score: 2500,
            plies: 4,
        }),
        shard: None,
    }
}

/// A chess run for the network formats.
fn net(format: Format, games: usize, threads: usize) -> DatagenConfig {
    DatagenConfig {
        variant: VariantKind::Chess,
        limit: SearchLimit::Nodes(120),
        random_plies: PlyRange { lo: 6, hi: 9 },
        max_plies: 160,
        score_cap: 600,
        format,
        ..cfg(games, threads)
    }
}

fn records(path: &Path) -> Vec<PackedPosition> {
    PackedReader::open(path)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn append(path: &Path, bytes: &[u8]) {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, bytes))
        .unwrap();
}

#[test]
fn csv_self_play_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.csv");
    let r = run(&cfg(6, 1), &one, &mut |_| {}).unwrap();
    assert_eq!((r.done, r.played), (6, 6));
    let whole = std::fs::read_to_string(&one).unwrap();
    // A plain CSV; the run's settings are beside it, with its progress.
    let progress = tune::datafile::progress_path(&one);
    let meta = std::fs::read_to_string(arena::record::meta_path(&progress)).unwrap();
    assert!(
        meta.starts_with("varia datagen progress v1\nvariant: suicide\nnodes: 150\nseed: 5\n"),
        "{meta}"
    );
    assert_eq!(whole.lines().next(), Some("fen,result"));
    assert!(!whole.contains('#'), "{whole}");
    let positions = tune::positions::parse::<Suicide>(&whole, "one.csv").unwrap();
    assert!(positions.len() > 30, "{}", positions.len());
    for (pos, r) in &positions {
        assert!(!pos.is_check() && !pos.has_capture());
        assert!([0.0, 0.5, 1.0].contains(r));
    }

    // Two steps, with a crash leaving half a block behind.
    let two = dir.path().join("two.csv");
    run(&cfg(3, 1), &two, &mut |_| {}).unwrap();
    append(&two, b"8/8/8/8/8/8/8/8 w - - 0 1,1\nrnbq");
    let r = run(&cfg(6, 1), &two, &mut |_| {}).unwrap();
    assert_eq!((r.done, r.played), (6, 3));
    assert_eq!(whole, std::fs::read_to_string(&two).unwrap());

    // More threads: the same games, written in the same order.
    let par = dir.path().join("par.csv");
    run(&cfg(6, 3), &par, &mut |_| {}).unwrap();
    assert_eq!(whole, std::fs::read_to_string(&par).unwrap());

    // Nothing left to do.
    assert_eq!(run(&cfg(6, 2), &one, &mut |_| {}).unwrap().played, 0);
    // Other settings are refused.
    let mut other = cfg(6, 1);
    other.limit = SearchLimit::Nodes(151);
    let e = run(&other, &one, &mut |_| {}).unwrap_err();
    assert!(
        e.to_string()
            .contains("belongs to another run: its nodes is 150, this run's is 151"),
        "{e}"
    );
}

#[test]
fn bin_is_the_same_bytes_at_any_thread_count_and_after_a_torn_tail() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.bin");
    let r = run(&net(Format::Bin, 6, 1), &one, &mut |_| {}).unwrap();
    assert_eq!((r.done, r.played), (6, 6));
    let whole = std::fs::read(&one).unwrap();
    assert_eq!(whole.len() as u64, 32 + 32 * r.positions);
    assert!(r.positions > 60, "{}", r.positions);

    let two = dir.path().join("two.bin");
    run(&net(Format::Bin, 6, 2), &two, &mut |_| {}).unwrap();
    assert_eq!(whole, std::fs::read(&two).unwrap(), "1 and 2 threads");

    // A run cut short, then killed while writing (a torn record): resumed.
    let cut = dir.path().join("cut.bin");
    let r3 = run(&net(Format::Bin, 3, 2), &cut, &mut |_| {}).unwrap();
    append(&cut, &[7u8; 45]);
    let r = run(&net(Format::Bin, 6, 1), &cut, &mut |_| {}).unwrap();
    assert_eq!(
        (r.done, r.played, r.file_positions),
        (6, 3, r3.positions + r.positions)
    );
    assert_eq!(whole, std::fs::read(&cut).unwrap(), "resumed");
    assert_eq!(
        run(&net(Format::Bin, 6, 2), &cut, &mut |_| {})
            .unwrap()
            .played,
        0
    );

    // Another setting is refused, naming it; so is data without progress,
    // or progress that counts more bytes than the data holds.
    let mut other = net(Format::Bin, 6, 1);
    other.score_cap = 700;
    let e = run(&other, &cut, &mut |_| {}).unwrap_err().to_string();
    assert!(e.contains("its score_cap is 600, this run's is 700"), "{e}");
    assert!(!e.contains('\n'));
    std::fs::remove_file(progress_path(&two)).unwrap();
    let e = run(&net(Format::Bin, 6, 1), &two, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains(".progress") && e.contains("does not"), "{e}");
    let f = std::fs::OpenOptions::new().write(true).open(&cut).unwrap();
    f.set_len(100).unwrap();
    let e = run(&net(Format::Bin, 6, 1), &cut, &mut |_| {})
        .unwrap_err()
        .to_string();
    assert!(e.contains("holds 100 bytes"), "{e}");
}

#[test]
fn positions_pass_the_filters_and_text_agrees_with_bin() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("c.bin");
    let text = dir.path().join("c.txt");
    run(&net(Format::Bin, 4, 2), &bin, &mut |_| {}).unwrap();
    run(&net(Format::Text, 4, 1), &text, &mut |_| {}).unwrap();
    let packed = records(&bin);
    let lines: Vec<String> = std::fs::read_to_string(&text)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(packed.len(), lines.len());
    for (p, line) in packed.iter().zip(&lines) {
        let pos: Position<Chess> = p.to_position().unwrap();
        assert!(!pos.is_check(), "{}", pos.fen());
        assert!(p.score().abs() <= 600);
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert_eq!(fields[0], pos.fen());
        let white: i32 = fields[1].parse().unwrap();
        let stm = i32::from(p.score());
        assert_eq!(white, if pos.turn().is_white() { stm } else { -stm });
        assert_eq!(fields[2], ["0.0", "0.5", "1.0"][usize::from(p.result())]);
    }

    // The moves chosen in the kept positions: neither captures nor promotions.
    let cfg = net(Format::Bin, 4, 1);
    let evaluator = Evaluator::default_for(VariantKind::Chess);
    let mut players = tune::datagen::self_play_players(&cfg, &evaluator);
    let mut replay = Vec::new();
    for id in 1..=4 {
        let g = tune::datagen::play_game::<Chess>(&cfg, id, &mut players).unwrap();
        assert_eq!(g.positions.len(), g.moves.len());
        for (p, &mv) in g.positions.iter().zip(&g.moves) {
            let pos: Position<Chess> = p.to_position().unwrap();
            assert!(!pos.is_capture(mv) && mv.promotion().is_none(), "{mv:?}");
            assert_eq!(p.result(), g.result);
        }
        replay.extend(g.positions);
    }
    assert_eq!(replay, packed, "the games played alone are the file's");
}

#[test]
fn shards_together_hold_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("all.bin");
    run(&net(Format::Bin, 5, 2), &whole, &mut |_| {}).unwrap();
    let mut parts = Vec::new();
    for i in 1..=2 {
        let mut c = net(Format::Bin, 5, 1);
        c.shard = Some((i, 2));
        let out = dir.path().join(format!("part{i}.bin"));
        let r = run(&c, &out, &mut |_| {}).unwrap();
        assert_eq!(r.total, [3, 2][i - 1]);
        parts.extend(records(&out));
    }
    let mut all = records(&whole);
    let key = |p: &PackedPosition| *p.as_bytes();
    all.sort_by_key(key);
    parts.sort_by_key(key);
    assert_eq!(all, parts);
}

#[test]
fn ply_ranges_parse() {
    assert_eq!("8-12".parse::<PlyRange>(), Ok(PlyRange { lo: 8, hi: 12 }));
    assert_eq!("8".parse::<PlyRange>(), Ok(PlyRange::exactly(8)));
    assert!("12-8"
        .parse::<PlyRange>()
        .unwrap_err()
        .contains("12 is more than 8"));
    assert!("x".parse::<PlyRange>().is_err());
    let counts: std::collections::HashSet<usize> = (1..200)
        .map(|id| tune::datagen::random_plies(PlyRange { lo: 8, hi: 12 }, 1, id))
        .collect();
    assert_eq!(counts, (8..=12).collect());
}

#[test]
fn positions_from_match_csv_and_pgn_agree() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    let pgn = dir.path().join("games.pgn");
    let limits = MoveLimits {
        nodes: Some(100),
        ..MoveLimits::default()
    };
    let openings: Vec<_> = (0..2)
        .map(|i| {
            tune::datagen::to_opening(
                &tune::datagen::make_opening::<Suicide>(&[], 4, 3, i, 0).unwrap(),
            )
        })
        .collect();
    let engines = vec![
        EngineConfig::in_process("a", limits),
        EngineConfig::in_process("b", limits),
    ];
    let mut mc = MatchConfig::new(VariantKind::Suicide, engines, openings);
    mc.schedule.games = Some(4);
    mc.adjudication = Adjudication {
        max_plies: 150,
        ..Adjudication::default()
    };
    mc.out = Some(csv.clone());
    mc.pgn = Some(pgn.clone());
    let factory = |s: &EngineConfig| -> Result<Box<dyn Player>, PlayerError> {
        Ok(Box::new(InProcess::with_evaluator(
            &s.name,
            Evaluator::default_for(VariantKind::Suicide),
            1,
        )))
    };
    arena::run(&mc, &factory, &mut |_| {}).unwrap();
    let (from_csv, skipped) = from_games(&csv, VariantKind::Suicide, 0).unwrap();
    assert_eq!((from_csv.len(), skipped), (4, 0));
    // PGN movetext includes the 4 opening plies: skip them.
    let (from_pgn, _) = from_games(&pgn, VariantKind::Suicide, 4).unwrap();
    assert_eq!(from_pgn.len(), 4);
    for (a, b) in from_csv.iter().zip(&from_pgn) {
        assert_eq!(a.fens, b.fens);
        assert_eq!(a.result, b.result);
        assert!(!a.fens.is_empty());
    }
    let out = dir.path().join("pos.csv");
    let n = tune::datagen::write_games(&out, &from_csv, "test").unwrap();
    let back = tune::positions::read::<Suicide>(&out).unwrap();
    assert_eq!(back.len() as u64, n);
    // Rows of another game are skipped.
    let (none, skipped) = from_games(&csv, VariantKind::Chess, 0).unwrap();
    assert_eq!((none.len(), skipped), (0, 4));
    // Compressed as the repository keeps its games (`gzip games.csv` leaves
    // the sidecar `games.csv.meta`), both read to the same positions.
    for (plain, skip) in [(&csv, 0), (&pgn, 4)] {
        let gz = plain.with_extension(format!(
            "{}.gz",
            plain.extension().unwrap().to_str().unwrap()
        ));
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        std::io::Write::write_all(&mut enc, &std::fs::read(plain).unwrap()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let (from_gz, skipped) = from_games(&gz, VariantKind::Suicide, skip).unwrap();
        assert_eq!(skipped, 0, "{}", gz.display());
        assert_eq!(from_gz.len(), 4, "{}", gz.display());
        for (a, b) in from_gz.iter().zip(&from_csv) {
            assert_eq!((&a.fens, a.result), (&b.fens, b.result));
        }
    }
}

#[test]
fn bad_position_lines_name_file_and_line() {
    let text = "fen,result\n# comment\n8/8/8/8/8/8/8/8 w - - 0 1,1\nnot a fen,0\n";
    let e = tune::positions::parse::<Suicide>(text, "p.csv").unwrap_err();
    assert!(e.to_string().starts_with("p.csv:4: bad FEN"), "{e}");
    let e =
        tune::positions::parse::<Suicide>("8/8/8/8/8/8/8/8 w - - 0 1,2\n", "p.csv").unwrap_err();
    assert_eq!(
        e.to_string(),
        "p.csv:1: bad result \"2\" (expected 1, 0.5, 0 or a score between 0 and 1)"
    );
    let e = tune::positions::parse::<Suicide>("nocomma\n", "p.csv").unwrap_err();
    assert!(e.to_string().contains("p.csv:1: expected"), "{e}");
    assert!(tune::select_weights("material,nonsense").is_err());
    assert_eq!(
        tune::select_weights("material.queen,tempo").unwrap().len(),
        2
    );
}
