//! `bastion tb syzygy`: Syzygy WDL/DTZ of a position and of each of its moves, and
//! `--verify` of Syzygy files against their published checksums.

use anyhow::{bail, Context, Result};
use bastion_core::Position;
use bastion_tablebase::syzygy::report::SyzygyReport;
use bastion_tablebase::syzygy::verify::verify_directory as syzygy_verify_dir;
use bastion_tablebase::SyzygyProber;
use clap::Args;
use std::path::{Path, PathBuf};

/// Arguments of `bastion tb syzygy`.
#[derive(Args, Debug)]
pub(super) struct SyzygyArgs {
    /// Position in FEN.
    #[arg(required_unless_present = "verify")]
    fen: Option<String>,
    /// Directory with Syzygy `.rtbw`/`.rtbz` files.
    #[arg(long)]
    path: PathBuf,
    /// Check every table file in --path (contents against its checksum, checksum against
    /// the published one) instead of probing.
    #[arg(long, conflicts_with = "fen")]
    verify: bool,
    /// Print one JSON document instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `bastion tb syzygy`.
pub(super) fn run(a: SyzygyArgs) -> Result<()> {
    if a.verify {
        return syzygy_verify(&a.path, a.json);
    }
    let fen = a.fen.as_deref().unwrap_or_default();
    let pos = Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))?;
    let (p, files) = SyzygyProber::open(&a.path)?;
    if files == 0 {
        bail!("no Syzygy files (*.rtbw, *.rtbz) in {}", a.path.display());
    }
    let report = SyzygyReport::probe(&p, &pos)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}

fn syzygy_verify(dir: &Path, json: bool) -> Result<()> {
    let checks = syzygy_verify_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    if checks.is_empty() {
        bail!("no Syzygy files (*.rtbw, *.rtbz) in {}", dir.display());
    }
    let bad = checks.iter().filter(|c| c.status.is_bad()).count();
    if json {
        println!("{}", serde_json::to_string_pretty(&checks)?);
    } else {
        checks.iter().for_each(|c| println!("{}", c.to_line()));
        println!(
            "{}, {bad} bad (contents hashed, stored checksums compared with the published ones)",
            crate::plural::count(checks.len() as u64, "file", "files")
        );
    }
    if bad > 0 {
        bail!("{bad} Syzygy file(s) in {} failed the check", dir.display());
    }
    Ok(())
}
