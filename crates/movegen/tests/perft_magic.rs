//! The public perft table's small rows with the magic slider lookup forced,
//! whatever the CPU: on a BMI2 machine every other test runs the PEXT lookup
//! through perft, and this one the magic lookup (the attack-table tests
//! compare the two lookups entry by entry; this runs them through the move
//! generator). A test binary of its own, so the switch concerns this process
//! alone.

mod common;
use common::{check_public_rows, small_public_rows};
use movegen::cpu::{set_slider_lookup, slider_lookup, SliderLookup};

#[test]
fn public_perft_small_rows_with_magic_sliders() {
    set_slider_lookup(SliderLookup::Magic).expect("magics exist everywhere");
    assert_eq!(slider_lookup(), SliderLookup::Magic);
    check_public_rows(&small_public_rows());
    assert_eq!(slider_lookup(), SliderLookup::Magic);
}
