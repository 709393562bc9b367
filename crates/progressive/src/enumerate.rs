//! Enumeration of the legal series of a position: every way to play the
//! remaining moves of the current series, move by move under the rules.

use crate::series::SeriesPosition;
use bastion_core::Move;
use std::collections::HashSet;

/// How a complete series ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesEnd {
    /// All moves were played (or, Scottish, a check ended it early).
    Complete,
    /// The mover ran out of legal moves inside the series: a drawn game.
    DeadEnd,
}

/// Calls `f(moves, end_position, how)` for every legal way to finish the
/// current series, in move-generation order, until `f` returns false.
/// Returns false if stopped by `f`.
pub fn for_each_series(pos: &SeriesPosition, f: &mut dyn FnMut(&[Move], &SeriesPosition, SeriesEnd) -> bool) -> bool {
    let mut path = Vec::with_capacity(pos.moves_left() as usize);
    walk(pos, &mut path, f)
}

fn walk(
    pos: &SeriesPosition,
    path: &mut Vec<Move>,
    f: &mut dyn FnMut(&[Move], &SeriesPosition, SeriesEnd) -> bool,
) -> bool {
    let mut any = false;
    let mut go_on = true;
    pos.for_each_child(|m, child| {
        if !go_on {
            return;
        }
        any = true;
        path.push(m);
        go_on = if child.played() == 0 { f(path, &child, SeriesEnd::Complete) } else { walk(&child, path, f) };
        path.pop();
    });
    if !any && !path.is_empty() {
        return f(path, pos, SeriesEnd::DeadEnd);
    }
    go_on
}

/// All legal series (at most `limit`), each as its list of moves.
pub fn legal_series(pos: &SeriesPosition, limit: usize) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    for_each_series(pos, &mut |moves, _, _| {
        out.push(moves.to_vec());
        out.len() < limit
    });
    out
}

/// Counts the legal series and the distinct positions they end in.
pub fn count_series(pos: &SeriesPosition) -> (u64, u64) {
    let mut n = 0u64;
    let mut ends = HashSet::new();
    for_each_series(pos, &mut |_, end, _| {
        n += 1;
        ends.insert(end.key());
        true
    });
    (n, ends.len() as u64)
}
