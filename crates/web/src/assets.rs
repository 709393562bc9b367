//! The page and its assets, compiled into the binary (nothing is fetched at run time).
//!
//! The page's JavaScript is a set of ES modules: `/app.js` is the entry point and the modules
//! it imports are served as `/assets/NAME.js`.
//! `chessground` and `chessops` are vendored, pre-built files (see `assets/vendor/VERSIONS.md`).
//! Their style sheets are served in front of the page's own in `/app.css`.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};

const INDEX: &str = include_str!("../assets/index.html");
/// The page's entry module (public so that tests can check its imports).
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The game-tree module (public so that tests can check its imports).
pub const TREE_JS: &str = include_str!("../assets/tree.js");
/// The modules `/app.js` imports, by their file name under `/assets/`.
const MODULES: &[(&str, &str)] = &[
    ("chessground.js", include_str!("../assets/vendor/chessground.js")),
    ("chessops.js", include_str!("../assets/vendor/chessops.js")),
    ("tree.js", TREE_JS),
    ("tools.js", include_str!("../assets/tools.js")),
];
const APP_CSS: &str = concat!(
    include_str!("../assets/vendor/chessground.base.css"),
    include_str!("../assets/vendor/chessground.brown.css"),
    include_str!("../assets/vendor/chessground.cburnett.css"),
    include_str!("../assets/app.css"),
);
const FAVICON: &str = include_str!("../assets/favicon.svg");
/// The API documentation (also `docs/web-api.md` in the repository).
pub const API_DOCS: &str = include_str!("../../../docs/web-api.md");

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    (
        [(
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
        )],
        Html(INDEX),
    )
}

/// `GET /app.js`: the entry module.
pub async fn app_js() -> Response {
    script(APP_JS)
}

/// `GET /assets/NAME.js`: the modules the entry module imports.
pub async fn module(Path(name): Path<String>) -> Response {
    match MODULES.iter().find(|(n, _)| *n == name) {
        Some((_, text)) => script(text),
        None => (StatusCode::NOT_FOUND, "no such script").into_response(),
    }
}

fn script(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], body).into_response()
}

/// `GET /app.css`: chessground's board and piece styles, then the page's own.
pub async fn app_css() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS)
}

/// `GET /favicon.svg`.
pub async fn favicon() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "image/svg+xml")], FAVICON)
}

/// `GET /api`: the API documentation as plain text (Markdown).
pub async fn api_docs() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], API_DOCS)
}
