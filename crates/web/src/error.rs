//! API errors as JSON `{ "error": "..." }` with a fitting status code, and a
//! JSON body extractor whose rejections use the same shape.

use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

/// An error answered to the client as `{ "error": message }`.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status sent.
    pub status: StatusCode,
    /// Human-readable reason.
    pub message: String,
}

impl ApiError {
    /// 400: the request is malformed or names something illegal.
    pub fn bad_request(msg: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: msg.into() }
    }

    /// 503: the feature or capacity is not available right now.
    pub fn unavailable(msg: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: msg.into() }
    }

    /// 404: no such thing.
    pub fn not_found(msg: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: msg.into() }
    }

    /// 500: a bug or an internal failure (a job that panicked).
    pub fn internal(msg: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: msg.into() }
    }

    /// 503 for a component that this build does not contain yet.
    pub fn not_in_build(what: &str) -> ApiError {
        ApiError::unavailable(format!("{what} is not available in this build"))
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.status)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.message }))).into_response()
    }
}

/// Result type of the API handlers.
pub type ApiResult<T> = Result<T, ApiError>;

/// Like [`axum::Json`], but a body that cannot be read answers a JSON error
/// (axum's own rejection is plain text, which scripts would have to special-case).
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(ApiJson(v)),
            Err(rej) => Err(ApiError { status: rej.status(), message: rej.body_text() }),
        }
    }
}
