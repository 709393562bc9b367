//! `bastion nnue train`: trains a network on labelled positions, with checkpoints and
//! `--resume`, through `bastion_train`.

use super::interrupt_flag;
use anyhow::{bail, Context, Result};
use bastion_engine::nnue::{KingLayout, Network};
use bastion_train::{dataset, FloatNetwork, RunFiles, TrainConfig, Trainer};
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

/// Arguments of `bastion nnue train`.
#[derive(Args, Debug)]
pub(super) struct TrainArgs {
    /// Training data: `fen,result,game[,score]` lines, or packed records (`.bin`). Several
    /// files (`--data a.bin b.bin`, or the option repeated) are read as one set, in order.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Where to write the network (the checkpoint goes next to it, extension `.ckpt`).
    #[arg(long, default_value = "bastion.nnue")]
    out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam learning rate (falls 10× at 60% and 85% of the epochs).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the search score in the target (the rest is the game result).
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Every N-th line or record of each data file is held out for validation (ignored with
    /// `--validation`).
    #[arg(long, default_value_t = 50)]
    val_every: usize,
    /// Validation positions from these files instead of every N-th training line. Lines of one
    /// game are alike, so files of other games measure generalisation more honestly.
    #[arg(long, num_args = 1..)]
    validation: Vec<PathBuf>,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed for the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Continue from the checkpoint next to `--out` (at the epoch it records).
    #[arg(long, conflicts_with = "init")]
    resume: bool,
    /// In each epoch, show half the positions without castling rights mirrored left to right
    /// (a different half each epoch): a free second example of each, as chess without
    /// castling is symmetric that way.
    #[arg(long)]
    mirror_files: bool,
    /// Start from this network file instead of random weights (fine-tuning); `<internal>`
    /// is the built-in network.
    #[arg(long)]
    init: Option<PathBuf>,
    /// King buckets of the input layer: `none` (768 inputs per perspective), `kings4` (four
    /// blocks of inputs by the king's square) or `mirror4` (the same after mirroring files so
    /// the king is on a–d). With `--init` of a network without them, its weights become the
    /// factor every bucket starts from.
    /// Default: the `--init` network's or the checkpoint's, else `none`.
    #[arg(long, value_parser = parse_king_layout)]
    king_buckets: Option<KingLayout>,
    /// Learning rate of the king buckets' own input rows as a fraction of `--lr` (the shared
    /// factor and every other weight keep `--lr`); below 1 it keeps buckets from fitting noise.
    #[arg(long, default_value_t = 1.0)]
    bucket_lr: f32,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

fn parse_king_layout(name: &str) -> Result<KingLayout, String> {
    KingLayout::by_name(name).ok_or_else(|| format!("unknown king layout '{name}' (none, kings4, mirror4)"))
}

/// The data files for a message: the one path, or the first and how many more.
fn describe(paths: &[PathBuf]) -> String {
    match paths {
        [one] => one.display().to_string(),
        [first, rest @ ..] => format!("{} and {} more files", first.display(), rest.len()),
        [] => String::new(),
    }
}

/// Runs `bastion nnue train`.
pub(super) fn run(a: TrainArgs) -> Result<()> {
    if a.epochs == 0 || a.batch == 0 || a.threads == 0 {
        bail!("--epochs, --batch and --threads must be positive");
    }
    if !((0.0..=1.0).contains(&a.lambda) && a.lr > 0.0 && a.lr.is_finite()) {
        bail!("--lambda must be in 0..=1 and --lr a positive number");
    }
    if !(a.bucket_lr >= 0.0 && a.bucket_lr.is_finite()) {
        bail!("--bucket-lr must be a number from 0 up");
    }
    let val_every = if a.validation.is_empty() { a.val_every } else { 0 };
    let reading = std::time::Instant::now();
    let (data, mut val, mut bad) = dataset::load_all(&a.data, a.lambda, val_every)?;
    if !a.validation.is_empty() {
        // Every position of a validation file is held out (and `data` held none out).
        let (_, held_out, b) = dataset::load_all(&a.validation, a.lambda, 1)?;
        val = held_out;
        bad += b;
    }
    if data.is_empty() {
        bail!("no usable positions in {}", describe(&a.data));
    }
    let read_seconds = reading.elapsed().as_secs_f64();
    let run = RunFiles::next_to(&a.out);
    let (net, start) = if a.resume {
        let (net, e) = run.resume()?;
        if a.king_buckets.is_some_and(|k| k != net.king_layout()) {
            bail!("--king-buckets differs from the checkpoint's layout");
        }
        (net, e)
    } else if let Some(init) = &a.init {
        let net =
            Network::by_name(&init.to_string_lossy()).with_context(|| format!("reading network {}", init.display()))?;
        let mut net = FloatNetwork::from_network(&net);
        let revived = net.revive_dead_units(a.seed);
        if revived > 0 && !a.json {
            println!("{revived} unused hidden units (a narrower network's) start from random weights");
        }
        let net = match a.king_buckets {
            Some(kings) if net.king_layout() == KingLayout::NONE => net.with_king_layout(kings),
            Some(kings) if kings != net.king_layout() => {
                bail!("--king-buckets differs from the layout of {}", init.display())
            }
            _ => net,
        };
        (net, 0)
    } else {
        (FloatNetwork::random_with(a.seed, a.king_buckets.unwrap_or(KingLayout::NONE)), 0)
    };
    let cfg = TrainConfig {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        threads: a.threads,
        seed: a.seed,
        mirror_files: a.mirror_files,
        bucket_lr: a.bucket_lr,
    };
    let mut trainer = Trainer::new(net);
    // Fine-tuning is judged against where it started, so that loss is reported first.
    let start_loss = a.init.is_some().then(|| trainer.quantised_loss(&val));
    if !a.json {
        println!(
            "{} training and {} validation positions ({bad} bad lines skipped, read in {read_seconds:.1} s); \
             starting at epoch {}",
            data.len(),
            val.len(),
            start + 1
        );
        println!("hand-written evaluation's validation loss: {:.6}", val.reference_loss());
        if let Some(loss) = start_loss {
            println!("starting network's validation loss: {loss:.6}");
        }
    }
    let stop = interrupt_flag();
    let progress = bastion_progress::bar(!a.json, a.epochs as u64, "{bar:40} {pos}/{len} epochs {msg} eta {eta}");
    progress.set_position(start as u64);
    let mut history = Vec::new();
    for e in start..a.epochs {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let lr = Trainer::lr_at(&cfg, e);
        let epoch_start = std::time::Instant::now();
        let loss = trainer.epoch(&data, &cfg, lr, cfg.seed.wrapping_mul(0x9E37_79B9) ^ (e as u64 + 1));
        let seconds = epoch_start.elapsed().as_secs_f64();
        let vloss = trainer.loss(&val, a.threads);
        let qloss = trainer.quantised_loss(&val);
        run.save(&trainer.net, e + 1)?;
        if !a.json {
            progress.suspend(|| {
                println!(
                    "epoch {:3}  lr {lr:.6}  train {loss:.6}  validation {vloss:.6}  quantised {qloss:.6}  \
                     {seconds:.1} s ({:.0} positions/s)",
                    e + 1,
                    data.len() as f64 / seconds.max(1e-9)
                )
            });
        }
        progress.set_position(e as u64 + 1);
        history.push(serde_json::json!({"epoch": e + 1, "lr": lr, "train_loss": loss, "validation_loss": vloss,
            "quantised_validation_loss": qloss, "seconds": seconds}));
    }
    progress.finish();
    let interrupted = stop.load(Ordering::Relaxed);
    if a.json {
        println!(
            "{}",
            serde_json::json!({"positions": data.len(), "validation_positions": val.len(), "skipped_lines": bad,
                "read_seconds": read_seconds,
                "hand_written_validation_loss": val.reference_loss(), "starting_validation_loss": start_loss,
                "epochs": history, "interrupted": interrupted, "out": a.out.display().to_string()})
        );
    } else if interrupted {
        println!("interrupted; `--resume` continues from the last finished epoch ({})", a.out.display());
    } else {
        println!("network written to {}", a.out.display());
    }
    Ok(())
}
