//! The Host-header check against DNS rebinding: a page elsewhere could
//! otherwise reach this loopback server under a name its attacker controls.

use crate::error::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

/// The host part of a Host header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostName {
    /// An IP address literal (IPv6 written in brackets in the header).
    Ip(IpAddr),
    /// A DNS name, lowercased.
    Name(String),
}

/// Parses a Host header value as `host[:port]` (RFC 9110 §7.2): an IPv4 address,
/// a bracketed IPv6 address or a DNS name, then an optional decimal port.
/// Anything else (user info, a second colon, an empty or out-of-range port) is `None`.
pub fn parse_host(value: &str) -> Option<HostName> {
    let (host, port) = if let Some(rest) = value.strip_prefix('[') {
        let (inner, after) = rest.split_once(']')?;
        let ip: Ipv6Addr = inner.parse().ok()?;
        (HostName::Ip(IpAddr::V6(ip)), after)
    } else {
        let end = value.find(':').unwrap_or(value.len());
        let (name, after) = value.split_at(end);
        let host = match name.parse::<Ipv4Addr>() {
            Ok(ip) => HostName::Ip(IpAddr::V4(ip)),
            Err(_) if is_dns_name(name) => HostName::Name(name.to_ascii_lowercase()),
            Err(_) => return None,
        };
        (host, after)
    };
    match port.strip_prefix(':') {
        None if port.is_empty() => Some(host),
        Some(p) if !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()) => {
            p.parse::<u16>().ok().map(|_| host)
        }
        _ => None,
    }
}

/// Letters, digits and hyphens in dot-separated labels of 1..=63 characters.
fn is_dns_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.')
            .all(|l| !l.is_empty() && l.len() <= 63 && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// Which hosts the server answers to: loopback addresses, `localhost`, and the
/// names and addresses listed (`--allow-host`, and the address it is bound to).
#[derive(Debug, Clone, Default)]
pub struct HostPolicy {
    allowed: Vec<HostName>,
}

impl HostPolicy {
    /// A policy admitting `names` besides loopback; an entry that is not a valid
    /// host is an error, so a typo does not silently leave the server unreachable.
    pub fn new(names: &[String]) -> anyhow::Result<HostPolicy> {
        let allowed = names
            .iter()
            .map(|n| {
                let n = n.trim();
                // A bare IPv6 address is accepted without brackets on the command line.
                let parsed = match n.parse::<Ipv6Addr>() {
                    Ok(ip) => Some(HostName::Ip(IpAddr::V6(ip))),
                    Err(_) => parse_host(n),
                };
                parsed.ok_or_else(|| anyhow::anyhow!("allowed host {n:?} is not a host name or IP address"))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(HostPolicy { allowed })
    }

    /// True if a request with this Host header may be served.
    pub fn admits(&self, value: &str) -> bool {
        let Some(host) = parse_host(value) else { return false };
        let local = match &host {
            HostName::Ip(ip) => ip.to_canonical().is_loopback(),
            HostName::Name(n) => n == "localhost",
        };
        local || self.allowed.contains(&host)
    }
}

/// Middleware: a Host header this server does not answer to gets 403 with a JSON error.
/// Requests without a Host header (HTTP/1.0 scripts) pass: every browser sends one.
pub async fn check_host(State(policy): State<Arc<HostPolicy>>, req: Request, next: Next) -> Response {
    let host = match req.headers().get(header::HOST) {
        None => return next.run(req).await,
        Some(h) => h.to_str().unwrap_or(""),
    };
    if policy.admits(host) {
        next.run(req).await
    } else {
        ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!(
                "host {host:?} not allowed: this server answers to loopback addresses, localhost \
                 and the names given with --allow-host"
            ),
        }
        .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_host_and_port() {
        assert_eq!(parse_host("127.0.0.1:8080"), Some(HostName::Ip([127, 0, 0, 1].into())));
        assert_eq!(parse_host("[::1]:80"), Some(HostName::Ip(Ipv6Addr::LOCALHOST.into())));
        assert_eq!(parse_host("Example.COM"), Some(HostName::Name("example.com".into())));
        for bad in ["127.0.0.1:1@evil.example", "[::1", "[::1]x", "a:b:c", "host:", "host:65536", "a..b", "", "::1"] {
            assert_eq!(parse_host(bad), None, "{bad}");
        }
    }
}
