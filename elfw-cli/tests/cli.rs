//! Output atomicity and the library under threads.

use elfw_cli::{run, RunEnv};
use elfw_core::target::Target;
use elfw_core::Linker;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for case in [
        "sm90_single_kernel/k.cubin",
        "fail_undefined_function/u.cubin",
    ] {
        let src = repo().join("tests/corpus").join(case);
        std::fs::copy(&src, dir.join(src.file_name().unwrap())).unwrap();
    }
    dir
}

fn nv(dir: &Path, args: &str) -> elfw_cli::RunOutcome {
    let argv: Vec<String> = args.split_whitespace().map(str::to_string).collect();
    run(
        &argv,
        &RunEnv {
            cwd: dir.to_path_buf(),
            program_name: "nvlink".into(),
        },
    )
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn failed_links_leave_no_output_and_touch_no_input() {
    let dir = scratch("atomic-fail");
    let before = std::fs::read(dir.join("u.cubin")).unwrap();
    std::fs::write(dir.join("out.cubin"), b"old").unwrap();
    let o = nv(&dir, "-arch=sm_90 u.cubin -o out.cubin");
    assert_eq!(o.status, 255);
    // nvlink leaves an existing output alone when the link fails; so does elfw.
    assert_eq!(std::fs::read(dir.join("out.cubin")).unwrap(), b"old");
    assert_eq!(std::fs::read(dir.join("u.cubin")).unwrap(), before);
    assert_eq!(
        listing(&dir),
        ["k.cubin", "out.cubin", "u.cubin"],
        "no temporary file left"
    );
}

#[test]
fn a_successful_link_replaces_an_older_output() {
    let dir = scratch("atomic-replace");
    std::fs::write(dir.join("out.cubin"), b"old").unwrap();
    let o = nv(&dir, "-arch=sm_90 k.cubin -o out.cubin");
    assert_eq!(o.status, 0);
    let image = std::fs::read(dir.join("out.cubin")).unwrap();
    assert_eq!(&image[..4], b"\x7fELF");
    assert_eq!(
        listing(&dir),
        ["k.cubin", "out.cubin", "u.cubin"],
        "no temporary file left"
    );
}

#[test]
fn output_in_a_missing_folder_is_fatal() {
    let dir = scratch("atomic-nodir");
    let o = nv(&dir, "-arch=sm_90 k.cubin -o nodir/out.cubin");
    assert_eq!(
        (o.status, String::from_utf8_lossy(&o.stderr).into_owned()),
        (
            1,
            "nvlink fatal   : Could not open output file 'nodir/out.cubin'\n".to_string()
        )
    );
    assert_eq!(listing(&dir), ["k.cubin", "u.cubin"]);
    let o = nv(&dir, &format!("-arch=sm_90 k.cubin -o {}", dir.display()));
    assert_eq!(o.status, 1, "a folder as output");
}

#[test]
fn output_may_name_an_input() {
    // nvlink -arch=sm_90 in.cubin -o in.cubin: succeeds and replaces the input.
    let dir = scratch("atomic-same");
    std::fs::copy(dir.join("k.cubin"), dir.join("in.cubin")).unwrap();
    let o = nv(&dir, "-arch=sm_90 in.cubin -o in.cubin");
    assert_eq!(o.status, 0);
    let want = nv(&dir, "-arch=sm_90 k.cubin -o ref.cubin");
    assert_eq!(want.status, 0);
    assert_eq!(
        std::fs::read(dir.join("in.cubin")).unwrap(),
        std::fs::read(dir.join("ref.cubin")).unwrap()
    );
    assert_eq!(
        listing(&dir),
        ["in.cubin", "k.cubin", "ref.cubin", "u.cubin"]
    );
}

#[test]
fn a_failed_registration_file_leaves_no_output() {
    let dir = scratch("atomic-reg");
    let o = nv(
        &dir,
        "-arch=sm_90 k.cubin -o out.cubin --register-link-binaries=nodir/r.c",
    );
    assert_eq!(o.status, 1);
    assert_eq!(listing(&dir), ["k.cubin", "u.cubin"]);
}

#[test]
fn independent_links_run_on_several_threads() {
    let k = std::fs::read(repo().join("tests/corpus/sm90_single_kernel/k.cubin")).unwrap();
    let u = std::fs::read(repo().join("tests/corpus/fail_undefined_function/u.cubin")).unwrap();
    let one = Linker::new(Target::sm(90))
        .input_bytes("k.cubin", k.clone())
        .link();
    let image = one.image.clone().expect("links");
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (k, u) = (k.clone(), u.clone());
                s.spawn(move || {
                    if i % 2 == 0 {
                        let r = Linker::new(Target::sm(90)).input_bytes("k.cubin", k).link();
                        (r.status(), r.image, String::new())
                    } else {
                        let r = Linker::new(Target::sm(90)).input_bytes("u.cubin", u).link();
                        (r.status(), r.image, r.diagnostics[0].message.clone())
                    }
                })
            })
            .collect();
        for (i, h) in handles.into_iter().enumerate() {
            let (status, img, msg) = h.join().unwrap();
            if i % 2 == 0 {
                assert_eq!((status, img.as_deref()), (0, Some(&image[..])));
            } else {
                assert_eq!(status, 255);
                assert!(img.is_none());
                assert_eq!(
                    msg,
                    "Undefined reference to '_Z15nowhere_definedi' in 'u.cubin'"
                );
            }
        }
    });
}

/// `--print-map` on the corpus's dead-code case: every function nvlink's image lacks is
/// reported removed as unreachable, every one it has as kept with its reason.
#[test]
fn print_map_gives_the_reasons() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("print_map");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let case = repo().join("tests/corpus/sm90_cross_tu_dce");
    for f in ["main.cubin", "lib.cubin", "expected.cubin"] {
        std::fs::copy(case.join(f), dir.join(f)).unwrap();
    }
    let out = nv(
        &dir,
        "-arch=sm_90 main.cubin lib.cubin -o out.cubin --print-map map.txt",
    );
    assert_eq!(out.status, 0);
    let map = std::fs::read_to_string(dir.join("map.txt")).unwrap();
    let golden = std::fs::read(dir.join("expected.cubin")).unwrap();
    let golden = elfw_core::elf::ElfFile::parse(&golden).unwrap();
    let names: Vec<String> = golden
        .symbols()
        .flatten()
        .map(|s| s.name_lossy().into_owned())
        .collect();
    let functions = map.split("## Functions\n").nth(1).unwrap();
    let mut removed = 0;
    for line in functions.lines().take_while(|l| !l.is_empty()) {
        let name = line.split(' ').next().unwrap();
        if names.iter().any(|n| n == name) {
            assert!(line.contains(": kept, "), "{line}");
        } else {
            assert!(line.contains(": removed, unreachable"), "{line}");
            removed += 1;
        }
    }
    assert!(removed >= 2, "{map}");
}
