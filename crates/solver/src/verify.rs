//! Independent checks of reported solutions with the core's rules alone:
//! moves legal, mates real, lengths within the stipulation, trees complete.

use crate::solve::{Key, Node};
use bastion_core::{Move, Position};

fn play_checked(pos: &Position, m: Move) -> Result<Position, String> {
    if pos.is_legal(m) {
        Ok(pos.play(m))
    } else {
        Err(format!("illegal move {m:?} in {}", pos.fen()))
    }
}

/// A direct-mate line: legal, ending in checkmate of the defender, with at
/// most `n` attacker moves.
pub fn direct_line(pos: &Position, line: &[Move], n: u8) -> Result<(), String> {
    let mut p = pos.clone();
    for &m in line {
        p = play_checked(&p, m)?;
    }
    if !p.is_checkmate() || p.side_to_move() == pos.side_to_move() {
        return Err(format!("line does not end with the defender mated: {}", p.fen()));
    }
    if line.len().div_ceil(2) > n as usize {
        return Err(format!("line takes {} moves, more than {n}", line.len().div_ceil(2)));
    }
    Ok(())
}

/// A direct-mate key's defence list, checked as a tree: after `key`, every
/// legal defence is listed; each has a legal reply; recursively when
/// `full` (the reply's defences listed too) and each leaf reply mates.
/// `n` is the number of attacker moves allowed, key included.
pub fn direct_tree(pos: &Position, key: &Key, n: u8, full: bool) -> Result<(), String> {
    let child = play_checked(pos, key.mv)?;
    if key.moves > n {
        return Err(format!("key {} claims {} moves > {n}", key.san, key.moves));
    }
    defences(&child, &key.defences, key.moves - 1, full)
}

fn defences(pos: &Position, nodes: &[Node], k: u8, full: bool) -> Result<(), String> {
    if k == 0 {
        return if pos.is_checkmate() { Ok(()) } else { Err(format!("not mate: {}", pos.fen())) };
    }
    let legal = pos.legal_moves();
    if legal.len() != nodes.len() || legal.iter().any(|m| !nodes.iter().any(|d| d.mv == *m)) {
        return Err(format!("defences listed {} of {} in {}", nodes.len(), legal.len(), pos.fen()));
    }
    for d in nodes {
        let after = play_checked(pos, d.mv)?;
        if d.mate_in > k {
            return Err(format!("defence {} lasts {} > {k}", d.san, d.mate_in));
        }
        let [reply] = d.children.as_slice() else {
            return Err(format!("defence {} has {} replies", d.san, d.children.len()));
        };
        let next = play_checked(&after, reply.mv)?;
        if reply.mate_in == 0 || !full {
            if reply.mate_in == 0 && !next.is_checkmate() {
                return Err(format!("reply {} does not mate", reply.san));
            }
            continue;
        }
        defences(&next, &reply.children, reply.mate_in, true)?;
    }
    Ok(())
}

/// A helpmate line: exactly `plies` legal half-moves, no earlier game end,
/// the last one mating the side that began.
pub fn help_line(pos: &Position, line: &[Move], plies: u8) -> Result<(), String> {
    if line.len() != plies as usize {
        return Err(format!("{} plies instead of {plies}", line.len()));
    }
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        if i > 0 && !p.has_legal_moves() {
            return Err("game ended before the line did".into());
        }
        p = play_checked(&p, m)?;
    }
    if !p.is_checkmate() {
        return Err("helpmate line does not end in mate".into());
    }
    Ok(())
}

/// A series-mover line: `n` legal moves by the side to move, none checking
/// before the last, the last mating.
pub fn series_line(pos: &Position, line: &[Move], n: u8) -> Result<(), String> {
    if line.len() != n as usize {
        return Err(format!("{} moves instead of {n}", line.len()));
    }
    let mut p = pos.clone();
    for (i, &m) in line.iter().enumerate() {
        p = play_checked(&p, m)?;
        if i + 1 < line.len() {
            if p.in_check() {
                return Err("check before the last move".into());
            }
            p = p.play_null();
        }
    }
    if !p.is_checkmate() {
        return Err("series does not end in mate".into());
    }
    Ok(())
}

/// A selfmate line: legal, at most `n` moves by the side that began, ending
/// with that side checkmated.
pub fn self_line(pos: &Position, line: &[Move], n: u8) -> Result<(), String> {
    let mut p = pos.clone();
    for &m in line {
        p = play_checked(&p, m)?;
    }
    if !p.is_checkmate() || p.side_to_move() != pos.side_to_move() {
        return Err("selfmate line does not end with the first mover mated".into());
    }
    if line.len() / 2 > n as usize {
        return Err("selfmate line too long".into());
    }
    Ok(())
}

/// Replays everything in a [`crate::Report`] for `stip` from `pos`: each key's
/// main line (and, for direct mates, its defence list as a tree, `full`
/// when the report holds the whole tree) and every helpmate/series line.
pub fn report(pos: &Position, stip: crate::Stipulation, r: &crate::Report, full: bool) -> Result<(), String> {
    use crate::Stipulation::*;
    for k in &r.keys {
        match stip {
            Direct(n) => {
                direct_line(pos, &k.line, n)?;
                direct_tree(pos, k, n, full)?;
            }
            SelfMate(n) => self_line(pos, &k.line, n)?,
            _ => return Err("keys reported for a line stipulation".into()),
        }
    }
    for l in &r.lines_uci {
        let mut cur = pos.clone();
        let mut moves = Vec::new();
        for (i, u) in l.iter().enumerate() {
            let m = cur.parse_uci(u).map_err(|e| e.to_string())?;
            moves.push(m);
            cur = cur.play(m);
            if matches!(stip, Series(_)) && i + 1 < l.len() {
                cur = cur.play_null();
            }
        }
        match stip {
            Help { plies } => help_line(pos, &moves, plies)?,
            Series(n) => series_line(pos, &moves, n)?,
            _ => return Err("lines reported for a key stipulation".into()),
        }
    }
    Ok(())
}
