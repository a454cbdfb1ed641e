//! The packed training-position format: a 32-byte header, then one 32-byte
//! record per position, every integer little-endian.
//!
//! Network training reads hundreds of millions of positions, so a position
//! is stored in a fixed 32 bytes that a trainer can seek into and decode
//! without parsing text: the occupied squares as one `u64`, then a 4-bit
//! code per occupied piece in square order (at most 32 pieces, which no game
//! of the six exceeds), then the label (the search's score from the side to
//! move's view, the game's result from White's) and the rest of the state
//! that decides the legal moves (side to move, en passant, castling,
//! threecheck's remaining checks, the clocks). Every field that a FEN holds
//! is here, so a record turns back into exactly the FEN movegen writes for
//! its position ([`PackedPosition::to_fen`]), and through it into the
//! [`Position`] itself.
//!
//! The game is in the header, not in each record: a file holds one game.
//! The layout is fixed (version 1) and documented byte by byte in
//! docs/datagen.md; this module is its one writer and reader.
//!
//! Header (32 bytes): `0..8` magic `VARIAPOS`, `8..10` version `u16` = 1,
//! `10` the game's index in [`VariantKind`]'s declaration order, `11..32` zero.
//!
//! Record (32 bytes): `0..8` occupancy, `8..24` piece nibbles
//! (`colour << 3 | role`), `24..26` score `i16`, `26` result (0 Black won,
//! 1 draw, 2 White won), `27` side to move (bit 7) and en-passant square
//! (bits 0..6, 64 for none), `28` castling rights (bits 0..3) and the checks
//! White (bits 4..5) and Black (bits 6..7) still have to give, `29` halfmove
//! clock (saturating), `30..32` fullmove number (saturating).

use movegen::{
    castle, Bitboard, Color, FenError, Piece, Position, Role, Square, Variant, VariantKind,
};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::Path;

/// The first eight bytes of every packed file.
pub const MAGIC: [u8; 8] = *b"VARIAPOS";
/// The format version this module writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER_LEN: usize = 32;
/// Bytes of one record.
pub const RECORD_LEN: usize = 32;
/// Largest magnitude of a stored score (centipawns).
pub const SCORE_LIMIT: i16 = 32000;
/// Most pieces a record holds.
pub const MAX_PIECES: usize = 32;
/// Result byte: Black won.
pub const BLACK_WIN: u8 = 0;
/// Result byte: a draw.
pub const DRAW: u8 = 1;
/// Result byte: White won.
pub const WHITE_WIN: u8 = 2;
/// The en-passant field when there is no en-passant square.
const NO_EP: u8 = 64;

/// What is wrong with a packed file, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum PackedError {
    /// Reading or writing failed.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The file does not start with `VARIAPOS`.
    #[error("{file}: not a varia packed-position file (no VARIAPOS magic)")]
    Magic {
        /// The file.
        file: String,
    },
    /// A version this reader does not know.
    #[error(
        "{file}: packed-position format version {version} (this varia reads version {VERSION})"
    )]
    Version {
        /// The file.
        file: String,
        /// The version found.
        version: u16,
    },
    /// A game index with no game.
    #[error("{file}: unknown game index {index} (0..{} are {})", VariantKind::ALL.len() - 1, game_list())]
    Game {
        /// The file.
        file: String,
        /// The index found.
        index: u8,
    },
    /// Header bytes 11..32 are not zero.
    #[error("{file}: reserved header bytes are not zero")]
    Reserved {
        /// The file.
        file: String,
    },
    /// The length is not a header plus whole records.
    #[error("{file}: {len} bytes is not a {HEADER_LEN}-byte header plus whole {RECORD_LEN}-byte records")]
    Length {
        /// The file.
        file: String,
        /// Its length.
        len: u64,
    },
    /// A record that no position encodes to.
    #[error("{file}: record {index}: {what}")]
    Record {
        /// The file.
        file: String,
        /// 0-based record number.
        index: u64,
        /// What is wrong.
        what: RecordError,
    },
}

fn game_list() -> String {
    VariantKind::ALL
        .iter()
        .map(|k| k.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What is wrong with the bytes of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// More than [`MAX_PIECES`] squares are occupied.
    #[error("{0} occupied squares (at most 32)")]
    TooManyPieces(u32),
    /// A piece code whose role index is 7.
    #[error("piece code {0} names no role")]
    BadPiece(u8),
    /// A nibble after the last piece is not zero.
    #[error("unused piece nibbles are not zero")]
    StrayNibble,
    /// A result byte above 2.
    #[error("result {0} (0, 1 or 2)")]
    BadResult(u8),
    /// An en-passant field above 64.
    #[error("en-passant field {0} (0..63, or 64 for none)")]
    BadEp(u8),
    /// A score beyond ±[`SCORE_LIMIT`].
    #[error("score {0} beyond ±32000")]
    BadScore(i16),
}

/// The game's index in [`VariantKind`]'s declaration order (the header's
/// game byte).
pub fn game_index(kind: VariantKind) -> u8 {
    kind as u8
}

/// The game of header byte `index`.
pub fn game_of_index(index: u8) -> Option<VariantKind> {
    VariantKind::ALL.get(usize::from(index)).copied()
}

/// The header of a packed file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The game of every record.
    pub game: VariantKind,
}

impl Header {
    /// The 32 header bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0u8; HEADER_LEN];
        b[0..8].copy_from_slice(&MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10] = game_index(self.game);
        b
    }

    /// Writes the header.
    pub fn write(&self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(&self.to_bytes())
    }

    /// The header in `bytes`; `file` names the file in errors.
    pub fn parse(bytes: &[u8; HEADER_LEN], file: &str) -> Result<Header, PackedError> {
        let file = || file.to_string();
        if bytes[0..8] != MAGIC {
            return Err(PackedError::Magic { file: file() });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(PackedError::Version {
                file: file(),
                version,
            });
        }
        let game = game_of_index(bytes[10]).ok_or(PackedError::Game {
            file: file(),
            index: bytes[10],
        })?;
        if bytes[11..].iter().any(|&b| b != 0) {
            return Err(PackedError::Reserved { file: file() });
        }
        Ok(Header { game })
    }

    /// The header of the file at `path` and its number of records, refusing
    /// a wrong magic, version or game and a length that is not a header
    /// plus whole records.
    pub fn read(path: &Path) -> Result<(Header, u64), PackedError> {
        let reader = PackedReader::open(path)?;
        Ok((reader.header, reader.len))
    }
}

/// One position in its 32 bytes.
///
/// Built from a position ([`PackedPosition::from_position`]) or from bytes
/// that are checked to decode ([`PackedPosition::from_bytes`]), so the
/// accessors never meet a code that names no piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedPosition([u8; RECORD_LEN]);

impl std::fmt::Debug for PackedPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PackedPosition(")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        write!(f, ")")
    }
}

impl PackedPosition {
    /// Packs `pos` with its `score` (centipawns, side to move's view; clamped
    /// to ±32000) and the game's `result` from White's view ([`BLACK_WIN`],
    /// [`DRAW`], [`WHITE_WIN`]).
    ///
    /// # Panics
    /// If `result` is above 2 or the position has more than 32 pieces (no
    /// position of the six games has): both are the caller's bug.
    pub fn from_position<V: Variant>(pos: &Position<V>, score: i16, result: u8) -> PackedPosition {
        assert!(result <= WHITE_WIN, "result byte {result} is not 0, 1 or 2");
        let board = pos.board();
        let occupied = board.occupied();
        assert!(
            occupied.count() as usize <= MAX_PIECES,
            "{} pieces do not fit a packed record",
            occupied.count()
        );
        let mut b = [0u8; RECORD_LEN];
        b[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        for (i, sq) in occupied.enumerate() {
            let piece = board.piece_at(sq).expect("an occupied square has a piece");
            let code = (piece.color.index() as u8) << 3 | piece.role.index() as u8;
            b[8 + i / 2] |= code << (4 * (i % 2));
        }
        let score = score.clamp(-SCORE_LIMIT, SCORE_LIMIT);
        b[24..26].copy_from_slice(&score.to_le_bytes());
        b[26] = result;
        let ep = pos.ep_square().map_or(NO_EP, |sq| sq.raw());
        b[27] = (pos.turn().index() as u8) << 7 | ep;
        b[28] = (pos.castling_rights() & castle::ALL)
            | (pos.checks_remaining(Color::White).min(3) << 4)
            | (pos.checks_remaining(Color::Black).min(3) << 6);
        b[29] = pos.halfmove_clock().min(255) as u8;
        b[30..32].copy_from_slice(
            &(pos.fullmove_number().min(u32::from(u16::MAX)) as u16).to_le_bytes(),
        );
        PackedPosition(b)
    }

    /// A record from its bytes, checked: at most 32 pieces, every piece code
    /// a role, unused nibbles zero, a result of 0..2, an en-passant field of
    /// 0..64 and a score within ±32000.
    pub fn from_bytes(bytes: [u8; RECORD_LEN]) -> Result<PackedPosition, RecordError> {
        let p = PackedPosition(bytes);
        let n = p.occupancy().count();
        if n as usize > MAX_PIECES {
            return Err(RecordError::TooManyPieces(n));
        }
        for i in 0..MAX_PIECES {
            let code = p.nibble(i);
            if i < n as usize {
                if Role::from_index(usize::from(code & 7)).is_none() {
                    return Err(RecordError::BadPiece(code));
                }
            } else if code != 0 {
                return Err(RecordError::StrayNibble);
            }
        }
        if p.result() > WHITE_WIN {
            return Err(RecordError::BadResult(p.result()));
        }
        if bytes[27] & 0x7f > NO_EP {
            return Err(RecordError::BadEp(bytes[27] & 0x7f));
        }
        if !(-SCORE_LIMIT..=SCORE_LIMIT).contains(&p.score()) {
            return Err(RecordError::BadScore(p.score()));
        }
        Ok(p)
    }

    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; RECORD_LEN] {
        &self.0
    }

    fn nibble(&self, i: usize) -> u8 {
        (self.0[8 + i / 2] >> (4 * (i % 2))) & 0xf
    }

    /// The occupied squares.
    pub fn occupancy(&self) -> Bitboard {
        Bitboard(u64::from_le_bytes(
            self.0[0..8].try_into().expect("8 bytes"),
        ))
    }

    /// The pieces, in increasing square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupancy().enumerate().map(|(i, sq)| {
            let code = self.nibble(i);
            let color = if code & 8 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let role = Role::from_index(usize::from(code & 7)).expect("checked when built");
            (sq, Piece { color, role })
        })
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        if self.0[27] & 0x80 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The search's score in centipawns, side to move's view.
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[24], self.0[25]])
    }

    /// The game's result from White's view: [`BLACK_WIN`], [`DRAW`] or [`WHITE_WIN`].
    pub fn result(&self) -> u8 {
        self.0[26]
    }

    /// The en-passant square (set only when a capture there is pseudo-legal).
    pub fn ep(&self) -> Option<Square> {
        Square::new(self.0[27] & 0x7f)
    }

    /// Castling rights as bits of [`castle`].
    pub fn castling(&self) -> u8 {
        self.0[28] & 0xf
    }

    /// Checks `color` still has to give (threecheck; 3 in the other games).
    pub fn checks_remaining(&self, color: Color) -> u8 {
        match color {
            Color::White => (self.0[28] >> 4) & 3,
            Color::Black => self.0[28] >> 6,
        }
    }

    /// Plies since the last capture or pawn move (saturated at 255).
    pub fn halfmove(&self) -> u8 {
        self.0[29]
    }

    /// The move number (saturated at 65535).
    pub fn fullmove(&self) -> u16 {
        u16::from_le_bytes([self.0[30], self.0[31]])
    }

    /// The FEN movegen writes for this position in game `kind` (threecheck
    /// with its remaining-checks field).
    pub fn to_fen(&self, kind: VariantKind) -> String {
        let mut squares: [Option<Piece>; 64] = [None; 64];
        for (sq, piece) in self.pieces() {
            squares[sq.index()] = Some(piece);
        }
        let mut s = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut empty = 0u8;
            for file in 0..8u8 {
                match squares[Square::from_coords(file, rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.turn().char());
        s.push(' ');
        let rights = self.castling();
        if rights == 0 {
            s.push('-');
        }
        for (bit, c) in [
            (castle::WHITE_KING, 'K'),
            (castle::WHITE_QUEEN, 'Q'),
            (castle::BLACK_KING, 'k'),
            (castle::BLACK_QUEEN, 'q'),
        ] {
            if rights & bit != 0 {
                s.push(c);
            }
        }
        s.push(' ');
        match self.ep() {
            Some(sq) => write!(s, "{sq}").expect("writing to a String"),
            None => s.push('-'),
        }
        if kind == VariantKind::ThreeCheck {
            write!(
                s,
                " {}+{}",
                self.checks_remaining(Color::White),
                self.checks_remaining(Color::Black)
            )
            .expect("writing to a String");
        }
        write!(s, " {} {}", self.halfmove(), self.fullmove()).expect("writing to a String");
        s
    }

    /// The position, through its FEN (so it is validated as any FEN is).
    pub fn to_position<V: Variant>(&self) -> Result<Position<V>, FenError> {
        Position::from_fen(&self.to_fen(V::KIND))
    }

    /// Writes the 32 bytes.
    pub fn write(&self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(&self.0)
    }
}

/// The records of a packed file, read through a buffer; the header and the
/// length are checked when it is opened, each record as it is read.
pub struct PackedReader {
    file: String,
    header: Header,
    len: u64,
    next: u64,
    input: BufReader<File>,
}

impl PackedReader {
    /// Opens `path`, checking its header and length ([`Header::read`]).
    pub fn open(path: &Path) -> Result<PackedReader, PackedError> {
        let file = path.display().to_string();
        let io = |source| PackedError::Io {
            file: file.clone(),
            source,
        };
        let f = File::open(path).map_err(io)?;
        let size = f.metadata().map_err(io)?.len();
        let mut input = BufReader::with_capacity(1 << 16, f);
        let mut head = [0u8; HEADER_LEN];
        if size < HEADER_LEN as u64 {
            // Too short for a header: say so as a wrong magic if the bytes
            // present are not its start, else as a length.
            let mut start = vec![0u8; size as usize];
            input.read_exact(&mut start).map_err(io)?;
            let n = start.len().min(MAGIC.len());
            if start[..n] != MAGIC[..n] {
                return Err(PackedError::Magic { file });
            }
            return Err(PackedError::Length { file, len: size });
        }
        input.read_exact(&mut head).map_err(io)?;
        let header = Header::parse(&head, &file)?;
        let body = size - HEADER_LEN as u64;
        if !body.is_multiple_of(RECORD_LEN as u64) {
            return Err(PackedError::Length { file, len: size });
        }
        Ok(PackedReader {
            file,
            header,
            len: body / RECORD_LEN as u64,
            next: 0,
            input,
        })
    }

    /// The file's header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// Records in the file.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// `true` if the file holds no record.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Iterator for PackedReader {
    type Item = Result<PackedPosition, PackedError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.len {
            return None;
        }
        let index = self.next;
        self.next += 1;
        let mut bytes = [0u8; RECORD_LEN];
        if let Err(source) = self.input.read_exact(&mut bytes) {
            self.next = self.len;
            return Some(Err(PackedError::Io {
                file: self.file.clone(),
                source,
            }));
        }
        Some(
            PackedPosition::from_bytes(bytes).map_err(|what| PackedError::Record {
                file: self.file.clone(),
                index,
                what,
            }),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::{dispatch, SplitMix64};
    use std::io::Seek;

    /// Every position of `games` random playouts of `V` (up to 300 plies each).
    fn playout_positions<V: Variant>(seed: u64, games: usize) -> Vec<Position<V>> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut pos = Position::<V>::startpos();
            for _ in 0..300 {
                out.push(pos);
                if pos.outcome().is_some() {
                    break;
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        out
    }

    /// Round-trips every position of random playouts of `V`; returns how
    /// many there were, how many had an en-passant square and how many a
    /// side with fewer than three checks to give.
    fn round_trip<V: Variant>() -> (usize, usize, usize) {
        let positions = playout_positions::<V>(0x9ac4 ^ V::KIND as u64, 40);
        let ep = positions.iter().filter(|p| p.ep_square().is_some()).count();
        let checks = positions
            .iter()
            .filter(|p| Color::ALL.iter().any(|&c| p.checks_remaining(c) < 3))
            .count();
        for (i, pos) in positions.iter().enumerate() {
            let score = ((i * 37) % 30000) as i16 - 15000;
            let result = (i % 3) as u8;
            let packed = PackedPosition::from_position(pos, score, result);
            assert_eq!(packed.to_fen(V::KIND), pos.fen(), "{}", V::KIND.name());
            assert_eq!(packed.to_position::<V>().unwrap(), *pos, "{}", pos.fen());
            assert_eq!(PackedPosition::from_bytes(*packed.as_bytes()), Ok(packed));
            assert_eq!((packed.score(), packed.result()), (score, result));
            assert_eq!(packed.turn(), pos.turn());
            assert_eq!(packed.ep(), pos.ep_square());
            assert_eq!(packed.castling(), pos.castling_rights());
            for c in Color::ALL {
                assert_eq!(packed.checks_remaining(c), pos.checks_remaining(c));
            }
            let pieces: Vec<_> = packed.pieces().collect();
            let expected: Vec<_> = pos
                .board()
                .occupied()
                .map(|sq| (sq, pos.board().piece_at(sq).unwrap()))
                .collect();
            assert_eq!(pieces, expected);
        }
        (positions.len(), ep, checks)
    }

    #[test]
    fn random_playouts_of_every_game_round_trip() {
        for kind in VariantKind::ALL {
            let (n, ep, checks) = dispatch!(kind, V => round_trip::<V>());
            assert!(
                n > 2000 && ep > 0,
                "{}: {n} positions, {ep} with en passant",
                kind.name()
            );
            assert_eq!(
                checks > 0,
                kind == VariantKind::ThreeCheck,
                "{}",
                kind.name()
            );
        }
    }

    #[test]
    fn the_game_byte_is_the_declaration_index() {
        for (i, kind) in VariantKind::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(game_index(kind)), i);
            assert_eq!(game_of_index(i as u8), Some(kind));
        }
        assert_eq!(game_of_index(6), None);
    }

    #[test]
    fn layout_of_the_start_position() {
        let pos = Position::<movegen::variants::ThreeCheck>::from_fen(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+1 0 2",
        )
        .unwrap();
        let p = PackedPosition::from_position(&pos, -32700, DRAW);
        let b = p.as_bytes();
        assert_eq!(
            u64::from_le_bytes(b[0..8].try_into().unwrap()),
            0xffef_0010_1000_efff
        );
        // a1 white rook (3), b1 white knight (1): low nibble first.
        assert_eq!(b[8], 0x13);
        // a8 black rook (8|3) and b8 black knight (8|1) are pieces 24 and 25.
        assert_eq!(b[8 + 12], 0x9b);
        assert_eq!(i16::from_le_bytes([b[24], b[25]]), -32000);
        assert_eq!(b[26], 1);
        assert_eq!(b[27], 64);
        assert_eq!(b[28], 0xf | 2 << 4 | 1 << 6);
        assert_eq!((b[29], b[30], b[31]), (0, 2, 0));
    }

    #[test]
    fn clocks_saturate() {
        let pos =
            Position::<movegen::variants::Chess>::from_fen("8/8/8/4k3/8/8/8/4K3 b - - 300 70000")
                .unwrap();
        let p = PackedPosition::from_position(&pos, 0, DRAW);
        assert_eq!(
            (p.halfmove(), p.fullmove(), p.turn()),
            (255, 65535, Color::Black)
        );
        // Two kings: nibbles 2..32 are unused and must stay zero.
        let mut bytes = *p.as_bytes();
        bytes[9] = 0x10;
        assert_eq!(
            PackedPosition::from_bytes(bytes),
            Err(RecordError::StrayNibble)
        );
    }

    fn file_with(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        f.write_all(bytes).unwrap();
        f.flush().unwrap();
        f
    }

    #[test]
    fn a_file_reads_back_and_bad_files_are_refused() {
        let positions = playout_positions::<movegen::variants::Atomic>(5, 3);
        let mut bytes = Vec::new();
        let header = Header {
            game: VariantKind::Atomic,
        };
        header.write(&mut bytes).unwrap();
        let packed: Vec<_> = positions
            .iter()
            .map(|p| PackedPosition::from_position(p, 12, WHITE_WIN))
            .collect();
        for p in &packed {
            p.write(&mut bytes).unwrap();
        }
        let f = file_with(&bytes);
        assert_eq!(
            Header::read(f.path()).unwrap(),
            (header, packed.len() as u64)
        );
        let back: Vec<_> = PackedReader::open(f.path())
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, packed);

        let refuse = |bytes: &[u8], what: &str| {
            let f = file_with(bytes);
            let name = f.path().display().to_string();
            let e = match PackedReader::open(f.path()) {
                Err(e) => e.to_string(),
                Ok(r) => match r.collect::<Result<Vec<_>, _>>() {
                    Err(e) => e.to_string(),
                    Ok(_) => panic!("accepted: {what}"),
                },
            };
            assert!(
                e.starts_with(&name) && e.contains(what),
                "{e} (wanted {what})"
            );
            assert!(!e.contains('\n'));
        };
        refuse(&bytes[..bytes.len() - 5], "whole 32-byte records");
        refuse(&bytes[..20], "whole 32-byte records");
        refuse(b"fen,result\n", "VARIAPOS");
        let mut other = bytes.clone();
        other[8] = 2;
        refuse(&other, "version 2");
        let mut other = bytes.clone();
        other[10] = 6;
        refuse(&other, "unknown game index 6");
        let mut other = bytes.clone();
        other[HEADER_LEN + 26] = 3;
        refuse(&other, "record 0: result 3");
        let mut other = bytes.clone();
        other[HEADER_LEN + RECORD_LEN + 27] = 65;
        refuse(&other, "record 1: en-passant field 65");
        let mut other = bytes;
        other[HEADER_LEN + 8] = 0x7;
        refuse(&other, "piece code 7");

        // Read through a `File` that is positioned past the header.
        let mut f = File::open(f.path()).unwrap();
        f.seek(std::io::SeekFrom::Start(HEADER_LEN as u64)).unwrap();
        let mut first = [0u8; RECORD_LEN];
        f.read_exact(&mut first).unwrap();
        assert_eq!(PackedPosition::from_bytes(first).unwrap(), packed[0]);
    }
}
