//! What the MPI tests share: the `bastion` under test and an `mpirun` that starts it.

use std::path::PathBuf;
use std::process::Command;

/// The `bastion` built with `--features mpi` that `BASTION_MPI_BIN` names.
pub fn bastion() -> PathBuf {
    let path = std::env::var_os("BASTION_MPI_BIN")
        .map(PathBuf::from)
        .expect("BASTION_MPI_BIN must name a bastion built with --features mpi (scripts/ci-mpi.sh sets it)");
    assert!(path.is_file(), "BASTION_MPI_BIN={} is not a file", path.display());
    path
}

/// `mpirun -np N` (oversubscribed: the CI machine may have fewer cores) running `bastion args`.
pub fn mpirun(ranks: usize, args: &[&str]) -> Command {
    let mut c = Command::new("mpirun");
    c.args(["--oversubscribe", "-np", &ranks.to_string()])
        .arg(bastion())
        .args(args)
        // Containers often run as root, which mpirun refuses without these.
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    c
}
