//! The evaluation weights. Initial hand-set values, replaced by `bastion tune` output.

use super::layout::*;

/// The weights the engine plays with (see [`super::layout`] for the index map).
pub static WEIGHTS: [S; NUM_PARAMS] = initial();

const fn initial() -> [S; NUM_PARAMS] {
    let mut w = [S(0, 0); NUM_PARAMS];
    w[MATERIAL] = S(82, 100);
    w[MATERIAL + 1] = S(337, 290);
    w[MATERIAL + 2] = S(365, 305);
    w[MATERIAL + 3] = S(477, 520);
    w[MATERIAL + 4] = S(1025, 950);
    let mut sq = 0;
    while sq < 32 {
        let rank = (sq / 4) as i32;
        let file = (sq % 4) as i32; // 0 = edge, 3 = centre
        let centre = file + if rank >= 3 && rank <= 4 { 3 } else if rank >= 2 && rank <= 5 { 2 } else { 0 };
        // pawns: advance, centre files in the middlegame
        w[PST + sq] = if rank == 0 || rank == 7 { S(0, 0) } else { S((rank - 1) * 3 + file * 3 * (rank >= 2 && rank <= 4) as i32, (rank - 1) * 8) };
        w[PST + 32 + sq] = S(centre * 8 - 20, centre * 6 - 15);
        w[PST + 64 + sq] = S(centre * 4 - 10, centre * 4 - 10);
        w[PST + 96 + sq] = S(if rank == 6 { 15 } else { file * 2 }, 0);
        w[PST + 128 + sq] = S(centre * 2 - 5, centre * 6 - 15);
        w[PST + 160 + sq] = S(if rank == 0 { [20, 30, 10, 0][file as usize] } else { -15 * rank }, centre * 8 - 25);
        sq += 1;
    }
    let mut i = 0;
    while i < 9 {
        w[MOB_N + i] = S((i as i32 - 4) * 6, (i as i32 - 4) * 6);
        i += 1;
    }
    i = 0;
    while i < 14 {
        w[MOB_B + i] = S((i as i32 - 6) * 5, (i as i32 - 6) * 5);
        i += 1;
    }
    i = 0;
    while i < 15 {
        w[MOB_R + i] = S((i as i32 - 7) * 3, (i as i32 - 7) * 6);
        i += 1;
    }
    i = 0;
    while i < 28 {
        w[MOB_Q + i] = S((i as i32 - 13) * 2, (i as i32 - 13) * 4);
        i += 1;
    }
    let passed = [0, 5, 10, 20, 35, 60, 100, 0];
    i = 0;
    while i < 8 {
        w[PASSED + i] = S(passed[i] / 2, passed[i]);
        w[PASSED_FREE + i] = S(0, passed[i] / 3);
        w[PASSED_OWN_KING + i] = S(0, -(i as i32) * 4);
        w[PASSED_ENEMY_KING + i] = S(0, i as i32 * 8);
        w[CONNECTED + i] = S(passed[i] / 4 + 3, passed[i] / 5 + 2);
        i += 1;
    }
    w[ISOLATED] = S(-8, -12);
    w[DOUBLED] = S(-10, -20);
    w[BACKWARD] = S(-6, -6);
    w[ISLAND] = S(-4, -6);
    let shelter = [-20, 0, 20, 12, 4, 0, 0, 0];
    let storm = [0, 0, 0, -20, -10, -5, 0, 0];
    i = 0;
    while i < 8 {
        w[SHELTER + i] = S(shelter[i], 0);
        w[STORM + i] = S(storm[i], 0);
        w[KING_ATTACKERS + i] = S(-(i as i32 * i as i32) * 8, 0);
        i += 1;
    }
    w[KING_ATTACK] = S(-6, 0);
    w[KING_ATTACK + 1] = S(-6, 0);
    w[KING_ATTACK + 2] = S(-8, 0);
    w[KING_ATTACK + 3] = S(-10, 0);
    w[SAFE_CHECK] = S(-30, -5);
    w[SAFE_CHECK + 1] = S(-20, -5);
    w[SAFE_CHECK + 2] = S(-30, -5);
    w[SAFE_CHECK + 3] = S(-25, -5);
    w[KING_OPEN_FILE] = S(-20, 0);
    w[BISHOP_PAIR] = S(30, 50);
    w[ROOK_OPEN] = S(30, 10);
    w[ROOK_SEMI_OPEN] = S(15, 5);
    w[HANGING] = S(-30, -20);
    w[THREAT_BY_PAWN] = S(-50, -40);
    w[THREAT_BY_MINOR] = S(-30, -20);
    w[OUTPOST] = S(20, 10);
    w[TEMPO] = S(15, 5);
    w
}
