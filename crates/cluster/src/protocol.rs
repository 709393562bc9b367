//! The messages of the work queue, encoded as JSON so that any serde type can be a task or a
//! result. Messages are small (one task or one result each), so the encoding costs nothing
//! next to the work.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// From a worker rank to rank 0.
#[derive(Debug, Serialize, Deserialize)]
pub enum ToRoot<R> {
    /// The worker has started: where it runs. Also asks for the first task.
    Hello {
        /// Host name.
        host: String,
        /// Process id.
        pid: u32,
    },
    /// Still working on its task (sent every [`crate::QueueOptions::heartbeat`]).
    Heartbeat,
    /// The result of task `index`; also asks for the next task.
    Result {
        /// The task's position in the input, from 0.
        index: usize,
        /// What the work function returned.
        result: R,
    },
    /// The work function failed in a way that ends the job (an engine that cannot start).
    Failed {
        /// Why.
        message: String,
    },
}

/// From rank 0 to a worker rank.
#[derive(Debug, Serialize, Deserialize)]
pub enum ToWorker<T> {
    /// Work on this task.
    Task {
        /// The task's position in the input, from 0.
        index: usize,
        /// The task.
        task: T,
    },
    /// No more work: leave.
    Done,
    /// The job is over (its SPRT decided): stop the item in hand without sending its result,
    /// and leave. Read by an idle rank as [`ToWorker::Done`].
    Abandon,
}

/// Encodes a message.
pub fn encode<M: Serialize>(message: &M) -> Vec<u8> {
    serde_json::to_vec(message).expect("queue messages serialise to JSON")
}

/// Decodes a message; `Err` says what was wrong with it.
pub fn decode<M: DeserializeOwned>(bytes: &[u8]) -> Result<M, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("unreadable queue message ({} bytes): {e}", bytes.len()))
}
