//! Same inputs, same bytes, at any thread count (issue 7): the `elfw` binary links a few corpus
//! cases and one small generated workload with `RAYON_NUM_THREADS` set to 1, 2 and 3, twice at
//! one thread, and every run must produce the same exit status, messages and image bytes.
//!
//! The generated workload (4 files × 50 functions, see `xtask/src/gen/workload.rs`) is
//! compiled with ptxas when the toolchain is installed, else cloned from the committed template
//! in `tests/huge/`; it is cached under `$CARGO_TARGET_TMPDIR`.

#[allow(dead_code)]
#[path = "../../xtask/src/gen/workload.rs"]
mod workload;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Corpus cases covering plain links, data, constants, DCE, shared memory, recursion,
/// `-g`, libraries and other targets.
const CASES: &[&str] = &[
    "sm90_basic",
    "sm90_device_globals",
    "sm90_constant",
    "sm90_cross_tu_dce",
    "sm90_shared",
    "sm90_recursion_deep_calls",
    "sm90_function_pointers_virtual",
    "sm90_debug_G",
    "sm90_archive_dc_objects_lflag",
    "sm75_basic",
    "sm100_basic",
    "sm120_basic",
];

/// Thread counts to compare; the first run is the reference, and it is repeated last.
const THREADS: &[&str] = &["1", "2", "3", "1"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Everything one run produced.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    image: Option<Vec<u8>>,
}

/// Runs `elfw` in `cwd` with `args` (whose `-o` operand is replaced by a scratch path).
fn run(cwd: &Path, args: &[String], threads: &str, scratch: &Path) -> Outcome {
    // One output path for every run: the path is part of the command line nvlink records.
    let out_path = scratch.join("out.cubin");
    let _ = std::fs::remove_file(&out_path);
    let mut args = args.to_vec();
    if let Some(k) = args.iter().position(|a| a == "-o") {
        if let Some(slot) = args.get_mut(k + 1) {
            *slot = out_path.display().to_string();
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_elfw"))
        .args(&args)
        .current_dir(cwd)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("elfw runs");
    let image = std::fs::read(&out_path).ok();
    let _ = std::fs::remove_file(&out_path);
    Outcome {
        status: out.status.code(),
        stdout: out.stdout,
        stderr: out.stderr,
        image,
    }
}

/// Links `args` at every thread count and reports the first that differs from one thread.
/// Returns whether the links wrote an image.
fn check(name: &str, cwd: &Path, args: &[String]) -> Result<bool, String> {
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("determinism")
        .join(name);
    std::fs::create_dir_all(&scratch).unwrap();
    let reference = run(cwd, args, THREADS[0], &scratch);
    for threads in &THREADS[1..] {
        let other = run(cwd, args, threads, &scratch);
        if other != reference {
            let what = if other.image != reference.image {
                "image bytes"
            } else if other.status != reference.status {
                "exit status"
            } else {
                "messages"
            };
            return Err(format!(
                "{name}: {what} differ between RAYON_NUM_THREADS=1 and {threads}"
            ));
        }
    }
    Ok(reference.image.is_some())
}

fn corpus_args(case: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(repo().join("tests/corpus").join(case).join("args")).ok()?;
    Some(text.lines().map(str::to_string).collect())
}

#[test]
fn corpus_links_do_not_depend_on_thread_count() {
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut images = 0;
    for case in CASES {
        let Some(args) = corpus_args(case) else {
            eprintln!("{case}: not in tests/corpus, skipped");
            continue;
        };
        checked += 1;
        match check(case, &repo().join("tests/corpus").join(case), &args) {
            Ok(wrote) => images += usize::from(wrote),
            Err(e) => failures.push(e),
        }
    }
    assert!(checked >= CASES.len() / 2, "most corpus cases are missing");
    assert!(
        images >= checked / 2,
        "elfw wrote only {images} images in {checked} cases"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn generated_workload_does_not_depend_on_thread_count() {
    let shape = workload::Shape {
        files: 4,
        funcs: 50,
        arch: "sm_90".into(),
        seed: 11,
    };
    let template_dir = repo().join("tests/huge");
    let source = match workload::locate_ptxas() {
        Some(ptxas) => workload::Source::Ptxas(ptxas),
        None => workload::Source::Template(template_dir),
    };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("huge")
        .join(shape.label());
    let w = workload::ensure(&shape, &dir, &source, false, &mut |_| {})
        .expect("the workload can be generated");
    let mut args = vec!["-arch=sm_90".to_string()];
    args.extend(w.inputs.iter().map(|p| p.display().to_string()));
    args.extend(["-o".to_string(), "out.cubin".to_string()]);
    let wrote = check("generated-4x50", &dir, &args).unwrap();
    assert!(wrote, "elfw did not link the generated workload");
}
