//! Labelling data lines with search scores, so that the network learns from the engine's
//! judgement of a position and not only from the result of the game it came from.

use bastion_core::rng::{splitmix64, Rng};
use bastion_core::{Color, Position};
use bastion_engine::search::{Engine, Limits};
use bastion_engine::{EngineOptions, Score};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

impl LabelConfig {
    /// The settings that decide what a label is (not how fast it comes: `threads`
    /// changes nothing in the output), as written to the settings file.
    fn settings_line(&self) -> String {
        format!("depth {} random-plies {} seed {}", self.depth, self.random_plies, self.seed)
    }
}

/// The file beside `output` that records the settings its labels were made with
/// (`labelled.csv` → `labelled.csv.settings`): output lines must stay one per input
/// line, so the settings cannot go into the output itself.
pub fn settings_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".settings");
    PathBuf::from(name)
}

/// Checks that `done` lines already in `output` were labelled with `cfg`'s settings,
/// or records them when starting afresh, so that a resumed run never mixes labels of
/// two depths (or seeds) in one file.
fn check_settings(output: &Path, done: usize, cfg: &LabelConfig) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    let path = settings_path(output);
    let want = cfg.settings_line();
    if done == 0 {
        return bastion_core::io::write_atomically(&path, "partial", format!("{want}\n").as_bytes());
    }
    let have = match bastion_core::io::read_to_string_bounded(&path, 4096) {
        Ok(text) => text.trim().to_string(),
        Err(bastion_core::io::BoundedReadError::Io { source, .. }) if source.kind() == ErrorKind::NotFound => {
            return Err(Error::new(
                ErrorKind::InvalidInput,
                format!(
                    "{} holds {done} labelled lines but no {} saying how they were made; \
                     label into a new file (or remove this one)",
                    output.display(),
                    path.display()
                ),
            ));
        }
        Err(e) => return Err(e.into()),
    };
    if have != want {
        return Err(Error::new(
            ErrorKind::InvalidInput,
            format!(
                "{} was labelled with {have:?}, this run asks for {want:?}; resume with the same \
                 settings or label into a new file",
                output.display()
            ),
        ));
    }
    Ok(())
}

/// Lines labelled between two writes to the output at most; the first block is one line
/// per engine, later ones grow or shrink to take about [`FLUSH_EVERY`].
const MAX_BLOCK: usize = 4096;

/// About how much labelling time an interruption (or a kill) can lose.
const FLUSH_EVERY: Duration = Duration::from_secs(2);

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
/// The settings (depth, random plies, seed) are kept in [`settings_path`]`(output)`,
/// and resuming with other settings is an error. Labels are written and flushed in
/// blocks of a few seconds' work (the first block is one line per engine), so a kill
/// loses little. `progress(done, total)` is called after every block, once its lines
/// are on disk; `stop()` ends the run early at a block boundary. Returns the number of
/// lines written by this call.
pub fn label_file(
    input: &Path,
    output: &Path,
    cfg: &LabelConfig,
    progress: &mut dyn FnMut(usize, usize),
    stop: &dyn Fn() -> bool,
) -> std::io::Result<usize> {
    // Streamed line by line: any regular file will do, but not a device or a FIFO.
    let lines: Vec<String> =
        std::io::BufReader::new(bastion_core::io::open_checked(input, u64::MAX)?).lines().collect::<Result<_, _>>()?;
    let done = crate::complete_lines(output)?;
    check_settings(output, done, cfg)?;
    let mut out = std::io::BufWriter::new(std::fs::OpenOptions::new().create(true).append(true).open(output)?);
    let LabelConfig { depth, random_plies, seed, threads } = *cfg;
    let threads = threads.max(1);
    let mut engines: Vec<Engine> =
        (0..threads).map(|_| Engine::new(EngineOptions { hash_mb: 2, ..EngineOptions::default() })).collect();
    let mut written = 0;
    let mut block_len = threads;
    let mut at = done.min(lines.len());
    while at < lines.len() && !stop() {
        let started = Instant::now();
        let block = &lines[at..(at + block_len).min(lines.len())];
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
        // Aim the next block at FLUSH_EVERY of work (the labels do not depend on it).
        let per_line = started.elapsed().as_secs_f64() / block.len() as f64;
        let fit = if per_line > 0.0 { (FLUSH_EVERY.as_secs_f64() / per_line) as usize } else { MAX_BLOCK };
        block_len = fit.clamp(threads, (2 * block_len).min(MAX_BLOCK));
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
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
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
    }

    fn input_of(dir: &Path, n: usize) -> PathBuf {
        let input = dir.join("in.csv");
        let line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3,1,4\n";
        std::fs::write(&input, line.repeat(n)).unwrap();
        input
    }

    /// A resumed run with another depth used to append labels of the new depth to those
    /// of the old one without a word.
    #[test]
    fn resuming_with_other_settings_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let input = input_of(dir, 6);
        let out = dir.join("out.csv");
        let cfg = LabelConfig { depth: 2, random_plies: 0, seed: 1, threads: 1 };
        // Stopped after the first block.
        let blocks = std::cell::Cell::new(0);
        label_file(&input, &out, &cfg, &mut |_, _| blocks.set(blocks.get() + 1), &|| blocks.get() > 0).unwrap();
        assert!(blocks.get() == 1 && crate::complete_lines(&out).unwrap() < 6);
        for other in
            [LabelConfig { depth: 3, ..cfg }, LabelConfig { seed: 2, ..cfg }, LabelConfig { random_plies: 2, ..cfg }]
        {
            let e = label_file(&input, &out, &other, &mut |_, _| {}, &|| false).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            assert!(e.to_string().contains("depth 2 random-plies 0 seed 1"), "{e}");
        }
        // Threads do not change a label: resuming with more is fine.
        label_file(&input, &out, &LabelConfig { threads: 2, ..cfg }, &mut |_, _| {}, &|| false).unwrap();
        assert_eq!(crate::complete_lines(&out).unwrap(), 6);
        // Labelled lines whose settings are unknown are not resumed either.
        std::fs::remove_file(settings_path(&out)).unwrap();
        let e = label_file(&input, &out, &cfg, &mut |_, _| {}, &|| false).unwrap_err();
        assert!(e.to_string().contains("no "), "{e}");
    }

    /// Labels used to be written 4,096 lines at a time, so a kill before the first block
    /// lost everything: now the first block is one line per engine, and whenever progress
    /// is reported the lines it counts are on disk.
    #[test]
    fn labels_reach_the_disk_in_small_blocks() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let input = input_of(dir, 40);
        let out = dir.join("out.csv");
        let cfg = LabelConfig { depth: 1, random_plies: 0, seed: 1, threads: 2 };
        let mut reports = Vec::new();
        label_file(
            &input,
            &out,
            &cfg,
            &mut |done, total| {
                assert_eq!(total, 40);
                assert_eq!(crate::complete_lines(&out).unwrap(), done, "reported lines are on disk");
                reports.push(done);
            },
            &|| false,
        )
        .unwrap();
        assert_eq!(reports.first(), Some(&2), "the first block is one line per engine");
        assert_eq!(reports.last(), Some(&40));
    }
}
