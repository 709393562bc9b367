//! Move lists as numbered SAN text (`1.Qh5+ Kg8 2.Qh7#`, `1...Kg8`).

use bastion_core::{Color, Move, Position};

/// Writes `moves`, played in turn from `pos`, as numbered SAN.
pub fn san_line(pos: &Position, moves: &[Move]) -> String {
    let mut out = String::new();
    let mut p = pos.clone();
    for (i, &m) in moves.iter().enumerate() {
        if p.side_to_move() == Color::White {
            out.push_str(&format!("{}{}.", if i > 0 { " " } else { "" }, p.fullmove_number()));
        } else if i == 0 {
            out.push_str(&format!("{}...", p.fullmove_number()));
        } else {
            out.push(' ');
        }
        out.push_str(&p.san(m));
        p = p.play(m);
    }
    out
}

/// Writes a series-mover's moves (the other side passes between them) as `1.a 2.b 3.c#`.
pub fn series_line(pos: &Position, moves: &[Move]) -> String {
    let mut out = String::new();
    let mut p = pos.clone();
    for (i, &m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{}.{}", i + 1, p.san(m)));
        p = p.play(m);
        if i + 1 < moves.len() {
            p = p.play_null();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_moves() {
        let p = Position::startpos();
        let ms = [p.parse_san("e4").unwrap()];
        assert_eq!(san_line(&p, &ms), "1.e4");
        let q = p.play(ms[0]);
        let e5 = q.parse_san("e5").unwrap();
        let r = q.play(e5);
        assert_eq!(san_line(&q, &[e5, r.parse_san("Nf3").unwrap()]), "1...e5 2.Nf3");
    }
}
