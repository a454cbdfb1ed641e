//! arena's external players against the fake engines of this crate
//! (`fake-engine uci|xboard`, built by cargo before these tests): legal play
//! over UCI and CECP, and the failures a match must survive — a crash (that
//! game lost, the engine restarted, the other games played), a hang (lost on
//! time without stalling the match), an illegal move, a rejected move, a
//! resignation, a result claimed instead of a move. They live here rather
//! than in `crates/arena/tests` because only a package's own integration
//! tests get its binaries' paths (`CARGO_BIN_EXE_fake-engine`).

use arena::external::ExternalConfig;
use arena::results::GameRow;
use arena::{
    Adjudication, EngineConfig, EngineKind, MatchConfig, MoveLimits, Opening, Player, PlayerError,
    TimeControl,
};
use movegen::VariantKind;
use std::path::Path;
use std::time::{Duration, Instant};

/// The fake engine `fake-engine PROTO ARGS` (PROTO `uci` or `xboard`, its
/// mode argument too) as a player.
fn fake(name: &str, proto: &str, args: &str, limits: MoveLimits) -> EngineConfig {
    let mut engine = EngineConfig {
        name: name.to_string(),
        limits,
        kind: EngineKind::External(ExternalConfig::new(env!("CARGO_BIN_EXE_fake-engine"))),
    };
    set(&mut engine, "args", &format!("{proto} {args}"));
    set(&mut engine, "proto", proto);
    set(&mut engine, "timeout", "20");
    engine
}

/// Applies an external engine's setting `key=value`.
fn set(engine: &mut EngineConfig, key: &str, value: &str) {
    let EngineKind::External(x) = &mut engine.kind else {
        panic!("{} is not external", engine.name)
    };
    assert_eq!(x.set(key, value), Ok(true), "{key}={value}");
}

fn tc(s: &str) -> MoveLimits {
    MoveLimits {
        tc: TimeControl::parse(s),
        ..MoveLimits::default()
    }
}

fn varia() -> EngineConfig {
    let limits = MoveLimits {
        depth: Some(1),
        ..MoveLimits::default()
    };
    EngineConfig::in_process("varia", limits)
}

fn factory(engine: &EngineConfig) -> Result<Box<dyn Player>, PlayerError> {
    engine.start_for(VariantKind::Chess)
}

/// Plays `games` games of `engine` against varia and returns the rows.
fn play(engine: EngineConfig, games: usize, opening: Opening) -> Vec<GameRow> {
    let mut cfg = MatchConfig::new(VariantKind::Chess, vec![engine, varia()], vec![opening]);
    cfg.schedule.games = Some(games);
    cfg.schedule.seed = 7;
    cfg.adjudication = Adjudication {
        max_plies: 16,
        ..Adjudication::default()
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

/// Two games against a fake speaking `proto` that misbehaves once, by
/// `fault` (`--once` with the file `marker` in `dir`), in game 1, where it
/// plays White: it loses that game, ended by `termination`, and plays the
/// second one cleanly.
fn loses_the_faulty_game(dir: &Path, proto: &str, fault: &str, marker: &str, termination: &str) {
    let args = format!("{fault} --once {}", dir.join(marker).display());
    let rows = play(fake("fake", proto, &args, tc("30+0.1")), 2, start());
    assert_eq!(rows[0].termination, termination, "{fault}: {rows:?}");
    assert_eq!(fake_score(&rows[0], "fake"), 0.0, "{fault}");
    assert_clean(&rows[1..]);
}

/// A plain fake speaking `proto` plays two clean games from the start under
/// a clock; then, started with `args`, two from 1. e4 e5 and `moves` (a
/// position that is not the start) under a `depth` limit.
fn plays_legal_games(proto: &str, args: &str, moves: &[&str], depth: u32) {
    assert_clean(&play(fake("fake", proto, "", tc("30+0.1")), 2, start()));
    let opening = Opening {
        fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
    };
    let limits = MoveLimits {
        depth: Some(depth),
        ..MoveLimits::default()
    };
    assert_clean(&play(fake("fake", proto, args, limits), 2, opening));
}

#[test]
fn uci_engine_plays_legal_games() {
    // A non-start opening goes as `position fen ... moves ...`.
    plays_legal_games("uci", "", &["g1f3", "b8c6"], 3);
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
    set(&mut spec, "margin", "0.3");
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
    set(&mut spec, "timeout", "1");
    let t0 = Instant::now();
    let rows = play(spec, 2, start());
    assert_eq!(rows[0].termination, "time", "{rows:?}");
    assert_clean(&rows[1..]);
    assert!(t0.elapsed() < Duration::from_secs(30));
}

#[test]
fn illegal_move_loses() {
    let dir = tempfile::tempdir().unwrap();
    loses_the_faulty_game(
        dir.path(),
        "uci",
        "--illegal-at 2",
        "illegal",
        "illegal_move",
    );
}

#[test]
fn cecp_engine_plays_legal_games() {
    // SAN replies, `My move is:`, bare moves, features after `done=0`, and a
    // position sent with `setboard`, under a depth limit.
    let args = "--san --my-move-is --no-usermove --slow-features 0.3";
    plays_legal_games("xboard", args, &["g1f3"], 2);
}

#[test]
fn cecp_resignation_and_rejected_moves() {
    let dir = tempfile::tempdir().unwrap();
    // A result claimed instead of a move: its own loss is a resignation,
    // anything else a protocol error (the fake plays White in game 1).
    for (fault, marker, termination) in [
        ("--resign-at 2", "resigned", "adjudication"),
        ("--claim-at 2 0-1", "claimed-loss", "adjudication"),
        ("--claim-at 2 1-0", "claimed-win", "crash"),
        ("--reject-at 2", "rejected", "crash"),
    ] {
        loses_the_faulty_game(dir.path(), "xboard", fault, marker, termination);
    }
}

#[test]
fn setup_errors_are_one_line() {
    // Settings are parsed as on the command line (with a clock added).
    let spec = |settings: &[(&str, &str)]| -> Result<EngineConfig, String> {
        let mut all = vec![("tc".to_string(), "1+0".to_string())];
        all.extend(settings.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        EngineConfig::parse("e", &all).map_err(|e| e.to_string())
    };
    let err = |s: Result<EngineConfig, String>, v: VariantKind| {
        let e = match s.map(|s| s.start_for(v)) {
            Ok(Ok(_)) => panic!("started"),
            Ok(Err(e)) => e.to_string(),
            Err(e) => e,
        };
        assert!(!e.contains('\n'), "{e}");
        e
    };
    let ch = VariantKind::Chess;
    assert!(err(spec(&[("cmd", "")]), ch).contains("cmd="));
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
    let e = err(Ok(uci.clone()), VariantKind::Atomic);
    assert!(e.contains("does not play atomic"), "{e}");
    let mut with_opt = uci.clone();
    set(&mut with_opt, "option.NoSuch", "1");
    assert!(err(Ok(with_opt), ch).contains("NoSuch"));
    let mut with_hash = uci;
    set(&mut with_hash, "option.hash", "8");
    assert!(with_hash.start_for(ch).is_ok());
    let cecp = fake("e", "xboard", "", tc("1+0"));
    let e = err(Ok(cecp.clone()), VariantKind::Suicide);
    assert!(e.contains("does not play giveaway"), "{e}");
    let mut with_opt = cecp;
    set(&mut with_opt, "option.Style", "Wild");
    set(&mut with_opt, "option.Hash", "8");
    set(&mut with_opt, "option.Threads", "2");
    assert!(with_opt.start_for(ch).is_ok());
}
