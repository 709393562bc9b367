//! Mate-solver endpoint: every key of a #N (and h#, s#, ser-# problems).

use crate::cancel::OnDrop;
use crate::chess::parse_fen;
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::AppState;
use axum::extract::State;
use axum::Json;
use bastion_solver::{SolveOptions, Solver, Stipulation};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Body of `/api/solve`.
#[derive(Deserialize)]
pub struct SolveReq {
    fen: String,
    /// Direct mate in this many moves (shorthand for `stipulation: "#N"`).
    mate: Option<u8>,
    /// Any stipulation the solver reads: `#3`, `h#2`, `s#2`, `ser-#5`.
    stipulation: Option<String>,
    /// Build the whole solution tree.
    #[serde(default)]
    all_defences: bool,
    /// Show threats after quiet keys.
    #[serde(default)]
    threats: bool,
    /// Give up after this many milliseconds (capped).
    timeout_ms: Option<u64>,
}

/// `POST /api/solve {fen, mate | stipulation, all_defences, threats, timeout_ms}`.
pub async fn solve(State(state): State<AppState>, ApiJson(req): ApiJson<SolveReq>) -> ApiResult<Json<Value>> {
    let pos = parse_fen(&req.fen)?;
    let stip: Stipulation = match (&req.stipulation, req.mate) {
        (Some(s), _) if !s.trim().is_empty() => s
            .trim()
            .parse()
            .map_err(|e: bastion_solver::stipulation::StipulationError| ApiError::bad_request(e.to_string()))?,
        (_, Some(n)) => Stipulation::Direct(n),
        _ => return Err(ApiError::bad_request("give `mate` (moves) or `stipulation` (e.g. \"#3\")")),
    };
    let n = stip.moves();
    if n == 0 || n > state.caps.max_solve_moves {
        return Err(ApiError::bad_request(format!("mate must be 1..={} moves", state.caps.max_solve_moves)));
    }
    let max_ms = state.caps.max_solve_ms;
    let timeout = match req.timeout_ms {
        Some(ms) if ms == 0 || ms > max_ms => {
            return Err(ApiError::bad_request(format!("timeout_ms must be 1..={max_ms} (this server's limit)")))
        }
        Some(ms) => ms,
        None => max_ms,
    };
    let opts = SolveOptions { all_defences: req.all_defences, threats: req.threats };
    let permit = state.job_permit().await?;
    let started = Instant::now();
    // A client that goes away stops the solver: axum drops this future, and the guard with it.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _stop = OnDrop::new(move || flag.store(true, Ordering::SeqCst));
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut solver = Solver::new(64);
        solver.set_stop(&stop);
        solver.set_deadline(Some(Instant::now() + Duration::from_millis(timeout)));
        solver.solve(&pos, stip, &opts).map(|r| serde_json::to_value(&r).unwrap_or(Value::Null))
    })
    .await
    .map_err(|e| ApiError::internal(format!("solver job failed: {e}")))?;
    match out {
        Ok(mut v) => {
            v["elapsed_ms"] = json!(started.elapsed().as_millis() as u64);
            Ok(Json(v))
        }
        Err(_) => Err(ApiError::unavailable(format!(
            "the solver stopped after {timeout} ms without a complete answer; try fewer moves or a longer timeout"
        ))),
    }
}
