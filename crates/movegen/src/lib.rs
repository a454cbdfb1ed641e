//! # movegen
//!
//! Legal move generation for standard chess and five variants (suicide,
//! threecheck, atomic, losers, knightmate): bitboards with PEXT or magic
//! slider lookups (chosen at run time, [`cpu`]), FEN/UCI/SAN, incremental
//! Zobrist keys, game outcome and perft.
//!
//! Positions are generic over a zero-sized [`Variant`] type ([`variants`]),
//! so each game's rules, and its slider lookup ([`cpu::Lookup`]), are
//! constants folded into its own copy of the hot code. Pick the game and
//! the lookup at run time once, with [`dispatch!`] (or [`with_position!`]
//! for a [`VariantGame`]); `Position<Atomic>` written out means the magic
//! lookup, which runs everywhere.
//!
//! ```
//! use movegen::{perft, variants::Atomic, Position};
//! let pos = Position::<Atomic>::startpos();
//! assert_eq!(perft(&pos, 3), 8902);
//! ```

#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
pub mod bucket_table;
pub mod cpu;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod perft;
mod perft_table;
mod position;
#[doc(hidden)]
pub mod slow_attacks;
mod splitmix;
mod stats;
mod types;
mod variant;
mod variant_game;
pub mod variants;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use fen::FenError;
pub use game::Game;
pub use moves::{Move, MoveKind, MoveList, MAX_MOVES};
pub use notation::MoveError;
pub use outcome::{EndReason, Outcome};
pub use perft::{divide, perft};
pub use perft_table::{perft_hashed, PerftTable};
pub use position::{castle, Position};
pub use splitmix::SplitMix64;
pub use stats::{leaf_stats, perft_stats, PerftStats, StatColumns, STAT_COUNT, STAT_NAMES};
pub use types::{Color, Piece, Role, Square};
pub use variant::{
    PgnVariantNames, UnknownPgnVariantNames, UnknownVariant, Variant, VariantKind, VariantMeta,
};
pub use variant_game::{GameSetupError, VariantGame};
