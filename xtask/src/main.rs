//! Project automation for elfw: `cargo xtask <command>`.
//!
//! - `toolchain` installs NVIDIA's CUDA 13.5.37 command-line tools (nvlink, ptxas, nvcc, …) from
//!   PyPI wheels into a cache folder outside the repository and prints the tool folder.
//! - `corpus` builds the golden corpus: compiles the sources under `tests/corpus-src/<case>/`,
//!   links them with nvlink and records everything under `tests/corpus/<case>/`
//!   (see `tests/corpus-src/README.md` for the recipe format).

mod bench_nvlink;
mod corpus;
mod gen;
mod nvcc_subst;
mod recipe;
mod toolchain;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  toolchain              install the CUDA 13.5.37 tools (idempotent, offline once cached)
                         and print the tool folder (…/nvidia/cu13/bin) on stdout
  toolchain --print      print the tool folder without installing (exit 1 if not installed)
  toolchain --print-root print the toolkit root (…/nvidia/cu13) without installing
  corpus [case...]       build the corpus cases (all when none named) and record nvlink's
                         output under tests/corpus/
  gen --files N --funcs M [--arch sm_90] [--out DIR] [--seed S] [--offline] [--force] [--link]
                         generate a huge-link workload (N cubins x M functions)
  bench-nvlink [--sizes 100x50,500x50] [--runs 5] [--elfw PATH]
                         time nvlink and elfw on generated workloads
  nvcc-subst [--arch=sm_90] [--require-equal]
                         build CUDA programs with nvcc -rdc=true using nvlink, then elfw as
                         nvlink, and compare the embedded device images (elfw cmp)

environment:
  ELFW_TOOLCHAIN_DIR     the toolchain cache folder
                         (default ${XDG_CACHE_HOME:-$HOME/.cache}/elfw/cuda-13.5.37)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("toolchain") => toolchain::command(&args[1..]),
        Some("corpus") => corpus::command(&args[1..]),
        Some("gen") => gen::command(&args[1..]),
        Some("bench-nvlink") => bench_nvlink::command(&args[1..]),
        Some("nvcc-subst") => nvcc_subst::command(&args[1..]),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: error: {message}");
            ExitCode::FAILURE
        }
    }
}
