//! Bastion's engine speaking UCI on stdin/stdout: the engine process the
//! fortress detector drives when the server is not run as `bastion serve`
//! (the API and browser tests use it).

fn main() {
    bastion_engine::uci::run_stdio(None);
}
