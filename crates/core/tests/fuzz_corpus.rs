//! Replays the stored cargo-fuzz corpus through the fuzz entry points, and
//! feeds arbitrary strings to every parser: none may panic or break its round trip.

use bastion_core::fuzzing;
use proptest::prelude::*;

fn replay(target: &str, f: fn(&[u8])) {
    let dir = format!("{}/fuzz/corpus/{target}", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        f(&data);
        n += 1;
    }
    assert!(n >= 10, "{dir} holds only {n} inputs");
}

#[test]
fn fen_corpus() {
    replay("fen", fuzzing::fen);
}

#[test]
fn epd_corpus() {
    replay("epd", fuzzing::epd);
}

#[test]
fn moves_corpus() {
    replay("moves", fuzzing::moves);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn arbitrary_fen(s in "[pnbrqkPNBRQK1-9/ wbKQkqA-Ha-h0-9-]{0,90}") {
        fuzzing::fen(s.as_bytes());
    }
    #[test]
    fn arbitrary_bytes(data in proptest::collection::vec(any::<u8>(), 0..120)) {
        fuzzing::fen(&data);
        fuzzing::epd(&data);
        fuzzing::moves(&data);
    }
    #[test]
    fn arbitrary_epd_ops(ops in "[a-z0-9 ;\"#+=NBRQK-]{0,60}") {
        let line = format!("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - {ops}");
        fuzzing::epd(line.as_bytes());
    }
    #[test]
    fn arbitrary_moves(mv in "[a-hNBRQKx1-8=+#O0-]{0,8}") {
        let data = format!("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n{mv}");
        fuzzing::moves(data.as_bytes());
    }
}
