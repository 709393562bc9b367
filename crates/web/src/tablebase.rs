//! Tablebase endpoint: the DTM value of a position, of each legal move, and an
//! optimal line, from the DTM tables in `--tb-dir` (the only files read).

use crate::chess::{parse_fen, san_of_line};
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::AppState;
use axum::extract::State;
use axum::Json;
use bastion_tablebase::{Material, Tablebases};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;

/// Longest optimal line returned (plies).
const MAX_LINE: usize = 300;

/// Opens the tables of `dir` (lazily: files are read when first probed).
pub fn open(dir: Option<&Path>) -> anyhow::Result<Option<Tablebases>> {
    let Some(d) = dir else { return Ok(None) };
    if !d.is_dir() {
        anyhow::bail!("tablebase directory {} does not exist", d.display());
    }
    Ok(Some(Tablebases::open(&[d]).map_err(|e| anyhow::anyhow!("cannot open tablebases in {}: {e}", d.display()))?))
}

/// Body of `/api/tb/probe`.
#[derive(Deserialize)]
pub struct ProbeReq {
    fen: String,
}

/// `POST /api/tb/probe {fen}`: value, per-move values (best first) and an optimal line.
pub async fn probe(State(state): State<AppState>, ApiJson(req): ApiJson<ProbeReq>) -> ApiResult<Json<Value>> {
    let pos = parse_fen(&req.fen)?;
    let Some(tb) = state.tablebases.clone() else {
        return Err(ApiError::unavailable("no tablebases: start the server with --tb-dir DIR"));
    };
    let ending = Material::of(&pos).name();
    if !pos.castling().is_empty() {
        return Err(ApiError::bad_request("the tables do not cover positions with castling rights"));
    }
    let permit = state.job_permit().await?;
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let value =
            tb.try_probe_dtm(&pos).map_err(|e| ApiError::internal(format!("tablebase error: {e}")))?.ok_or_else(
                || ApiError::not_found(format!("no table for {ending} (nor its mirror) in the tablebase directory")),
            )?;
        let moves = tb
            .try_move_values(&pos)
            .map_err(|e| ApiError::internal(format!("tablebase error: {e}")))?
            .unwrap_or_default();
        let line = tb.try_line(&pos, MAX_LINE).map_err(|e| ApiError::internal(format!("tablebase error: {e}")))?;
        let moves: Vec<Value> = moves
            .iter()
            .map(|mv| {
                json!({
                    "uci": pos.to_uci(mv.mv), "san": pos.san(mv.mv),
                    "wdl": mv.value.wdl().name(), "dtm": mv.value.plies(),
                    "mate_in": mv.value.moves(), "value_text": mv.value.to_string(),
                })
            })
            .collect();
        Ok::<Value, ApiError>(json!({
            "fen": pos.fen(),
            "ending": ending,
            "wdl": value.wdl().name(),
            "dtm": value.plies(),
            "mate_in": value.moves(),
            "value_text": value.to_string(),
            "moves": moves,
            "line": line.iter().map(|&m| pos.to_uci(m)).collect::<Vec<_>>(),
            "line_san": san_of_line(&pos, &line),
        }))
    })
    .await
    .map_err(|e| ApiError::internal(format!("tablebase job failed: {e}")))??;
    Ok(Json(out))
}
