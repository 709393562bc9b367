//! Replays every stored corpus through its fuzz entry point on a stable toolchain:
//! the inputs cargo-fuzz found (and the seeds) stay checked without nightly.

fn replay(target: &str, f: fn(&[u8])) {
    let dir = format!("{}/../core/fuzz/corpus/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| f(&data));
        assert!(outcome.is_ok(), "{target}: {} panicked", path.display());
        n += 1;
    }
    assert!(n >= 10, "{dir} holds only {n} inputs");
}

#[test]
fn core_corpora() {
    replay("fen", bastion_core::fuzzing::fen);
    replay("epd", bastion_core::fuzzing::epd);
    replay("moves", bastion_core::fuzzing::moves);
}

#[test]
fn fen960_corpus() {
    replay("fen960", bastion_fuzz::fen960);
}

#[test]
fn pgn_corpus() {
    replay("pgn", bastion_fuzz::pgn);
}

#[test]
fn progressive_fen_corpus() {
    replay("progressive_fen", bastion_fuzz::progressive_fen);
}

#[test]
fn uci_commands_corpus() {
    replay("uci_commands", bastion_fuzz::uci_commands);
}

#[test]
fn web_json_corpus() {
    replay("web_json", bastion_fuzz::web_json);
}

/// Every request type has a seed, so a new body type cannot go unfuzzed silently.
#[test]
fn web_json_corpus_names_every_request() {
    let dir = format!("{}/../core/fuzz/corpus/web_json", env!("CARGO_MANIFEST_DIR"));
    let kinds: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .filter_map(|s| s.split_once('\n').map(|(k, _)| k.to_string()))
        .collect();
    for kind in bastion_fuzz::WEB_REQUESTS {
        assert!(kinds.iter().any(|k| k == kind), "no seed for {kind}");
    }
}
