//! The EQUIVALENT comparison: sections and symbols matched by name, every index translated to
//! a name, order-free tables compared as multisets.

use super::formats::{
    attribute_label, is_callgraph_marker, notes, records, u32_pairs, Record, EIFMT_SVAL,
};
use super::image::{Image, InfoMeaning, Kind, Sec, SymTable};
use super::ordered::{
    compare_bytes, compare_header, compared_bytes, describe_info, hex_bytes, plain_section_fields,
    section_subject, symbol_subject,
};
use super::{Diffs, Subject};
use std::collections::BTreeSet;

/// How many entries of one multiset difference are reported per section and direction.
const ENTRIES_PER_SECTION: usize = 5;

fn symbol_key(t: Option<&SymTable<'_>>, index: u32) -> String {
    match t.and_then(|t| t.keys.get(index as usize)) {
        Some(k) => k.clone(),
        None => format!("#{index} (no such symbol)"),
    }
}

fn link_key(img: &Image<'_>, v: u32) -> String {
    if v == 0 {
        "0".into()
    } else {
        img.section_key(v)
    }
}

fn info_key(img: &Image<'_>, s: &Sec<'_>) -> String {
    let v = s.hdr.info;
    match img.info_meaning(s) {
        InfoMeaning::Section => link_key(img, v),
        InfoMeaning::Symbol => format!("symbol {}", symbol_key(img.symtab_for(s), v)),
        InfoMeaning::Number => format!("{v:#x}"),
    }
}

/// One attribute record with its symbol indices as names: `EIATTR_REGCOUNT [_Z1kv 0x18]`.
fn record_text(r: &Record<'_>, t: Option<&SymTable<'_>>) -> String {
    let label = attribute_label(r.attribute);
    if r.format != EIFMT_SVAL {
        return format!("{label} fmt{} {:#x}", r.format, r.value);
    }
    let syms = r.symbol_word_offsets();
    let mut items: Vec<String> = r
        .payload
        .chunks_exact(4)
        .enumerate()
        .map(|(i, w)| {
            let v = u32::from_le_bytes(w.try_into().expect("4 bytes"));
            if syms.contains(&i) {
                symbol_key(t, v)
            } else {
                format!("{v:#x}")
            }
        })
        .collect();
    let tail = &r.payload[r.payload.len() / 4 * 4..];
    if !tail.is_empty() {
        items.push(hex_bytes(tail));
    }
    format!("{label} [{}]", items.join(" "))
}

fn marker_or_symbol(t: Option<&SymTable<'_>>, w: u32) -> String {
    if is_callgraph_marker(w) {
        format!("-{}", (!w).wrapping_add(1))
    } else {
        symbol_key(t, w)
    }
}

/// A toolkit note for people: the owner, the descriptor's header words and its strings (tool,
/// version, build, arguments) when the rest is text; hex otherwise.
fn note_text(name: &[u8], desc: &[u8]) -> String {
    let owner = String::from_utf8_lossy(name.strip_suffix(b"\0").unwrap_or(name)).into_owned();
    if desc.len() >= 24 {
        let (head, blob) = desc.split_at(24);
        if blob.iter().all(|&b| b == 0 || (0x20..0x7f).contains(&b)) {
            let words: Vec<String> = head
                .chunks_exact(4)
                .map(|w| format!("{:#x}", u32::from_le_bytes(w.try_into().expect("4 bytes"))))
                .collect();
            let strings: Vec<String> = blob
                .split(|&b| b == 0)
                .filter(|s| !s.is_empty())
                .map(|s| format!("{:?}", String::from_utf8_lossy(s)))
                .collect();
            return format!(
                "{owner} [{}] {} ({} bytes)",
                words.join(" "),
                strings.join(" "),
                desc.len()
            );
        }
    }
    format!("{owner} {}", hex_bytes(desc))
}

/// The canonical entries of an order-free section, or `None` to compare it byte for byte.
fn entries(img: &Image<'_>, s: &Sec<'_>) -> Option<(&'static str, Vec<String>)> {
    let t = img.symtab_for(s);
    let list = match s.kind {
        Kind::Names => (
            "string",
            s.data
                .split(|&b| b == 0)
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect(),
        ),
        Kind::Relocations => (
            "relocation",
            s.relocs
                .iter()
                .map(|r| {
                    let sym = symbol_key(t, r.sym);
                    format!(
                        "offset {:#x} type {:#x} symbol {sym} addend {:#x}",
                        r.offset, r.r_type, r.addend
                    )
                })
                .collect(),
        ),
        Kind::NvInfo => (
            "record",
            records(s.data)?.iter().map(|r| record_text(r, t)).collect(),
        ),
        Kind::CallGraph => {
            let mut group = "start".to_string();
            let mut out = Vec::new();
            for (x, y) in u32_pairs(s.data)? {
                let (p, q) = (marker_or_symbol(t, x), marker_or_symbol(t, y));
                if is_callgraph_marker(y) {
                    group = format!("{p},{q}");
                    out.push(format!("marker <{group}>"));
                } else {
                    out.push(format!("after <{group}>: {p} -> {q}"));
                }
            }
            ("call-graph entry", out)
        }
        Kind::Prototype => (
            "prototype entry",
            u32_pairs(s.data)?
                .into_iter()
                .map(|(x, y)| format!("{}: {y:#x}", symbol_key(t, x)))
                .collect(),
        ),
        Kind::ToolkitNotes => (
            "note",
            notes(s.data)?
                .iter()
                .skip(1)
                .map(|n| format!("type {} {}", n.n_type, note_text(n.name, n.desc)))
                .collect(),
        ),
        _ => return None,
    };
    Some(list)
}

/// Reports the entries in one multiset and not the other, a few per direction.
fn compare_multisets(
    subject: &Subject,
    what: &str,
    mut x: Vec<String>,
    mut y: Vec<String>,
    d: &mut Diffs,
) {
    x.sort_unstable();
    y.sort_unstable();
    let (mut i, mut j) = (0, 0);
    let (mut missing, mut extra) = (Vec::new(), Vec::new());
    while i < x.len() || j < y.len() {
        match (x.get(i), y.get(j)) {
            (Some(p), Some(q)) if p == q => {
                i += 1;
                j += 1;
            }
            (Some(p), Some(q)) if p < q => {
                missing.push(p);
                i += 1;
            }
            (Some(p), None) => {
                missing.push(p);
                i += 1;
            }
            (_, Some(q)) => {
                extra.push(q);
                j += 1;
            }
            (None, None) => break,
        }
    }
    for m in missing.iter().take(ENTRIES_PER_SECTION) {
        d.push(subject.clone(), what, m, "absent");
    }
    for m in extra.iter().take(ENTRIES_PER_SECTION) {
        d.push(subject.clone(), what, "absent", m);
    }
    let more = missing.len().saturating_sub(ENTRIES_PER_SECTION)
        + extra.len().saturating_sub(ENTRIES_PER_SECTION);
    if more > 0 {
        d.push(
            subject.clone(),
            format!("{what} (further)"),
            format!("{} missing", missing.len()),
            format!("{} extra", extra.len()),
        );
    }
}

fn compare_matched_section(e: &Image<'_>, a: &Image<'_>, x: &Sec<'_>, y: &Sec<'_>, d: &mut Diffs) {
    let subject = section_subject(&x.name, Some(x.index), Some(y.index));
    for ((field, v), (_, w)) in plain_section_fields(x)
        .into_iter()
        .zip(plain_section_fields(y))
    {
        if v != w {
            d.push(subject.clone(), field, format!("{v:#x}"), format!("{w:#x}"));
        }
    }
    let (lx, ly) = (link_key(e, x.hdr.link), link_key(a, y.hdr.link));
    if lx != ly {
        d.push(subject.clone(), "sh_link", lx, ly);
    }
    let (ix, iy) = (info_key(e, x), info_key(a, y));
    if ix != iy {
        d.push(subject.clone(), "sh_info", ix, iy);
    }
    match (x.kind, y.kind) {
        (p, q) if p != q => {}
        (Kind::Null | Kind::NoBits | Kind::SymbolTable | Kind::ExtendedIndices, _) => {}
        _ => match (entries(e, x), entries(a, y)) {
            (Some((what, ex)), Some((_, ey))) => compare_multisets(&subject, what, ex, ey, d),
            _ => {
                // Not parseable on one side: fall back to the bytes (tkinfo: after the first note).
                if compared_bytes(x).1 != compared_bytes(y).1 {
                    compare_bytes(x, y, d);
                }
            }
        },
    }
}

/// Which part of a pass over sections or symbols.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Only what is in one file and not the other.
    Presence,
    /// Matched items, except the string tables.
    Matched,
    /// Matched string tables (their differences mostly follow from the others).
    Names,
}

fn compare_sections(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs, pass: Pass) {
    for x in e.sections.iter().skip(1) {
        match a.by_key.get(&x.key) {
            Some(&j)
                if pass != Pass::Presence && (x.kind == Kind::Names) == (pass == Pass::Names) =>
            {
                compare_matched_section(e, a, x, &a.sections[j as usize], d)
            }
            None if pass == Pass::Presence => d.push(
                section_subject(&x.key, Some(x.index), None),
                "presence",
                "present",
                "absent",
            ),
            _ => {}
        }
    }
    if pass != Pass::Presence {
        return;
    }
    for y in a
        .sections
        .iter()
        .skip(1)
        .filter(|y| !e.by_key.contains_key(&y.key))
    {
        d.push(
            section_subject(&y.key, None, Some(y.index)),
            "presence",
            "absent",
            "present",
        );
    }
}

fn compare_symbols(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs, pass: Pass) {
    for tx in &e.symtabs {
        let key = &e.sections[tx.section as usize].key;
        let Some(ty) = a
            .symtabs
            .iter()
            .find(|t| &a.sections[t.section as usize].key == key)
        else {
            continue; // the section's absence is reported already
        };
        for (i, k) in tx.keys.iter().enumerate().skip(1) {
            let j = ty.by_key.get(k).copied();
            match (j, pass) {
                (None, Pass::Presence) => d.push(
                    symbol_subject(key, tx, Some(i as u32), None),
                    "presence",
                    "present",
                    "absent",
                ),
                (Some(j), Pass::Matched) => {
                    compare_matched_symbol(e, a, key, tx, i as u32, ty, j, d)
                }
                _ => {}
            }
        }
        if pass != Pass::Presence {
            continue;
        }
        for (j, k) in ty
            .keys
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, k)| !tx.by_key.contains_key(*k))
        {
            let subject = Subject::Symbol {
                table: key.clone(),
                name: k.clone(),
                expected: None,
                actual: Some(j as u32),
            };
            d.push(subject, "presence", "absent", "present");
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn compare_matched_symbol(
    e: &Image<'_>,
    a: &Image<'_>,
    table: &str,
    tx: &SymTable<'_>,
    i: u32,
    ty: &SymTable<'_>,
    j: u32,
    d: &mut Diffs,
) {
    let (x, y) = (&tx.symbols[i as usize], &ty.symbols[j as usize]);
    let subject = symbol_subject(table, tx, Some(i), Some(j));
    if x.info != y.info {
        d.push(
            subject.clone(),
            "st_info",
            describe_info(x.info),
            describe_info(y.info),
        );
    }
    if x.other != y.other {
        d.push(
            subject.clone(),
            "st_other",
            format!("{:#x}", x.other),
            format!("{:#x}", y.other),
        );
    }
    let (sx, sy) = (e.section_key(x.shndx), a.section_key(y.shndx));
    if sx != sy {
        d.push(subject.clone(), "st_shndx", sx, sy);
    }
    for (field, v, w) in [("st_value", x.value, y.value), ("st_size", x.size, y.size)] {
        if v != w {
            d.push(subject.clone(), field, format!("{v:#x}"), format!("{w:#x}"));
        }
    }
}

fn compare_segments(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs) {
    if e.segments.len() != a.segments.len() {
        d.push(
            Subject::File,
            "program header count",
            e.segments.len(),
            a.segments.len(),
        );
    }
    for (i, (x, y)) in e.segments.iter().zip(&a.segments).enumerate() {
        let subject = Subject::Segment {
            index: i as u32,
            p_type: x.p_type,
        };
        for (field, v, w) in [
            ("p_type", x.p_type as u64, y.p_type as u64),
            ("p_flags", x.flags as u64, y.flags as u64),
            ("p_vaddr", x.vaddr, y.vaddr),
            ("p_paddr", x.paddr, y.paddr),
            ("p_align", x.align, y.align),
        ] {
            if v != w {
                d.push(subject.clone(), field, format!("{v:#x}"), format!("{w:#x}"));
            }
        }
        let (cx, cy) = (e.coverage(x), a.coverage(y));
        let names = |c: &[super::image::Covered]| -> BTreeSet<String> {
            c.iter()
                .map(|c| {
                    if c.partial {
                        format!("{} (part)", c.name)
                    } else {
                        c.name.clone()
                    }
                })
                .collect()
        };
        let (nx, ny) = (names(&cx), names(&cy));
        for n in nx.difference(&ny).take(ENTRIES_PER_SECTION) {
            d.push(subject.clone(), "spans", n, "absent");
        }
        for n in ny.difference(&nx).take(ENTRIES_PER_SECTION) {
            d.push(subject.clone(), "spans", "absent", n);
        }
        let bytes = |c: &[super::image::Covered], nobits: bool| -> u64 {
            c.iter().filter(|c| c.nobits == nobits).map(|c| c.len).sum()
        };
        for (field, nobits) in [
            ("file bytes spanned (padding aside)", false),
            ("memory-only bytes spanned", true),
        ] {
            let (v, w) = (bytes(&cx, nobits), bytes(&cy, nobits));
            if v != w {
                d.push(subject.clone(), field, format!("{v:#x}"), format!("{w:#x}"));
            }
        }
    }
}

/// Every EQUIVALENT rule; no difference recorded means EQUIVALENT.
pub(crate) fn compare(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs) {
    // Counts show up as absent and extra sections and program headers; the name table's index
    // is compared by name below.
    let skip = ["e_shnum", "section count", "e_phnum", "e_shstrndx"];
    compare_header(e, a, d, &skip);
    let (sx, sy) = (
        link_key(e, e.header.shstrndx),
        link_key(a, a.header.shstrndx),
    );
    if sx != sy {
        d.push(Subject::Header, "e_shstrndx", sx, sy);
    }
    // What is missing or extra first: it explains most of what follows.
    compare_sections(e, a, d, Pass::Presence);
    compare_symbols(e, a, d, Pass::Presence);
    compare_sections(e, a, d, Pass::Matched);
    compare_symbols(e, a, d, Pass::Matched);
    compare_sections(e, a, d, Pass::Names);
    compare_segments(e, a, d);
}
