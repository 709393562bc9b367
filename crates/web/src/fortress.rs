//! Fortress endpoint: the Guid & Bratko detector over a UCI engine process
//! (Bastion's own engine), with its evaluation-by-depth curves and verdict.

use crate::cancel::OnDrop;
use crate::chess::parse_fen;
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::AppState;
use axum::extract::State;
use axum::Json;
use bastion_fortress::{analyse, render_svg, Config, Eval, ProbeConfig};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Shallowest `max_depth` a request may ask for.
pub const MIN_DEPTH: u32 = 2;
/// Shortest limit of one engine search (ms).
pub const MIN_SEARCH_MS: u64 = 100;

/// The engine process of a running detector, so that a client going away can end it.
///
/// The fortress crate has no stop hook, so the job is stopped by killing its
/// engine: the detector's next read fails and it returns at once. The process
/// id is only used while the `Engine` handle that owns the (unreaped) child is
/// alive, so it cannot name another process.
#[derive(Default)]
struct Running {
    cancelled: bool,
    pid: Option<u32>,
}

fn kill(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(pid) {
        // SAFETY: kill(2) takes plain integers; the child is not reaped yet (see `Running`).
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid; // Elsewhere the job ends at its own time limit.
}

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

/// `POST /api/fortress {fen, max_depth, moves, breakthrough, search_limit_ms}`.
pub async fn fortress(State(state): State<AppState>, ApiJson(req): ApiJson<FortressReq>) -> ApiResult<Json<Value>> {
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
    let fen = pos.fen();
    let permit = state.job_permit().await?;
    let running = Arc::new(Mutex::new(Running::default()));
    let watched = running.clone();
    // A client that goes away ends the job: axum drops this future, and the guard with it.
    let _stop = OnDrop::new(move || {
        let mut r = watched.lock().unwrap_or_else(|e| e.into_inner());
        r.cancelled = true;
        if let Some(pid) = r.pid {
            kill(pid);
        }
    });
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let (program, args) = cmd.split_first().ok_or_else(|| ApiError::unavailable("no engine command"))?;
        let mut engine = bastion_uci_client::Engine::spawn(program, args)
            .map_err(|e| ApiError::unavailable(format!("cannot start the engine for the fortress detector: {e}")))?;
        {
            let mut r = running.lock().unwrap_or_else(|e| e.into_inner());
            if r.cancelled {
                return Err(ApiError::unavailable("cancelled: the client went away"));
            }
            r.pid = Some(engine.pid());
        }
        let result = analyse(&fen, &config, &mut engine);
        // Forget the process before it can be reaped, so the guard never signals a reused id.
        running.lock().unwrap_or_else(|e| e.into_inner()).pid = None;
        let _ = engine.quit(Duration::from_secs(2));
        let a = result.map_err(|e| ApiError::bad_request(format!("fortress analysis failed: {e}")))?;
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
        Ok::<Value, ApiError>(json!({
            "verdict": a.verdict.to_string(),
            "explanation": a.evidence.reason,
            "final_eval": a.evidence.final_eval,
            "verdict_depth": a.verdict_depth,
            "curves": curves,
            "svg": render_svg(&a),
            "analysis": a,
        }))
    })
    .await
    .map_err(|e| ApiError::internal(format!("fortress job failed: {e}")))??;
    Ok(Json(out))
}
