//! Fortress endpoint: the Guid & Bratko detector over a UCI engine process
//! (Bastion's own engine), with its evaluation-by-depth curves and verdict; for the page, its
//! stages stream as server-sent events while it runs.

use crate::cancel::OnDrop;
use crate::chess::parse_fen;
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::events;
use crate::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bastion_core::tablebase::TablebaseProbe;
use bastion_core::Position;
use bastion_fortress::{analyse_with, render_svg, Config, Eval, FortressError, Hooks, ProbeConfig, Stage};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Shallowest `max_depth` a request may ask for.
pub const MIN_DEPTH: u32 = 2;
/// Shortest limit of one engine search (ms).
pub const MIN_SEARCH_MS: u64 = 100;

/// Body of `/api/fortress`.
#[derive(Deserialize)]
pub struct FortressReq {
    fen: String,
    /// Deepest depth searched (2..=30, default 12).
    max_depth: Option<u32>,
    /// K: how many best moves are followed (1..=8, default 3).
    moves: Option<u32>,
    /// When a fortress is seen, search every legal move for a breakthrough (slower).
    #[serde(default)]
    breakthrough: bool,
    /// Wall-clock limit for one engine search (ms, default 20000).
    search_limit_ms: Option<u64>,
}

fn cp_of(e: Eval) -> f64 {
    // Mates sit near ±MATE_PAWNS; clamp so one mate does not flatten the plot.
    (e.pawns() * 100.0).clamp(-3000.0, 3000.0)
}

/// A checked request: the position, the detector's settings and the engine to run.
struct Job {
    fen: String,
    config: Config,
    cmd: Vec<String>,
}

fn check(state: &AppState, req: FortressReq) -> ApiResult<Job> {
    let pos = parse_fen(&req.fen)?;
    if !pos.has_legal_moves() {
        return Err(ApiError::bad_request("the position has no legal moves"));
    }
    let Some(cmd) = state.config.uci_engine.clone().filter(|c| !c.is_empty()) else {
        return Err(ApiError::unavailable("the fortress detector needs a UCI engine; none is configured"));
    };
    let caps = &state.caps;
    let max_depth = req.max_depth.unwrap_or(12);
    if !(MIN_DEPTH..=caps.max_fortress_depth).contains(&max_depth) {
        return Err(ApiError::bad_request(format!(
            "max_depth must be {MIN_DEPTH}..={} (this server's limit)",
            caps.max_fortress_depth
        )));
    }
    let k = req.moves.unwrap_or(3);
    if !(1..=caps.max_fortress_moves).contains(&k) {
        return Err(ApiError::bad_request(format!(
            "moves (K best moves followed) must be 1..={} (this server's limit)",
            caps.max_fortress_moves
        )));
    }
    // Every search is bounded; with the breakthrough search there is one per legal move, and
    // the progress test runs its own for the position and for each line followed.
    let probe_searches = (k as u64 + 1) * ProbeConfig::default().max_searches();
    let searches = probe_searches + if req.breakthrough { 1 + pos.legal_moves().len() as u64 + 4 } else { 1 };
    let limit = req
        .search_limit_ms
        .unwrap_or(20_000)
        .clamp(MIN_SEARCH_MS, (caps.max_fortress_ms / searches).max(MIN_SEARCH_MS));
    let config = Config {
        min_depth: 2.min(max_depth),
        max_depth,
        multipv: k,
        breakthrough: req.breakthrough,
        search_limit_ms: limit,
        ..Config::default()
    };
    Ok(Job { fen: pos.fen(), config, cmd })
}

/// What the detector is doing, as the event stream sends it (`time_ms` since the job started);
/// `pos` is the analysed position, in which a line's first move is written in SAN.
fn stage_json(stage: &Stage, started: Instant, pos: &Position) -> Value {
    let mut v = match stage {
        Stage::Main { depth } => json!({ "stage": "main", "depth": depth }),
        Stage::Line { depth, multipv, uci, eval } => {
            let san = pos.parse_uci(uci).map(|m| pos.san(m)).unwrap_or_else(|_| uci.clone());
            json!({ "stage": "line", "depth": depth, "multipv": multipv, "uci": uci, "san": san,
                    "cp": cp_of(*eval), "eval": eval.display() })
        }
        Stage::Probe { stage, moves_left } => json!({ "stage": "probe", "step": stage, "moves_left": moves_left }),
        Stage::Breakthrough { index, total } => json!({ "stage": "breakthrough", "index": index, "total": total }),
        Stage::Replies { san } => json!({ "stage": "replies", "san": san }),
        Stage::Avoid { index, total } => json!({ "stage": "avoid", "index": index, "total": total }),
    };
    v["time_ms"] = json!(started.elapsed().as_millis() as u64);
    v
}

/// Runs the detector on the calling (blocking) thread until it ends or `stop` is set;
/// `progress` hears each stage. The server's tables, when it has them, are the detector's
/// tablebase evidence (Syzygy first: it covers the most endings); without them, small
/// endings are generated on demand when the server was started so (`bastion serve`'s
/// default, as `bastion fortress` does).
fn run(state: &AppState, job: Job, stop: &AtomicBool, progress: &mut dyn FnMut(Stage)) -> ApiResult<Value> {
    let (program, args) = job.cmd.split_first().ok_or_else(|| ApiError::unavailable("no engine command"))?;
    let mut engine = bastion_uci_client::Engine::spawn(program, args)
        .map_err(|e| ApiError::unavailable(format!("cannot start the engine for the fortress detector: {e}")))?;
    let tablebase: Option<&dyn TablebaseProbe> = match (&state.syzygy, &state.tablebases) {
        (Some(s), _) => Some(s.prober()),
        (None, Some(t)) => Some(&t.tables),
        (None, None) => state.small_tables.as_deref().map(|t| t as &dyn TablebaseProbe),
    };
    let hooks = Hooks { tablebase, stop: Some(stop) };
    let result = analyse_with(&job.fen, &job.config, &mut engine, hooks, progress);
    let _ = engine.quit(Duration::from_secs(2));
    let a = result.map_err(|e| match e {
        FortressError::Stopped => ApiError::unavailable("cancelled: the client went away"),
        e => ApiError::bad_request(format!("fortress analysis failed: {e}")),
    })?;
    let curves: Vec<Value> = a
        .curves
        .iter()
        .map(|c| {
            json!({
                "label": c.san,
                "uci": c.uci,
                "points": c.evals_by_depth.iter().map(|p| json!([p.depth, cp_of(p.eval)])).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(json!({
        "verdict": a.verdict.to_string(),
        "explanation": a.evidence.reason,
        "final_eval": a.evidence.final_eval,
        "verdict_depth": a.verdict_depth,
        "curves": curves,
        "svg": render_svg(&a),
        "analysis": a,
    }))
}

/// `POST /api/fortress {fen, max_depth, moves, breakthrough, search_limit_ms}`.
///
/// With `Accept: text/event-stream` the answer is a stream of server-sent events: `start`, one
/// `progress` per stage of the detector (`{stage: "main", depth}` as the main search reaches
/// each depth, then the progress test's and the breakthrough search's steps), then `done` with
/// the answer (or `error`). Closing the connection ends the job either way.
pub async fn fortress(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<FortressReq>,
) -> ApiResult<Response> {
    let job = check(&state, req)?;
    let permit = state.job_permit().await?;
    // A client that goes away stops the detector: it sends `stop` to the engine at the
    // engine's next report and starts no further search.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let cancel = move || flag.store(true, Ordering::SeqCst);
    if events::wanted(&headers) {
        let (events, response) = events::open(cancel);
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let started = Instant::now();
            let start = json!({ "fen": job.fen, "max_depth": job.config.max_depth, "moves": job.config.multipv });
            events.send("start", &start);
            let tx = events.clone();
            let pos = Position::from_fen(&job.fen).unwrap_or_else(|_| Position::startpos());
            let mut progress = move |stage: Stage| {
                tx.send("progress", &stage_json(&stage, started, &pos));
            };
            match run(&state, job, &stop, &mut progress) {
                Ok(v) => events.send("done", &v),
                Err(e) => events.error(&e),
            };
        });
        return Ok(response);
    }
    // axum drops this future when the client goes away, and the guard with it.
    let _stop = OnDrop::new(cancel);
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        run(&state, job, &stop, &mut |_| {})
    })
    .await
    .map_err(|e| ApiError::internal(format!("fortress job failed: {e}")))??;
    Ok(Json(out).into_response())
}
