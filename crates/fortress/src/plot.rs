//! Plots like those of Guid & Bratko 2012 (Figs. 4–7): evaluation (pawns, White's view) against depth,
//! one line per move, SAN in the legend and the verdict in the title; and
//! the cumulative time per depth (Fig. 7). SVG, or PNG on request.
//!
//! Text is drawn with a bundled DejaVu Sans through `ab_glyph`, so plots
//! render identically on machines without any system fonts.

use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::analysis::Analysis;
use crate::curve::Point;
use crate::error::FortressError;
use crate::score::Eval;

/// DejaVu Sans (Bitstream Vera licence, see `assets/DEJAVU-LICENSE`).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

/// Which figure to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlotKind {
    /// Evaluation against depth (Figs. 4–6).
    Evaluations,
    /// Cumulative search time against depth (Fig. 7).
    Time,
}

const SIZE: (u32, u32) = (960, 600);

fn register_font() {
    REGISTER.call_once(|| {
        // The bundled font is known good; failure would only lose text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// The evaluation plot as an SVG document.
pub fn render_svg(analysis: &Analysis) -> String {
    render_svg_kind(analysis, PlotKind::Evaluations)
}

/// The time-per-depth plot (Fig. 7) as an SVG document.
pub fn render_time_svg(analysis: &Analysis) -> String {
    render_svg_kind(analysis, PlotKind::Time)
}

fn render_svg_kind(analysis: &Analysis, kind: PlotKind) -> String {
    register_font();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        // Drawing into a String cannot fail for I/O reasons; a failure
        // leaves a partial document, which is still well-formed enough to see.
        let _ = draw(&root, analysis, kind).and_then(|()| root.present().map_err(|e| e.to_string()));
    }
    out
}

/// Writes the chosen plot as a PNG file.
pub fn render_png(analysis: &Analysis, kind: PlotKind, path: &Path) -> Result<(), FortressError> {
    let rgb = render_rgb(analysis, kind)?;
    // The caller names the file; these say what went wrong with it.
    let file = std::fs::File::create(path).map_err(|e| FortressError::Plot(e.to_string()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), SIZE.0, SIZE.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let encoding = |e: png::EncodingError| FortressError::Plot(e.to_string());
    let mut writer = encoder.write_header().map_err(encoding)?;
    writer.write_image_data(&rgb).map_err(encoding)?;
    writer.finish().map_err(encoding)
}

/// The chosen plot as 8-bit RGB pixels, row by row.
fn render_rgb(analysis: &Analysis, kind: PlotKind) -> Result<Vec<u8>, FortressError> {
    register_font();
    let mut rgb = vec![0u8; SIZE.0 as usize * SIZE.1 as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        draw(&root, analysis, kind).map_err(FortressError::Plot)?;
        root.present().map_err(|e| FortressError::Plot(e.to_string()))?;
    }
    Ok(rgb)
}

/// One drawn series.
struct Series {
    label: String,
    points: Vec<(f64, f64)>,
    dashed: bool,
}

fn title(analysis: &Analysis) -> String {
    format!(
        "{} — verdict: {} ({} to depth {})",
        analysis.fen.split(' ').take(2).collect::<Vec<_>>().join(" "),
        analysis.verdict.to_string().to_uppercase(),
        analysis.engine,
        analysis.evidence.final_depth
    )
}

/// Mates are drawn at the edge of the plot, just beyond the largest
/// ordinary evaluation, so they do not flatten every other curve.
fn plot_value(e: Eval, cap: f64) -> f64 {
    match e {
        Eval::Cp(_) => e.pawns().clamp(-cap, cap),
        Eval::Mate(n) if n > 0 => cap,
        Eval::Mate(_) => -cap,
    }
}

fn eval_series(analysis: &Analysis) -> (Vec<Series>, f64) {
    let mut all: Vec<&Point> = analysis.curves.iter().flat_map(|c| &c.evals_by_depth).collect();
    for b in &analysis.breakthroughs {
        all.extend(&b.curve.evals_by_depth);
        all.extend(b.replies.iter().flat_map(|c| &c.evals_by_depth));
    }
    let biggest = all.iter().filter(|p| p.eval.mate().is_none()).map(|p| p.eval.pawns().abs()).fold(0.0, f64::max);
    let cap = (biggest + 1.0).max(2.0);
    let line = |pts: &[Point]| pts.iter().map(|p| (f64::from(p.depth), plot_value(p.eval, cap))).collect();
    let mut series: Vec<Series> = analysis
        .curves
        .iter()
        .map(|c| Series { label: c.san.clone(), points: line(&c.evals_by_depth), dashed: false })
        .collect();
    for b in &analysis.breakthroughs {
        if !analysis.curves.iter().any(|c| c.uci == b.curve.uci) {
            series.push(Series {
                label: format!("{} (breakthrough?)", b.curve.san),
                points: line(&b.curve.evals_by_depth),
                dashed: true,
            });
        }
        for r in &b.replies {
            series.push(Series {
                label: format!("{} {}", b.curve.san, r.san),
                points: line(&r.evals_by_depth),
                dashed: true,
            });
        }
    }
    (series, cap)
}

fn time_series(analysis: &Analysis) -> Vec<Series> {
    vec![Series {
        label: "main search (cumulative)".into(),
        points: analysis
            .times
            .iter()
            .filter(|t| t.depth >= analysis.config.min_depth)
            .map(|t| (f64::from(t.depth), t.ms as f64 / 1000.0))
            .collect(),
        dashed: false,
    }]
}

fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, analysis: &Analysis, kind: PlotKind) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let (series, y_label) = match kind {
        PlotKind::Evaluations => (eval_series(analysis).0, "evaluation (pawns, White's view)"),
        PlotKind::Time => (time_series(analysis), "cumulative time (s)"),
    };
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    let (y0, y1) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let (x0, x1) = if x0 > x1 { (0.0, 1.0) } else { (x0, x1.max(x0 + 1.0)) };
    let (y0, y1) = if y0 > y1 { (-1.0, 1.0) } else { (y0, y1) };
    let pad = ((y1 - y0) * 0.08).max(0.25);
    let (y0, y1) = match kind {
        PlotKind::Time => (0.0, y1 + pad),
        PlotKind::Evaluations => (y0 - pad, y1 + pad),
    };
    let caption = match kind {
        PlotKind::Evaluations => title(analysis),
        PlotKind::Time => format!("Time per depth — {}", title(analysis)),
    };
    let mut chart = ChartBuilder::on(root)
        .caption(caption, ("sans-serif", 20))
        .margin(14)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("search depth (plies)")
        .y_desc(y_label)
        .x_labels(((x1 - x0) as usize + 1).min(30))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(err)?;
    for (i, s) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let style = ShapeStyle::from(&color).stroke_width(if s.dashed { 1 } else { 2 });
        // A move outside the top K at some depth has no point there: break
        // the line at the gap instead of drawing a straight line across it.
        let mut segments: Vec<Vec<(f64, f64)>> = Vec::new();
        for &p in &s.points {
            match segments.last_mut() {
                Some(seg) if seg.last().is_some_and(|q| p.0 - q.0 <= 1.0) => seg.push(p),
                _ => segments.push(vec![p]),
            }
        }
        for (k, seg) in segments.into_iter().enumerate() {
            let anno = if s.dashed {
                chart.draw_series(DashedLineSeries::new(seg, 6, 4, style)).map_err(err)?
            } else {
                chart.draw_series(LineSeries::new(seg, style)).map_err(err)?
            };
            if k == 0 {
                anno.label(s.label.clone()).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
            }
        }
        chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 2, color.filled()))).map_err(err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(err)?;
    Ok(())
}
