//! The same-origin check on routes that start work: a page on another site
//! must not be able to start a search blind (a GET, or a POST a form can send,
//! needs no CORS preflight, so the browser would send it without asking).

use crate::error::ApiError;
use crate::host::parse_host;
use axum::extract::Request;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Why a request looks cross-site, or `None` if it may start work.
///
/// `Sec-Fetch-Site` (sent by current browsers) must be `same-origin` or `none`
/// (typed into the address bar); an `Origin` header, when present, must name the
/// host of the request's own Host header. Clients that send neither (curl,
/// scripts) are not browsers and cannot be steered by a foreign page.
pub fn cross_site_reason(headers: &HeaderMap) -> Option<String> {
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().unwrap_or("");
        if !matches!(site, "same-origin" | "none") {
            return Some(format!("Sec-Fetch-Site is {site:?}"));
        }
    }
    let origin = headers.get(header::ORIGIN)?;
    let origin = origin.to_str().unwrap_or("");
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).and_then(parse_host);
    let own = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .filter(|authority| !authority.contains('/'))
        .and_then(|authority| parse_host(authority).map(|h| (h, authority)))
        .is_some_and(|(h, authority)| {
            host.as_ref() == Some(&h) && same_port(authority, headers.get(header::HOST).and_then(|v| v.to_str().ok()))
        });
    (!own).then(|| format!("Origin {origin:?} is not this server"))
}

/// Ports equal (an absent port compared as absent: the page was loaded by that same name).
fn same_port(origin_authority: &str, host: Option<&str>) -> bool {
    let port = |s: &str| -> Option<String> {
        let tail = s.rsplit_once(']').map_or(s, |(_, t)| t);
        tail.rsplit_once(':').map(|(_, p)| p.to_string())
    };
    host.is_some_and(|h| port(h) == port(origin_authority))
}

/// Middleware for work-starting routes: cross-site requests get 403 with a JSON error.
pub async fn same_origin_only(req: Request, next: Next) -> Response {
    match cross_site_reason(req.headers()) {
        None => next.run(req).await,
        Some(why) => ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!("cross-site request refused ({why}): only this server's own page may start work"),
        }
        .into_response(),
    }
}
