//! `bastion serve`: the local web app (board, play, analysis, solver, tablebase,
//! fortress and Progressive chess) and its JSON API.

use anyhow::Context;
use clap::Args;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

/// Arguments of `bastion serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// TCP port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; the default is reachable from this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Directory holding Bastion DTM tablebase files (`*.btb`, made by `bastion tb`).
    #[arg(long, value_name = "DIR")]
    pub tb_dir: Option<PathBuf>,
    /// Directory holding Syzygy WDL/DTZ files (`*.rtbw`, `*.rtbz`); the tablebase panel
    /// shows their WDL and DTZ beside the DTM (with --tb-dir, the only files the server reads).
    #[arg(long, value_name = "DIR")]
    pub syzygy_dir: Option<PathBuf>,
    /// Without --tb-dir and --syzygy-dir, endings of at most MEN men and one pawn that the
    /// fortress detector reaches get their DTM table generated in memory (seconds each, kept
    /// while the server runs), as `bastion fortress` does; 0 turns it off.
    #[arg(long, value_name = "MEN", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=4))]
    pub small_tables: u32,
    /// Jobs (searches, solves) that may run at once.
    #[arg(long)]
    pub max_jobs: Option<usize>,
    /// A host name (or IP address) the server answers to besides loopback and
    /// `localhost`, e.g. its LAN name when bound with `--host 0.0.0.0`; repeatable.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
}

/// Runs the server until Ctrl-C.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let ip: IpAddr = match args.host.as_str() {
        "localhost" => IpAddr::from([127, 0, 0, 1]),
        h => h.parse().with_context(|| format!("--host {h:?} is not an IP address"))?,
    };
    // The fortress detector drives a UCI engine process: this very binary, as `bastion uci`.
    let exe = std::env::current_exe().context("cannot locate the bastion binary for the fortress engine")?;
    let uci_engine = Some(vec![exe.to_string_lossy().into_owned(), "uci".to_string()]);
    let mut config = bastion_web::Config {
        tb_dir: args.tb_dir,
        syzygy_dir: args.syzygy_dir,
        uci_engine,
        allowed_hosts: args.allow_host,
        small_tables: args.small_tables,
        ..Default::default()
    };
    if let Some(n) = args.max_jobs {
        anyhow::ensure!((1..=64).contains(&n), "--max-jobs must be 1..=64");
        config.caps.max_jobs = n;
    }
    bastion_web::serve_blocking(SocketAddr::new(ip, args.port), config)
}
