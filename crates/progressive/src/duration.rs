//! Player times as people type them (`2`, `2s`, `0.5`, `500ms`): core's duration
//! reader with the Progressive crate's error type.

use crate::error::ProgressiveError;
use std::time::Duration;

/// Reads a duration in seconds (`2`, `2s`, `0.5`) or milliseconds (`500ms`) with
/// [`bastion_core::duration::parse_duration`]; errors become [`ProgressiveError::BadOption`].
pub fn parse_duration(s: &str) -> Result<Duration, ProgressiveError> {
    bastion_core::duration::parse_duration(s).map_err(|e| ProgressiveError::BadOption(e.to_string()))
}
