//! The server over real TCP on 127.0.0.1: read timeouts, the connection cap,
//! and jobs cancelled when their client goes away.

mod common;

use bastion_web::{AppState, Config, NetLimits};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Generous bound for anything that should happen "at once" or "after a 1 s timeout".
const PATIENCE: Duration = Duration::from_secs(30);

/// Starts a server on an ephemeral loopback port; it lives as long as the test's runtime.
async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = AppState::new(config).unwrap();
    tokio::spawn(bastion_web::serve_on(listener, state, std::future::pending()));
    addr
}

fn short_timeouts(mut config: Config, max_connections: usize) -> Config {
    config.net =
        NetLimits { header_timeout: Duration::from_secs(1), body_timeout: Duration::from_secs(1), max_connections };
    config
}

/// Reads until the server closes the connection; what it sent, or `None` if
/// it was still open after [`PATIENCE`].
async fn read_to_close(s: &mut TcpStream) -> Option<String> {
    let mut out = Vec::new();
    let read = tokio::time::timeout(PATIENCE, async {
        let mut buf = [0u8; 4096];
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    read.ok().map(|_| String::from_utf8_lossy(&out).into_owned())
}

/// Opens a connection and sends the start of a request.
async fn send_raw(addr: SocketAddr, text: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(text.as_bytes()).await.unwrap();
    s
}

fn request(method: &str, path: &str, body: Option<&Value>) -> String {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// The same request asking for server-sent events (the page's streaming solver and fortress).
fn stream_request(path: &str, body: &Value) -> String {
    request("POST", path, Some(body)).replacen("\r\n", "\r\nAccept: text/event-stream\r\n", 1)
}

/// One whole request; answers the status and the JSON body.
async fn call(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut s = send_raw(addr, &request(method, path, body.as_ref())).await;
    let text = read_to_close(&mut s).await.expect("the server answers and closes");
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or_else(|_| json!({ "raw": body })))
}

#[tokio::test]
async fn half_sent_headers_and_bodies_are_closed() {
    let addr = start(short_timeouts(Config::default(), 64)).await;
    let mut header = send_raw(addr, "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n").await;
    let mut idle = TcpStream::connect(addr).await.unwrap();
    let mut body = send_raw(
        addr,
        "POST /api/legal HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n{\"fen\":",
    )
    .await;
    assert!(read_to_close(&mut header).await.is_some(), "a half-sent header stays open");
    assert!(read_to_close(&mut idle).await.is_some(), "an idle connection stays open");
    let answer = read_to_close(&mut body).await.expect("a half-sent body stays open");
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 4"), "{answer}");
    // The server still answers.
    let (status, v) = call(addr, "GET", "/api/info", None).await;
    assert_eq!(status, 200, "{v}");
}

#[tokio::test]
async fn open_connections_are_capped() {
    let addr = start(short_timeouts(Config::default(), 2)).await;
    // Two connections that say nothing hold both slots until their header timeout.
    let _a = TcpStream::connect(addr).await.unwrap();
    let _b = TcpStream::connect(addr).await.unwrap();
    let mut c = send_raw(addr, &request("GET", "/api/info", None)).await;
    let answer = read_to_close(&mut c).await.expect("a connection over the cap is closed");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("\"error\""), "{answer}");
    drop((_a, _b));
    // Once the slots are free again the server answers.
    let mut answered = false;
    for _ in 0..50 {
        if call(addr, "GET", "/api/info", None).await.0 == 200 {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(answered);
}

/// Waits until every job slot is taken (the jobs really are running).
async fn wait_all_busy(addr: SocketAddr) {
    for _ in 0..300 {
        let (_, v) = call(addr, "GET", "/api/info", None).await;
        if v["jobs"]["free"] == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the jobs never started");
}

/// A server with two job slots where a request waits long for a slot, so a
/// slot held by abandoned work shows as a 503 rather than as a delay.
fn two_slots() -> Config {
    let mut config = common::config(2);
    config.caps.queue_wait_ms = 20_000;
    config
}

/// Starts two slow jobs at `path`, waits until they hold both slots, drops
/// their connections, and checks that a new job is served.
async fn abandon_two(path: &str, slow: Value) {
    abandon_two_requests(&request("POST", path, Some(&slow))).await;
}

/// [`abandon_two`] for a request's whole text.
async fn abandon_two_requests(text: &str) {
    abandon_two_on(two_slots(), text).await;
}

/// [`abandon_two_requests`] on a server with `config`.
async fn abandon_two_on(config: Config, text: &str) {
    let addr = start(config).await;
    let a = send_raw(addr, text).await;
    let b = send_raw(addr, text).await;
    wait_all_busy(addr).await;
    drop((a, b));
    let (status, v) = call(addr, "POST", "/api/engine/bestmove", Some(json!({ "fen": "startpos", "depth": 2 }))).await;
    assert_eq!(status, 200, "{v}");
    assert!(v["bestmove"].is_string(), "{v}");
}

#[tokio::test]
async fn abandoned_searches_free_their_slots() {
    abandon_two("/api/engine/bestmove", json!({ "fen": "startpos", "movetime": 60_000 })).await;
}

#[tokio::test]
async fn abandoned_solves_free_their_slots() {
    abandon_two("/api/solve", json!({ "fen": "startpos", "mate": 12 })).await;
}

#[tokio::test]
async fn abandoned_fortress_runs_free_their_slots() {
    let slow = json!({ "fen": "startpos", "max_depth": 30, "moves": 8, "search_limit_ms": 100_000 });
    abandon_two("/api/fortress", slow).await;
}

#[tokio::test]
async fn abandoned_streaming_solves_and_fortress_runs_free_their_slots() {
    abandon_two_requests(&stream_request("/api/solve", &json!({ "fen": "startpos", "mate": 12 }))).await;
    let slow = json!({ "fen": "startpos", "max_depth": 30, "moves": 8, "search_limit_ms": 100_000 });
    abandon_two_requests(&stream_request("/api/fortress", &slow)).await;
}

#[tokio::test]
async fn abandoned_progressive_turns_free_their_slots() {
    // White's three-move series after 1.e4 d5 Nf6 is past the opening book and has no
    // mate: the player would think for tens of seconds of its 100 s, far longer than the
    // 5 s a request here waits for a slot. (The mate finder stops on the same flag;
    // `bastion-progressive`'s player tests check that, since positions that keep it busy
    // for long are rare.)
    let mut config = two_slots();
    config.caps.queue_wait_ms = 5_000;
    config.caps.max_progressive_ms = 100_000;
    let slow = json!({ "moves": ["e4", "d5", "Nf6"], "time_ms": 100_000 });
    abandon_two_on(config, &request("POST", "/api/progressive/computer", Some(&slow))).await;
}
