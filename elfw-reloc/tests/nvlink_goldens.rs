//! elfw-reloc against nvlink 13.5.37 itself.
//!
//! Each directory under `fixtures/links/` holds the inputs of one nvlink link (numbered in
//! command-line order), nvlink's `out.cubin` and the command (`cmd.txt`); `fixtures/make-links.sh`
//! made them from `fixtures/sources/`. For every relocation of the inputs the check requires:
//! - nvlink kept it for the driver ⇔ `disposition` says Keep, with the type `driver_type` says,
//!   and the bytes are as in the input;
//! - nvlink dropped it ⇔ `disposition` says Drop, and the bytes are as in the input;
//! - nvlink applied it ⇔ `disposition` says Apply, and `apply` on the input bytes with the
//!   symbol's value from the output reproduces nvlink's bytes exactly (when the output no
//!   longer names the symbol, the change must lie inside the type's fields and read back the
//!   same value for every relocation against that symbol).
//!
//! With the toolchain present, `fresh_links` remakes the links for every target in a temporary
//! directory and checks those too.

mod common;

use common::elf::Elf;
use common::golden::{check_link, Report};
use elfw_reloc::types::*;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn check_dir(dir: &Path) -> Report {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".cubin") && n != "out.cubin"
        })
        .collect();
    // "1-a.cubin", "2-b.cubin", ...: command-line order.
    inputs.sort_by_key(|p| {
        let n = p.file_name().unwrap().to_string_lossy().into_owned();
        n.split('-')
            .next()
            .and_then(|k| k.parse::<u32>().ok())
            .unwrap_or(u32::MAX)
    });
    let case = dir.file_name().unwrap().to_string_lossy().into_owned();
    let inputs: Vec<Elf> = inputs.iter().map(|p| Elf::read(p).unwrap()).collect();
    let out = Elf::read(&dir.join("out.cubin")).unwrap();
    check_link(&case, &inputs, &out)
}

fn check_all(root: &Path) -> (Report, usize) {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("out.cubin").exists())
        .collect();
    dirs.sort();
    let mut report = Report::default();
    for d in &dirs {
        report.merge(check_dir(d));
    }
    (report, dirs.len())
}

fn print(report: &Report, links: usize) {
    println!("{links} links; per type: exact / inferred / kept / dropped");
    for (t, c) in &report.by_type {
        println!(
            "  {:<30} {:>5} {:>5} {:>5} {:>5}",
            elfw_reloc::name(*t).unwrap_or("?"),
            c.exact,
            c.inferred,
            c.kept,
            c.dropped
        );
    }
    for ((from, to), n) in &report.renamed {
        println!(
            "  kept as another type: {} -> {} ({n})",
            elfw_reloc::name(*from).unwrap_or("?"),
            elfw_reloc::name(*to).unwrap_or("?")
        );
    }
    for (section, n) in &report.skipped {
        println!("  not checked: {n} relocations of {section}");
    }
    let mut shared: Vec<_> = report.shared_offsets.iter().collect();
    shared.sort();
    shared.dedup();
    for (name, value, st_value) in shared {
        println!("  shared {name}: relocated with {value:#x}, output st_value {st_value:#x}");
    }
    for f in report.failures.iter().take(40) {
        println!("FAIL {f}");
    }
}

/// Types the committed links must keep covering, and how.
fn assert_coverage(report: &Report) {
    let c = |t: u32| report.by_type.get(&t).copied().unwrap_or_default();
    for t in [
        R_CUDA_32,
        R_CUDA_64,
        R_CUDA_ABS16_32,
        R_CUDA_BINDLESSOFF14_40,
        R_CUDA_CONST_FIELD21_38,
        R_CUDA_CONST_FIELD22_37,
        R_CUDA_UNUSED_CLEAR64,
        R_MERCURY_ABS64,
        0x40, // R_CUDA_CONST_FIELD19_40
    ] {
        assert!(
            c(t).exact > 0,
            "no exact check of {}",
            elfw_reloc::name(t).unwrap()
        );
    }
    for t in [R_CUDA_ABS24_40, R_CUDA_ABS32_32, R_CUDA_ABS56_16_34] {
        assert!(
            c(t).exact + c(t).inferred > 0,
            "{} never applied",
            elfw_reloc::name(t).unwrap()
        );
    }
    for t in [
        R_CUDA_64,
        R_CUDA_G64,
        R_CUDA_ABS32_LO_32,
        R_CUDA_ABS32_HI_32,
        R_CUDA_ABS47_34,
        R_CUDA_ABS55_16_34,
        R_CUDA_FUNC_DESC32_LO_32,
        R_CUDA_FUNC_DESC32_HI_32,
        R_CUDA_UNIFIED,
        R_CUDA_UNIFIED32_LO_32,
        R_CUDA_UNIFIED32_HI_32,
    ] {
        assert!(c(t).kept > 0, "{} never kept", elfw_reloc::name(t).unwrap());
    }
    for t in [
        R_CUDA_YIELD_OPCODE9_0,
        R_CUDA_YIELD_CLEAR_PRED4_87,
        R_CUDA_UNUSED_CLEAR64,
    ] {
        assert!(
            c(t).dropped > 0,
            "{} never dropped",
            elfw_reloc::name(t).unwrap()
        );
    }
}

#[test]
fn committed_nvlink_links() {
    let root = match std::env::var_os("ELFW_RELOC_LINKS") {
        Some(dir) => PathBuf::from(dir),
        None => fixtures().join("links"),
    };
    let (report, links) = check_all(&root);
    print(&report, links);
    assert!(
        links >= 24,
        "expected the committed links under {}",
        root.display()
    );
    assert!(
        report.failures.is_empty(),
        "{} failures",
        report.failures.len()
    );
    assert_coverage(&report);
}

fn cuda_root() -> Option<PathBuf> {
    let root = std::env::var_os("CUDA_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13"));
    root.join("bin/nvlink").exists().then_some(root)
}

#[test]
fn fresh_links() {
    let Some(root) = cuda_root() else {
        println!("fresh_links: skipped, no CUDA 13.5 toolchain (set CUDA_ROOT)");
        return;
    };
    let out = std::env::temp_dir().join(format!("elfw-reloc-links-{}", std::process::id()));
    let status = std::process::Command::new("bash")
        .arg(fixtures().join("make-links.sh"))
        .arg(&out)
        .env("CUDA_ROOT", &root)
        .status()
        .expect("bash");
    assert!(status.success(), "make-links.sh failed");
    let (report, links) = check_all(&out);
    print(&report, links);
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        report.failures.is_empty(),
        "{} failures",
        report.failures.len()
    );
}
