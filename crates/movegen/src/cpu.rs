//! The instruction-set choices of this process, made at run time: the
//! slider lookup (PEXT with BMI2, or magic multiplication) and whether the
//! network's vector loops use AVX2 (`search::nnue`).
//!
//! Release builds target a portable baseline (`x86-64-v2` on x86-64, see
//! `.cargo/config.toml`) so that one binary runs on every node of a cluster;
//! the instructions that make the hot paths fast on newer CPUs are therefore
//! chosen here, at run time, and not by the compiler. Each choice is made on
//! its first use (CPUID through `is_x86_feature_detected!`, and the
//! environment) and stored in one byte.
//!
//! The slider lookup is then fixed for the code that runs the hot loops by
//! a type: each game type takes a [`Lookup`] parameter ([`MagicLookup`] or
//! [`PextLookup`], `Chess<L = MagicLookup>`), the game's
//! [`Variant::Lookup`](crate::Variant::Lookup) picks the table in
//! `attacks.rs`, and [`dispatch!`](crate::dispatch) (or
//! [`with_position!`](crate::with_position) for a
//! [`VariantGame`](crate::VariantGame)) reads the byte once and runs the
//! code compiled for the chosen lookup. The network reads [`avx2`] once per
//! accumulator update, refresh or output, outside their loops.
//!
//! Why a type parameter and not a branch on the byte in each lookup: the
//! branch, though always predicted, puts a load, a compare and a rarely
//! taken call in the innermost code, and cost about a fifth of perft's
//! speed when measured (x86-64-v2 builds, 2026-12-07: atomic's start
//! position at 8.0 times shakmaty's speed with the branch, 11.0 to 11.5
//! with PEXT fixed at compile time). As a parameter of the game type
//! it rides on the generic code that already exists for the game, at the
//! cost of that code compiled twice (both lookups) in the binaries that
//! dispatch; the edges that run no hot loop use
//! [`dispatch_cold!`](crate::dispatch_cold), compiled once with magics. The
//! default parameter keeps `Position<Chess>` meaning what it meant: magics,
//! correct on every CPU. The non-generic [`crate::attacks::rook_attacks`]
//! and its siblings still branch per call, for code outside the hot paths.
//!
//! The slider lookup:
//!
//! - `VARIA_NO_PEXT` set to anything but empty or `0`: magics (read once).
//!   For tests and CI on BMI2 machines, and to compare the two.
//! - No BMI2 (and every CPU that is not x86-64): magics.
//! - AMD family 17h (Zen, Zen+, Zen 2) and Hygon family 18h (Dhyana, a Zen):
//!   magics. They run PEXT in microcode, at a cost that grows with the mask's
//!   bits, slower than a multiply and a shift; Zen 3 and later run it in
//!   hardware.
//! - Otherwise PEXT.
//!
//! The vector code: AVX2 where the CPU has it, unless `VARIA_NO_AVX2` is set
//! (as above); otherwise the baseline's SSE.

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

mod sealed {
    /// Only the two lookups of this module implement [`super::Lookup`].
    pub trait Sealed {}
}

/// A slider lookup as a type: the game types carry one
/// ([`Variant::Lookup`](crate::Variant::Lookup)), so that the code compiled
/// for a game knows its lookup as a constant and the hot loops hold no
/// branch on it. Implemented only by [`MagicLookup`] and [`PextLookup`].
pub trait Lookup:
    sealed::Sealed
    + Copy
    + Clone
    + std::fmt::Debug
    + Default
    + PartialEq
    + Eq
    + std::hash::Hash
    + Send
    + Sync
    + 'static
{
    /// The lookup this type stands for.
    const LOOKUP: SliderLookup;
}

/// The magic-multiplication lookup as a type: correct on every CPU, and the
/// default of every game type (`Chess` is `Chess<MagicLookup>`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MagicLookup;

/// The PEXT lookup as a type.
///
/// Code instantiated with it executes the BMI2 instruction `pext`, which
/// kills the process with an illegal instruction (SIGILL) on a CPU without
/// BMI2. Only [`dispatch!`](crate::dispatch) and
/// [`with_lookup!`](crate::with_lookup) should name it, after
/// [`slider_lookup`] chose PEXT; naming it directly (`Chess<PextLookup>`)
/// is for tests that first check [`has_bmi2`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PextLookup;

impl sealed::Sealed for MagicLookup {}
impl sealed::Sealed for PextLookup {}

impl Lookup for MagicLookup {
    const LOOKUP: SliderLookup = SliderLookup::Magic;
}

impl Lookup for PextLookup {
    const LOOKUP: SliderLookup = SliderLookup::Pext;
}

/// [`set_slider_lookup`] asked for PEXT on a CPU without BMI2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this CPU has no BMI2, so no PEXT slider lookup")]
pub struct PextUnavailable;

/// The environment variable that turns PEXT off.
pub const NO_PEXT_VAR: &str = "VARIA_NO_PEXT";

/// The environment variable that turns AVX2 off.
pub const NO_AVX2_VAR: &str = "VARIA_NO_AVX2";

/// One yes/no choice made on first use: `UNKNOWN`, then `NO` or `YES`.
#[cfg(target_arch = "x86_64")]
struct Choice(AtomicU8);

#[cfg(target_arch = "x86_64")]
const UNKNOWN: u8 = 0;
#[cfg(target_arch = "x86_64")]
const NO: u8 = 1;
#[cfg(target_arch = "x86_64")]
const YES: u8 = 2;

#[cfg(target_arch = "x86_64")]
impl Choice {
    const fn new() -> Choice {
        Choice(AtomicU8::new(UNKNOWN))
    }

    /// The choice, made by `detect` on the first call. Written so that a
    /// yes costs one compare and branch (the fast instructions' path).
    #[inline(always)]
    fn get(&self, detect: fn() -> (bool, &'static str)) -> bool {
        let v = self.0.load(Ordering::Relaxed);
        if v == YES {
            return true;
        }
        if v == UNKNOWN {
            return self.choose(detect);
        }
        false
    }

    #[cold]
    #[inline(never)]
    fn choose(&self, detect: fn() -> (bool, &'static str)) -> bool {
        let (yes, _) = detect();
        // Threads that race here store the same value.
        self.set(yes);
        yes
    }

    fn set(&self, yes: bool) {
        self.0.store(if yes { YES } else { NO }, Ordering::Relaxed);
    }
}

#[cfg(target_arch = "x86_64")]
static PEXT: Choice = Choice::new();
#[cfg(target_arch = "x86_64")]
static AVX2: Choice = Choice::new();

/// The slider lookup this process uses (chosen on the first call, see the
/// module documentation).
#[inline(always)]
pub fn slider_lookup() -> SliderLookup {
    #[cfg(target_arch = "x86_64")]
    if PEXT.get(detect_pext) {
        return SliderLookup::Pext;
    }
    SliderLookup::Magic
}

/// Whether this process runs the network's vector loops with AVX2 (chosen
/// on the first call, see the module documentation). True only where the
/// CPU has AVX2: code compiled for AVX2 may run when this says so.
#[inline(always)]
pub fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        AVX2.get(detect_avx2)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Makes the process use `lookup` from now on (tests and benchmarks that
/// compare the two): the next [`dispatch!`](crate::dispatch) runs the code
/// compiled for it. Code already dispatched keeps its lookup: both give the
/// same attacks, so the switch can happen at any time.
pub fn set_slider_lookup(lookup: SliderLookup) -> Result<(), PextUnavailable> {
    if lookup == SliderLookup::Pext && !has_bmi2() {
        return Err(PextUnavailable);
    }
    #[cfg(target_arch = "x86_64")]
    PEXT.set(lookup == SliderLookup::Pext);
    Ok(())
}

/// The lookup the rules of the module documentation pick for this CPU and
/// environment, and why, in a few words (`BMI2`, `no BMI2`,
/// `VARIA_NO_PEXT is set`, `PEXT is microcoded on this AMD CPU`).
pub fn detect_slider_lookup() -> (SliderLookup, &'static str) {
    match detect_pext() {
        (true, why) => (SliderLookup::Pext, why),
        (false, why) => (SliderLookup::Magic, why),
    }
}

fn detect_pext() -> (bool, &'static str) {
    if !has_bmi2() {
        return (false, "no BMI2");
    }
    if env_set(NO_PEXT_VAR) {
        return (false, "VARIA_NO_PEXT is set");
    }
    if pext_is_microcoded() {
        return (false, "PEXT is microcoded on this AMD CPU");
    }
    (true, "BMI2")
}

fn detect_avx2() -> (bool, &'static str) {
    if !has_avx2() {
        return (false, "no AVX2");
    }
    if env_set(NO_AVX2_VAR) {
        return (false, "VARIA_NO_AVX2 is set");
    }
    (true, "AVX2")
}

/// Whether the variable `name` is set to anything but empty or `0`.
fn env_set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

/// One line for a user: the choices in use and why, e.g.
/// `slider lookup: pext (BMI2), vector code: avx2 (AVX2)`.
pub fn summary() -> String {
    let (pext, why_pext) = detect_pext();
    let (avx2_detected, why_avx2) = detect_avx2();
    let lookup = slider_lookup();
    let why_pext = if (lookup == SliderLookup::Pext) == pext {
        why_pext
    } else {
        "set by the program"
    };
    let (vector, why_avx2) = match avx2() {
        true => ("avx2", why_avx2),
        false => (
            "sse",
            if avx2_detected {
                "set by the program"
            } else {
                why_avx2
            },
        ),
    };
    format!("slider lookup: {lookup} ({why_pext}), vector code: {vector} ({why_avx2})")
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

/// Whether this CPU has AVX2.
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
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
        let line = summary();
        assert!(line.starts_with("slider lookup: "), "{line}");
        assert!(line.contains(", vector code: "), "{line}");
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
        if avx2() {
            assert!(has_avx2());
        }
    }
}
