//! `bastion book`: build Polyglot books from PGN, probe them, and let them
//! learn from played games.

use anyhow::{bail, Context, Result};
use bastion_arena::book::{
    BookBuilder, BookProbe, BuildSummary, LearnParams, PolyglotBook, ENTRY_SIZE, MAX_BOOK_BYTES,
};
use bastion_arena::pgn;
use bastion_core::Position;
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

/// Arguments of `bastion book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Build a book from PGN games (moves scored 2 per win, 1 per draw for their side).
    Build {
        /// PGN files.
        #[arg(required = true)]
        pgn: Vec<PathBuf>,
        /// Output .bin file.
        #[arg(short, long)]
        output: PathBuf,
        /// Plies read from each game.
        #[arg(long, default_value_t = 24)]
        max_ply: usize,
        /// Keep only moves played in at least this many games.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the book moves of a position.
    Probe {
        /// The .bin book.
        book: PathBuf,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves (UCI or SAN) played from it first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Learn from finished games: the engine's moves gain weight in won games,
    /// lose it in lost ones, and new moves are added up to --max-ply.
    Learn {
        /// Games to learn from.
        #[arg(long)]
        pgn: PathBuf,
        /// The book to update (created when missing).
        #[arg(long)]
        book: PathBuf,
        /// The engine whose moves are learned (its name in the White/Black tags).
        #[arg(long)]
        engine_name: String,
        /// Plies learned from each game.
        #[arg(long, default_value_t = 20)]
        max_ply: usize,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// Checks that `path` looks like a Polyglot book before it is probed: a whole number of
/// 16-byte entries, sorted by key as the format requires (a probe looks keys up by
/// binary search). Anything else, a PGN file given by mistake say, is "not a Polyglot
/// book", not a book with "no book moves".
fn check_polyglot(path: &Path) -> Result<()> {
    use std::io::Read;
    let file = bastion_core::io::open_checked(path, MAX_BOOK_BYTES)
        .map_err(bastion_core::io::BoundedReadError::into_io)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let size = file.metadata().with_context(|| format!("cannot read {}", path.display()))?.len();
    let name = path.display();
    if size % ENTRY_SIZE as u64 != 0 {
        bail!("{name} is not a Polyglot book: its size, {size} bytes, is not a multiple of {ENTRY_SIZE}");
    }
    let mut reader = std::io::BufReader::new(file);
    let mut entry = [0u8; ENTRY_SIZE];
    let mut last = 0u64;
    for i in 0..size / ENTRY_SIZE as u64 {
        reader.read_exact(&mut entry).with_context(|| format!("cannot read {name}"))?;
        let key = u64::from_be_bytes(entry[..8].try_into().expect("8 bytes"));
        if key < last {
            bail!(
                "{name} is not a Polyglot book: entry {} is out of key order (the format keeps entries sorted by key)",
                i + 1
            );
        }
        last = key;
    }
    Ok(())
}

/// Runs the subcommand.
pub fn run(args: BookArgs) -> Result<()> {
    match args.command {
        BookCommand::Build { pgn: files, output, max_ply, min_games, json } => {
            let mut builder = BookBuilder::new(max_ply).min_games(min_games);
            let mut skipped = 0u64;
            for path in &files {
                // Streamed a game at a time: a regular file of any size will do.
                let f = bastion_core::io::open_checked(path, u64::MAX)
                    .map_err(bastion_core::io::BoundedReadError::into_io)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                skipped += builder
                    .add_pgn(std::io::BufReader::new(f))
                    .with_context(|| format!("reading {}", path.display()))?;
            }
            let book = builder.build();
            book.save(&output)?;
            let r = BuildSummary {
                games: builder.games(),
                skipped,
                entries: book.len(),
                output: output.display().to_string(),
            };
            if json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                println!("{}", r.to_line());
            }
        }
        BookCommand::Probe { book, fen, moves, json } => {
            check_polyglot(&book)?;
            let book = PolyglotBook::open(&book)?;
            let mut pos = match &fen {
                Some(f) => Position::from_fen(f).with_context(|| format!("bad FEN {f:?}"))?,
                None => Position::startpos(),
            };
            for m in &moves {
                let mv = pos.parse_move(m).with_context(|| format!("move {m:?}"))?;
                pos = pos.play(mv);
            }
            let r = BookProbe::new(&book, &pos);
            if json {
                println!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                print!("{}", r.to_text());
            }
        }
        BookCommand::Learn { pgn: games_path, book: book_path, engine_name, max_ply, json } => {
            let mut book = if book_path.exists() { PolyglotBook::open(&book_path)? } else { PolyglotBook::default() };
            let f = bastion_core::io::open_bounded(&games_path, bastion_core::io::TEXT_LIMIT)
                .map_err(bastion_core::io::BoundedReadError::into_io)
                .with_context(|| format!("cannot read {}", games_path.display()))?;
            let games = pgn::read_games(f)?;
            let params = LearnParams { max_ply, ..LearnParams::default() };
            let s = book.learn_games(&games, &engine_name, &params);
            if s.learned == 0 && !games.is_empty() {
                bail!("no finished game in {} was played by {engine_name:?}", games_path.display());
            }
            book.save(&book_path)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&s)?);
            } else {
                println!("{}", s.to_line());
            }
        }
    }
    Ok(())
}
