//! Data generation: resumable self-play, extraction from match games, and
//! position-file errors.

use arena::{Adjudication, EngineConfig, InProcess, MatchConfig, MoveLimits, Player, PlayerError};
use movegen::variants::Suicide;
use movegen::VariantKind;
use search::Evaluator;
use tune::datagen::{from_games, run, DatagenConfig};

fn cfg(games: usize, threads: usize) -> DatagenConfig {
    DatagenConfig {
        variant: VariantKind::Suicide,
        games,
        nodes: 150,
        random_plies: 6,
        max_plies: 200,
        seed: 5,
        threads,
        hash_mb: 1,
        book: Vec::new(),
        book_name: "none".into(),
        evaluator: None,
    }
}

fn blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    // The blocks after the header (settings lines, then `fen,result`).
    for line in text.lines().skip_while(|l| *l != "fen,result").skip(1) {
        cur.push_str(line);
        cur.push('\n');
        if line.starts_with("# game ") {
            out.push(std::mem::take(&mut cur));
        }
    }
    out.sort();
    out
}

#[test]
fn self_play_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.csv");
    let r = run(&cfg(6, 1), &one, &mut |_| {}).unwrap();
    assert_eq!((r.done, r.played), (6, 6));
    let whole = std::fs::read_to_string(&one).unwrap();
    assert!(
        whole.starts_with("# varia datagen v1\n# variant: suicide\n# nodes: 150\n# seed: 5\n"),
        "{whole}"
    );
    assert_eq!(
        whole.lines().find(|l| !l.starts_with('#')),
        Some("fen,result")
    );
    let positions = tune::positions::parse::<Suicide>(&whole, "one.csv").unwrap();
    assert!(positions.len() > 30, "{}", positions.len());
    for (pos, r) in &positions {
        assert!(!pos.is_check() && !pos.has_capture());
        assert!([0.0, 0.5, 1.0].contains(r));
    }

    // Two steps, with a crash leaving half a block behind.
    let two = dir.path().join("two.csv");
    run(&cfg(3, 1), &two, &mut |_| {}).unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&two)
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"8/8/8/8/8/8/8/8 w - - 0 1,1\nrnbq"))
        .unwrap();
    let r = run(&cfg(6, 1), &two, &mut |_| {}).unwrap();
    assert_eq!((r.done, r.played), (6, 3));
    assert_eq!(whole, std::fs::read_to_string(&two).unwrap());

    // More threads: the same games, in another order.
    let par = dir.path().join("par.csv");
    run(&cfg(6, 3), &par, &mut |_| {}).unwrap();
    assert_eq!(
        blocks(&whole),
        blocks(&std::fs::read_to_string(&par).unwrap())
    );

    // Nothing left to do.
    assert_eq!(run(&cfg(6, 2), &one, &mut |_| {}).unwrap().played, 0);
    // Other settings are refused.
    let mut other = cfg(6, 1);
    other.nodes = 151;
    let e = run(&other, &one, &mut |_| {}).unwrap_err();
    assert!(
        e.to_string()
            .contains("belongs to another run: its nodes is 150, this run's is 151"),
        "{e}"
    );
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
