//! Emit: lays the finalized sections out in the file and writes the image in one pass.
//!
//! Layout (observed): ELF header, section contents in header order (each at its alignment;
//! NOBITS sections take no file space), the section header table at 8-byte alignment, then the
//! program header table.

use super::finalize::Finalized;
use super::state::*;
use super::LinkOptions;
use crate::elf::consts::*;
use rayon::prelude::*;

/// Where everything goes: the file layout, and the bytes of the ELF header and of the two
/// header tables (which are small; the sections' bytes are written separately).
struct Plan {
    /// `sh_offset` by section id.
    offsets: Vec<u64>,
    /// `e_shoff`.
    shoff: u64,
    /// The file size.
    total: u64,
    /// The ELF header.
    header: Vec<u8>,
    /// The section header table, then the program header table (they are contiguous).
    tables: Vec<u8>,
}

fn plan(st: &State<'_>, fin: &Finalized, opts: &LinkOptions) -> Plan {
    let n = fin.order.len() + 1;
    let mut offsets = vec![0u64; st.sections.len()];
    let mut pos = EHDR64_SIZE as u64;
    for &id in &fin.order {
        let s = st.sec(id);
        let align = s.addralign().max(1);
        pos = pos.div_ceil(align).saturating_mul(align);
        offsets[id.index()] = pos;
        if !is_nobits(fin.out_type[id.index()]) {
            pos = pos.saturating_add(s.size());
        }
    }
    let shoff = pos.div_ceil(8) * 8;
    let phdrs = program_headers(st, fin, &offsets, opts);
    let phoff = shoff + (n * SHDR64_SIZE) as u64;
    let total = phoff + (phdrs.len() * PHDR64_SIZE) as u64;

    // ELF header.
    let mut out = vec![0u8; EHDR64_SIZE];
    out[..4].copy_from_slice(b"\x7fELF");
    out[4] = ELFCLASS64;
    out[5] = ELFDATA2LSB;
    out[6] = 1;
    out[7] = ELFOSABI_CUDA;
    out[8] = 8;
    let e_type = if opts.relocatable { ET_REL } else { ET_EXEC };
    put16(&mut out, 16, e_type);
    put16(&mut out, 18, EM_CUDA);
    put32(&mut out, 20, 1);
    put64(&mut out, 32, if phdrs.is_empty() { 0 } else { phoff });
    put64(&mut out, 40, shoff);
    // The top byte of e_flags holds the section index of `.note.nv.cuinfo` (observed).
    let cuinfo = fin.out_index[st
        .section_by_name(".note.nv.cuinfo")
        .map_or(0, |c| c.index())]
    .min(0xff);
    put32(
        &mut out,
        48,
        (opts.target.e_flags() & 0x00ff_ffff) | (cuinfo << 24),
    );
    put16(&mut out, 52, EHDR64_SIZE as u16);
    put16(&mut out, 54, PHDR64_SIZE as u16);
    put16(&mut out, 56, phdrs.len() as u16);
    put16(&mut out, 58, SHDR64_SIZE as u16);
    // More than 0xff00 sections (nvlink's bound, one past the gABI's): e_shnum 0 and the
    // count in section 0's sh_size. `.shstrtab` is always section 1, so e_shstrndx never
    // escapes (observed).
    let escaped = n > usize::from(SHN_LORESERVE);
    put16(&mut out, 60, if escaped { 0 } else { n as u16 });
    put16(&mut out, 62, fin.out_index[1] as u16);
    let header = out;

    // Section headers, then program headers.
    let mut t = vec![0u8; (total - shoff) as usize];
    if escaped {
        put64(&mut t, 32, n as u64);
    }
    for (k, &id) in fin.order.iter().enumerate() {
        let s = st.sec(id);
        let h = (k + 1) * SHDR64_SIZE;
        let (link, info) = fin.link_info[id.index()];
        put32(&mut t, h, fin.name_offset[id.index()]);
        put32(&mut t, h + 4, fin.out_type[id.index()]);
        put64(&mut t, h + 8, s.flags());
        put64(&mut t, h + 16, 0);
        put64(&mut t, h + 24, offsets[id.index()]);
        put64(&mut t, h + 32, s.size());
        put32(&mut t, h + 40, link);
        put32(&mut t, h + 44, info);
        put64(&mut t, h + 48, s.addralign());
        put64(&mut t, h + 56, s.entsize());
    }
    let pt = (phoff - shoff) as usize;
    for (k, p) in phdrs.iter().enumerate() {
        let h = pt + k * PHDR64_SIZE;
        let is_table = p.0 == PT_PHDR || k + 1 == phdrs.len();
        put32(&mut t, h, p.0);
        put32(&mut t, h + 4, p.1);
        put64(&mut t, h + 8, if is_table { phoff } else { p.2 });
        put64(&mut t, h + 16, 0);
        put64(&mut t, h + 24, 0);
        put64(&mut t, h + 32, p.3);
        put64(&mut t, h + 40, p.4);
        put64(&mut t, h + 48, 8);
    }
    Plan {
        offsets,
        shoff,
        total,
        header,
        tables: t,
    }
}

/// The sections with bytes in the file, in file order: (id, offset, size).
fn file_sections(st: &State<'_>, fin: &Finalized, plan: &Plan) -> Vec<(SecId, u64, u64)> {
    fin.order
        .iter()
        .filter(|&&id| !is_nobits(fin.out_type[id.index()]))
        .map(|&id| (id, plan.offsets[id.index()], st.sec(id).size()))
        .collect()
}

/// What section bytes are made of: the parts of the link's state [`fill`] reads, which (unlike
/// the state as a whole) may be read from other threads.
#[derive(Clone, Copy)]
struct Sources<'a, 'd> {
    sections: &'a SectionColumns<'d>,
    nodes: &'a DataNodeColumns<'d>,
    fin: &'a Finalized,
    patched: &'a super::relocate::Patched,
}

impl<'a, 'd> Sources<'a, 'd> {
    fn of(st: &'a State<'d>, fin: &'a Finalized, patched: &'a super::relocate::Patched) -> Self {
        Sources {
            sections: &st.sections,
            nodes: &st.nodes,
            fin,
            patched,
        }
    }
}

/// Writes sections `list` (all inside `buf`, which starts at file offset `base`) into their
/// parts of `buf`, in parallel: the parts do not overlap, so the bytes do not depend on the
/// threads.
fn fill(src: Sources<'_, '_>, list: &[(SecId, u64, u64)], buf: &mut [u8], base: u64) {
    let Sources {
        sections,
        nodes,
        fin,
        patched,
    } = src;
    let mut parts: Vec<(SecId, &mut [u8], NodeList)> = Vec::with_capacity(list.len());
    let mut rest: &mut [u8] = buf;
    let mut at = base;
    for &(id, o, size) in list {
        let (_, tail) = std::mem::take(&mut rest).split_at_mut((o - at) as usize);
        let (part, tail) = tail.split_at_mut(size as usize);
        parts.push((id, part, sections.at(id.index()).nodes()));
        rest = tail;
        at = o + size;
    }
    let contents = &fin.contents;
    parts.into_par_iter().for_each(|(id, part, list)| {
        if let Some(bytes) = contents.get(&id) {
            part[..bytes.len()].copy_from_slice(bytes);
        } else {
            for node in nodes.list(list) {
                if let Some(d) = node.data() {
                    let start = node.offset() as usize;
                    part[start..start + d.len()].copy_from_slice(d);
                }
            }
            patched.apply_to(id, part);
        }
    });
}

/// Writes the image into memory.
pub fn emit(
    st: &State<'_>,
    fin: &Finalized,
    patched: &super::relocate::Patched,
    opts: &LinkOptions,
) -> Vec<u8> {
    let plan = plan(st, fin, opts);
    let mut out = vec![0u8; plan.total as usize];
    out[..EHDR64_SIZE].copy_from_slice(&plan.header);
    let list = file_sections(st, fin, &plan);
    fill(
        Sources::of(st, fin, patched),
        &list,
        &mut out[..plan.shoff as usize],
        0,
    );
    out[plan.shoff as usize..].copy_from_slice(&plan.tables);
    out
}

/// Bytes of the image [`emit_to`] fills at once: sections are filled a window at a time, the
/// next window while the last one is being written (so two windows are held; at 4 MiB they
/// took a 100-input link's peak memory past nvlink's).
const WINDOW: u64 = 2 << 20;

/// Writes the image to `w` in file order without holding it in memory (the same bytes as
/// [`emit`]); returns its size.
pub fn emit_to(
    st: &State<'_>,
    fin: &Finalized,
    patched: &super::relocate::Patched,
    opts: &LinkOptions,
    w: &mut dyn std::io::Write,
) -> std::io::Result<u64> {
    emit_windowed(st, fin, patched, opts, w, window_size())
}

/// [`WINDOW`], or `ELFW_EMIT_WINDOW` bytes (tests use small windows to cross many edges).
fn window_size() -> u64 {
    std::env::var("ELFW_EMIT_WINDOW")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(WINDOW)
}

/// The windows [`emit_windowed`] fills: (first section, end of its sections in `list`, file
/// start, file end). Each holds as many whole sections as fit, at least one; each starts where
/// the last one ended, the first at 0 (it holds the ELF header).
fn windows(list: &[(SecId, u64, u64)], window: u64) -> Vec<(usize, usize, u64, u64)> {
    let mut out = Vec::new();
    let mut start = 0u64;
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        let mut end = start;
        while j < list.len() {
            let e = list[j].1 + list[j].2;
            if j > i && e - start > window {
                break;
            }
            end = e;
            j += 1;
        }
        out.push((i, j, start, end));
        start = end;
        i = j;
    }
    out
}

fn emit_windowed(
    st: &State<'_>,
    fin: &Finalized,
    patched: &super::relocate::Patched,
    opts: &LinkOptions,
    w: &mut dyn std::io::Write,
    window: u64,
) -> std::io::Result<u64> {
    let plan = plan(st, fin, opts);
    let list = file_sections(st, fin, &plan);
    let windows = windows(&list, window);
    let src = Sources::of(st, fin, patched);
    let fill_window = |buf: &mut Vec<u8>, &(i, j, start, end): &(usize, usize, u64, u64)| {
        buf.clear();
        buf.resize((end - start) as usize, 0);
        if start == 0 {
            buf[..EHDR64_SIZE].copy_from_slice(&plan.header);
        }
        fill(src, &list[i..j], buf, start);
    };
    // Window k is written while window k + 1 is filled on another thread (writing is the
    // kernel copying into the page cache, which no other thread can share).
    let mut cur: Vec<u8> = Vec::new();
    let mut next: Vec<u8> = Vec::new();
    if let Some(first) = windows.first() {
        fill_window(&mut cur, first);
    }
    for k in 0..windows.len() {
        std::thread::scope(|scope| -> std::io::Result<()> {
            let filler = windows
                .get(k + 1)
                .map(|wn| scope.spawn(|| fill_window(&mut next, wn)));
            let written = w.write_all(&cur);
            if let Some(filler) = filler {
                if let Err(panic) = filler.join() {
                    std::panic::resume_unwind(panic);
                }
            }
            written
        })?;
        std::mem::swap(&mut cur, &mut next);
    }
    let start = match windows.last() {
        Some(&(_, _, _, end)) => end,
        None => {
            w.write_all(&plan.header)?;
            EHDR64_SIZE as u64
        }
    };
    // Padding before the section header table, then the tables.
    w.write_all(&vec![0u8; (plan.shoff - start) as usize])?;
    w.write_all(&plan.tables)?;
    Ok(plan.total)
}

pub(super) fn is_nobits(t: u32) -> bool {
    matches!(
        t,
        SHT_NOBITS | SHT_CUDA_GLOBAL | SHT_CUDA_SHARED | SHT_CUDA_LOCAL | SHT_CUDA_SHARED_RESERVED
    )
}

/// (type, flags, offset, filesz, memsz)
type Phdr = (u32, u32, u64, u64, u64);

/// Program headers of a final sm_75–sm_90 link: PHDR; LOAD R-X over the read-only and code
/// sections; LOAD RW over the writable ones (only when present); a last LOAD repeating PHDR.
fn program_headers(
    st: &State<'_>,
    fin: &Finalized,
    offsets: &[u64],
    opts: &LinkOptions,
) -> Vec<Phdr> {
    if opts.relocatable {
        return Vec::new();
    }
    let alloc: Vec<SecId> = fin
        .order
        .iter()
        .copied()
        .filter(|&id| st.sec(id).flags() & SHF_ALLOC != 0)
        .collect();
    let ro: Vec<SecId> = alloc
        .iter()
        .copied()
        .filter(|&id| st.sec(id).flags() & SHF_WRITE == 0)
        .collect();
    let rw: Vec<SecId> = alloc
        .iter()
        .copied()
        .filter(|&id| st.sec(id).flags() & SHF_WRITE != 0)
        .collect();
    let span = |ids: &[SecId]| -> Option<(u64, u64, u64)> {
        let first = *ids.first()?;
        let start = offsets[first.index()];
        // Zero-filled sections all sit at the end of the file data (shared sections even share
        // one offset); the segment's memory size adds each of them in full, each at its
        // alignment (observed: 0x418 + 4 + 0x428 bytes of alignment 8, 1, 8 take 0x848).
        let mut file_end = start;
        let mut zero_filled = 0u64;
        for &id in ids {
            let end = offsets[id.index()].saturating_add(st.sec(id).size());
            if is_nobits(fin.out_type[id.index()]) {
                // The file part runs up to where the zero-filled data is placed.
                file_end = file_end.max(offsets[id.index()]);
                let align = st.sec(id).addralign().max(1);
                zero_filled = zero_filled
                    .div_ceil(align)
                    .saturating_mul(align)
                    .saturating_add(st.sec(id).size());
            } else {
                file_end = file_end.max(end);
            }
        }
        Some((start, file_end - start, file_end - start + zero_filled))
    };
    let mut segs = Vec::new();
    if let Some((o, f, m)) = span(&ro) {
        segs.push((PT_LOAD, 5, o, f, m));
    }
    if let Some((o, f, m)) = span(&rw) {
        segs.push((PT_LOAD, 6, o, f, m));
    }
    let count = segs.len() + 2;
    let size = (count * PHDR64_SIZE) as u64;
    // The table's own offset is only known to the caller; PHDR entries are fixed up there.
    let mut out = Vec::with_capacity(count);
    out.push((PT_PHDR, 5, 0, size, size));
    out.extend(segs);
    out.push((PT_LOAD, 5, 0, size, size));
    out
}

pub(super) fn put16(b: &mut [u8], o: usize, v: u16) {
    b[o..o + 2].copy_from_slice(&v.to_le_bytes());
}
pub(super) fn put32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}
pub(super) fn put64(b: &mut [u8], o: usize, v: u64) {
    b[o..o + 8].copy_from_slice(&v.to_le_bytes());
}
