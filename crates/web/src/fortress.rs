//! Fortress endpoint: the Guid & Bratko detector over a UCI engine process
//! (Bastion's own engine), with its evaluation-by-depth curves and verdict.

use crate::chess::parse_fen;
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::AppState;
use axum::extract::State;
use axum::Json;
use bastion_fortress::{analyse, render_svg, Config, Eval};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;

/// Longest total run of one request (ms); per-search limits are derived from it.
const MAX_TOTAL_MS: u64 = 300_000;

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
    let max_depth = req.max_depth.unwrap_or(12);
    if !(2..=30).contains(&max_depth) {
        return Err(ApiError::bad_request("max_depth must be 2..=30"));
    }
    let k = req.moves.unwrap_or(3);
    if !(1..=8).contains(&k) {
        return Err(ApiError::bad_request("moves (K best moves followed) must be 1..=8"));
    }
    // Every search is bounded; with the breakthrough search there is one per legal move.
    let searches = if req.breakthrough { 1 + pos.legal_moves().len() as u64 + 4 } else { 1 };
    let limit = req.search_limit_ms.unwrap_or(20_000).clamp(100, MAX_TOTAL_MS / searches);
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
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let (program, args) = cmd.split_first().ok_or_else(|| ApiError::unavailable("no engine command"))?;
        let mut engine = bastion_uci_client::Engine::spawn(program, args)
            .map_err(|e| ApiError::unavailable(format!("cannot start the engine for the fortress detector: {e}")))?;
        let result = analyse(&fen, &config, &mut engine);
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
