//! Distances on the board shared by the mate heuristics and the endgame
//! planner: a square's distance to the edge, and per-square move distances
//! of one piece (breadth-first over its moves).

use bastion_core::{attacks, Bitboard, Color, Role, Square};

/// King steps from `s` to the nearest edge of the board (0 on the edge, 3 in the centre).
pub fn edge_distance(s: Square) -> u32 {
    let f = s.file().index() as u32;
    let r = s.rank().index() as u32;
    f.min(7 - f).min(r).min(7 - r)
}

/// Per-square move distances of a `role` piece of `us` from `from` (forward
/// BFS; `u8::MAX` where it cannot go). Sliders are blocked by `blockers`;
/// squares in `no_stop` may be reached but not passed through (a piece
/// standing there would give check before the last move of a series);
/// `forbidden` squares cannot be entered at all.
pub fn distances(
    role: Role,
    us: Color,
    from: Square,
    blockers: Bitboard,
    no_stop: Bitboard,
    forbidden: Bitboard,
) -> [u8; 64] {
    let mut dist = [u8::MAX; 64];
    dist[from.index()] = 0;
    let mut frontier = Bitboard::from_square(from);
    let mut seen = frontier;
    let mut d = 0u8;
    while frontier.nonempty() {
        d += 1;
        let mut next = Bitboard::EMPTY;
        for s in frontier {
            if d > 1 && no_stop.contains(s) {
                continue;
            }
            next |= attacks::attacks(role, us, s, blockers);
        }
        next &= !seen & !forbidden & !blockers;
        for s in next {
            dist[s.index()] = d;
        }
        seen |= next;
        frontier = next;
    }
    dist
}
