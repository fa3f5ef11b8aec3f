//! `--print-map` against nvlink's goldens, over the whole corpus: for every case nvlink linked
//! (relocatable links aside: they keep every function), each function the map lists is kept
//! exactly when nvlink's image names it, and the reason the map gives agrees with that (kept:
//! a kernel, called from one, address-taken; removed: unreachable, not selected, lost a weak
//! contest, not referenced from host code). Each weak contest the map reports is checked
//! against the code nvlink kept: the winner's bytes are the nearer ones.

mod common;

use elfw_cli::{run, RunEnv};
use elfw_core::elf::ElfFile;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus")
}

fn ptxas_available() -> bool {
    std::env::var_os("ELFW_PTXAS").is_some_and(|p| Path::new(&p).is_file())
        || std::env::var_os("PATH")
            .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("ptxas").is_file()))
}

/// The names of the function symbols in an image.
fn function_names(image: &[u8]) -> BTreeSet<String> {
    let elf = ElfFile::parse(image).expect("nvlink's image parses");
    elf.symbols()
        .filter_map(|s| s.ok())
        .filter(|s| s.info & 0xf == 2)
        .map(|s| String::from_utf8_lossy(s.name).into_owned())
        .collect()
}

/// One `## Functions` line of the text map: `NAME (from INPUT): kept|removed, REASON`, or
/// `NAME (undefined): ...` for what the image leaves to the driver (syscalls, `malloc`).
struct MapFunction {
    name: String,
    kept: bool,
    reason: String,
}

fn map_functions(text: &str) -> Vec<MapFunction> {
    let Some(section) = text.split("## Functions\n").nth(1) else {
        return Vec::new();
    };
    section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (name, rest) = l.split_once(" (").expect("a function line");
            let (_, verdict) = rest.split_once("): ").expect("a function line");
            let (kept, reason) = verdict.split_once(", ").unwrap_or((verdict, ""));
            MapFunction {
                name: name.to_string(),
                kept: kept == "kept",
                reason: reason.to_string(),
            }
        })
        .collect()
}

/// One `## Weak definitions` line: `NAME: kept the copy from WINNER over the one from LOSER (why)`.
fn weak_contests(text: &str) -> Vec<(String, String, String)> {
    let Some(section) = text.split("## Weak definitions\n").nth(1) else {
        return Vec::new();
    };
    section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|l| {
            let (name, rest) = l.split_once(": kept the copy from ")?;
            let (winner, rest) = rest.split_once(" over the one from ")?;
            let (loser, _) = rest.split_once(" (")?;
            Some((name.to_string(), winner.to_string(), loser.to_string()))
        })
        .collect()
}

/// Bytes of `.text.<name>` in an image, if it has that section.
fn text_of(image: &[u8], name: &str) -> Option<Vec<u8>> {
    let elf = ElfFile::parse(image).ok()?;
    let idx = elf.section_by_name(format!(".text.{name}").as_bytes())?;
    elf.section_data(idx).ok().map(<[u8]>::to_vec)
}

/// How far `copy` is from `golden`: differing bytes (everything, when the sizes differ).
fn distance(golden: &[u8], copy: &[u8]) -> usize {
    if golden.len() != copy.len() {
        return golden.len().max(copy.len());
    }
    golden.iter().zip(copy).filter(|(a, b)| a != b).count()
}

/// The reasons the map gives for keeping a function (the others are for removing one).
fn kept_reason(reason: &str) -> bool {
    reason == "kernel"
        || reason.starts_with("called: ")
        || reason == "address taken"
        || reason.starts_with("kept: ")
}

#[test]
fn map_agrees_with_what_nvlink_kept_on_every_case() {
    let have_ptxas = ptxas_available();
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("map-corpus");
    std::fs::create_dir_all(&work).unwrap();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        // (ELF images only: `-emit-ptx` cases hold PTX text.)
        .filter(|p| {
            std::fs::read(p.join("expected.cubin")).is_ok_and(|d| d.starts_with(b"\x7fELF"))
        })
        .collect();
    dirs.sort();
    let (mut cases, mut functions, mut removed, mut weak_checked) = (0, 0, 0, 0);
    let mut wrong = Vec::new();
    for dir in dirs {
        let case = dir.file_name().unwrap().to_string_lossy().into_owned();
        let status = std::fs::read_to_string(dir.join("nvlink.status")).unwrap_or_default();
        let args: Vec<String> = std::fs::read_to_string(dir.join("args"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let relocatable = args.iter().any(|a| a == "-r" || a == "--relocatable-link");
        let ptx = args
            .iter()
            .any(|a| a.to_ascii_lowercase().ends_with(".ptx"));
        // LTO links name `../_toolkit/nvvm` (beside the corpus copies the corpus test makes);
        // here the toolchain's nvvm is named directly, and without it (or ptxas) the case
        // is left out.
        let lto = args.iter().any(|a| a.starts_with("-nvvmpath"));
        let nvvm = if lto { common::toolchain_nvvm() } else { None };
        if status.trim() != "0"
            || relocatable
            || (ptx && !have_ptxas)
            || (lto && (nvvm.is_none() || !have_ptxas))
        {
            continue;
        }
        // The output goes to the work folder; the inputs are read where they are.
        let out = work.join(format!("{case}.cubin"));
        let map = work.join(format!("{case}.map"));
        let mut argv: Vec<String> = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a == "-o" {
                it.next();
                argv.extend(["-o".into(), out.display().to_string()]);
            } else if let (true, Some(nvvm)) = (a.starts_with("-nvvmpath="), &nvvm) {
                argv.push(format!("-nvvmpath={}", nvvm.display()));
            } else {
                argv.push(a.clone());
            }
        }
        argv.extend(["--print-map".into(), map.display().to_string()]);
        let env = RunEnv {
            cwd: dir.clone(),
            program_name: "nvlink".into(),
        };
        let outcome = run(&argv, &env);
        if outcome.status != 0 {
            let stderr = String::from_utf8_lossy(&outcome.stderr);
            if stderr.contains("ptxas") && !have_ptxas {
                continue;
            }
            wrong.push(format!("{case}: elfw exited {}: {stderr}", outcome.status));
            continue;
        }
        let golden = function_names(&std::fs::read(dir.join("expected.cubin")).unwrap());
        let text = std::fs::read_to_string(&map).expect("the map was written");
        cases += 1;
        for f in map_functions(&text) {
            functions += 1;
            removed += usize::from(!f.kept);
            if f.kept != golden.contains(&f.name) {
                wrong.push(format!(
                    "{case}: {} is {} by the map ({}) but {} by nvlink",
                    f.name,
                    if f.kept { "kept" } else { "removed" },
                    f.reason,
                    if f.kept { "removed" } else { "kept" },
                ));
            }
            if f.kept != kept_reason(&f.reason) {
                wrong.push(format!("{case}: {}: reason {:?}", f.name, f.reason));
            }
        }
        // Weak functions: nvlink's image carries the code of the copy the map says won (its
        // bytes are the nearer ones; relocated fields aside, the loser's differ).
        let expected = std::fs::read(dir.join("expected.cubin")).unwrap();
        for (name, winner, loser) in weak_contests(&text) {
            let (Ok(w), Ok(l)) = (
                std::fs::read(dir.join(&winner)),
                std::fs::read(dir.join(&loser)),
            ) else {
                continue;
            };
            let (Some(g), Some(w), Some(l)) = (
                text_of(&expected, &name),
                text_of(&w, &name),
                text_of(&l, &name),
            ) else {
                continue;
            };
            let (dw, dl) = (distance(&g, &w), distance(&g, &l));
            if dw == dl {
                continue;
            }
            weak_checked += 1;
            if dw > dl {
                wrong.push(format!(
                    "{case}: {name}: the map says {winner} won, nvlink's code is {loser}'s"
                ));
            }
        }
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(&map);
    }
    println!(
        "map: {cases} cases, {functions} functions ({removed} removed), \
         {weak_checked} weak contests told apart by code, all as nvlink"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The corpus has well over a hundred such cases; far fewer means the test saw nothing.
    assert!(
        cases >= 150 && removed >= 500,
        "{cases} cases, {removed} removed"
    );
}
