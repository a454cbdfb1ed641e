//! Tests of the evaluation as a whole: the layout, the weights' files and
//! defaults, the term sinks and the common terms (each game's own terms are
//! tested in its module).

use super::*;
use movegen::attacks::king_attacks;
use movegen::variants::{Atomic, Chess, Knightmate, Suicide};
use movegen::{Bitboard, Color, Role, Square, VariantKind};
use std::path::Path;

#[test]
fn start_position_is_balanced_but_for_tempo() {
    let p = EvalParams::default_for(VariantKind::Chess);
    assert_eq!(
        evaluate(&Position::<Chess>::startpos(), &p),
        p.weights[idx::TEMPO]
    );
    let s = EvalParams::default_for(VariantKind::Suicide);
    assert_eq!(evaluate(&Position::<Suicide>::startpos(), &s), 10);
}

#[test]
fn evaluation_is_the_phase_blend_of_the_dot_products_of_features_and_weights() {
    let p = EvalParams::default_for(VariantKind::Atomic);
    let mut pos = Position::<Atomic>::startpos();
    for i in 0..40 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(moves[(i * 7) % moves.len()]);
        // Atomic's weights have halves of their own: the evaluation is
        // the two dot products blended by the phase.
        let f = features_and_phase(&pos);
        let dot = |half: &[i32]| -> i64 {
            f.counts
                .iter()
                .zip(half)
                .map(|(&a, &b)| i64::from(a) * i64::from(b))
                .sum()
        };
        let (mg, eg) = (dot(&p.weights[..EG]), dot(&p.weights[EG..]));
        assert!(!f.drawn);
        let white = if pos.turn().is_white() { 1 } else { -1 };
        assert_eq!(
            taper(mg, eg, f.phase),
            i64::from(white * evaluate(&pos, &p))
        );
    }
}

/// The king danger of `color`'s king, square by square: the enemy
/// attackers of each square around it (the slow reference of the count
/// [`eval_terms`] gathers from the attack sets).
fn danger_by_squares<V: Variant>(pos: &Position<V>, color: Color) -> i32 {
    let occ = pos.board().occupied();
    pos.king(color).map_or(0, |k| {
        king_attacks(k)
            .map(|sq| pos.attackers_to(sq, color.other(), occ).count() as i32)
            .sum()
    })
}

/// Calls `check` on each position of 400 plies of deterministic
/// playouts of `V` (a new game from the start after each end); the
/// term modules' tests walk the same positions.
pub(super) fn for_playout_positions<V: Variant>(mut check: impl FnMut(&Position<V>)) {
    let mut pos = Position::<V>::startpos();
    for i in 0..400 {
        let moves = pos.legal_moves();
        if moves.is_empty() || V::end_by_rule(&pos).is_some() {
            pos = Position::<V>::startpos();
            continue;
        }
        pos = pos.play_unchecked(moves[(i * 7 + i / 5) % moves.len()]);
        check(&pos);
    }
}

fn king_danger_matches_the_square_by_square_count<V: Variant>() {
    let mut seen = 0;
    for_playout_positions::<V>(|pos| {
        let expected = danger_by_squares(pos, Color::Black) - danger_by_squares(pos, Color::White);
        seen += expected.abs();
        assert_eq!(features(pos)[idx::KING_DANGER], expected, "{}", pos.fen());
    });
    assert!(seen > 0, "no position had any king danger");
}

#[test]
fn king_danger_is_the_attackers_of_the_squares_around_the_king() {
    king_danger_matches_the_square_by_square_count::<Chess>();
    king_danger_matches_the_square_by_square_count::<movegen::variants::ThreeCheck>();
    king_danger_matches_the_square_by_square_count::<Atomic>();
    king_danger_matches_the_square_by_square_count::<movegen::variants::Losers>();
    king_danger_matches_the_square_by_square_count::<Knightmate>();
}

#[test]
fn check_squares_match_the_square_by_square_count() {
    // Threecheck counts every king's safe and guarded checks: the sum of
    // each group is Black's king's minus White's (each counted against
    // its owner).
    let (mut safe, mut guarded) = (0, 0);
    for_playout_positions::<movegen::variants::ThreeCheck>(|pos| {
        let slow = |c: Color| {
            pos.king(c).map_or(Default::default(), |k| {
                king_attack::check_squares_by_squares(pos, c, k)
            })
        };
        let (w, b) = (slow(Color::White), slow(Color::Black));
        let f = features(pos);
        let sum = |first: usize| f[first..first + 4].iter().sum::<i32>();
        assert_eq!(sum(idx::SAFE_CHECKS), b.safe - w.safe, "{}", pos.fen());
        assert_eq!(
            sum(idx::GUARDED_CHECKS),
            b.guarded - w.guarded,
            "{}",
            pos.fen()
        );
        safe += b.safe + w.safe;
        guarded += b.guarded + w.guarded;
    });
    assert!(safe > 0 && guarded > 0, "safe {safe}, guarded {guarded}");
}

#[test]
fn terms_with_zero_weights_are_skipped_without_changing_the_score() {
    // With the threats by pawns and the king attack at 0 the engine
    // skips them; with weights there it must not.
    let mut p = EvalParams::default_for(VariantKind::ThreeCheck);
    for group in [
        idx::THREAT_BY_PAWN..idx::THREAT_BY_PAWN + 7,
        idx::KING_ATTACK..idx::KING_ATTACK + 16,
    ] {
        p.weights[group.clone()].fill(0);
        p.weights[EG + group.start..EG + group.end].fill(0);
    }
    let score = Score::new(&p.weights);
    assert!(!score.wants(group::THREAT_BY_PAWN));
    assert!(!score.wants(group::KING_ATTACK));
    assert!(score.wants(group::MATERIAL));
    p.weights[EG + idx::KING_ATTACK + 15] = 1;
    assert!(
        Score::new(&p.weights).wants(group::KING_ATTACK),
        "an endgame half alone counts"
    );
    for i in 0..NUM_TERMS {
        p.weights[i] = (i as i32 % 13) - 6;
        p.weights[EG + i] = (i as i32 % 11) - 5;
    }
    let mut pos = Position::<movegen::variants::ThreeCheck>::startpos();
    for i in 0..60 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(moves[(i * 13) % moves.len()]);
        let white = if pos.turn().is_white() { 1 } else { -1 };
        let f = features_and_phase(&pos);
        let expected = f
            .score(&p.weights)
            .clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL));
        assert_eq!(i64::from(white * evaluate(&pos, &p)), expected);
    }
}

#[test]
fn king_open_files_counts_the_pawnless_files_at_and_beside_the_king() {
    // White's king on a1 behind pawns on a2 and b2: none open (the
    // a-file has no left neighbour). Black's king on e8 with pawns on d7
    // and f7: the e-file, counted against Black.
    let pos = Position::<Chess>::from_fen("4k3/3p1p2/8/8/8/8/PP6/K7 w - - 0 1").unwrap();
    assert_eq!(features(&pos)[idx::KING_OPEN_FILES], 1);
    // White's king on e1 with a pawn on a2 only: d, e and f open.
    let pos = Position::<Chess>::from_fen("4k3/3ppp2/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
    assert_eq!(features(&pos)[idx::KING_OPEN_FILES], -3);
    // The h-file edge: g and h, the pawn on g2 closes one.
    let [g2, h1] = ["g2", "h1"].map(|s| Square::parse(s).unwrap());
    assert_eq!(super::king_open_files(h1, Bitboard::from_square(g2)), 1);
}

#[test]
fn king_flank_attack_counts_the_enemy_attacks_on_the_kings_flank_in_its_camp() {
    // The flank squares by hand: g1's is e1-h5, e8's c4-f8, b1's a1-d5.
    let sq = |s: &str| Square::parse(s).unwrap();
    let squares = |b: Bitboard| b.count();
    assert_eq!(squares(super::king_flank(sq("g1"), Color::White)), 20);
    let flank = super::king_flank(sq("g1"), Color::White);
    assert!(flank.contains(sq("e1")) && flank.contains(sq("h5")));
    assert!(!flank.contains(sq("d1")) && !flank.contains(sq("e6")));
    let flank = super::king_flank(sq("e8"), Color::Black);
    assert!(flank.contains(sq("c4")) && flank.contains(sq("f8")));
    assert!(!flank.contains(sq("c3")) && !flank.contains(sq("g8")));
    let flank = super::king_flank(sq("b1"), Color::White);
    assert!(flank.contains(sq("a1")) && flank.contains(sq("d5")));
    assert!(!flank.contains(sq("e1")) && !flank.contains(sq("a6")));
    // Kings alone but White's, g1, under a black rook on e8 (e1-e7 but
    // e6 and e7 out of the camp: e1..e5, five squares) and a black
    // knight on h4 (f3, g2, f5, g6: f3, g2 and f5 in the flank; none twice):
    // 8 against White; Black's king on a8 has no white attacker near.
    let pos = Position::<Chess>::from_fen("k3r3/8/8/8/7n/8/8/6K1 w - - 0 1").unwrap();
    assert_eq!(features(&pos)[idx::KING_FLANK_ATTACK], -8);
    // A second black rook on f8 attacks f1-f5: the attacked flank
    // squares are now e1-e5, f1-f5 and g2 (11), and f3 and f5 are
    // attacked twice (knight and rook), counted again: 13.
    let pos = Position::<Chess>::from_fen("k3rr2/8/8/8/7n/8/8/6K1 w - - 0 1").unwrap();
    assert_eq!(features(&pos)[idx::KING_FLANK_ATTACK], -13);
}

#[test]
fn pawn_storm_counts_the_unblocked_enemy_pawns_nearest_the_king_by_rank() {
    // White's king on g1. Black pawns: f4 (rank index 3 for White), g6
    // and g7 (the nearer, g6: 5), h3 blocked by White's h2 (not
    // counted), and a5 far from the king. Black's king on b8: White's
    // a5 (rank index 3 from Black's side) storms it; c2 (6) too.
    let pos = Position::<Chess>::from_fen("1k6/6p1/6p1/P7/5p2/7p/2P4P/6K1 w - - 0 1").unwrap();
    let f = features(&pos);
    let storm = &f[idx::PAWN_STORM..idx::PAWN_STORM + 8];
    // Against White: ranks 3 and 5; against Black: 3 and 6.
    assert_eq!(storm, &[0, 0, 0, -1 + 1, 0, -1, 1, 0]);
    // Each side alone, through the helper.
    let [g1, b8] = ["g1", "b8"].map(|s| Square::parse(s).unwrap());
    let b = pos.board();
    let storm_ranks = |k: Square, color: Color| {
        let mut ranks = Vec::new();
        let (own, enemy) = (
            b.pieces(color, Role::Pawn),
            b.pieces(color.other(), Role::Pawn),
        );
        super::pawn_storm(k, color, own, enemy, |r| ranks.push(r));
        ranks
    };
    assert_eq!(storm_ranks(g1, Color::White), [3, 5]);
    assert_eq!(storm_ranks(b8, Color::Black), [3, 6]);
}

#[test]
fn phase_counts_non_pawn_material_or_pieces_where_captures_are_forced() {
    assert_eq!(phase(&Position::<Chess>::startpos()), PHASE_MAX);
    assert_eq!(phase(&Position::<Suicide>::startpos()), PHASE_MAX);
    assert_eq!(
        phase(&Position::<Knightmate>::startpos()),
        PHASE_MAX,
        "commoners count as minor pieces"
    );
    // A rook and a knight against a queen: 2 + 1 + 4.
    let pos = Position::<Chess>::from_fen("3qk3/8/8/8/8/8/PPP5/1N2K2R w - - 0 1").unwrap();
    assert_eq!(phase(&pos), 7);
    // Eight queens of a side are a middlegame, not more than one.
    let pos = Position::<Chess>::from_fen("k7/8/8/8/8/8/1QQQQ3/1QQQQ1K1 w - - 0 1").unwrap();
    assert_eq!(phase(&pos), PHASE_MAX);
    // Suicide: eight pieces of 32, whatever they are.
    let pos = Position::<Suicide>::from_fen("q7/pp6/8/8/8/8/8/RRNK4 w - - 0 1").unwrap();
    assert_eq!(phase(&pos), 7 * PHASE_MAX / 32);
}

#[test]
fn the_halves_are_blended_by_phase() {
    assert_eq!(taper(240, 0, PHASE_MAX), 240);
    assert_eq!(taper(240, 0, 0), 0);
    assert_eq!(taper(240, 480, 12), 360);
    assert_eq!(taper(-7, -7, 5), -7);
    assert_eq!(taper(1, 0, 12), 0);
    assert_eq!(taper(-1, 0, 12), 0, "truncated toward zero, as its mirror");
    // A pawn worth 100 in the middlegame and 200 in the endgame: three
    // pawns against a knight (phase 1) count nearly the endgame value.
    let mut p = EvalParams::default_for(VariantKind::Chess);
    p.weights[EG + idx::MATERIAL] = 200;
    let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/n7/PPP5/4K3 w - - 0 1").unwrap();
    let f = features_and_phase(&pos);
    assert_eq!(f.phase, 1);
    let white = if pos.turn().is_white() { 1 } else { -1 };
    assert_eq!(f.score(&p.weights), i64::from(white * evaluate(&pos, &p)));
    let mut equal = p.clone();
    equal.weights[EG + idx::MATERIAL] = 100;
    let gain = f.score(&p.weights) - f.score(&equal.weights);
    // Each score is truncated on its own: the gain within one.
    assert!((gain - taper(0, 3 * 100, 1)).abs() <= 1, "{gain}");
}

#[test]
fn evaluation_is_the_tapered_sum_of_features_with_distinct_halves() {
    // Endgame halves unlike the middlegame ones in every group.
    let mut p = EvalParams::default_for(VariantKind::Chess);
    for i in 0..NUM_TERMS {
        p.weights[EG + i] = p.weights[i] * 2 - (i as i32 % 7);
    }
    let mut pos = Position::<Chess>::startpos();
    for i in 0..120 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(moves[(i * 11) % moves.len()]);
        let f = features_and_phase(&pos);
        assert_eq!(f.phase, phase(&pos));
        let mg: i64 = f
            .counts
            .iter()
            .zip(&p.weights)
            .map(|(&c, &w)| i64::from(c * w))
            .sum();
        let eg: i64 = f
            .counts
            .iter()
            .zip(&p.weights[EG..])
            .map(|(&c, &w)| i64::from(c * w))
            .sum();
        let white = if pos.turn().is_white() { 1 } else { -1 };
        assert_eq!(
            taper(mg, eg, f.phase),
            i64::from(white * evaluate(&pos, &p))
        );
    }
}

#[test]
fn a_group_sets_both_halves_and_its_eg_key_the_endgame_half() {
    let p = EvalParams::from_toml(
        VariantKind::Chess,
        "tempo_eg = 3\ntempo = 20\n[material_eg]\npawn = 150\n[material]\npawn = 90\nknight = 310\n",
        "t",
    )
    .unwrap();
    assert_eq!((p.weights[idx::TEMPO], p.weights[EG + idx::TEMPO]), (20, 3));
    assert_eq!(p.weights[idx::MATERIAL], 90);
    assert_eq!(p.weights[EG + idx::MATERIAL], 150);
    assert_eq!(
        p.weights[EG + idx::MATERIAL + 1],
        310,
        "the group sets both halves"
    );
    assert_eq!(
        EvalParams::weight_name(EG + idx::MATERIAL),
        "material_eg.pawn"
    );
    assert_eq!(
        EvalParams::weight_index("pst_king_eg.e4"),
        Some(EG + idx::PST_KING + 28)
    );
    let text = p.to_toml();
    assert!(
        text.contains("tempo_eg = 3\n") && text.contains("[material_eg]\n"),
        "{text}"
    );
    assert!(
        !text.contains("pst_knight_eg"),
        "equal halves are written once: {text}"
    );
    assert_eq!(
        EvalParams::from_toml(VariantKind::Chess, &text, "t").unwrap(),
        p
    );
    let mut both = p.clone();
    both.set(idx::TEMPO, 7);
    assert_eq!(
        (both.weights[idx::TEMPO], both.weights[EG + idx::TEMPO]),
        (7, 7)
    );
    both.set(EG + idx::TEMPO, 8);
    assert_eq!(
        (both.weights[idx::TEMPO], both.weights[EG + idx::TEMPO]),
        (7, 8)
    );
    let err = EvalParams::from_toml(VariantKind::Chess, "tempo_eg = 20000", "f.toml").unwrap_err();
    assert!(err.to_string().contains("weight tempo_eg = 20000"), "{err}");
}

#[test]
fn the_mobility_area_leaves_out_squares_enemy_pawns_attack() {
    // The knight on d4 reaches 8 squares; the black pawns on d7 and g6
    // attack c6, e6 and f5 of them, so 5 are in its mobility area.
    let pos = Position::<Chess>::from_fen("4k3/3p4/6p1/8/3N4/8/8/4K3 w - - 0 1").unwrap();
    let f = features(&pos);
    let knight = Role::Knight.index();
    assert_eq!(f[idx::MOBILITY + knight], 8);
    assert_eq!(f[idx::MOBILITY_AREA + knight], 5);
}

#[test]
fn a_draw_by_insufficient_material_scores_0_where_the_switch_is_on() {
    // K+N v K is a draw by chess's rule, not three pawns up.
    let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").unwrap();
    let mut p = EvalParams::default_for(VariantKind::Chess);
    assert!(evaluate(&pos, &p) > 250);
    p.weights[idx::INSUFFICIENT_MATERIAL] = 1;
    assert_eq!(evaluate(&pos, &p), 0);
    let f = features_and_phase(&pos);
    assert!(f.drawn);
    assert_eq!(f.score(&p.weights), 0);
    // A pawn more can still win: not drawn by the rule.
    let pos = Position::<Chess>::from_fen("4k3/8/8/8/8/8/4P3/3NK3 w - - 0 1").unwrap();
    assert!(evaluate(&pos, &p) > 250);
    // Threecheck has no such rule for a knight: checks still win.
    let three =
        Position::<movegen::variants::ThreeCheck>::from_fen("4k3/8/8/8/8/8/8/3NK3 w - - 3+3 0 1")
            .unwrap();
    let mut t = EvalParams::default_for(VariantKind::ThreeCheck);
    t.weights[idx::INSUFFICIENT_MATERIAL] = 1;
    assert!(evaluate(&three, &t) > 250);
}

/// The weights of `data/sprt/eval/<name>.toml` over `kind`'s defaults.
fn sprt_eval_file(kind: VariantKind, name: &str) -> EvalParams {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/sprt/eval")
        .join(format!("{name}.toml"));
    EvalParams::load(kind, &file).unwrap()
}

/// Every weight is named as the TOML writes its group: by piece for a
/// by-piece group (a table in the file), by square for a table of
/// squares, by position otherwise; the old positional names of the
/// by-piece groups still find their weight, and every name is unique.
#[test]
fn weights_are_named_by_their_groups_shape() {
    let rook = Role::Rook.index();
    assert_eq!(EvalParams::weight_name(idx::HANGING + rook), "hanging.rook");
    assert_eq!(
        EvalParams::weight_name(EG + idx::THREAT_BY_MINOR + Role::Queen.index()),
        "threat_by_minor_eg.queen"
    );
    assert_eq!(
        EvalParams::weight_name(idx::PASSED_PAWN + 5),
        "passed_pawn.5"
    );
    assert_eq!(EvalParams::weight_name(idx::TEMPO), "tempo");
    assert_eq!(
        EvalParams::weight_index("hanging.rook"),
        Some(idx::HANGING + rook)
    );
    assert_eq!(
        EvalParams::weight_index("hanging.3"),
        Some(idx::HANGING + rook)
    );
    assert_eq!(EvalParams::weight_index("hanging.7"), None);
    assert_eq!(EvalParams::weight_index("tempo.0"), None);
    let names: std::collections::BTreeSet<String> =
        (0..NUM_WEIGHTS).map(EvalParams::weight_name).collect();
    assert_eq!(names.len(), NUM_WEIGHTS);
    for g in GROUPS.iter().chain(EG_GROUPS) {
        assert_eq!(g.len, g.shape.len(), "{}", g.name);
        let text = EvalParams::default_for(VariantKind::Chess).to_toml();
        if g.shape == Shape::ByPiece {
            assert!(text.contains(&format!("[{}]\n", g.name)) || g.name.ends_with("_eg"));
        }
    }
}

#[test]
fn tuned_games_defaults_are_their_texel_files() {
    // The Texel file, every weight of the game (the hand-set steps
    // before it are in its piece-square tables only, but threecheck's,
    // fitted too).
    for kind in [
        VariantKind::Chess,
        VariantKind::Atomic,
        VariantKind::ThreeCheck,
        VariantKind::Knightmate,
    ] {
        let d = EvalParams::default_for(kind);
        let (text, name) = tuned_weights_file(kind).unwrap();
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(name);
        assert_eq!(EvalParams::load(kind, &file).unwrap(), d, "{name}");
        // The file names every weight: over all ones it gives the same
        // as over the zeros the defaults start from.
        let mut ones = EvalParams {
            variant: kind,
            weights: vec![1; NUM_WEIGHTS],
        };
        ones.apply_toml(text, name).unwrap();
        assert_eq!(ones, d, "{name}");
        // What the fits turned on that was 0: the king-attack table
        // (knightmate's fit leaves it at 0 and prices the danger on the
        // royal knight's own squares instead).
        let turned_on = match kind {
            VariantKind::Knightmate => idx::ROYAL_KNIGHT_DANGER,
            _ => idx::KING_ATTACK + 15,
        };
        assert_ne!(d.weights[turned_on], 0, "{name}");
        assert_ne!(
            d.weights[idx::MATERIAL + Role::Queen as usize],
            d.weights[EG + idx::MATERIAL + Role::Queen as usize],
            "{name}"
        );
    }
    for kind in [VariantKind::Suicide, VariantKind::Losers] {
        assert_eq!(tuned_weights_file(kind), None);
    }
}

#[test]
fn suicide_and_losers_defaults_hold_the_last_files_that_passed_their_sprt() {
    // A file sets only the weights of its own step, so it holds the
    // defaults until a later step changes those weights (the first
    // suicide and losers files no longer do).
    for (kind, name) in [
        (VariantKind::Suicide, "suicide-piece-count-50"),
        (VariantKind::Suicide, "suicide-legal-mobility-60"),
        (VariantKind::Suicide, "suicide-forced-capture"),
        (VariantKind::Suicide, "suicide-offer-squares-300"),
        (VariantKind::Losers, "losers-material-quarter"),
        (VariantKind::Losers, "losers-forced-mobility-160"),
    ] {
        let d = EvalParams::default_for(kind);
        assert_eq!(sprt_eval_file(kind, name), d, "{name}");
    }
    let suicide = EvalParams::default_for(VariantKind::Suicide);
    assert_eq!(suicide.weights[idx::PIECE_COUNT], 50);
    assert_eq!(suicide.weights[idx::LEGAL_MOBILITY], 60);
    assert_eq!(suicide.weights[idx::FORCED_CAPTURE], -1000);
    assert_eq!(suicide.weights[idx::OFFER_SQUARES], 300);
}

#[test]
fn weights_beyond_the_bound_are_refused_naming_the_weight() {
    let err = EvalParams::from_toml(VariantKind::Chess, "[material]\npawn = 20000\n", "w.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("w.toml"), "{err}");
    assert!(err.contains("material.pawn = 20000"), "{err}");
    assert!(err.contains(&MAX_WEIGHT.to_string()), "{err}");
    let err = EvalParams::from_toml(VariantKind::Chess, "tempo = -10001", "w.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("weight tempo = -10001"), "{err}");
    let ok = EvalParams::from_toml(VariantKind::Chess, "tempo = -10000", "w.toml").unwrap();
    assert_eq!(ok.weights[idx::TEMPO], -MAX_WEIGHT);
}

#[test]
fn extreme_weights_keep_the_evaluation_below_the_mate_range() {
    // Weights set in memory (the tuner does) are not bounded; the
    // evaluation still is, with no overflow.
    let mut p = EvalParams::default_for(VariantKind::Chess);
    p.set(idx::MATERIAL, i32::MAX);
    let white = Position::<Chess>::from_fen("4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1").unwrap();
    assert_eq!(evaluate(&white, &p), MAX_EVAL);
    let black = Position::<Chess>::from_fen("4k3/8/8/8/8/8/PPP5/4K3 b - - 0 1").unwrap();
    assert_eq!(evaluate(&black, &p), -MAX_EVAL);
    assert!(MAX_EVAL < crate::score::MATE_BOUND && MAX_EVAL <= i32::from(i16::MAX));
}

#[test]
fn toml_round_trip_and_errors() {
    for kind in VariantKind::ALL {
        let mut p = EvalParams::default_for(kind);
        p.weights[idx::MATERIAL + 4] = 777;
        p.weights[idx::PST_KNIGHT + 28] = -3;
        let back = EvalParams::from_toml(kind, &p.to_toml(), "test").unwrap();
        assert_eq!(back, p);
    }
    let partial =
        EvalParams::from_toml(VariantKind::Suicide, "[material]\nqueen = 550\n", "t").unwrap();
    assert_eq!(partial.weights[idx::MATERIAL + 4], 550);
    let err = EvalParams::from_toml(VariantKind::Chess, "nonsense = 3", "f.toml").unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown weight group \"nonsense\""),
        "{err}"
    );
    let err = EvalParams::from_toml(VariantKind::Chess, "tempo = [1,2]", "f.toml").unwrap_err();
    assert!(err.to_string().contains("must be an integer"), "{err}");
    let err =
        EvalParams::from_toml(VariantKind::Chess, "variant = \"atomic\"", "f.toml").unwrap_err();
    assert!(err.to_string().contains("not chess"), "{err}");
    assert!(EvalParams::from_toml(VariantKind::Chess, "x = ", "f.toml").is_err());
    for empty in ["", "\n# nothing\n", "variant = \"chess\"\n"] {
        let err = EvalParams::from_toml(VariantKind::Chess, empty, "f.toml").unwrap_err();
        assert!(err.to_string().contains("f.toml: sets no weights"), "{err}");
    }
}
