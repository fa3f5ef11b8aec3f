//! The link map (`--print-map`'s data) on corpus cases whose reasons nvlink's goldens settle:
//! the functions the golden lacks are the ones the map calls unreachable, and the weak copy
//! the golden carries is the one the map says won, for the reason the case was built around.

use elfw_core::elf::ElfFile;
use elfw_core::link::{link, InputObject, LinkMap, LinkOptions, MapReason};
use elfw_core::target::Target;
use std::path::Path;

fn corpus(case: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/corpus")
        .join(case)
}

/// Links the case's cubins (named in its `args`) with a map.
fn map_of(case: &str) -> (LinkMap, Vec<String>) {
    let dir = corpus(case);
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    let args: Vec<&str> = args.lines().collect();
    let arch = args.iter().find_map(|a| a.strip_prefix("-arch=")).unwrap();
    let names: Vec<String> = args
        .iter()
        .filter(|a| a.ends_with(".cubin") && **a != "out.cubin")
        .map(|a| a.to_string())
        .collect();
    let bytes: Vec<Vec<u8>> = names
        .iter()
        .map(|n| std::fs::read(dir.join(n)).unwrap())
        .collect();
    let inputs: Vec<InputObject<'_>> = names
        .iter()
        .zip(&bytes)
        .map(|(n, b)| InputObject {
            name: n.clone(),
            elf: ElfFile::parse(b).unwrap(),
        })
        .collect();
    let mut opts = LinkOptions::new(Target::parse(arch).unwrap());
    opts.input_names = names.clone();
    opts.want_map = true;
    let out = link(&inputs, &opts).expect("the case links");
    (out.map.expect("a map was asked for"), names)
}

/// The names in a golden's `.strtab`.
fn golden_names(case: &str) -> Vec<String> {
    let b = std::fs::read(corpus(case).join("expected.cubin")).unwrap();
    let elf = ElfFile::parse(&b).unwrap();
    elf.symbols()
        .filter_map(|s| s.ok())
        .map(|s| String::from_utf8_lossy(s.name).into_owned())
        .collect()
}

#[test]
fn dead_code_reasons_match_what_nvlink_kept() {
    let case = "sm90_cross_tu_dce";
    let (map, _) = map_of(case);
    let golden = golden_names(case);
    let mut unreachable = 0;
    for f in &map.functions {
        // Kept exactly when nvlink's image names it.
        assert_eq!(f.kept, golden.contains(&f.name), "{}: kept", f.name);
        match &f.reason {
            MapReason::Unreachable => {
                unreachable += 1;
                assert!(!f.kept, "{} unreachable but kept", f.name);
            }
            MapReason::Kernel => assert!(f.kernel && f.kept),
            MapReason::Reachable(path) => {
                assert!(f.kept);
                // A chain of calls from a kernel down to the function.
                let first = map.functions.iter().find(|g| g.name == path[0]).unwrap();
                assert!(first.kernel || first.reason == MapReason::AddressTaken);
                assert_eq!(path.last(), Some(&f.name));
            }
            other => panic!("{}: unexpected reason {other:?}", f.name),
        }
    }
    assert!(unreachable >= 2, "the case has dead functions in both TUs");
}

#[test]
fn weak_contest_reasons() {
    // Two copies compiled with different -maxrregcount: the one with fewer registers wins.
    let (map, names) = map_of("sm90_weak_maxrregcount");
    assert!(!map.weak_contests.is_empty());
    for c in &map.weak_contests {
        assert_eq!(c.why, "fewer registers", "{}", c.symbol);
        assert_eq!(names[c.winner], "low.cubin", "{}", c.symbol);
    }
    // PTX `.target` sm_80 against sm_90 (the sm_90 copy first): the newer target wins.
    let (map, names) = map_of("sm90_weak_ptx_target_swapped");
    assert!(!map.weak_contests.is_empty());
    for c in &map.weak_contests {
        assert_eq!(c.why, "newer PTX target", "{}", c.symbol);
        assert_eq!(names[c.winner], "t90.cubin", "{}", c.symbol);
    }
}
