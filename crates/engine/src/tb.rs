//! The engine's view of endgame tablebases: the shared prober trait and value of
//! the core, so that the search consults any tables (Bastion's DTM tables, Syzygy,
//! both) without depending on the code that reads them; and how a search uses them:
//! which positions it probes (`ProbeRule`, Stockfish's `SyzygyProbeLimit` and
//! `SyzygyProbeDepth`) and which root moves it searches (`rank_root`).

pub use bastion_core::tablebase::{TablebaseProbe, Wdl};

use crate::options::SyzygyOptions;
use crate::score::{MAX_PLY, TB_WIN};
use bastion_core::{Move, Position};
use std::time::Instant;

/// Larger than any distance to zeroing: the rank of a win that the 50-move rule cannot
/// spoil (Stockfish's `MAX_DTZ`).
const MAX_DTZ: i32 = 1 << 18;

/// A table win or loss as the root reports it: one ply away, as the search scores a
/// probed child of the root.
const ROOT_TB_WIN: i32 = TB_WIN - 1;

/// Which positions the search probes for WDL in one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ProbeRule {
    /// Positions with at most this many men are probed (0: none).
    pub cardinality: u32,
    /// Positions with exactly `cardinality` men are probed from this remaining depth on.
    pub depth: i32,
    /// Cursed wins and blessed losses are draws.
    pub fifty_move_rule: bool,
}

impl ProbeRule {
    /// The rule for tables `tb` under the user's options. As in Stockfish, a limit above
    /// the tables' largest material means the tables' largest, probed at every depth.
    pub fn new(tb: Option<&dyn TablebaseProbe>, opts: &SyzygyOptions) -> ProbeRule {
        let max = tb.map_or(0, |t| t.max_pieces());
        let (cardinality, depth) = if opts.probe_limit > max { (max, 0) } else { (opts.probe_limit, opts.probe_depth) };
        ProbeRule { cardinality, depth, fifty_move_rule: opts.fifty_move_rule }
    }

    /// Whether a position with `men` men, searched to `depth`, is probed (the caller
    /// checks the halfmove clock and castling rights).
    #[inline]
    pub fn probes(&self, men: u32, depth: i32) -> bool {
        men < self.cardinality || (men == self.cardinality && depth >= self.depth)
    }
}

/// One root move as the tables rank it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Higher is better; the search keeps the moves of the best rank.
    pub rank: i64,
    /// The value the engine reports for the move while the search finds no mate (Syzygy
    /// rankings, whose search does not probe below the root); `None`: the search's own.
    pub score: Option<i32>,
}

/// The root moves ranked by the tables, and what that means for the rest of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RootRanking {
    /// Every legal move with its rank.
    pub moves: Vec<RankedMove>,
    /// Probes made (counted as tablebase hits).
    pub probes: u64,
    /// Whether the search still probes WDL below the root: not once DTZ chose the
    /// moves, nor when WDL alone says the root is not won (as in Stockfish).
    pub probe_below: bool,
}

impl RootRanking {
    /// The moves of `candidates` that have the best rank among them.
    pub fn best_of(&self, candidates: &[Move]) -> Vec<Move> {
        let ranked = || self.moves.iter().filter(|r| candidates.contains(&r.mv));
        let Some(best) = ranked().map(|r| r.rank).max() else { return Vec::new() };
        ranked().filter(|r| r.rank == best).map(|r| r.mv).collect()
    }

    /// The score reported for `mv` while the search finds no mate.
    pub fn score_of(&self, mv: Move) -> Option<i32> {
        self.moves.iter().find(|r| r.mv == mv).and_then(|r| r.score)
    }
}

/// Ranks the root moves of `pos` (reached after the positions whose keys `history`
/// holds) by the tables, or `None` where they do not cover it:
///
/// 1. Syzygy DTZ, as Stockfish's `root_probe` (a drawn root by WDL, which keeps the same
///    moves): wins that can be completed within the
///    50-move rule from the current halfmove clock rank equal and above all others,
///    slower wins by their distance; after a repetition since the last capture or pawn
///    move only the fastest wins rank first, so that the game makes progress. Where
///    DTM tables cover the position too, the shortest mate breaks ties.
/// 2. Exact distances to mate (Bastion's DTM tables): the best value, then the shortest
///    win or the longest loss.
/// 3. Syzygy WDL of each move, as Stockfish's `root_probe_wdl` (no DTZ tables).
///
/// DTZ probes are slow next to WDL probes (a DTZ table holds one side to move, and the
/// reader searches a ply for the other), and they cannot be interrupted: a search under a
/// clock passes a `deadline`, past which the DTZ ranking gives way to WDL rather than
/// lose on time.
pub(crate) fn rank_root(
    tb: &dyn TablebaseProbe,
    pos: &Position,
    history: &[u64],
    rule: &ProbeRule,
    deadline: Option<Instant>,
) -> Option<RootRanking> {
    if !pos.castling().is_empty() {
        return None;
    }
    let men = pos.occupied().count();
    let dtm_covered = men <= tb.max_pieces() && tb.probe_dtm(pos).is_some();
    if men <= rule.cardinality {
        // A drawn root (drawn even with the clock at zero) has no winning move: its drawing
        // moves are those that DTZ would keep, and WDL finds them for a fraction of the cost
        // (a DTZ probe of a one-sided table searches a ply itself).
        if !dtm_covered && tb.probe_wdl(pos) == Some(Wdl::Draw) {
            if let Some(mut ranking) = rank_by_wdl(tb, pos, rule.fifty_move_rule) {
                ranking.probes += 1;
                ranking.probe_below = false;
                return Some(ranking);
            }
        }
        let repeated = repeated_since_zeroing(pos, history);
        if let Some(mut ranking) = rank_by_dtz(tb, pos, repeated, rule.fifty_move_rule, deadline) {
            if dtm_covered {
                if let Some(dtm) = rank_by_dtm(tb, pos) {
                    for r in &mut ranking.moves {
                        let tie = dtm.moves.iter().find(|d| d.mv == r.mv).map_or(0, |d| d.rank);
                        r.rank = (r.rank << 32) + tie;
                    }
                    ranking.probes += dtm.probes;
                }
            }
            return Some(ranking);
        }
    }
    if dtm_covered {
        if let Some(ranking) = rank_by_dtm(tb, pos) {
            return Some(ranking);
        }
    }
    if men <= rule.cardinality {
        return rank_by_wdl(tb, pos, rule.fifty_move_rule);
    }
    None
}

/// True when a position occurred twice since the last capture or pawn move (the
/// root included).
fn repeated_since_zeroing(pos: &Position, history: &[u64]) -> bool {
    let n = pos.halfmove_clock() as usize + 1;
    let recent: Vec<u64> = history.iter().copied().chain(std::iter::once(pos.key())).rev().take(n).collect();
    recent.iter().enumerate().any(|(i, k)| recent[i + 1..].contains(k))
}

/// Stockfish's `root_probe`: each move's distance to zeroing counted from the root.
fn rank_by_dtz(
    tb: &dyn TablebaseProbe,
    pos: &Position,
    repeated: bool,
    fifty_move_rule: bool,
    deadline: Option<Instant>,
) -> Option<RootRanking> {
    let clock = pos.halfmove_clock() as i32;
    let bound = if fifty_move_rule { MAX_DTZ - 100 } else { 1 };
    let mut moves = Vec::new();
    let mut probes = 0;
    for mv in pos.legal_moves().iter().copied() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let child = pos.play(mv);
        let dtz = if child.is_checkmate() {
            1
        } else if child.halfmove_clock() == 0 {
            probes += 1;
            match tb.probe_wdl(&child)?.flip() {
                Wdl::Win => 1,
                Wdl::CursedWin => 101,
                Wdl::Draw => 0,
                Wdl::BlessedLoss => -101,
                Wdl::Loss => -1,
            }
        } else {
            probes += 1;
            let d = -tb.probe_dtz(&child)?;
            d + d.signum()
        };
        let rank = if dtz > 0 {
            if dtz + clock <= 99 && !repeated {
                MAX_DTZ
            } else {
                MAX_DTZ - (dtz + clock)
            }
        } else if dtz < 0 {
            if -2 * dtz + clock < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ + (-dtz + clock)
            }
        } else {
            0
        };
        // Cursed wins get 1 to 49 centipawns, growing as the win comes within reach.
        let score = if rank >= bound {
            ROOT_TB_WIN
        } else if rank > 0 {
            (rank - (MAX_DTZ - 200)).max(3) / 2
        } else if rank == 0 {
            0
        } else if rank > -bound {
            (rank + (MAX_DTZ - 200)).min(-3) / 2
        } else {
            -ROOT_TB_WIN
        };
        moves.push(RankedMove { mv, rank: rank.into(), score: Some(score) });
    }
    Some(RootRanking { moves, probes, probe_below: false })
}

/// Ranks by exact distances to mate ([`TablebaseProbe::probe_root`]): the best value
/// first, then the shortest win or the longest loss.
fn rank_by_dtm(tb: &dyn TablebaseProbe, pos: &Position) -> Option<RootRanking> {
    let values = tb.probe_root(pos)?;
    let moves = values
        .iter()
        .map(|&(mv, wdl, dist)| {
            let d = i64::from(dist.unwrap_or(0).clamp(-(1 << 20), 1 << 20));
            let tie = if wdl >= Wdl::CursedWin { -d } else { d };
            RankedMove { mv, rank: (i64::from(wdl.to_i8()) << 24) + tie, score: None }
        })
        .collect();
    Some(RootRanking { moves, probes: values.len() as u64, probe_below: true })
}

/// Stockfish's `root_probe_wdl`: each move's WDL, for tables without DTZ. Exact only
/// after captures and pawn moves; the search keeps probing below a won root.
fn rank_by_wdl(tb: &dyn TablebaseProbe, pos: &Position, fifty_move_rule: bool) -> Option<RootRanking> {
    let mut moves = Vec::new();
    let mut best = -ROOT_TB_WIN;
    for mv in pos.legal_moves().iter().copied() {
        let child = pos.play(mv);
        let wdl = if child.halfmove_clock() >= 100 && !child.is_checkmate() {
            Wdl::Draw
        } else {
            tb.probe_wdl(&child)?.flip()
        };
        let rank = match wdl {
            Wdl::Loss => -MAX_DTZ,
            Wdl::BlessedLoss => -MAX_DTZ + 101,
            Wdl::Draw => 0,
            Wdl::CursedWin => MAX_DTZ - 101,
            Wdl::Win => MAX_DTZ,
        };
        let seen = if fifty_move_rule { wdl } else { wdl.ignoring_fifty_move_rule() };
        let score = match seen {
            Wdl::Loss => -ROOT_TB_WIN,
            Wdl::BlessedLoss => -2,
            Wdl::Draw => 0,
            Wdl::CursedWin => 2,
            Wdl::Win => ROOT_TB_WIN,
        };
        best = best.max(score);
        moves.push(RankedMove { mv, rank: rank.into(), score: Some(score) });
    }
    let probes = moves.len() as u64;
    Some(RootRanking { moves, probes, probe_below: best > 0 })
}

/// Scores of table wins stay inside the search's table-win range.
const _: () = assert!(ROOT_TB_WIN > TB_WIN - MAX_PLY as i32);

#[cfg(test)]
mod tests {
    use super::*;
    use bastion_core::Role;

    /// Knows KRvK with a made-up rule: the side with the rook wins, with a distance to
    /// zeroing of the rook's file index plus 10 plies; everything else is drawn.
    struct FakeDtz;

    impl FakeDtz {
        fn dtz(pos: &Position) -> i32 {
            let Some(rook) = pos.role_bb(Role::Rook).first() else { return 0 };
            let d = rook.file().index() as i32 + 10;
            if pos.piece_at(rook).map(|p| p.color) == Some(pos.side_to_move()) {
                d
            } else {
                -d
            }
        }
    }

    impl TablebaseProbe for FakeDtz {
        fn max_pieces(&self) -> u32 {
            3
        }
        fn probe_wdl(&self, pos: &Position) -> Option<Wdl> {
            Some(match Self::dtz(pos).signum() {
                1 => Wdl::Win,
                -1 => Wdl::Loss,
                _ => Wdl::Draw,
            })
        }
        fn probe_dtz(&self, pos: &Position) -> Option<i32> {
            Some(Self::dtz(pos))
        }
    }

    fn rule(limit: u32, fifty_move_rule: bool) -> ProbeRule {
        ProbeRule::new(Some(&FakeDtz), &SyzygyOptions { probe_depth: 3, probe_limit: limit, fifty_move_rule })
    }

    fn all_moves(pos: &Position) -> Vec<Move> {
        pos.legal_moves().iter().copied().collect()
    }

    #[test]
    fn probe_rule_follows_stockfish() {
        let r = rule(7, true);
        assert_eq!((r.cardinality, r.depth), (3, 0));
        assert!(r.probes(3, 0) && r.probes(2, 0) && !r.probes(4, 9));
        let r = rule(3, true);
        assert!(!r.probes(3, 2) && r.probes(3, 3) && r.probes(2, 1));
        assert!(!rule(0, true).probes(2, 50));
    }

    #[test]
    fn dtz_ranking_keeps_wins_within_the_fifty_move_rule() {
        let black = Position::from_fen("8/8/8/3k4/8/8/8/3KR3 b - - 0 1").unwrap();
        let ranking = rank_root(&FakeDtz, &black, &[], &rule(7, true), None).unwrap();
        assert_eq!(ranking.moves.len(), black.legal_moves().len());
        assert_eq!(ranking.probes, ranking.moves.len() as u64);
        assert!(!ranking.probe_below);
        assert!(ranking.moves.iter().all(|r| r.score == Some(-ROOT_TB_WIN)));

        // Rook on file e after the move: 15 plies to zeroing from the root, f: 16, and so on.
        let fen = |clock: u32| format!("8/8/8/3k4/8/8/8/3KR3 w - - {clock} 1");
        let white = Position::from_fen(&fen(0)).unwrap();
        let ranking = rank_root(&FakeDtz, &white, &[], &rule(7, true), None).unwrap();
        assert_eq!(ranking.best_of(&all_moves(&white)).len(), white.legal_moves().len());
        // With 84 plies on the clock only the moves that leave the rook on file e win in time.
        let late = Position::from_fen(&fen(84)).unwrap();
        let ranking = rank_root(&FakeDtz, &late, &[], &rule(7, true), None).unwrap();
        let kept = ranking.best_of(&all_moves(&late));
        let on_e = |m: &Move| late.play(*m).role_bb(Role::Rook).first().unwrap().file().index() == 4;
        assert!(kept.iter().all(on_e));
        assert_eq!(kept.len(), all_moves(&late).iter().filter(|m| on_e(m)).count());
        assert!(kept.iter().all(|&m| ranking.score_of(m) == Some(ROOT_TB_WIN)));
        // With 90, no move wins in time: the fastest are kept and score as cursed wins.
        let cursed = Position::from_fen(&fen(90)).unwrap();
        let ranking = rank_root(&FakeDtz, &cursed, &[], &rule(7, true), None).unwrap();
        let kept = ranking.best_of(&all_moves(&cursed));
        assert!(!kept.is_empty() && kept.iter().all(|&m| matches!(ranking.score_of(m), Some(1..=49))));
        // Without the 50-move rule they are wins.
        let ranking = rank_root(&FakeDtz, &cursed, &[], &rule(7, false), None).unwrap();
        assert!(ranking.best_of(&all_moves(&cursed)).iter().all(|&m| ranking.score_of(m) == Some(ROOT_TB_WIN)));
        // A limit below the material: no ranking.
        assert_eq!(rank_root(&FakeDtz, &white, &[], &rule(2, true), None), None);
    }

    /// Counts DTZ probes of a drawn KRvKR-like fake: everything is drawn.
    struct Drawn(std::sync::atomic::AtomicU32);

    impl TablebaseProbe for Drawn {
        fn max_pieces(&self) -> u32 {
            4
        }
        fn probe_wdl(&self, _pos: &Position) -> Option<Wdl> {
            Some(Wdl::Draw)
        }
        fn probe_dtz(&self, _pos: &Position) -> Option<i32> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Some(0)
        }
    }

    #[test]
    fn a_drawn_root_is_ranked_without_dtz_probes() {
        let tb = Drawn(0.into());
        let pos = Position::from_fen("8/8/3k4/3r4/8/3R4/3K4/8 w - - 7 30").unwrap();
        let rule = ProbeRule::new(Some(&tb), &SyzygyOptions::default());
        let ranking = rank_root(&tb, &pos, &[], &rule, None).unwrap();
        assert_eq!(tb.0.load(std::sync::atomic::Ordering::Relaxed), 0);
        assert_eq!(ranking.best_of(&all_moves(&pos)).len(), pos.legal_moves().len());
        assert!(!ranking.probe_below);
        assert_eq!(ranking.probes, pos.legal_moves().len() as u64 + 1);
    }

    #[test]
    fn past_the_deadline_dtz_gives_way_to_wdl() {
        let late = Position::from_fen("8/8/8/3k4/8/8/8/3KR3 w - - 84 1").unwrap();
        let ranking = rank_root(&FakeDtz, &late, &[], &rule(7, true), Some(Instant::now())).unwrap();
        // WDL keeps every winning move, and the search goes on probing below the root.
        assert_eq!(ranking.best_of(&all_moves(&late)).len(), late.legal_moves().len());
        assert!(ranking.probe_below);
    }

    #[test]
    fn after_a_repetition_only_the_fastest_wins_are_kept() {
        let pos = Position::from_fen("8/8/8/3k4/8/8/8/3KR3 w - - 4 3").unwrap();
        let key = pos.key();
        assert!(repeated_since_zeroing(&pos, &[key, 1, 2, 3]));
        assert!(!repeated_since_zeroing(&pos, &[key, 0, 1, 2, 3]));
        assert!(!repeated_since_zeroing(&pos, &[5, 1, 2, 3]));
        let ranking = rank_root(&FakeDtz, &pos, &[key, 1, 2, 3], &rule(7, true), None).unwrap();
        let kept = ranking.best_of(&all_moves(&pos));
        assert!(!kept.is_empty());
        assert!(kept.iter().all(|&m| pos.play(m).role_bb(Role::Rook).first().unwrap().file().index() == 4));
    }
}
