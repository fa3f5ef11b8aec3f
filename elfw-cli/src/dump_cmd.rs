//! `elfw dump FILE...`: a listing of any input nvlink reads (see `elfw_core::dump`).

use crate::{RunEnv, RunOutcome};

/// Runs `elfw dump` with its arguments.
pub fn run(args: &[String], env: &RunEnv) -> RunOutcome {
    let mut out = RunOutcome::default();
    if args.is_empty() || args.iter().any(|a| a == "-h" || a == "--help") {
        out.status = if args.is_empty() { 2 } else { 0 };
        let usage = b"usage: elfw dump FILE...\n  lists sections, symbols, relocations, .nv.info records, notes, fatbin entries and archive members\n";
        if args.is_empty() {
            out.stderr = usage.to_vec();
        } else {
            out.stdout = usage.to_vec();
        }
        return out;
    }
    for name in args {
        let path = env.cwd.join(name);
        match std::fs::read(&path) {
            Ok(data) => out
                .stdout
                .extend(elfw_core::dump::dump(name, &data).into_bytes()),
            Err(e) => {
                out.stderr.extend(
                    format!("{}: cannot read '{name}': {e}\n", env.program_name).into_bytes(),
                );
                out.status = 1;
            }
        }
    }
    out
}
