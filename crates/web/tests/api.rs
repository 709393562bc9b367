//! The JSON API through the router (tower `oneshot`), good and bad input.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use bastion_core::{Game, Position};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// Sends a request from this machine (`Host: 127.0.0.1:8080`), with a JSON body if any.
async fn call(app: &axum::Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    common::send(app, method, uri, &[("host", "127.0.0.1:8080")], body).await
}

async fn post(app: &axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(body)).await
}

fn app(max_jobs: usize) -> axum::Router {
    bastion_web::router(common::state(max_jobs))
}

/// Replays UCI moves with the core library (the tests' independent referee).
fn replay(fen: &str, moves: &[&str]) -> Game {
    let mut g = Game::new(Position::from_fen(fen).unwrap());
    for m in moves {
        let mv = g.position().parse_uci(m).unwrap();
        g.make(mv);
    }
    g
}

fn assert_error(status: StatusCode, v: &Value, want: StatusCode) {
    assert_eq!(status, want, "{v}");
    assert!(v["error"].as_str().is_some_and(|s| !s.is_empty()), "no JSON error in {v}");
}

#[tokio::test]
async fn legal_moves_and_moves() {
    let app = app(2);
    let (s, v) = post(&app, "/api/legal", json!({ "fen": "startpos" })).await;
    assert_eq!(s, StatusCode::OK);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 20);
    assert!(moves.iter().any(|m| m["uci"] == "g1f3" && m["san"] == "Nf3" && m["from"] == "g1" && m["to"] == "f3"));

    // Promotion: four moves from e7 to e8, one per piece.
    let (_, v) = post(&app, "/api/legal", json!({ "fen": "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1" })).await;
    let promos: Vec<_> = v["moves"].as_array().unwrap().iter().filter(|m| m["to"] == "e8").collect();
    assert_eq!(promos.len(), 4);

    let (s, v) = post(&app, "/api/move", json!({ "fen": "startpos", "move": "e4" })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["uci"], "e2e4");
    assert_eq!(v["fen"], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert!(v["outcome"].is_null());

    // Mate in one with the move in UCI: the outcome says so.
    let (s, v) = post(&app, "/api/move", json!({ "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "move": "a1a8" })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["san"], "Ra8#");
    assert_eq!(v["outcome"]["result"], "1-0");
    assert_eq!(v["outcome"]["reason"], "checkmate");
}

#[tokio::test]
async fn bad_input_gets_json_errors() {
    let app = app(2);
    let (s, v) = post(&app, "/api/legal", json!({ "fen": "not a fen" })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/move", json!({ "fen": "startpos", "move": "e5" })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/move", json!({ "fen": "startpos", "move": "x".repeat(100) })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/move", json!({ "fen": "startpos" })).await;
    assert_error(s, &v, StatusCode::UNPROCESSABLE_ENTITY);
    let (s, v) = post(&app, "/api/legal", json!({ "fen": "8".repeat(500) })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);

    // Not JSON at all, and JSON without its content type.
    let req = Request::post("/api/legal").header("content-type", "application/json").body(Body::from("{\"fen\":"));
    let resp = app.clone().oneshot(req.unwrap()).await.unwrap();
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
    let req = Request::post("/api/legal").body(Body::from("{\"fen\":\"startpos\"}"));
    let resp = app.clone().oneshot(req.unwrap()).await.unwrap();
    assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    assert!(serde_json::from_slice::<Value>(&bytes).unwrap()["error"].is_string());

    // Too big a body.
    let big = json!({ "pgn": "1. e4 ".repeat(100_000) });
    let (s, v) = post(&app, "/api/pgn/import", big).await;
    assert_error(s, &v, StatusCode::PAYLOAD_TOO_LARGE);

    // Unknown endpoint, wrong method.
    let (s, v) = call(&app, "GET", "/api/nothing-here", None).await;
    assert_error(s, &v, StatusCode::NOT_FOUND);
    let (s, _) = call(&app, "GET", "/api/legal", None).await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);

    // A page elsewhere rebinding its DNS name to 127.0.0.1 is refused.
    let req = Request::get("/api/info").header("host", "attacker.example:8080").body(Body::empty()).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn game_replay_outcomes_and_pgn() {
    let app = app(2);
    let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
    let (s, v) = post(&app, "/api/game", json!({ "start_fen": "", "moves": moves })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["plies"].as_array().unwrap().len(), 4);
    assert_eq!(v["plies"][3]["san"], "Qh4#");
    assert_eq!(v["outcome"]["result"], "0-1");
    assert!(v["legal"].as_array().unwrap().is_empty());

    // Threefold repetition is claimable, not automatic.
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"];
    let (_, v) = post(&app, "/api/game", json!({ "moves": shuffle })).await;
    assert!(v["outcome"].is_null());
    assert_eq!(v["claimable"]["reason"], "threefold repetition");

    let (s, v) = post(&app, "/api/game", json!({ "moves": ["e2e4", "e2e4"] })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("ply 2"));

    // Export then import gives the same game back.
    let (s, v) = post(
        &app,
        "/api/pgn/export",
        json!({ "moves": moves, "headers": [["White", "Alice \"A\""], ["Black", "Bob"]] }),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    let pgn = v["pgn"].as_str().unwrap();
    assert!(pgn.contains("[White \"Alice \\\"A\\\"\"]"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"));
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{pgn}");
    let (s, v) = post(&app, "/api/pgn/import", json!({ "pgn": pgn })).await;
    assert_eq!(s, StatusCode::OK);
    let ucis: Vec<&str> = v["plies"].as_array().unwrap().iter().map(|p| p["uci"].as_str().unwrap()).collect();
    assert_eq!(ucis, moves);
    assert_eq!(v["headers"][4], json!(["White", "Alice \"A\""]));

    let (s, v) = post(&app, "/api/pgn/import", json!({ "pgn": "1. e4 e5 2. Ke3" })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("Ke3"));
}

#[tokio::test]
async fn engine_best_move_and_limits() {
    let app = app(2);
    // Mate in one: the engine's move must checkmate (checked by the core library).
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1";
    let (s, v) = post(&app, "/api/engine/bestmove", json!({ "fen": fen, "depth": 4 })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let best = v["bestmove"].as_str().unwrap();
    assert!(replay(fen, &[best]).position().is_checkmate(), "{best} does not mate");
    assert_eq!(v["score"]["mate"], 1);

    // With the moves of a game: the engine answers for the side to move after them.
    let (s, v) = post(&app, "/api/engine/bestmove", json!({ "moves": ["e2e4"], "movetime": 100 })).await;
    assert_eq!(s, StatusCode::OK);
    let g = replay(Position::startpos().fen().as_str(), &["e2e4", v["bestmove"].as_str().unwrap()]);
    assert_eq!(g.moves().len(), 2);

    for bad in [
        json!({ "depth": 0 }),
        json!({ "depth": 1000 }),
        json!({ "movetime": 10_000_000 }),
        json!({ "threads": 10_000 }),
        json!({ "multipv": 50 }),
        json!({ "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "moves": ["a1a8"] }),
    ] {
        let (s, v) = post(&app, "/api/engine/bestmove", bad.clone()).await;
        assert_error(s, &v, StatusCode::BAD_REQUEST);
    }
}

/// Reads server-sent events from a response body until `done` (or `limit` events).
async fn read_events(body: Body, limit: usize) -> Vec<(String, Value)> {
    let mut body = body;
    let mut buf = String::new();
    let mut out = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.unwrap();
        if let Some(d) = frame.data_ref() {
            buf.push_str(&String::from_utf8_lossy(d));
        }
        while let Some(end) = buf.find("\n\n") {
            let block: String = buf.drain(..end + 2).collect();
            let mut event = String::new();
            let mut data = String::new();
            for line in block.lines() {
                if let Some(e) = line.strip_prefix("event: ") {
                    event = e.to_string();
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data.push_str(d);
                }
            }
            if !event.is_empty() {
                let done = event == "done";
                out.push((event, serde_json::from_str(&data).unwrap_or(Value::Null)));
                if done || out.len() >= limit {
                    return out;
                }
            }
        }
    }
    out
}

#[tokio::test]
async fn analysis_streams_multipv_lines() {
    let app = app(2);
    let req = Request::get("/api/analyse?fen=startpos&moves=e2e4,e7e5&multipv=3&movetime=400")
        .header("host", "localhost")
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let events = read_events(resp.into_body(), 10_000).await;
    assert_eq!(events[0].0, "start");
    let infos: Vec<&Value> = events.iter().filter(|(e, _)| e == "info").map(|(_, v)| v).collect();
    for k in 1..=3 {
        assert!(infos.iter().any(|i| i["multipv"] == k), "no line {k}");
    }
    // Depths never go down for line 1, and every PV starts with a legal move.
    let d1: Vec<i64> = infos.iter().filter(|i| i["multipv"] == 1).map(|i| i["depth"].as_i64().unwrap()).collect();
    assert!(d1.windows(2).all(|w| w[0] <= w[1]));
    let pos = replay(&Position::startpos().fen(), &["e2e4", "e7e5"]).position().clone();
    for i in &infos {
        let first = i["pv"][0].as_str().unwrap();
        assert!(pos.parse_uci(first).is_ok(), "illegal PV move {first}");
    }
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done");
    assert!(pos.parse_uci(done["bestmove"].as_str().unwrap()).is_ok());

    for uri in
        ["/api/analyse?fen=garbage", "/api/analyse?multipv=lots", "/api/analyse?moves=e2e5", "/api/analyse?multipv=99"]
    {
        let (s, v) = call(&app, "GET", uri, None).await;
        assert_error(s, &v, StatusCode::BAD_REQUEST);
    }
}

#[tokio::test]
async fn job_slots_are_bounded_and_freed_when_a_client_leaves() {
    let app = app(1);
    // An open-ended analysis holds the only slot...
    let req = Request::get("/api/analyse?fen=startpos").header("host", "localhost").body(Body::empty()).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let mut body = resp.into_body();
    let first = read_events_partial(&mut body).await;
    assert!(first.contains("event: start"));
    // ...so another search is refused with a clear 503...
    let (s, v) = post(&app, "/api/engine/bestmove", json!({ "movetime": 50 })).await;
    assert_error(s, &v, StatusCode::SERVICE_UNAVAILABLE);
    assert!(v["error"].as_str().unwrap().contains("busy"));
    // ...until the client goes away, which stops the search and frees the slot.
    drop(body);
    let mut ok = false;
    for _ in 0..50 {
        let (s, _) = post(&app, "/api/engine/bestmove", json!({ "movetime": 50 })).await;
        if s == StatusCode::OK {
            ok = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(ok, "the analysis slot was not freed after the client left");
}

async fn read_events_partial(body: &mut Body) -> String {
    let frame = body.frame().await.unwrap().unwrap();
    String::from_utf8_lossy(frame.data_ref().unwrap()).into_owned()
}

#[tokio::test]
async fn mate_solver_finds_all_keys() {
    let app = app(2);
    // Mate in two with a back-rank theme: every key's main line must end in mate.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let (s, v) = post(&app, "/api/solve", json!({ "fen": fen, "mate": 2 })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "solved");
    let keys = v["keys"].as_array().unwrap();
    assert!(!keys.is_empty());
    for k in keys {
        let line: Vec<&str> = k["main_line"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let g = replay(fen, &line);
        assert!(g.position().is_checkmate(), "key {} line {:?} does not mate", k["san"], line);
        assert!(line.len() <= 3);
    }
    // No mate in one here except Rd8#, so #1 has exactly the keys that mate at once.
    let (_, v1) = post(&app, "/api/solve", json!({ "fen": fen, "stipulation": "#1" })).await;
    for k in v1["keys"].as_array().unwrap() {
        assert!(replay(fen, &[k["uci"].as_str().unwrap()]).position().is_checkmate());
    }

    let (s, v) = post(&app, "/api/solve", json!({ "fen": fen })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/solve", json!({ "fen": fen, "mate": 0 })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/solve", json!({ "fen": fen, "mate": 200 })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/solve", json!({ "fen": fen, "stipulation": "z#3" })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
}

/// A POST with `Accept: text/event-stream`: the status and the events up to `done` or `error`.
async fn post_events(app: &axum::Router, uri: &str, body: Value) -> (StatusCode, Vec<(String, Value)>) {
    let req = Request::post(uri)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .header("accept", "text/event-stream")
        .body(Body::from(body.to_string()))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    if status != StatusCode::OK {
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        return (status, vec![("json".into(), serde_json::from_slice(&bytes).unwrap_or(Value::Null))]);
    }
    assert!(resp.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut events = read_events(resp.into_body(), 10_000).await;
    if let Some(i) = events.iter().position(|(e, _)| e == "error") {
        events.truncate(i + 1);
    }
    (status, events)
}

#[tokio::test]
async fn mate_solver_streams_its_iterations() {
    let app = app(2);
    // Black mates in three: lengths 1 and 2 fail, 3 is found, then the report as JSON gives it.
    let fen = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
    let body = json!({ "fen": fen, "mate": 5, "threats": true });
    let (s, events) = post_events(&app, "/api/solve", body.clone()).await;
    assert_eq!(s, StatusCode::OK);
    let names: Vec<&str> = events.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(names, ["start", "iteration", "iteration", "iteration", "done"], "{events:?}");
    assert_eq!(events[0].1["stipulation"], "#5");
    let iters: Vec<&Value> = events[1..4].iter().map(|(_, v)| v).collect();
    for (i, it) in iters.iter().enumerate() {
        assert_eq!(it["moves"], i as u64 + 1);
        assert_eq!(it["found"], i == 2);
        assert!(it["nodes"].as_u64().unwrap() > 0 && it["time_ms"].is_u64(), "{it}");
    }
    let done = &events[4].1;
    let (_, plain) = post(&app, "/api/solve", body).await;
    for field in ["status", "stipulation", "keys", "nodes"] {
        assert_eq!(done[field], plain[field], "{field}");
    }
    assert_eq!(done["keys"][0]["san"], "Bc5+");
    assert!(done["nodes"].as_u64().unwrap() >= iters[2]["nodes"].as_u64().unwrap());
    // Bad input is refused before the stream starts, as JSON.
    let (s, v) = post_events(&app, "/api/solve", json!({ "fen": fen, "mate": 0 })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v[0].1["error"].is_string());
    // A solve that runs out of time ends with an `error` event saying so.
    let (_, events) =
        post_events(&app, "/api/solve", json!({ "fen": "startpos", "mate": 12, "timeout_ms": 300 })).await;
    let (last, v) = events.last().unwrap();
    assert_eq!(last, "error", "{events:?}");
    assert!(v["error"].as_str().unwrap().contains("stopped after 300 ms"), "{v}");
    assert_eq!(v["status"], 503);
}

#[tokio::test]
async fn fortress_detector_streams_its_depths() {
    let app = app(2);
    let fen = "8/k7/8/P7/8/2K5/3B4/8 w - - 0 1";
    let (s, events) = post_events(&app, "/api/fortress", json!({ "fen": fen, "max_depth": 6, "moves": 2 })).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(events[0].0, "start");
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done", "{events:?}");
    // The main search's depths come in order before the answer, up to the depth asked.
    let depths: Vec<u64> = events
        .iter()
        .filter(|(e, v)| e == "progress" && v["stage"] == "main")
        .map(|(_, v)| v["depth"].as_u64().unwrap())
        .collect();
    assert!(depths.len() >= 3 && depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
    assert!(*depths.last().unwrap() <= 6);
    assert!(done["verdict"].is_string() && !done["curves"].as_array().unwrap().is_empty(), "{done}");
    let (s, v) = post_events(&app, "/api/fortress", json!({ "fen": fen, "max_depth": 99 })).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(v[0].1["error"].is_string());
}

#[tokio::test]
async fn tablebase_values_and_optimal_line() {
    let app = app(2);
    let fen = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1";
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": fen })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["wdl"], "win");
    let dtm = v["dtm"].as_u64().unwrap();
    assert_eq!(dtm % 2, 1, "a win for the side to move is an odd number of plies");
    // The optimal line is exactly DTM plies long and ends in mate.
    let line: Vec<&str> = v["line"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert_eq!(line.len() as u64, dtm);
    assert!(replay(fen, &line).position().is_checkmate());
    // Every legal move is listed, best first; the best keeps the value.
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), Position::from_fen(fen).unwrap().legal_moves().len());
    assert_eq!(moves[0]["dtm"].as_u64().unwrap(), dtm);
    assert_eq!(moves[0]["uci"], line[0]);
    assert!(moves.iter().all(|m| m["wdl"] != "loss"));

    // Mate in one: one ply, in the singular.
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["value_text"], "win, mate in 1 (1 ply)");
    assert_eq!(v["moves"][0]["value_text"], "win, mate in 1 (1 ply)");

    // KBK is not in the directory; a position with castling rights is not covered.
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/4k3/8/8/8/4K2B w - - 0 1" })).await;
    assert_error(s, &v, StatusCode::NOT_FOUND);
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1" })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);

    // A server without --tb-dir says so.
    let bare = bastion_web::router(bastion_web::AppState::new(bastion_web::Config::default()).unwrap());
    let (s, v) = post(&bare, "/api/tb/probe", json!({ "fen": fen })).await;
    assert_error(s, &v, StatusCode::SERVICE_UNAVAILABLE);
    let (s, v) = post(&bare, "/api/fortress", json!({ "fen": fen })).await;
    assert_error(s, &v, StatusCode::SERVICE_UNAVAILABLE);
}

/// A server with the test DTM tables (KQK, KRK) and the real Syzygy files.
fn syzygy_app(dir: std::path::PathBuf) -> axum::Router {
    let config = bastion_web::Config { syzygy_dir: Some(dir), ..common::config(2) };
    bastion_web::router(bastion_web::AppState::new(config).unwrap())
}

/// The `(uci, syzygy_wdl, dtz)` of each listed move, in the order given.
fn syzygy_moves(v: &Value) -> Vec<(String, String, i64)> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let (uci, wdl) = (m["uci"].as_str().unwrap(), m["syzygy_wdl"].as_str().unwrap());
            (uci.to_owned(), wdl.to_owned(), m["dtz"].as_i64().unwrap())
        })
        .collect()
}

// Expected values below are python-chess's `chess.syzygy` on the same files
// (`probe_wdl`, `probe_dtz`; a move's DTZ is minus the DTZ after it).
#[tokio::test]
async fn syzygy_values_beside_dtm() {
    let Some(dir) = common::syzygy_dir() else { return };
    let app = syzygy_app(dir);
    let (s, v) = call(&app, "GET", "/api/info", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["features"]["syzygy"], true, "{v}");
    let endings = v["features"]["syzygy_endings"].as_array().unwrap();
    for e in ["KQvK", "KBvK", "KPvK", "KRvKN"] {
        assert!(endings.contains(&json!(e)), "{e} missing from {endings:?}");
    }
    assert_eq!(endings.len(), 35, "3- and 4-man WDL files: {endings:?}");

    // KQvK: Bastion's DTM and Syzygy's DTZ side by side.
    let fen = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1";
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": fen })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["wdl"], "win");
    assert!(v["dtm"].as_u64().is_some(), "{v}");
    assert_eq!(v["syzygy"]["wdl"], "win");
    assert_eq!(v["syzygy"]["dtz"], 13);
    assert_eq!(v["syzygy"]["table"], "KQvK");
    let moves = syzygy_moves(&v);
    assert_eq!(moves.len(), 21);
    let dtz_of = |uci: &str| moves.iter().find(|m| m.0 == uci).unwrap().clone();
    assert_eq!(dtz_of("h1c6"), ("h1c6".into(), "win".into(), 12));
    assert_eq!(dtz_of("e1d1"), ("e1d1".into(), "win".into(), 18));
    // Qd5 and Qe4 hang the queen: a draw in both kinds of table.
    for hang in ["h1d5", "h1e4"] {
        assert_eq!(dtz_of(hang), (hang.into(), "draw".into(), 0));
        let m = v["moves"].as_array().unwrap().iter().find(|m| m["uci"] == hang).unwrap();
        assert_eq!(m["wdl"], "draw", "{m}");
    }
    // The order stays Bastion's (shortest mate first).
    assert_eq!(v["moves"][0]["dtm"], v["dtm"]);
}

#[tokio::test]
async fn syzygy_alone_answers_without_dtm() {
    let Some(dir) = common::syzygy_dir() else { return };
    let app = syzygy_app(dir);
    // KBvK: no Bastion table in the directory; a draw by Syzygy.
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/4k3/8/8/8/4K2B w - - 0 1" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["dtm"], Value::Null);
    assert_eq!(v["wdl"], "draw");
    assert_eq!(v["syzygy"], json!({ "wdl": "draw", "dtz": 0, "dtz_rounded": false, "table": "KBvK" }));
    assert_eq!(v["line"], json!([]));
    assert!(syzygy_moves(&v).iter().all(|m| m.1 == "draw" && m.2 == 0));

    // KPvK, one winning move: Kf3 (DTZ 10 after it, 11 before).
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/3k4/8/8/4PK2/8 w - - 0 1" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        (v["wdl"].as_str(), v["syzygy"]["wdl"].as_str(), v["syzygy"]["dtz"].as_i64()),
        (Some("win"), Some("win"), Some(11))
    );
    let moves = syzygy_moves(&v);
    assert_eq!(moves.len(), 9);
    assert_eq!(moves[0], ("f2f3".into(), "win".into(), 10));
    assert!(moves[1..].iter().all(|m| m.1 == "draw"), "{moves:?}");
    assert_eq!(v["moves"][0]["san"], "Kf3");

    // KPvK with a pawn move that wins at once: zeroing first, then the shortest DTZ.
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/8/8/k7/4P3/4K3 w - - 0 1" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["syzygy"]["dtz"], 1);
    let order: Vec<(String, i64)> = syzygy_moves(&v).into_iter().map(|m| (m.0, m.2)).collect();
    assert_eq!(order.iter().map(|m| m.1).collect::<Vec<_>>(), [16, 2, 6, 12, 12, 0], "{order:?}");
    let uci: Vec<&str> = order.iter().map(|m| m.0.as_str()).collect();
    assert_eq!((&uci[..3], &uci[5]), (&["e2e3", "e1f2", "e1d2"][..], &"e2e4"), "{order:?}");
    assert_eq!(v["moves"][5]["syzygy_wdl"], "draw");

    // The defender's view: draws first, then the longest resistance.
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/8/2k5/8/4P3/4K3 b - - 0 1" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["syzygy"]["wdl"], "draw");
    let moves = syzygy_moves(&v);
    assert_eq!(moves.len(), 7);
    assert!(moves[..2].iter().all(|m| m.1 == "draw"), "{moves:?}");
    assert!(moves[2..4].iter().all(|m| m.1 == "loss" && m.2 == -13), "{moves:?}");
    assert!(moves[4..].iter().all(|m| m.1 == "loss" && m.2 == -11), "{moves:?}");
    assert_eq!(v["moves"][2]["wdl"], "loss");

    // Five men: neither kind of table.
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/4k3/8/8/3PP3/3QK3 w - - 0 1" })).await;
    assert_error(s, &v, StatusCode::NOT_FOUND);

    // Syzygy alone, without --tb-dir.
    let config = bastion_web::Config { syzygy_dir: common::syzygy_dir(), ..bastion_web::Config::default() };
    let app = bastion_web::router(bastion_web::AppState::new(config).unwrap());
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/4k3/8/8/8/4K2Q w - - 0 1" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!((v["dtm"].clone(), v["syzygy"]["dtz"].clone()), (Value::Null, json!(13)));
    assert_eq!(v["moves"][0]["uci"], "h1c6");
    let (s, v) = call(&app, "GET", "/api/info", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        (v["features"]["tablebase"].clone(), v["features"]["tablebase_endings"].clone()),
        (json!(true), Value::Null)
    );
}

#[tokio::test]
async fn a_damaged_syzygy_table_is_a_clear_error() {
    let Some(real) = common::syzygy_dir() else { return };
    // KQvK with its WDL file's magic bytes overwritten.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bastion-web-syzygy-damaged");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(real.join("KQvK.rtbz"), dir.join("KQvK.rtbz")).unwrap();
    let mut wdl = std::fs::read(real.join("KQvK.rtbw")).unwrap();
    wdl[..4].copy_from_slice(b"PGN ");
    std::fs::write(dir.join("KQvK.rtbw"), wdl).unwrap();
    let config = bastion_web::Config { syzygy_dir: Some(dir.clone()), ..bastion_web::Config::default() };
    let app = bastion_web::router(bastion_web::AppState::new(config).unwrap());
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/4k3/8/8/8/4K2Q w - - 0 1" })).await;
    assert_error(s, &v, StatusCode::SERVICE_UNAVAILABLE);
    let msg = v["error"].as_str().unwrap();
    assert!(msg.contains("KQvK") && msg.contains("magic"), "{msg}");
    assert!(!msg.contains(&*dir.to_string_lossy()), "the server's directory is not shown: {msg}");
}

#[tokio::test]
async fn a_missing_syzygy_directory_is_an_error_at_start() {
    let config = bastion_web::Config {
        syzygy_dir: Some(std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-syzygy-dir")),
        ..bastion_web::Config::default()
    };
    let err = bastion_web::AppState::new(config).err().expect("refused").to_string();
    assert!(err.contains("Syzygy directory") && err.contains("does not exist"), "{err}");
    // A directory without Syzygy files is refused too (a mistyped path, most likely).
    let empty = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("empty-syzygy-dir");
    std::fs::create_dir_all(&empty).unwrap();
    let config = bastion_web::Config { syzygy_dir: Some(empty), ..bastion_web::Config::default() };
    let err = bastion_web::AppState::new(config).err().expect("refused").to_string();
    assert!(err.contains("no Syzygy files"), "{err}");
}

#[tokio::test]
async fn a_corrupt_table_is_said_corrupt_once_and_not_listed() {
    // A copy of the test tables with one byte of the KRK table flipped.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bastion-web-tb-corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["KQK.btb", "KRK.btb"] {
        std::fs::copy(common::tb_dir().join(name), dir.join(name)).unwrap();
    }
    let mut bytes = std::fs::read(dir.join("KRK.btb")).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(dir.join("KRK.btb"), bytes).unwrap();
    let config = bastion_web::Config { tb_dir: Some(dir.clone()), ..bastion_web::Config::default() };
    let app = bastion_web::router(bastion_web::AppState::new(config).unwrap());

    let (s, v) = call(&app, "GET", "/api/info", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["features"]["tablebase_endings"], json!(["KQK"]), "{v}");
    assert_eq!(v["features"]["tablebase_corrupt"][0]["ending"], "KRK", "{v}");

    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/4k3/8/8/8/4K2R w - - 0 1" })).await;
    assert_error(s, &v, StatusCode::SERVICE_UNAVAILABLE);
    let msg = v["error"].as_str().unwrap();
    assert_eq!(msg.matches("corrupt").count(), 1, "{msg}");
    assert_eq!(msg.matches("KRK.btb").count(), 1, "{msg}");
    assert!(!msg.contains(&*dir.to_string_lossy()), "the server's directory is not shown: {msg}");
    // The sound table still answers.
    let (s, v) = post(&app, "/api/tb/probe", json!({ "fen": "8/8/8/4k3/8/8/8/4K2Q w - - 0 1" })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn fortress_detector_reports_curves_and_verdict() {
    let app = app(2);
    // Bishop and wrong rook pawn: a classic fortress-like draw, shallow here to stay quick.
    let fen = "8/k7/8/P7/8/2K5/3B4/8 w - - 0 1";
    let (s, v) = post(&app, "/api/fortress", json!({ "fen": fen, "max_depth": 6, "moves": 2 })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(["fortress", "progress", "unclear"].contains(&v["verdict"].as_str().unwrap()));
    let curves = v["curves"].as_array().unwrap();
    assert!(!curves.is_empty() && curves.len() <= 2);
    let pos = Position::from_fen(fen).unwrap();
    for c in curves {
        assert!(pos.parse_uci(c["uci"].as_str().unwrap()).is_ok());
        let depths: Vec<u64> = c["points"].as_array().unwrap().iter().map(|p| p[0].as_u64().unwrap()).collect();
        assert!(!depths.is_empty() && *depths.last().unwrap() <= 6);
        assert!(depths.windows(2).all(|w| w[0] < w[1]));
    }
    assert!(v["svg"].as_str().unwrap().contains("<svg"));

    let (s, v) = post(&app, "/api/fortress", json!({ "fen": fen, "max_depth": 99 })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/fortress", json!({ "fen": fen, "moves": 0 })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn small_tables_decide_a_four_man_fortress_without_table_files() {
    // No table directory: the rook-against-bishop table (a draw with White a rook for a
    // bishop up) is generated on demand. A pawnless ending: its sub-tables are three-man, so
    // this takes under two seconds; the wrong-bishop ending, its promotions' tables first,
    // took over ten.
    let config = bastion_web::Config { tb_dir: None, small_tables: 4, ..common::config(2) };
    let app = bastion_web::router(bastion_web::AppState::new(config).unwrap());
    let fen = "8/8/8/3k4/8/3b4/8/R3K3 w - - 0 1";
    let (s, v) = post(&app, "/api/fortress", json!({ "fen": fen, "max_depth": 6, "moves": 2 })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "fortress", "{v}");
    assert!(v["explanation"].as_str().unwrap().starts_with("tablebase:"), "{v}");
    // More men than the generator takes on demand is a clear error at start.
    let five = bastion_web::Config { small_tables: 5, ..common::config(2) };
    assert!(bastion_web::AppState::new(five).is_err());
}

#[tokio::test]
async fn progressive_series_computer_and_mate() {
    let app = app(2);
    let (s, v) = post(&app, "/api/progressive/game", json!({ "moves": ["e4", "d5", "Nf6"] })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["turns"], json!([["e4"], ["d5", "Nf6"]]));
    assert_eq!(v["side"], "w");
    assert_eq!(v["series_len"], 3);
    assert_eq!(v["played"], 0);
    // Inside Black's series the same side moves again.
    let (_, v) = post(&app, "/api/progressive/game", json!({ "moves": ["e4", "d5"] })).await;
    assert_eq!(v["side"], "b");
    assert_eq!(v["played"], 1);
    assert!(v["legal"].as_array().unwrap().iter().all(|m| m["uci"] != "e4e5"));

    let (s, v) = post(&app, "/api/progressive/game", json!({ "moves": ["e4", "e4"] })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);
    let (s, v) = post(&app, "/api/progressive/game", json!({ "rules": "martian" })).await;
    assert_error(s, &v, StatusCode::BAD_REQUEST);

    // The computer's series completes the turn and is legal.
    let moves = json!(["e4", "d5", "Nf6"]);
    let (s, c) = post(&app, "/api/progressive/computer", json!({ "moves": moves, "time_ms": 500 })).await;
    assert_eq!(s, StatusCode::OK, "{c}");
    let series = c["series"].as_array().unwrap();
    assert_eq!(series.len(), 3);
    let mut all: Vec<Value> = moves.as_array().unwrap().clone();
    all.extend(series.iter().cloned());
    let (s, v) = post(&app, "/api/progressive/game", json!({ "moves": all })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert!(v["result"].is_null() || v["result"]["reason"] == "checkmate");

    // 1.e4 2.f6 g5: White mates in the third series (two quiet moves, then Qh5#).
    let moves = json!(["e4", "f6", "g5"]);
    let (s, m) = post(&app, "/api/progressive/mate", json!({ "moves": moves, "time_ms": 5000 })).await;
    assert_eq!(s, StatusCode::OK, "{m}");
    assert_eq!(m["found"], true, "{m}");
    let mut all: Vec<Value> = moves.as_array().unwrap().clone();
    all.extend(m["series"].as_array().unwrap().iter().cloned());
    let (_, v) = post(&app, "/api/progressive/game", json!({ "moves": all })).await;
    assert_eq!(v["result"]["reason"], "checkmate", "{v}");
    assert_eq!(v["result"]["result"], "1-0");

    // Record round trip.
    let (_, r) = post(&app, "/api/progressive/record", json!({ "moves": ["e4", "d5", "Nf6"] })).await;
    let (s, v) = post(&app, "/api/progressive/game", json!({ "record": r["record"] })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["turns"], json!([["e4"], ["d5", "Nf6"]]));
}

#[tokio::test]
async fn page_assets_and_docs_are_served() {
    let app = app(2);
    for (path, ty) in [
        ("/", "text/html"),
        ("/app.js", "text/javascript"),
        ("/assets/chessground.js", "text/javascript"),
        ("/assets/chessops.js", "text/javascript"),
        ("/assets/tree.js", "text/javascript"),
        ("/assets/tools.js", "text/javascript"),
        ("/app.css", "text/css"),
        ("/api", "text/plain"),
    ] {
        let req = Request::get(path).header("host", "localhost:8080").body(Body::empty()).unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        assert!(resp.headers()["content-type"].to_str().unwrap().starts_with(ty), "{path}");
        let text = String::from_utf8(resp.into_body().collect().await.unwrap().to_bytes().to_vec()).unwrap();
        assert!(text.len() > 100, "{path}");
    }
    // Every module the page imports is served; nothing else under /assets/ is.
    for module in ["/assets/app.js", "/assets/../Cargo.toml", "/assets/vendor%2Fchessops.js"] {
        let req = Request::get(module).header("host", "localhost:8080").body(Body::empty()).unwrap();
        assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::NOT_FOUND, "{module}");
    }
    for page in [bastion_web::assets::APP_JS, bastion_web::assets::TREE_JS] {
        for import in page.lines().filter(|l| l.starts_with("import ")) {
            let target = import.rsplit('\'').nth(1).unwrap();
            let path = format!("/assets/{}", target.trim_start_matches("./").trim_start_matches("assets/"));
            let req = Request::get(path.as_str()).header("host", "localhost:8080").body(Body::empty()).unwrap();
            assert_eq!(app.clone().oneshot(req).await.unwrap().status(), StatusCode::OK, "{import}");
        }
    }
    let (s, v) = call(&app, "GET", "/api/info", None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["features"]["tablebase"], true);
    assert_eq!(v["features"]["fortress"], true);
    // Every endpoint the router knows is documented.
    let docs = bastion_web::assets::API_DOCS;
    for ep in [
        "/api/legal",
        "/api/move",
        "/api/game",
        "/api/pgn/import",
        "/api/pgn/export",
        "/api/engine/bestmove",
        "/api/analyse",
        "/api/solve",
        "/api/tb/probe",
        "/api/fortress",
        "/api/progressive/game",
        "/api/progressive/record",
        "/api/progressive/computer",
        "/api/progressive/mate",
        "/api/info",
    ] {
        assert!(docs.contains(ep), "{ep} is not documented");
    }
}

/// Mutated FENs, PGN fragments and move texts: every answer is 200 or a JSON
/// 4xx, never a 500 (a panic) — the server must survive whatever it is sent.
#[tokio::test]
async fn garbage_never_breaks_the_server() {
    let app = app(2);
    let seeds = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1",
    ];
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ -wbKQkqa3e6x#0".chars().collect();
    let mut rng: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut ok, mut total) = (0, 0);
    for i in 0..400 {
        let mut fen: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..=(next() % 3) {
            let pos = (next() as usize) % fen.len();
            if i % 2 == 0 {
                // Keep the FEN's shape: swap one piece for another (kings may vanish or double).
                if fen[pos].is_ascii_alphabetic() && fen[..pos].iter().all(|&c| c != ' ') {
                    fen[pos] = "pnbrqkPNBRQK".chars().nth((next() % 12) as usize).unwrap();
                }
                continue;
            }
            let c = alphabet[(next() as usize) % alphabet.len()];
            match next() % 3 {
                0 => fen[pos] = c,
                1 => fen.insert(pos, c),
                _ => {
                    fen.remove(pos);
                }
            }
        }
        let fen: String = fen.into_iter().collect();
        let mv = ["e2e4", "e7e8q", "O-O", "Kxe8", "a1h8", "e8=Q", "0000", "Nf3"][(next() % 8) as usize];
        let probes = [
            ("/api/legal", json!({ "fen": fen })),
            ("/api/move", json!({ "fen": fen, "move": mv })),
            ("/api/game", json!({ "start_fen": fen, "moves": [mv, mv] })),
            ("/api/pgn/import", json!({ "pgn": format!("[FEN \"{fen}\"]\n\n1. {mv} {mv} (2. {mv}") })),
            ("/api/progressive/game", json!({ "start_fen": format!("{fen} 2"), "moves": [mv] })),
            ("/api/tb/probe", json!({ "fen": fen })),
        ];
        for (uri, body) in probes {
            let (s, v) = post(&app, uri, body.clone()).await;
            total += 1;
            ok += usize::from(s == StatusCode::OK);
            assert!(s == StatusCode::OK || (s.is_client_error() && v["error"].is_string()), "{uri} {body} -> {s} {v}");
        }
    }
    // Enough inputs stay valid to reach move generation, SAN and the replays.
    assert!(ok * 20 >= total, "only {ok} of {total} probes were valid");
}

#[tokio::test]
async fn fortress_detector_decides_by_the_servers_tables() {
    let Some(dir) = common::syzygy_dir() else { return };
    let app = syzygy_app(dir);
    // Bishop and wrong rook pawn: a draw by the Syzygy tables with White a bishop and a
    // pawn up, so a fortress whatever the curves at this shallow depth say.
    let fen = "8/k7/8/P7/8/2K5/3B4/8 w - - 0 1";
    let (s, v) = post(&app, "/api/fortress", json!({ "fen": fen, "max_depth": 6, "moves": 2 })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["verdict"], "fortress", "{v}");
    assert_eq!(v["analysis"]["evidence"]["basis"], "tablebase", "{v}");
    assert!(v["explanation"].as_str().unwrap().starts_with("tablebase"), "{v}");
}
