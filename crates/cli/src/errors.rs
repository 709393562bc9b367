//! The text of a failed command's error: each cause of the chain once.

/// `outer: cause: cause …` like anyhow's `{:#}`, but a cause whose text is already
/// part of what came before is left out. Many error types print their source inside
/// their own message *and* return it as `source()` (a `thiserror` field named
/// `source`), which would otherwise show an OS error twice:
/// "failed to start engine "x": No such file or directory (os error 2): No such file …".
pub fn chain_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if part.is_empty() || text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error that prints its source and also returns it, as thiserror's
    /// `#[error("... {source}")]` with a `source` field does.
    #[derive(Debug)]
    struct Spawn(std::io::Error);

    impl std::fmt::Display for Spawn {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "failed to start engine \"/nope\": {}", self.0)
        }
    }

    impl std::error::Error for Spawn {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn an_os_error_is_printed_once() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let os = io.to_string();
        let e = anyhow::Error::new(Spawn(io)).context("starting engine \"/nope\"");
        // What anyhow alone prints: the OS error twice.
        assert_eq!(format!("{e:#}").matches(&os).count(), 2);
        let text = chain_text(&e);
        assert_eq!(text, format!("starting engine \"/nope\": failed to start engine \"/nope\": {os}"));
    }

    #[test]
    fn distinct_causes_are_all_kept() {
        let e = anyhow::anyhow!("inner").context("middle").context("outer");
        assert_eq!(chain_text(&e), "outer: middle: inner");
    }
}
