//! elfw-cli: nvlink's command line over `elfw-core`.
//!
//! [`run`] is the whole program as a function: argument vector in, exit status, standard
//! output and standard error out, the output image written to disk (atomically) as nvlink
//! would write it. `main.rs` only forwards the process's arguments and streams. Tests call
//! [`run`] in process with a working directory of their choice.

#![warn(missing_docs)]

use std::path::PathBuf;

mod cmp_cmd;
mod dump_cmd;
mod link_cmd;
pub mod options;
pub mod report;

/// Where and as whom the command runs.
#[derive(Clone, Debug)]
pub struct RunEnv {
    /// Directory against which relative paths on the command line are resolved.
    pub cwd: PathBuf,
    /// The program name used in messages (`nvlink error   : ...`); nvlink uses its own
    /// name, elfw uses the name it was invoked under.
    pub program_name: String,
}

/// What one run of the command produced.
#[derive(Clone, Debug, Default)]
pub struct RunOutcome {
    /// Exit status: 0 on success, 1 after a fatal error, 255 after errors (as nvlink).
    pub status: i32,
    /// Bytes written to standard output.
    pub stdout: Vec<u8>,
    /// Bytes written to standard error.
    pub stderr: Vec<u8>,
}

/// Runs the linker with `argv` (without the program name).
pub fn run(argv: &[String], env: &RunEnv) -> RunOutcome {
    run_inner(argv, env, false)
}

/// [`run`] for a process that exits as soon as this returns (the `elfw` binary): the link's
/// input maps, working structures and image are left for the exit to reclaim rather than
/// freed piece by piece (see [`elfw_core::Linker::skip_teardown`]). Not for a process that
/// runs more than one command.
pub fn run_then_exit(argv: &[String], env: &RunEnv) -> RunOutcome {
    run_inner(argv, env, true)
}

fn run_inner(argv: &[String], env: &RunEnv, exiting: bool) -> RunOutcome {
    // elfw's own subcommands; anything else is an nvlink command line.
    match argv.first().map(String::as_str) {
        Some("cmp") => return cmp_cmd::run(&argv[1..], env),
        Some("dump") => return dump_cmd::run(&argv[1..], env),
        _ => {}
    }
    let mut out = RunOutcome::default();
    let status = link_cmd::run(argv, env, &mut out, exiting);
    out.status = status;
    out
}
