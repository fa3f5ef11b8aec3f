//! The EQUAL comparison: everything in file order, nothing translated; file offsets aside.

use super::formats::{attribute_label, first_note_len, records};
use super::image::{Covered, Image, InfoMeaning, Kind, Sec, SymTable};
use super::{byte_window, first_mismatch, Diffs, Subject};
use crate::elf::consts::SHF_EXECINSTR;
use crate::elf::{FileHeader, Symbol};

/// The file header fields compared, by name; `e_phoff` and `e_shoff` are file offsets and
/// left out.
pub(crate) fn header_fields(h: &FileHeader) -> [(&'static str, u64); 12] {
    [
        ("e_type", h.e_type as u64),
        ("e_machine", h.machine as u64),
        ("e_version", h.version as u64),
        ("e_entry", h.entry),
        ("e_flags", h.flags as u64),
        ("e_ehsize", h.ehsize as u64),
        ("e_phentsize", h.phentsize as u64),
        ("e_phnum", h.phnum as u64),
        ("e_shentsize", h.shentsize as u64),
        ("e_shnum", h.raw_shnum as u64),
        ("section count", h.shnum as u64),
        ("e_shstrndx", h.shstrndx as u64),
    ]
}

pub(crate) fn hex_bytes(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Compares the headers field by field, leaving out the fields named in `skip`.
pub(crate) fn compare_header(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs, skip: &[&str]) {
    if e.header.ident != a.header.ident {
        d.push(
            Subject::Header,
            "e_ident",
            hex_bytes(&e.header.ident),
            hex_bytes(&a.header.ident),
        );
    }
    let (x, y) = (header_fields(&e.header), header_fields(&a.header));
    for ((name, v), (_, w)) in x.iter().zip(&y) {
        if v != w && !skip.contains(name) {
            d.push(Subject::Header, *name, format!("{v:#x}"), format!("{w:#x}"));
        }
    }
}

/// `sh_size` as compared: `.note.nv.tkinfo` without its first note.
pub(crate) fn compared_size(s: &Sec<'_>) -> u64 {
    if s.kind == Kind::ToolkitNotes {
        s.hdr.size - first_note_len(s.data) as u64
    } else {
        s.hdr.size
    }
}

/// The compared part of a section's contents, and where it starts in the section.
pub(crate) fn compared_bytes<'d>(s: &Sec<'d>) -> (usize, &'d [u8]) {
    let skip = if s.kind == Kind::ToolkitNotes {
        first_note_len(s.data)
    } else {
        0
    };
    (skip, &s.data[skip..])
}

pub(crate) fn section_subject(name: &str, e: Option<u32>, a: Option<u32>) -> Subject {
    Subject::Section {
        name: name.to_string(),
        expected: e,
        actual: a,
    }
}

/// Reports the first differing byte of two byte strings that belong to section `x`/`y`,
/// naming the instruction or `.nv.info` record it falls in.
pub(crate) fn compare_bytes(x: &Sec<'_>, y: &Sec<'_>, d: &mut Diffs) {
    let ((skip, eb), (_, ab)) = (compared_bytes(x), compared_bytes(y));
    let Some(at) = first_mismatch(eb, ab) else {
        return;
    };
    let differing = eb.iter().zip(ab).filter(|(p, q)| p != q).count() + eb.len().abs_diff(ab.len());
    let mut field = format!(
        "contents ({differing} byte{} differ",
        if differing == 1 { "" } else { "s" }
    );
    let off = skip + at;
    if x.hdr.flags & SHF_EXECINSTR != 0 {
        field.push_str(&format!(", in the instruction at +{:#x}", off & !0xf));
    } else if x.kind == Kind::NvInfo {
        if let Some(r) = records(x.data).and_then(|rs| {
            rs.into_iter()
                .enumerate()
                .find(|(_, r)| off < r.offset + r.len())
        }) {
            field.push_str(&format!(
                ", in record #{} {}",
                r.0,
                attribute_label(r.1.attribute)
            ));
        }
    }
    field.push(')');
    let subject = section_subject(&x.name, Some(x.index), Some(y.index));
    d.push_at(
        subject,
        field,
        Some(off as u64),
        byte_window(eb, at),
        byte_window(ab, at),
    );
}

fn describe_value(img: &Image<'_>, s: &Sec<'_>, field: &str, v: u64) -> String {
    match field {
        "sh_link" if v != 0 => img.section_label(v as u32),
        "sh_info" if img.info_meaning(s) == InfoMeaning::Section => img.section_label(v as u32),
        "sh_info" if img.info_meaning(s) == InfoMeaning::Symbol => {
            let key = img.symtab_for(s).and_then(|t| t.keys.get(v as usize));
            match key {
                Some(k) => format!("{v} ({k})"),
                None => format!("{v}"),
            }
        }
        "sh_flags" | "sh_type" => format!("{v:#x}"),
        _ => format!("{v:#x}"),
    }
}

/// The header fields of a section compared in both modes (not link and info).
pub(crate) fn plain_section_fields(s: &Sec<'_>) -> [(&'static str, u64); 6] {
    let h = &s.hdr;
    [
        ("sh_type", h.sh_type as u64),
        ("sh_flags", h.flags),
        ("sh_addr", h.addr),
        ("sh_addralign", h.addralign),
        ("sh_entsize", h.entsize),
        ("sh_size", compared_size(s)),
    ]
}

fn compare_sections(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs) {
    if e.sections.len() != a.sections.len() {
        d.push(
            Subject::File,
            "section count",
            e.sections.len(),
            a.sections.len(),
        );
    }
    for (x, y) in e.sections.iter().zip(&a.sections).skip(1) {
        let subject = section_subject(&x.name, Some(x.index), Some(y.index));
        if x.name != y.name {
            d.push(subject, "name", &x.name, &y.name);
            continue;
        }
        for ((field, v), (_, w)) in plain_section_fields(x)
            .into_iter()
            .zip(plain_section_fields(y))
        {
            if v != w {
                let field = if field == "sh_size" && x.kind == Kind::ToolkitNotes {
                    "sh_size (without the linker's own note)"
                } else {
                    field
                };
                d.push(subject.clone(), field, format!("{v:#x}"), format!("{w:#x}"));
            }
        }
        for (field, v, w) in [
            ("sh_link", x.hdr.link, y.hdr.link),
            ("sh_info", x.hdr.info, y.hdr.info),
        ] {
            if v != w {
                d.push(
                    subject.clone(),
                    field,
                    describe_value(e, x, field, v as u64),
                    describe_value(a, y, field, w as u64),
                );
            }
        }
        let both = |k: Kind| x.kind == k && y.kind == k;
        if x.kind != y.kind || both(Kind::Null) || both(Kind::NoBits) || both(Kind::SymbolTable) {
            continue;
        }
        compare_bytes(x, y, d);
    }
}

/// `GLOBAL FUNC (0x12)`.
pub(crate) fn describe_info(info: u8) -> String {
    let bind = match info >> 4 {
        0 => "LOCAL".to_string(),
        1 => "GLOBAL".to_string(),
        2 => "WEAK".to_string(),
        b => format!("bind {b}"),
    };
    let ty = match info & 0xf {
        0 => "NOTYPE".to_string(),
        1 => "OBJECT".to_string(),
        2 => "FUNC".to_string(),
        3 => "SECTION".to_string(),
        4 => "FILE".to_string(),
        13 => "CUDA_OBJECT".to_string(),
        t => format!("type {t}"),
    };
    format!("{bind} {ty} ({info:#04x})")
}

fn compare_symbol_fields(
    e: &Image<'_>,
    a: &Image<'_>,
    x: &Symbol<'_>,
    y: &Symbol<'_>,
    subject: Subject,
    d: &mut Diffs,
) {
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
    if x.shndx != y.shndx {
        d.push(
            subject.clone(),
            "st_shndx",
            e.section_label(x.shndx),
            a.section_label(y.shndx),
        );
    } else if x.raw_shndx != y.raw_shndx {
        d.push(
            subject.clone(),
            "st_shndx (as stored)",
            format!("{:#x}", x.raw_shndx),
            format!("{:#x}", y.raw_shndx),
        );
    }
    if x.value != y.value {
        d.push(
            subject.clone(),
            "st_value",
            format!("{:#x}", x.value),
            format!("{:#x}", y.value),
        );
    }
    if x.size != y.size {
        d.push(
            subject,
            "st_size",
            format!("{:#x}", x.size),
            format!("{:#x}", y.size),
        );
    }
}

fn compare_symbols(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs) {
    if e.symtabs.len() != a.symtabs.len() {
        d.push(
            Subject::File,
            "symbol table count",
            e.symtabs.len(),
            a.symtabs.len(),
        );
    }
    for (tx, ty) in e.symtabs.iter().zip(&a.symtabs) {
        let table = e.sections[tx.section as usize].name.clone();
        if tx.symbols.len() != ty.symbols.len() {
            let subject = section_subject(&table, Some(tx.section), Some(ty.section));
            d.push(subject, "symbol count", tx.symbols.len(), ty.symbols.len());
        }
        for (i, (x, y)) in tx.symbols.iter().zip(&ty.symbols).enumerate() {
            let subject = symbol_subject(&table, tx, Some(i as u32), Some(i as u32));
            if x.name != y.name {
                d.push(subject, "name", x.name_lossy(), y.name_lossy());
                continue;
            }
            compare_symbol_fields(e, a, x, y, subject, d);
        }
    }
}

pub(crate) fn symbol_subject(
    table: &str,
    t: &SymTable<'_>,
    e: Option<u32>,
    a: Option<u32>,
) -> Subject {
    let name = e
        .or(a)
        .and_then(|i| t.keys.get(i as usize))
        .cloned()
        .unwrap_or_default();
    Subject::Symbol {
        table: table.to_string(),
        name,
        expected: e,
        actual: a,
    }
}

pub(crate) fn describe_covered(c: Option<&Covered>) -> String {
    match c {
        None => "nothing".into(),
        Some(c) => format!(
            "{} at {}{:#x} ({:#x} bytes{}{})",
            c.name,
            if c.rel < 0 { "-" } else { "+" },
            c.rel.unsigned_abs(),
            c.len,
            if c.partial { ", partly" } else { "" },
            if c.nobits { ", no file bytes" } else { "" }
        ),
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
            // The memory-only tail (NOBITS data); the file part may differ by the padding
            // that different file offsets imply (the brief's "file offsets aside").
            (
                "p_memsz - p_filesz",
                x.memsz.saturating_sub(x.filesz),
                y.memsz.saturating_sub(y.filesz),
            ),
            ("p_align", x.align, y.align),
        ] {
            if v != w {
                d.push(subject.clone(), field, format!("{v:#x}"), format!("{w:#x}"));
            }
        }
        // The same items, in the same order, with the same sizes; where they sit inside the
        // segment (padding between them) follows from file offsets and may differ.
        let (cx, cy) = (e.coverage(x), a.coverage(y));
        let key = |c: &super::image::Covered| (c.name.clone(), c.len, c.nobits, c.partial);
        if cx.iter().map(key).ne(cy.iter().map(key)) {
            let k = cx
                .iter()
                .zip(&cy)
                .position(|(p, q)| p != q)
                .unwrap_or(cx.len().min(cy.len()));
            d.push(
                subject,
                "spans",
                describe_covered(cx.get(k)),
                describe_covered(cy.get(k)),
            );
        }
    }
}

/// Every EQUAL rule; no difference recorded means EQUAL.
pub(crate) fn compare(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs) {
    compare_header(e, a, d, &[]);
    compare_sections(e, a, d);
    compare_symbols(e, a, d);
    compare_segments(e, a, d);
}

/// For an EQUAL pair: where the layouts part (header table offsets, first moved section and
/// segment).
pub(crate) fn layout_notes(e: &Image<'_>, a: &Image<'_>, d: &mut Diffs) {
    for (field, v, w) in [
        ("e_phoff", e.header.phoff, a.header.phoff),
        ("e_shoff", e.header.shoff, a.header.shoff),
    ] {
        if v != w {
            d.push(Subject::Header, field, format!("{v:#x}"), format!("{w:#x}"));
        }
    }
    if let Some((x, y)) = e
        .sections
        .iter()
        .zip(&a.sections)
        .find(|(x, y)| x.hdr.offset != y.hdr.offset)
    {
        let subject = section_subject(&x.name, Some(x.index), Some(y.index));
        d.push(
            subject,
            "sh_offset (first moved section)",
            format!("{:#x}", x.hdr.offset),
            format!("{:#x}", y.hdr.offset),
        );
    }
    if let Some((i, (x, y))) = e
        .segments
        .iter()
        .zip(&a.segments)
        .enumerate()
        .find(|(_, (x, y))| (x.offset, x.filesz) != (y.offset, y.filesz))
    {
        let subject = Subject::Segment {
            index: i as u32,
            p_type: x.p_type,
        };
        let f = |p: &crate::elf::ProgramHeader| {
            format!("offset {:#x} filesz {:#x}", p.offset, p.filesz)
        };
        d.push(
            subject,
            "p_offset/p_filesz (first moved segment)",
            f(x),
            f(y),
        );
    }
    if d.is_empty() {
        let at = first_mismatch(e.file, a.file).unwrap_or(0);
        // Nothing moved: the bytes that differ are the linker's own record or padding.
        let in_tool_record = e.sections.iter().any(|x| {
            x.name == ".note.nv.tkinfo"
                && (x.hdr.offset..x.hdr.offset.saturating_add(x.hdr.size)).contains(&(at as u64))
        });
        let field = if in_tool_record {
            "same layout, first differing byte (in .note.nv.tkinfo)"
        } else {
            "same layout, first differing byte (padding)"
        };
        d.push_at(
            Subject::File,
            field,
            Some(at as u64),
            byte_window(e.file, at),
            byte_window(a.file, at),
        );
    }
}
