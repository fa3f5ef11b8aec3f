//! `elfw dump`.

use crate::{RunEnv, RunOutcome};

/// Runs `elfw dump` with its arguments.
pub fn run(args: &[String], env: &RunEnv) -> RunOutcome {
    let _ = (args, env);
    RunOutcome { status: 2, stdout: Vec::new(), stderr: b"elfw dump: not implemented yet\n".to_vec() }
}
