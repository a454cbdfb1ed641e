//! Tests of the search: each switch changes the tree only when on, the
//! tables learn what they should, the thread state follows the game.

use super::history::{
    correction_index, gravity, moved_piece_to, HistoryTables, CORRECTION_ENTRIES, CORRECTION_GRAIN,
    PIECE_TO,
};
use super::*;
use crate::evaluator::Evaluator;
use crate::limits::{Clock, Limits};
use crate::params::SearchParams;
use crate::score::{score_from_tt, INF};
use crate::tt::Bound;
use movegen::variants::{Chess, Suicide, ThreeCheck};
use movegen::{Color, Move, Position, Role, Variant};

/// The quiescence score of `fen` with `settings`.
fn quiesce<V: Variant>(fen: &str, settings: &SearchParams) -> i32 {
    let pos = Position::<V>::from_fen(fen).expect("valid FEN");
    let evaluator = Evaluator::default_for(V::KIND);
    let shared = Shared::new(1);
    let clock = Clock::start(&Limits::nodes(1_000_000), pos.turn(), 1, settings);
    let mut w = Worker::<V>::new(0, &shared, &evaluator, settings, &clock, &[]);
    w.quiesce(&pos, &mut NoObserver)
        .expect("within the node limit")
}

#[test]
fn quiescence_stores_its_result_and_answers_from_it_when_enabled() {
    // White's queen takes a defended knight or not: a few captures deep.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 2 3";
    let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let run = |qsearch_tt: i32| {
        // SEE pruning would skip the losing Qxf7+ and leave nothing to
        // search.
        let settings = SearchParams {
            qsearch_tt,
            see_qsearch_pruning: 0,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::nodes(1_000_000), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        let first = w.quiesce(&pos, &mut NoObserver).expect("within the limit");
        let first_nodes = w.nodes;
        let entry = shared.tt.probe(pos.key());
        let second = w.quiesce(&pos, &mut NoObserver).expect("within the limit");
        (first, first_nodes, entry, second, w.nodes - first_nodes)
    };
    let (score, nodes, entry, again, again_nodes) = run(1);
    let e = entry.expect("the root's result is stored");
    // A full window: the bound is exact, at quiescence's first-ply depth.
    assert_eq!((e.bound, e.depth, e.score), (Bound::Exact, 0, score));
    assert_eq!(e.eval, evaluator.evaluate(&pos));
    assert!(nodes > 1, "a capture to search");
    assert_eq!((again, again_nodes), (score, 1), "answered by the entry");
    // Off: the table stays empty and the score is the same here.
    let (off_score, off_nodes, off_entry, _, off_again) = run(0);
    assert_eq!(off_entry, None);
    assert_eq!(off_score, score);
    assert_eq!(off_again, off_nodes);
}

#[test]
fn forced_replies_are_searched_a_ply_deeper_only_when_enabled() {
    // White's only legal move is the forced exd3; in the second position
    // White has two (exd3, cxd3).
    let one = "k7/8/8/8/8/3p4/4P3/7K w - - 0 1";
    let two = "k7/8/8/8/8/3p4/2P1P3/7K w - - 0 1";
    let root_depth = |fen: &str, settings: &SearchParams| {
        let pos = Position::<Suicide>::from_fen(fen).expect("valid FEN");
        let evaluator = Evaluator::default_for(<Suicide>::KIND);
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(3), pos.turn(), 1, settings);
        let mut w = Worker::<Suicide>::new(0, &shared, &evaluator, settings, &clock, &[]);
        w.iterate(&pos, 3, &mut |_| {});
        shared
            .tt
            .probe(pos.key())
            .expect("the root is stored")
            .depth
    };
    let off = SearchParams::default();
    let single = SearchParams {
        single_reply_extension: 1,
        ..SearchParams::default()
    };
    assert_eq!(root_depth(one, &off), 3);
    assert_eq!(root_depth(one, &single), 4);
    assert_eq!(root_depth(two, &single), 3, "two replies: no single reply");
}

#[test]
fn the_null_move_of_the_forced_capture_games_changes_only_their_tree() {
    fn nodes<V: Variant>(fen: &str, nmp_forced_capture_games: i32) -> u64 {
        let pos = Position::<V>::from_fen(fen).expect("valid FEN");
        let evaluator = Evaluator::default_for(V::KIND);
        let settings = SearchParams {
            nmp_forced_capture_games,
            ..SearchParams::default_for(V::KIND)
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(7), pos.turn(), 1, &settings);
        let mut w = Worker::<V>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        w.iterate(&pos, 7, &mut |_| {});
        w.nodes
    }
    let opening = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_ne!(nodes::<Suicide>(opening, 1), nodes::<Suicide>(opening, 0));
    assert_eq!(nodes::<Chess>(opening, 1), nodes::<Chess>(opening, 0));
}

#[test]
fn captures_that_lose_their_exchange_go_last_and_leave_quiescence_when_enabled() {
    // Qxd5 loses the queen to exd5 for a knight: White's only capture.
    let fen = "6k1/8/4p3/3n4/8/8/8/3Q2K1 w - - 0 1";
    let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let order = |see_ordering: i32| {
        let settings = SearchParams {
            see_ordering,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
        let w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        let ordered = w.order_moves(&pos, &pos.legal_moves(), None, 1, [None, None]);
        ordered
            .iter()
            .position(|&(_, m)| m.uci() == "d1d5")
            .expect("legal")
    };
    let moves = pos.legal_moves().len();
    assert_eq!(order(0), 0, "captures first");
    assert_eq!(order(1), moves - 1, "after every quiet move");
    let pruning = |see_qsearch_pruning: i32| {
        let settings = SearchParams {
            see_qsearch_pruning,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::nodes(1_000_000), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        let score = w.quiesce(&pos, &mut NoObserver).expect("within the limit");
        (score, w.nodes)
    };
    let (off_score, off_nodes) = pruning(0);
    let (on_score, on_nodes) = pruning(1);
    assert!(off_nodes > 1, "Qxd5 searched");
    assert_eq!(on_nodes, 1, "Qxd5 skipped");
    assert_eq!(on_score, off_score, "standing pat beats losing the queen");
    assert_eq!(on_score, evaluator.evaluate(&pos));
}

#[test]
fn pruning_and_reduction_switches_change_the_tree_only_when_enabled() {
    // A quiet middlegame: White's best is found with or without pruning.
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
    let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let nodes = |settings: SearchParams| {
        let shared = Shared::new(16);
        let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        let RootResult { best, depth, .. } = w.iterate(&pos, 6, &mut |_| {});
        assert_eq!(depth, 6);
        assert!(best.is_some());
        w.nodes
    };
    // Every switch tested here off.
    let base = SearchParams {
        lmp_max_depth: 0,
        futility_max_depth: 0,
        lmr_cut_node: 0,
        see_prune_max_depth: 0,
        ..SearchParams::default().without_selectivity()
    };
    let off = nodes(base.clone());
    let lmp = nodes(SearchParams {
        lmp_max_depth: 3,
        ..base.clone()
    });
    let futility = nodes(SearchParams {
        futility_max_depth: 3,
        ..base.clone()
    });
    // One search of depth 6 with an empty table (iterating would leave a
    // stored move in every node deep enough).
    let one_search = |settings: SearchParams| {
        let shared = Shared::new(16);
        let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        w.enter_root(&pos);
        w.search(&pos, -INF, INF, 6, 0, true, false);
        (w.nodes, shared.tt.probe(pos.key()).expect("stored").depth)
    };
    let (off_once, off_depth) = one_search(base.clone());
    let (iir, iir_depth) = one_search(SearchParams {
        iir_min_depth: 4,
        ..base.clone()
    });
    assert!(
        iir < off_once,
        "internal iterative reduction: {iir} nodes, {off_once} without"
    );
    assert_eq!(
        (off_depth, iir_depth),
        (6, 5),
        "the root had no stored move"
    );
    let not_improving = nodes(SearchParams {
        lmr_improving: 1,
        ..base.clone()
    });
    // More reduction need not mean fewer nodes in one small search (a
    // reduced move that fails high is searched again): the switch must
    // act, not shrink this tree.
    assert_ne!(
        not_improving, off,
        "more reduction where not improving: {not_improving} nodes, {off} without"
    );
    assert!(lmp < off, "move-count pruning: {lmp} nodes, {off} without");
    assert!(
        futility < off,
        "futility pruning: {futility} nodes, {off} without"
    );
}

/// Nodes of an iterative-deepening search of a quiet chess middlegame
/// to depth 8 with `settings`.
fn middlegame_nodes(settings: SearchParams) -> u64 {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8";
    let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let shared = Shared::new(16);
    let clock = Clock::start(&Limits::depth(8), pos.turn(), 1, &settings);
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
    let RootResult { best, depth, .. } = w.iterate(&pos, 8, &mut |_| {});
    assert_eq!(depth, 8);
    assert!(best.is_some());
    w.nodes
}

#[test]
fn the_singular_extension_changes_the_tree_only_when_enabled() {
    let off = middlegame_nodes(SearchParams::default());
    let off_tuned = middlegame_nodes(SearchParams {
        se_min_depth: 2,
        se_margin: 0,
        se_tt_depth_slack: 20,
        ..SearchParams::default()
    });
    assert_eq!(off_tuned, off, "switched off, its settings change nothing");
    let on = middlegame_nodes(SearchParams {
        singular_extension: 1,
        se_min_depth: 4,
        ..SearchParams::default()
    });
    assert_ne!(on, off, "singular extension: {on} nodes, {off} without");
}

/// The trend and reduced-depth refinements of the pruning (improving
/// in reverse futility and move-count pruning, futility and history
/// pruning at the reduced depth, the evaluation's share of the null
/// move's reduction): their margins change nothing while their
/// switches are off, and each switch changes the tree.
#[test]
fn the_selectivity_refinements_change_the_tree_only_when_enabled() {
    let off = middlegame_nodes(SearchParams::default().without_selectivity());
    let margins_alone = middlegame_nodes(SearchParams {
        history_prune_margin: 0,
        nmp_eval_max: 0,
        ..SearchParams::default().without_selectivity()
    });
    assert_eq!(margins_alone, off, "switched off, margins change nothing");
    let switches = [
        (
            "rfp_improving",
            SearchParams {
                rfp_improving: 1,
                ..SearchParams::default().without_selectivity()
            },
        ),
        (
            "lmp_improving",
            SearchParams {
                lmp_improving: 1,
                ..SearchParams::default().without_selectivity()
            },
        ),
        (
            "futility_lmr_depth",
            SearchParams {
                futility_lmr_depth: 1,
                ..SearchParams::default().without_selectivity()
            },
        ),
        (
            "history_prune_max_depth",
            SearchParams {
                history_prune_max_depth: 4,
                // Any quiet move with a bad history, so that the switch
                // acts in this small search whatever the evaluation.
                history_prune_margin: 0,
                ..SearchParams::default().without_selectivity()
            },
        ),
        (
            "nmp_eval_divisor",
            SearchParams {
                nmp_eval_divisor: 30,
                ..SearchParams::default().without_selectivity()
            },
        ),
    ];
    for (name, settings) in switches {
        let on = middlegame_nodes(settings);
        assert_ne!(on, off, "{name}: {on} nodes, {off} without");
    }
}

#[test]
fn a_search_leaving_out_the_tables_move_takes_no_cutoff_from_its_entry_nor_stores() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let settings = SearchParams::default();
    let shared = Shared::new(16);
    let clock = Clock::start(&Limits::depth(5), pos.turn(), 1, &settings);
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
    w.iterate(&pos, 5, &mut |_| {});
    let e = shared.tt.probe(pos.key()).expect("the root is stored");
    let s = score_from_tt(e.score, 0);
    // A window the entry answers, whatever its bound.
    let (alpha, beta) = match e.bound {
        Bound::Upper => (s, s + 1),
        Bound::Lower | Bound::Exact => (s - 1, s),
    };
    let before = w.nodes;
    assert_eq!(w.search(&pos, alpha, beta, e.depth, 0, false, false), s);
    assert_eq!(w.nodes, before + 1, "answered by the entry");
    w.td.stack[0].excluded = e.mv;
    w.search(&pos, alpha, beta, e.depth, 0, false, false);
    assert!(w.nodes > before + 2, "the other moves are searched");
    assert_eq!(
        shared.tt.probe(pos.key()),
        Some(e),
        "the entry is left alone"
    );
}

/// More reduction at expected cut nodes, razoring and SEE pruning need not shrink a tree of fixed depth (a reduced
/// move that still fails high is searched again, a razored node changes
/// the iteration's best line), so these only change it when on.
#[test]
fn cut_node_reduction_razoring_see_and_futility_pruning_and_tt_eval_change_the_tree_when_on() {
    // Every switch tested here off.
    let base = SearchParams {
        lmr_cut_node: 0,
        see_prune_max_depth: 0,
        qsearch_futility_margin: 0,
        tt_eval_refine: 0,
        lmr_bad_captures: 0,
        ..SearchParams::default()
    };
    let off = middlegame_nodes(base.clone());
    let razor_margins_alone = middlegame_nodes(SearchParams {
        razor_base: 0,
        razor_margin: 0,
        ..base.clone()
    });
    assert_eq!(
        razor_margins_alone, off,
        "razoring off: its margins change nothing"
    );
    for (what, on) in [
        (
            "cut-node reduction",
            SearchParams {
                lmr_cut_node: 2,
                ..base.clone()
            },
        ),
        (
            "razoring",
            SearchParams {
                razor_max_depth: 3,
                ..base.clone()
            },
        ),
        (
            "SEE pruning in the main search",
            SearchParams {
                see_prune_max_depth: 6,
                ..base.clone()
            },
        ),
        (
            "the table's score as the pruning's evaluation",
            SearchParams {
                tt_eval_refine: 1,
                ..base.clone()
            },
        ),
        (
            "futility pruning in quiescence",
            SearchParams {
                qsearch_futility_margin: 200,
                ..base.clone()
            },
        ),
        (
            "late-move reduction of bad captures",
            SearchParams {
                lmr_bad_captures: 1,
                ..base.clone()
            },
        ),
    ] {
        let nodes = middlegame_nodes(on);
        assert_ne!(nodes, off, "{what}: {nodes} nodes, {off} without");
    }
}

#[test]
fn probcut_changes_the_tree_only_when_enabled() {
    let off = middlegame_nodes(SearchParams::default());
    let off_tuned = middlegame_nodes(SearchParams {
        probcut_margin: 0,
        probcut_min_depth: 6,
        ..SearchParams::default()
    });
    assert_eq!(off_tuned, off, "switched off, its settings change nothing");
    let on = middlegame_nodes(SearchParams {
        probcut: 1,
        ..SearchParams::default()
    });
    assert_ne!(on, off, "ProbCut: {on} nodes, {off} without");
}

#[test]
fn offer_ordering_puts_the_quiet_moves_that_leave_a_piece_capturable_first() {
    use movegen::variants::Suicide;
    // No capture for White: its quiet moves decide. The knight's moves
    // to c3 and to a3 (the b4 pawn takes on a3, the d4 pawn on c3) and
    // the e-pawn's to e3 (the d4 pawn takes) are the offers.
    let fen = "4k3/8/8/8/1p1p4/8/4P3/1N6 w - - 0 1";
    let pos = Position::<Suicide>::from_fen(fen).expect("valid FEN");
    let evaluator = Evaluator::default_for(<Suicide>::KIND);
    let offers = ["b1a3", "b1c3", "e2e3"];
    let first_three = |offer_order_bonus: i32| {
        let settings = SearchParams {
            offer_order_bonus,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
        let mut w = Worker::<Suicide>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        // The quiet move that offers nothing has the best history.
        let d2 = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.uci() == "b1d2");
        let d2 = d2.expect("legal");
        w.td.hist.history[HistoryTables::history_index(pos.turn(), d2)] = settings.history_max / 2;
        let mut first: Vec<String> = w
            .order_moves(&pos, &pos.legal_moves(), None, 1, [None, None])
            .iter()
            .take(3)
            .map(|&(_, m)| m.uci())
            .collect();
        first.sort();
        first
    };
    assert!(!first_three(0).iter().all(|m| offers.contains(&m.as_str())));
    assert_eq!(first_three(1 << 20), offers);
}

#[test]
fn the_killers_come_before_history() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let settings = SearchParams::default();
    let shared = Shared::new(1);
    let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
    let moves = pos.legal_moves();
    let (k0, k1, by_history) = (moves[0], moves[1], moves[2]);
    w.td.stack[2].killers = [Some(k0), Some(k1)];
    w.td.hist.history[HistoryTables::history_index(pos.turn(), by_history)] = settings.history_max;
    let order: Vec<Move> = w
        .order_moves(&pos, &moves, None, 2, [None, None])
        .into_iter()
        .map(|(_, m)| m)
        .take(3)
        .collect();
    assert_eq!(order, [k0, k1, by_history]);
}

#[test]
fn continuation_history_learns_and_orders_only_when_enabled() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let run = |continuation_history: i32| {
        let settings = SearchParams {
            continuation_history,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        w.iterate(&pos, 6, &mut |_| {});
        let raised = w.td.hist.continuation.iter().filter(|&&c| c > 0).count();
        let top = w.td.hist.continuation.iter().max().copied().unwrap_or(0);
        (
            w.td.hist.continuation.len(),
            raised,
            top,
            settings.history_max,
        )
    };
    assert_eq!(run(0), (0, 0, 0, SearchParams::default().history_max));
    let (len, raised, top, cap) = run(1);
    assert_eq!(len, PIECE_TO * PIECE_TO);
    assert!(raised > 0, "quiet cutoffs raise their continuation entries");
    assert!(top <= cap, "capped as the history is");

    // After 1. e4 (the move at ply 0), a continuation entry for ...Nc6
    // puts it before ...a6, whose history is higher.
    let settings = SearchParams {
        continuation_history: 1,
        ..SearchParams::default()
    };
    let shared = Shared::new(1);
    let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
    let e4 = pos.parse_uci("e2e4").expect("legal");
    let after = pos.play_unchecked(e4);
    w.td.stack[0].played_piece_to = Some(moved_piece_to(&pos, Color::White, e4));
    let nc6 = after.parse_uci("b8c6").expect("legal");
    let a6 = after.parse_uci("a7a6").expect("legal");
    w.td.hist.history[HistoryTables::history_index(Color::Black, a6)] = 10;
    let cont = w.continuation_offsets(1);
    assert_eq!(cont[1], None, "no move two plies before");
    let offset = cont[0].expect("the move before");
    w.td.hist.continuation[offset + moved_piece_to(&after, Color::Black, nc6)] = 20;
    let order = |cont| {
        let ordered = w.order_moves(&after, &after.legal_moves(), None, 1, cont);
        let at = |m| ordered.iter().position(|&(_, x)| x == m).expect("legal");
        at(nc6) < at(a6)
    };
    assert!(order(cont), "history 0 + continuation 20 beats history 10");
    assert!(!order([None, None]), "without it, history alone");
}

#[test]
fn gravity_keeps_a_score_within_its_limit() {
    let mut h = 0;
    for _ in 0..1000 {
        gravity(&mut h, 300, 1000);
        assert!((0..=1000).contains(&h), "{h}");
    }
    assert!(h > 990, "it converges to the limit: {h}");
    let at_limit = h;
    gravity(&mut h, -300, 1000);
    assert!(
        h < at_limit - 500,
        "a malus near the bound moves it most: {h}"
    );
    let mut low = -1000;
    gravity(&mut low, -1000, 1000);
    assert_eq!(low, -1000);
}

#[test]
fn history_gravity_lowers_the_tried_moves_within_the_cap_only_when_enabled() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let run = |history_gravity: i32| {
        let settings = SearchParams {
            history_gravity,
            continuation_history: 1,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        w.iterate(&pos, 6, &mut |_| {});
        let cap = settings.history_max;
        let lowered = w.td.hist.history.iter().filter(|&&h| h < 0).count();
        let continuation_lowered = w.td.hist.continuation.iter().filter(|&&c| c < 0).count();
        let bounded =
            w.td.hist
                .history
                .iter()
                .chain(&w.td.hist.continuation)
                .all(|h| h.abs() <= cap);
        (
            lowered,
            continuation_lowered,
            bounded,
            w.td.hist.history.clone(),
        )
    };
    let (lowered, continuation_lowered, bounded, off) = run(0);
    assert_eq!((lowered, continuation_lowered), (0, 0), "off: only raised");
    assert!(bounded);
    let (lowered, continuation_lowered, bounded, on) = run(1);
    assert!(lowered > 0, "quiet moves before a cutoff lose history");
    assert!(continuation_lowered > 0, "and their continuation entries");
    assert!(bounded, "gravity keeps every score within the cap");
    assert_ne!(on, off);
}

#[test]
fn capture_history_learns_and_orders_captures_only_when_enabled() {
    // Two undefended knights: exf5 (pawn takes knight) comes before
    // Qxb4 (queen takes knight) by victim and attacker alone.
    let fen = "6k1/8/8/5n2/1n2P3/8/3Q4/6K1 w - - 0 1";
    let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let pxn = pos.parse_uci("e4f5").expect("legal");
    let qxn = pos.parse_uci("d2b4").expect("legal");
    let first = |capture_history: i32, favour_queen: bool| {
        let settings = SearchParams {
            capture_history,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        if favour_queen {
            let i = HistoryTables::capture_index(&pos, Color::White, qxn);
            w.td.hist.capture[i] = settings.history_max;
        }
        let ordered = w.order_moves(&pos, &pos.legal_moves(), None, 1, [None, None]);
        ordered[0].1
    };
    assert_eq!(first(0, false), pxn, "victim, then the cheaper attacker");
    assert_eq!(first(1, false), pxn, "no history yet: the same order");
    assert_eq!(first(1, true), qxn, "a capture that often cut off first");

    // A search fills the table (raised and lowered, within the cap)
    // only when enabled.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
    let run = |capture_history: i32| {
        let settings = SearchParams {
            capture_history,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        w.iterate(&pos, 6, &mut |_| {});
        let raised = w.td.hist.capture.iter().filter(|&&c| c > 0).count();
        let lowered = w.td.hist.capture.iter().filter(|&&c| c < 0).count();
        let cap = settings.history_max;
        let bounded = w.td.hist.capture.iter().all(|c| c.abs() <= cap);
        (w.td.hist.capture.len(), raised, lowered, bounded)
    };
    assert_eq!(run(0), (0, 0, 0, true), "off: no table");
    let (len, raised, lowered, bounded) = run(1);
    assert_eq!(len, PIECE_TO * Role::ALL.len());
    assert!(raised > 0, "captures that cut off gain");
    assert!(lowered > 0, "captures searched before a cutoff lose");
    assert!(bounded);
}

#[test]
fn the_reduction_table_is_the_formula() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    for lmr_divisor in [1.75, 2.25, 3.0] {
        let settings = SearchParams {
            lmr_divisor,
            lmr_base: 0.5,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
        let w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        for depth in 1..130 {
            for n in 1..300 {
                assert_eq!(
                    w.reduction(depth, n),
                    settings.reduction(depth, n),
                    "{depth} {n}"
                );
            }
        }
    }
}

#[test]
fn correction_history_moves_the_static_evaluation_only_when_enabled() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let on = SearchParams {
        correction_history: 1,
        ..SearchParams::default()
    };
    let shared = Shared::new(1);
    let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &on);
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &on, &clock, &[]);
    assert_eq!(w.td.hist.corrected_eval(&pos, 10), 10, "nothing learnt yet");
    // One error of 100 at depth 7 weighs 8/256: 3.125 cp.
    w.td.hist.update_correction(w.settings, &pos, 7, 100);
    assert_eq!(w.td.hist.corrected_eval(&pos, 10), 13);
    // The same error again and again: the average approaches it, capped.
    for _ in 0..1000 {
        w.td.hist.update_correction(w.settings, &pos, 20, 100);
    }
    assert_eq!(w.td.hist.corrected_eval(&pos, 10), 10 + on.correction_max);
    for _ in 0..1000 {
        w.td.hist.update_correction(w.settings, &pos, 20, -30);
    }
    assert_eq!(
        w.td.hist.corrected_eval(&pos, 10),
        -20 + 1,
        "within a centipawn of -30"
    );
    // The other side to move, or other pawns, have entries of their own.
    let after = pos.play_unchecked(pos.parse_uci("g1f3").expect("legal"));
    assert_eq!(w.td.hist.corrected_eval(&after, 10), 10);
    let pawn_moved = pos.play_unchecked(pos.parse_uci("e2e4").expect("legal"));
    assert_ne!(correction_index(&pawn_moved), correction_index(&after));

    // A search fills the table, within its bound, only when enabled.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let pos = Position::<Chess>::from_fen(fen).expect("valid FEN");
    let run = |correction_history: i32| {
        let settings = SearchParams {
            correction_history,
            ..SearchParams::default()
        };
        let shared = Shared::new(1);
        let clock = Clock::start(&Limits::depth(6), pos.turn(), 1, &settings);
        let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &[]);
        w.iterate(&pos, 6, &mut |_| {});
        let max = i64::from(settings.correction_max) * CORRECTION_GRAIN;
        let learnt = w.td.hist.correction.iter().filter(|&&c| c != 0).count();
        let bounded =
            w.td.hist
                .correction
                .iter()
                .all(|&c| i64::from(c).abs() <= max);
        (w.td.hist.correction.len(), learnt, bounded, w.nodes)
    };
    let (len, learnt, bounded, nodes_off) = run(0);
    assert_eq!((len, learnt, bounded), (0, 0, true), "off: no table");
    let (len, learnt, bounded, nodes_on) = run(1);
    assert_eq!(len, 2 * CORRECTION_ENTRIES);
    assert!(learnt > 0 && bounded);
    assert_ne!(
        nodes_on, nodes_off,
        "the corrected evaluation prunes otherwise"
    );
}

#[test]
fn repetition_is_seen_among_the_game_keys() {
    let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 10 40").expect("valid");
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let settings = SearchParams::default();
    let shared = Shared::new(1);
    let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &settings);
    // The same position four plies back.
    let keys = [pos.key(), 11, 12, 13, pos.key()];
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &keys);
    assert!(w.is_repetition(&pos));
    let keys = [11, 12, pos.key(), 13, pos.key()];
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &keys);
    assert!(w.is_repetition(&pos), "two plies back");
    let keys = [11, 12, 13, pos.key(), pos.key()];
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &settings, &clock, &keys);
    assert!(
        !w.is_repetition(&pos),
        "one ply back: the other side to move"
    );
}

#[test]
fn killers_and_history_follow_the_game_when_kept() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let keep = SearchParams {
        capture_history: 1,
        ..SearchParams::default()
    };
    assert_eq!(keep.keep_heuristics, 1);
    let shared = Shared::new(1);
    let clock = Clock::start(&Limits::depth(1), pos.turn(), 1, &keep);
    let killer = pos.legal_moves()[0];
    // A search's end as `iterate` ends it, the worker dropped.
    fn end(mut w: Worker<'_, Chess>) {
        w.td.end(w.settings, w.game_ply);
    }
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &keep, &clock, &[1, 2]);
    w.td.stack[3].killers[0] = Some(killer);
    w.td.hist.history[7] = 100;
    w.td.hist.capture[9] = -100;
    let table = w.td.hist.history.as_ptr();
    end(w);
    // Two plies later the killer of ply 3 is one of ply 1, the histories
    // are halved, in the same table.
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &keep, &clock, &[1, 2, 3, 4]);
    assert_eq!(w.td.stack[1].killers[0], Some(killer));
    assert_eq!((w.td.hist.history[7], w.td.hist.capture[9]), (50, -50));
    assert_eq!(w.td.hist.history.as_ptr(), table, "aged in place");
    drop(w);
    // Resumed once only: a search that left nothing has them cleared.
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &keep, &clock, &[1, 2, 3, 4]);
    assert_eq!((w.td.hist.history[7], w.td.hist.capture[9]), (0, 0));
    assert_eq!(w.td.stack[1].killers[0], None);
    drop(w);
    // The same root again: histories kept, killers not.
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &keep, &clock, &[1, 2]);
    w.td.stack[3].killers[0] = Some(killer);
    w.td.hist.history[7] = 100;
    end(w);
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &keep, &clock, &[1, 2]);
    assert_eq!(w.td.hist.history[7], 50);
    assert!(w.td.stack.entries.iter().all(|e| e.killers == [None, None]));
    drop(w);
    // A new game forgets them.
    let mut new_game = Shared::new(1);
    let mut w = Worker::<Chess>::new(0, &new_game, &evaluator, &keep, &clock, &[1, 2]);
    w.td.stack[3].killers[0] = Some(killer);
    w.td.hist.history[7] = 100;
    end(w);
    new_game.clear();
    let w = Worker::<Chess>::new(0, &new_game, &evaluator, &keep, &clock, &[1, 2, 3, 4]);
    assert_eq!(w.td.stack[1].killers[0], None);
    assert_eq!(w.td.hist.history[7], 0);
    drop(w);
    // Off, they are never resumed.
    let off = SearchParams {
        keep_heuristics: 0,
        ..SearchParams::default()
    };
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &off, &clock, &[1, 2]);
    w.td.hist.history[7] = 100;
    w.td.learnt();
    end(w);
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &off, &clock, &[1, 2, 3, 4]);
    assert_eq!(w.td.hist.history[7], 0);
}

#[test]
fn a_thread_state_sized_for_other_settings_starts_anew_and_a_quiescence_leaves_it_clean() {
    let pos = Position::<Chess>::startpos();
    let evaluator = Evaluator::default_for(<Chess>::KIND);
    let on = SearchParams {
        continuation_history: 1,
        ..SearchParams::default()
    };
    let off = SearchParams {
        continuation_history: 0,
        ..SearchParams::default()
    };
    let shared = Shared::new(1);
    let clock = Clock::start(&Limits::depth(4), pos.turn(), 1, &on);
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &on, &clock, &[]);
    w.iterate(&pos, 4, &mut |_| {});
    assert!(w.td.hist.continuation.iter().any(|&c| c != 0));
    assert_eq!(w.td.eval.height(), 1, "every push of the path popped");
    drop(w);
    // Off, the table is empty and no path entry points into it.
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &off, &clock, &[]);
    assert!(w.td.hist.continuation.is_empty());
    w.iterate(&pos, 4, &mut |_| {});
    drop(w);
    // On again: a new table.
    let w = Worker::<Chess>::new(0, &shared, &evaluator, &on, &clock, &[]);
    assert!(w.td.hist.continuation.iter().all(|&c| c == 0));
    drop(w);
    // A quiescence search learns nothing: the next search finds the tables
    // as they were, without clearing them.
    let mut w = Worker::<Chess>::new(0, &shared, &evaluator, &on, &clock, &[]);
    w.quiesce(&pos, &mut NoObserver).expect("within the limit");
    assert_eq!(w.td.left, thread::Left::Clean);
    assert_eq!(w.td.eval.height(), 1);
}

#[test]
fn threecheck_quiescence_finds_the_last_check_past_its_first_ply() {
    // Black is in check (White's second) and must step away; then any
    // quiet check by White, at the second quiescence ply, is the third.
    let fen = "R6k/8/8/8/8/8/8/K2Q4 b - - 1+3 0 1";
    let first_ply_only = SearchParams {
        qsearch_checks_left: 0,
        ..SearchParams::default()
    };
    let score = quiesce::<ThreeCheck>(fen, &first_ply_only);
    assert!(score > -MATE_BOUND, "{score}");
    assert_eq!(
        quiesce::<ThreeCheck>(fen, &SearchParams::default()),
        -(MATE - 2)
    );
}
