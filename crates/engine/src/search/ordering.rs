//! Move ordering: history tables and a staged move picker
//! (hash move, good captures, killers/counter/quiets by history, bad captures).

use crate::eval::pawns::pawn_attacks;
use arrayvec::ArrayVec;
use bastion_core::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use bastion_core::moves::MAX_MOVES;
use bastion_core::{Bitboard, CheckInfo, GenType, Move, MoveList, Position, Role, Square};

/// Index of a (piece, destination) pair in the continuation history, or
/// [`ContIndex::NONE`] where there is no move to continue from (before the root, after a
/// null move).
///
/// The index is a `usize` with `usize::MAX` for none inside, the representation the
/// search used as a bare number: the frames and the history lookups compile as before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContIndex(usize);

impl ContIndex {
    /// No previous move.
    pub const NONE: ContIndex = ContIndex(usize::MAX);

    /// The index of `piece` (0..12) arriving on `to` (0..64).
    #[inline]
    pub fn new(piece: usize, to: usize) -> ContIndex {
        ContIndex(piece * 64 + to)
    }

    /// The table index, or `None` for [`ContIndex::NONE`].
    #[inline]
    pub fn get(self) -> Option<usize> {
        (self != ContIndex::NONE).then_some(self.0)
    }
}
const HIST_MAX: i32 = 16_384;

/// All history-like statistics of one search thread.
pub struct Histories {
    /// Butterfly history `[colour][from][to]`.
    pub butterfly: Box<[[[i16; 64]; 64]; 2]>,
    /// Capture history `[piece][to][captured role]`.
    pub capture: Box<[[[i16; 6]; 64]; 12]>,
    /// Continuation history `[previous piece-to][piece-to]` (1, 2 and 4 plies back).
    pub cont: Vec<[i16; 768]>,
    /// Counter move `[previous piece][previous to]`.
    pub counter: Box<[[Move; 64]; 12]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            capture: Box::new([[[0; 6]; 64]; 12]),
            cont: vec![[0; 768]; 768],
            counter: Box::new([[Move::NULL; 64]; 12]),
        }
    }
}

/// Gravity update: moves `entry` toward ±HIST_MAX proportionally to `bonus`.
#[inline]
pub fn update(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-HIST_MAX, HIST_MAX);
    *entry = (e + b - e * b.abs() / HIST_MAX) as i16;
}

/// History bonus for a cutoff at `depth`.
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    (depth * depth * 20 + 40 * depth).min(2000)
}

/// Continuation index of `m` played in `pos`.
#[inline]
pub fn cont_index(pos: &Position, m: Move) -> ContIndex {
    match pos.piece_at(m.from()) {
        Some(p) => ContIndex::new(p.index(), m.to().index()),
        None => ContIndex::NONE,
    }
}

/// True if `m` captures something (castling is encoded king-takes-rook but is not a capture).
#[inline]
pub fn is_capture(pos: &Position, m: Move) -> bool {
    m.is_en_passant() || (!m.is_castling() && pos.piece_at(m.to()).is_some())
}

/// Captured role of a capture (pawn for en passant).
#[inline]
pub fn captured_role(pos: &Position, m: Move) -> Role {
    if m.is_en_passant() {
        Role::Pawn
    } else {
        pos.role_at(m.to()).unwrap_or(Role::Pawn)
    }
}

const MVV: [i32; 6] = [100, 300, 320, 500, 900, 0];

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    Tt,
    GenNoisy,
    GoodNoisy,
    GenQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// Context the picker needs to score quiet moves.
pub struct QuietContext<'a> {
    /// Histories of the thread.
    pub hist: &'a Histories,
    /// Killer moves of this ply.
    pub killers: [Move; 2],
    /// Counter move to the previous move.
    pub counter: Move,
    /// Continuation indices of the moves 1, 2 and 4 plies back.
    pub prev: [ContIndex; 3],
    /// Use butterfly history.
    pub use_history: bool,
    /// Use continuation history.
    pub use_cont: bool,
    /// Order quiet moves also by threats (lift pieces out of attack by lesser pieces,
    /// keep them out of it, try checks early), given the node's check info; `None`: not.
    pub threats: Option<&'a CheckInfo>,
}

/// Squares the opponent of the side to move attacks with pawns, with pawns or minor
/// pieces, and with pawns, minors or rooks.
struct Threats {
    by_pawn: Bitboard,
    by_minor: Bitboard,
    by_rook: Bitboard,
}

impl Threats {
    fn of(pos: &Position) -> Threats {
        let them = !pos.side_to_move();
        let occ = pos.occupied();
        let by_pawn = Bitboard(pawn_attacks(pos.pieces(them, Role::Pawn).0, them));
        let by_minor = pos.pieces(them, Role::Knight).fold(by_pawn, |b, sq| b | knight_attacks(sq));
        let by_minor = pos.pieces(them, Role::Bishop).fold(by_minor, |b, sq| b | bishop_attacks(sq, occ));
        let by_rook = pos.pieces(them, Role::Rook).fold(by_minor, |b, sq| b | rook_attacks(sq, occ));
        Threats { by_pawn, by_minor, by_rook }
    }

    /// Ordering adjustment of a quiet move of `role` from `from` to `to`: a bonus for
    /// escaping an attack by a lesser piece, a penalty for stepping into one. Sized
    /// against the history sum (three tables of at most `HIST_MAX`).
    fn score(&self, role: Role, from: Square, to: Square) -> i32 {
        let danger = match role {
            Role::Queen => self.by_rook,
            Role::Rook => self.by_minor,
            Role::Knight | Role::Bishop => self.by_pawn,
            Role::Pawn | Role::King => return 0,
        };
        let weight = match role {
            Role::Queen => 18_000,
            Role::Rook => 9_000,
            _ => 5_500,
        };
        match (danger.contains(from), danger.contains(to)) {
            (true, false) => weight,
            (false, true) => -weight,
            _ => 0,
        }
    }
}

/// Ordering bonus of a quiet check.
const CHECK_BONUS: i32 = 6_000;

/// Yields moves in the order they should be searched.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    list: MoveList,
    /// Ordering score of each move of `list`, same index.
    scores: ArrayVec<i32, MAX_MOVES>,
    idx: usize,
    bad: MoveList,
    bad_idx: usize,
    skip_quiets: bool,
    /// Only captures and promotions (quiescence).
    noisy_only: bool,
}

impl MovePicker {
    /// A picker for the main search (`noisy_only = false`) or quiescence.
    pub fn new(tt_move: Move, noisy_only: bool) -> MovePicker {
        MovePicker {
            stage: if tt_move.is_null() { Stage::GenNoisy } else { Stage::Tt },
            tt_move,
            list: MoveList::new(),
            scores: ArrayVec::new(),
            idx: 0,
            bad: MoveList::new(),
            bad_idx: 0,
            skip_quiets: false,
            noisy_only,
        }
    }

    /// Stops yielding quiet moves (late-move pruning).
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    fn pick_best(&mut self) -> Option<(Move, i32)> {
        if self.idx >= self.list.len() {
            return None;
        }
        let mut best = self.idx;
        for i in self.idx + 1..self.list.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.list.swap(self.idx, best);
        self.scores.swap(self.idx, best);
        let r = (self.list[self.idx], self.scores[self.idx]);
        self.idx += 1;
        Some(r)
    }

    /// The next move, or `None` when all are done. All yielded moves are legal.
    pub fn next(&mut self, pos: &Position, ctx: &QuietContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = Stage::GenNoisy;
                    return Some(self.tt_move);
                }
                Stage::GenNoisy => {
                    self.list.clear();
                    pos.generate_into(GenType::Noisy, &mut self.list);
                    self.scores.clear();
                    for i in 0..self.list.len() {
                        let m = self.list[i];
                        let victim = if is_capture(pos, m) { captured_role(pos, m) } else { Role::Pawn };
                        let mut s = if is_capture(pos, m) { MVV[victim.index()] * 16 } else { 0 };
                        if let Some(p) = m.promotion_role() {
                            s += if p == Role::Queen { 8000 } else { -20000 };
                        }
                        if let Some(pc) = pos.piece_at(m.from()) {
                            s += ctx.hist.capture[pc.index()][m.to().index()][victim.index()] as i32 / 16;
                        }
                        self.scores.push(s);
                    }
                    self.idx = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pick_best() {
                    Some((m, s)) => {
                        if m == self.tt_move {
                            continue;
                        }
                        if !self.noisy_only && (s < -10000 || !pos.see_ge(m, -s / 32)) {
                            self.bad.push(m);
                            continue;
                        }
                        return Some(m);
                    }
                    None => {
                        self.stage = if self.noisy_only { Stage::Done } else { Stage::GenQuiet };
                    }
                },
                Stage::GenQuiet => {
                    self.stage = Stage::Quiet;
                    if self.skip_quiets {
                        continue;
                    }
                    self.list.clear();
                    pos.generate_into(GenType::Quiet, &mut self.list);
                    self.scores.clear();
                    let us = pos.side_to_move().index();
                    let threats = ctx.threats.map(|check_info| (Threats::of(pos), check_info));
                    for i in 0..self.list.len() {
                        let m = self.list[i];
                        let s = if m == ctx.killers[0] {
                            1 << 24
                        } else if m == ctx.killers[1] {
                            (1 << 24) - 1
                        } else if m == ctx.counter {
                            (1 << 24) - 2
                        } else {
                            let mut s = 0;
                            if ctx.use_history {
                                s += ctx.hist.butterfly[us][m.from().index()][m.to().index()] as i32;
                            }
                            if ctx.use_cont {
                                if let Some(ci) = cont_index(pos, m).get() {
                                    for p in ctx.prev.iter().filter_map(|p| p.get()) {
                                        s += ctx.hist.cont[p][ci] as i32;
                                    }
                                }
                            }
                            // Castling is a king move, which the threat terms leave alone.
                            if let (Some((t, check_info)), Some(role)) = (&threats, pos.role_at(m.from())) {
                                s += t.score(role, m.from(), m.to());
                                if pos.gives_check_with(m, check_info) {
                                    s += CHECK_BONUS;
                                }
                            }
                            s
                        };
                        self.scores.push(s);
                    }
                    self.idx = 0;
                }
                Stage::Quiet => {
                    if !self.skip_quiets {
                        if let Some((m, _)) = self.pick_best() {
                            if m == self.tt_move {
                                continue;
                            }
                            return Some(m);
                        }
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_idx < self.bad.len() {
                        self.bad_idx += 1;
                        return Some(self.bad[self.bad_idx - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(fen: &str, threats: bool) -> Vec<String> {
        let pos = Position::from_fen(fen).unwrap();
        let hist = Histories::default();
        let check_info = pos.check_info();
        let ctx = QuietContext {
            hist: &hist,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            prev: [ContIndex::NONE; 3],
            use_history: true,
            use_cont: true,
            threats: threats.then_some(&check_info),
        };
        let mut picker = MovePicker::new(Move::NULL, false);
        std::iter::from_fn(|| picker.next(&pos, &ctx)).map(|m| pos.to_uci(m)).collect()
    }

    #[test]
    fn threats_lift_attacked_pieces_and_keep_them_out_of_attack() {
        // The d5 pawn attacks the knight on e4 (and c4); the g6 pawn covers f5 and h5.
        let fen = "4k3/8/6p1/3p4/4N3/8/8/4K3 w - - 0 1";
        let t = Threats::of(&Position::from_fen(fen).unwrap());
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let bb = |s: &str| Bitboard::from(sq(s));
        assert_eq!(t.by_pawn, bb("c4") | bb("e4") | bb("f5") | bb("h5"));
        assert_eq!(t.score(Role::Knight, sq("e4"), sq("d2")), 5_500, "escape");
        assert_eq!(t.score(Role::Knight, sq("e4"), sq("c4")), 0, "from one attack into another");
        assert_eq!(t.score(Role::Knight, sq("d2"), sq("c4")), -5_500, "into a pawn's attack");
        assert_eq!(t.score(Role::King, sq("e1"), sq("e2")), 0, "kings and pawns are left to history");

        // With empty histories only the threat terms order the quiet moves: all eight knight
        // escapes come before the king moves, and no move is lost or added.
        let with = order(fen, true);
        let mut all = with.clone();
        all.sort();
        let mut without = order(fen, false);
        without.sort();
        assert_eq!(all, without);
        assert_eq!(with.len(), 13);
        assert!(with[..8].iter().all(|m| m.starts_with("e4")), "{with:?}");
    }

    #[test]
    fn quiet_checks_are_tried_first_among_equals() {
        let with = order("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true);
        assert_eq!(with[0], "a1a8", "{with:?}");
    }
}
