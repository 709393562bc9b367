//! Bastion's local web app: an axum server that serves a self-contained page
//! (board, play, analysis, solver, tablebase, fortress and Progressive-chess
//! panels) and the JSON HTTP API it is built on, documented in
//! `docs/web-api.md` and at `GET /api`.
//!
//! Safety: loopback by default, a Host-header check against DNS rebinding,
//! a same-origin check on routes that start work, header and body read
//! timeouts, a cap on open connections, a body size limit, capped search
//! time/depth/threads, a semaphore bounding concurrent jobs (a job is
//! cancelled when its client goes away), JSON errors for bad input and a
//! catch-panic layer.

#![warn(missing_docs)]

pub mod assets;
pub mod cancel;
pub mod chess;
pub mod engine;
pub mod error;
pub mod events;
pub mod fortress;
pub mod host;
pub mod origin;
pub mod progressive;
pub mod server;
pub mod solver;
pub mod syzygy;
pub mod tablebase;

pub use server::{serve_on, NetLimits};

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use error::{ApiError, ApiResult};
use host::HostPolicy;
use serde::Serialize;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower_http::catch_panic::CatchPanicLayer;

/// Largest request body accepted (PGN texts are the big ones).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Limits on the work one request may ask for.
#[derive(Clone, Debug, Serialize)]
pub struct Caps {
    /// Longest engine think per request (ms).
    pub max_movetime_ms: u64,
    /// Longest live analysis (ms) before it stops by itself.
    pub max_analysis_ms: u64,
    /// Deepest engine search (plies).
    pub max_depth: i32,
    /// Largest node limit.
    pub max_nodes: u64,
    /// Most MultiPV lines.
    pub max_multipv: usize,
    /// Most search threads per job.
    pub max_threads: usize,
    /// Engine hash per job (MiB).
    pub hash_mb: usize,
    /// Longest mate the solver is asked for (moves).
    pub max_solve_moves: u8,
    /// Longest solver run (ms).
    pub max_solve_ms: u64,
    /// Jobs (searches, solves, ...) running at once.
    pub max_jobs: usize,
    /// How long a request waits for a free job slot before a 503 (ms).
    pub queue_wait_ms: u64,
    /// Deepest depth of the fortress detector (the shallowest is 2).
    pub max_fortress_depth: u32,
    /// Most best moves the fortress detector follows.
    pub max_fortress_moves: u32,
    /// Longest fortress detector run (ms).
    pub max_fortress_ms: u64,
    /// Longest Progressive computer turn or mate search (ms).
    pub max_progressive_ms: u64,
}

impl Caps {
    /// Every limit a form can hit, as `[least, most]`: what `/api/info` gives the page.
    pub fn ranges(&self) -> serde_json::Value {
        serde_json::json!({
            "threads": [1, self.max_threads],
            "multipv": [1, self.max_multipv],
            "movetime_ms": [1, self.max_movetime_ms],
            "analysis_ms": [1, self.max_analysis_ms],
            "depth": [1, self.max_depth],
            "nodes": [1, self.max_nodes],
            "solve_moves": [1, self.max_solve_moves],
            "solve_ms": [1, self.max_solve_ms],
            "fortress_depth": [fortress::MIN_DEPTH, self.max_fortress_depth],
            "fortress_moves": [1, self.max_fortress_moves],
            "fortress_search_ms": [fortress::MIN_SEARCH_MS, self.max_fortress_ms],
            "progressive_ms": [1, self.max_progressive_ms],
        })
    }
}

impl Default for Caps {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        Caps {
            max_movetime_ms: 60_000,
            max_analysis_ms: 10 * 60_000,
            max_depth: 64,
            max_nodes: 500_000_000,
            max_multipv: 8,
            max_threads: cores,
            hash_mb: 32,
            max_solve_moves: 12,
            max_solve_ms: 120_000,
            max_jobs: cores.clamp(1, 4),
            queue_wait_ms: 3_000,
            max_fortress_depth: 30,
            max_fortress_moves: 8,
            max_fortress_ms: 300_000,
            max_progressive_ms: 30_000,
        }
    }
}

/// Server configuration.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Directory holding Bastion's DTM tablebase files.
    pub tb_dir: Option<PathBuf>,
    /// Directory holding Syzygy WDL/DTZ files. With `tb_dir`, the only files the server reads.
    pub syzygy_dir: Option<PathBuf>,
    /// Work limits.
    pub caps: Caps,
    /// Command line (program and arguments) of the UCI engine the fortress detector drives.
    pub uci_engine: Option<Vec<String>>,
    /// When the server has no table directory, endings of at most this many men (and one
    /// pawn) that the fortress detector reaches get their table generated in memory
    /// (`bastion_tablebase::OnDemand`, at most 4); 0, the default here, never.
    pub small_tables: u32,
    /// Extra host names (or addresses) accepted in the Host header, besides
    /// loopback addresses, `localhost` and the address the server is bound to.
    pub allowed_hosts: Vec<String>,
    /// Connection limits and timeouts.
    pub net: NetLimits,
}

/// State shared by the handlers.
#[derive(Clone)]
pub struct AppState {
    /// Work limits.
    pub caps: Arc<Caps>,
    /// The configuration.
    pub config: Arc<Config>,
    jobs: Arc<Semaphore>,
    hosts: Arc<HostPolicy>,
    /// The tables opened from `--tb-dir`, if any.
    pub tablebases: Option<Arc<tablebase::Tables>>,
    /// The Syzygy tables opened from `--syzygy-dir`, if any.
    pub syzygy: Option<Arc<syzygy::SyzygyTables>>,
    /// Small endings (`Config::small_tables`) generated in memory when the
    /// fortress detector reaches one and no table directory was given; kept
    /// for the server's lifetime.
    pub small_tables: Option<Arc<bastion_tablebase::OnDemand>>,
}

impl AppState {
    /// State for `config` (opens the tablebase directories given).
    pub fn new(config: Config) -> anyhow::Result<AppState> {
        let tablebases = tablebase::open(config.tb_dir.as_deref())?.map(Arc::new);
        let syzygy = syzygy::open(config.syzygy_dir.as_deref())?.map(Arc::new);
        anyhow::ensure!(
            config.small_tables <= bastion_tablebase::on_demand::MAX_MEN,
            "small tables have at most {} men",
            bastion_tablebase::on_demand::MAX_MEN
        );
        let small_tables = (config.small_tables >= 3).then_some(config.small_tables);
        Ok(AppState {
            caps: Arc::new(config.caps.clone()),
            jobs: Arc::new(Semaphore::new(config.caps.max_jobs.max(1))),
            hosts: Arc::new(HostPolicy::new(&config.allowed_hosts)?),
            config: Arc::new(config),
            tablebases,
            syzygy,
            small_tables: small_tables.map(|n| Arc::new(bastion_tablebase::OnDemand::new(n))),
        })
    }

    /// Waits (briefly) for a job slot; a busy server answers 503 instead of queueing forever.
    pub async fn job_permit(&self) -> ApiResult<OwnedSemaphorePermit> {
        let wait = Duration::from_millis(self.caps.queue_wait_ms);
        match tokio::time::timeout(wait, self.jobs.clone().acquire_owned()).await {
            Ok(Ok(p)) => Ok(p),
            _ => Err(ApiError::unavailable(format!(
                "server busy: {} jobs already running; stop one (e.g. close an analysis) and retry",
                self.caps.max_jobs
            ))),
        }
    }

    /// Which optional components this server can use.
    pub fn features(&self) -> serde_json::Value {
        serde_json::json!({
            "engine": true,
            "solver": true,
            "progressive": true,
            // The probe answers from either kind of table.
            "tablebase": self.tablebases.is_some() || self.syzygy.is_some(),
            "tablebase_endings": self.tablebases.as_ref().map(|t| t.usable_endings()),
            "tablebase_corrupt": self.tablebases.as_ref().map(|t| t.corrupt_json()),
            "syzygy": self.syzygy.is_some(),
            "syzygy_endings": self.syzygy.as_ref().map(|s| s.endings()),
            "fortress": self.config.uci_engine.is_some(),
        })
    }
}

async fn info(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "name": "bastion-web",
        "version": env!("CARGO_PKG_VERSION"),
        "features": state.features(),
        "caps": &*state.caps,
        "limits": state.caps.ranges(),
        "jobs": { "max": state.caps.max_jobs, "free": state.jobs.available_permits() },
    }))
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("no such API endpoint; see GET /api for the list")
}

/// Paths answered to GET; every other route is POST only.
const GET_ROUTES: &[&str] = &["/", "/app.js", "/app.css", "/favicon.svg", "/api", "/api/", "/api/info", "/api/analyse"];

/// Gives a 405 (wrong method on a known route) the JSON error body every other
/// error has, and the `Allow` header naming the method to use.
async fn json_method_error(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path();
    let allow = if GET_ROUTES.contains(&path) || path.starts_with("/assets/") { "GET, HEAD" } else { "POST" };
    let resp = next.run(req).await;
    if resp.status() != StatusCode::METHOD_NOT_ALLOWED {
        return resp;
    }
    let mut out = ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: format!("method {method} not allowed on this route; use {allow} (see GET /api)"),
    }
    .into_response();
    out.headers_mut().insert(header::ALLOW, HeaderValue::from_static(allow));
    out
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::internal("internal error while handling this request (the server is still running)").into_response()
}

/// The whole application: page, assets and API.
pub fn router(state: AppState) -> Router {
    let hosts = state.hosts.clone();
    // Routes that start work answer only this server's own page (and non-browser clients).
    let jobs = Router::new()
        .route("/engine/bestmove", post(engine::bestmove))
        .route("/analyse", get(engine::analyse))
        .route("/solve", post(solver::solve))
        .route("/fortress", post(fortress::fortress))
        .route("/progressive/computer", post(progressive::computer))
        .route("/progressive/mate", post(progressive::mate))
        .route("/tb/probe", post(tablebase::probe))
        .route_layer(middleware::from_fn(origin::same_origin_only));
    let api = Router::new()
        .route("/", get(assets::api_docs))
        .route("/info", get(info))
        .route("/legal", post(chess::legal))
        .route("/move", post(chess::play_move))
        .route("/game", post(chess::game))
        .route("/pgn/import", post(chess::pgn_import))
        .route("/pgn/export", post(chess::pgn_export))
        .route("/progressive/game", post(progressive::game))
        .route("/progressive/record", post(progressive::record))
        .merge(jobs)
        .fallback(api_not_found);
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::app_js))
        .route("/assets/{name}", get(assets::module))
        .route("/app.css", get(assets::app_css))
        .route("/favicon.svg", get(assets::favicon))
        .nest("/api", api)
        .with_state(state)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn(json_method_error))
        .layer(middleware::from_fn_with_state(hosts, host::check_host))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(tower_http::set_header::SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
}

/// Binds `addr` and serves until Ctrl-C. Prints the address to open.
pub async fn serve(addr: SocketAddr, config: Config) -> anyhow::Result<()> {
    let mut config = config;
    // The address the user chose to bind is a name of this server; other names
    // (a LAN name, 0.0.0.0's other addresses) are admitted with --allow-host only.
    if !addr.ip().is_unspecified() {
        config.allowed_hosts.push(addr.ip().to_string());
    }
    let state = AppState::new(config)?;
    let listener =
        tokio::net::TcpListener::bind(addr).await.map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr()?;
    let shown = if local.ip().is_unspecified() { format!("127.0.0.1:{}", local.port()) } else { local.to_string() };
    println!("Bastion web app: http://{shown}/  (API docs: http://{shown}/api)  Ctrl-C stops it");
    if !local.ip().is_loopback() {
        eprintln!(
            "warning: listening on {local}, which is reachable from other machines; \
             name each host name they use with --allow-host"
        );
    }
    serve_on(listener, state, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await?;
    Ok(())
}

/// [`serve`] on a Tokio runtime of its own, for callers without one (the CLI).
pub fn serve_blocking(addr: SocketAddr, config: Config) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    rt.block_on(serve(addr, config))
}
