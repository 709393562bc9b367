//! Core-chess endpoints: legal moves, playing a move, replaying a game, PGN.

use crate::error::{ApiError, ApiJson, ApiResult};
use axum::Json;
use bastion_core::{Color, Game, Move, Outcome, Position, Termination};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub mod pgn;

/// Longest FEN accepted; real ones are under 100 characters.
const MAX_FEN_LEN: usize = 200;
/// Most plies accepted in one game or move list.
pub const MAX_PLIES: usize = 2000;

/// Reads a FEN (or `startpos`), with a clear error.
pub fn parse_fen(fen: &str) -> ApiResult<Position> {
    let fen = fen.trim();
    if fen.is_empty() || fen == "startpos" {
        return Ok(Position::startpos());
    }
    if fen.len() > MAX_FEN_LEN {
        return Err(ApiError::bad_request(format!("FEN longer than {MAX_FEN_LEN} characters")));
    }
    Position::from_fen(fen).map_err(|e| ApiError::bad_request(format!("bad FEN: {e}")))
}

/// Reads one move (UCI or SAN) in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> ApiResult<Move> {
    if text.len() > 16 {
        return Err(ApiError::bad_request("move text too long"));
    }
    pos.parse_move(text).map_err(|e| ApiError::bad_request(format!("move {text:?}: {e}")))
}

/// Plays `moves` from `start`; returns the game (positions kept for repetitions).
pub fn replay(start: &Position, moves: &[String]) -> ApiResult<Game> {
    if moves.len() > MAX_PLIES {
        return Err(ApiError::bad_request(format!("more than {MAX_PLIES} moves")));
    }
    let mut game = Game::new(start.clone());
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(game.position(), text)
            .map_err(|e| ApiError::bad_request(format!("ply {}: {}", i + 1, e.message)))?;
        game.make(m);
    }
    Ok(game)
}

/// Zobrist keys of the positions before the last one (the engine's repetition history).
pub fn history_keys(game: &Game) -> Vec<u64> {
    let ps = game.positions();
    ps[..ps.len().saturating_sub(1)].iter().map(|p| p.key()).collect()
}

/// "white" / "black".
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// JSON for a finished game's outcome (or null).
pub fn outcome_json(o: Option<Outcome>) -> Value {
    match o {
        None => Value::Null,
        Some(o) => {
            let reason = match o.termination {
                Termination::Checkmate => "checkmate",
                Termination::Stalemate => "stalemate",
                Termination::InsufficientMaterial => "insufficient material",
                Termination::FiftyMoves => "fifty-move rule",
                Termination::ThreefoldRepetition => "threefold repetition",
                Termination::SeventyFiveMoves => "seventy-five-move rule",
                Termination::FivefoldRepetition => "fivefold repetition",
            };
            json!({ "result": o.result(), "winner": o.winner.map(color_name), "reason": reason })
        }
    }
}

/// One legal move as the front end and scripts see it.
#[derive(Serialize)]
pub struct MoveInfo {
    /// UCI text (`e7e8q`).
    pub uci: String,
    /// SAN text (`e8=Q+`).
    pub san: String,
    /// Origin square.
    pub from: String,
    /// Destination square as a user drags it (king destination for castling).
    pub to: String,
    /// Promotion piece letter, if any.
    pub promotion: Option<String>,
}

/// All legal moves of `pos`.
pub fn legal_list(pos: &Position) -> Vec<MoveInfo> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let uci = pos.to_uci(m);
            MoveInfo {
                from: uci[0..2].to_string(),
                to: uci[2..4].to_string(),
                promotion: m.promotion_role().map(|r| r.char().to_string()),
                san: pos.san(m),
                uci,
            }
        })
        .collect()
}

/// SAN of a UCI move list from `pos` (stops at the first illegal move).
pub fn san_of_line(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in line {
        if !p.is_legal(m) {
            break;
        }
        out.push(p.san(m));
        p = p.play(m);
    }
    out
}

/// Body of `/api/legal`.
#[derive(Deserialize)]
pub struct LegalReq {
    fen: String,
}

/// `POST /api/legal {fen}`: the legal moves with UCI and SAN.
pub async fn legal(ApiJson(req): ApiJson<LegalReq>) -> ApiResult<Json<Value>> {
    let pos = parse_fen(&req.fen)?;
    let game = Game::new(pos.clone());
    Ok(Json(json!({
        "fen": pos.fen(),
        "turn": color_name(pos.side_to_move()),
        "in_check": pos.in_check(),
        "moves": legal_list(&pos),
        "outcome": outcome_json(game.outcome(false)),
    })))
}

/// Body of `/api/move`.
#[derive(Deserialize)]
pub struct MoveReq {
    fen: String,
    #[serde(rename = "move")]
    mv: String,
}

/// `POST /api/move {fen, move}`: the position after a legal move.
pub async fn play_move(ApiJson(req): ApiJson<MoveReq>) -> ApiResult<Json<Value>> {
    let pos = parse_fen(&req.fen)?;
    let m = parse_move(&pos, &req.mv)?;
    let next = pos.play(m);
    let game = Game::new(next.clone());
    Ok(Json(json!({
        "uci": pos.to_uci(m),
        "san": pos.san(m),
        "fen": next.fen(),
        "in_check": next.in_check(),
        "outcome": outcome_json(game.outcome(false)),
    })))
}

/// Body of `/api/game`.
#[derive(Deserialize)]
pub struct GameReq {
    #[serde(default)]
    start_fen: String,
    #[serde(default)]
    moves: Vec<String>,
}

/// JSON of a whole game: each ply, the final legal moves and the outcome.
pub fn game_json(game: &Game) -> Value {
    let start = game.start();
    let mut plies = Vec::new();
    for (i, &m) in game.moves().iter().enumerate() {
        let before = &game.positions()[i];
        let after = &game.positions()[i + 1];
        plies.push(json!({ "uci": before.to_uci(m), "san": before.san(m), "fen": after.fen() }));
    }
    let pos = game.position();
    json!({
        "start_fen": start.fen(),
        "plies": plies,
        "fen": pos.fen(),
        "turn": color_name(pos.side_to_move()),
        "in_check": pos.in_check(),
        "legal": legal_list(pos),
        "outcome": outcome_json(game.outcome(false)),
        "claimable": outcome_json(game.outcome(true)),
    })
}

/// `POST /api/game {start_fen, moves}`: replays a game (repetition-aware outcome).
pub async fn game(ApiJson(req): ApiJson<GameReq>) -> ApiResult<Json<Value>> {
    let start = parse_fen(&req.start_fen)?;
    let game = replay(&start, &req.moves)?;
    Ok(Json(game_json(&game)))
}

/// Body of `/api/pgn/import`.
#[derive(Deserialize)]
pub struct PgnImportReq {
    pgn: String,
}

/// `POST /api/pgn/import {pgn}`: the first game of a PGN text.
pub async fn pgn_import(ApiJson(req): ApiJson<PgnImportReq>) -> ApiResult<Json<Value>> {
    let parsed = pgn::parse(&req.pgn).map_err(ApiError::bad_request)?;
    let mut v = game_json(&parsed.game);
    v["headers"] = json!(parsed.headers);
    v["result"] = json!(parsed.result);
    Ok(Json(v))
}

/// Body of `/api/pgn/export`.
#[derive(Deserialize)]
pub struct PgnExportReq {
    #[serde(default)]
    start_fen: String,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default)]
    headers: Vec<(String, String)>,
}

/// `POST /api/pgn/export {start_fen, moves, headers}`: a PGN text.
pub async fn pgn_export(ApiJson(req): ApiJson<PgnExportReq>) -> ApiResult<Json<Value>> {
    let start = parse_fen(&req.start_fen)?;
    let game = replay(&start, &req.moves)?;
    if req.headers.len() > 64 {
        return Err(ApiError::bad_request("too many headers"));
    }
    Ok(Json(json!({ "pgn": pgn::write(&game, &req.headers) })))
}
