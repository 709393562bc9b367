//! Progressive-chess endpoints: replaying a game, legal moves inside a series,
//! the computer player, the A* mate finder and the game record.

use crate::cancel::OnDrop;
use crate::chess::{color_name, MAX_PLIES};
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::AppState;
use axum::extract::State;
use axum::Json;
use bastion_core::Color;
use bastion_progressive::{choose_series, find_mate, Game, GameEnd, MateOptions, PlayerOptions, Rules, SeriesPosition};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A Progressive game as requests give it: a start and the moves since, or a record.
#[derive(Deserialize, Default)]
pub struct ProgReq {
    /// Progressive FEN (7 fields) of the start; empty for the standard start.
    #[serde(default)]
    start_fen: String,
    /// `italian` (default) or `scottish`.
    #[serde(default)]
    rules: String,
    /// Moves played, one by one (UCI, SAN or long algebraic).
    #[serde(default)]
    moves: Vec<String>,
    /// Series length for a plain (6-field) FEN; a progressive FEN carries its own.
    series: Option<u32>,
    /// A game record (as `/api/progressive/record` writes); replaces the fields above.
    #[serde(default)]
    record: Option<String>,
    /// Thinking time for the computer or the mate finder (ms).
    time_ms: Option<u64>,
    /// Node limit for the mate finder.
    max_nodes: Option<u64>,
}

fn bad(e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(e.to_string())
}

fn build(req: &ProgReq) -> ApiResult<Game> {
    if let Some(rec) = &req.record {
        if rec.len() > 200_000 {
            return Err(ApiError::bad_request("record too long"));
        }
        return Game::from_record(rec).map_err(|e| bad(format!("bad record: {e}")));
    }
    let rules: Rules =
        if req.rules.trim().is_empty() { Rules::default() } else { req.rules.trim().parse().map_err(bad)? };
    let fen = req.start_fen.trim();
    let standard = bastion_core::Position::startpos().fen();
    let start = if fen.is_empty() || fen == "startpos" || fen == standard {
        SeriesPosition::startpos(rules)
    } else {
        if fen.len() > 200 {
            return Err(ApiError::bad_request("FEN too long"));
        }
        SeriesPosition::from_fen(fen, req.series, rules).map_err(|e| bad(format!("bad progressive FEN: {e}")))?
    };
    if req.moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(format!("more than {MAX_PLIES} moves")));
    }
    let mut game = Game::from_position(start);
    for (i, text) in req.moves.iter().enumerate() {
        if text.len() > 16 {
            return Err(ApiError::bad_request("move text too long"));
        }
        game.play_text(text).map_err(|e| bad(format!("move {} ({text}): {e}", i + 1)))?;
    }
    Ok(game)
}

fn side_letter(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// The game as JSON: plies with the position after each, turns, series state, legal moves, result.
fn game_json(game: &Game) -> Value {
    let mut p = game.start().clone();
    let mut plies = Vec::new();
    let mut turns = Vec::new();
    for turn in game.turns() {
        let mut texts = Vec::new();
        for &m in turn {
            let text = p.move_text(m);
            let uci = p.board().to_uci(m);
            p = p.play_unchecked(m);
            plies.push(json!({ "uci": uci, "san": text, "fen": p.fen() }));
            texts.push(text);
        }
        if !texts.is_empty() {
            turns.push(texts);
        }
    }
    let cur = game.position();
    let over = game.result().is_some();
    let legal: Vec<Value> = if over {
        Vec::new()
    } else {
        cur.legal_moves()
            .iter()
            .map(|&m| {
                let uci = cur.board().to_uci(m);
                json!({
                    "from": &uci[0..2], "to": &uci[2..4],
                    "promotion": m.promotion_role().map(|r| r.char().to_string()),
                    "san": cur.move_text(m), "uci": uci,
                })
            })
            .collect()
    };
    let result = game.result().map(|r| {
        let reason = match r.end {
            GameEnd::Checkmate => "checkmate",
            GameEnd::Stalemate => "progressive stalemate",
            GameEnd::TenTurnRule => "ten-turn rule",
            GameEnd::Repetition => "repetition",
            GameEnd::Adjudicated => "adjudicated",
        };
        json!({ "result": r.text(), "winner": r.winner.map(color_name), "reason": reason })
    });
    json!({
        "start_fen": game.start().fen(),
        "rules": game.start().rules().to_string(),
        "plies": plies,
        "turns": turns,
        "fen": cur.fen(),
        "side": side_letter(cur.side_to_move()),
        "turn": cur.turn(),
        "series_len": cur.series_len(),
        "played": cur.played(),
        "in_check": cur.in_check(),
        "legal": legal,
        "result": result,
        "notation": game.notation(),
    })
}

/// `POST /api/progressive/game {start_fen, rules, moves | record}`: replays a game.
pub async fn game(ApiJson(req): ApiJson<ProgReq>) -> ApiResult<Json<Value>> {
    Ok(Json(game_json(&build(&req)?)))
}

/// `POST /api/progressive/record {start_fen, rules, moves}`: the game record text.
pub async fn record(ApiJson(req): ApiJson<ProgReq>) -> ApiResult<Json<Value>> {
    let g = build(&req)?;
    Ok(Json(json!({ "record": g.record(&[("Site", "Bastion web app".to_string())]) })))
}

fn think_time(state: &AppState, req: &ProgReq, default_ms: u64) -> ApiResult<Duration> {
    let max = state.caps.max_progressive_ms;
    match req.time_ms {
        Some(ms) if ms == 0 || ms > max => {
            Err(ApiError::bad_request(format!("time_ms must be 1..={max} (this server's limit)")))
        }
        Some(ms) => Ok(Duration::from_millis(ms)),
        None => Ok(Duration::from_millis(default_ms)),
    }
}

/// `POST /api/progressive/computer {..., time_ms}`: the computer's choice for
/// the rest of the current series (the moves are not played).
pub async fn computer(State(state): State<AppState>, ApiJson(req): ApiJson<ProgReq>) -> ApiResult<Json<Value>> {
    let g = build(&req)?;
    if g.result().is_some() {
        return Err(ApiError::bad_request("the game is over"));
    }
    let time = think_time(&state, &req, 2000)?;
    let permit = state.job_permit().await?;
    let pos = g.position().clone();
    // A client that goes away stops the player: axum drops this future, and the guard with it.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _stop = OnDrop::new(move || flag.store(true, Ordering::SeqCst));
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let opts = PlayerOptions { stop: Some(stop), ..PlayerOptions::with_time(time) };
        choose_series(&pos, &opts).map(|c| {
            let mut p = pos.clone();
            let mut texts = Vec::new();
            let mut ucis = Vec::new();
            for &m in &c.moves {
                texts.push(p.move_text(m));
                ucis.push(p.board().to_uci(m));
                p = p.play_unchecked(m);
            }
            json!({ "series": ucis, "series_san": texts, "phase": format!("{:?}", c.phase).to_lowercase(),
                    "score": c.score, "nodes": c.nodes })
        })
    })
    .await
    .map_err(|e| ApiError::internal(format!("computer player failed: {e}")))?;
    out.map(Json).ok_or_else(|| ApiError::bad_request("no series to play: the game is over"))
}

/// `POST /api/progressive/mate {..., time_ms, max_nodes}`: the A* mate finder
/// for the rest of the current series.
pub async fn mate(State(state): State<AppState>, ApiJson(req): ApiJson<ProgReq>) -> ApiResult<Json<Value>> {
    let g = build(&req)?;
    if g.result().is_some() {
        return Err(ApiError::bad_request("the game is over"));
    }
    let time = think_time(&state, &req, MateOptions::default().time_limit.as_millis() as u64)?;
    let nodes = req.max_nodes.map(|n| n.clamp(1, 50_000_000));
    let permit = state.job_permit().await?;
    let pos = g.position().clone();
    // A client that goes away stops the mate finder, as above.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _stop = OnDrop::new(move || flag.store(true, Ordering::SeqCst));
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let opts = MateOptions { time_limit: time, node_limit: nodes, stop: Some(stop), ..MateOptions::default() };
        let r = find_mate(&pos, &opts);
        let moves = r.moves.clone().unwrap_or_default();
        let mut p = pos.clone();
        let mut ucis = Vec::new();
        for &m in &moves {
            ucis.push(p.board().to_uci(m));
            p = p.play_unchecked(m);
        }
        let reason = match r.outcome {
            bastion_progressive::MateOutcome::Found => "",
            bastion_progressive::MateOutcome::NoMate => "proved: no mate",
            bastion_progressive::MateOutcome::Unknown => "search limit reached",
        };
        json!({
            "found": r.found(),
            "outcome": format!("{:?}", r.outcome).to_lowercase(),
            "reason": reason,
            "series": ucis,
            "series_text": if moves.is_empty() { String::new() } else { bastion_progressive::series_text(&pos, &moves) },
            "nodes": r.nodes,
            "elapsed_ms": r.elapsed.as_millis() as u64,
        })
    })
    .await
    .map_err(|e| ApiError::internal(format!("mate finder failed: {e}")))?;
    Ok(Json(out))
}
