//! The slider lookup of this process, chosen at run time: PEXT (BMI2) or
//! magic multiplication.
//!
//! Release builds target a portable baseline (`x86-64-v2` on x86-64, see
//! `.cargo/config.toml`) so that one binary runs on every node of a cluster;
//! the BMI2 instruction that makes slider lookups fast on newer CPUs is
//! therefore chosen here, at run time, and not by the compiler. The choice is
//! made on first use (CPUID through `is_x86_feature_detected!`, and the
//! environment) and stored in one byte; every lookup afterwards reads that
//! byte and takes a branch that always goes the same way, so the branch
//! predictor makes it free in practice. `attacks.rs` reads it in its one
//! slider function; both table layouts are in the binary (`build.rs`).
//!
//! Why a branch on a value fixed at start-up, not a type parameter chosen at
//! the edge like the game ([`dispatch!`](crate::dispatch)): a second type
//! parameter would thread through every generic function of the move
//! generator, the search and the evaluation, and double their code for a
//! saving of one load and one predicted branch per lookup.
//!
//! The choice:
//!
//! - `VARIA_NO_PEXT` set to anything but empty or `0`: magics (read once, at
//!   the first lookup). For tests and CI on BMI2 machines, and to compare the
//!   two.
//! - No BMI2 (and every CPU that is not x86-64): magics.
//! - AMD family 17h (Zen, Zen+, Zen 2) and Hygon family 18h (Dhyana, a Zen):
//!   magics. They run PEXT in microcode, at a cost that grows with the mask's
//!   bits, slower than a multiply and a shift; Zen 3 and later run it in
//!   hardware.
//! - Otherwise PEXT.

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

/// How slider attacks are looked up (the two give the same attacks; the
/// tests hold both to a ray-walking reference).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SliderLookup {
    /// `PEXT` of the occupancy by the relevant-occupancy mask (BMI2).
    Pext,
    /// Magic multiplication: `(occupancy & mask) * magic >> shift`.
    Magic,
}

impl SliderLookup {
    /// Its name, `pext` or `magic`.
    pub const fn name(self) -> &'static str {
        match self {
            SliderLookup::Pext => "pext",
            SliderLookup::Magic => "magic",
        }
    }
}

impl std::fmt::Display for SliderLookup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// [`set_slider_lookup`] asked for PEXT on a CPU without BMI2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this CPU has no BMI2, so no PEXT slider lookup")]
pub struct PextUnavailable;

/// The environment variable that turns PEXT off.
pub const NO_PEXT_VAR: &str = "VARIA_NO_PEXT";

#[cfg(target_arch = "x86_64")]
const UNKNOWN: u8 = 0;
#[cfg(target_arch = "x86_64")]
const MAGIC: u8 = 1;
#[cfg(target_arch = "x86_64")]
const PEXT: u8 = 2;

/// The lookup in use, [`UNKNOWN`] until the first lookup chooses it.
#[cfg(target_arch = "x86_64")]
static SLIDERS: AtomicU8 = AtomicU8::new(UNKNOWN);

/// The slider lookup this process uses (chosen on the first call, see the
/// module documentation).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn slider_lookup() -> SliderLookup {
    match SLIDERS.load(Ordering::Relaxed) {
        PEXT => SliderLookup::Pext,
        MAGIC => SliderLookup::Magic,
        _ => choose_slider_lookup(),
    }
}

/// The slider lookup this process uses: magics, the only one off x86-64.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub fn slider_lookup() -> SliderLookup {
    SliderLookup::Magic
}

#[cfg(target_arch = "x86_64")]
#[cold]
#[inline(never)]
fn choose_slider_lookup() -> SliderLookup {
    let (lookup, _) = detect_slider_lookup();
    // Threads that race here store the same value.
    store(lookup);
    lookup
}

#[cfg(target_arch = "x86_64")]
fn store(lookup: SliderLookup) {
    let code = match lookup {
        SliderLookup::Pext => PEXT,
        SliderLookup::Magic => MAGIC,
    };
    SLIDERS.store(code, Ordering::Relaxed);
}

/// Makes the process use `lookup` from now on (tests and benchmarks that
/// compare the two). Lookups already running are unaffected: both give the
/// same attacks, so the switch can happen at any time.
pub fn set_slider_lookup(lookup: SliderLookup) -> Result<(), PextUnavailable> {
    if lookup == SliderLookup::Pext && !has_bmi2() {
        return Err(PextUnavailable);
    }
    #[cfg(target_arch = "x86_64")]
    store(lookup);
    Ok(())
}

/// The lookup the rules of the module documentation pick for this CPU and
/// environment, and why, in a few words (`BMI2`, `no BMI2`,
/// `VARIA_NO_PEXT is set`, `PEXT is microcoded on this AMD CPU`).
pub fn detect_slider_lookup() -> (SliderLookup, &'static str) {
    if !has_bmi2() {
        return (SliderLookup::Magic, "no BMI2");
    }
    if let Some(v) = std::env::var_os(NO_PEXT_VAR) {
        if !v.is_empty() && v != "0" {
            return (SliderLookup::Magic, "VARIA_NO_PEXT is set");
        }
    }
    if pext_is_microcoded() {
        return (SliderLookup::Magic, "PEXT is microcoded on this AMD CPU");
    }
    (SliderLookup::Pext, "BMI2")
}

/// One line for a user: the lookup in use and why, e.g.
/// `slider lookup: pext (BMI2)`.
pub fn slider_lookup_summary() -> String {
    let used = slider_lookup();
    let (detected, why) = detect_slider_lookup();
    let why = if used == detected {
        why
    } else {
        "set by the program"
    };
    format!("slider lookup: {used} ({why})")
}

/// Whether this CPU has BMI2 (so the `pext` instruction).
pub fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// AMD family 17h and Hygon family 18h: PEXT in microcode.
fn pext_is_microcoded() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        // Leaves 0 (vendor) and 1 (family) exist on every x86-64 CPU.
        let (leaf0, leaf1) = (__cpuid(0), __cpuid(1));
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
        let base = (leaf1.eax >> 8) & 0xf;
        let family = if base == 0xf {
            base + ((leaf1.eax >> 20) & 0xff)
        } else {
            base
        };
        (&vendor == b"AuthenticAMD" && family == 0x17)
            || (&vendor == b"HygonGenuine" && family == 0x18)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_summary() {
        assert_eq!(SliderLookup::Pext.to_string(), "pext");
        assert_eq!(SliderLookup::Magic.to_string(), "magic");
        let line = slider_lookup_summary();
        assert!(line.starts_with("slider lookup: "), "{line}");
        assert!(!line.contains('\n'));
    }

    #[test]
    fn pext_is_refused_without_bmi2_and_detection_agrees() {
        let (detected, _) = detect_slider_lookup();
        if !has_bmi2() {
            assert_eq!(set_slider_lookup(SliderLookup::Pext), Err(PextUnavailable));
            assert_eq!(detected, SliderLookup::Magic);
        }
        if detected == SliderLookup::Pext {
            assert!(has_bmi2());
        }
    }
}
