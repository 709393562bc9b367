//! The page and its assets, compiled into the binary (nothing is fetched at run time).

use axum::http::header;
use axum::response::{Html, IntoResponse};

const INDEX: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");
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

/// `GET /app.js`.
pub async fn app_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS)
}

/// `GET /app.css`.
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
