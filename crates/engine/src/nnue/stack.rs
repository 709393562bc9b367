//! Incremental accumulators for the search: one slot per ply.
//!
//! A slot remembers the piece placement it was computed for. A new position is
//! brought up from whichever of its own slot or its parent's slot differs in fewer
//! squares (or, when both differ too much, the closest slot below them), by adding and
//! removing exactly the pieces that differ, so the result is exact whatever that slot
//! last held. Too many differences everywhere mean a refresh. With king buckets (see
//! [`super::KingLayout`]), a refresh, or a king that moves to another bucket, starts instead
//! from the last accumulator computed for that perspective and bucket (a per-bucket cache).

use super::{feature, Accumulator, Network, View, HIDDEN};
use bastion_core::{Color, Position, Role};

/// Above this many changed pieces a refresh is cheaper than updating.
const MAX_UPDATES: u32 = 8;

#[derive(Clone)]
struct Slot {
    /// Piece bitboards, colour-major (`color * 6 + role`); all zero when unused.
    pieces: [u64; 12],
    acc: Accumulator,
    valid: bool,
}

/// One perspective's accumulator for one king view and the pieces it holds (`None`: not yet
/// computed, which is the biases and no pieces).
#[derive(Clone)]
struct CacheEntry {
    pieces: [u64; 12],
    acc: Option<[i16; HIDDEN]>,
}

/// Per-thread accumulators, indexed by search ply.
#[derive(Clone)]
pub struct AccumulatorStack {
    slots: Vec<Slot>,
    /// Indexed by `2 · view index + perspective`; grown to the network's number of views.
    cache: Vec<CacheEntry>,
}

impl AccumulatorStack {
    /// A stack of `plies` slots, all empty.
    pub fn new(plies: usize) -> AccumulatorStack {
        let empty = Slot { pieces: [0; 12], acc: Accumulator { v: [[0; HIDDEN]; 2] }, valid: false };
        AccumulatorStack { slots: vec![empty; plies.max(1)], cache: Vec::new() }
    }

    /// Forgets every slot (after loading another network).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| s.valid = false);
        self.cache.clear();
    }

    /// Sets perspective `persp` of ply `ply`'s accumulator to the position `now` seen through
    /// `view`, by bringing that view's cached accumulator up to `now` (far fewer rows than a
    /// refresh when the search stays near the positions it cached).
    fn refresh_side(&mut self, net: &Network, ply: usize, persp: usize, view: View, now: &[u64; 12]) {
        let i = 2 * view.index() + persp;
        if self.cache.len() <= i {
            self.cache.resize(i + 1, CacheEntry { pieces: [0; 12], acc: None });
        }
        let entry = &mut self.cache[i];
        let acc = entry.acc.get_or_insert(net.ft_b);
        // At most 32 pieces leave and 32 arrive.
        let (mut added, mut removed) = ([0; 32], [0; 32]);
        let (na, nr) = differences(&entry.pieces, now, &mut added, &mut removed);
        net.change_side(acc, persp, view, &added[..na], &removed[..nr]);
        entry.pieces = *now;
        self.slots[ply].acc.v[persp] = *acc;
    }

    /// Evaluates `pos` at search ply `ply` for the side to move, in centipawns.
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        let ply = ply.min(self.slots.len() - 1);
        let mut now = [0u64; 12];
        for c in Color::ALL {
            for r in Role::ALL {
                now[c.index() * 6 + r.index()] = pos.pieces(c, r).0;
            }
        }
        let changes = |s: &Slot| {
            if s.valid {
                s.pieces.iter().zip(&now).map(|(a, b)| (a ^ b).count_ones()).sum()
            } else {
                u32::MAX
            }
        };
        let own = changes(&self.slots[ply]);
        let parent = if ply > 0 { changes(&self.slots[ply - 1]) } else { u32::MAX };
        let (mut base, mut fewest) = if own <= parent { (ply, own) } else { (ply - 1, parent) };
        if fewest > MAX_UPDATES {
            // The parent was skipped (in check, or cut off before evaluating), so its slot
            // holds another branch; a grandparent or older ancestor usually still holds a
            // position a few moves away, and updating from it is far cheaper than a refresh.
            for (k, slot) in self.slots[..ply.saturating_sub(1)].iter().enumerate() {
                let n = changes(slot);
                if n < fewest {
                    (base, fewest) = (k, n);
                }
            }
        }
        // Without king buckets every view is the plain one, and the kings need no look.
        let bucketed = net.has_king_views();
        let views = if bucketed { net.kings.views_for(king_squares(&now)) } else { [View::default(); 2] };
        if fewest > MAX_UPDATES && !bucketed {
            self.slots[ply].acc = net.refresh(pos);
        } else if fewest > MAX_UPDATES {
            for (persp, view) in views.into_iter().enumerate() {
                self.refresh_side(net, ply, persp, view, &now);
            }
        } else {
            // At most MAX_UPDATES squares differ, so at most that many inputs change.
            let (mut added, mut removed) = ([0; MAX_UPDATES as usize], [0; MAX_UPDATES as usize]);
            let (na, nr) = differences(&self.slots[base].pieces, &now, &mut added, &mut removed);
            let (added, removed) = (&added[..na], &removed[..nr]);
            if base == ply {
                if na + nr > 0 {
                    net.update(&mut self.slots[ply].acc, None, views, added, removed);
                }
            } else {
                let (below, from_ply) = self.slots.split_at_mut(ply);
                net.update(&mut from_ply[0].acc, Some(&below[base].acc), views, added, removed);
            }
            // A king that moved to another bucket or wing changed every input of its side: that
            // side's update above was wasted, and it is redone from the cache. This is rare.
            if bucketed {
                let old_views = net.kings.views_for(king_squares(&self.slots[base].pieces));
                for persp in 0..2 {
                    if views[persp] != old_views[persp] {
                        self.refresh_side(net, ply, persp, views[persp], &now);
                    }
                }
            }
        }
        let slot = &mut self.slots[ply];
        slot.pieces = now;
        slot.valid = true;
        net.output(&slot.acc, pos.side_to_move(), pos.occupied().count())
    }
}

/// The White-perspective inputs that `new` has and `old` lacks (into `added`) and the other
/// way round (into `removed`), for piece bitboards indexed `color * 6 + role`; returns their
/// counts. The arrays must hold every difference.
#[inline]
fn differences(old: &[u64; 12], new: &[u64; 12], added: &mut [usize], removed: &mut [usize]) -> (usize, usize) {
    let (mut na, mut nr) = (0, 0);
    for (i, (&old, &new)) in old.iter().zip(new).enumerate() {
        let (c, r) = (Color::ALL[i / 6], Role::ALL[i % 6]);
        let mut b = new & !old;
        while b != 0 {
            added[na] = feature(Color::White, c, r, b.trailing_zeros() as usize);
            na += 1;
            b &= b - 1;
        }
        let mut b = old & !new;
        while b != 0 {
            removed[nr] = feature(Color::White, c, r, b.trailing_zeros() as usize);
            nr += 1;
            b &= b - 1;
        }
    }
    (na, nr)
}

/// The squares of White's and Black's kings in piece bitboards indexed `color * 6 + role` (a1
/// for a missing king, as in [`super::KingLayout::views_of`]).
#[inline]
fn king_squares(pieces: &[u64; 12]) -> [usize; 2] {
    Color::ALL.map(|c| (pieces[c.index() * 6 + Role::King.index()].trailing_zeros() % 64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::random_network;
    use crate::nnue::KingLayout;
    use bastion_core::rng::Rng;

    /// Along random games, with evaluations at varying plies (as a search jumps between
    /// siblings and depths), and through null moves, the incremental value equals a refresh.
    #[test]
    fn incremental_updates_equal_refresh() {
        incremental_updates_equal_refresh_for(&random_network(11, KingLayout::NONE));
    }

    #[test]
    fn incremental_updates_equal_refresh_with_king_buckets() {
        let kings = KingLayout::by_name("mirror4").unwrap();
        let mut net = random_network(11, kings);
        // Make every bucket's rows differ, so that a row from the wrong bucket shows.
        for (i, row) in net.ft_w.iter_mut().enumerate() {
            row.iter_mut().enumerate().for_each(|(j, w)| *w += ((i * 7 + j * 3) % 23) as i16 - 11);
        }
        incremental_updates_equal_refresh_for(&net);
    }

    fn incremental_updates_equal_refresh_for(net: &Network) {
        let mut stack = AccumulatorStack::new(16);
        let mut rng = Rng::new(4);
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut checked = 0;
        for fen in fens {
            for _ in 0..40 {
                let mut pos = Position::from_fen(fen).unwrap();
                let mut ply = 0;
                while ply < 15 {
                    assert_eq!(stack.evaluate(net, &pos, ply), net.evaluate(&pos), "{}", pos.fen());
                    checked += 1;
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    if rng.below(5) == 0 && !pos.in_check() {
                        let null = pos.play_null();
                        assert_eq!(stack.evaluate(net, &null, ply + 1), net.evaluate(&null));
                    }
                    pos = pos.play(moves[rng.below(moves.len())]);
                    // Sometimes skip evaluating a ply or two, as a search does in check or on
                    // a TT cut; the next evaluation then starts from an older ancestor's slot.
                    ply += 1 + (rng.below(4) == 0) as usize + (rng.below(8) == 0) as usize;
                }
            }
        }
        assert!(checked > 500);
    }
}
