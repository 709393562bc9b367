//! End-to-end tests in a real headless Chromium driven over WebDriver
//! (fantoccini + chromedriver). They start their own server on 127.0.0.1 and
//! their own chromedriver, click through every panel and save a screenshot of
//! each screen under `target/e2e-screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver`; run with
//! `cargo test -p bastion-web --test e2e -- --ignored`.

mod common;

use fantoccini::actions::{InputSource, MouseActions, PointerAction, TouchActions, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver, killed when dropped (also when a test fails).
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn start_driver() -> Driver {
    let port = free_port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver not found: apt-get install chromium chromium-driver");
    let driver = Driver { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    driver
}

async fn start_browser(driver: &Driver, profile: &str) -> Client {
    let profile_dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-{profile}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile_dir);
    let mut opts = json!({
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1280,900",
            format!("--user-data-dir={}", profile_dir.display()),
        ]
    });
    if std::path::Path::new("/usr/bin/chromium").exists() {
        opts["binary"] = json!("/usr/bin/chromium");
    }
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), opts);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("cannot start a chromium session");
    client.set_window_size(1280, 900).await.unwrap();
    client
}

/// Serves the app on a free loopback port; returns its base URL.
async fn start_server(max_jobs: usize) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(bastion_web::serve_on(listener, common::state(max_jobs), std::future::pending()));
    format!("http://{addr}")
}

fn shots_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().join("e2e-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap();
}

async fn js(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Polls a JavaScript expression until it is truthy.
async fn wait_for(c: &Client, expr: &str, what: &str, secs: u64) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = js(c, &format!("return !!({expr});")).await;
        if v == json!(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = js(c, "return document.getElementById('status').textContent").await;
            shot(c, &format!("failed-{}", what.replace(' ', "-"))).await;
            panic!("timed out waiting for {what} (status: {status})");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn square(c: &Client, sq: &str) -> fantoccini::elements::Element {
    c.find(Locator::Css(&format!("#board [data-sq=\"{sq}\"]"))).await.unwrap()
}

/// Clicks a square, finding it again if the board redrew itself in between.
async fn click_square(c: &Client, sq: &str) {
    for _ in 0..20 {
        match square(c, sq).await.click().await {
            Ok(()) => return,
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    panic!("cannot click square {sq}");
}

/// A move by two clicks (the second waits for the hints from the legal-move list).
async fn click_move(c: &Client, from: &str, to: &str) {
    click_square(c, from).await;
    wait_for(c, &format!("document.querySelector('#board [data-sq=\"{to}\"] .hint')"), &format!("hint on {to}"), 10)
        .await;
    click_square(c, to).await;
}

/// Viewport coordinates of a square's centre (the board redraws its squares, so
/// element references would go stale mid-gesture).
async fn centre(c: &Client, sq: &str) -> (i64, i64) {
    let v = js(c, &format!("const r = document.querySelector('#board [data-sq={sq}]').getBoundingClientRect(); return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]")).await;
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

fn gesture<S: InputSource<Action = PointerAction>>(src: S, a: (i64, i64), b: (i64, i64)) -> S {
    src.then(PointerAction::MoveTo { duration: None, x: a.0, y: a.1 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(100)), x: a.0 + 6, y: a.1 - 6 })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(200)), x: b.0, y: b.1 })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT })
}

/// A move by dragging with the mouse.
async fn drag_move(c: &Client, from: &str, to: &str) {
    let (a, b) = (centre(c, from).await, centre(c, to).await);
    c.perform_actions(gesture(MouseActions::new("mouse".into()), a, b)).await.unwrap();
}

/// A move by dragging with a finger (touch pointer).
async fn touch_move(c: &Client, from: &str, to: &str) {
    let (a, b) = (centre(c, from).await, centre(c, to).await);
    c.perform_actions(gesture(TouchActions::new("finger".into()), a, b)).await.unwrap();
}

fn moves_count() -> &'static str {
    "document.querySelectorAll('#moves .mv').length"
}

async fn load_fen(c: &Client, fen: &str) {
    let input = c.find(Locator::Id("fen")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(fen).await.unwrap();
    c.find(Locator::Id("fen-load")).await.unwrap().click().await.unwrap();
    let board_part = fen.split(' ').next().unwrap();
    wait_for(c, &format!("document.getElementById('fen').value.startsWith('{board_part}') && document.querySelectorAll('#moves .mv').length === 0"), "FEN loaded", 10).await;
}

async fn tab(c: &Client, name: &str) {
    c.find(Locator::Css(&format!("#tabs button[data-tab=\"{name}\"]"))).await.unwrap().click().await.unwrap();
}

async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id)).await.unwrap().click().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn browser_walkthrough() {
    let base = start_server(3).await;
    let driver = start_driver();
    let c = start_browser(&driver, "walk").await;
    let result = walkthrough(&c, &base).await;
    let _ = c.close().await;
    drop(driver);
    result
}

async fn walkthrough(c: &Client, base: &str) {
    // Screenshots of an earlier failed run would mislead.
    for e in std::fs::read_dir(shots_dir()).unwrap().flatten() {
        let _ = std::fs::remove_file(e.path());
    }
    c.goto(base).await.unwrap();
    wait_for(c, "document.querySelectorAll('#board svg.piece').length === 32", "32 pieces", 15).await;
    wait_for(c, "document.getElementById('status').textContent.includes('White to move')", "status", 10).await;
    shot(c, "01-start").await;

    // Moves by click, mouse drag and touch drag.
    click_move(c, "e2", "e4").await;
    wait_for(c, &format!("{} === 1", moves_count()), "first move", 10).await;
    drag_move(c, "e7", "e5").await;
    wait_for(c, &format!("{} === 2", moves_count()), "dragged move", 10).await;
    touch_move(c, "g1", "f3").await;
    wait_for(c, &format!("{} === 3", moves_count()), "touch move", 10).await;
    let text = js(c, "return document.getElementById('moves').textContent").await;
    assert_eq!(text, json!("1.e4e52.Nf3"));
    // An illegal target does nothing.
    click_move(c, "b8", "c6").await;
    wait_for(c, &format!("{} === 4", moves_count()), "Nc6", 10).await;
    click_square(c, "f1").await;
    click_square(c, "f6").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(js(c, &format!("return {}", moves_count())).await, json!(4));
    // Navigation back and forward.
    click(c, "nav-first").await;
    wait_for(
        c,
        "document.getElementById('fen').value.startsWith('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/')",
        "start position",
        10,
    )
    .await;
    click(c, "nav-last").await;
    wait_for(
        c,
        "document.querySelector('#moves .mv.cur') && document.querySelector('#moves .mv.cur').textContent === 'Nc6'",
        "last move",
        10,
    )
    .await;
    shot(c, "02-moves").await;

    // PGN export shows the game; flip turns the board.
    click(c, "pgn-export").await;
    wait_for(c, "document.getElementById('pgn').value.includes('1. e4 e5 2. Nf3 Nc6')", "PGN export", 10).await;
    click(c, "flip").await;
    wait_for(c, "document.querySelector('#board .sq').dataset.sq === 'h1'", "flipped board", 5).await;
    shot(c, "03-flipped-pgn").await;
    click(c, "flip").await;

    // PGN import from the text box.
    js(c, "document.getElementById('pgn').value = '[Event \"x\"]\\n\\n1. d4 d5 2. c4 e6 *'; return 1").await;
    click(c, "pgn-import").await;
    wait_for(c, "document.getElementById('moves').textContent === '1.d4d52.c4e6'", "PGN import", 10).await;

    // Promotion: the dialog offers four pieces; choose a knight.
    load_fen(c, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").await;
    click_move(c, "e7", "e8").await;
    wait_for(c, "!document.getElementById('promo').hidden", "promotion dialog", 5).await;
    shot(c, "04-promotion").await;
    assert_eq!(js(c, "return document.querySelectorAll('#promo-choices button').length").await, json!(4));
    c.find(Locator::Css("#promo-choices button[data-role=\"n\"]")).await.unwrap().click().await.unwrap();
    wait_for(c, "document.getElementById('moves').textContent.includes('e8=N')", "underpromotion", 10).await;

    // A short game against the engine: three moves each by clicking.
    click(c, "newgame").await;
    wait_for(c, &format!("{} === 0", moves_count()), "new game", 10).await;
    c.find(Locator::Id("levelval")).await.unwrap().clear().await.unwrap();
    c.find(Locator::Id("levelval")).await.unwrap().send_keys("150").await.unwrap();
    click(c, "play-start").await;
    for (i, (from, to)) in [("e2", "e4"), ("d2", "d4"), ("b1", "c3")].iter().enumerate() {
        // Our move only if the piece can go there in the game so far; else any legal move.
        let legal = js(c, &format!("return !!board.legal.find(m => m.from === '{from}' && m.to === '{to}')")).await;
        if legal == json!(true) {
            click_move(c, from, to).await;
        } else {
            let (f, t) = {
                let v = js(c, "const m = board.legal[0]; return [m.from, m.to]").await;
                (v[0].as_str().unwrap().to_string(), v[1].as_str().unwrap().to_string())
            };
            click_move(c, &f, &t).await;
        }
        wait_for(c, &format!("{} === {}", moves_count(), 2 * (i + 1)), "engine reply", 30).await;
        wait_for(c, "document.getElementById('status').textContent.includes('White to move')", "our turn", 30).await;
    }
    shot(c, "05-engine-game").await;

    // Self-play: the engine plays both sides until stopped.
    click(c, "selfplay").await;
    wait_for(c, &format!("{} >= 10", moves_count()), "self-play moves", 60).await;
    click(c, "selfplay-stop").await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let n = js(c, &format!("return {}", moves_count())).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(js(c, &format!("return {}", moves_count())).await, n, "self-play did not stop");

    // Live analysis with three lines and the evaluation bar.
    tab(c, "analysis").await;
    click(c, "an-start").await;
    wait_for(c, "document.querySelectorAll('#an-lines tbody tr').length === 3", "three analysis lines", 20).await;
    wait_for(c, "/depth [5-9]|depth \\d\\d/.test(document.getElementById('an-info').textContent)", "depth 5", 20).await;
    shot(c, "06-analysis").await;
    click(c, "an-stop").await;
    wait_for(c, "document.getElementById('an-info').textContent === 'stopped'", "analysis stopped", 5).await;

    // The forms carry the server's limits, and each refusal shows the server's own words.
    let info = js(c, "return fetch('/api/info').then((r) => r.json())").await;
    let threads = info["limits"]["threads"][1].as_u64().unwrap();
    assert_eq!(js(c, "return document.getElementById('an-threads').max").await, json!(threads.to_string()));
    assert_eq!(js(c, "return document.getElementById('fo-depth').min").await, json!("2"));
    assert_eq!(js(c, "return document.getElementById('fo-depth').max").await, json!("30"));
    js(c, &format!("document.getElementById('an-threads').value = {}; return 1", threads + 1)).await;
    click(c, "an-start").await;
    wait_for(c, "document.querySelector('#an-info .err') && /threads must be 1\\.\\.=/.test(document.getElementById('an-info').textContent)", "threads refused", 10).await;
    js(c, "document.getElementById('an-threads').value = 1; return 1").await;
    load_fen(c, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").await;
    click(c, "an-start").await;
    wait_for(c, "document.querySelector('#an-info .err') && document.getElementById('an-info').textContent.includes('checkmated')", "mated position refused", 10).await;
    shot(c, "06b-analysis-error").await;
    js(c, "document.getElementById('fen').value = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1'; return 1")
        .await;
    click(c, "fen-load").await;
    wait_for(c, "document.getElementById('status').className === 'err' && document.getElementById('status').textContent.includes('bad FEN')", "bad FEN refused", 10).await;

    // Mate solver: a mate in two, all keys.
    load_fen(c, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").await;
    tab(c, "solver").await;
    click(c, "sv-solve").await;
    wait_for(c, "document.querySelector('#sv-out .verdict') && document.querySelector('#sv-out .verdict').textContent.startsWith('Solved')", "solution", 30).await;
    shot(c, "07-solver").await;

    // Tablebase: KQK.
    load_fen(c, "8/8/8/4k3/8/8/8/4K2Q w - - 0 1").await;
    tab(c, "tablebase").await;
    click(c, "tb-probe").await;
    wait_for(c, "document.querySelectorAll('#tb-out tbody tr').length > 10", "tablebase moves", 20).await;
    assert!(js(c, "return document.querySelector('#tb-out .verdict').textContent")
        .await
        .as_str()
        .unwrap()
        .starts_with("win"));
    shot(c, "08-tablebase").await;

    // Fortress detector: curves and verdict.
    load_fen(c, "8/k7/8/P7/8/2K5/3B4/8 w - - 0 1").await;
    tab(c, "fortress").await;
    js(c, "document.getElementById('fo-depth').value = 8; return 1").await;
    click(c, "fo-run").await;
    wait_for(c, "document.getElementById('fo-verdict')", "fortress verdict", 60).await;
    assert!(js(c, "return document.querySelectorAll('#fo-out svg.plot polyline').length").await.as_u64().unwrap() >= 1);
    shot(c, "09-fortress").await;

    // Progressive chess: series entered move by move, then the mate finder.
    tab(c, "game").await;
    c.find(Locator::Id("variant")).await.unwrap().select_by_value("progressive").await.unwrap();
    wait_for(c, "!document.getElementById('prog-play').hidden && document.getElementById('prog-series').textContent.includes('series of 1')", "progressive mode", 10).await;
    click_move(c, "e2", "e4").await;
    wait_for(
        c,
        "document.getElementById('prog-series').textContent.includes('Black plays a series of 2; 0 played')",
        "black's series",
        10,
    )
    .await;
    click_move(c, "f7", "f6").await;
    wait_for(c, "document.getElementById('prog-series').textContent.includes('1 played')", "one of two", 10).await;
    click_move(c, "g7", "g5").await;
    wait_for(
        c,
        "document.getElementById('prog-series').textContent.includes('White plays a series of 3')",
        "white's series of 3",
        10,
    )
    .await;
    click(c, "prog-mate").await;
    wait_for(c, "document.getElementById('prog-mate-out').textContent.startsWith('Mate:')", "progressive mate", 30)
        .await;
    shot(c, "10-progressive").await;
    // Playing the mate found ends the game.
    click(c, "prog-mate-play").await;
    wait_for(
        c,
        "document.getElementById('status').textContent.includes('Game over: 1-0 (checkmate)')",
        "progressive mate played",
        10,
    )
    .await;

    // The computer answers a series in a game against it.
    click(c, "newgame").await;
    wait_for(c, &format!("{} === 0", moves_count()), "new progressive game", 10).await;
    click(c, "prog-start").await;
    click_move(c, "d2", "d4").await;
    wait_for(c, &format!("{} === 3", moves_count()), "computer series", 30).await;
    wait_for(
        c,
        "document.getElementById('prog-series').textContent.includes('White plays a series of 3')",
        "our series",
        30,
    )
    .await;
    shot(c, "11-progressive-vs-computer").await;

    // A phone-sized window: the board still fits and takes a touch move.
    c.set_window_size(412, 915).await.unwrap();
    c.find(Locator::Id("variant")).await.unwrap().select_by_value("standard").await.unwrap();
    wait_for(
        c,
        &format!("{} === 0 && !document.getElementById('std-play').hidden", moves_count()),
        "standard again",
        10,
    )
    .await;
    wait_for(c, "document.getElementById('board').getBoundingClientRect().right <= window.innerWidth", "board fits", 5)
        .await;
    touch_move(c, "d2", "d4").await;
    wait_for(c, &format!("{} === 1", moves_count()), "touch move on a phone", 10).await;
    shot(c, "12-phone").await;

    // No JavaScript errors made it to the status line.
    let status = js(c, "return document.getElementById('status').className").await;
    assert_ne!(status, json!("err"));
}
