//! Turning an engine's move text into varia's UCI. Engines write moves in
//! many dialects (coordinates with `-`/`x`, `=Q` or an uppercase promotion
//! letter, castling as `O-O` or king-takes-rook, SAN); the text is read
//! against the game's current position, so each reply costs one parse, not a
//! replay of the game. Anything that cannot be read is passed on unchanged
//! and loses the game as an illegal move.

use movegen::{VariantGame, VariantKind};

/// Turns an engine's move text into varia's UCI, if it names a legal move in
/// the current position of `game`; otherwise returns the text unchanged (the
/// game then ends as an illegal move).
pub fn normalize_move(game: &VariantGame, text: &str) -> String {
    let raw = text.trim();
    let t = raw.trim_end_matches(['+', '#', '!', '?']);
    if let Some(c) = coordinate_form(t) {
        if let Ok(m) = game.parse_uci(&c) {
            return m.uci();
        }
        // Knightmate engines may call the commoner a knight.
        if game.kind() == VariantKind::Knightmate && c.len() == 5 && c.ends_with('n') {
            if let Ok(m) = game.parse_uci(&format!("{}m", &c[..4])) {
                return m.uci();
            }
        }
    }
    match game.parse_san(t) {
        Ok(m) => m.uci(),
        Err(_) => raw.to_string(),
    }
}

/// `e2e4`, `e2-e4`, `e2xe4`, `e7e8Q`, `e7e8=q` → lowercase UCI text.
fn coordinate_form(t: &str) -> Option<String> {
    let b = t.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(|c| (b'a'..=b'h').contains(c))
            && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
    };
    if !square(0) {
        return None;
    }
    let mut i = 2;
    if matches!(b.get(i), Some(b'-' | b'x' | b':')) {
        i += 1;
    }
    if !square(i) {
        return None;
    }
    let mut out = format!("{}{}", &t[0..2], &t[i..i + 2]);
    let mut rest = &b[i + 2..];
    if rest.first() == Some(&b'=') {
        rest = &rest[1..];
    }
    match rest {
        [] => {}
        [p] if p.is_ascii_alphabetic() => out.push(p.to_ascii_lowercase() as char),
        _ => return None,
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(kind: VariantKind, fen: Option<&str>, moves: &[&str]) -> VariantGame {
        VariantGame::from_uci_moves(kind, fen, moves).unwrap()
    }

    #[test]
    fn normalizes_engine_moves() {
        let start = at(VariantKind::Chess, None, &[]);
        let n = |t: &str| normalize_move(&start, t);
        assert_eq!(n("e2e4"), "e2e4");
        assert_eq!(n("e2-e4"), "e2e4");
        assert_eq!(n("Nf3"), "g1f3");
        assert_eq!(n("Ng1f3+"), "g1f3");
        assert_eq!(n("e2e5"), "e2e5");
        assert_eq!(n("0000"), "0000");
        assert_eq!(n("garbage\u{0}é"), "garbage\u{0}é");
        let castle = at(
            VariantKind::Chess,
            None,
            &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"],
        );
        assert_eq!(normalize_move(&castle, "O-O"), "e1g1");
        assert_eq!(normalize_move(&castle, "e1h1"), "e1g1");
        let promo = Some("7k/P7/8/8/8/8/8/K7 w - - 0 1");
        let chess = at(VariantKind::Chess, promo, &[]);
        assert_eq!(normalize_move(&chess, "a7a8Q"), "a7a8q");
        assert_eq!(normalize_move(&chess, "a7a8=N"), "a7a8n");
        assert_eq!(normalize_move(&chess, "a8=Q+"), "a7a8q");
        let suicide = at(VariantKind::Suicide, promo, &[]);
        assert_eq!(normalize_move(&suicide, "a7a8K"), "a7a8k");
        let knightmate = at(VariantKind::Knightmate, promo, &[]);
        assert_eq!(normalize_move(&knightmate, "a7a8n"), "a7a8m");
    }
}
