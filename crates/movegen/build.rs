//! Generates the slider attack tables at build time.
//!
//! Two tables with one layout of slices (square by square, `2^bits` entries
//! each, the same `offset`s): one indexed by magic multiplication, whose
//! multipliers are searched here (deterministically, a fixed PRNG seed), and
//! on x86-64 one indexed by PEXT. Which one a process reads is chosen at run
//! time (`src/cpu.rs`), so one binary runs on every x86-64 CPU and uses PEXT
//! where BMI2 is there. The ray walking itself lives in
//! `src/slow_attacks.rs`, shared with the library, whose tests check every
//! entry of both tables against it.

use std::fmt::Write as _;
use std::path::Path;

#[allow(dead_code)]
#[path = "src/slow_attacks.rs"]
mod slow;
use slow::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find_magic(sq: u32, mask: u64, dirs: &[(i32, i32); 4], rng: &mut Rng) -> u64 {
    let bits = mask.count_ones();
    let n = 1usize << bits;
    let occs: Vec<u64> = (0..n as u64).map(|i| deposit(i, mask)).collect();
    let atts: Vec<u64> = occs
        .iter()
        .map(|&o| slow_slider_attacks(sq, o, dirs))
        .collect();
    let mut used = vec![0u64; n];
    let mut epoch = vec![0u32; n];
    let mut tries = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        tries += 1;
        let mut ok = true;
        for i in 0..n {
            let idx = (occs[i].wrapping_mul(magic) >> (64 - bits)) as usize;
            if epoch[idx] != tries {
                epoch[idx] = tries;
                used[idx] = atts[i];
            } else if used[idx] != atts[i] {
                ok = false;
                break;
            }
        }
        if ok {
            return magic;
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src/slow_attacks.rs");
    println!("cargo:rerun-if-changed=build.rs");
    // The PEXT table only where the instruction can exist.
    let pext = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64");

    let mut magic_table: Vec<u64> = Vec::new();
    let mut pext_table: Vec<u64> = Vec::new();
    let mut out = String::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (name, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
        let mut entries = Vec::new();
        for sq in 0..64u32 {
            let mask = slider_mask(sq, dirs);
            let bits = mask.count_ones();
            let offset = magic_table.len();
            let len = 1usize << bits;
            magic_table.resize(offset + len, 0);
            if pext {
                pext_table.resize(offset + len, 0);
            }
            let magic = find_magic(sq, mask, dirs, &mut rng);
            for i in 0..(1u64 << bits) {
                let occ = deposit(i, mask);
                let attacks = slow_slider_attacks(sq, occ, dirs);
                let idx = (occ.wrapping_mul(magic) >> (64 - bits)) as usize;
                magic_table[offset + idx] = attacks;
                if pext {
                    // PEXT of `occ` by `mask` is `i`: deposit's inverse.
                    pext_table[offset + i as usize] = attacks;
                }
            }
            entries.push((mask, magic, offset, 64 - bits));
        }
        writeln!(out, "pub(crate) static {name}_MAGICS: [Magic; 64] = [").unwrap();
        for (mask, magic, offset, shift) in entries {
            writeln!(
                out,
                "    Magic {{ mask: {mask:#018x}, magic: {magic:#018x}, offset: {offset}, shift: {shift} }},"
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    writeln!(
        out,
        "pub(crate) const SLIDER_TABLE_LEN: usize = {};",
        magic_table.len()
    )
    .unwrap();
    write_table(&mut out, "MAGIC_TABLE", &magic_table);
    if pext {
        write_table(&mut out, "PEXT_TABLE", &pext_table);
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("slider_tables.rs");
    std::fs::write(dest, out).unwrap();
}

/// Writes `table` as `static NAME: [u64; SLIDER_TABLE_LEN]`.
fn write_table(out: &mut String, name: &str, table: &[u64]) {
    writeln!(out, "pub(crate) static {name}: [u64; SLIDER_TABLE_LEN] = [").unwrap();
    for chunk in table.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}
