//! Generates the sliding-piece attack tables (fancy magic bitboards, or PEXT
//! indexing when the `pext` feature is on and the target has BMI2) and the
//! between/line tables as static arrays, so lookups are plain memory reads.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn ray_attacks(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0u64;
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Relevant occupancy mask: the rays without their last square.
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0u64;
    let (f0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

fn subsets(mask: u64) -> Vec<u64> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

fn pext(src: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 0;
    while mask != 0 {
        let lsb = mask & mask.wrapping_neg();
        if src & lsb != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*: deterministic, so builds are reproducible.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn build_slider(dirs: &[(i32, i32)], use_pext: bool, table: &mut Vec<u64>, rng: &mut Rng) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let occs = subsets(mask);
        let attacks: Vec<u64> = occs.iter().map(|&o| ray_attacks(sq, o, dirs)).collect();
        let offset = table.len();
        let size = 1usize << bits;
        table.resize(offset + size, 0);
        if use_pext {
            for (o, a) in occs.iter().zip(&attacks) {
                table[offset + pext(*o, mask) as usize] = *a;
            }
            entries.push(Entry { mask, magic: 0, shift: 0, offset });
            continue;
        }
        let shift = 64 - bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            let ok = occs.iter().zip(&attacks).all(|(&o, &a)| {
                let idx = (o.wrapping_mul(magic) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = a;
                    true
                } else {
                    used[idx] == a
                }
            });
            if ok {
                break magic;
            }
        };
        table[offset..offset + size].copy_from_slice(&used);
        // Unused slots may hold stale values from failed attempts; they are never read.
        entries.push(Entry { mask, magic, shift, offset });
    }
    entries
}

fn write_entries(out: &mut String, name: &str, entries: &[Entry]) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            e.mask, e.magic, e.shift, e.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let use_pext = env::var("CARGO_FEATURE_PEXT").is_ok() && features.split(',').any(|f| f == "bmi2");

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = build_slider(&ROOK_DIRS, use_pext, &mut table, &mut rng);
    let bishop = build_slider(&BISHOP_DIRS, use_pext, &mut table, &mut rng);

    let mut out = String::new();
    writeln!(out, "// Generated by build.rs; do not edit.").unwrap();
    writeln!(out, "pub(crate) const USE_PEXT: bool = {use_pext};").unwrap();
    write_entries(&mut out, "ROOK_MAGICS", &rook);
    write_entries(&mut out, "BISHOP_MAGICS", &bishop);
    writeln!(out, "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [", table.len()).unwrap();
    for chunk in table.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();

    // BETWEEN[a][b]: squares strictly between a and b on a line, plus b itself
    // (so "block or capture the checker" is one mask). LINE[a][b]: the full line.
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for (dirs, _) in [(&ROOK_DIRS, 0), (&BISHOP_DIRS, 1)] {
            for b in 0..64 {
                if a == b {
                    continue;
                }
                let bb = 1u64 << b;
                if ray_attacks(a, 0, dirs) & bb != 0 {
                    between[a * 64 + b] = (ray_attacks(a, bb, dirs) & ray_attacks(b, 1u64 << a, dirs)) | bb;
                    line[a * 64 + b] = (ray_attacks(a, 0, dirs) & ray_attacks(b, 0, dirs)) | (1u64 << a) | bb;
                }
            }
        }
        for b in 0..64 {
            if between[a * 64 + b] == 0 {
                between[a * 64 + b] = 1u64 << b;
            }
        }
    }
    for (name, tab) in [("BETWEEN", &between), ("LINE", &line)] {
        writeln!(out, "pub(crate) static {name}: [[u64; 64]; 64] = [").unwrap();
        for a in 0..64 {
            let row: Vec<String> = tab[a * 64..a * 64 + 64].iter().map(|v| format!("{v:#x}")).collect();
            writeln!(out, "    [{}],", row.join(", ")).unwrap();
        }
        writeln!(out, "];").unwrap();
    }

    let dest = Path::new(&env::var("OUT_DIR").unwrap()).join("tables.rs");
    fs::write(dest, out).unwrap();
}
