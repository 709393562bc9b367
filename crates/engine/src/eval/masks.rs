//! Precomputed square masks for pawn-structure and king terms.

const fn build_forward_files() -> [[u64; 64]; 2] {
    // FORWARD_FILE[c][sq]: squares in front of `sq` on its file, from colour c's view.
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let mut s = sq + 8;
        while s < 64 {
            t[0][sq] |= 1 << s;
            s += 8;
        }
        let mut s = sq as i32 - 8;
        while s >= 0 {
            t[1][sq] |= 1 << s;
            s -= 8;
        }
        sq += 1;
    }
    t
}

/// Squares in front of a square on its own file, per colour.
pub static FORWARD_FILE: [[u64; 64]; 2] = build_forward_files();

const fn adjacent_files(file: usize) -> u64 {
    let f = 0x0101_0101_0101_0101u64;
    let mut m = 0;
    if file > 0 {
        m |= f << (file - 1);
    }
    if file < 7 {
        m |= f << (file + 1);
    }
    m
}

const fn build_spans() -> ([[u64; 64]; 2], [[u64; 64]; 2]) {
    let fwd = build_forward_files();
    let mut passed = [[0u64; 64]; 2];
    let mut attack_span = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let file = sq % 8;
            let mut span = fwd[c][sq];
            if file > 0 {
                span |= fwd[c][sq - 1];
            }
            if file < 7 {
                span |= fwd[c][sq + 1];
            }
            passed[c][sq] = span;
            attack_span[c][sq] = span & adjacent_files(file);
            sq += 1;
        }
        c += 1;
    }
    (passed, attack_span)
}

const SPANS: ([[u64; 64]; 2], [[u64; 64]; 2]) = build_spans();
/// Squares that enemy pawns must not occupy for a pawn on `sq` to be passed.
pub static PASSED_SPAN: [[u64; 64]; 2] = SPANS.0;
/// Squares ahead on adjacent files (where enemy pawns could attack a piece from).
pub static ATTACK_SPAN: [[u64; 64]; 2] = SPANS.1;

/// Adjacent files of `file` (not the file itself).
pub const fn adjacent(file: usize) -> u64 {
    adjacent_files(file)
}

/// The whole file.
pub const fn file_mask(file: usize) -> u64 {
    0x0101_0101_0101_0101u64 << file
}
