//! Cancelling a job when its client goes away: axum drops a handler's future
//! when the connection closes, so a guard held by the handler runs its action
//! then, and the job (on a blocking thread) sees its stop flag.

/// Runs an action when dropped: when the handler finishes or is dropped mid-way.
pub struct OnDrop<F: FnOnce()>(Option<F>);

impl<F: FnOnce()> OnDrop<F> {
    /// A guard that runs `action` once, on drop.
    pub fn new(action: F) -> OnDrop<F> {
        OnDrop(Some(action))
    }
}

impl<F: FnOnce()> Drop for OnDrop<F> {
    fn drop(&mut self) {
        if let Some(action) = self.0.take() {
            action();
        }
    }
}
