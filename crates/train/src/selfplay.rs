//! Self-play data: fast games (fixed nodes per move) from randomised, roughly balanced
//! openings, whose quiet positions are written with the game result as `fen,result,game`
//! lines (result from White's view: 1, 0.5, 0).
//!
//! With [`GenConfig::scores`] each line also carries White's score from the game's own
//! search (`fen,result,game,score`, the format [`crate::label`] writes), so one pass yields
//! labelled training data for the network. Game `g` depends only on `g` and the settings,
//! so generation is reproducible and can be resumed (finished games already in the file are
//! skipped).
//!
//! A `.bin` file gets 32-byte [`PackedRecord`]s instead of lines (score always included),
//! with the index [`index_path`] that resuming reads. With [`GenConfig::tablebase`] a game
//! ends when a capture or pawn move reaches a position the tables cover, with their result.
//! With [`GenConfig::starts`] games begin from given positions (an opening book, or endings
//! to be played out) instead of the standard start position.

use crate::packed::{index_path, read_index, DataFormat, PackedRecord, RECORD_BYTES};
use bastion_core::rng::{splitmix64, Rng};
use bastion_core::tablebase::TablebaseProbe;
use bastion_core::{Color, Move, Position};
use bastion_engine::score::is_decisive;
use bastion_engine::search::ordering::is_capture;
use bastion_engine::search::{Engine, Limits};
use bastion_engine::EngineOptions;
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

/// Settings of self-play generation.
#[derive(Clone)]
pub struct GenConfig {
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: usize,
    /// Seed mixed into each game's random opening.
    pub seed: u64,
    /// Append White's search score to every line (network training data).
    pub scores: bool,
    /// Tables that end a game with their result once it reaches them (see
    /// [`play_game`]); `None` plays every game out.
    pub tablebase: Option<Arc<dyn TablebaseProbe>>,
    /// Positions games start from instead of the standard one: game `g` starts from
    /// position `g` modulo their number (so a game still depends only on its number), then
    /// plays the random plies. `None` (or an empty list) starts every game from the start
    /// position.
    pub starts: Option<Arc<Vec<Position>>>,
}

impl std::fmt::Debug for GenConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GenConfig")
            .field("nodes", &self.nodes)
            .field("random_plies", &self.random_plies)
            .field("seed", &self.seed)
            .field("scores", &self.scores)
            .field("tablebase_men", &self.tablebase.as_ref().map(|t| t.max_pieces()))
            .field("starts", &self.starts.as_ref().map(|s| s.len()))
            .finish()
    }
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig { nodes: 3000, random_plies: 8, seed: 0x5EED, scores: false, tablebase: None, starts: None }
    }
}

/// A quiet position sampled from a self-play game.
#[derive(Clone, Debug)]
pub struct SampledPosition {
    /// The position.
    pub pos: Position,
    /// White's score from the search that chose the game's move here.
    pub white_score: i32,
}

/// One generated game: sampled positions and the result from White's view.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number.
    pub game: u64,
    /// Result: 1.0 White won, 0.5 draw, 0.0 Black won.
    pub result: f64,
    /// Quiet positions sampled from the game.
    pub samples: Vec<SampledPosition>,
    /// The tables gave the result (see [`GenConfig::tablebase`]).
    pub by_tablebase: bool,
}

impl GameRecord {
    /// The game's data lines: `fen,result,game`, with `,score` appended when `scores`.
    pub fn lines(&self, scores: bool) -> String {
        let mut text = String::new();
        for s in &self.samples {
            text.push_str(&format!("{},{},{}", s.pos.fen(), self.result, self.game));
            if scores {
                text.push_str(&format!(",{}", s.white_score));
            }
            text.push('\n');
        }
        text
    }

    /// The game's positions as packed records.
    pub fn packed(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.samples.len() * RECORD_BYTES);
        for s in &self.samples {
            bytes.extend_from_slice(&PackedRecord::pack(&s.pos, s.white_score, self.result).0);
        }
        bytes
    }
}

/// Plays self-play game number `game`.
///
/// With tables, a game ends as soon as a capture or pawn move (halfmove clock 0, where a
/// WDL probe is exact under the fifty-move rule) reaches a position without castling
/// rights that they cover: a win for the side that wins there, a draw for a draw, a cursed
/// win or a blessed loss.
pub fn play_game(game: u64, cfg: &GenConfig, engine: &mut Engine) -> GameRecord {
    let mut rng = Rng::new(cfg.seed ^ splitmix64(game));
    let mut attempt = 0;
    let first = match cfg.starts.as_deref() {
        Some(starts) if !starts.is_empty() => starts[(game % starts.len() as u64) as usize].clone(),
        _ => Position::startpos(),
    };
    // A random opening that is not already lopsided. Without random plies the given start
    // is played as it is, lopsided or not: a book's or an ending's balance is its own.
    let start = loop {
        attempt += 1;
        let mut pos = first.clone();
        if cfg.random_plies == 0 {
            break pos;
        }
        let mut ok = true;
        for _ in 0..cfg.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        if !ok || !pos.has_legal_moves() {
            continue;
        }
        engine.clear();
        let r = engine.search(&pos, &[], &Limits::depth(6), &mut |_| {});
        if r.value.abs() <= 150 || attempt > 20 {
            break pos;
        }
    };
    engine.clear();
    let mut pos = start;
    let mut keys: Vec<u64> = Vec::new();
    let mut samples: Vec<SampledPosition> = Vec::new();
    let mut winning_plies = 0; // consecutive plies with a decisive score for the same side
    let mut last_winner = Color::White;
    let mut drawish_plies = 0;
    let result;
    let mut ply = 0;
    let mut by_tablebase = false;
    loop {
        if let Some(wdl) = cfg.tablebase.as_ref().and_then(|tb| {
            let covered =
                pos.halfmove_clock() == 0 && pos.castling().is_empty() && pos.occupied().count() <= tb.max_pieces();
            covered.then(|| tb.probe_wdl(&pos)).flatten()
        }) {
            let stm_result = f64::from(wdl.result() + 1) / 2.0;
            result = if pos.side_to_move() == Color::White { stm_result } else { 1.0 - stm_result };
            by_tablebase = true;
            break;
        }
        if !pos.has_legal_moves() {
            result = if pos.in_check() {
                if pos.side_to_move() == Color::White {
                    0.0
                } else {
                    1.0
                }
            } else {
                0.5
            };
            break;
        }
        if pos.halfmove_clock() >= 100
            || pos.is_insufficient_material()
            || keys.iter().filter(|&&k| k == pos.key()).count() >= 2
        {
            result = 0.5;
            break;
        }
        if ply >= 400 {
            result = 0.5;
            break;
        }
        let r = engine.search(&pos, &keys, &Limits::nodes(cfg.nodes), &mut |_| {});
        let Some(best) = r.best else {
            result = 0.5;
            break;
        };
        let white_score = if pos.side_to_move() == Color::White { r.value } else { -r.value };
        // Adjudication keeps games short: a clearly won score for 6 plies, or a dead draw.
        let winner = if white_score > 0 { Color::White } else { Color::Black };
        if white_score.abs() >= 1000 || is_decisive(r.value) {
            if winner == last_winner {
                winning_plies += 1;
            } else {
                winning_plies = 1;
                last_winner = winner;
            }
            if winning_plies >= 6 {
                result = if winner == Color::White { 1.0 } else { 0.0 };
                break;
            }
        } else {
            winning_plies = 0;
        }
        if ply > 80 && white_score.abs() <= 8 {
            drawish_plies += 1;
            if drawish_plies >= 12 {
                result = 0.5;
                break;
            }
        } else {
            drawish_plies = 0;
        }
        let quiet = !pos.in_check() && !is_noisy(&pos, best) && r.value.abs() < 1500;
        if quiet && ply >= 4 {
            samples.push(SampledPosition { pos: pos.clone(), white_score });
        }
        keys.push(pos.key());
        pos = pos.play(best);
        ply += 1;
    }
    GameRecord { game, result, samples, by_tablebase }
}

/// A capture or promotion (positions whose best move is one are not quiet).
pub fn is_noisy(pos: &Position, m: Move) -> bool {
    is_capture(pos, m) || m.is_promotion()
}

/// Where generated games go: CSV lines, or packed records with their index.
pub struct DataWriter {
    scores: bool,
    data: Box<dyn Write + Send>,
    /// The index of a packed file; `None` for CSV.
    index: Option<Box<dyn Write + Send>>,
    /// Length of the packed data so far: the `end` of the next index line.
    end: u64,
}

impl DataWriter {
    /// A writer of `fen,result,game` lines to `data`, with the score column when `scores`.
    fn csv(data: Box<dyn Write + Send>, scores: bool) -> DataWriter {
        DataWriter { scores, data, index: None, end: 0 }
    }

    /// A writer of packed records to `data`, which already holds `end` bytes, recording each
    /// finished game in `index` (see [`index_path`]).
    fn packed(data: Box<dyn Write + Send>, index: Box<dyn Write + Send>, end: u64) -> DataWriter {
        DataWriter { scores: true, data, index: Some(index), end }
    }

    /// Opens the data file at `path` for more games in the format its name says
    /// ([`DataFormat::of`]), after [`resume`] has tidied it; returns the writer and the
    /// games already there.
    pub fn open(path: &Path, scores: bool) -> std::io::Result<(DataWriter, HashSet<u64>)> {
        let done = resume(path)?;
        let append = |p: &Path| std::fs::OpenOptions::new().create(true).append(true).open(p);
        let data = append(path)?;
        let writer = match DataFormat::of(path) {
            DataFormat::Csv => DataWriter::csv(Box::new(std::io::BufWriter::new(data)), scores),
            DataFormat::Packed => {
                let end = data.metadata()?.len();
                let index = append(&index_path(path))?;
                DataWriter::packed(Box::new(std::io::BufWriter::new(data)), Box::new(index), end)
            }
        };
        Ok((writer, done))
    }

    /// Appends one game and flushes: for a packed file its records first, then its index
    /// line, so that the index never names data that is not on disk.
    pub fn write_game(&mut self, rec: &GameRecord) -> std::io::Result<()> {
        match &mut self.index {
            None => {
                self.data.write_all(rec.lines(self.scores).as_bytes())?;
                self.data.flush()
            }
            Some(index) => {
                let bytes = rec.packed();
                self.data.write_all(&bytes)?;
                self.data.flush()?;
                self.end += bytes.len() as u64;
                index.write_all(format!("{} {}\n", rec.game, self.end).as_bytes())?;
                index.flush()
            }
        }
    }
}

/// Prepares the data file at `path` for more games and returns the games already in it.
/// A CSV file loses a partial last line left by an interrupted run ([`finished_games`]);
/// a packed file is cut back to the end of the last game its index records.
pub fn resume(path: &Path) -> std::io::Result<HashSet<u64>> {
    match DataFormat::of(path) {
        DataFormat::Csv => {
            crate::complete_lines(path)?;
            finished_games(path)
        }
        DataFormat::Packed => resume_packed(path),
    }
}

fn resume_packed(path: &Path) -> std::io::Result<HashSet<u64>> {
    let index = index_path(path);
    crate::complete_lines(&index)?;
    let games = read_index(path)?;
    let end = games.last().map_or(0, |g| g.1);
    let done = games.into_iter().map(|g| g.0).collect();
    let len = match std::fs::metadata(path) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(e),
    };
    if len < end {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{} has {len} bytes, its index {} says {end}", path.display(), index.display()),
        ));
    }
    if len > end {
        // Records of a game whose index line was never written: it is played again.
        std::fs::OpenOptions::new().write(true).open(path)?.set_len(end)?;
    }
    Ok(done)
}

/// Games already present in a data file (for resuming): the third field of every line,
/// with or without a score after it.
pub fn finished_games(path: &Path) -> std::io::Result<HashSet<u64>> {
    let mut set = HashSet::new();
    if !path.exists() {
        return Ok(set);
    }
    // Streamed line by line: any regular file will do, but not a device or a FIFO.
    let f = std::io::BufReader::new(bastion_core::io::open_checked(path, u64::MAX)?);
    for line in f.lines() {
        let line = line?;
        if let Some(g) = line.split(',').nth(2).and_then(|g| g.trim().parse::<u64>().ok()) {
            set.insert(g);
        }
    }
    Ok(set)
}

/// Plays games `0..n` (skipping those in `done`) on `threads` threads, appending each
/// finished game to `out` (see [`DataWriter::write_game`]). `progress` is called after
/// every game.
pub fn generate(
    n: u64,
    threads: usize,
    cfg: &GenConfig,
    done: &HashSet<u64>,
    out: &mut DataWriter,
    progress: &(dyn Fn(&GameRecord) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> std::io::Result<()> {
    let next = std::sync::atomic::AtomicU64::new(0);
    let out = std::sync::Mutex::new(out);
    let err: std::sync::Mutex<Option<std::io::Error>> = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut engine = Engine::new(EngineOptions { hash_mb: 8, ..EngineOptions::default() });
                loop {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if g >= n {
                        break;
                    }
                    if done.contains(&g) {
                        continue;
                    }
                    let rec = play_game(g, cfg, &mut engine);
                    let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
                    if let Err(e) = o.write_game(&rec) {
                        *err.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                        break;
                    }
                    drop(o);
                    progress(&rec);
                }
            });
        }
    });
    match err.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texel::{format_weights, Tuner};

    #[test]
    fn self_play_game_is_reproducible_and_tuner_reduces_error() {
        let cfg = GenConfig { nodes: 300, random_plies: 6, seed: 1, ..GenConfig::default() };
        let mut e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        let a = play_game(3, &cfg, &mut e);
        let b = play_game(3, &cfg, &mut e);
        assert_eq!(a.lines(true), b.lines(true));
        assert!([0.0, 0.5, 1.0].contains(&a.result));
        let mut data = Vec::new();
        for g in 0..4 {
            let r = play_game(g, &cfg, &mut e);
            data.extend(r.samples.iter().map(|s| (s.pos.clone(), r.result)));
        }
        assert!(!data.is_empty());
        let mut t = Tuner::new(&data);
        t.fit_k();
        let before = t.error();
        t.train(20, 1.0, &mut |_, _| {});
        assert!(t.error() < before, "{} !< {}", t.error(), before);
        let src = format_weights(&t.rounded(), "test");
        assert!(src.contains("pub static WEIGHTS"));
    }

    #[test]
    fn games_start_from_the_given_positions() {
        // A rook ending and a pawn ending: game `g` plays start `g % 2` as it is.
        let starts: Vec<Position> = ["8/5k2/8/3p4/8/2R5/5K2/8 w - - 0 40", "8/8/3k4/8/2PK4/8/8/8 b - - 0 50"]
            .iter()
            .map(|fen| Position::from_fen(fen).unwrap())
            .collect();
        let cfg =
            GenConfig { nodes: 300, random_plies: 0, seed: 3, starts: Some(Arc::new(starts)), ..GenConfig::default() };
        let mut e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        for g in 0..4 {
            let rec = play_game(g, &cfg, &mut e);
            assert!(!rec.samples.is_empty(), "game {g} was played from its start");
            let men = if g % 2 == 0 { 4 } else { 3 };
            assert!(rec.samples.iter().all(|s| s.pos.occupied().count() <= men), "game {g} started elsewhere");
            assert!(rec.samples[0].pos.fullmove_number() >= if g % 2 == 0 { 42 } else { 52 });
        }
        let mut fens = |g| play_game(g, &cfg, &mut e).samples.iter().map(|s| s.pos.fen()).collect::<Vec<_>>();
        assert_eq!(fens(0), fens(2), "the same start without random plies gives the same game");
    }

    #[test]
    fn scored_lines_resume_and_train_like_labelled_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sp.csv");
        let cfg = GenConfig { nodes: 300, random_plies: 6, seed: 7, scores: true, ..GenConfig::default() };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (mut out, done) = DataWriter::open(&path, true).unwrap();
        generate(3, 1, &cfg, &done, &mut out, &|_| {}, &stop).unwrap();
        drop(out);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().count() > 10, "{text}");
        let mut e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        let (mut checked, mut agreed) = (0usize, 0usize);
        for line in text.lines() {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 4, "{line}");
            let score: i32 = f[3].parse().unwrap();
            assert!(score.abs() < 1500, "{line}");
            // The score is White's: a search of the same position from the side to move agrees in sign
            // whenever either is clearly non-zero.
            let pos = Position::from_fen(f[0]).unwrap();
            if score.abs() >= 300 {
                e.clear();
                let r = e.search(&pos, &[], &Limits::nodes(300), &mut |_| {});
                let white = if pos.side_to_move() == Color::White { r.value } else { -r.value };
                // A fresh search can differ from the game's (which had its tables warm) in a
                // sharp position, so a sign bug shows as most of them disagreeing, not one.
                checked += 1;
                agreed += usize::from(white.signum() == score.signum());
            }
        }
        assert!(agreed * 5 >= checked * 4, "{agreed} of {checked} scores agree in sign");
        // Resuming reads the game number from the third field, not the score after it.
        let done = finished_games(&path).unwrap();
        assert_eq!(done, text.lines().map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect());
        assert!(done.iter().all(|&g| g < 3));
        // The network trainer reads these lines as labelled positions: none is rejected.
        let (train, _, bad) = crate::dataset::load(&path, 0.75, 0).unwrap();
        assert_eq!((train.len(), bad), (text.lines().count(), 0));
    }

    /// A table that covers every position and says White wins.
    struct WhiteWins;

    impl TablebaseProbe for WhiteWins {
        fn max_pieces(&self) -> u32 {
            32
        }
        fn probe_wdl(&self, pos: &Position) -> Option<bastion_core::tablebase::Wdl> {
            use bastion_core::tablebase::Wdl;
            Some(if pos.side_to_move() == Color::White { Wdl::Win } else { Wdl::Loss })
        }
    }

    #[test]
    fn tables_end_games_with_their_result() {
        let cfg = GenConfig {
            nodes: 300,
            random_plies: 6,
            seed: 3,
            tablebase: Some(Arc::new(WhiteWins)),
            ..GenConfig::default()
        };
        let mut e = Engine::new(EngineOptions { hash_mb: 1, ..EngineOptions::default() });
        let games: Vec<GameRecord> = (0..6).map(|g| play_game(g, &cfg, &mut e)).collect();
        assert!(games.iter().any(|g| g.by_tablebase));
        for g in games.iter().filter(|g| g.by_tablebase) {
            assert_eq!(g.result, 1.0, "game {}", g.game);
        }
        // Without the table the same games are longer.
        let plain = GenConfig { tablebase: None, ..cfg.clone() };
        let mut longer = 0;
        for g in games.iter().filter(|g| g.by_tablebase) {
            let p = play_game(g.game, &plain, &mut e);
            assert!(!p.by_tablebase);
            longer += usize::from(p.samples.len() >= g.samples.len());
        }
        assert_eq!(longer, games.iter().filter(|g| g.by_tablebase).count());
    }

    #[test]
    fn packed_files_resume_after_a_torn_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sp.bin");
        let cfg = GenConfig { nodes: 300, random_plies: 6, seed: 9, ..GenConfig::default() };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (mut out, done) = DataWriter::open(&path, false).unwrap();
        assert!(done.is_empty());
        generate(3, 2, &cfg, &done, &mut out, &|_| {}, &stop).unwrap();
        drop(out);
        let after3 = std::fs::read(&path).unwrap();
        assert_eq!(after3.len() % RECORD_BYTES, 0);
        // An interrupted run: a game's records without its index line, then half a record.
        let mut torn = after3.clone();
        torn.extend_from_slice(&play_game(7, &cfg, &mut Engine::new(EngineOptions::default())).packed());
        torn.extend_from_slice(&[1, 2, 3]);
        std::fs::write(&path, &torn).unwrap();
        let (mut out, done) = DataWriter::open(&path, false).unwrap();
        assert_eq!(done, (0..3).collect());
        assert_eq!(std::fs::read(&path).unwrap(), after3, "cut back to the last indexed game");
        generate(5, 1, &cfg, &done, &mut out, &|_| {}, &stop).unwrap();
        drop(out);
        // The same five games as one uninterrupted run, in some order: the index names each once.
        let index = std::fs::read_to_string(index_path(&path)).unwrap();
        let mut games: Vec<u64> = index.lines().map(|l| l.split(' ').next().unwrap().parse().unwrap()).collect();
        games.sort();
        assert_eq!(games, vec![0, 1, 2, 3, 4]);
        let mut e = Engine::new(EngineOptions { hash_mb: 8, ..EngineOptions::default() });
        let expected: usize = (0..5).map(|g| play_game(g, &cfg, &mut e).samples.len()).sum();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), expected * RECORD_BYTES);
        let mut n = 0;
        let partial = crate::packed::for_each_record(&path, |r| {
            r.unpack().unwrap();
            n += 1;
        })
        .unwrap();
        assert_eq!((n, partial), (expected, 0));
        // The trainer reads them: every record a position, none rejected.
        let (train, _, bad) = crate::dataset::load(&path, 0.75, 0).unwrap();
        assert_eq!((train.len(), bad), (expected, 0));
    }
}
