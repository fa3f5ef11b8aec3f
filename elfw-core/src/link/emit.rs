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

/// Where everything goes: the file layout, and the bytes of the ELF header (the sections'
/// bytes and the header tables are written separately: see [`tables`]).
struct Plan {
    /// `sh_offset` by section id.
    offsets: Vec<u64>,
    /// `e_shoff`.
    shoff: u64,
    /// `e_phoff`.
    phoff: u64,
    /// The file size.
    total: u64,
    /// The ELF header.
    header: Vec<u8>,
    /// The program headers (their table's own offset not yet filled in).
    phdrs: Vec<Phdr>,
    /// The sections with bytes in the file, in file order: (id, offset, size).
    list: Vec<(SecId, u64, u64)>,
}

fn plan(st: &State<'_>, fin: &Finalized, opts: &LinkOptions) -> Plan {
    let n = fin.order.len() + 1;
    let mut offsets = vec![0u64; st.sections.len()];
    let mut list = Vec::with_capacity(fin.order.len());
    let mut pos = EHDR64_SIZE as u64;
    for &id in &fin.order {
        let s = st.sec(id);
        let align = s.addralign().max(1);
        pos = pos.div_ceil(align).saturating_mul(align);
        offsets[id.index()] = pos;
        if !is_nobits(fin.out_type[id.index()]) {
            list.push((id, pos, s.size()));
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
    put16(&mut out, 60, if escaped(n) { 0 } else { n as u16 });
    put16(&mut out, 62, fin.out_index[1] as u16);
    Plan {
        offsets,
        shoff,
        phoff,
        total,
        header: out,
        phdrs,
        list,
    }
}

/// Whether a section count escapes `e_shnum` (see [`plan`]).
fn escaped(n: usize) -> bool {
    n > usize::from(SHN_LORESERVE)
}

/// Rows of the section header table filled per task (the rows do not depend on each other).
const ROWS_PER_TASK: usize = 4096;

/// The file's bytes from `from` (at most `e_shoff`) on: padding, the section header table, then
/// the program header table (they are contiguous). The section headers are filled on all
/// cores.
fn tables(sections: &SectionColumns<'_>, fin: &Finalized, plan: &Plan, from: u64) -> Vec<u8> {
    let n = fin.order.len() + 1;
    let mut out = vec![0u8; (plan.total - from) as usize];
    let t = &mut out[(plan.shoff - from) as usize..];
    if escaped(n) {
        put64(t, 32, n as u64);
    }
    let (shdrs, phdrs) = t.split_at_mut(n * SHDR64_SIZE);
    shdrs[SHDR64_SIZE..]
        .par_chunks_mut(ROWS_PER_TASK * SHDR64_SIZE)
        .zip(fin.order.par_chunks(ROWS_PER_TASK))
        .for_each(|(rows, ids)| {
            for (row, &id) in rows.chunks_exact_mut(SHDR64_SIZE).zip(ids) {
                let s = sections.at(id.index());
                let (link, info) = fin.link_info[id.index()];
                put32(row, 0, fin.name_offset[id.index()]);
                put32(row, 4, fin.out_type[id.index()]);
                put64(row, 8, s.flags());
                put64(row, 16, 0);
                put64(row, 24, plan.offsets[id.index()]);
                put64(row, 32, s.size());
                put32(row, 40, link);
                put32(row, 44, info);
                put64(row, 48, s.addralign());
                put64(row, 56, s.entsize());
            }
        });
    for (k, p) in plan.phdrs.iter().enumerate() {
        let h = k * PHDR64_SIZE;
        let is_table = p.0 == PT_PHDR || k + 1 == plan.phdrs.len();
        put32(phdrs, h, p.0);
        put32(phdrs, h + 4, p.1);
        put64(phdrs, h + 8, if is_table { plan.phoff } else { p.2 });
        put64(phdrs, h + 16, 0);
        put64(phdrs, h + 24, 0);
        put64(phdrs, h + 32, p.3);
        put64(phdrs, h + 40, p.4);
        put64(phdrs, h + 48, 8);
    }
    out
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
/// threads. Every byte of `buf` is written (what no section data covers with zeros), so `buf`
/// may hold anything before.
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
        let (gap, tail) = std::mem::take(&mut rest).split_at_mut((o - at) as usize);
        // Padding before the section.
        gap.fill(0);
        let (part, tail) = tail.split_at_mut(size as usize);
        parts.push((id, part, sections.at(id.index()).nodes()));
        rest = tail;
        at = o + size;
    }
    rest.fill(0);
    let contents = &fin.contents;
    parts.into_par_iter().for_each(|(id, part, list)| {
        if let Some(bytes) = contents.get(&id) {
            let n = bytes.len().min(part.len());
            part[..n].copy_from_slice(&bytes[..n]);
            part[n..].fill(0);
            return;
        }
        // Zeros only between the nodes' data when the nodes come in offset order (as merge
        // lays them out); else all of it first.
        let in_order = nodes
            .list(list)
            .try_fold(0u64, |end, n| {
                let len = n.data().map_or(0, |d| d.len() as u64);
                match (n.offset() >= end, len) {
                    (false, _) => None,
                    (true, 0) => Some(end),
                    (true, len) => Some(n.offset() + len),
                }
            })
            .is_some();
        if !in_order {
            part.fill(0);
        }
        let mut end = 0;
        for node in nodes.list(list) {
            if let Some(d) = node.data() {
                // (Data past the section's end is damage the layout let through: left out.)
                let start = node.offset() as usize;
                let Some(dst) = start
                    .checked_add(d.len())
                    .and_then(|stop| part.get_mut(start..stop))
                else {
                    continue;
                };
                dst.copy_from_slice(d);
                if in_order {
                    if let Some(gap) = part.get_mut(end..start) {
                        gap.fill(0);
                    }
                }
                end = start + d.len();
            }
        }
        if in_order {
            part[end..].fill(0);
        }
        patched.apply_to(id, part);
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
    fill(
        Sources::of(st, fin, patched),
        &plan.list,
        &mut out[..plan.shoff as usize],
        0,
    );
    out[..EHDR64_SIZE].copy_from_slice(&plan.header);
    out[plan.shoff as usize..].copy_from_slice(&tables(&st.sections, fin, &plan, plan.shoff));
    out
}

/// Bytes of the image [`emit_to`] fills at once: sections are filled a window at a time, the
/// next window while the last one is being written (so two windows are held; at 4 MiB they
/// took a 100-input link's peak memory past nvlink's). Small enough that both buffers stay
/// in the cache and are faulted in once: at 2 MiB their first touches were ~1000 page faults
/// per link (a sixth of a 100-input link's), at 256 KiB ~130.
const WINDOW: u64 = 256 << 10;

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

/// Prebuilt section contents at least this large are written from where finalize left them
/// instead of being copied into a window first.
const DIRECT: usize = 64 << 10;

/// One part of the file up to the section header table, in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece {
    /// Sections `list[i..j]` filled into a buffer of file bytes `start..end` (the ELF header
    /// when `start` is 0, and the padding before each section, included).
    Window {
        /// First section in the list.
        i: usize,
        /// End of its sections in the list.
        j: usize,
        /// File start.
        start: u64,
        /// File end.
        end: u64,
    },
    /// Section `list[k]`'s prebuilt bytes, written as they are.
    Direct(usize),
}

/// The pieces [`emit_windowed`] writes. A window holds as many whole sections as fit in
/// `window` bytes, at least one; a section whose prebuilt bytes are `direct` goes on its own,
/// the window before it running up to its start. The first piece starts at 0.
fn pieces(list: &[(SecId, u64, u64)], window: u64, direct: impl Fn(SecId) -> bool) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut start = 0u64;
    let mut i = 0;
    let mut end = 0u64;
    for (k, &(id, o, size)) in list.iter().enumerate() {
        if direct(id) {
            if o > start || start == 0 {
                out.push(Piece::Window {
                    i,
                    j: k,
                    start,
                    end: o,
                });
            }
            out.push(Piece::Direct(k));
            start = o + size;
            end = start;
            i = k + 1;
            continue;
        }
        if k > i && o + size - start > window {
            out.push(Piece::Window {
                i,
                j: k,
                start,
                end,
            });
            start = end;
            i = k;
        }
        end = o + size;
    }
    if i < list.len() {
        out.push(Piece::Window {
            i,
            j: list.len(),
            start,
            end,
        });
    }
    out
}

/// What the filling thread hands the writing one.
enum Chunk<'a> {
    /// A filled window; its buffer goes back to be filled again.
    Window(Vec<u8>),
    /// Bytes written as they are.
    Bytes(&'a [u8]),
    /// The header tables.
    Tables(Vec<u8>),
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
    let list = &plan.list;
    let contents = &fin.contents;
    let pieces = pieces(list, window, |id| {
        contents.get(&id).is_some_and(|b| b.len() >= DIRECT)
    });
    let src = Sources::of(st, fin, patched);
    let sections = &st.sections;
    let plan = &plan;
    if pieces.is_empty() {
        // No section has bytes in the file.
        w.write_all(&plan.header)?;
    }
    let end = match pieces.last() {
        Some(&Piece::Window { end, .. }) => end,
        Some(&Piece::Direct(k)) => list[k].1 + list[k].2,
        None => EHDR64_SIZE as u64,
    };
    // One thread fills the windows (on all cores) and the header tables while this one writes
    // what is ready (writing is the kernel copying into the page cache, which no other thread
    // can share). Two window buffers go back and forth.
    std::thread::scope(|scope| -> std::io::Result<()> {
        let (ready, chunks) = std::sync::mpsc::sync_channel::<Chunk<'_>>(1);
        let (give_back, free) = std::sync::mpsc::channel::<Vec<u8>>();
        // Each buffer at the largest window's size from the start: a buffer that grew would
        // move to new memory, to be faulted in again.
        let largest = pieces
            .iter()
            .map(|p| match *p {
                Piece::Window { start, end, .. } => (end - start) as usize,
                Piece::Direct(_) => 0,
            })
            .max()
            .unwrap_or(0);
        for _ in 0..2 {
            let _ = give_back.send(Vec::with_capacity(largest));
        }
        scope.spawn(move || {
            for piece in &pieces {
                let chunk = match *piece {
                    Piece::Direct(k) => {
                        Chunk::Bytes(contents.get(&list[k].0).map_or(&[][..], Vec::as_slice))
                    }
                    Piece::Window { i, j, start, end } => {
                        // The writer stopped (a failed write): so does this thread.
                        let Ok(mut buf) = free.recv() else { return };
                        // `fill` writes every byte: only new room is zeroed first.
                        let len = (end - start) as usize;
                        buf.truncate(len);
                        buf.resize(len, 0);
                        fill(src, &list[i..j], &mut buf, start);
                        if start == 0 {
                            buf[..EHDR64_SIZE].copy_from_slice(&plan.header);
                        }
                        Chunk::Window(buf)
                    }
                };
                if ready.send(chunk).is_err() {
                    return;
                }
            }
            // The padding before the section header table, then the tables.
            let _ = ready.send(Chunk::Tables(tables(sections, fin, plan, end)));
        });
        let mut written = Ok(());
        // Ends when the filler is done (or gone: its panic comes out of the scope).
        for chunk in chunks {
            written = match &chunk {
                Chunk::Window(b) | Chunk::Tables(b) => w.write_all(b),
                Chunk::Bytes(b) => w.write_all(b),
            };
            if written.is_err() {
                break;
            }
            if let Chunk::Window(b) = chunk {
                let _ = give_back.send(b);
            }
        }
        written
    })?;
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
