//! Tablebase endpoint: the DTM value of a position, of each legal move, and an
//! optimal line, from the DTM tables in `--tb-dir` (the only files read).
//! Every table is checked (checksums) when the server starts; a corrupt one is
//! reported, left out of `/api/info`'s endings and never probed.

use crate::chess::{parse_fen, san_of_line};
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::AppState;
use axum::extract::State;
use axum::Json;
use bastion_tablebase::format::TableFile;
use bastion_tablebase::{Material, Tablebases, TbError};
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;

/// Longest optimal line returned (plies).
const MAX_LINE: usize = 300;

/// The tables of `--tb-dir` and those of its files found corrupt.
pub struct Tables {
    /// The tables (probed lazily).
    pub tables: Tablebases,
    /// Endings whose file failed its check, with the reason.
    corrupt: Vec<(Material, String)>,
}

impl Tables {
    /// Names of the endings that can be probed.
    pub fn usable_endings(&self) -> Vec<String> {
        self.tables.endings().iter().filter(|(m, _)| !self.is_corrupt(m)).map(|(m, _)| m.name()).collect()
    }

    /// The corrupt tables as JSON: `[{ending, reason}]`.
    pub fn corrupt_json(&self) -> Value {
        self.corrupt.iter().map(|(m, why)| json!({ "ending": m.name(), "reason": why })).collect()
    }

    fn is_corrupt(&self, m: &Material) -> bool {
        self.corrupt.iter().any(|(c, _)| c == m)
    }
}

/// Opens the tables of `dir` and checks every file now, so that a corrupt one is
/// known (and said) before anyone probes it; the files are read again when first probed.
pub fn open(dir: Option<&Path>) -> anyhow::Result<Option<Tables>> {
    let Some(d) = dir else { return Ok(None) };
    if !d.is_dir() {
        anyhow::bail!("tablebase directory {} does not exist", d.display());
    }
    let tables =
        Tablebases::open(&[d]).map_err(|e| anyhow::anyhow!("cannot open tablebases in {}: {e}", d.display()))?;
    let mut corrupt = Vec::new();
    for (m, path) in tables.endings() {
        if let Err(e) = TableFile::open(path) {
            let why = reason_of(&e);
            eprintln!("warning: tablebase {} is corrupt and will not be used: {why}", m.name());
            corrupt.push((m.clone(), why));
        }
    }
    Ok(Some(Tables { tables, corrupt }))
}

/// The reason of a table error with the file named once, by its name only
/// (the server's directory layout is not the client's business).
fn reason_of(e: &TbError) -> String {
    match e {
        TbError::Corrupt { path, reason } => {
            // The reason may itself start with "<path>: corrupt table file: ".
            let reason = reason.rsplit("corrupt table file: ").next().unwrap_or(reason);
            let file =
                path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
            format!("{file}: {reason}")
        }
        TbError::Io { path, error } => {
            let file =
                path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
            format!("{file}: {error}")
        }
        other => other.to_string(),
    }
}

/// A probe failure as an API error: a corrupt table is a 503 that says so, once.
fn tb_error(e: TbError) -> ApiError {
    match e {
        TbError::Corrupt { .. } => ApiError::unavailable(format!(
            "corrupt tablebase file ({}); regenerate it with `bastion tb`",
            reason_of(&e)
        )),
        other => ApiError::internal(format!("tablebase error: {}", reason_of(&other))),
    }
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
    let material = Material::of(&pos);
    let ending = material.name();
    if !pos.castling().is_empty() {
        return Err(ApiError::bad_request("the tables do not cover positions with castling rights"));
    }
    let normalized = material.normalized().0;
    if let Some((_, why)) = tb.corrupt.iter().find(|(m, _)| *m == normalized) {
        return Err(ApiError::unavailable(format!(
            "the {} table is corrupt ({why}); regenerate it with `bastion tb`",
            normalized.name()
        )));
    }
    let permit = state.job_permit().await?;
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let tb = &tb.tables;
        let value = tb.try_probe_dtm(&pos).map_err(tb_error)?.ok_or_else(|| {
            ApiError::not_found(format!("no table for {ending} (nor its mirror) in the tablebase directory"))
        })?;
        let moves = tb.try_move_values(&pos).map_err(tb_error)?.unwrap_or_default();
        let line = tb.try_line(&pos, MAX_LINE).map_err(tb_error)?;
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
