//! arena's external players against the fake engines of this crate
//! (`fake-engine uci|xboard`, built by cargo before these tests): legal play
//! over UCI and CECP, and the failures a match must survive — a crash (that
//! game lost, the engine restarted, the other games played), a hang (lost on
//! time without stalling the match), an illegal move, a rejected move, a
//! resignation, a result claimed instead of a move. They live here rather
//! than in `crates/arena/tests` because only a package's own integration
//! tests get its binaries' paths (`CARGO_BIN_EXE_fake-engine`).

use arena::results::GameRow;
use arena::{
    external, Adjudication, EngineSpec, Format, InProcess, MatchConfig, MoveLimits, Opening,
    Player, ScheduleSpec, TimeControl,
};
use movegen::VariantKind;
use std::time::{Duration, Instant};

/// The fake engine `fake-engine PROTO ARGS` (PROTO `uci` or `xboard`, its
/// mode argument too) as a player.
fn fake(name: &str, proto: &str, args: &str, limits: MoveLimits) -> EngineSpec {
    EngineSpec {
        name: name.to_string(),
        limits,
        settings: vec![
            ("cmd".into(), env!("CARGO_BIN_EXE_fake-engine").into()),
            ("args".into(), format!("{proto} {args}")),
            ("proto".into(), proto.into()),
            ("timeout".into(), "20".into()),
        ],
    }
}

fn tc(s: &str) -> MoveLimits {
    MoveLimits {
        tc: TimeControl::parse(s),
        ..MoveLimits::default()
    }
}

fn varia() -> EngineSpec {
    EngineSpec {
        name: "varia".into(),
        limits: MoveLimits {
            depth: Some(1),
            ..MoveLimits::default()
        },
        settings: Vec::new(),
    }
}

fn factory(spec: &EngineSpec) -> Result<Box<dyn Player>, String> {
    if external::is_external(spec) {
        external::spawn_for(spec, VariantKind::Chess)
    } else {
        Ok(Box::new(InProcess::new(&spec.name, None, 1, 1)))
    }
}

/// Plays `games` games of `engine` against varia and returns the rows.
fn play(engine: EngineSpec, games: usize, opening: Opening) -> Vec<GameRow> {
    let cfg = MatchConfig {
        variant: VariantKind::Chess,
        engines: vec![engine, varia()],
        schedule: ScheduleSpec {
            players: 2,
            games: Some(games),
            rounds: 1,
            repeat: true,
            format: Format::RoundRobin,
            openings: 1,
            random_openings: false,
            seed: 7,
        },
        openings: vec![opening],
        concurrency: 1,
        adjudication: Adjudication {
            max_plies: 16,
            ..Adjudication::default()
        },
        out: None,
        pgn: None,
        pgn_variant_names: movegen::PgnVariantNames::Lichess,
        summary: None,
        resume: false,
        sprt: None,
        shard: None,
    };
    let mut rows = Vec::new();
    let report = arena::run(&cfg, &factory, &mut |p| {
        if let Some(r) = p.last {
            rows.push(r.clone());
        }
    })
    .unwrap();
    assert_eq!(report.played, games);
    rows.sort_by_key(|r| r.game);
    rows
}

fn start() -> Opening {
    Opening::start(VariantKind::Chess)
}

/// The fake engine's score in a game: 1, 0.5 or 0.
fn fake_score(r: &GameRow, fake: &str) -> f64 {
    let white = match r.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        _ => 0.5,
    };
    if r.white == fake {
        white
    } else {
        1.0 - white
    }
}

fn assert_clean(rows: &[GameRow]) {
    for r in rows {
        assert!(
            !["crash", "time", "illegal_move"].contains(&r.termination.as_str()),
            "game {} ended by {}: {}",
            r.game,
            r.termination,
            r.moves
        );
        assert!(r.plies > 0);
    }
}

#[test]
fn uci_engine_plays_legal_games() {
    let rows = play(fake("fake", "uci", "", tc("30+0.1")), 2, start());
    assert_clean(&rows);
    // A non-start opening goes as `position fen ... moves ...`.
    let opening = Opening {
        fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into(),
        moves: vec!["g1f3".into(), "b8c6".into()],
    };
    let limits = MoveLimits {
        depth: Some(3),
        ..MoveLimits::default()
    };
    assert_clean(&play(fake("fake", "uci", "", limits), 2, opening));
}

#[test]
fn crash_loses_that_game_and_the_engine_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("crashed");
    let args = format!("--crash-at 3 --once {}", marker.display());
    let rows = play(fake("fake", "uci", &args, tc("30+0.1")), 4, start());
    assert!(marker.exists());
    assert_eq!(rows.len(), 4);
    let crashed: Vec<&GameRow> = rows.iter().filter(|r| r.termination == "crash").collect();
    assert_eq!(crashed.len(), 1, "{rows:?}");
    assert_eq!(crashed[0].game, 1);
    assert_eq!(fake_score(crashed[0], "fake"), 0.0);
    // The restarted engine plays the remaining games normally.
    assert_clean(&rows[1..]);
}

#[test]
fn hang_loses_on_time_without_stalling_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("hung");
    let args = format!("--hang-at 2 --once {}", marker.display());
    let mut spec = fake("fake", "uci", &args, tc("1+0.05"));
    spec.settings.push(("margin".into(), "0.3".into()));
    let t0 = Instant::now();
    let rows = play(spec, 2, start());
    let hung = &rows[0];
    assert_eq!(hung.termination, "time", "{rows:?}");
    assert_eq!(fake_score(hung, "fake"), 0.0);
    assert_clean(&rows[1..]);
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
}

#[test]
fn hang_without_a_clock_waits_for_the_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("hung");
    let args = format!("--hang-at 1 --once {}", marker.display());
    let limits = MoveLimits {
        depth: Some(5),
        ..MoveLimits::default()
    };
    let mut spec = fake("fake", "uci", &args, limits);
    spec.settings.push(("timeout".into(), "1".into()));
    let t0 = Instant::now();
    let rows = play(spec, 2, start());
    assert_eq!(rows[0].termination, "time", "{rows:?}");
    assert_clean(&rows[1..]);
    assert!(t0.elapsed() < Duration::from_secs(30));
}

#[test]
fn illegal_move_loses() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("illegal");
    let args = format!("--illegal-at 2 --once {}", marker.display());
    let rows = play(fake("fake", "uci", &args, tc("30+0.1")), 2, start());
    assert_eq!(rows[0].termination, "illegal_move", "{rows:?}");
    assert_eq!(fake_score(&rows[0], "fake"), 0.0);
    assert_clean(&rows[1..]);
}

#[test]
fn cecp_engine_plays_legal_games() {
    let rows = play(fake("fake", "xboard", "", tc("30+0.1")), 2, start());
    assert_clean(&rows);
    // SAN replies, `My move is:`, bare moves, features after `done=0`, and a
    // position sent with `setboard`, under a depth limit.
    let opening = Opening {
        fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into(),
        moves: vec!["g1f3".into()],
    };
    let limits = MoveLimits {
        depth: Some(2),
        ..MoveLimits::default()
    };
    let args = "--san --my-move-is --no-usermove --slow-features 0.3";
    assert_clean(&play(fake("fake", "xboard", args, limits), 2, opening));
}

#[test]
fn cecp_resignation_and_rejected_moves() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("resigned");
    let args = format!("--resign-at 2 --once {}", marker.display());
    let rows = play(fake("fake", "xboard", &args, tc("30+0.1")), 2, start());
    assert_eq!(rows[0].termination, "adjudication", "{rows:?}");
    assert_eq!(fake_score(&rows[0], "fake"), 0.0);
    assert_clean(&rows[1..]);

    // A result claimed instead of a move: its own loss is a resignation,
    // anything else a protocol error. The fake plays White in game 1.
    let marker = dir.path().join("claimed-loss");
    let args = format!("--claim-at 2 0-1 --once {}", marker.display());
    let rows = play(fake("fake", "xboard", &args, tc("30+0.1")), 2, start());
    assert_eq!(rows[0].termination, "adjudication", "{rows:?}");
    assert_eq!(fake_score(&rows[0], "fake"), 0.0);
    assert_clean(&rows[1..]);
    let marker = dir.path().join("claimed-win");
    let args = format!("--claim-at 2 1-0 --once {}", marker.display());
    let rows = play(fake("fake", "xboard", &args, tc("30+0.1")), 2, start());
    assert_eq!(rows[0].termination, "crash", "{rows:?}");
    assert_eq!(fake_score(&rows[0], "fake"), 0.0);
    assert_clean(&rows[1..]);

    let marker = dir.path().join("rejected");
    let args = format!("--reject-at 2 --once {}", marker.display());
    let rows = play(fake("fake", "xboard", &args, tc("30+0.1")), 2, start());
    assert_eq!(rows[0].termination, "crash", "{rows:?}");
    assert_eq!(fake_score(&rows[0], "fake"), 0.0);
    assert_clean(&rows[1..]);
}

#[test]
fn setup_errors_are_one_line() {
    let spec = |settings: &[(&str, &str)]| EngineSpec {
        name: "e".into(),
        limits: tc("1+0"),
        settings: settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    };
    let err = |s: EngineSpec, v: VariantKind| match external::spawn_for(&s, v) {
        Ok(_) => panic!("{s:?} started"),
        Err(e) => {
            assert!(!e.contains('\n'), "{e}");
            e
        }
    };
    let ch = VariantKind::Chess;
    assert!(err(spec(&[]), ch).contains("cmd="));
    assert!(err(spec(&[("cmd", "/no/such/engine")]), ch).contains("cannot start"));
    // A program that never answers: the handshake times out.
    let t0 = Instant::now();
    let e = err(
        spec(&[("cmd", "sleep"), ("args", "20"), ("timeout", "0.5")]),
        ch,
    );
    assert!(e.contains("uciok"), "{e}");
    assert!(t0.elapsed() < Duration::from_secs(10));
    // A program that exits at once.
    let e = err(spec(&[("cmd", "true")]), ch);
    assert!(e.contains("exited"), "{e}");
    // Variants and options the engine does not have.
    let uci = fake("e", "uci", "", tc("1+0"));
    let e = err(uci.clone(), VariantKind::Atomic);
    assert!(e.contains("does not play atomic"), "{e}");
    let mut with_opt = uci.clone();
    with_opt.settings.push(("option.NoSuch".into(), "1".into()));
    assert!(err(with_opt, ch).contains("NoSuch"));
    let mut with_hash = uci;
    with_hash.settings.push(("option.hash".into(), "8".into()));
    assert!(external::spawn_for(&with_hash, ch).is_ok());
    let cecp = fake("e", "xboard", "", tc("1+0"));
    let e = err(cecp.clone(), VariantKind::Suicide);
    assert!(e.contains("does not play giveaway"), "{e}");
    let mut with_opt = cecp;
    with_opt
        .settings
        .push(("option.Style".into(), "Wild".into()));
    with_opt.settings.push(("option.Hash".into(), "8".into()));
    with_opt
        .settings
        .push(("option.Threads".into(), "2".into()));
    assert!(external::spawn_for(&with_opt, ch).is_ok());
}
