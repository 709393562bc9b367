//! Random legal positions: basic endgames (king and pieces against a bare
//! king) for the endgame benchmark and the planner's tests.

use crate::error::ProgressiveError;
use crate::rules::Rules;
use crate::series::{SeriesPosition, Status};
use bastion_core::rng::Rng;
use bastion_core::{Bitboard, Color, Role, Square};

/// A random legal position for the endgame benchmark: the side `attacker`
/// has a king and `pieces` (letters Q, R, B, N; a second bishop goes on the
/// other square colour than the first), the other side a bare king, and the
/// attacker is to move at the start of turn `turn` (its series length; made
/// odd for White and even for Black). The bare king is not in check.
pub fn random_endgame(
    rng: &mut Rng,
    pieces: &str,
    attacker: Color,
    turn: u32,
) -> Result<SeriesPosition, ProgressiveError> {
    let turn = match attacker {
        Color::White => turn.max(1) | 1,
        Color::Black => (turn.max(2) + 1) & !1,
    };
    let roles: Vec<Role> = pieces
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            'Q' => Ok(Role::Queen),
            'R' => Ok(Role::Rook),
            'B' => Ok(Role::Bishop),
            'N' => Ok(Role::Knight),
            _ => Err(ProgressiveError::BadOption(format!("piece letter {c:?} is not one of Q R B N"))),
        })
        .collect::<Result<_, _>>()?;
    if roles.len() > 6 {
        return Err(ProgressiveError::BadOption("at most 6 pieces".into()));
    }
    loop {
        let mut used = Bitboard::EMPTY;
        let mut pick = |rng: &mut Rng, colour: Option<bool>| -> Square {
            loop {
                let s = Square::from_index(rng.below(64));
                if !used.contains(s) && colour.is_none_or(|l| s.is_light() == l) {
                    used = used.with(s);
                    return s;
                }
            }
        };
        let mut placed = vec![(attacker, Role::King, pick(rng, None)), (!attacker, Role::King, pick(rng, None))];
        let mut bishops = 0;
        for &r in &roles {
            let colour = (r == Role::Bishop).then(|| {
                bishops += 1;
                bishops % 2 == 1
            });
            placed.push((attacker, r, pick(rng, colour)));
        }
        let mut board = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_index(rank * 8 + file);
                match placed.iter().find(|p| p.2 == sq) {
                    None => empty += 1,
                    Some(&(c, r, _)) => {
                        if empty > 0 {
                            board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let ch = r.char();
                        board.push(if c == Color::White { ch.to_ascii_uppercase() } else { ch });
                    }
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank > 0 {
                board.push('/');
            }
        }
        let side = if attacker == Color::White { 'w' } else { 'b' };
        let fen = format!("{board} {side} - - 0 {turn} {turn}");
        if let Ok(p) = SeriesPosition::from_fen(&fen, None, Rules::Italian) {
            if p.status() == Status::Ongoing && !p.in_check() {
                return Ok(p);
            }
        }
    }
}
