//! Shared set-up of the API and browser tests: a server state with Bastion's
//! own UCI engine for the fortress detector and small generated tablebases.

#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use bastion_web::{AppState, Caps, Config};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::OnceLock;
use tower::ServiceExt;

/// A directory with the KQK and KRK DTM tables, generated once per test binary.
pub fn tb_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bastion-web-tb");
        std::fs::create_dir_all(&dir).unwrap();
        let targets: Vec<_> = ["KQK", "KRK"].iter().map(|m| bastion_tablebase::Material::parse(m).unwrap()).collect();
        bastion_tablebase::driver::build(&targets, &dir, false, |_| {}).expect("generate test tables");
        dir
    })
    .clone()
}

/// The shared directory of real 3- and 4-man Syzygy files (`../shared/data/syzygy`
/// beside the repository), or `None` with a message when it is not there.
pub fn syzygy_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/syzygy");
    if dir.join("KQvK.rtbw").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: no Syzygy files in {} (the shared data directory)", dir.display());
        None
    }
}

/// The engine command the fortress detector runs: the `bastion` binary's UCI
/// engine, built on first use (the web crate has no binary of its own).
pub fn uci_engine() -> Vec<String> {
    let bastion = bastion_test_engine::cargo_bin("bastion-cli", "bastion");
    vec![bastion.display().to_string(), "uci".to_owned()]
}

/// Full configuration: tables, fortress engine, the given job slots.
pub fn config(max_jobs: usize) -> Config {
    Config {
        tb_dir: Some(tb_dir()),
        uci_engine: Some(uci_engine()),
        caps: Caps { max_jobs, queue_wait_ms: 300, ..Caps::default() },
        ..Config::default()
    }
}

/// State for `config(max_jobs)`.
pub fn state(max_jobs: usize) -> AppState {
    AppState::new(config(max_jobs)).unwrap()
}

/// Sends a request with the given headers; answers the status and the JSON body.
pub async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let body = match body {
        Some(v) => {
            req = req.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let resp = app.clone().oneshot(req.body(body).unwrap()).await.unwrap();
    let status = resp.status();
    // Event streams are not read to their end: only the status matters for them.
    if resp.headers().get("content-type").is_some_and(|c| c.as_bytes().starts_with(b"text/event-stream")) {
        return (status, json!({ "stream": true }));
    }
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let v = serde_json::from_slice(&bytes).unwrap_or_else(|_| json!({ "raw": String::from_utf8_lossy(&bytes) }));
    (status, v)
}
