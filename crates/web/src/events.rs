//! Server-sent events for long jobs. A request to the solver or the fortress detector that
//! sends `Accept: text/event-stream` gets its progress as events while the job runs, then
//! `done` with the answer the plain JSON request would have given (or `error`), the way live
//! analysis streams its lines. Without that header the routes answer one JSON document as before.

use crate::error::ApiError;
use axum::http::{header, HeaderMap};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Whether the client asked for server-sent events.
pub fn wanted(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().starts_with("text/event-stream")))
}

/// The job's side of an event stream. Dropping the last clone ends the stream.
#[derive(Clone)]
pub struct Events {
    tx: mpsc::UnboundedSender<Event>,
    /// Dropped with the last clone: tells the watcher the job ended by itself.
    _finished: std::sync::Arc<oneshot::Sender<()>>,
}

impl Events {
    /// Sends one event with a JSON body; false when the client has gone away.
    pub fn send(&self, name: &str, data: &Value) -> bool {
        self.tx.send(Event::default().event(name).data(data.to_string())).is_ok()
    }

    /// Sends the `error` event: `{error, status}`, what the JSON request would have answered.
    pub fn error(&self, e: &ApiError) -> bool {
        self.send("error", &json!({ "error": e.message, "status": e.status.as_u16() }))
    }
}

/// Opens an event stream: the sender for the job, and the response to return at once.
/// `on_close` runs if the client goes away before the job is done (to stop the job).
pub fn open(on_close: impl FnOnce() + Send + 'static) -> (Events, Response) {
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let (finished_tx, finished_rx) = oneshot::channel::<()>();
    let watch = tx.clone();
    tokio::spawn(async move {
        tokio::select! {
            _ = watch.closed() => on_close(),
            // The job ended by itself: drop this sender so the stream can end.
            _ = finished_rx => {}
        }
    });
    let next =
        |mut rx: mpsc::UnboundedReceiver<Event>| async move { rx.recv().await.map(|e| (Ok::<_, Infallible>(e), rx)) };
    let stream = futures_util::stream::unfold(rx, next);
    let sse = Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(10)));
    (Events { tx, _finished: std::sync::Arc::new(finished_tx) }, sse.into_response())
}
