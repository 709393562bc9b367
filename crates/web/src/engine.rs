//! Engine endpoints: one best move, and live MultiPV analysis as server-sent events.

use crate::cancel::OnDrop;
use crate::chess::{history_keys, parse_fen, replay, san_of_line};
use crate::error::{ApiError, ApiJson, ApiResult};
use crate::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::Json;
use bastion_core::Position;
use bastion_engine::{Engine, EngineOptions, Limits, Score, ScoreBound, SearchInfo, SearchResult};
use futures_util::stream::Stream;
use serde::Deserialize;
use serde_json::{json, Value};
use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::sync::mpsc;

/// Search settings shared by `bestmove` and `analyse` (all optional, all capped).
#[derive(Deserialize, Default, Clone)]
pub struct SearchReq {
    /// Start position (FEN or `startpos`).
    #[serde(default)]
    pub fen: String,
    /// Moves played from `fen` (UCI or SAN), comma-separated in a query string.
    #[serde(default, deserialize_with = "moves_list")]
    pub moves: Vec<String>,
    /// Thinking time in milliseconds.
    pub movetime: Option<u64>,
    /// Depth limit in plies.
    pub depth: Option<i32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Lines to report.
    pub multipv: Option<usize>,
    /// Search threads.
    pub threads: Option<usize>,
}

/// Accepts a JSON array or a comma/space separated string (query strings).
fn moves_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        List(Vec<String>),
        Text(String),
    }
    Ok(match Either::deserialize(d)? {
        Either::List(v) => v,
        Either::Text(s) => s.split([',', ' ']).filter(|t| !t.is_empty()).map(str::to_string).collect(),
    })
}

/// Score as JSON: `{cp: n}` or `{mate: n}`, side to move's view.
pub fn score_json(s: Score) -> Value {
    match s {
        Score::Cp(c) => json!({ "cp": c }),
        Score::Mate(m) => json!({ "mate": m }),
    }
}

fn bound_name(b: ScoreBound) -> &'static str {
    match b {
        ScoreBound::Exact => "exact",
        ScoreBound::Lower => "lower",
        ScoreBound::Upper => "upper",
    }
}

fn info_json(pos: &Position, i: &SearchInfo) -> Value {
    json!({
        "depth": i.depth,
        "seldepth": i.seldepth,
        "multipv": i.line.multipv,
        "score": score_json(i.line.score),
        "bound": bound_name(i.line.bound),
        "pv": i.line.pv.iter().map(|&m| pos.to_uci(m)).collect::<Vec<_>>(),
        "pv_san": san_of_line(pos, &i.line.pv),
        "nodes": i.nodes,
        "nps": i.nps,
        "time_ms": i.time_ms,
    })
}

fn result_json(pos: &Position, r: &SearchResult) -> Value {
    json!({
        "bestmove": r.best.map(|m| pos.to_uci(m)),
        "san": r.best.map(|m| pos.san(m)),
        // Castling notation depends only on the Chess960 flag, so the root writes every PV move.
        "ponder": r.ponder.map(|m| pos.to_uci(m)),
        "score": score_json(r.score),
        "depth": r.depth,
        "seldepth": r.seldepth,
        "nodes": r.nodes,
        "time_ms": r.time_ms,
        "pv": r.pv.iter().map(|&m| pos.to_uci(m)).collect::<Vec<_>>(),
        "pv_san": san_of_line(pos, &r.pv),
        "lines": r.lines.iter().map(|l| json!({
            "multipv": l.multipv,
            "score": score_json(l.score),
            "pv": l.pv.iter().map(|&m| pos.to_uci(m)).collect::<Vec<_>>(),
            "pv_san": san_of_line(pos, &l.pv),
        })).collect::<Vec<_>>(),
    })
}

struct Prepared {
    pos: Position,
    history: Vec<u64>,
    limits: Limits,
    opts: EngineOptions,
}

/// Checks a search request against the caps. `movetime` must lie in
/// `1..=max_ms` (out of range is an error, never silently clamped); without it
/// the search gets `default_ms`, or `max_ms` when a depth or node limit is given.
fn prepare(state: &AppState, req: &SearchReq, default_ms: u64, max_ms: u64) -> ApiResult<Prepared> {
    let caps = &state.caps;
    let start = parse_fen(&req.fen)?;
    let game = replay(&start, &req.moves)?;
    let pos = game.position().clone();
    if !pos.has_legal_moves() {
        let side = if pos.side_to_move() == bastion_core::Color::White { "White" } else { "Black" };
        return Err(ApiError::bad_request(if pos.in_check() {
            format!("the game is over: {side} is checkmated, so there is nothing to search")
        } else {
            format!("the game is over: {side} is stalemated, so there is nothing to search")
        }));
    }
    let mut limits = Limits::default();
    if let Some(d) = req.depth {
        if !(1..=caps.max_depth).contains(&d) {
            return Err(ApiError::bad_request(format!("depth must be 1..={}", caps.max_depth)));
        }
        limits.depth = Some(d);
    }
    if let Some(n) = req.nodes {
        if n == 0 || n > caps.max_nodes {
            return Err(ApiError::bad_request(format!("nodes must be 1..={}", caps.max_nodes)));
        }
        limits.nodes = Some(n);
    }
    let ms = match req.movetime {
        Some(ms) if ms == 0 || ms > max_ms => {
            return Err(ApiError::bad_request(format!("movetime must be 1..={max_ms} ms (this server's limit)")))
        }
        Some(ms) => ms,
        // Depth or node limits alone still get a time cap so no request runs unbounded.
        None if limits.depth.is_some() || limits.nodes.is_some() => max_ms,
        None => default_ms,
    };
    limits.movetime_ms = Some(ms);
    let multipv = req.multipv.unwrap_or(1);
    if !(1..=caps.max_multipv).contains(&multipv) {
        return Err(ApiError::bad_request(format!("multipv must be 1..={} (this server's limit)", caps.max_multipv)));
    }
    let threads = req.threads.unwrap_or(1);
    if !(1..=caps.max_threads).contains(&threads) {
        return Err(ApiError::bad_request(format!(
            "threads must be 1..={} (this server's limit; {threads} asked)",
            caps.max_threads
        )));
    }
    let opts = EngineOptions { hash_mb: caps.hash_mb, threads, multipv, ..EngineOptions::default() };
    Ok(Prepared { history: history_keys(&game), pos, limits, opts })
}

/// `POST /api/engine/bestmove {fen, moves, movetime|depth|nodes, multipv, threads}`.
pub async fn bestmove(State(state): State<AppState>, ApiJson(req): ApiJson<SearchReq>) -> ApiResult<Json<Value>> {
    let p = prepare(&state, &req, 1000, state.caps.max_movetime_ms)?;
    let permit = state.job_permit().await?;
    let mut engine = Engine::new(p.opts);
    // A client that goes away stops the search: axum drops this future, and the guard with it.
    let control = engine.control();
    let _stop = OnDrop::new(move || control.stop.store(true, Ordering::SeqCst));
    let out = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let r = engine.search(&p.pos, &p.history, &p.limits, &mut |_| {});
        let mut v = result_json(&p.pos, &r);
        v["fen"] = json!(p.pos.fen());
        v
    })
    .await
    .map_err(|e| ApiError::internal(format!("engine job failed: {e}")))?;
    Ok(Json(out))
}

/// `GET /api/analyse?fen=..&moves=..&multipv=3&movetime=..&depth=..`: server-sent
/// events `info` (one per PV line per depth), then `done` with the final result.
/// Closing the connection stops the search.
pub async fn analyse(
    State(state): State<AppState>,
    query: Result<Query<SearchReq>, QueryRejection>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    let Query(req) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    // Analysis runs until stopped, but never past the server's cap.
    let max = state.caps.max_analysis_ms;
    let p = prepare(&state, &req, max, max)?;
    let permit = state.job_permit().await?;
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let multipv = p.opts.multipv;
    let mut engine = Engine::new(p.opts);
    let control = engine.control();
    // The client going away (EventSource closed) stops the search.
    let watch_tx = tx.clone();
    let watch_control = control.clone();
    let (finished_tx, finished_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        tokio::select! {
            _ = watch_tx.closed() => watch_control.stop.store(true, Ordering::SeqCst),
            // The search ended by itself: drop this sender so the event stream can end.
            _ = finished_rx => {}
        }
    });
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let _finished = finished_tx;
        let pos = p.pos;
        let start = json!({ "fen": pos.fen(), "multipv": multipv });
        let _ = tx.send(Event::default().event("start").data(start.to_string()));
        let r = engine.search(&pos, &p.history, &p.limits, &mut |i| {
            if tx.send(Event::default().event("info").data(info_json(&pos, i).to_string())).is_err() {
                control.stop.store(true, Ordering::SeqCst);
            }
        });
        let _ = tx.send(Event::default().event("done").data(result_json(&pos, &r).to_string()));
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|e| (Ok(e), rx)) });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10))))
}
