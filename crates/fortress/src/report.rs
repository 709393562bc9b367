//! Text renderings of an analysis for terminals: the depth table, verdict,
//! evidence, breakthroughs and avoidance; progress messages; and writing a
//! plot in the format its file name asks for.

use std::fmt::Write as _;
use std::path::Path;

use crate::analysis::{Analysis, Stage};
use crate::error::FortressError;
use crate::plot::{render_png, render_svg, render_time_svg, PlotKind};

impl Stage {
    /// A one-line progress message, `max_depth` being the deepest main search.
    pub fn describe(&self, max_depth: u32) -> String {
        match self {
            Stage::Main { depth } | Stage::Line { depth, .. } => format!("main search: depth {depth}/{max_depth}"),
            Stage::Breakthrough { index, total } => format!("breakthrough search: move {index}/{total}"),
            Stage::Replies { san } => format!("following replies to {san}"),
            Stage::Avoid { index, total } => format!("judging top move {index}/{total}"),
            Stage::Probe { stage, moves_left } => {
                format!(
                    "progress test: stage {stage}, {moves_left} {} before the fifty-move draw",
                    if *moves_left == 1 { "move" } else { "moves" }
                )
            }
        }
    }
}

/// The file format of a plot, from its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlotFormat {
    /// An SVG document (`.svg`).
    Svg,
    /// A PNG image (`.png`).
    Png,
}

impl PlotFormat {
    /// The format `path`'s extension names (case-insensitive), if any.
    pub fn of(path: &Path) -> Option<PlotFormat> {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("svg") => Some(PlotFormat::Svg),
            Some("png") => Some(PlotFormat::Png),
            _ => None,
        }
    }
}

/// Writes the `kind` plot of `analysis` to `path` as `format`.
pub fn write_plot(analysis: &Analysis, kind: PlotKind, format: PlotFormat, path: &Path) -> Result<(), FortressError> {
    match format {
        PlotFormat::Png => render_png(analysis, kind, path),
        PlotFormat::Svg => {
            let svg = match kind {
                PlotKind::Evaluations => render_svg(analysis),
                PlotKind::Time => render_time_svg(analysis),
            };
            std::fs::write(path, svg).map_err(|e| FortressError::Io { path: path.display().to_string(), source: e })
        }
    }
}

impl Analysis {
    /// The analysis as text: the evaluation of every followed move at every
    /// depth with the time spent, then the verdict and its evidence, the
    /// breakthrough candidates and, when asked for, fortress avoidance.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_text(&mut out);
        out
    }

    fn write_text(&self, out: &mut String) -> std::fmt::Result {
        let a = self;
        writeln!(out, "position  {}", a.fen)?;
        writeln!(
            out,
            "engine    {} (depths {}-{}, MultiPV {})",
            a.engine, a.config.min_depth, a.config.max_depth, a.config.multipv
        )?;
        write!(out, "depth")?;
        for c in &a.curves {
            write!(out, " {:>8}", c.san)?;
        }
        writeln!(out, " {:>9}", "time(ms)")?;
        for p in &a.principal {
            write!(out, "{:>5}", p.depth)?;
            for c in &a.curves {
                write!(out, " {:>8}", c.at(p.depth).map_or("-".into(), |e| e.display()))?;
            }
            let ms = a.times.iter().find(|t| t.depth == p.depth).map_or(0, |t| t.ms);
            writeln!(out, " {ms:>9}")?;
        }
        let e = &a.evidence;
        writeln!(out, "\nverdict   {}: {}", a.verdict.to_string().to_uppercase(), e.reason)?;
        writeln!(out, "decided by {} (curves alone: {})", e.basis, a.curve_verdict)?;
        if let Some(test) = &a.progress_test {
            for s in &test.steps {
                writeln!(
                    out,
                    "probe     stage {} k={:<2} depth {:<2} {:>8}{}  {}",
                    s.stage,
                    s.moves_left,
                    s.depth,
                    s.eval.display(),
                    if s.collapsed { " (draw)" } else { "" },
                    s.pv.join(" ")
                )?;
            }
        }
        writeln!(
            out,
            "evidence  ahead {} (material {:+}), final {}, window {}-{}: range {:.2}, rise {:+.2}, spread {:.2} over {} moves",
            e.ahead.map_or("nobody".into(), |s| format!("{s:?}").to_lowercase()),
            e.material,
            e.final_eval,
            e.window_from,
            e.final_depth,
            e.range,
            e.rise,
            e.spread,
            e.moves_compared
        )?;
        if let (Some(d), Some(ms)) = (a.verdict_depth, a.verdict_ms) {
            writeln!(out, "stable    verdict unchanged from depth {d} on ({ms} ms of search)")?;
        }
        if a.truncated_searches > 0 {
            writeln!(
                out,
                "note      {} search(es) hit the time limit; their reached depths were used",
                a.truncated_searches
            )?;
        }
        if a.breakthrough_searched {
            if a.breakthroughs.is_empty() {
                writeln!(
                    out,
                    "breakthrough  none: no legal move's curve rises consistently, and the progress test \
                     found no forcing first move"
                )?;
            }
            for b in &a.breakthroughs {
                let last = b.curve.last().map_or("-".into(), |p| p.eval.display());
                let replies = match b.replies_rise {
                    Some(true) => format!(
                        "opponent's best replies ({}) keep rising too",
                        b.replies.iter().map(|r| r.san.as_str()).collect::<Vec<_>>().join(", ")
                    ),
                    Some(false) => "but the opponent's best replies do not keep rising".into(),
                    None => "replies not checked".into(),
                };
                if b.by_progress_test {
                    writeln!(
                        out,
                        "breakthrough  {} starts the progress test's line, whose edge held at every stage \
                         (its own curve ends at {last}); {replies}",
                        b.curve.san
                    )?;
                    continue;
                }
                writeln!(
                    out,
                    "breakthrough  {} rises to {last}{}; {replies}",
                    b.curve.san,
                    if b.overtakes { " and overtakes the top moves" } else { "" }
                )?;
            }
        }
        if let Some(av) = &a.avoidance {
            for j in &av.judged {
                writeln!(out, "after {:<8} {:>7}  {:<8} {}", j.san, j.eval.display(), j.verdict, j.reason)?;
            }
            if av.best_is_fortress {
                match &av.alternative {
                    Some(alt) => writeln!(
                        out,
                        "avoid     the best move {} leads into a fortress; play {} ({}, judged {}) instead",
                        av.judged[0].san,
                        alt.san,
                        alt.eval.display(),
                        alt.verdict
                    )?,
                    None => writeln!(
                        out,
                        "avoid     the best move {} leads into a fortress, and no top move keeps progress",
                        av.judged[0].san
                    )?,
                }
            } else {
                writeln!(out, "avoid     the best move does not lead into a fortress")?;
            }
        }
        Ok(())
    }
}
