//! Stand-alone UCI engine binary (the `bastion` CLI offers the same as `bastion uci`);
//! used by this crate's integration tests to drive the engine over stdin/stdout.

fn main() {
    bastion_engine::uci::run_stdio(None);
}
