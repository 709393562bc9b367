//! End-to-end tests in a real headless Chromium driven over WebDriver
//! (fantoccini + chromedriver). Each test starts its own server on 127.0.0.1,
//! its own chromedriver and browser, and clicks through the page as a user
//! would; at most two browsers run at a time. Screenshots go to
//! `target/e2e-screenshots/`.
//!
//! Needs Debian's `chromium` and `chromium-driver` (a test without them says
//! so and passes); run with `cargo test -p bastion-web --test e2e -- --ignored`.

mod common;

use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MouseActions, PointerAction, MOUSE_BUTTON_LEFT, MOUSE_BUTTON_RIGHT,
};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;

/// Two browsers at a time: a test spends most of its time waiting on the page (clocks, streamed
/// searches), so two share two cores with their servers' searches; more would crowd them.
static BROWSERS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// chromedriver, killed when dropped (also when a test fails).
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // chromedriver leads a process group of its own with the browser it started, so a
        // failed test leaves no browser behind either.
        #[cfg(unix)]
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", self.child.id())]).status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Whether a program is on the PATH.
fn have(program: &str) -> bool {
    Command::new(program).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
}

fn start_driver() -> Driver {
    // One start at a time: a free port is only known free until chromedriver binds it, and
    // two tests starting together could otherwise be handed the same one.
    static STARTING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _starting = STARTING.lock().unwrap_or_else(|e| e.into_inner());
    let port = free_port();
    let mut cmd = Command::new("chromedriver");
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let child = cmd
        .arg(format!("--port={port}"))
        .arg("--allowed-ips=127.0.0.1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start chromedriver");
    let driver = Driver { child, port };
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    driver
}

/// A browser session on `driver` with a new profile in `profile_dir`.
async fn start_browser(driver: &Driver, profile_dir: &Path) -> Client {
    let mut opts = json!({
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1280,900", "--hide-scrollbars",
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

/// The test servers' configuration: two job slots, and the shared Syzygy files, where present,
/// so that the tablebase panel shows DTZ too.
fn server_config() -> bastion_web::Config {
    bastion_web::Config { syzygy_dir: common::syzygy_dir(), ..common::config(2) }
}

/// Serves the app on a free loopback port; returns its base URL.
async fn start_server(config: bastion_web::Config) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let state = bastion_web::AppState::new(config).unwrap();
    tokio::spawn(bastion_web::serve_on(listener, state, std::future::pending()));
    format!("http://{addr}")
}

/// A server, a chromedriver and a browser showing the page, for one test.
struct Session {
    c: Client,
    _driver: Driver,
    _turn: tokio::sync::SemaphorePermit<'static>,
    /// The browser's profile (a few MB), removed when the session ends: declared after the
    /// driver, so it is dropped once the browser is gone.
    _profile: TempDir,
}

impl Session {
    /// `None` (after saying why) when Chromium or chromedriver is not installed.
    async fn start(name: &str) -> Option<Session> {
        Session::start_with(name, server_config()).await
    }

    /// [`Session::start`] with a server of the given configuration.
    async fn start_with(name: &str, config: bastion_web::Config) -> Option<Session> {
        if !have("chromedriver") || !(have("chromium") || have("chromium-browser")) {
            eprintln!("skipping the browser test {name}: chromium and chromedriver are not installed (apt-get install chromium chromium-driver)");
            return None;
        }
        let turn = BROWSERS.acquire().await.expect("the semaphore is never closed");
        let base = start_server(config).await;
        let driver = start_driver();
        let profile = tempfile::Builder::new()
            .prefix(&format!("chromium-{name}-"))
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("cannot make the browser's profile directory");
        let c = start_browser(&driver, profile.path()).await;
        c.goto(&base).await.unwrap();
        let s = Session { c, _driver: driver, _turn: turn, _profile: profile };
        s.wait(
            "document.body.dataset.ready === '1' && document.querySelectorAll('#board cg-board piece').length === 32",
            "page ready",
            20,
        )
        .await;
        Some(s)
    }

    /// Ends the browser session (the browser exits), then chromedriver.
    async fn close(self) {
        let Session { c, _driver, _turn, _profile } = self;
        let _ = c.close().await;
        // Chromedriver (and any browser left) goes before the profile directory does.
        drop(_driver);
    }

    async fn js(&self, script: &str) -> Value {
        self.c.execute(script, vec![]).await.unwrap()
    }

    /// Polls a JavaScript expression until it is truthy.
    async fn wait(&self, expr: &str, what: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            if self.js(&format!("return !!({expr});")).await == json!(true) {
                return;
            }
            if Instant::now() > deadline {
                let status = self.js("return document.getElementById('status').textContent").await;
                self.shot(&format!("failed-{}", what.replace(' ', "-"))).await;
                panic!("timed out waiting for {what} (status: {status})");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn shot(&self, name: &str) {
        let png = self.c.screenshot().await.unwrap();
        std::fs::write(shots_dir().join(format!("{name}.png")), png).unwrap();
    }

    async fn click(&self, id: &str) {
        self.c.find(Locator::Id(id)).await.unwrap().click().await.unwrap();
    }

    async fn text(&self, css: &str) -> String {
        let v = self.js(&format!("const e = document.querySelector({css:?}); return e ? e.textContent : null")).await;
        v.as_str().unwrap_or_default().to_string()
    }

    async fn tab(&self, name: &str) {
        self.c.find(Locator::Css(&format!("#tabs button[data-tab=\"{name}\"]"))).await.unwrap().click().await.unwrap();
    }

    /// Viewport coordinates of a square's centre, from the board's place and orientation.
    async fn centre(&self, sq: &str) -> (i64, i64) {
        let v = self
            .js(&format!(
                "const b = document.querySelector('#board cg-board').getBoundingClientRect();
                 const white = document.getElementById('board').classList.contains('orientation-white');
                 let f = 'abcdefgh'.indexOf('{f}'), r = {r} - 1;
                 if (!white) {{ f = 7 - f; r = 7 - r; }}
                 return [Math.round(b.left + (f + 0.5) * b.width / 8), Math.round(b.top + (7.5 - r) * b.height / 8)]",
                f = &sq[..1],
                r = &sq[1..2]
            ))
            .await;
        (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
    }

    async fn click_square(&self, sq: &str) {
        self.board_in_view().await;
        let (x, y) = self.centre(sq).await;
        let a = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo { duration: None, x, y })
            .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
            .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
        self.c.perform_actions(a).await.unwrap();
    }

    /// A move by two clicks.
    async fn click_move(&self, from: &str, to: &str) {
        self.click_square(from).await;
        self.click_square(to).await;
    }

    /// Plays `moves` by clicks, each waiting until the move list has grown by one.
    async fn click_moves(&self, moves: &[(&str, &str)]) {
        for &(from, to) in moves {
            let n = self.moves().await;
            self.click_move(from, to).await;
            self.wait(&format!("document.querySelectorAll('#movelist move[data-id]').length === {}", n + 1), to, 10)
                .await;
        }
    }

    /// Scrolls the page to its top (where the board is) if a click elsewhere scrolled it, and
    /// gives chessground a moment to measure the board again.
    async fn board_in_view(&self) {
        if self.js("const y = window.scrollY; window.scrollTo(0, 0); return y").await != json!(0) {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// A move by dragging with the mouse.
    async fn drag_move(&self, from: &str, to: &str) {
        self.drag(from, to, MOUSE_BUTTON_LEFT).await;
    }

    /// A mouse drag from one square to another with the given button.
    async fn drag(&self, from: &str, to: &str, button: u64) {
        self.board_in_view().await;
        let (a, b) = (self.centre(from).await, self.centre(to).await);
        let m = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo { duration: None, x: a.0, y: a.1 })
            .then(PointerAction::Down { button })
            .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(100)), x: a.0 + 8, y: a.1 - 8 })
            .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(200)), x: b.0, y: b.1 })
            .then(PointerAction::Up { button });
        self.c.perform_actions(m).await.unwrap();
    }

    /// Presses keys (with Shift held when `shift`).
    async fn keys(&self, keys: &[Key], shift: bool) {
        let mut a = KeyActions::new("keyboard".into());
        if shift {
            a = a.then(KeyAction::Down { value: Key::Shift.into() });
        }
        for k in keys {
            a = a.then(KeyAction::Down { value: (*k).into() }).then(KeyAction::Up { value: (*k).into() });
        }
        if shift {
            a = a.then(KeyAction::Up { value: Key::Shift.into() });
        }
        self.c.perform_actions(a).await.unwrap();
    }

    async fn moves(&self) -> usize {
        self.js("return document.querySelectorAll('#movelist move[data-id]').length").await.as_u64().unwrap() as usize
    }

    async fn active_san(&self) -> String {
        self.text("#movelist move.active san").await
    }

    async fn set_value(&self, id: &str, value: &str) {
        self.js(&format!(
            "const e = document.getElementById({id:?}); e.value = {value:?}; e.dispatchEvent(new Event('change')); return 1"
        ))
        .await;
    }

    async fn load_fen(&self, fen: &str) {
        self.tab("pgn").await;
        self.set_value("fen", fen).await;
        self.click("fen-load").await;
        let board = fen.split(' ').next().unwrap();
        self.wait(
            &format!("document.getElementById('fen').value.startsWith('{board}') && document.querySelectorAll('#movelist move[data-id]').length === 0"),
            "FEN loaded",
            10,
        )
        .await;
    }
}

/// The screenshot folder, emptied once per run (screenshots of an earlier run would mislead).
fn shots_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().unwrap().join("e2e-screenshots");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    })
    .clone()
}

const STATUS: &str = "document.getElementById('status').textContent";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn game_to_mate_by_clicks_drag_promotion_and_flip() {
    let Some(s) = Session::start("mate").await else { return };
    // A right-button drag draws an arrow; a right click on a square a circle.
    s.drag("g1", "f3", MOUSE_BUTTON_RIGHT).await;
    s.wait("document.querySelectorAll('#board .cg-shapes line').length === 1", "an arrow", 5).await;
    s.drag("d4", "d4", MOUSE_BUTTON_RIGHT).await;
    s.wait("document.querySelectorAll('#board .cg-shapes circle').length === 1", "a circle", 5).await;
    s.shot("01-start").await;
    // Scholar's mate, by clicks and one drag.
    s.click_move("e2", "e4").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 1", "e4", 10).await;
    s.drag_move("e7", "e5").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 2", "dragged e5", 10).await;
    // An illegal target does nothing.
    s.click_move("f1", "f6").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(s.moves().await, 2);
    s.click_square("a1").await; // drop the selection
    s.click_moves(&[("f1", "c4"), ("b8", "c6"), ("d1", "h5"), ("g8", "f6"), ("h5", "f7")]).await;
    s.wait(&format!("{STATUS}.includes('Game over: 1-0 (checkmate)')"), "checkmate", 10).await;
    assert_eq!(s.active_san().await, "Qxf7#");
    assert_eq!(s.js("return document.querySelectorAll('#board square.check').length").await, json!(1));
    s.shot("02-mate").await;

    // Promotion: the chooser offers four pieces; choose a knight.
    s.load_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").await;
    s.click_move("e7", "e8").await;
    s.wait("!document.getElementById('promo').hidden", "promotion chooser", 5).await;
    assert_eq!(s.js("return document.querySelectorAll('#promo-choices button').length").await, json!(4));
    s.c.find(Locator::Css("#promo-choices button[data-role=\"n\"]")).await.unwrap().click().await.unwrap();
    s.wait("document.getElementById('movelist').textContent.includes('e8=N')", "under-promotion", 10).await;

    // Flip: the board turns and the coordinates follow.
    s.click("flip").await;
    s.wait("document.getElementById('board').classList.contains('orientation-black')", "flipped", 5).await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn variations_are_kept_and_navigated_with_keys() {
    let Some(s) = Session::start("tree").await else { return };
    s.click_moves(&[("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6")]).await;
    // Back two plies with the keyboard, then a different move: a variation, nothing cut.
    s.keys(&[Key::Left, Key::Left], false).await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'e5'", "back to e5", 5).await;
    s.click_move("f1", "c4").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 5", "variation added", 10).await;
    assert_eq!(s.active_san().await, "Bc4");
    assert_eq!(s.js("return document.querySelectorAll('#movelist interrupt line').length").await, json!(1));
    assert_eq!(s.text("#movelist interrupt line").await, "2.Bc4");
    s.shot("03-variation").await;
    // ← leaves the variation's first move; → follows the main line; Home and End.
    s.keys(&[Key::Left], false).await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'e5'", "back at the fork", 5).await;
    s.keys(&[Key::Right], false).await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'Nf3'", "main line again", 5).await;
    s.keys(&[Key::Left], false).await;
    s.keys(&[Key::Right], true).await; // Shift+→ enters the variation
    s.wait("document.querySelector('#movelist move.active san').textContent === 'Bc4'", "into the variation", 5).await;
    s.keys(&[Key::Left], true).await; // Shift+← leaves it
    s.wait("document.querySelector('#movelist move.active san').textContent === 'e5'", "out of the variation", 5).await;
    s.keys(&[Key::End], false).await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'Nc6'", "end", 5).await;
    s.keys(&[Key::Home], false).await;
    s.wait("!document.querySelector('#movelist move.active')", "start", 5).await;
    s.keys(&[Key::Down], false).await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'Nc6'", "↓ to the end", 5).await;
    s.keys(&[Key::Up], false).await;
    s.wait("!document.querySelector('#movelist move.active')", "↑ to the start", 5).await;

    // Promote the variation: Bc4 becomes the main move and Nf3 the variation.
    s.js("document.querySelector('#movelist interrupt line move').click(); return 1").await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'Bc4'", "variation selected", 5).await;
    s.click("tree-promote").await;
    s.wait("document.querySelector('#movelist interrupt line san').textContent === 'Nf3'", "promoted", 5).await;
    assert_eq!(s.text("#movelist > move.active san").await, "Bc4");
    // Delete the (now) variation Nf3 Nc6: two moves fewer, the main line stays.
    s.js("document.querySelector('#movelist interrupt line move').click(); return 1").await;
    s.click("tree-delete").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 3", "variation deleted", 5).await;
    assert_eq!(s.text("#movelist").await.replace('…', ""), "1e4e52Bc4");
    s.close().await;
}

/// An annotated game in the form the exporter writes it (tags in their order, comments with
/// clock and evaluation commands, NAGs, a variation).
const ANNOTATED: &str = r#"[Event "Paris"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Morphy, Paul"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[ECO "C41"]

1. e4 { [%clk 0:05:00] } 1... e5 { [%clk 0:05:00] } 2. Nf3 d6 3. d4 Bg4?! { This is a weak move already. [%eval 0.8] } ( 3... exd4 4. Nxd4 ) 4. dxe5 Bxf3 5. Qxf3! dxe5 6. Bc4 Nf6 7. Qb3 $14 Qe7 8. Nc3 c6 9. Bg5 b5?? 10. Nxb5! cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn annotated_pgn_round_trip() {
    let Some(s) = Session::start("pgn").await else { return };
    s.tab("pgn").await;
    s.set_value("pgn", ANNOTATED).await;
    s.click("pgn-import").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 35", "imported moves", 10).await;
    // Comments, NAGs and the variation are shown; the clock too.
    let list = s.text("#movelist").await;
    assert!(list.contains("This is a weak move already."), "{list}");
    assert!(list.contains("Bg4?!") && list.contains("Qxf3!") && list.contains("b5??"), "{list}");
    assert!(list.contains("3...exd4"), "{list}");
    assert!(list.contains("5:00"), "{list}");
    assert!(list.contains("⩲"), "{list}");
    s.shot("04-pgn-import").await;
    // Export gives back the same text.
    s.set_value("pgn", "").await;
    s.click("pgn-export").await;
    s.wait("document.getElementById('pgn').value.length > 0", "export", 5).await;
    let out = s.js("return document.getElementById('pgn').value").await;
    assert_eq!(out.as_str().unwrap(), ANNOTATED);
    // A move added in the variation is exported inside it.
    s.js("[...document.querySelectorAll('#movelist move')].find((m) => m.textContent.includes('Nxd4')).click(); return 1").await;
    s.click_move("g8", "f6").await;
    s.wait("document.getElementById('movelist').textContent.includes('Nxd4Nf6')", "move in the variation", 10).await;
    s.click("pgn-export").await;
    s.wait("document.getElementById('pgn').value.includes('( 3... exd4 4. Nxd4 Nf6 )')", "variation exported", 5).await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn analysis_lines_graph_and_full_game_analysis() {
    let Some(s) = Session::start("analysis").await else { return };
    s.tab("pgn").await;
    s.set_value(
        "pgn",
        "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 Qxg2 6. Rf1 Qxe4+ 7. Be2 Nf3# 0-1\n",
    )
    .await;
    s.click("pgn-import").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 14", "game imported", 10).await;
    // Full-game analysis: every main-line position gets an evaluation, stored as [%eval].
    s.set_value("fa-ms", "40").await;
    s.click("fa-start").await;
    s.wait("document.getElementById('fa-progress').textContent.startsWith('done')", "full analysis", 60).await;
    assert!(s.js("return document.querySelectorAll('#graph .curve').length").await.as_u64().unwrap() == 1);
    assert!(s.js("return document.querySelectorAll('#graph .mark').length").await.as_u64().unwrap() >= 1);
    assert!(s.js("return document.querySelectorAll('#movelist move.blunder').length").await.as_u64().unwrap() >= 1);
    s.tab("pgn").await;
    s.click("pgn-export").await;
    s.wait("(document.getElementById('pgn').value.match(/\\[%eval /g) || []).length >= 13", "evals exported", 5).await;
    s.shot("05-full-analysis").await;
    // Cancel stops a running full-game analysis.
    s.set_value("fa-ms", "500").await;
    s.click("fa-start").await;
    s.wait("!document.getElementById('fa-cancel').hidden", "cancel shown", 5).await;
    s.click("fa-cancel").await;
    s.wait("document.getElementById('fa-progress').textContent.includes('cancelled')", "cancelled", 5).await;

    // Live analysis of one position: three lines beside the moves.
    s.js("[...document.querySelectorAll('#movelist move')].find((m) => m.textContent.includes('Nxe5')).click(); return 1").await;
    s.click("an-toggle").await;
    s.wait("document.querySelectorAll('#an-lines .pv').length === 3", "three engine lines", 20).await;
    s.wait("/depth ([6-9]|\\d\\d)/.test(document.getElementById('an-info').textContent)", "depth 6", 30).await;
    // The best move is drawn as an arrow (by the board's next animation frame, so waited
    // for rather than read at once); the evaluation bar and number are filled.
    s.wait("document.querySelectorAll('#board .cg-shapes line').length >= 1", "best-move arrow", 5).await;
    assert_ne!(s.text("#an-eval").await, "");
    s.tab("play").await;
    // The README's picture: a 1280×900 page (the window is made taller by the browser's own frame).
    let frame = s.js("return window.outerHeight - window.innerHeight").await.as_u64().unwrap_or(0) as u32;
    s.c.set_window_size(1280, 900 + frame).await.unwrap();
    s.wait("window.innerHeight >= 900", "a 900 px high page", 5).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    s.shot("analysis-board").await;
    s.c.set_window_size(1280, 900).await.unwrap();
    // A click on the second move of the first line plays both moves into the tree.
    let first = s
        .js("return [...document.querySelectorAll('#an-lines .pv')][0].querySelectorAll('.pvmove')[1].textContent")
        .await;
    let first = first.as_str().unwrap().split(' ').next_back().unwrap().to_string();
    s.js("document.querySelectorAll('#an-lines .pv')[0].querySelectorAll('.pvmove')[1].click(); return 1").await;
    s.wait(
        &format!("document.querySelector('#movelist move.active san').textContent === {first:?}"),
        "line played",
        10,
    )
    .await;
    // Two plies after Nxe5: the move list shows the line's second move as the current one.
    let ply = s.js("return document.querySelector('#movelist move.active index') ? document.querySelector('#movelist move.active index').textContent : document.querySelector('#movelist move.active').previousElementSibling.textContent").await;
    assert!(ply.as_str().unwrap().starts_with('5'), "{ply}");
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn play_the_engine_with_clocks_and_self_play() {
    let Some(s) = Session::start("play").await else { return };
    s.set_value("levelval", "100").await;
    s.set_value("tc", "3+2").await;
    s.click("play-start").await;
    s.wait("!document.getElementById('clock-bottom').hidden", "clocks", 5).await;
    s.click_move("e2", "e4").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 2", "engine reply", 30).await;
    s.wait(&format!("{STATUS}.includes('White to move')"), "our turn", 30).await;
    assert_ne!(s.text("#evaltext").await, "", "the eval is shown during play");
    // The clock runs: White's time goes down from 3:00 while White thinks.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let t = s.text("#clock-bottom .time").await;
    assert!(t.starts_with("2:5") || t.starts_with("3:0"), "{t}");
    assert!(s.js("return document.getElementById('clock-bottom').classList.contains('running')").await == json!(true));
    // Takeback removes the engine's reply and our move.
    s.click("takeback").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 0", "takeback", 10).await;
    // A premove made while the engine thinks is played as soon as it has moved.
    s.set_value("levelval", "1500").await;
    s.click_move("d2", "d4").await;
    s.click_move("g1", "f3").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 4", "premove played and answered", 30)
        .await;
    s.wait(&format!("{STATUS}.includes('White to move')"), "our turn again", 30).await;
    assert_eq!(s.text("#movelist > move:nth-of-type(3) san").await, "Nf3");
    s.shot("06-play").await;
    // Resign ends the game.
    s.click("resign").await;
    s.wait(&format!("{STATUS}.includes('Game over: 0-1 (white resigned)')"), "resigned", 5).await;

    // Self-play: moves come and the evaluation bar is filled; Stop stops it.
    s.click("newgame").await;
    s.click("selfplay").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length >= 4", "self-play moves", 60).await;
    assert_ne!(s.text("#evaltext").await, "");
    s.click("selfplay-stop").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let n = s.moves().await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(s.moves().await, n, "self-play did not stop");
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn solver_tablebase_fortress_and_editor_panels() {
    let Some(s) = Session::start("panels").await else { return };
    // Tablebase: KQK, every move listed; a click plays it.
    s.load_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1").await;
    s.tab("tablebase").await;
    s.wait("document.querySelectorAll('#tb-out tbody tr').length > 10", "tablebase moves", 20).await;
    assert!(s.text("#tb-out .verdict").await.starts_with("win"));
    if common::syzygy_dir().is_some() {
        // Syzygy beside the DTM: the position's WDL and DTZ, and a DTZ for every move.
        s.wait("document.querySelector('#tb-out .note')?.textContent.includes('DTZ')", "Syzygy DTZ", 10).await;
        let headers =
            s.js("return [...document.querySelectorAll('#tb-out th')].map((t) => t.textContent).join(',')").await;
        assert_eq!(headers.as_str(), Some("move,result,DTM,DTZ"));
        let empty_dtz =
            s.js("return [...document.querySelectorAll('#tb-out tbody tr')].filter((r) => r.cells[3].textContent === '').length").await;
        assert_eq!(empty_dtz.as_u64(), Some(0), "every KQK move has a DTZ");
    }
    s.shot("07-tablebase").await;
    s.js("document.querySelector('#tb-out tbody tr').click(); return 1").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 1", "tablebase move played", 10).await;
    s.wait("document.querySelectorAll('#tb-out tbody tr').length > 0", "probe after the move", 20).await;

    // Mate solver: a mate in two, with progress.
    s.load_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").await;
    s.tab("solver").await;
    s.click("sv-solve").await;
    s.wait("document.querySelector('#sv-out .verdict') && document.querySelector('#sv-out .verdict').textContent.startsWith('Solved')", "solution", 30).await;
    assert!(s.text("#sv-progress").await.starts_with("done in"));
    assert!(s.text("#sv-out").await.contains("Rd8#"));

    // Fortress detector with a short depth: curves, verdict, evidence; the plot fits its panel.
    s.load_fen("8/k7/8/P7/8/2K5/3B4/8 w - - 0 1").await;
    s.tab("fortress").await;
    s.set_value("fo-depth", "6").await;
    s.click("fo-run").await;
    s.wait("!document.getElementById('fo-cancel').hidden", "fortress running", 5).await;
    s.wait("document.getElementById('fo-verdict')", "fortress verdict", 90).await;
    assert!(s.js("return document.querySelectorAll('#fo-out svg.plot polyline').length").await.as_u64().unwrap() >= 1);
    assert!(s.text("#fo-out").await.contains("Evidence"));
    let fits = s
        .js("const p = document.getElementById('panel-fortress').getBoundingClientRect(); const g = document.querySelector('#fo-out svg.plot').getBoundingClientRect(); return g.left >= p.left && g.right <= p.right + 0.5")
        .await;
    assert_eq!(fits, json!(true), "the plot is wider than its panel");
    s.shot("08-fortress").await;
    // Cancel stops a fortress run (the server's job is freed as the request closes).
    s.set_value("fo-depth", "30").await;
    s.click("fo-run").await;
    s.wait("!document.getElementById('fo-cancel').hidden", "fortress running again", 5).await;
    s.click("fo-cancel").await;
    s.wait("document.getElementById('fo-progress').textContent.startsWith('cancelled')", "fortress cancelled", 5).await;

    // Board editor: clear the board, place two kings and a rook, analyse the position.
    s.tab("editor").await;
    s.click("ed-clear").await;
    for (piece, sq) in [("K", "e1"), ("k", "e8"), ("R", "a1")] {
        s.js(&format!("document.querySelector('#ed-palette button[data-tool=\"{piece}\"]').click(); return 1")).await;
        s.click_square(sq).await;
    }
    s.wait("document.getElementById('ed-fen').value.startsWith('4k3/8/8/8/8/8/8/R3K3 w')", "editor FEN", 5).await;
    s.click("ed-done").await;
    s.wait("document.getElementById('fen').value === '4k3/8/8/8/8/8/8/R3K3 w - - 0 1'", "edited position loaded", 5)
        .await;
    // A position with no black king is refused in the server's words.
    s.tab("editor").await;
    s.set_value("ed-fen", "8/8/8/8/8/8/8/R3K3 w - - 0 1").await;
    s.click("ed-done").await;
    s.wait("document.querySelector('#ed-out .err')", "bad position refused", 5).await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn progressive_game_moves() {
    let Some(s) = Session::start("progressive").await else { return };
    s.c.find(Locator::Id("variant")).await.unwrap().select_by_value("progressive").await.unwrap();
    s.wait("!document.getElementById('prog-play').hidden && document.getElementById('prog-series').textContent.includes('series of 1')", "progressive mode", 10).await;
    s.click_move("e2", "e4").await;
    s.wait(
        "document.getElementById('prog-series').textContent.includes('Black plays a series of 2; 0 played')",
        "black's series",
        10,
    )
    .await;
    s.click_move("f7", "f6").await;
    s.wait("document.getElementById('prog-series').textContent.includes('1 played')", "one of two", 10).await;
    s.click_move("g7", "g5").await;
    s.wait(
        "document.getElementById('prog-series').textContent.includes('White plays a series of 3')",
        "white's series of 3",
        10,
    )
    .await;
    s.click("prog-mate").await;
    s.wait("document.getElementById('prog-mate-out').textContent.startsWith('Mate:')", "progressive mate", 30).await;
    s.click("prog-mate-play").await;
    s.wait(&format!("{STATUS}.includes('Game over: 1-0 (checkmate)')"), "progressive mate played", 10).await;
    s.shot("09-progressive").await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn errors_show_the_servers_words_and_forms_its_limits() {
    let Some(s) = Session::start("errors").await else { return };
    let info = s.js("return fetch('/api/info').then((r) => r.json())").await;
    let limits = &info["limits"];
    for (id, key) in [
        ("an-threads", "threads"),
        ("an-multipv", "multipv"),
        ("fo-depth", "fortress_depth"),
        ("fo-moves", "fortress_moves"),
        ("levelval", "movetime_ms"),
    ] {
        let (lo, hi) = (limits[key][0].to_string(), limits[key][1].to_string());
        assert_eq!(s.js(&format!("return document.getElementById('{id}').min")).await, json!(lo), "{id} min");
        assert_eq!(s.js(&format!("return document.getElementById('{id}').max")).await, json!(hi), "{id} max");
    }
    // Too many threads.
    let threads = limits["threads"][1].as_u64().unwrap();
    s.js(&format!("document.getElementById('an-threads').value = {}; return 1", threads + 1)).await;
    s.click("an-toggle").await;
    s.wait("document.querySelector('#an-info .err') && /threads must be 1\\.\\.=/.test(document.getElementById('an-info').textContent)", "threads refused", 10).await;
    s.click("an-toggle").await;
    s.js("document.getElementById('an-threads').value = 1; return 1").await;
    // A mated position.
    s.load_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").await;
    s.click("an-toggle").await;
    s.wait("document.querySelector('#an-info .err') && document.getElementById('an-info').textContent.includes('checkmated')", "mated position refused", 10).await;
    s.shot("10-errors").await;
    s.click("an-toggle").await;
    // A bad FEN.
    s.tab("pgn").await;
    s.set_value("fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1").await;
    s.click("fen-load").await;
    s.wait("document.getElementById('status').className === 'err' && document.getElementById('status').textContent.includes('bad FEN')", "bad FEN refused", 10).await;
    // A PGN with an illegal move names it.
    s.set_value("pgn", "1. e4 e5 2. Ke3 *").await;
    s.click("pgn-import").await;
    s.wait("document.getElementById('status').textContent.includes('illegal move Ke3')", "illegal PGN move", 10).await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn phone_layout_has_one_column_and_no_overflow() {
    let Some(s) = Session::start("phone").await else { return };
    // A 390×844 page (the window is made taller by the browser's own frame).
    let frame = s.js("return window.outerHeight - window.innerHeight").await.as_u64().unwrap_or(0) as u32;
    s.c.set_window_size(390, 844 + frame).await.unwrap();
    s.wait("window.innerWidth <= 390 && window.innerHeight >= 844", "a phone-sized page", 5).await;
    s.click_move("e2", "e4").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 1", "a move on the phone", 10).await;
    s.click("an-toggle").await;
    s.wait("document.querySelectorAll('#an-lines .pv').length >= 1", "engine line on the phone", 20).await;
    let overflow = s.js("return document.documentElement.scrollWidth - window.innerWidth").await;
    assert!(overflow.as_i64().unwrap() <= 0, "horizontal overflow of {overflow} px");
    let board = s
        .js("const b = document.querySelector('#board cg-board').getBoundingClientRect(); return [b.left, b.right, b.width]")
        .await;
    assert!(board[0].as_f64().unwrap() >= 0.0 && board[1].as_f64().unwrap() <= 390.0, "board off screen: {board}");
    assert!(board[2].as_f64().unwrap() >= 300.0, "board too small: {board}");
    // One column: the move list is below the board.
    let below = s
        .js("return document.getElementById('movelist').getBoundingClientRect().top >= document.querySelector('#board cg-board').getBoundingClientRect().bottom")
        .await;
    assert_eq!(below, json!(true));
    // Coordinates sit outside the squares: rank labels left of the board, file labels below it.
    let coords = s
        .js("const b = document.querySelector('#board cg-board').getBoundingClientRect();
             const r = document.querySelector('#board coords.ranks').getBoundingClientRect();
             const f = document.querySelector('#board coords.files').getBoundingClientRect();
             return r.right <= b.left + 0.5 && f.top >= b.bottom - 0.5")
        .await;
    assert_eq!(coords, json!(true), "coordinates over the squares");
    s.shot("11-phone").await;
    s.close().await;
}

/// Starts recording, at every change inside `#{out}`, how many `rows` it holds and whether
/// `result` is there yet: the test then sees what the page showed before the answer came.
async fn watch_panel(s: &Session, out: &str, rows: &str, result: &str) {
    s.js(&format!(
        "window.__seen = [];
         new MutationObserver(() => window.__seen.push([document.querySelectorAll({rows:?}).length, !!document.querySelector({result:?})]))
           .observe(document.getElementById({out:?}), {{ childList: true, subtree: true }});
         return 1"
    ))
    .await;
}

/// Whether the watched panel ever showed progress rows without the answer.
async fn progress_seen_before_result(s: &Session) -> bool {
    s.js("return window.__seen.some(([rows, result]) => rows > 0 && !result)").await == json!(true)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn solver_streams_its_iterations_and_cancels() {
    let Some(s) = Session::start("solver-stream").await else { return };
    // Black mates in three, asked as #5: lengths 1 and 2 fail, 3 is found, then every key.
    s.load_fen("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1").await;
    s.tab("solver").await;
    s.set_value("sv-stip", "#5").await;
    watch_panel(&s, "sv-out", "#sv-iters tbody tr", "#sv-out .verdict").await;
    s.click("sv-solve").await;
    s.wait("document.querySelector('#sv-out .verdict')", "solver result", 60).await;
    assert!(progress_seen_before_result(&s).await, "no iteration was shown before the result");
    let rows = s.js("return [...document.querySelectorAll('#sv-iters tbody tr')].map((r) => r.cells[0].textContent + ' ' + r.cells[1].textContent)").await;
    assert_eq!(rows, json!(["#1 none", "#2 none", "#3 solution"]));
    assert!(s.text("#sv-out .verdict").await.starts_with("Solved"));
    assert!(s.text("#sv-out").await.contains("Bc5+"));
    s.shot("12-solver-iterations").await;
    // A long solve shows its first iterations and stops at Cancel; the server is free again.
    s.load_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").await;
    s.tab("solver").await;
    s.set_value("sv-stip", "#12").await;
    s.click("sv-solve").await;
    s.wait("document.querySelectorAll('#sv-iters tbody tr').length >= 2", "first iterations", 30).await;
    assert!(s.text("#sv-progress").await.contains(" tried"), "{}", s.text("#sv-progress").await);
    s.click("sv-cancel").await;
    s.wait("document.getElementById('sv-progress').textContent.startsWith('cancelled')", "solver cancelled", 5).await;
    s.load_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").await;
    s.tab("solver").await;
    s.set_value("sv-stip", "#2").await;
    s.click("sv-solve").await;
    s.wait("document.querySelector('#sv-out .verdict')?.textContent.startsWith('Solved')", "solved after a cancel", 30)
        .await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn fortress_streams_its_depths() {
    // No tables: they would decide this four-man ending before any search.
    let config = bastion_web::Config { tb_dir: None, syzygy_dir: None, ..server_config() };
    let Some(s) = Session::start_with("fortress-stream", config).await else { return };
    s.load_fen("8/k7/8/P7/8/2K5/3B4/8 w - - 0 1").await;
    s.tab("fortress").await;
    s.set_value("fo-depth", "10").await;
    s.set_value("fo-moves", "2").await;
    watch_panel(&s, "fo-out", "#fo-log .fo-depth", "#fo-verdict").await;
    s.click("fo-run").await;
    s.wait("document.querySelectorAll('#fo-log .fo-depth').length >= 1", "a first depth", 60).await;
    s.wait("document.querySelectorAll('#fo-lines tbody tr').length >= 1", "a first line", 60).await;
    assert!(s.text("#fo-progress").await.starts_with("running…"), "{}", s.text("#fo-progress").await);
    s.shot("13-fortress-depths").await;
    s.wait("document.getElementById('fo-verdict')", "fortress verdict", 120).await;
    assert!(progress_seen_before_result(&s).await, "no depth was shown before the verdict");
    // The depths came in order, and the log stays beside the answer.
    let depths = s.js("return [...document.querySelectorAll('#fo-log .fo-depth')].map((d) => +d.dataset.depth)").await;
    let depths: Vec<i64> = depths.as_array().unwrap().iter().map(|d| d.as_i64().unwrap()).collect();
    assert!(depths.len() >= 3 && depths.windows(2).all(|w| w[0] < w[1]) && *depths.last().unwrap() <= 10, "{depths:?}");
    assert!(s.js("return document.querySelectorAll('#fo-out svg.plot polyline').length").await.as_u64().unwrap() >= 1);
    // The curves' points came in as the search went: one row of lines per depth reached.
    let rows = s.js("return [...document.querySelectorAll('#fo-lines tbody tr')].map((r) => +r.dataset.depth)").await;
    let rows: Vec<i64> = rows.as_array().unwrap().iter().map(|d| d.as_i64().unwrap()).collect();
    assert!(rows.len() >= 3 && rows.windows(2).all(|w| w[0] > w[1]), "{rows:?}");
    let best = s.text("#fo-lines tbody tr td:nth-child(2)").await;
    assert!(best.contains('+') || best.contains('#') || best.contains("0.00"), "{best}");
    s.close().await;
}

/// A scripted engine for the fortress detector (see `bastion-test-engine`): every root move of
/// the wrong-bishop ending is flat, but after Be3 Black's every reply gets worse with depth.
fn breakthrough_engine() -> Vec<String> {
    bastion_test_engine::scenario_command("default 30 0\npathdefault d2e3 100 -15\npathdefault c3b4 -500 0\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn fortress_breakthrough_candidates_are_tabled() {
    // No tables: they would decide this four-man ending before any search.
    let config = bastion_web::Config {
        uci_engine: Some(breakthrough_engine()),
        tb_dir: None,
        syzygy_dir: None,
        ..server_config()
    };
    let Some(s) = Session::start_with("breakthrough", config).await else { return };
    s.load_fen("8/k7/8/P7/8/2K5/3B4/8 w - - 0 1").await;
    s.tab("fortress").await;
    s.set_value("fo-depth", "12").await;
    s.js("document.getElementById('fo-break').checked = true; return 1").await;
    s.click("fo-run").await;
    s.wait("document.getElementById('fo-verdict')", "fortress verdict", 60).await;
    assert!(s.text("#fo-verdict").await.contains("fortress"), "{}", s.text("#fo-verdict").await);
    s.wait("document.querySelector('table.breakthroughs')", "breakthrough table", 5).await;
    let rows = s
        .js("return [...document.querySelectorAll('table.breakthroughs tbody tr')].map((r) => [...r.cells].map((c) => c.textContent))")
        .await;
    // Be3+ ends at -1.00 + 11 × 0.15 at depth 12, above the flat moves, and every reply rises.
    assert_eq!(rows, json!([["Be3+", "0.65 at depth 12", "yes", "yes"]]));
    let note = s.text("#panel-fortress h3 + .note").await;
    assert_eq!(note, "1 candidate; its replies followed");
    s.js("document.querySelector('table.breakthroughs').scrollIntoView({ block: 'center' }); return 1").await;
    s.shot("14-breakthrough").await;
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn reload_keeps_the_game_tree() {
    let Some(s) = Session::start("reload").await else { return };
    s.click_moves(&[("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6")]).await;
    // A variation at move 2, a comment-free NAG-free tree; then back into the main line, flipped.
    s.keys(&[Key::Left, Key::Left], false).await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'e5'", "back to e5", 5).await;
    s.click_move("f1", "c4").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 5", "variation", 10).await;
    s.js("[...document.querySelectorAll('#movelist > move')].find((m) => m.textContent.includes('Nf3')).click(); return 1").await;
    s.wait("document.querySelector('#movelist move.active san').textContent === 'Nf3'", "Nf3 shown", 5).await;
    s.click("flip").await;
    let before = s.text("#movelist").await;
    s.c.refresh().await.unwrap();
    s.wait("document.body.dataset.ready === '1'", "page reloaded", 20).await;
    assert_eq!(s.text("#movelist").await, before);
    assert_eq!(s.active_san().await, "Nf3");
    assert_eq!(s.text("#movelist interrupt line").await, "2.Bc4");
    assert!(
        s.js("return document.getElementById('board').classList.contains('orientation-black')").await == json!(true)
    );
    assert_eq!(
        s.js("return document.getElementById('fen').value").await,
        json!("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    );
    // A new game clears what was kept.
    s.click("newgame").await;
    s.c.refresh().await.unwrap();
    s.wait("document.body.dataset.ready === '1'", "page reloaded again", 20).await;
    assert_eq!(s.moves().await, 0);
    // Stored data that is not a sound tree is dropped; the page starts as new.
    for bad in [
        "{not json",
        "{\"pgn\": 42}",
        "{\"pgn\": \"1. e4 e5 2. Ke3 *\"}",
        "null",
        "{\"pgn\": \"1. e4 *\", \"path\": [7, \"x\"], \"orientation\": \"sideways\"}",
    ] {
        s.js(&format!("localStorage.setItem('bastion.tree.v1', {bad:?}); return 1")).await;
        s.c.refresh().await.unwrap();
        s.wait(
            "document.body.dataset.ready === '1' && document.querySelectorAll('#board cg-board piece').length >= 31",
            "page with bad stored data",
            20,
        )
        .await;
        assert_ne!(s.js("return document.getElementById('status').className").await, json!("err"), "{bad}");
        // Only the last holds a sound game (1. e4); its path and orientation make no sense.
        let sound = bad.contains("1. e4 *");
        assert_eq!(s.moves().await, usize::from(sound), "{bad}");
        assert!(
            s.js("return document.getElementById('board').classList.contains('orientation-white')").await
                == json!(true)
        );
    }
    assert!(s.js("return !document.querySelector('#movelist move.active')").await == json!(true), "shown at the start");
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn offer_draw_is_accepted_only_when_the_engine_is_not_better() {
    let Some(s) = Session::start("draw").await else { return };
    s.set_value("levelval", "200").await;
    s.set_value("tc", "0+0").await;
    // Two queens down, the engine declines...
    s.load_fen("qq2k3/8/8/8/8/8/8/4K3 w - - 0 1").await;
    s.tab("play").await;
    s.click("play-start").await;
    s.wait("!document.getElementById('game-actions').hidden", "game started", 5).await;
    s.click("draw-offer").await;
    s.wait(&format!("{STATUS}.includes('Bastion declines the draw')"), "draw declined", 20).await;
    // ...two queens up, it accepts.
    s.load_fen("4k3/8/8/8/8/8/8/QQ2K3 w - - 0 1").await;
    s.tab("play").await;
    s.click("play-start").await;
    s.wait("!document.getElementById('game-actions').hidden", "game started again", 5).await;
    s.click("draw-offer").await;
    s.wait(&format!("{STATUS}.includes('Game over: 1/2-1/2 (draw agreed)')"), "draw agreed", 20).await;
    assert!(s.js("return document.getElementById('game-actions').hidden").await == json!(true));
    s.tab("pgn").await;
    s.click("pgn-export").await;
    s.wait("document.getElementById('pgn').value.includes('[Result \"1/2-1/2\"]')", "result exported", 5).await;
    s.close().await;
}

/// Adds a time control of `secs` seconds a side (no increment) to the clock menu and picks it.
async fn short_clock(s: &Session, secs: u32) {
    let mins = f64::from(secs) / 60.0;
    s.js(&format!(
        "const tc = document.getElementById('tc'); tc.add(new Option('{secs} s', '{mins}+0')); tc.value = '{mins}+0'; return 1"
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn a_flag_fall_loses_on_time_or_draws_without_mating_material() {
    let Some(s) = Session::start("flag").await else { return };
    s.set_value("levelval", "50").await;
    s.set_value("play-color", "w").await;
    short_clock(&s, 6).await;
    s.click("play-start").await;
    s.wait("!document.getElementById('clock-bottom').hidden", "clocks", 5).await;
    // White's clock starts after Black's first reply; then White waits until the flag falls.
    s.click_move("e2", "e4").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 2", "engine reply", 30).await;
    s.wait(&format!("{STATUS}.includes('Game over')"), "flag fall", 20).await;
    assert!(s.text("#status").await.contains("Game over: 0-1 (white ran out of time)"), "{}", s.text("#status").await);
    assert_eq!(s.text("#clock-bottom .time").await, "0:00");
    assert!(s.js("return document.getElementById('clock-bottom').classList.contains('running')").await == json!(false));
    s.tab("pgn").await;
    s.click("pgn-export").await;
    s.wait("document.getElementById('pgn').value.includes('[Result \"0-1\"]')", "loss exported", 5).await;
    s.shot("15-flag").await;
    // The flag of a side whose opponent has a bare king is a draw.
    s.load_fen("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1").await;
    s.tab("play").await;
    short_clock(&s, 6).await;
    s.click("play-start").await;
    s.click_move("a1", "a7").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 2", "engine reply", 30).await;
    s.wait(&format!("{STATUS}.includes('Game over')"), "second flag fall", 20).await;
    assert!(
        s.text("#status").await.contains("Game over: 1/2-1/2 (white ran out of time; black cannot mate)"),
        "{}",
        s.text("#status").await
    );
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn pgn_file_picker_imports_a_game() {
    let Some(s) = Session::start("pgn-file").await else { return };
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("e2e-morphy-{}.pgn", std::process::id()));
    std::fs::write(&file, ANNOTATED).unwrap();
    s.tab("pgn").await;
    let input = s.c.find(Locator::Id("pgn-file")).await.unwrap();
    input.send_keys(&file.display().to_string()).await.unwrap();
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 35", "game from the file", 10).await;
    assert!(s.text("#movelist").await.contains("This is a weak move already."));
    assert_eq!(s.js("return document.getElementById('pgn').value").await, json!(ANNOTATED));
    s.set_value("pgn", "").await;
    s.click("pgn-export").await;
    s.wait("document.getElementById('pgn').value.length > 0", "export", 5).await;
    assert_eq!(s.js("return document.getElementById('pgn').value").await, json!(ANNOTATED));
    // The same file again (the picker is reset after each file, so choosing it again works).
    s.click("newgame").await;
    input.send_keys(&file.display().to_string()).await.unwrap();
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 35", "the same file again", 10).await;
    let _ = std::fs::remove_file(&file);
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn touch_drag_moves_a_piece() {
    let Some(s) = Session::start("touch").await else { return };
    let (a, b) = (s.centre("g1").await, s.centre("f3").await);
    let t = fantoccini::actions::TouchActions::new("finger".into())
        .then(PointerAction::MoveTo { duration: None, x: a.0, y: a.1 })
        .then(PointerAction::Down { button: MOUSE_BUTTON_LEFT })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(100)), x: a.0 + 6, y: a.1 - 6 })
        .then(PointerAction::MoveTo { duration: Some(Duration::from_millis(250)), x: b.0, y: b.1 })
        .then(PointerAction::Up { button: MOUSE_BUTTON_LEFT });
    s.c.perform_actions(t).await.unwrap();
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 1", "a touch-dragged move", 10).await;
    assert_eq!(s.active_san().await, "Nf3");
    // The page did not scroll under the finger.
    assert_eq!(s.js("return window.scrollY").await, json!(0));
    s.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium + chromedriver; run by .ci/run"]
async fn moves_make_their_sounds_unless_sound_is_off() {
    let Some(s) = Session::start("sound").await else { return };
    // A stand-in for WebAudio records the pitch of every tone the page plays.
    s.js("window.__tones = [];
          window.AudioContext = class {
            constructor() { this.currentTime = 0; this.destination = {}; }
            createOscillator() {
              const o = { frequency: {}, type: '', connect: (g) => g, start: () => window.__tones.push(o.frequency.value), stop: () => {} };
              return o;
            }
            createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; }
          };
          return 1")
        .await;
    let tones = || async { s.js("return window.__tones.splice(0)").await };
    // A quiet move, a capture and a check each have their own tone.
    s.load_fen("4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1").await;
    s.click_move("e1", "f2").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 1", "Kf2", 10).await;
    assert_eq!(tones().await, json!([480]));
    s.click_move("d5", "e4").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 2", "dxe4", 10).await;
    assert_eq!(tones().await, json!([330]));
    s.click_move("a1", "a8").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 3", "Ra8+", 10).await;
    assert_eq!(tones().await, json!([700]));
    // With the box unticked the page is silent.
    s.js("document.getElementById('sound').click(); return 1").await;
    s.click_move("e8", "d7").await;
    s.wait("document.querySelectorAll('#movelist move[data-id]').length === 4", "Kd7", 10).await;
    assert_eq!(tones().await, json!([]));
    s.close().await;
}
