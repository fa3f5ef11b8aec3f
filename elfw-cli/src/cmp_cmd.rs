//! `elfw cmp`.

use crate::{RunEnv, RunOutcome};

/// Runs `elfw cmp` with its arguments.
pub fn run(args: &[String], env: &RunEnv) -> RunOutcome {
    let _ = (args, env);
    RunOutcome { status: 2, stdout: Vec::new(), stderr: b"elfw cmp: not implemented yet\n".to_vec() }
}
