//! Statistics of a table: wins, draws and losses for each side to move, both
//! up to symmetry (canonical indices) and over the full board (each canonical
//! position weighted by the size of its symmetry orbit), the distribution of
//! distances (to mate, or to conversion for a DTC table), and the longest win
//! with an example.
//!
//! "Legal" means: men on distinct squares, kings not adjacent, the side not
//! to move not in check (at most two checkers), pawns on ranks 2–7, no
//! castling rights and no en-passant square. Positions with White to move
//! and Black to move are counted separately, as Bratko (1978) and the
//! literature do for KRKN (10,780,728 and 12,535,256).

use crate::metric::Metric;
use crate::table::TableData;
use crate::value::Dtm;
use bastion_core::Color;
use rayon::prelude::*;
use serde::Serialize;

/// Counts for one side to move.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SideStats {
    /// Legal positions up to symmetry.
    pub legal: u64,
    /// Legal positions on the full board.
    pub legal_full: u64,
    /// Wins / draws / losses for the side to move, up to symmetry.
    pub wins: u64,
    /// Draws, up to symmetry.
    pub draws: u64,
    /// Losses, up to symmetry.
    pub losses: u64,
    /// Wins / draws / losses on the full board.
    pub wins_full: u64,
    /// Draws on the full board.
    pub draws_full: u64,
    /// Losses on the full board.
    pub losses_full: u64,
    /// Positions (up to symmetry) by plies to mate (to conversion in a DTC
    /// table): index n = n plies (odd n: the side to move wins; even n: it loses).
    pub histogram: Vec<u64>,
    /// The same on the full board (each position weighted by its symmetry orbit).
    pub histogram_full: Vec<u64>,
    /// The longest win in plies and an example position (FEN).
    pub longest_win: Option<(u16, String)>,
    /// The longest loss in plies and an example position (FEN).
    pub longest_loss: Option<(u16, String)>,
}

/// Statistics of a whole table.
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// The ending's name.
    pub ending: String,
    /// What the distances count.
    pub metric: Metric,
    /// White to move, then Black to move.
    pub sides: [SideStats; 2],
}

fn merge(mut a: SideStats, b: SideStats) -> SideStats {
    a.legal += b.legal;
    a.legal_full += b.legal_full;
    a.wins += b.wins;
    a.draws += b.draws;
    a.losses += b.losses;
    a.wins_full += b.wins_full;
    a.draws_full += b.draws_full;
    a.losses_full += b.losses_full;
    if a.histogram.len() < b.histogram.len() {
        a.histogram.resize(b.histogram.len(), 0);
    }
    for (i, v) in b.histogram.into_iter().enumerate() {
        a.histogram[i] += v;
    }
    if a.histogram_full.len() < b.histogram_full.len() {
        a.histogram_full.resize(b.histogram_full.len(), 0);
    }
    for (i, v) in b.histogram_full.into_iter().enumerate() {
        a.histogram_full[i] += v;
    }
    // Keep the example with the smaller index for reproducible output: a's chunk comes first.
    if b.longest_win.as_ref().map(|x| x.0) > a.longest_win.as_ref().map(|x| x.0) {
        a.longest_win = b.longest_win;
    }
    if b.longest_loss.as_ref().map(|x| x.0) > a.longest_loss.as_ref().map(|x| x.0) {
        a.longest_loss = b.longest_loss;
    }
    a
}

/// Computes the statistics of a table.
pub fn stats(t: &TableData) -> Stats {
    let ix = &t.indexer;
    let n = ix.size();
    let np = ix.pieces().len();
    let sym = ix.symmetries() as u64;
    let side_stats = |side: Color| -> SideStats {
        let vals = &t.values[side.index()];
        let chunks: Vec<SideStats> = (0..n.div_ceil(1 << 16))
            .into_par_iter()
            .map(|c| {
                let mut s = SideStats::default();
                let mut sq = [0u8; 8];
                for idx in c << 16..((c + 1) << 16).min(n) {
                    let Some(v) = Dtm::from_code(vals.get(idx as usize)) else { continue };
                    ix.decode(idx, &mut sq);
                    let orbit = sym / ix.stabilizer(&sq[..np]) as u64;
                    s.legal += 1;
                    s.legal_full += orbit;
                    match v {
                        Dtm::Win(p) => {
                            s.wins += 1;
                            s.wins_full += orbit;
                            if s.longest_win.as_ref().is_none_or(|x| p > x.0) {
                                s.longest_win = Some((p, idx.to_string()));
                            }
                        }
                        Dtm::Loss(p) => {
                            s.losses += 1;
                            s.losses_full += orbit;
                            if s.longest_loss.as_ref().is_none_or(|x| p > x.0) {
                                s.longest_loss = Some((p, idx.to_string()));
                            }
                        }
                        Dtm::Draw => {
                            s.draws += 1;
                            s.draws_full += orbit;
                        }
                    }
                    if let Some(p) = v.plies() {
                        let p = p as usize;
                        if s.histogram.len() <= p {
                            s.histogram.resize(p + 1, 0);
                            s.histogram_full.resize(p + 1, 0);
                        }
                        s.histogram[p] += 1;
                        s.histogram_full[p] += orbit;
                    }
                }
                s
            })
            .collect();
        let mut s = chunks.into_iter().fold(SideStats::default(), merge);
        // Replace the example indices by FENs.
        let fen = |x: &mut Option<(u16, String)>| {
            if let Some((_, e)) = x {
                let idx: u64 = e.parse().expect("index stored as text");
                *e = ix.position(idx, side).map(|p| p.fen()).unwrap_or_default();
            }
        };
        fen(&mut s.longest_win);
        fen(&mut s.longest_loss);
        s
    };
    Stats { ending: t.material().name(), metric: t.metric, sides: [side_stats(Color::White), side_stats(Color::Black)] }
}
