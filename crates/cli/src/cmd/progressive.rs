//! `bastion progressive`: Progressive (1-2-3) chess — mate search, series
//! enumeration, play against a person, self-play matches, the mate test set
//! and its benchmark.

use anyhow::{anyhow, bail, Context, Result};
use bastion_core::Color;
use bastion_progressive::selfplay::{play_game, MatchStats};
use bastion_progressive::testset::{self, MateCase};
use bastion_progressive::{
    choose_series, count_series, exhaustive_mate, find_mate, legal_series, series_text, Game, Heuristic, MateOptions,
    MateOutcome, PlayerOptions, Rules, SeriesPosition, Variant,
};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// Arguments of `bastion progressive`.
#[derive(Args, Debug)]
pub struct ProgressiveArgs {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Find a mate in the current series of a position.
    Mate(MateArgs),
    /// List or count the legal series of a position.
    Series(SeriesArgs),
    /// Play against the computer (or a person) in the terminal; moves are read from stdin.
    Play(PlayArgs),
    /// Let two player configurations play each other.
    Selfplay(SelfplayArgs),
    /// Collect positions with a mate from self-play games into a test-set file (resumable).
    GenMates(GenArgs),
    /// Time the mate finder on a test-set file, per series length.
    BenchMates(BenchArgs),
    /// Load a game record, check every move and print it.
    Replay(ReplayArgs),
    /// Play basic endgames (king and pieces against a bare king) between two copies of the player.
    BenchEndgames(EndgameArgs),
}

fn parse_time(s: &str) -> Result<Duration> {
    let s = s.trim();
    let (num, scale) = if let Some(v) = s.strip_suffix("ms") {
        (v, 0.001)
    } else if let Some(v) = s.strip_suffix('s') {
        (v, 1.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = num.trim().parse().map_err(|_| anyhow!("bad time {s:?} (e.g. 2, 2s, 500ms)"))?;
    if !(v.is_finite() && v >= 0.0 && v * scale < 1e6) {
        bail!("bad time {s:?}");
    }
    Ok(Duration::from_secs_f64(v * scale))
}

fn position_from(fen: &str, series: Option<u32>, rules: Rules) -> Result<SeriesPosition> {
    let fen = if fen == "startpos" { bastion_core::fen::STARTPOS } else { fen };
    let series = if fen == bastion_core::fen::STARTPOS && series.is_none() { Some(1) } else { series };
    SeriesPosition::from_fen(fen, series, rules).map_err(|e| anyhow!("{e}"))
}

#[derive(Args, Debug)]
struct MateArgs {
    /// Progressive FEN (7 fields) or plain FEN with --series.
    fen: String,
    /// Length of the series (required for a plain FEN; overrides the 7th field).
    #[arg(long)]
    series: Option<u32>,
    /// Time limit (e.g. 10, 2s, 500ms).
    #[arg(long, default_value = "10")]
    time: String,
    /// Mate heuristic: coverage (default), manhattan, figures, squares, baseline.
    #[arg(long, default_value = "coverage")]
    heuristic: String,
    /// Search variant: astar (default) or best-first.
    #[arg(long, default_value = "astar")]
    variant: String,
    /// Leave out the promotion term.
    #[arg(long)]
    no_promotion: bool,
    /// Leave out the king-pin term.
    #[arg(long)]
    no_pin: bool,
    /// Search every series: finds a mate or proves there is none (within --time).
    #[arg(long)]
    exhaustive: bool,
    /// Rules: italian (default) or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct MateReport {
    fen: String,
    series: u32,
    moves_left: u32,
    method: String,
    outcome: MateOutcome,
    mate: Option<String>,
    mate_uci: Option<Vec<String>>,
    nodes: u64,
    seconds: f64,
}

fn run_mate(a: MateArgs) -> Result<()> {
    let rules: Rules = a.rules.parse()?;
    let pos = position_from(&a.fen, a.series, rules)?;
    let time = parse_time(&a.time)?;
    let status = pos.status();
    if status != bastion_progressive::Status::Ongoing {
        bail!("the game is already over in this position ({status:?}); there is nothing to search");
    }
    let (r, method) = if a.exhaustive {
        (exhaustive_mate(&pos, time, None), "exhaustive".to_string())
    } else {
        let opts = MateOptions {
            heuristic: a.heuristic.parse()?,
            variant: a.variant.parse()?,
            promotion: !a.no_promotion,
            pin: !a.no_pin,
            time_limit: time,
            node_limit: None,
            g_per_move: None,
        };
        let m = format!("{:?}/{:?}", opts.heuristic, opts.variant);
        (find_mate(&pos, &opts), m)
    };
    let mate = r.moves.as_ref().map(|m| series_text(&pos, m));
    let uci = r.moves.as_ref().map(|ms| {
        let mut p = pos.clone();
        ms.iter()
            .map(|&m| {
                let s = p.board().to_uci(m);
                p = p.play_unchecked(m);
                s
            })
            .collect()
    });
    let rep = MateReport {
        fen: pos.fen(),
        series: pos.series_len(),
        moves_left: pos.moves_left(),
        method,
        outcome: r.outcome,
        mate,
        mate_uci: uci,
        nodes: r.nodes,
        seconds: r.elapsed.as_secs_f64(),
    };
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rep)?);
        return Ok(());
    }
    println!("{pos}");
    println!("series {} ({} moves left), {}", rep.series, rep.moves_left, rep.method);
    match rep.outcome {
        MateOutcome::Found => println!("mate: {}", rep.mate.unwrap_or_default()),
        MateOutcome::NoMate => println!("no mate exists in this series (proved by exhausting the search)"),
        MateOutcome::Unknown => println!("no mate found within the limit (unknown whether one exists)"),
    }
    println!("nodes {}  time {:.3}s", rep.nodes, rep.seconds);
    Ok(())
}

#[derive(Args, Debug)]
struct SeriesArgs {
    /// Progressive FEN, plain FEN with --series, or `startpos`.
    fen: String,
    /// Length of the series for a plain FEN.
    #[arg(long)]
    series: Option<u32>,
    /// List at most this many series (0: only count).
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Rules: italian or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

fn run_series(a: SeriesArgs) -> Result<()> {
    let pos = position_from(&a.fen, a.series, a.rules.parse()?)?;
    if pos.moves_left() > 6 {
        bail!("counting {} moves of series would take too long; at most 6 are supported", pos.moves_left());
    }
    let (n, distinct) = count_series(&pos);
    let list: Vec<String> = legal_series(&pos, a.limit).iter().map(|s| series_text(&pos, s)).collect();
    if a.json {
        #[derive(Serialize)]
        struct R {
            fen: String,
            series: u64,
            distinct_end_positions: u64,
            first: Vec<String>,
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&R {
                fen: pos.fen(),
                series: n,
                distinct_end_positions: distinct,
                first: list
            })?
        );
    } else {
        println!("{n} legal series, {distinct} distinct end positions");
        for s in list {
            println!("  {s}");
        }
    }
    Ok(())
}

/// A player configuration from `key=value,…` (depth, time, heuristic, variant,
/// promotion, pin, eval-promotion, king-safety, endgame, planner, book, width, noise).
fn player_from_spec(spec: &str, time: Duration, seed: u64) -> Result<PlayerOptions> {
    let mut p = PlayerOptions { time, seed, noise: 0.3, ..PlayerOptions::default() };
    p.mate.time_limit = time;
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (k, v) = item.split_once('=').ok_or_else(|| anyhow!("bad player option {item:?} (key=value)"))?;
        let on = || -> Result<bool> {
            match v {
                "on" | "true" | "1" | "yes" => Ok(true),
                "off" | "false" | "0" | "no" => Ok(false),
                _ => bail!("{k} takes on/off, found {v:?}"),
            }
        };
        match k {
            "depth" => p.depth = v.parse().context("depth")?,
            "time" => p.time = parse_time(v)?,
            "heuristic" => p.mate.heuristic = v.parse()?,
            "variant" => p.mate.variant = v.parse()?,
            "promotion" => p.mate.promotion = on()?,
            "pin" => p.mate.pin = on()?,
            "eval-promotion" => p.eval.promotion = on()?,
            "king-safety" => p.eval.king_safety = on()?,
            "endgame" => p.eval.endgame = on()?,
            "book" => p.book = on()?,
            "wide-book" => p.wide_book = on()?,
            "width" => p.width = v.parse().context("width")?,
            "noise" => p.noise = v.parse().context("noise")?,
            "prevent-mates" => p.prevent_mates = on()?,
            "planner" => p.planner = on()?,
            _ => bail!("unknown player option {k:?}"),
        }
    }
    if p.depth > 3 {
        bail!("depth {} is too deep (0..=3)", p.depth);
    }
    Ok(p)
}

#[derive(Args, Debug)]
struct PlayArgs {
    /// The colour you play: white, black, both (two people) or none (watch).
    #[arg(long, default_value = "white")]
    human: String,
    /// Computer time per turn.
    #[arg(long, default_value = "5")]
    time: String,
    /// Computer configuration (see selfplay --variant-a).
    #[arg(long, default_value = "")]
    engine: String,
    /// Start from this progressive FEN instead of the initial position.
    #[arg(long)]
    fen: Option<String>,
    /// Continue a saved game record.
    #[arg(long)]
    load: Option<String>,
    /// Write the game record here after every series.
    #[arg(long)]
    save: Option<String>,
    /// Rules: italian or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
}

fn run_play(a: PlayArgs) -> Result<()> {
    let rules: Rules = a.rules.parse()?;
    let mut game = if let Some(path) = &a.load {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        Game::from_record(&text)?
    } else if let Some(fen) = &a.fen {
        Game::from_position(position_from(fen, None, rules)?)
    } else {
        Game::new(rules)
    };
    let human = |c: Color| match a.human.as_str() {
        "both" => true,
        "none" => false,
        "black" => c == Color::Black,
        _ => c == Color::White,
    };
    if !matches!(a.human.as_str(), "white" | "black" | "both" | "none") {
        bail!("--human must be white, black, both or none");
    }
    let engine = player_from_spec(&a.engine, parse_time(&a.time)?, 1)?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let save = |g: &Game| -> Result<()> {
        if let Some(path) = &a.save {
            std::fs::write(path, g.record(&[("Event", "bastion progressive play".into())]))
                .with_context(|| format!("writing {path}"))?;
        }
        Ok(())
    };
    while game.result().is_none() {
        let pos = game.position().clone();
        if pos.played() == 0 {
            println!("\n{pos}");
            println!(
                "turn {}: {} plays {} move{}",
                pos.turn(),
                if pos.side_to_move() == Color::White { "White" } else { "Black" },
                pos.series_len(),
                if pos.series_len() == 1 { "" } else { "s" }
            );
        }
        if human(pos.side_to_move()) {
            print!("move {} of {}> ", pos.played() + 1, pos.series_len());
            std::io::stdout().flush()?;
            let Some(line) = lines.next() else {
                println!("\nend of input");
                break;
            };
            let line = line?;
            for tok in line.split_whitespace() {
                match tok {
                    "quit" | "resign" => {
                        game.adjudicate(Some(!game.position().side_to_move()));
                        break;
                    }
                    "moves" => {
                        let p = game.position();
                        let list: Vec<String> =
                            p.legal_moves().iter().map(|&m| p.board().san_without_suffix(m)).collect();
                        println!("{}", list.join(" "));
                    }
                    "fen" => println!("{}", game.position().fen()),
                    t => {
                        let t = t
                            .split_once('.')
                            .map_or(t, |(n, m)| if n.chars().all(|c| c.is_ascii_digit()) { m } else { t });
                        if t.is_empty() {
                            continue;
                        }
                        if let Err(e) = game.play_text(t) {
                            println!("{e}; type `moves` for the legal moves");
                            break;
                        }
                    }
                }
                if game.result().is_some() {
                    break;
                }
            }
        } else {
            let t0 = Instant::now();
            let choice = choose_series(&pos, &engine).ok_or_else(|| anyhow!("no move"))?;
            println!(
                "computer: {}   ({:?}, score {:.1}, {:.1}s)",
                series_text(&pos, &choice.moves),
                choice.phase,
                choice.score,
                t0.elapsed().as_secs_f64()
            );
            game.play_series(&choice.moves)?;
        }
        if game.position().played() == 0 {
            save(&game)?;
        }
    }
    save(&game)?;
    println!("\n{}", game.position());
    if let Some(r) = game.result() {
        println!("result {} ({:?})", r.text(), r.end);
    }
    println!("{}", game.notation());
    Ok(())
}

#[derive(Args, Debug)]
struct SelfplayArgs {
    /// Number of games (colours alternate).
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Time per turn for both players.
    #[arg(long, default_value = "1")]
    time: String,
    /// Configuration A as key=value,… (depth, heuristic, variant, promotion, pin,
    /// eval-promotion, king-safety, endgame, book, wide-book, width, noise, time).
    #[arg(long, default_value = "")]
    variant_a: String,
    /// Configuration B, same keys.
    #[arg(long, default_value = "")]
    variant_b: String,
    /// Adjudicate a draw after this many turns.
    #[arg(long, default_value_t = 40)]
    max_turns: u32,
    /// Append every finished game's record to this file.
    #[arg(long)]
    pgn: Option<String>,
    /// First random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rules: italian or scottish.
    #[arg(long, default_value = "italian")]
    rules: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize, Default)]
struct OpeningStat {
    games: u32,
    white_wins: u32,
    black_wins: u32,
}

fn run_selfplay(a: SelfplayArgs) -> Result<()> {
    let rules: Rules = a.rules.parse()?;
    let time = parse_time(&a.time)?;
    let mut stats = MatchStats::default();
    let mut openings: BTreeMap<String, OpeningStat> = BTreeMap::new();
    let t0 = Instant::now();
    for g in 0..a.games {
        let seed = a.seed.wrapping_add(g as u64 * 1_000_003);
        let pa = player_from_spec(&a.variant_a, time, seed)?;
        let pb = player_from_spec(&a.variant_b, time, seed ^ 0xABCD)?;
        let a_white = g % 2 == 0;
        let (w, b) = if a_white { (&pa, &pb) } else { (&pb, &pa) };
        let game = play_game(w, b, rules, a.max_turns, &mut |_| {});
        stats.add(&game, a_white);
        let notation = game.notation();
        let opening: Vec<&str> = notation.split(' ').take(3).collect();
        let entry = openings.entry(opening.join(" ")).or_default();
        entry.games += 1;
        match game.result().and_then(|r| r.winner) {
            Some(Color::White) => entry.white_wins += 1,
            Some(Color::Black) => entry.black_wins += 1,
            None => {}
        }
        if let Some(path) = &a.pgn {
            let rec = game.record(&[
                ("Event", "bastion progressive selfplay".into()),
                ("White", if a_white { format!("A {}", a.variant_a) } else { format!("B {}", a.variant_b) }),
                ("Black", if a_white { format!("B {}", a.variant_b) } else { format!("A {}", a.variant_a) }),
            ]);
            let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
            writeln!(f, "{rec}")?;
        }
        let (s, e) = stats.score();
        eprintln!(
            "game {}/{}: {} in {} turns ({:?})  A score {:.3} ± {:.3}  [{:.0}s]",
            g + 1,
            a.games,
            game.result().map_or("*", |r| r.text()),
            game.position().turn() - 1,
            game.result().map(|r| r.end),
            s,
            e,
            t0.elapsed().as_secs_f64()
        );
    }
    let (score, err) = stats.score();
    let (dw, derr) = stats.decided_win_rate();
    if a.json {
        #[derive(Serialize)]
        struct R<'a> {
            variant_a: &'a str,
            variant_b: &'a str,
            time_per_turn: f64,
            stats: &'a MatchStats,
            score_a: f64,
            score_a_error95: f64,
            decided_win_rate_a: f64,
            decided_error95: f64,
            openings: &'a BTreeMap<String, OpeningStat>,
            seconds: f64,
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&R {
                variant_a: &a.variant_a,
                variant_b: &a.variant_b,
                time_per_turn: time.as_secs_f64(),
                stats: &stats,
                score_a: score,
                score_a_error95: err,
                decided_win_rate_a: dw,
                decided_error95: derr,
                openings: &openings,
                seconds: t0.elapsed().as_secs_f64(),
            })?
        );
    } else {
        println!("A = [{}]  B = [{}]  {} games, {:?} per turn", a.variant_a, a.variant_b, stats.games, time);
        println!(
            "A: +{} ={} -{}  score {:.1}% ± {:.1}%",
            stats.wins,
            stats.draws,
            stats.losses,
            100.0 * score,
            100.0 * err
        );
        println!(
            "A wins {:.1}% ± {:.1}% of decided games; White won {}; {} mates",
            100.0 * dw,
            100.0 * derr,
            stats.white_wins,
            stats.mates
        );
        for (o, s) in &openings {
            println!("  {o:<28} games {:>3}  white {:>3}  black {:>3}", s.games, s.white_wins, s.black_wins);
        }
    }
    Ok(())
}

#[derive(Args, Debug)]
struct GenArgs {
    /// Test-set file to create or extend (resumes: existing lines count).
    file: String,
    /// Positions wanted per series length.
    #[arg(long, default_value_t = 100)]
    per_length: usize,
    /// Shortest series length collected.
    #[arg(long, default_value_t = 4)]
    min_len: u32,
    /// Longest series length collected.
    #[arg(long, default_value_t = 12)]
    max_len: u32,
    /// Time of the mate scan at each turn.
    #[arg(long, default_value = "3")]
    scan_time: String,
    /// Time per turn of the self-play players.
    #[arg(long, default_value = "0.2")]
    player_time: String,
    /// Stop after this many games.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Probability that a player who has a mate plays on without it (so games continue).
    #[arg(long, default_value_t = 0.85)]
    skip: f32,
    /// Probability that a turn before the 6th is played without mate prevention
    /// (a weaker player), so that early mates (series of 4 and 5) occur.
    #[arg(long, default_value_t = 0.5)]
    weak_opening: f32,
    /// Probability that a turn before the 6th is played by uniformly random legal
    /// moves (a beginner), so that mates in series of 4 and 5 occur at all.
    #[arg(long, default_value_t = 0.25)]
    random_opening: f32,
    /// Random noise of the self-play players' series scores (pawns), for varied games.
    #[arg(long, default_value_t = 2.0)]
    noise: f32,
}

fn run_gen(a: GenArgs) -> Result<()> {
    let scan = parse_time(&a.scan_time)?;
    let ptime = parse_time(&a.player_time)?;
    let existing = std::fs::read_to_string(&a.file).unwrap_or_default();
    let cases = testset::load(&existing, Rules::Italian).with_context(|| format!("reading {}", a.file))?;
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    let mut seen: std::collections::HashSet<u64> = std::collections::HashSet::new();
    for c in &cases {
        *counts.entry(c.position.series_len()).or_default() += 1;
        seen.insert(c.position.key());
    }
    let full = |counts: &BTreeMap<u32, usize>, l: u32| counts.get(&l).copied().unwrap_or(0) >= a.per_length;
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(&a.file)?;
    let base_seed = 0x5EED_0000 + cases.len() as u64 * 7717 + existing.len() as u64;
    let mut rng = bastion_progressive::player::Rng::new(base_seed);
    let t0 = Instant::now();
    for g in 0..a.games {
        if (a.min_len..=a.max_len).all(|l| full(&counts, l)) {
            break;
        }
        let seed = base_seed.wrapping_add(g as u64 * 104_729);
        let player =
            PlayerOptions { depth: 0, time: ptime, seed, noise: a.noise, wide_book: true, ..PlayerOptions::default() };
        let mut skip_player = player.clone();
        skip_player.skip_mate_search = true;
        let mut game = Game::new(Rules::Italian);
        while game.result().is_none() && game.position().turn() <= 30 {
            let pos = game.position().clone();
            let len = pos.series_len();
            let mut has_mate = false;
            if len >= a.min_len && len <= a.max_len && !full(&counts, len) && !seen.contains(&pos.key()) {
                if let Some(m) = testset::scan_for_mate(&pos, scan) {
                    has_mate = true;
                    let case = MateCase { position: pos.clone(), mate: m };
                    // Confirm by replay before writing.
                    if MateCase::parse(&case.line(), Rules::Italian).is_ok() {
                        writeln!(file, "{}", case.line())?;
                        file.flush()?;
                        *counts.entry(len).or_default() += 1;
                        seen.insert(pos.key());
                    }
                }
            }
            let opts = if has_mate && rng.unit() < a.skip { &skip_player } else { &player };
            let mut o = opts.clone();
            if pos.turn() < 6 && rng.unit() < a.weak_opening {
                o.prevent_mates = false;
            }
            o.seed = seed ^ pos.turn() as u64;
            if pos.turn() >= 3 && pos.turn() < 6 && rng.unit() < a.random_opening {
                let mut p = pos.clone();
                while game.position().played() != 0 || p == pos {
                    let legal = p.legal_moves();
                    if legal.is_empty() || game.result().is_some() {
                        break;
                    }
                    let m = legal[rng.below(legal.len())];
                    game.play(m)?;
                    p = game.position().clone();
                    if p.played() == 0 {
                        break;
                    }
                }
                continue;
            }
            let Some(choice) = choose_series(&pos, &o) else { break };
            game.play_series(&choice.moves)?;
        }
        let summary: Vec<String> =
            (a.min_len..=a.max_len).map(|l| format!("{l}:{}", counts.get(&l).copied().unwrap_or(0))).collect();
        eprintln!(
            "game {} done ({} turns) [{:.0}s]  {}",
            g + 1,
            game.position().turn() - 1,
            t0.elapsed().as_secs_f64(),
            summary.join(" ")
        );
    }
    Ok(())
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Test-set file (`FEN;moves` lines).
    file: String,
    /// Time limit per position.
    #[arg(long, default_value = "10")]
    time: String,
    /// Mate heuristic.
    #[arg(long, default_value = "coverage")]
    heuristic: String,
    /// A* variant: astar or best-first.
    #[arg(long, default_value = "astar")]
    variant: String,
    /// Leave out the promotion term.
    #[arg(long)]
    no_promotion: bool,
    /// Leave out the king-pin term.
    #[arg(long)]
    no_pin: bool,
    /// Only the first N positions of each series length.
    #[arg(long)]
    per_length: Option<usize>,
    /// Override the A* path cost per move (x/y) for tuning.
    #[arg(long)]
    g: Option<f32>,
    /// Print the heuristics' average change from root to mate per move (the seed's x/y).
    #[arg(long)]
    calibrate: bool,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

/// CPU time this thread has used (Linux `/proc/thread-self/schedstat`), if available.
/// The bench reports it beside wall time because the machine is shared: under
/// load, wall time overstates what one thread needs.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

#[derive(Serialize, Default)]
struct LenStats {
    positions: usize,
    found: usize,
    under_1s: usize,
    under_10s: usize,
    mean_ms: f64,
    median_ms: f64,
    max_ms: f64,
}

fn run_bench(a: BenchArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("reading {}", a.file))?;
    let mut cases = testset::load(&text, Rules::Italian)?;
    if let Some(n) = a.per_length {
        let mut seen: BTreeMap<u32, usize> = BTreeMap::new();
        cases.retain(|c| {
            let e = seen.entry(c.position.series_len()).or_default();
            *e += 1;
            *e <= n
        });
    }
    if a.calibrate {
        println!("heuristic      mean cost change root→mate per series move (x/y)");
        for h in Heuristic::ALL {
            let mut sum = 0.0f64;
            for c in &cases {
                let ctx = bastion_progressive::mate::MateContext::new(c.position.board(), h, false, false);
                let mut p = c.position.clone();
                let root = ctx.cost(p.board(), 0, p.moves_left());
                for &m in &c.mate[..c.mate.len() - 1] {
                    p = p.play_unchecked(m);
                }
                let before = ctx.cost(p.board(), c.mate.len() as u32 - 1, 1);
                sum += ((root - before) as f64) / c.mate.len() as f64;
            }
            println!("{:<14} {:.3}", format!("{h:?}"), sum / cases.len().max(1) as f64);
        }
        return Ok(());
    }
    let opts = MateOptions {
        heuristic: a.heuristic.parse()?,
        variant: a.variant.parse()?,
        promotion: !a.no_promotion,
        pin: !a.no_pin,
        time_limit: parse_time(&a.time)?,
        node_limit: None,
        g_per_move: a.g,
    };
    let mut per: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    let mut slowest: Vec<(f64, String)> = Vec::new();
    let mut found_per: BTreeMap<u32, usize> = BTreeMap::new();
    let t0 = Instant::now();
    let mut cpu_times: Vec<f64> = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let cpu0 = thread_cpu();
        let r = find_mate(&c.position, &opts);
        if let (Some(a), Some(b)) = (cpu0, thread_cpu()) {
            cpu_times.push(if r.found() { (b - a).as_secs_f64() * 1000.0 } else { f64::INFINITY });
        }
        let ms = r.elapsed.as_secs_f64() * 1000.0;
        let len = c.position.series_len();
        if r.found() {
            if let Some(m) = &r.moves {
                if !c.position.play_series(m).is_ok_and(|e| e.is_checkmate()) {
                    bail!("the finder returned a non-mate on line {}", i + 1);
                }
            }
            *found_per.entry(len).or_default() += 1;
            per.entry(len).or_default().push(ms);
        } else {
            // Not found: counted at the time limit, as the seed did.
            per.entry(len).or_default().push(f64::INFINITY.min(opts.time_limit.as_secs_f64() * 1000.0) + 0.001);
        }
        slowest.push((ms, c.position.fen()));
        if (i + 1) % 50 == 0 {
            eprintln!("{}/{} [{:.0}s]", i + 1, cases.len(), t0.elapsed().as_secs_f64());
        }
    }
    let limit_ms = opts.time_limit.as_secs_f64() * 1000.0;
    slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    slowest.truncate(10);
    let mut table: BTreeMap<u32, LenStats> = BTreeMap::new();
    let mut all = LenStats::default();
    let mut all_times = Vec::new();
    for (len, times) in &per {
        let found = found_per.get(len).copied().unwrap_or(0);
        let mut t = times.clone();
        t.sort_by(f64::total_cmp);
        let s = LenStats {
            positions: t.len(),
            found,
            under_1s: t.iter().filter(|&&x| x < 1000.0 && x <= limit_ms).count(),
            under_10s: t.iter().filter(|&&x| x < 10_000.0 && x <= limit_ms).count(),
            mean_ms: t.iter().sum::<f64>() / t.len() as f64,
            median_ms: t[t.len() / 2],
            max_ms: *t.last().unwrap_or(&0.0),
        };
        all.positions += s.positions;
        all.found += s.found;
        all.under_1s += s.under_1s;
        all.under_10s += s.under_10s;
        all_times.extend(t);
        table.insert(*len, s);
    }
    all_times.sort_by(f64::total_cmp);
    cpu_times.sort_by(f64::total_cmp);
    let cpu_under_1s = cpu_times.iter().filter(|&&x| x < 1000.0).count();
    let cpu_max_ms = cpu_times.iter().copied().filter(|x| x.is_finite()).fold(0.0, f64::max);
    // Mates found within each time (the seed's Fig. 4.8).
    let thresholds = [10.0, 50.0, 100.0, 250.0, 500.0, 1000.0, 2000.0, 5000.0, 10_000.0];
    let cumulative: Vec<(f64, usize)> = thresholds
        .iter()
        .map(|&t| (t / 1000.0, all_times.iter().filter(|&&x| x <= t && x <= limit_ms).count()))
        .collect();
    if !all_times.is_empty() {
        all.mean_ms = all_times.iter().sum::<f64>() / all_times.len() as f64;
        all.median_ms = all_times[all_times.len() / 2];
        all.max_ms = *all_times.last().unwrap_or(&0.0);
    }
    if a.json {
        #[derive(Serialize)]
        struct R<'a> {
            file: &'a str,
            heuristic: Heuristic,
            variant: Variant,
            promotion: bool,
            pin: bool,
            time_limit_s: f64,
            by_series_length: &'a BTreeMap<u32, LenStats>,
            total: &'a LenStats,
            found_within_seconds: &'a [(f64, usize)],
            slowest_ms: &'a [(f64, String)],
            cpu_found_under_1s: usize,
            cpu_max_ms: f64,
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&R {
                file: &a.file,
                heuristic: opts.heuristic,
                variant: opts.variant,
                promotion: opts.promotion,
                pin: opts.pin,
                time_limit_s: opts.time_limit.as_secs_f64(),
                by_series_length: &table,
                total: &all,
                found_within_seconds: &cumulative,
                slowest_ms: &slowest,
                cpu_found_under_1s: cpu_under_1s,
                cpu_max_ms,
            })?
        );
    } else {
        println!(
            "{:?} / {:?}, promotion {}, pin {}, limit {:?}",
            opts.heuristic, opts.variant, opts.promotion, opts.pin, opts.time_limit
        );
        println!("len  n    found  <1s   <10s  mean ms  median ms  max ms");
        for (len, s) in &table {
            println!(
                "{len:<4} {:<4} {:<6} {:<5} {:<5} {:<8.1} {:<10.1} {:.1}",
                s.positions, s.found, s.under_1s, s.under_10s, s.mean_ms, s.median_ms, s.max_ms
            );
        }
        println!(
            "all  {:<4} {:<6} {:<5} {:<5} {:<8.1} {:<10.1} {:.1}",
            all.positions, all.found, all.under_1s, all.under_10s, all.mean_ms, all.median_ms, all.max_ms
        );
        let cum: Vec<String> = cumulative.iter().map(|(t, n)| format!("{t}s:{n}")).collect();
        println!("found within: {}", cum.join(" "));
        for (ms, fen) in slowest.iter().take(5) {
            println!("slow: {ms:.0} ms  {fen}");
        }
        if !cpu_times.is_empty() {
            println!(
                "thread CPU time: {cpu_under_1s} of {} found in under 1 s ({:.2}%), max {cpu_max_ms:.0} ms",
                cpu_times.len(),
                100.0 * cpu_under_1s as f64 / cpu_times.len() as f64
            );
        }
        println!(
            "wall time: found under 1 s: {:.2}%, under 10 s: {:.2}%",
            100.0 * all.under_1s as f64 / all.positions.max(1) as f64,
            100.0 * all.under_10s as f64 / all.positions.max(1) as f64
        );
    }
    Ok(())
}

#[derive(Args, Debug)]
struct ReplayArgs {
    /// Game record file.
    file: String,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

fn run_replay(a: ReplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("reading {}", a.file))?;
    let game = Game::from_record(&text)?;
    if a.json {
        #[derive(Serialize)]
        struct R {
            moves: String,
            fen: String,
            result: Option<String>,
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&R {
                moves: game.notation(),
                fen: game.position().fen(),
                result: game.result().map(|r| r.text().to_string()),
            })?
        );
    } else {
        println!("{}", game.position());
        println!("{}", game.notation());
        if let Some(r) = game.result() {
            println!("result {} ({:?})", r.text(), r.end);
        }
    }
    Ok(())
}

/// Runs `bastion progressive …`.
pub fn run(args: ProgressiveArgs) -> Result<()> {
    match args.command {
        Sub::Mate(a) => run_mate(a),
        Sub::Series(a) => run_series(a),
        Sub::Play(a) => run_play(a),
        Sub::Selfplay(a) => run_selfplay(a),
        Sub::GenMates(a) => run_gen(a),
        Sub::BenchMates(a) => run_bench(a),
        Sub::Replay(a) => run_replay(a),
        Sub::BenchEndgames(a) => run_endgames(a),
    }
}

#[derive(Args, Debug)]
struct EndgameArgs {
    /// File of `name ; progressive FEN` lines, the side to move being the stronger
    /// (e.g. crates/progressive/tests/data/endgames.txt).
    #[arg(long)]
    file: Option<String>,
    /// Random placements per material set and colour (added to --file's positions).
    #[arg(long, default_value_t = 0)]
    random: usize,
    /// Material of the stronger side for --random, comma-separated sets of Q R B N.
    #[arg(long, default_value = "Q,RB,BB,BN,RN,R")]
    sets: String,
    /// Turn (= the stronger side's series length) of the random positions.
    #[arg(long, default_value_t = 9)]
    turn: u32,
    /// Time per turn for both sides.
    #[arg(long, default_value = "0.5")]
    time: String,
    /// Configuration of the stronger side (keys as for selfplay --variant-a; noise 0 unless given).
    #[arg(long, default_value = "")]
    engine: String,
    /// Configuration of the bare king's side.
    #[arg(long, default_value = "")]
    defender: String,
    /// Random seed of the placements.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct EndgameGame {
    group: String,
    name: String,
    fen: String,
    won: bool,
    result: String,
    end: Option<String>,
    last_turn: u32,
    turns: u32,
    seconds: f64,
    moves: String,
}

#[derive(Serialize)]
struct EndgameGroup {
    group: String,
    games: usize,
    won: usize,
    mean_turns_won: f64,
    max_turns_won: u32,
}

fn run_endgames(a: EndgameArgs) -> Result<()> {
    let time = parse_time(&a.time)?;
    let options = |spec: &str| -> Result<PlayerOptions> {
        let mut p = player_from_spec(spec, time, a.seed)?;
        if !spec.contains("noise") {
            p.noise = 0.0;
        }
        p.book = false;
        Ok(p)
    };
    let attack = options(&a.engine)?;
    let defend = options(&a.defender)?;
    let mut cases: Vec<(String, String, SeriesPosition)> = Vec::new();
    if let Some(path) = &a.file {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (name, fen) = line.split_once(';').ok_or_else(|| anyhow!("{path}:{}: expected `name ; FEN`", i + 1))?;
            let pos = SeriesPosition::from_fen(fen.trim(), None, Rules::Italian)
                .map_err(|e| anyhow!("{path}:{}: {e}", i + 1))?;
            let group: Vec<&str> = name.split_whitespace().take(2).collect();
            cases.push((group.join(" "), name.trim().to_string(), pos));
        }
    }
    let mut rng = bastion_progressive::player::Rng::new(a.seed);
    for set in a.sets.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        for attacker in [Color::White, Color::Black] {
            for i in 0..a.random {
                let pos = bastion_progressive::endgame::random_endgame(&mut rng, set, attacker, a.turn)?;
                let c = if attacker == Color::White { "W" } else { "B" };
                cases.push((
                    format!("K{} {c}", set.to_uppercase()),
                    format!("K{}K {c} {}", set.to_uppercase(), i + 1),
                    pos,
                ));
            }
        }
    }
    if cases.is_empty() {
        bail!("no positions: give --file and/or --random N");
    }
    let t0 = Instant::now();
    let mut games = Vec::new();
    for (n, (group, name, pos)) in cases.into_iter().enumerate() {
        let attacker = pos.side_to_move();
        let start = pos.turn();
        let fen = pos.fen();
        let t = Instant::now();
        let (w, b) = if attacker == Color::White { (&attack, &defend) } else { (&defend, &attack) };
        let game = bastion_progressive::selfplay::play_from(pos, w, b, start + 60, &mut |_| {});
        let result = game.result();
        let last_turn = game.position().turn() - 1;
        let g = EndgameGame {
            group,
            name,
            fen,
            won: result.and_then(|r| r.winner) == Some(attacker),
            result: result.map_or("*", |r| r.text()).to_string(),
            end: result.map(|r| format!("{:?}", r.end)),
            last_turn,
            turns: last_turn + 1 - start,
            seconds: t.elapsed().as_secs_f64(),
            moves: game.notation(),
        };
        eprintln!(
            "{:>3}. {:<14} {:<7} {:<12} last turn {:>3} ({} turns) {:.1}s  [{:.0}s]",
            n + 1,
            g.name,
            g.result,
            g.end.as_deref().unwrap_or("-"),
            g.last_turn,
            g.turns,
            g.seconds,
            t0.elapsed().as_secs_f64()
        );
        games.push(g);
    }
    let mut groups: Vec<EndgameGroup> = Vec::new();
    for g in &games {
        if !groups.iter().any(|x| x.group == g.group) {
            let all: Vec<&EndgameGame> = games.iter().filter(|x| x.group == g.group).collect();
            let won: Vec<u32> = all.iter().filter(|x| x.won).map(|x| x.turns).collect();
            groups.push(EndgameGroup {
                group: g.group.clone(),
                games: all.len(),
                won: won.len(),
                mean_turns_won: won.iter().sum::<u32>() as f64 / won.len().max(1) as f64,
                max_turns_won: won.iter().copied().max().unwrap_or(0),
            });
        }
    }
    if a.json {
        #[derive(Serialize)]
        struct R<'a> {
            time_per_turn: f64,
            engine: &'a str,
            defender: &'a str,
            groups: &'a [EndgameGroup],
            games: &'a [EndgameGame],
            seconds: f64,
        }
        println!(
            "{}",
            serde_json::to_string_pretty(&R {
                time_per_turn: time.as_secs_f64(),
                engine: &a.engine,
                defender: &a.defender,
                groups: &groups,
                games: &games,
                seconds: t0.elapsed().as_secs_f64(),
            })?
        );
    } else {
        println!("stronger side [{}] vs bare king [{}], {:?} per turn", a.engine, a.defender, time);
        println!("{:<10} {:>5} {:>5} {:>11} {:>10}", "endgame", "games", "won", "mean turns", "max turns");
        for g in &groups {
            println!("{:<10} {:>5} {:>5} {:>11.1} {:>10}", g.group, g.games, g.won, g.mean_turns_won, g.max_turns_won);
        }
        let won = games.iter().filter(|g| g.won).count();
        println!("won {won} of {} ({:.0} s)", games.len(), t0.elapsed().as_secs_f64());
        for g in games.iter().filter(|g| !g.won) {
            println!("  not won: {} {} ({})", g.name, g.fen, g.end.as_deref().unwrap_or("-"));
        }
    }
    Ok(())
}
