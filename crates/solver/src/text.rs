//! A solved problem as text for terminals: the keys with their main lines,
//! threats and defences (or the helpmate and series-mover lines), and the
//! search statistics.

use std::fmt::Write as _;

use bastion_core::Position;

use crate::notation::san_line;
use crate::solve::{Node, Report, Status};

impl Report {
    /// The report as text. `pos` is the problem position; `all_defences`
    /// prints every defence's whole tree instead of one reply each; `seconds`
    /// is the solving time, for the closing line.
    pub fn to_text(&self, pos: &Position, all_defences: bool, seconds: f64) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_text(&mut out, pos, all_defences, seconds);
        out
    }

    fn write_text(&self, out: &mut String, pos: &Position, all_defences: bool, seconds: f64) -> std::fmt::Result {
        let r = self;
        writeln!(out, "{}  {}", r.fen, r.stipulation)?;
        match r.status {
            Status::NoSolution => writeln!(out, "no solution: proved that {} cannot be fulfilled", r.stipulation)?,
            Status::Solved => {
                if !r.keys.is_empty() {
                    let cooks = if r.keys.len() > 1 { " (cooked: every key is listed)" } else { "" };
                    writeln!(out, "{} key{}{}", r.keys.len(), if r.keys.len() == 1 { "" } else { "s" }, cooks)?;
                }
                for k in &r.keys {
                    writeln!(out)?;
                    writeln!(
                        out,
                        "key {}  ({} in {})",
                        k.san,
                        if r.stipulation.starts_with('s') { "selfmate" } else { "mate" },
                        k.moves
                    )?;
                    writeln!(out, "  main line: {}", k.main_line_text)?;
                    if let Some(t) = &k.threat {
                        writeln!(out, "  threat:    {t}")?;
                    }
                    if !k.defences.is_empty() {
                        writeln!(out, "  defences (longest first):")?;
                        write_nodes(out, &pos.play(k.mv), &k.defences, 2, all_defences)?;
                    }
                }
                for l in &r.lines {
                    writeln!(out, "  {l}")?;
                }
            }
        }
        writeln!(out)?;
        writeln!(out, "{} nodes in {:.3} s ({:.0} nodes/s)", r.nodes, seconds, r.nodes as f64 / seconds.max(1e-9))
    }
}

/// Each defence in `nodes` (moves from `pos`) with its reply, indented by
/// `indent` levels; with `full`, the whole tree below each reply.
fn write_nodes(out: &mut String, pos: &Position, nodes: &[Node], indent: usize, full: bool) -> std::fmt::Result {
    for d in nodes {
        let pad = " ".repeat(indent * 2);
        let after = pos.play(d.mv);
        match d.children.first() {
            Some(rp) => {
                writeln!(out, "{pad}{}", san_line(pos, &[d.mv, rp.mv]))?;
                if full && !rp.children.is_empty() {
                    write_nodes(out, &after.play(rp.mv), &rp.children, indent + 1, full)?;
                }
            }
            None => writeln!(out, "{pad}{}", san_line(pos, &[d.mv]))?,
        }
    }
    Ok(())
}
