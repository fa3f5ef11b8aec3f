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

/// Writes the image.
pub fn emit(
    st: &State<'_>,
    fin: &Finalized,
    patched: &super::relocate::Patched,
    opts: &LinkOptions,
) -> Vec<u8> {
    let n = fin.order.len() + 1;
    let mut offsets = vec![0u64; st.sections.len()];
    let mut pos = EHDR64_SIZE as u64;
    for &id in &fin.order {
        let s = st.sec(id);
        let align = s.addralign.max(1);
        pos = pos.div_ceil(align) * align;
        offsets[id.index()] = pos;
        if !is_nobits(fin.out_type[id.index()]) {
            pos += s.size;
        }
    }
    let shoff = pos.div_ceil(8) * 8;
    let phdrs = program_headers(st, fin, &offsets, opts);
    let phoff = shoff + (n * SHDR64_SIZE) as u64;
    let total = phoff + (phdrs.len() * PHDR64_SIZE) as u64;
    let mut out = vec![0u8; total as usize];

    // ELF header.
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
    if escaped {
        put64(&mut out, shoff as usize + 32, n as u64);
    }

    // Contents: each section's bytes into its own part of the image, sections in parallel
    // (the parts do not overlap, so the bytes do not depend on the threads).
    let mut parts: Vec<(SecId, &mut [u8], &[DataNode<'_>])> = Vec::with_capacity(fin.order.len());
    {
        let mut rest: &mut [u8] = &mut out[..shoff as usize];
        let mut at = 0usize;
        for &id in &fin.order {
            if is_nobits(fin.out_type[id.index()]) {
                continue;
            }
            let o = offsets[id.index()] as usize;
            let size = st.sec(id).size as usize;
            let (_, tail) = std::mem::take(&mut rest).split_at_mut(o - at);
            let (part, tail) = tail.split_at_mut(size);
            parts.push((id, part, &st.sec(id).nodes));
            rest = tail;
            at = o + size;
        }
    }
    let contents = &fin.contents;
    parts.into_par_iter().for_each(|(id, part, nodes)| {
        if let Some(bytes) = contents.get(&id) {
            part[..bytes.len()].copy_from_slice(bytes);
        } else {
            for node in nodes {
                if let Some(d) = node.data {
                    let start = node.offset as usize;
                    part[start..start + d.len()].copy_from_slice(d);
                }
            }
            patched.apply_to(id, part);
        }
    });

    // Section headers.
    for (k, &id) in fin.order.iter().enumerate() {
        let s = st.sec(id);
        let h = shoff as usize + (k + 1) * SHDR64_SIZE;
        let (link, info) = fin.link_info[id.index()];
        put32(&mut out, h, fin.name_offset[id.index()]);
        put32(&mut out, h + 4, fin.out_type[id.index()]);
        put64(&mut out, h + 8, s.flags);
        put64(&mut out, h + 16, 0);
        put64(&mut out, h + 24, offsets[id.index()]);
        put64(&mut out, h + 32, s.size);
        put32(&mut out, h + 40, link);
        put32(&mut out, h + 44, info);
        put64(&mut out, h + 48, s.addralign);
        put64(&mut out, h + 56, s.entsize);
    }

    // Program headers.
    for (k, p) in phdrs.iter().enumerate() {
        let h = phoff as usize + k * PHDR64_SIZE;
        let is_table = p.0 == PT_PHDR || k + 1 == phdrs.len();
        put32(&mut out, h, p.0);
        put32(&mut out, h + 4, p.1);
        put64(&mut out, h + 8, if is_table { phoff } else { p.2 });
        put64(&mut out, h + 16, 0);
        put64(&mut out, h + 24, 0);
        put64(&mut out, h + 32, p.3);
        put64(&mut out, h + 40, p.4);
        put64(&mut out, h + 48, 8);
    }
    out
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
        .filter(|&id| st.sec(id).flags & SHF_ALLOC != 0)
        .collect();
    let ro: Vec<SecId> = alloc
        .iter()
        .copied()
        .filter(|&id| st.sec(id).flags & SHF_WRITE == 0)
        .collect();
    let rw: Vec<SecId> = alloc
        .iter()
        .copied()
        .filter(|&id| st.sec(id).flags & SHF_WRITE != 0)
        .collect();
    let span = |ids: &[SecId]| -> Option<(u64, u64, u64)> {
        let first = *ids.first()?;
        let start = offsets[first.index()];
        // Zero-filled sections all sit at the end of the file data (shared sections even share
        // one offset); the segment's memory size adds each of them in full (observed).
        let mut file_end = start;
        let mut zero_filled = 0;
        for &id in ids {
            let end = offsets[id.index()] + st.sec(id).size;
            if is_nobits(fin.out_type[id.index()]) {
                // The file part runs up to where the zero-filled data is placed.
                file_end = file_end.max(offsets[id.index()]);
                zero_filled += st.sec(id).size;
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

fn put16(b: &mut [u8], o: usize, v: u16) {
    b[o..o + 2].copy_from_slice(&v.to_le_bytes());
}
fn put32(b: &mut [u8], o: usize, v: u32) {
    b[o..o + 4].copy_from_slice(&v.to_le_bytes());
}
fn put64(b: &mut [u8], o: usize, v: u64) {
    b[o..o + 8].copy_from_slice(&v.to_le_bytes());
}
