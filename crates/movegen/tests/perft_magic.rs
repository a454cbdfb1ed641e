//! The public perft table's small rows with the magic slider lookup forced,
//! whatever the CPU: on a BMI2 machine every other test dispatches to the
//! games compiled with `PextLookup`, and this one, after
//! `set_slider_lookup(Magic)` (what `VARIA_NO_PEXT=1` does at start-up), to
//! the ones compiled with `MagicLookup` (the attack-table tests compare the
//! two lookups entry by entry; this runs them through the move generator).
//! A test binary of its own, so the switch concerns this process alone.

mod common;
use common::{check_public_rows, small_public_rows};
use movegen::cpu::{set_slider_lookup, slider_lookup, SliderLookup};

#[test]
fn public_perft_small_rows_with_magic_sliders() {
    set_slider_lookup(SliderLookup::Magic).expect("magics exist everywhere");
    assert_eq!(slider_lookup(), SliderLookup::Magic);
    movegen::dispatch!(movegen::VariantKind::Atomic, V => {
        assert_eq!(
            <<V as movegen::Variant>::Lookup as movegen::cpu::Lookup>::LOOKUP,
            SliderLookup::Magic
        );
    });
    check_public_rows(&small_public_rows());
    assert_eq!(slider_lookup(), SliderLookup::Magic);
}
