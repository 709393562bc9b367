//! Test support for Bastion's crates: the path of the `bastion-test-engine`
//! binary (a configurable fake UCI engine), and of any other binary of the
//! workspace that an integration test needs to run.
//!
//! Cargo sets `CARGO_BIN_EXE_<name>` only for the binaries of the package under
//! test and never builds the binaries of dependencies, so a test in another
//! crate cannot rely on the fake engine being built. The functions here run
//! `cargo build` for the wanted binary once per test process, with the test's
//! own profile and target directory, and take the executable's path from
//! cargo's JSON messages. When the binary is fresh that build is a quick no-op,
//! and a stale binary is never used. This works under `cargo test --workspace`
//! and under `cargo test -p <one crate>` alike.
//!
//! The engine's behaviour is chosen by command-line flags, described in the
//! module documentation of `src/bin/bastion-test-engine/main.rs`.

#![warn(missing_docs)]

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The package that holds the fake engine.
pub const PACKAGE: &str = "bastion-test-engine";

/// The fake engine's binary name.
pub const BINARY: &str = "bastion-test-engine";

/// The fake engine's executable, built on first use.
///
/// # Panics
/// When cargo cannot build it (the build's errors are on stderr).
pub fn path() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| cargo_bin(PACKAGE, BINARY))
}

/// The fake engine's executable as a string, to start an engine command line
/// such as `format!("{} --play random", command())`.
pub fn command() -> String {
    path().display().to_string()
}

/// The fake engine's command line (program, then arguments) playing `scenario`, the text of
/// a `--scenario` file. The file is named by a hash of the text, so different scenarios never
/// share a file and the same one is written once, by whichever test process needs it first. It
/// goes to `<target>/tmp/test-engine/` (cargo's scratch space: `cargo clean` removes it) when
/// the running test lives in a target directory, else to the system's temporary directory.
pub fn scenario_command(scenario: &str) -> Vec<String> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    scenario.hash(&mut h);
    let dir = test_build_dirs().map_or_else(std::env::temp_dir, |(target, _)| target.join("tmp").join("test-engine"));
    let file = dir.join(format!("scenario-{:016x}.txt", h.finish()));
    if !file.is_file() {
        // Written under a name of its own and renamed, so that no test in this or another
        // process ever reads a half-written file.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let part = dir.join(format!("scenario-{:016x}.{}-{n}.part", h.finish(), std::process::id()));
        std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&part, scenario))
            .and_then(|()| std::fs::rename(&part, &file))
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
    }
    vec![command(), "--scenario".to_owned(), file.display().to_string()]
}

/// With this variable set, [`cargo_bin`] takes a binary that is already in the running
/// test's `<target>/<profile>/` as it is, without running `cargo build`. `.ci/run` sets it:
/// there `cargo test --workspace` has just built every binary, and a `cargo build` of one
/// package resolves features differently from the whole workspace, so it would build the
/// binary and its dependencies a second time (about 100 s on the CI machine). Only for a
/// fresh build of the whole workspace: otherwise a stale binary would be used.
pub const PREBUILT_ENV: &str = "BASTION_TEST_PREBUILT_BINS";

/// The executable of binary `bin` of workspace package `package` (for example
/// `cargo_bin("bastion-cli", "bastion")`), built on first use in this process
/// with the profile and target directory of the running test.
///
/// # Panics
/// When cargo cannot build it (the build's errors are on stderr).
pub fn cargo_bin(package: &str, bin: &str) -> PathBuf {
    if std::env::var_os(PREBUILT_ENV).is_some() {
        if let Some((target_dir, profile)) = test_build_dirs() {
            let path = target_dir.join(profile).join(format!("{bin}{}", std::env::consts::EXE_SUFFIX));
            if path.is_file() {
                return path;
            }
        }
    }
    static BUILT: OnceLock<Mutex<HashMap<(String, String), PathBuf>>> = OnceLock::new();
    // Held across the build: concurrent tests wait for one build instead of racing.
    let mut built = BUILT.get_or_init(Mutex::default).lock().unwrap_or_else(|e| e.into_inner());
    let key = (package.to_owned(), bin.to_owned());
    if let Some(path) = built.get(&key) {
        return path.clone();
    }
    let path = build(package, bin).unwrap_or_else(|e| panic!("cannot build binary `{bin}` of {package}: {e}"));
    built.insert(key, path.clone());
    path
}

/// Runs `cargo build` for one binary and returns the executable it reports.
fn build(package: &str, bin: &str) -> Result<PathBuf, String> {
    let cargo =
        std::env::var_os("CARGO").or_else(|| option_env!("CARGO").map(OsString::from)).unwrap_or("cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--quiet", "--message-format=json-render-diagnostics", "--package", package, "--bin", bin])
        .arg("--manifest-path")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
    if let Some((target_dir, profile)) = test_build_dirs() {
        cmd.arg("--target-dir").arg(target_dir);
        match profile.as_str() {
            // `dev` and `test` builds both live in `debug`.
            "debug" => {}
            "release" => {
                cmd.arg("--release");
            }
            other => {
                cmd.args(["--profile", other]);
            }
        }
    }
    let output =
        cmd.stdin(Stdio::null()).stderr(Stdio::inherit()).output().map_err(|e| format!("running cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo build failed ({})", output.status));
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|msg| msg["reason"] == "compiler-artifact" && msg["target"]["name"] == bin)
        .find_map(|msg| msg["executable"].as_str().map(PathBuf::from))
        .ok_or_else(|| "cargo reported no executable".to_owned())
}

/// The target directory and profile directory name of the running test
/// executable, which lives in `<target>/<profile>/deps/`.
fn test_build_dirs() -> Option<(PathBuf, String)> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    if deps.file_name()? != "deps" {
        return None;
    }
    let profile_dir = deps.parent()?;
    let profile = profile_dir.file_name()?.to_str()?.to_owned();
    Some((profile_dir.parent()?.to_path_buf(), profile))
}
