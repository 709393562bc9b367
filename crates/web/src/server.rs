//! The accept loop: HTTP/1.1 connections with a header read timeout, a body
//! read timeout and a cap on open connections, so slow or idle clients cannot
//! hold the server's sockets for good.

use crate::{router, AppState};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// Limits on connections (all configurable so tests can use short ones).
#[derive(Clone, Debug)]
pub struct NetLimits {
    /// Time a client has to send a request's headers (also how long an idle
    /// keep-alive connection is kept).
    pub header_timeout: Duration,
    /// Longest wait for the next piece of a request body.
    pub body_timeout: Duration,
    /// Connections open at once; one more is answered 503 and closed.
    pub max_connections: usize,
}

impl Default for NetLimits {
    fn default() -> Self {
        NetLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 256,
        }
    }
}

/// The answer to a connection over the cap, written before it is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
connection: close\r\ncontent-length: 53\r\n\r\n{\"error\":\"too many open connections; retry shortly\"}\n";

/// Serves `state` on `listener` until `shutdown` completes.
pub async fn serve_on(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let limits = state.config.net.clone();
    let app =
        tower::ServiceBuilder::new().layer(RequestBodyTimeoutLayer::new(limits.body_timeout)).service(router(state));
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (mut stream, _) = tokio::select! {
            _ = &mut shutdown => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(s) => s,
                // Out of file descriptors and the like: wait a moment instead of spinning.
                Err(_) => { tokio::time::sleep(Duration::from_millis(50)).await; continue; }
            },
        };
        let Ok(permit) = slots.clone().try_acquire_owned() else {
            tokio::spawn(async move {
                let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(BUSY)).await;
                let _ = stream.shutdown().await;
            });
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let header_timeout = limits.header_timeout;
        tokio::spawn(async move {
            let _permit = permit;
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            let _ = conn.await;
        });
    }
}
