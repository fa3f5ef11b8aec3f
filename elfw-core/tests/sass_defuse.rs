//! The sm_100/sm_120 SASS operand decoder (`link::sass::def_use`) against golden register
//! def/use derived from NVIDIA's nvdisasm text (`tests/data/sass/*.txt`, written by
//! `tests/data/sass/golden.py`; never by elfw). Files named `heldout*.txt` come from cubins that
//! were not among the images the table was learned from (compiled with other options); they are
//! reported apart, must have no wrong instruction either, and may have more unknown forms.

use elfw_core::link::sass::{def_use, Reg, RegKind};
use std::collections::BTreeSet;

fn parse_regs(s: &str) -> BTreeSet<Reg> {
    s.split_whitespace()
        .filter(|t| *t != "-")
        .map(|t| {
            let (kind, num) = if let Some(n) = t.strip_prefix("UR") {
                (RegKind::Ur, n)
            } else if let Some(n) = t.strip_prefix("UP") {
                (RegKind::Up, n)
            } else if let Some(n) = t.strip_prefix('R') {
                (RegKind::R, n)
            } else if let Some(n) = t.strip_prefix('P') {
                (RegKind::P, n)
            } else {
                panic!("bad register {t}")
            };
            Reg {
                kind,
                num: num.parse().expect("register number"),
            }
        })
        .collect()
}

/// The opcode name of an nvdisasm line (guard and modifiers dropped).
fn mnemonic(text: &str) -> String {
    let t = text.trim_start();
    let t = if t.starts_with('@') {
        t.split_once(' ').map_or("", |x| x.1).trim_start()
    } else {
        t
    };
    t.split(|c: char| c == '.' || c.is_whitespace())
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn def_use_matches_nvdisasm() {
    // ELFW_SASS_GOLDEN names another folder of golden files (e.g. a whole data set).
    let dir = std::env::var_os("ELFW_SASS_GOLDEN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sass")
        });
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("golden folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no golden files in {}", dir.display());
    let (mut total, mut unknown) = (0usize, Vec::new());
    let mut wrong = Vec::new();
    let mut wrong_by = std::collections::BTreeMap::new();
    let mut unknown_by = std::collections::BTreeMap::new();
    // Held-out files: (instructions, wrong, not decoded).
    let mut held = (0usize, 0usize, 0usize);
    for f in &files {
        let heldout = f
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("heldout"));
        let (total0, wrong0, unknown0) = (total, wrong.len(), unknown.len());
        let text = std::fs::read_to_string(f).expect("golden file");
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let cols: Vec<&str> = line.splitn(7, " | ").collect();
            assert_eq!(cols.len(), 7, "bad golden line {line}");
            let mut words = cols[0].split_whitespace();
            let lo = u64::from_str_radix(words.next().expect("lo"), 16).expect("lo hex");
            let hi = u64::from_str_radix(words.next().expect("hi"), 16).expect("hi hex");
            total += 1;
            let name = mnemonic(cols[6]);
            if elfw_core::link::sass::mnemonic(lo).is_some_and(|n| n != name) {
                wrong.push(format!(
                    "{line}\n    name {:?}",
                    elfw_core::link::sass::mnemonic(lo)
                ));
            }
            let Some(got) = def_use(lo, hi) else {
                *unknown_by.entry(mnemonic(cols[6])).or_insert(0usize) += 1;
                unknown.push(cols[6].to_string());
                continue;
            };
            let defs: BTreeSet<Reg> = got.defs.iter().copied().collect();
            let uses: BTreeSet<Reg> = got.uses.iter().copied().collect();
            let guard: BTreeSet<Reg> = got.guard.into_iter().collect();
            if defs != parse_regs(cols[1])
                || uses != parse_regs(cols[2])
                || guard != parse_regs(cols[3])
                || got.address.iter().copied().collect::<BTreeSet<Reg>>() != parse_regs(cols[4])
                || got.desc.iter().copied().collect::<BTreeSet<Reg>>() != parse_regs(cols[5])
            {
                wrong.push(format!("{line}\n    got {got:?}"));
                *wrong_by.entry(mnemonic(cols[6])).or_insert(0usize) += 1;
            }
        }
        if heldout {
            held.0 += total - total0;
            held.1 += wrong.len() - wrong0;
            held.2 += unknown.len() - unknown0;
        }
    }
    eprintln!(
        "sass_defuse: {total} instructions, {} wrong, {} not decoded",
        wrong.len(),
        unknown.len()
    );
    eprintln!(
        "sass_defuse: held-out files: {} instructions, {} wrong, {} not decoded",
        held.0, held.1, held.2
    );
    eprintln!("sass_defuse: wrong by opcode {wrong_by:?}");
    eprintln!("sass_defuse: not decoded by opcode {unknown_by:?}");
    assert!(
        wrong.is_empty(),
        "{} of {total} wrong:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(50)].join("\n")
    );
    // An unknown form is safe (the caller leaves the function alone) but must stay rare: at most
    // 1% of the instructions of images learned from, 5% of held-out ones.
    assert!(
        held.2 * 20 <= held.0,
        "{} of {} held-out instructions not decoded",
        held.2,
        held.0
    );
    assert!(
        (unknown.len() - held.2) * 100 <= total - held.0,
        "{} of {total} not decoded: {:?}",
        unknown.len(),
        &unknown[..unknown.len().min(20)]
    );
}
