//! The `--variant` help text shared by every subcommand. It is built from the
//! variant registry ([`VariantKind::accepted_names`]) instead of being copied
//! into each subcommand, so a new game or alias shows up everywhere at once.
//! The argument itself is a [`VariantKind`], parsed by its `FromStr`.

use movegen::VariantKind;

/// The `--variant` help: the accepted names, then `note` (what happens
/// without the option, if it is optional; may be empty).
pub fn help(note: &str) -> String {
    let names = format!("The game: {}", VariantKind::accepted_names());
    if note.is_empty() {
        names
    } else {
        format!("{names}. {note}")
    }
}
