//! Tablebase endpoint: the DTM value of a position, of each legal move, and an
//! optimal line, from the DTM tables in `--tb-dir`, with Syzygy's WDL and DTZ
//! from `--syzygy-dir` beside them (those two directories are the only files read).
//! Every table is checked (checksums) when the server starts; a corrupt one is
//! reported, left out of `/api/info`'s endings and never probed.

use crate::chess::{parse_fen, san_of_line};
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::syzygy::wdl_name;
use crate::AppState;
use axum::extract::State;
use axum::Json;
use bastion_core::tablebase::Wdl;
use bastion_core::{Move, Position};
use bastion_tablebase::format::TableFile;
use bastion_tablebase::syzygy::report::{SyzygyMove, SyzygyReport};
use bastion_tablebase::{Dtm, Material, MoveValue, Tablebases, TbError};
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

/// What Bastion's DTM tables say about a position.
struct DtmAnswer {
    value: Dtm,
    moves: Vec<MoveValue>,
    line: Vec<Move>,
}

/// The DTM value, per-move values and optimal line of `pos`, or `None` without a table.
fn probe_dtm(tb: &Tablebases, pos: &Position) -> ApiResult<Option<DtmAnswer>> {
    let Some(value) = tb.try_probe_dtm(pos).map_err(tb_error)? else { return Ok(None) };
    let moves = tb.try_move_values(pos).map_err(tb_error)?.unwrap_or_default();
    let line = tb.try_line(pos, MAX_LINE).map_err(tb_error)?;
    Ok(Some(DtmAnswer { value, moves, line }))
}

/// `POST /api/tb/probe {fen}`: value, per-move values (best first) and an optimal line
/// from Bastion's DTM tables, with Syzygy's WDL and DTZ beside them where the server has
/// Syzygy tables; a position only Syzygy holds is answered from Syzygy alone.
pub async fn probe(State(state): State<AppState>, ApiJson(req): ApiJson<ProbeReq>) -> ApiResult<Json<Value>> {
    let pos = parse_fen(&req.fen)?;
    let (dtm_tables, syzygy) = (state.tablebases.clone(), state.syzygy.clone());
    if dtm_tables.is_none() && syzygy.is_none() {
        return Err(ApiError::unavailable(
            "no tablebases: start the server with --tb-dir DIR (Bastion DTM tables) and/or --syzygy-dir DIR (Syzygy)",
        ));
    }
    let material = Material::of(&pos);
    let ending = material.name();
    if !pos.castling().is_empty() {
        return Err(ApiError::bad_request("the tables do not cover positions with castling rights"));
    }
    let normalized = material.normalized().0;
    if let Some((_, why)) = dtm_tables.iter().flat_map(|tb| tb.corrupt.iter()).find(|(m, _)| *m == normalized) {
        return Err(ApiError::unavailable(format!(
            "the {} table is corrupt ({why}); regenerate it with `bastion tb`",
            normalized.name()
        )));
    }
    let permit = state.job_permit().await?;
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let dtm = match &dtm_tables {
            Some(tb) => probe_dtm(&tb.tables, &pos)?,
            None => None,
        };
        let syz = match &syzygy {
            Some(s) => s.probe(&pos)?,
            None => None,
        };
        match (dtm, syz) {
            (Some(dtm), syz) => Ok(dtm_json(&pos, &ending, &dtm, syz.as_ref())),
            (None, Some(syz)) => Ok(syzygy_only_json(&pos, &ending, &syz)),
            (None, None) => {
                Err(ApiError::not_found(format!("no table for {ending} (nor its mirror) in the tablebase directories")))
            }
        }
    })
    .await
    .map_err(|e| ApiError::internal(format!("tablebase job failed: {e}")))??;
    Ok(Json(out))
}

/// Syzygy's own view of the position: `{wdl, dtz, dtz_rounded, table}`.
fn syzygy_json(r: &SyzygyReport) -> Value {
    json!({ "wdl": wdl_name(r.wdl), "dtz": r.dtz, "dtz_rounded": r.dtz_rounded, "table": r.table })
}

/// A move's DTZ for the side that plays it (positive when it wins): the DTZ of the
/// position after it, which Syzygy gives from the opponent's side.
fn mover_dtz(m: &SyzygyMove) -> i32 {
    -m.dtz_after
}

/// Words for a Syzygy value: `win, DTZ 13`, `cursed win (a draw under the 50-move rule), DTZ 113`.
fn syzygy_text(wdl: Wdl, dtz: i32, checkmate: bool) -> String {
    let what = match wdl {
        Wdl::Win => "win",
        Wdl::CursedWin => "cursed win (a draw under the 50-move rule)",
        Wdl::Draw => return "draw".to_owned(),
        Wdl::BlessedLoss => "blessed loss (a draw under the 50-move rule)",
        Wdl::Loss => "loss",
    };
    if checkmate {
        format!("{what}, checkmate")
    } else {
        format!("{what}, DTZ {}", dtz.abs())
    }
}

/// The answer when Bastion's DTM table holds the position, with Syzygy's values beside it.
fn dtm_json(pos: &Position, ending: &str, dtm: &DtmAnswer, syz: Option<&SyzygyReport>) -> Value {
    let syzygy_move = |uci: &str| syz.and_then(|r| r.moves.iter().find(|m| m.uci == uci));
    let moves: Vec<Value> = dtm
        .moves
        .iter()
        .map(|mv| {
            let uci = pos.to_uci(mv.mv);
            let s = syzygy_move(&uci);
            json!({
                "san": pos.san(mv.mv),
                "wdl": mv.value.wdl().name(), "dtm": mv.value.plies(),
                "mate_in": mv.value.moves(), "value_text": mv.value.to_string(),
                "dtz": s.map(mover_dtz), "syzygy_wdl": s.map(|m| wdl_name(m.wdl)),
                "uci": uci,
            })
        })
        .collect();
    json!({
        "fen": pos.fen(),
        "ending": ending,
        "wdl": dtm.value.wdl().name(),
        "dtm": dtm.value.plies(),
        "mate_in": dtm.value.moves(),
        "value_text": dtm.value.to_string(),
        "syzygy": syz.map(syzygy_json),
        "moves": moves,
        "line": dtm.line.iter().map(|&m| pos.to_uci(m)).collect::<Vec<_>>(),
        "line_san": san_of_line(pos, &dtm.line),
    })
}

/// The answer from Syzygy alone: no DTM, no line to mate, moves in Syzygy's order
/// (wins first, mates and zeroing moves before the shortest DTZ; losses longest first).
fn syzygy_only_json(pos: &Position, ending: &str, syz: &SyzygyReport) -> Value {
    let moves: Vec<Value> = syz
        .moves
        .iter()
        .map(|m| {
            json!({
                "uci": m.uci, "san": m.san,
                "wdl": m.wdl.ignoring_fifty_move_rule().name(), "dtm": null, "mate_in": null,
                "value_text": syzygy_text(m.wdl, mover_dtz(m), m.checkmate),
                "dtz": mover_dtz(m), "syzygy_wdl": wdl_name(m.wdl),
            })
        })
        .collect();
    json!({
        "fen": pos.fen(),
        "ending": ending,
        "wdl": syz.wdl.ignoring_fifty_move_rule().name(),
        "dtm": null,
        "mate_in": null,
        "value_text": syzygy_text(syz.wdl, syz.dtz, false),
        "syzygy": syzygy_json(syz),
        "moves": moves,
        "line": [],
        "line_san": [],
    })
}
