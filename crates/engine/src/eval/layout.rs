//! Where each evaluation term lives in the flat weight vector.
//!
//! Every weight is a middlegame/endgame pair ([`S`]); the evaluation is linear in
//! the weights, which is what lets `bastion tune` fit them by logistic regression.

/// A middlegame/endgame weight pair in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl std::ops::Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, n: i32) -> S {
        S(self.0 * n, self.1 * n)
    }
}

/// Material of pawn, knight, bishop, rook, queen.
pub const MATERIAL: usize = 0;
/// Piece-square tables: `role * 32 + rank * 4 + min(file, 7 - file)` (file-symmetric).
pub const PST: usize = MATERIAL + 5;
/// Knight mobility by number of reachable safe squares (0..=8).
pub const MOB_N: usize = PST + 6 * 32;
/// Bishop mobility (0..=13).
pub const MOB_B: usize = MOB_N + 9;
/// Rook mobility (0..=14).
pub const MOB_R: usize = MOB_B + 14;
/// Queen mobility (0..=27).
pub const MOB_Q: usize = MOB_R + 15;
/// Passed pawn by relative rank.
pub const PASSED: usize = MOB_Q + 28;
/// Passed pawn whose stop square is empty, by relative rank.
pub const PASSED_FREE: usize = PASSED + 8;
/// Passed pawn: own king distance (0..7) to the stop square.
pub const PASSED_OWN_KING: usize = PASSED_FREE + 8;
/// Passed pawn: enemy king distance (0..7) to the stop square.
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 8;
/// Isolated pawn.
pub const ISOLATED: usize = PASSED_ENEMY_KING + 8;
/// Doubled pawn (each pawn behind another of its colour on the file).
pub const DOUBLED: usize = ISOLATED + 1;
/// Backward pawn.
pub const BACKWARD: usize = DOUBLED + 1;
/// Connected (phalanx or defended) pawn by relative rank.
pub const CONNECTED: usize = BACKWARD + 1;
/// Each pawn island.
pub const ISLAND: usize = CONNECTED + 8;
/// King shelter: own pawn on each of the three files around the king, by its relative rank (0 = none).
pub const SHELTER: usize = ISLAND + 1;
/// Pawn storm: enemy pawn on those files, by its relative rank (0 = none).
pub const STORM: usize = SHELTER + 8;
/// Attacks of an enemy knight, bishop, rook, queen on the king zone (per square attacked):
/// `role * 4 + bin`, where the bin is the number of attacking pieces (1, 2, 3, 4+) so that
/// one piece's attacks weigh more when others join in.
pub const KING_ATTACK: usize = STORM + 8;
/// Number of enemy pieces attacking the king zone (0..7).
pub const KING_ATTACKERS: usize = KING_ATTACK + 16;
/// Safe checking squares of enemy knight, bishop, rook, queen.
pub const SAFE_CHECK: usize = KING_ATTACKERS + 8;
/// King on a file with no own pawn.
pub const KING_OPEN_FILE: usize = SAFE_CHECK + 4;
/// Two bishops.
pub const BISHOP_PAIR: usize = KING_OPEN_FILE + 1;
/// Rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// Rook on a file without own pawns.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Piece attacked by the enemy and not defended.
pub const HANGING: usize = ROOK_SEMI_OPEN + 1;
/// Non-pawn piece attacked by an enemy pawn.
pub const THREAT_BY_PAWN: usize = HANGING + 1;
/// Rook or queen attacked by an enemy minor piece.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Knight or bishop on an outpost (defended by a pawn, never attackable by enemy pawns).
pub const OUTPOST: usize = THREAT_BY_MINOR + 1;
/// Side to move bonus.
pub const TEMPO: usize = OUTPOST + 1;
/// Knight or bishop attacked by an enemy minor and not defended by a pawn.
pub const THREAT_MINOR_ON_MINOR: usize = TEMPO + 1;
/// Queen attacked by an enemy rook.
pub const THREAT_ROOK_ON_QUEEN: usize = THREAT_MINOR_ON_MINOR + 1;
/// Pawn attacked by the enemy and not defended.
pub const WEAK_PAWN: usize = THREAT_ROOK_ON_QUEEN + 1;
/// Piece an enemy pawn could attack with a safe push.
pub const PAWN_PUSH_THREAT: usize = WEAK_PAWN + 1;
/// Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_SEVENTH: usize = PAWN_PUSH_THREAT + 1;
/// Per bishop: own pawns on squares of the bishop's colour.
pub const BAD_BISHOP: usize = ROOK_SEVENTH + 1;
/// Knight or bishop directly behind a pawn.
pub const MINOR_BEHIND_PAWN: usize = BAD_BISHOP + 1;
/// King distance (0..7) to the nearest pawn of either colour.
pub const KING_PAWN_DIST: usize = MINOR_BEHIND_PAWN + 1;
/// Passed pawn whose whole path is empty and not attacked by the enemy, by relative rank.
pub const PASSED_SAFE_PATH: usize = KING_PAWN_DIST + 8;
/// King-zone squares the enemy attacks that only our king or queen defend.
pub const KING_WEAK_ZONE: usize = PASSED_SAFE_PATH + 8;
/// Safe central squares behind or around our pawns (space).
pub const SPACE: usize = KING_WEAK_ZONE + 1;
/// King-safety units (non-linear term, see `eval::safety_score`): king-zone squares attacked
/// by an enemy knight, bishop, rook, queen.
pub const SAFETY_ZONE: usize = SPACE + 1;
/// King-safety units: each enemy piece attacking the king zone.
pub const SAFETY_ATTACKERS: usize = SAFETY_ZONE + 4;
/// King-safety units: weak king-zone squares (attacked, defended only by king or queen).
pub const SAFETY_WEAK: usize = SAFETY_ATTACKERS + 1;
/// King-safety units: safe checks by an enemy knight, bishop, rook, queen.
pub const SAFETY_CHECK: usize = SAFETY_WEAK + 1;
/// King-safety units: the enemy has no queen.
pub const SAFETY_NO_QUEEN: usize = SAFETY_CHECK + 4;
/// King-safety units: constant offset.
pub const SAFETY_BIAS: usize = SAFETY_NO_QUEEN + 1;
/// Number of weights.
pub const NUM_PARAMS: usize = SAFETY_BIAS + 1;

/// Human-readable name of weight `i` (for the tuner's report).
pub fn param_name(i: usize) -> String {
    const GROUPS: &[(usize, &str)] = &[
        (MATERIAL, "material"),
        (PST, "pst"),
        (MOB_N, "mob_n"),
        (MOB_B, "mob_b"),
        (MOB_R, "mob_r"),
        (MOB_Q, "mob_q"),
        (PASSED, "passed"),
        (PASSED_FREE, "passed_free"),
        (PASSED_OWN_KING, "passed_own_king"),
        (PASSED_ENEMY_KING, "passed_enemy_king"),
        (ISOLATED, "isolated"),
        (DOUBLED, "doubled"),
        (BACKWARD, "backward"),
        (CONNECTED, "connected"),
        (ISLAND, "island"),
        (SHELTER, "shelter"),
        (STORM, "storm"),
        (KING_ATTACK, "king_attack"),
        (KING_ATTACKERS, "king_attackers"),
        (SAFE_CHECK, "safe_check"),
        (KING_OPEN_FILE, "king_open_file"),
        (BISHOP_PAIR, "bishop_pair"),
        (ROOK_OPEN, "rook_open"),
        (ROOK_SEMI_OPEN, "rook_semi_open"),
        (HANGING, "hanging"),
        (THREAT_BY_PAWN, "threat_by_pawn"),
        (THREAT_BY_MINOR, "threat_by_minor"),
        (OUTPOST, "outpost"),
        (TEMPO, "tempo"),
        (THREAT_MINOR_ON_MINOR, "threat_minor_on_minor"),
        (THREAT_ROOK_ON_QUEEN, "threat_rook_on_queen"),
        (WEAK_PAWN, "weak_pawn"),
        (PAWN_PUSH_THREAT, "pawn_push_threat"),
        (ROOK_SEVENTH, "rook_seventh"),
        (BAD_BISHOP, "bad_bishop"),
        (MINOR_BEHIND_PAWN, "minor_behind_pawn"),
        (KING_PAWN_DIST, "king_pawn_dist"),
        (PASSED_SAFE_PATH, "passed_safe_path"),
        (KING_WEAK_ZONE, "king_weak_zone"),
        (SPACE, "space"),
        (SAFETY_ZONE, "safety_zone"),
        (SAFETY_ATTACKERS, "safety_attackers"),
        (SAFETY_WEAK, "safety_weak"),
        (SAFETY_CHECK, "safety_check"),
        (SAFETY_NO_QUEEN, "safety_no_queen"),
        (SAFETY_BIAS, "safety_bias"),
    ];
    let mut best = (0, "?");
    for &(start, name) in GROUPS {
        if start <= i {
            best = (start, name);
        }
    }
    format!("{}[{}]", best.1, i - best.0)
}
