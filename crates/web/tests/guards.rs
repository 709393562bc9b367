//! Request guards through the router (tower `oneshot`): the Host check, the
//! cross-origin check on work-starting routes, method errors and one rule for limits.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use tower::ServiceExt;

fn app() -> axum::Router {
    bastion_web::router(common::state(2))
}

fn assert_json_error(status: StatusCode, v: &Value, want: StatusCode) {
    assert_eq!(status, want, "{v}");
    assert!(v["error"].as_str().is_some_and(|s| !s.is_empty()), "no JSON error in {v}");
}

#[tokio::test]
async fn host_header_names_only_this_machine() {
    let app = app();
    for host in ["127.0.0.1:8080", "127.0.0.1", "localhost:8080", "LOCALHOST", "[::1]:8080", "[::1]", "127.1.2.3:80"] {
        let (s, v) = common::send(&app, "GET", "/api/info", &[("host", host)], None).await;
        assert_eq!(s, StatusCode::OK, "{host}: {v}");
    }
    for host in [
        "127.0.0.1.evil.example",
        "127.evil.example",
        "127.0.0.1:1@evil.example",
        "127.0.0.1.evil.example:8080",
        "evil.example",
        "localhost.evil.example",
        "[::1].evil.example",
        "[::2]:80",
        "10.0.0.1",
        "127.0.0.1:",
        "127.0.0.1:99999",
        "127.0.0.1:80:80",
        "",
    ] {
        let (s, v) = common::send(&app, "GET", "/api/info", &[("host", host)], None).await;
        assert_json_error(s, &v, StatusCode::FORBIDDEN);
    }
}

#[tokio::test]
async fn allow_listed_names_are_accepted() {
    let mut config = common::config(2);
    config.allowed_hosts = vec!["chess.lan".to_string()];
    let app = bastion_web::router(bastion_web::AppState::new(config).unwrap());
    let (s, _) = common::send(&app, "GET", "/api/info", &[("host", "Chess.LAN:8080")], None).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = common::send(&app, "GET", "/api/info", &[("host", "chess.lan.evil.example")], None).await;
    assert_json_error(s, &v, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn cross_site_requests_cannot_start_work() {
    let app = app();
    let uri = "/api/analyse?fen=startpos&depth=1";
    let host = ("host", "127.0.0.1:8080");
    for extra in [
        [("origin", "https://evil.example")],
        [("sec-fetch-site", "cross-site")],
        [("origin", "null")],
        [("origin", "http://127.0.0.1.evil.example:8080")],
    ] {
        let headers = [host, extra[0]];
        let (s, v) = common::send(&app, "GET", uri, &headers, None).await;
        assert_json_error(s, &v, StatusCode::FORBIDDEN);
    }
    // The page itself (same origin), a typed address and scripts without a browser still work.
    for extra in [
        vec![("origin", "http://127.0.0.1:8080"), ("sec-fetch-site", "same-origin")],
        vec![("sec-fetch-site", "none")],
        vec![],
    ] {
        let mut headers = vec![host];
        headers.extend(extra);
        let (s, v) = common::send(&app, "GET", uri, &headers, None).await;
        assert_eq!(s, StatusCode::OK, "{headers:?}: {v}");
    }
    // A POST job from another site is refused too, even with a JSON body.
    let body = json!({ "fen": "startpos", "depth": 1 });
    let (s, v) =
        common::send(&app, "POST", "/api/engine/bestmove", &[host, ("origin", "https://evil.example")], Some(body))
            .await;
    assert_json_error(s, &v, StatusCode::FORBIDDEN);
    // A form post (no JSON content type) never reaches a job.
    let req = Request::builder()
        .method("POST")
        .uri("/api/engine/bestmove")
        .header("host", "127.0.0.1:8080")
        .header("content-type", "text/plain")
        .body(Body::from("{\"fen\":\"startpos\"}"))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn wrong_method_answers_405_with_json() {
    let app = app();
    let host = [("host", "127.0.0.1:8080")];
    // Every POST route of the API.
    for uri in [
        "/api/legal",
        "/api/move",
        "/api/game",
        "/api/pgn/import",
        "/api/pgn/export",
        "/api/engine/bestmove",
        "/api/solve",
        "/api/fortress",
        "/api/tb/probe",
        "/api/progressive/game",
        "/api/progressive/record",
        "/api/progressive/computer",
        "/api/progressive/mate",
    ] {
        for method in ["GET", "PUT", "DELETE"] {
            let (s, v) = common::send(&app, method, uri, &host, None).await;
            assert_json_error(s, &v, StatusCode::METHOD_NOT_ALLOWED);
            assert!(v["error"].as_str().unwrap().contains("use POST"), "{method} {uri}: {v}");
        }
    }
    let (s, v) = common::send(&app, "POST", "/api/analyse", &host, Some(json!({}))).await;
    assert_json_error(s, &v, StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn movetime_out_of_range_is_refused_alike() {
    let app = app();
    let host = [("host", "127.0.0.1:8080")];
    let caps = bastion_web::Caps::default();
    for ms in [0, caps.max_movetime_ms + 1] {
        let (s, v) = common::send(
            &app,
            "POST",
            "/api/engine/bestmove",
            &host,
            Some(json!({ "fen": "startpos", "movetime": ms })),
        )
        .await;
        assert_json_error(s, &v, StatusCode::BAD_REQUEST);
    }
    for ms in [0, caps.max_analysis_ms + 1] {
        let (s, v) = common::send(&app, "GET", &format!("/api/analyse?fen=startpos&movetime={ms}"), &host, None).await;
        assert_json_error(s, &v, StatusCode::BAD_REQUEST);
        assert!(v["error"].as_str().unwrap().contains("movetime"), "{v}");
    }
}

#[tokio::test]
async fn errors_say_what_is_wrong() {
    let app = app();
    let host = [("host", "127.0.0.1:8080")];
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let threads = bastion_web::Caps::default().max_threads + 1;
    let cases = [
        (format!("fen={mated}"), "checkmate"),
        (format!("fen={stalemate}"), "stalemate"),
        (format!("fen=startpos&threads={threads}"), "threads"),
        ("fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1".to_string(), "bad FEN"),
    ];
    for (query, want) in &cases {
        let q = query.replace(' ', "%20").replace('/', "%2F");
        let (s, v) = common::send(&app, "GET", &format!("/api/analyse?{q}"), &host, None).await;
        assert_json_error(s, &v, StatusCode::BAD_REQUEST);
        assert!(v["error"].as_str().unwrap().contains(want), "{query}: {v}");
    }
    // The same four mistakes on /api/engine/bestmove: the same messages, each its own.
    let bodies = [
        (json!({ "fen": mated }), "White is checkmated"),
        (json!({ "fen": stalemate }), "Black is stalemated"),
        (json!({ "fen": "startpos", "threads": threads }), "threads must be 1..="),
        (json!({ "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1" }), "bad FEN"),
    ];
    let mut seen = Vec::new();
    for ((body, want), (query, _)) in bodies.iter().zip(&cases) {
        let (s, v) = common::send(&app, "POST", "/api/engine/bestmove", &host, Some(body.clone())).await;
        assert_json_error(s, &v, StatusCode::BAD_REQUEST);
        let msg = v["error"].as_str().unwrap().to_owned();
        assert!(msg.contains(want), "{body}: {msg}");
        // The analysis stream refuses the same request with the same words.
        let q = query.replace(' ', "%20").replace('/', "%2F");
        let (_, a) = common::send(&app, "GET", &format!("/api/analyse?{q}"), &host, None).await;
        assert_eq!(a["error"], msg.as_str(), "{query}");
        seen.push(msg);
    }
    // Threads above the limit name the limit and what was asked.
    let max = bastion_web::Caps::default().max_threads;
    assert!(seen[2].contains(&format!("1..={max}")) && seen[2].contains(&format!("{threads} asked")), "{}", seen[2]);
    // A bad FEN says what is wrong with it, not only that it is bad.
    assert!(seen[3].len() > "bad FEN: ".len() + 10, "{}", seen[3]);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 4, "the four errors must differ: {seen:?}");
}

#[tokio::test]
async fn info_exposes_every_form_limit() {
    let app = app();
    let (s, v) = common::send(&app, "GET", "/api/info", &[("host", "127.0.0.1:8080")], None).await;
    assert_eq!(s, StatusCode::OK);
    let caps = bastion_web::Caps::default();
    let limits = &v["limits"];
    assert_eq!(limits["threads"], json!([1, caps.max_threads]), "{v}");
    assert_eq!(limits["multipv"], json!([1, caps.max_multipv]));
    assert_eq!(limits["movetime_ms"], json!([1, caps.max_movetime_ms]));
    assert_eq!(limits["depth"], json!([1, caps.max_depth]));
    assert_eq!(limits["fortress_depth"], json!([2, 30]));
    assert_eq!(limits["fortress_moves"], json!([1, 8]));
    assert_eq!(limits["solve_moves"], json!([1, caps.max_solve_moves]));
    assert_eq!(limits["progressive_ms"], json!([1, 30_000]));
}
