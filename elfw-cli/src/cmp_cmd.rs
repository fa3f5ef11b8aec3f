//! `elfw cmp EXPECTED ACTUAL`: prints a verdict word (IDENTICAL, EQUAL, EQUIVALENT,
//! DIFFERENT) and the first differences; exits 0, 0, 0, 1, or 2 when a file cannot be read or
//! is not a well-formed ELF file.

use crate::{RunEnv, RunOutcome};
use elfw_core::cmp::{compare, Side, Verdict};

const USAGE: &str = "usage: elfw cmp EXPECTED ACTUAL\n\
  Compares two device images: IDENTICAL (same bytes), EQUAL (same image at other file offsets),\n\
  EQUIVALENT (same once order is canonicalised), DIFFERENT (exit 1). Exit 2 when a file cannot\n\
  be read or is not ELF.\n";

fn fail(message: String) -> RunOutcome {
    RunOutcome {
        status: 2,
        stdout: Vec::new(),
        stderr: message.into_bytes(),
    }
}

/// Runs `elfw cmp` with its arguments.
pub fn run(args: &[String], env: &RunEnv) -> RunOutcome {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return RunOutcome {
            status: 0,
            stdout: USAGE.as_bytes().to_vec(),
            stderr: Vec::new(),
        };
    }
    let [expected, actual] = args else {
        return fail(format!(
            "elfw cmp: expected two files, got {}\n{USAGE}",
            args.len()
        ));
    };
    let mut data = Vec::with_capacity(2);
    for path in [expected, actual] {
        match std::fs::read(env.cwd.join(path)) {
            Ok(d) => data.push(d),
            Err(e) => return fail(format!("elfw cmp: cannot read {path}: {e}\n")),
        }
    }
    let c = compare(&data[0], &data[1]);
    if let Verdict::Malformed(side) = c.verdict {
        let path = if side == Side::Expected {
            expected
        } else {
            actual
        };
        let why = c
            .differences
            .first()
            .map(|d| d.actual.as_str())
            .unwrap_or("malformed");
        return fail(format!(
            "elfw cmp: {path}: not a well-formed ELF file: {why}\n"
        ));
    }
    RunOutcome {
        status: c.verdict.exit_status(),
        stdout: c.to_string().into_bytes(),
        stderr: Vec::new(),
    }
}
