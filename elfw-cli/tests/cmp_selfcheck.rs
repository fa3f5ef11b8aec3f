//! Self-checks of `elfw cmp` (issue 3, part 3). Inputs are nvlink's own images from the
//! committed corpus (`tests/corpus/*/expected.cubin`), changed in known ways by the small ELF
//! rewriters below; the checks that must run nvlink skip with a loud notice when the toolchain
//! is absent.

use elfw_cli::{run, RunEnv};
use elfw_core::cmp::formats::{is_callgraph_marker, records};
use elfw_core::cmp::{compare, Comparison, Subject, Verdict};
use elfw_core::elf::{ElfFile, SectionHeader};
mod common;

use common::nvlink;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// `(case name, expected.cubin bytes)` for every corpus case where nvlink wrote an image (an
/// ELF image: `-emit-ptx` cases hold PTX text).
fn corpus_images() -> Vec<(String, Vec<u8>)> {
    let dir = repo().join("tests/corpus");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (the corpus is committed; is the checkout complete?)",
                dir.display()
            )
        })
        .filter_map(|e| {
            let p = e.ok()?.path().join("expected.cubin");
            let name = p.parent()?.file_name()?.to_string_lossy().into_owned();
            Some((name, std::fs::read(&p).ok()?))
        })
        .filter(|(_, d)| d.starts_with(b"\x7fELF"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no tests/corpus/*/expected.cubin");
    out
}

/// The image of `case`, or of the first corpus case when that one is not there.
fn image(case: &str) -> (String, Vec<u8>) {
    let all = corpus_images();
    all.iter()
        .find(|(n, _)| n == case)
        .cloned()
        .unwrap_or_else(|| all[0].clone())
}

fn put_u32(d: &mut [u8], o: usize, v: u32) {
    d[o..o + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(d: &mut [u8], o: usize, v: u64) {
    d[o..o + 8].copy_from_slice(&v.to_le_bytes());
}
fn u32_at(d: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(d[o..o + 4].try_into().unwrap())
}
fn u64_at(d: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(d[o..o + 8].try_into().unwrap())
}

fn sections(d: &[u8]) -> Vec<(String, SectionHeader)> {
    let elf = ElfFile::parse(d).unwrap();
    (0..elf.sections().len() as u32)
        .map(|i| {
            (
                String::from_utf8_lossy(elf.section_name(i).unwrap()).into_owned(),
                *elf.section(i).unwrap(),
            )
        })
        .collect()
}

fn shdr_at(d: &[u8], i: usize) -> usize {
    u64_at(d, 40) as usize + 64 * i
}

/// Rewrites an ELF file with a gap of zeros before every section, and before the header
/// tables, that does not start strictly inside a segment's file bytes: every offset moves, no
/// byte of any section or header changes, segments keep their internal layout. The gap is a
/// multiple of every alignment in the file.
fn relayout(d: &[u8]) -> Vec<u8> {
    let elf = ElfFile::parse(d).unwrap();
    let h = *elf.header();
    let secs = elf.sections().to_vec();
    let phdrs = elf.program_headers().unwrap();
    let gap = secs
        .iter()
        .map(|s| s.addralign)
        .max()
        .unwrap_or(1)
        .max(0x100)
        .next_power_of_two();
    let inside = |x: u64| {
        phdrs
            .iter()
            .any(|p| p.offset < x && x < p.offset + p.filesz)
    };
    let mut bounds: Vec<u64> = secs
        .iter()
        .filter(|s| s.has_file_data() && s.size > 0)
        .map(|s| s.offset)
        .chain([h.phoff, h.shoff].into_iter().filter(|&x| x != 0))
        .filter(|&x| !inside(x))
        .collect();
    bounds.sort_unstable();
    bounds.dedup();
    // Items at a boundary move with the gap before it; memory-only items stay with what
    // precedes them.
    let moved = |x: u64, with_gap: bool| {
        x + gap
            * bounds
                .iter()
                .filter(|&&b| if with_gap { b <= x } else { b < x })
                .count() as u64
    };
    let mut out = vec![0u8; d.len() + gap as usize * (bounds.len() + 1)];
    out[..64].copy_from_slice(&d[..64]);
    for s in secs.iter().filter(|s| s.has_file_data()) {
        let (from, to) = (s.offset as usize, moved(s.offset, true) as usize);
        out[to..to + s.size as usize].copy_from_slice(&d[from..from + s.size as usize]);
    }
    let (phoff, shoff) = (moved(h.phoff, true), moved(h.shoff, true));
    let (phsize, shsize) = (h.phnum as usize * 56, h.shnum as usize * 64);
    out[phoff as usize..][..phsize].copy_from_slice(&d[h.phoff as usize..][..phsize]);
    out[shoff as usize..][..shsize].copy_from_slice(&d[h.shoff as usize..][..shsize]);
    put_u64(&mut out, 32, if h.phnum == 0 { h.phoff } else { phoff });
    put_u64(&mut out, 40, shoff);
    for (i, s) in secs.iter().enumerate().skip(1) {
        put_u64(
            &mut out,
            shoff as usize + 64 * i + 24,
            moved(s.offset, s.has_file_data()),
        );
    }
    for (i, p) in phdrs.iter().enumerate() {
        put_u64(
            &mut out,
            phoff as usize + 56 * i + 8,
            moved(p.offset, p.filesz != 0),
        );
    }
    let end = secs
        .iter()
        .map(|s| moved(s.offset, true) + s.size)
        .chain([shoff + shsize as u64, phoff + phsize as u64]);
    out.truncate(end.max().unwrap() as usize);
    out
}

/// Permutes every symbol table (locals among locals, globals among globals, sorted by
/// descending name; equal names keep their order) and rewrites every symbol index that
/// points into it: relocations, `sh_info` of `.text.*`, `.nv.info` records, `.nv.callgraph`,
/// `.nv.prototype`, `.symtab_shndx`.
fn reorder_symbols(d: &[u8]) -> Vec<u8> {
    let mut out = d.to_vec();
    let secs = sections(d);
    let elf = ElfFile::parse(d).unwrap();
    for (t, (_, th)) in secs
        .iter()
        .enumerate()
        .filter(|(_, (_, s))| s.sh_type == 2 || s.sh_type == 0x7000_0085)
    {
        let n = (th.size / 24) as usize;
        let first_global = (th.info as usize).clamp(1, n);
        let name = |i: usize| {
            elf.string(th.link, u32_at(d, th.offset as usize + 24 * i))
                .unwrap_or(b"")
                .to_vec()
        };
        let mut order: Vec<usize> = (0..n).collect();
        order[1..first_global].sort_by_key(|&i| std::cmp::Reverse(name(i)));
        order[first_global..].sort_by_key(|&i| std::cmp::Reverse(name(i)));
        let mut new_index = vec![0u32; n];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new as u32;
            let (from, to) = (th.offset as usize + 24 * old, th.offset as usize + 24 * new);
            out[to..to + 24].copy_from_slice(&d[from..from + 24]);
        }
        let map = |v: u32| new_index.get(v as usize).copied().unwrap_or(v);
        for (i, (_, s)) in secs
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| s.link as usize == t)
        {
            let o = s.offset as usize;
            match s.sh_type {
                4 | 9 | 0x7000_0082 => {
                    for e in (o..o + s.size as usize).step_by(s.entsize as usize) {
                        let sym = (u64_at(d, e + 8) >> 32) as u32;
                        put_u32(&mut out, e + 12, map(sym));
                    }
                }
                18 => {
                    for (new, &old) in order.iter().enumerate() {
                        let v = u32_at(d, o + 4 * old);
                        put_u32(&mut out, o + 4 * new, v);
                    }
                }
                0x7000_0000 | 0x7000_0083 => {
                    for r in records(&d[o..o + s.size as usize]).expect("well-formed .nv.info") {
                        for w in r.symbol_word_offsets() {
                            let at = o + r.offset + 4 + 4 * w;
                            put_u32(&mut out, at, map(u32_at(d, at)));
                        }
                    }
                }
                0x7000_0001 | 0x7000_008a => {
                    for at in (o..o + s.size as usize).step_by(4) {
                        if !is_callgraph_marker(u32_at(d, at)) {
                            put_u32(&mut out, at, map(u32_at(d, at)));
                        }
                    }
                }
                0x7000_0002 | 0x7000_008b => {
                    for at in (o..o + s.size as usize).step_by(8) {
                        put_u32(&mut out, at, map(u32_at(d, at)));
                    }
                }
                _ => {}
            }
            let info_is_section = s.flags & 0x40 != 0 || matches!(s.sh_type, 4 | 9 | 0x7000_0082);
            if !info_is_section && s.info != 0 && s.sh_type != 2 && s.sh_type != 0x7000_0085 {
                put_u32(&mut out, shdr_at(d, i) + 44, map(s.info));
            }
        }
    }
    out
}

fn tkinfo(d: &[u8]) -> SectionHeader {
    sections(d)
        .into_iter()
        .find(|(n, _)| n == ".note.nv.tkinfo")
        .expect(".note.nv.tkinfo")
        .1
}

/// Length of the first note at `o`: header, name and descriptor padded to 4.
fn note_len(d: &[u8], o: usize) -> usize {
    12 + (u32_at(d, o) as usize).next_multiple_of(4)
        + (u32_at(d, o + 4) as usize).next_multiple_of(4)
}

fn replace_in(d: &mut [u8], range: std::ops::Range<usize>, from: &[u8], to: &[u8]) -> bool {
    let hay = &d[range.clone()];
    let Some(at) = hay.windows(from.len()).position(|w| w == from) else {
        return false;
    };
    d[range.start + at..][..to.len()].copy_from_slice(to);
    true
}

fn show(c: &Comparison) -> String {
    c.to_string()
}

#[test]
fn same_bytes_are_identical() {
    let (_, d) = image("sm90_several_kernels");
    let c = compare(&d, &d.clone());
    assert_eq!(c.verdict, Verdict::Identical, "{}", show(&c));
}

#[test]
fn one_byte_in_text_is_different_and_named() {
    let mut checked = 0;
    for (case, d) in corpus_images() {
        let text = sections(&d)
            .into_iter()
            .enumerate()
            .find(|(_, (n, s))| n.starts_with(".text.") && s.size > 0);
        let Some((i, (name, s))) = text else { continue };
        checked += 1;
        let at = (s.size / 2) as usize | 3;
        let mut changed = d.clone();
        changed[s.offset as usize + at] ^= 0x40;
        let c = compare(&d, &changed);
        assert_eq!(c.verdict, Verdict::Different, "{case}: {}", show(&c));
        let first = &c.differences[0];
        let expected_subject = Subject::Section {
            name: name.clone(),
            expected: Some(i as u32),
            actual: Some(i as u32),
        };
        assert_eq!(first.subject, expected_subject, "{case}: {}", show(&c));
        assert_eq!(first.offset, Some(at as u64), "{case}: {}", show(&c));
        assert_eq!(
            c.differences.len(),
            1,
            "{case}: exactly one difference: {}",
            show(&c)
        );
    }
    assert!(checked > 0, "no corpus image with a .text section");
}

#[test]
fn cli_reports_text_change_with_section_and_offset() {
    let (case, d) = image("sm90_several_kernels");
    let (name, s) = sections(&d)
        .into_iter()
        .find(|(n, _)| n.starts_with(".text."))
        .unwrap();
    let mut changed = d.clone();
    changed[s.offset as usize + 0x24] ^= 1;
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cmp_selfcheck_cli");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("e.cubin"), &d).unwrap();
    std::fs::write(dir.join("a.cubin"), &changed).unwrap();
    std::fs::write(dir.join("not-elf.cubin"), b"garbage").unwrap();
    let env = RunEnv {
        cwd: dir,
        program_name: "elfw".into(),
    };
    let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let out = run(&args(&["cmp", "e.cubin", "a.cubin"]), &env);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status, 1, "{case}: {stdout}");
    assert_eq!(stdout.lines().next(), Some("DIFFERENT"));
    assert!(
        stdout.contains(&name) && stdout.contains("+0x24"),
        "{stdout}"
    );
    let out = run(&args(&["cmp", "e.cubin", "e.cubin"]), &env);
    assert_eq!(
        (out.status, String::from_utf8(out.stdout).unwrap()),
        (0, "IDENTICAL\n".to_string())
    );
    let out = run(&args(&["cmp", "e.cubin", "not-elf.cubin"]), &env);
    assert_eq!(out.status, 2);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("not-elf.cubin"));
    let out = run(&args(&["cmp", "missing.cubin", "e.cubin"]), &env);
    assert_eq!(out.status, 2);
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("missing.cubin"));
}

#[test]
fn relayout_is_equal_not_identical() {
    for (case, d) in corpus_images() {
        let moved = relayout(&d);
        assert_ne!(moved, d);
        let c = compare(&d, &moved);
        assert_eq!(c.verdict, Verdict::Equal, "{case}: {}", show(&c));
        let c = compare(&moved, &d);
        assert_eq!(c.verdict, Verdict::Equal, "{case} (reversed): {}", show(&c));
    }
}

#[test]
fn padding_inside_a_segment_is_not_equal() {
    // Moving one section inside a loaded segment changes the segment's memory image.
    let (case, d) = image("sm90_several_kernels");
    let elf = ElfFile::parse(&d).unwrap();
    let load = elf
        .program_headers()
        .unwrap()
        .into_iter()
        .find(|p| p.p_type == 1 && p.flags & 1 != 0)
        .unwrap();
    let secs = sections(&d);
    let (i, (_, s)) = secs
        .iter()
        .enumerate()
        .rfind(|(_, (_, s))| {
            s.has_file_data() && s.offset > load.offset && s.offset < load.offset + load.filesz
        })
        .unwrap();
    let mut changed = d.clone();
    // Shift the last section of the segment by its alignment, into what was padding or the
    // next item; then the segment's spans differ.
    let step = s.addralign.max(16);
    put_u64(&mut changed, shdr_at(&d, i) + 24, s.offset + step);
    let c = compare(&d, &changed);
    assert!(!c.verdict.at_least(Verdict::Equal), "{case}: {}", show(&c));
}

#[test]
fn reordered_symbols_are_equivalent_not_equal() {
    let mut checked = 0;
    for (case, d) in corpus_images() {
        let r = reorder_symbols(&d);
        if r == d {
            continue; // already in the permuted order
        }
        checked += 1;
        let c = compare(&d, &r);
        assert_eq!(c.verdict, Verdict::Equivalent, "{case}: {}", show(&c));
        assert!(!c.differences.is_empty());
    }
    assert!(checked > 0, "no corpus image could be reordered");
}

#[test]
fn changed_symbol_value_after_reorder_is_different() {
    let (case, d) = image("sm90_several_kernels");
    let mut r = reorder_symbols(&d);
    let (_, st) = sections(&r)
        .into_iter()
        .find(|(n, _)| n == ".symtab")
        .unwrap();
    let last = st.offset as usize + st.size as usize - 24;
    let v = u64_at(&r, last + 8);
    put_u64(&mut r, last + 8, v + 0x10);
    let c = compare(&d, &r);
    assert_eq!(c.verdict, Verdict::Different, "{case}: {}", show(&c));
    assert!(
        c.differences.iter().any(|x| x.field == "st_value"),
        "{case}: {}",
        show(&c)
    );
}

#[test]
fn modified_linker_note_is_equal() {
    for (case, d) in corpus_images() {
        let t = tkinfo(&d);
        let first = t.offset as usize..t.offset as usize + note_len(&d, t.offset as usize);
        let mut changed = d.clone();
        assert!(
            replace_in(&mut changed, first, b"13.5.37", b"99.9.99"),
            "{case}: version in the first note"
        );
        let c = compare(&d, &changed);
        assert_eq!(c.verdict, Verdict::Equal, "{case}: {}", show(&c));
    }
}

#[test]
fn longer_linker_note_is_equal() {
    let (case, d) = image("sm90_several_kernels");
    let mut r = relayout(&d);
    let t = tkinfo(&r);
    let o = t.offset as usize;
    let first = note_len(&r, o);
    let rest = r[o + first..o + t.size as usize].to_vec();
    let descsz = u32_at(&r, o + 4);
    put_u32(&mut r, o + 4, descsz + 4);
    r[o + first..o + first + 4].copy_from_slice(b"elfw");
    r[o + first + 4..o + first + 4 + rest.len()].copy_from_slice(&rest);
    let i = sections(&r)
        .iter()
        .position(|(n, _)| n == ".note.nv.tkinfo")
        .unwrap();
    let at = shdr_at(&r, i) + 32;
    put_u64(&mut r, at, t.size + 4);
    let c = compare(&d, &r);
    assert_eq!(c.verdict, Verdict::Equal, "{case}: {}", show(&c));
}

#[test]
fn modified_input_note_is_different() {
    let (case, d) = image("sm90_several_kernels");
    let t = tkinfo(&d);
    let second = t.offset as usize + note_len(&d, t.offset as usize);
    let mut changed = d.clone();
    assert!(
        second < (t.offset + t.size) as usize,
        "{case}: a second note"
    );
    assert!(replace_in(
        &mut changed,
        second..(t.offset + t.size) as usize,
        b"13.5.37",
        b"99.9.99"
    ));
    let c = compare(&d, &changed);
    assert_eq!(c.verdict, Verdict::Different, "{case}: {}", show(&c));
    assert!(
        c.differences[0].to_string().contains(".note.nv.tkinfo"),
        "{}",
        show(&c)
    );
}

// ---- checks that run nvlink -------------------------------------------------------------

fn link(nvlink: &Path, case: &Path, inputs: &[&str], out: &Path) -> Vec<u8> {
    let status = std::process::Command::new(nvlink)
        .current_dir(case)
        .arg("-arch=sm_90")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .status()
        .unwrap();
    assert!(status.success(), "nvlink {inputs:?} failed");
    std::fs::read(out).unwrap()
}

#[test]
fn nvlink_twice_is_identical_and_input_order_is_caught() {
    let Some(nvlink) = nvlink() else { return };
    let case = repo().join("tests/corpus/sm90_several_kernels");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cmp_selfcheck_nvlink");
    std::fs::create_dir_all(&tmp).unwrap();
    let first = link(
        &nvlink,
        &case,
        &["k.cubin", "k2.cubin"],
        &tmp.join("1.cubin"),
    );
    let second = link(
        &nvlink,
        &case,
        &["k.cubin", "k2.cubin"],
        &tmp.join("2.cubin"),
    );
    let c = compare(&first, &second);
    assert_eq!(c.verdict, Verdict::Identical, "{}", show(&c));
    let golden = std::fs::read(case.join("expected.cubin")).unwrap();
    assert_eq!(
        compare(&golden, &first).verdict,
        Verdict::Identical,
        "the golden is nvlink's output"
    );

    let swapped = link(
        &nvlink,
        &case,
        &["k2.cubin", "k.cubin"],
        &tmp.join("swapped.cubin"),
    );
    let c = compare(&first, &swapped);
    eprintln!("input order swapped (k.cubin k2.cubin → k2.cubin k.cubin):\n{c}");
    assert!(
        !c.verdict.at_least(Verdict::Equal),
        "a swap must not pass as EQUAL: {}",
        show(&c)
    );
}

#[test]
fn damaged_images_never_panic() {
    // Truncations and byte flips across headers and tables: any verdict, but no panic, and a
    // malformed file is reported as such rather than compared.
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (case, d) in corpus_images().into_iter().step_by(7) {
        for cut in [0, 3, 16, 63, 64, 65, d.len() / 3, d.len() / 2, d.len() - 1] {
            let c = compare(&d, &d[..cut]);
            assert!(
                c.verdict != Verdict::Identical && c.verdict != Verdict::Equal,
                "{case} cut at {cut}"
            );
        }
        let h = *ElfFile::parse(&d).unwrap().header();
        let hot = [
            0..64,
            h.shoff as usize..d.len().min(h.shoff as usize + 64 * h.shnum as usize),
        ];
        for _ in 0..300 {
            let mut x = d.clone();
            let r = &hot[(next() % 2) as usize];
            let at = r.start + (next() as usize % (r.end - r.start));
            x[at] ^= 1 << (next() % 8);
            let _ = compare(&d, &x);
            let _ = compare(&x, &d);
        }
    }
}
