//! Labelling data lines with search scores, so that the network learns from the engine's
//! judgement of a position and not only from the result of the game it came from.

use bastion_core::rng::{splitmix64, Rng};
use bastion_core::{Color, Position};
use bastion_engine::search::{Engine, Limits};
use bastion_engine::{EngineOptions, Score};
use std::io::{BufRead, Write};
use std::path::Path;

/// Largest |label| in centipawns: search scores are clamped to it and mates written as it.
pub const LABEL_CP_MAX: i32 = 3000;

/// Settings of [`label_file`].
#[derive(Clone, Copy, Debug)]
pub struct LabelConfig {
    /// Search depth of each label.
    pub depth: i32,
    /// Random legal moves (1 to this many) played before labelling; 0 labels as is.
    pub random_plies: usize,
    /// Seed for the random moves.
    pub seed: u64,
    /// Engines searching in parallel.
    pub threads: usize,
}

/// Labels a data file with search scores: copies `input` to `output` with White's
/// score from a `cfg.depth`-ply search appended to every line, using `cfg.threads` engines.
///
/// With `cfg.random_plies` > 0 each position is first moved on by 1 to `random_plies`
/// random legal moves (seeded by `cfg.seed` and the line number), so that the network
/// also sees the unbalanced positions a search visits; such a line has no game result
/// (`fen,,game,score`), and a position in check or whose best move is a capture or
/// promotion is rejected and written as an empty line. Output line `i` always
/// belongs to input line `i`.
///
/// Resumable: lines already in `output` are skipped (a partial last line is dropped).
/// `progress(done, total)` is called after every block; `stop()` ends the run early
/// at a block boundary. Returns the number of lines written by this call.
pub fn label_file(
    input: &Path,
    output: &Path,
    cfg: &LabelConfig,
    progress: &mut dyn FnMut(usize, usize),
    stop: &dyn Fn() -> bool,
) -> std::io::Result<usize> {
    let lines: Vec<String> = std::io::BufReader::new(std::fs::File::open(input)?).lines().collect::<Result<_, _>>()?;
    let done = crate::complete_lines(output)?;
    let mut out = std::io::BufWriter::new(std::fs::OpenOptions::new().create(true).append(true).open(output)?);
    let LabelConfig { depth, random_plies, seed, threads } = *cfg;
    let threads = threads.max(1);
    let mut engines: Vec<Engine> =
        (0..threads).map(|_| Engine::new(EngineOptions { hash_mb: 2, ..EngineOptions::default() })).collect();
    let mut written = 0;
    const BLOCK: usize = 4096;
    let mut at = done.min(lines.len());
    while at < lines.len() && !stop() {
        let block = &lines[at..(at + BLOCK).min(lines.len())];
        let per = block.len().div_ceil(threads);
        let first = at;
        let labels: Vec<Vec<String>> = std::thread::scope(|s| {
            let handles: Vec<_> = engines
                .iter_mut()
                .zip(block.chunks(per))
                .enumerate()
                .map(|(k, (engine, chunk))| {
                    s.spawn(move || {
                        let n0 = first + k * per;
                        chunk
                            .iter()
                            .enumerate()
                            .map(|(j, l)| {
                                let rng = Rng::new(seed ^ splitmix64((n0 + j) as u64));
                                label_line(engine, l, depth, random_plies, rng)
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().expect("labelling thread")).collect()
        });
        for line in labels.into_iter().flatten() {
            writeln!(out, "{line}")?;
        }
        out.flush()?;
        written += block.len();
        at += block.len();
        progress(at, lines.len());
    }
    Ok(written)
}

/// The output line for one input line (see [`label_file`]).
fn label_line(engine: &mut Engine, line: &str, depth: i32, random_plies: usize, mut rng: Rng) -> String {
    let line = line.trim_end();
    let mut parts = line.split(',');
    let Some(Ok(mut pos)) = parts.next().map(|f| Position::from_fen(f.trim())) else {
        // Unreadable lines are kept as they are so that line numbers stay aligned.
        return line.to_string();
    };
    if random_plies > 0 {
        for _ in 0..1 + rng.below(random_plies) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return String::new();
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        if pos.in_check() {
            return String::new();
        }
    }
    if !pos.has_legal_moves() {
        return if random_plies > 0 { String::new() } else { line.to_string() };
    }
    // Each label is a function of its line alone (not of the lines this engine searched
    // before), so a resumed run redoes a cut-off line exactly.
    engine.clear();
    let r = engine.search(&pos, &[], &Limits::depth(depth), &mut |_| {});
    let cp = match r.score {
        Score::Cp(v) => v.clamp(-LABEL_CP_MAX, LABEL_CP_MAX),
        Score::Mate(n) if n > 0 => LABEL_CP_MAX,
        Score::Mate(_) => -LABEL_CP_MAX,
    };
    let white_cp = if pos.side_to_move() == Color::White { cp } else { -cp };
    if random_plies == 0 {
        return format!("{line},{white_cp}");
    }
    if r.best.is_none_or(|m| crate::is_noisy(&pos, m)) || cp.abs() >= LABEL_CP_MAX {
        return String::new();
    }
    let game = parts.nth(1).unwrap_or("").trim();
    format!("{},,{game},{white_cp}", pos.fen())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::load;

    #[test]
    fn labelling_is_aligned_resumable_and_loadable() {
        let dir = std::env::temp_dir().join(format!("bastion-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.csv");
        let lines = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3,1,4",
            "not a fen,0.5,4",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1,0,5",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,1,6",
        ];
        std::fs::write(&input, lines.join("\n") + "\n").unwrap();
        let cfg = LabelConfig { depth: 3, random_plies: 0, seed: 1, threads: 2 };
        let out = dir.join("out.csv");
        assert_eq!(label_file(&input, &out, &cfg, &mut |_, _| {}, &|| false).unwrap(), 4);
        let text = std::fs::read_to_string(&out).unwrap();
        let got: Vec<&str> = text.lines().collect();
        assert_eq!(got.len(), 4);
        assert_eq!(got[1], lines[1]);
        for (g, l) in got.iter().zip(&lines) {
            assert!(g.starts_with(l));
        }
        // White is a queen up in the last line and a queen down (Black to move) in the third:
        // scores are White's.
        let score = |l: &str| l.rsplit(',').next().unwrap().parse::<i32>().unwrap();
        assert!(score(got[3]) > 500 && score(got[2]) < -500, "{got:?}");
        // A second run finds everything done; a cut-off last line is redone.
        assert_eq!(label_file(&input, &out, &cfg, &mut |_, _| {}, &|| false).unwrap(), 0);
        std::fs::write(&out, &text[..text.len() - 3]).unwrap();
        assert_eq!(label_file(&input, &out, &cfg, &mut |_, _| {}, &|| false).unwrap(), 1);
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
        // Moved-on positions: one output line per input line, empty or `fen,,game,score`.
        let moved = dir.join("moved.csv");
        let cfg = LabelConfig { random_plies: 3, ..cfg };
        label_file(&input, &moved, &cfg, &mut |_, _| {}, &|| false).unwrap();
        let text = std::fs::read_to_string(&moved).unwrap();
        assert_eq!(text.lines().count(), 4);
        for l in text.lines().filter(|l| !l.is_empty() && !l.starts_with("not a fen")) {
            let f: Vec<&str> = l.split(',').collect();
            assert!(Position::from_fen(f[0]).is_ok() && f[1].is_empty() && f[3].parse::<i32>().is_ok(), "{l}");
        }
        let (train, val, bad) = load(&out, 0.75, 0).unwrap();
        assert_eq!((train.len(), val.len(), bad), (3, 0, 1));
        std::fs::remove_dir_all(&dir).ok();
    }
}
