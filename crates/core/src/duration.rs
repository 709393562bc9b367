//! Durations as people type them on a command line or in an option: `2`, `2s`, `0.5`,
//! `500ms`. One reader for every part (EPD suite times, Progressive player times).

use std::time::Duration;

/// Why a duration could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// Not a number with an optional `s` or `ms` suffix.
    #[error("bad time {0:?} (e.g. 2, 2s, 500ms)")]
    Unreadable(String),
    /// Negative, not finite, or 10⁶ seconds or more.
    #[error("bad time {0:?}")]
    OutOfRange(String),
}

/// Reads a duration in seconds (`2`, `2s`, `0.5`) or milliseconds (`500ms`);
/// negative, non-finite and absurdly long (≥ 10⁶ s) values are rejected.
pub fn parse_duration(s: &str) -> Result<Duration, DurationError> {
    let s = s.trim();
    let (num, scale) = if let Some(v) = s.strip_suffix("ms") {
        (v, 0.001)
    } else if let Some(v) = s.strip_suffix('s') {
        (v, 1.0)
    } else {
        (s, 1.0)
    };
    let v: f64 = num.trim().parse().map_err(|_| DurationError::Unreadable(s.to_string()))?;
    if !(v.is_finite() && v >= 0.0 && v * scale < 1e6) {
        return Err(DurationError::OutOfRange(s.to_string()));
    }
    Ok(Duration::from_secs_f64(v * scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_seconds_and_milliseconds() {
        assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration(" 2s ").unwrap(), Duration::from_secs(2));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("0.25").unwrap(), Duration::from_millis(250));
        for bad in ["", "x", "-1", "1e9", "inf", "NaN", "5x"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
