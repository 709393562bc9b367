//! Problem stipulations and their textual form (`#3`, `h#2`, `h#2.5`, `s#2`, `ser-#5`).

use std::fmt;
use std::str::FromStr;

/// What the solution must achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stipulation {
    /// `#n`: the side to move mates within n moves against any defence.
    Direct(u8),
    /// `h#n`: both sides cooperate; the side to move begins and is mated on
    /// the last of `plies` half-moves (`h#2` = 4 plies, `h#2.5` = 5 plies, then
    /// the side to move gives the mate).
    Help {
        /// Half-moves in the solution.
        plies: u8,
    },
    /// `s#n`: the side to move forces the opponent to mate it within n moves.
    SelfMate(u8),
    /// `ser-#n`: the side to move plays n moves in a row, only the last one a
    /// check, and it mates.
    Series(u8),
}

/// A stipulation that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown stipulation {0:?}: use #N, h#N (or h#N.5), s#N or ser-#N with N from 1 to 60")]
pub struct StipulationError(pub String);

impl Stipulation {
    /// Moves of the side that must achieve the goal (for h#: full moves, rounded up).
    pub fn moves(self) -> u8 {
        match self {
            Stipulation::Direct(n) | Stipulation::SelfMate(n) | Stipulation::Series(n) => n,
            Stipulation::Help { plies } => plies.div_ceil(2),
        }
    }
}

impl FromStr for Stipulation {
    type Err = StipulationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || StipulationError(s.to_string());
        let t = s.trim().to_ascii_lowercase();
        let number = |x: &str| -> Result<u8, StipulationError> {
            let n: u8 = x.trim().parse().map_err(|_| err())?;
            if (1..=60).contains(&n) {
                Ok(n)
            } else {
                Err(err())
            }
        };
        if let Some(rest) = t.strip_prefix("h#") {
            let (whole, half) = match rest.strip_suffix(".5") {
                Some(w) => (w, 1),
                None => (rest, 0),
            };
            let n = if whole.is_empty() && half == 1 { 0 } else { number(whole)? };
            return Ok(Stipulation::Help { plies: 2 * n + half });
        }
        if let Some(rest) = t.strip_prefix("s#") {
            return Ok(Stipulation::SelfMate(number(rest)?));
        }
        if let Some(rest) = t.strip_prefix("ser-#").or_else(|| t.strip_prefix("ser#")) {
            return Ok(Stipulation::Series(number(rest)?));
        }
        let rest = t.strip_prefix('#').unwrap_or(&t);
        Ok(Stipulation::Direct(number(rest)?))
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Stipulation::Direct(n) => write!(f, "#{n}"),
            Stipulation::Help { plies } if plies % 2 == 1 => write!(f, "h#{}.5", plies / 2),
            Stipulation::Help { plies } => write!(f, "h#{}", plies / 2),
            Stipulation::SelfMate(n) => write!(f, "s#{n}"),
            Stipulation::Series(n) => write!(f, "ser-#{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for (s, st) in [
            ("#3", Stipulation::Direct(3)),
            ("2", Stipulation::Direct(2)),
            ("h#2", Stipulation::Help { plies: 4 }),
            ("h#2.5", Stipulation::Help { plies: 5 }),
            ("s#2", Stipulation::SelfMate(2)),
            ("ser-#5", Stipulation::Series(5)),
        ] {
            let p: Stipulation = s.parse().unwrap();
            assert_eq!(p, st);
            assert_eq!(p.to_string().parse::<Stipulation>().unwrap(), st);
        }
        for bad in ["", "#0", "h#", "x#3", "#99", "s#-1"] {
            assert!(bad.parse::<Stipulation>().is_err(), "{bad}");
        }
    }
}
