//! Mate-solver endpoint: every key of a #N (and h#, s#, ser-# problems), as one JSON
//! answer or, for the page, as a stream of the solver's iterations and then the answer.

use crate::cancel::OnDrop;
use crate::chess::parse_fen;
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::events;
use crate::AppState;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bastion_solver::{Iteration, SolveOptions, Solver, Stipulation};
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

/// A checked request: what to solve and for how long.
struct Job {
    pos: bastion_core::Position,
    stip: Stipulation,
    opts: SolveOptions,
    timeout_ms: u64,
}

fn check(state: &AppState, req: SolveReq) -> ApiResult<Job> {
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
    let timeout_ms = match req.timeout_ms {
        Some(ms) if ms == 0 || ms > max_ms => {
            return Err(ApiError::bad_request(format!("timeout_ms must be 1..={max_ms} (this server's limit)")))
        }
        Some(ms) => ms,
        None => max_ms,
    };
    let opts = SolveOptions { all_defences: req.all_defences, threats: req.threats };
    Ok(Job { pos, stip, opts, timeout_ms })
}

/// Runs the solver on the calling (blocking) thread; `progress` hears each finished iteration.
fn run(job: &Job, stop: &AtomicBool, started: Instant, progress: impl FnMut(&Iteration) + Send) -> ApiResult<Value> {
    let mut solver = Solver::new(64);
    solver.set_stop(stop);
    solver.set_deadline(Some(started + Duration::from_millis(job.timeout_ms)));
    solver.set_progress(progress);
    match solver.solve(&job.pos, job.stip, &job.opts) {
        Ok(r) => {
            let mut v = serde_json::to_value(&r).unwrap_or(Value::Null);
            v["elapsed_ms"] = json!(started.elapsed().as_millis() as u64);
            Ok(v)
        }
        Err(_) => Err(ApiError::unavailable(format!(
            "the solver stopped after {} ms without a complete answer; try fewer moves or a longer timeout",
            job.timeout_ms
        ))),
    }
}

/// One finished iteration as the event stream sends it.
fn iteration_json(i: &Iteration, started: Instant) -> Value {
    json!({ "moves": i.moves, "found": i.found, "nodes": i.nodes, "time_ms": started.elapsed().as_millis() as u64 })
}

/// `POST /api/solve {fen, mate | stipulation, all_defences, threats, timeout_ms}`.
///
/// With `Accept: text/event-stream` the answer is a stream of server-sent events: `start`,
/// one `iteration` per finished solution length (`{moves, found, nodes, time_ms}`), then `done`
/// with the report (or `error`). Closing the connection stops the solver either way.
pub async fn solve(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(req): ApiJson<SolveReq>,
) -> ApiResult<Response> {
    let job = check(&state, req)?;
    let permit = state.job_permit().await?;
    let started = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    if events::wanted(&headers) {
        let flag = stop.clone();
        let (events, response) = events::open(move || flag.store(true, Ordering::SeqCst));
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let start =
                json!({ "stipulation": job.stip.to_string(), "fen": job.pos.fen(), "timeout_ms": job.timeout_ms });
            events.send("start", &start);
            let (tx, flag) = (events.clone(), stop.clone());
            let hook = move |i: &Iteration| {
                if !tx.send("iteration", &iteration_json(i, started)) {
                    flag.store(true, Ordering::SeqCst);
                }
            };
            match run(&job, &stop, started, hook) {
                Ok(v) => events.send("done", &v),
                Err(e) => events.error(&e),
            };
        });
        return Ok(response);
    }
    // A client that goes away stops the solver: axum drops this future, and the guard with it.
    let flag = stop.clone();
    let _stop = OnDrop::new(move || flag.store(true, Ordering::SeqCst));
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        run(&job, &stop, started, |_| {})
    })
    .await
    .map_err(|e| ApiError::internal(format!("solver job failed: {e}")))?;
    Ok(Json(out?).into_response())
}
