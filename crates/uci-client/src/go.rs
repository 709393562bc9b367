//! Parameters of the `go` command.

use std::fmt::Write as _;
use std::time::Duration;

/// Limits for one search, rendered as a `go` command.
///
/// Unset fields are omitted. With nothing set the engine chooses, which for
/// most engines means an infinite search, so set at least one limit or
/// `infinite` explicitly.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    /// White's remaining clock time.
    pub wtime: Option<Duration>,
    /// Black's remaining clock time.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search to this depth in plies.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search for exactly this long.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Restrict the search to these UCI moves.
    pub searchmoves: Vec<String>,
}

impl GoParams {
    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Self {
        Self { depth: Some(depth), ..Self::default() }
    }

    /// A fixed-node search.
    pub fn nodes(nodes: u64) -> Self {
        Self { nodes: Some(nodes), ..Self::default() }
    }

    /// A fixed-time search.
    pub fn movetime(movetime: Duration) -> Self {
        Self { movetime: Some(movetime), ..Self::default() }
    }

    /// An infinite search, ended by `stop`.
    pub fn infinite() -> Self {
        Self { infinite: true, ..Self::default() }
    }

    /// A clock-based search: remaining times and increments of both sides.
    pub fn clock(wtime: Duration, btime: Duration, winc: Duration, binc: Duration) -> Self {
        Self { wtime: Some(wtime), btime: Some(btime), winc: Some(winc), binc: Some(binc), ..Self::default() }
    }

    /// Renders the `go` command line (without a trailing newline).
    ///
    /// `searchmoves` comes last because it consumes every following token.
    pub fn to_command(&self) -> String {
        let mut cmd = String::from("go");
        let ms = |d: &Duration| d.as_millis();
        // Writing to a String cannot fail, so the results are ignored.
        let times = [("wtime", &self.wtime), ("btime", &self.btime), ("winc", &self.winc), ("binc", &self.binc)];
        for (key, value) in times {
            if let Some(d) = value {
                let _ = write!(cmd, " {key} {}", ms(d));
            }
        }
        if let Some(n) = self.movestogo {
            let _ = write!(cmd, " movestogo {n}");
        }
        if let Some(n) = self.depth {
            let _ = write!(cmd, " depth {n}");
        }
        if let Some(n) = self.nodes {
            let _ = write!(cmd, " nodes {n}");
        }
        if let Some(n) = self.mate {
            let _ = write!(cmd, " mate {n}");
        }
        if let Some(d) = &self.movetime {
            let _ = write!(cmd, " movetime {}", ms(d));
        }
        if self.infinite {
            cmd.push_str(" infinite");
        }
        if !self.searchmoves.is_empty() {
            cmd.push_str(" searchmoves");
            for m in &self.searchmoves {
                cmd.push(' ');
                cmd.push_str(m);
            }
        }
        cmd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_all_fields_in_order() {
        let p = GoParams {
            wtime: Some(Duration::from_millis(60_000)),
            btime: Some(Duration::from_millis(59_500)),
            winc: Some(Duration::from_millis(600)),
            binc: Some(Duration::from_millis(600)),
            movestogo: Some(40),
            depth: Some(20),
            nodes: Some(1_000_000),
            mate: Some(3),
            movetime: Some(Duration::from_secs(2)),
            infinite: true,
            searchmoves: vec!["e2e4".into(), "d2d4".into()],
        };
        assert_eq!(
            p.to_command(),
            "go wtime 60000 btime 59500 winc 600 binc 600 movestogo 40 depth 20 \
             nodes 1000000 mate 3 movetime 2000 infinite searchmoves e2e4 d2d4"
        );
    }

    #[test]
    fn constructors() {
        assert_eq!(GoParams::default().to_command(), "go");
        assert_eq!(GoParams::depth(7).to_command(), "go depth 7");
        assert_eq!(GoParams::nodes(5000).to_command(), "go nodes 5000");
        assert_eq!(GoParams::movetime(Duration::from_millis(250)).to_command(), "go movetime 250");
        assert_eq!(GoParams::infinite().to_command(), "go infinite");
        let c = GoParams::clock(
            Duration::from_secs(10),
            Duration::from_secs(9),
            Duration::from_millis(100),
            Duration::ZERO,
        );
        assert_eq!(c.to_command(), "go wtime 10000 btime 9000 winc 100 binc 0");
    }
}
