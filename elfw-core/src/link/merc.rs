//! The Mercury world of sm_100+ images: the `.nv.merc.*` and `.nv.capmerc.text.*` sections,
//! built as a mirror of the SASS link (see `crate::mercury` and the spec it cites).
//!
//! nvlink links the inputs' Mercury sections and has its finalizer rebuild the SASS from them;
//! elfw links the SASS (reusing ptxas's finalized code) and mirrors every decision into the
//! Mercury world: each SASS contribution brings its input's Mercury twin along, in the same
//! order; Mercury relocations are decided by the same rules on the `R_MERCURY_*` types;
//! `.nv.merc.symtab` repeats `.symtab` with the Mercury inputs' types, sizes and `st_other`.
//!
//! Phases: [`build`] after dead-code elimination and shared-memory layout; [`relocate`] after
//! the SASS relocation (it also decides which SASS relocation sections are written empty);
//! [`emit`] in place of the sm_90 writer.

use super::emit::{put16, put32, put64};
use super::finalize::{info_bytes, Finalized};
use super::state::*;
use super::{InputObject, LinkError, LinkOptions};
use crate::arena::SymIdx;
use crate::elf::consts::*;
use crate::mercury::{self, MercKind};
use elfw_reloc::{Disposition, Target};
use rustc_hash::FxHashMap;

/// Flag of every Mercury section (`SHF_CUDA_MERCURY`).
const SHF_MERCURY: u64 = 0x1000_0000;

/// One symbol of an input's `.nv.merc.symtab` (index-aligned with its `.symtab`).
#[derive(Clone, Copy, Debug, Default)]
pub struct MercSym {
    /// `st_info`.
    pub info: u8,
    /// `st_other`.
    pub other: u8,
    /// `st_shndx` (the input's Mercury section).
    pub shndx: u32,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
}

/// An output Mercury data section: the twin of one SASS section.
#[derive(Clone, Debug)]
pub struct MercSection {
    /// Its name.
    pub name: String,
    /// The SASS section it mirrors.
    pub twin: SecId,
    /// What kind of Mercury section it is.
    pub kind: MercKind,
    /// `sh_type` (kept from the inputs).
    pub sh_type: u32,
    /// `sh_flags` (kept from the inputs).
    pub flags: u64,
    /// `sh_addralign`.
    pub addralign: u64,
    /// `sh_entsize`.
    pub entsize: u64,
    /// Size (for sections without file data, the bytes are not kept).
    pub size: u64,
    /// The contents, relocations applied.
    pub bytes: Vec<u8>,
    /// Whether the section has bytes in the file.
    pub has_data: bool,
}

/// An output `.nv.merc.rela<X>` section.
#[derive(Clone, Debug)]
pub struct MercRela {
    /// Its name.
    pub name: String,
    /// The Mercury section it applies to (index into [`MercWorld::sections`]).
    pub target: usize,
    /// A `.nv.merc.nv.resolvedrela<X>` (`--preserve-relocs`) rather than a `.nv.merc.rela<X>`.
    pub resolved: bool,
}

/// One Mercury relocation, in output terms.
#[derive(Clone, Copy, Debug)]
pub struct MercReloc {
    /// Its relocation section (index into [`MercWorld::relas`]).
    pub rela: usize,
    /// Offset in the target section (for capsules: in the expanded instruction stream).
    pub offset: u64,
    /// `R_MERCURY_*` type.
    pub r_type: u32,
    /// Symbol.
    pub sym: Option<SymIdx>,
    /// Addend.
    pub addend: i64,
    /// For section-relative relocations: the addend in SASS terms (where the same input's
    /// SASS twin section went). The finalizer resolves its relocations against the SASS
    /// layout (observed: `R_MERCURY_PROG_REL32` into `.debug_info` writes the SASS
    /// `.debug_line` offset, keeps the Mercury one as addend).
    pub sass_addend: i64,
    /// For a capsule: the instruction it patches (the same as its SASS twin relocation's,
    /// whose instructions are 16 bytes each).
    pub slot: Option<u32>,
    /// Resolved or dropped.
    pub dropped: bool,
    /// A line-table header field that only the Mercury copy relocates: the SASS
    /// `.debug_line` and the place in it where the resolved value is written too (see
    /// `header_twin`).
    pub sass_header: Option<(SecId, u64)>,
}

/// The Mercury world of one link.
#[derive(Clone, Debug, Default)]
pub struct MercWorld {
    /// Data sections, in the order their SASS twins were created.
    pub sections: Vec<MercSection>,
    /// Relocation sections, in the order the inputs first produce them.
    pub relas: Vec<MercRela>,
    /// Relocations in arrival order.
    pub relocs: Vec<MercReloc>,
    /// Each merged input's `.nv.merc.symtab`.
    pub in_syms: FxHashMap<usize, Vec<MercSym>>,
    /// (input, input Mercury section) → (output Mercury section, offset).
    place: FxHashMap<(usize, u32), (usize, u64)>,
}

fn bad(obj: &InputObject<'_>, what: impl std::fmt::Display) -> LinkError {
    LinkError::Input {
        file: obj.name.clone(),
        message: what.to_string(),
    }
}

fn u16_at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([d[o], d[o + 1]])
}
fn u32_at(d: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(d[o..o + 4].try_into().unwrap_or([0; 4]))
}
fn u64_at(d: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(d[o..o + 8].try_into().unwrap_or([0; 8]))
}

/// An input's `.nv.merc.symtab`, if it has one.
fn read_merc_symtab(obj: &InputObject<'_>) -> Result<Vec<MercSym>, LinkError> {
    let Some(i) = obj.elf.section_by_name(mercury::MERC_SYMTAB) else {
        return Ok(Vec::new());
    };
    let d = obj.elf.section_data(i).map_err(|e| bad(obj, e))?;
    Ok(d.chunks_exact(24)
        .map(|e| MercSym {
            info: e[4],
            other: e[5],
            shndx: u16_at(e, 6) as u32,
            value: u64_at(e, 8),
            size: u64_at(e, 16),
        })
        .collect())
}

/// `-r`: a function's compiler-constant bank cut to what its symbols name (see
/// `const_bank2`) whose Mercury twin still has relocations past that point stops the link
/// (observed, sm_100: nvlink's internal error on a `-r` image's weak-template bank).
pub fn check_cut_banks(st: &State<'_>, w: &MercWorld) -> Result<(), LinkError> {
    let past_end = w.relocs.iter().any(|r| {
        let Some(rela) = w.relas.get(r.rela) else {
            return false;
        };
        let Some(sec) = w.sections.get(rela.target) else {
            return false;
        };
        sec.size > st.sec(sec.twin).size()
            && r.offset >= st.sec(sec.twin).size()
            && st.sec(sec.twin).sh_type() == SHT_CUDA_CONSTANT0 + 2
    });
    if past_end {
        return Err(LinkError::Fatal(crate::diag::Diagnostic::new(
            crate::diag::Severity::Fatal,
            "Internal error: relocation is past end of offset",
        )));
    }
    Ok(())
}

/// The section of `obj` named `twin` that is, among the sections of that name, where section
/// `idx` (named `name`) is among those of its own: a `-r` image holds a code section, and its
/// Mercury twins, for each local function of one name (observed: two `__assert_fail` under
/// `-G`, each with its `.nv.capmerc.text.__assert_fail` and `.nv.merc.rela.text.__assert_fail`).
/// The first of the name when there are fewer of them.
pub(super) fn same_rank_by_name(
    obj: &InputObject<'_>,
    idx: u32,
    name: &[u8],
    twin: &[u8],
) -> Option<u32> {
    let count = obj.elf.sections().len() as u32;
    let rank = (0..idx)
        .filter(|&i| obj.elf.section_name(i).ok() == Some(name))
        .count();
    (0..count)
        .filter(|&i| obj.elf.section_name(i).ok() == Some(twin))
        .nth(rank)
        .or_else(|| obj.elf.section_by_name(twin))
}

/// Builds the Mercury world's sections and relocations from the merged SASS state.
pub fn build(
    st: &State<'_>,
    inputs: &[InputObject<'_>],
    opts: &super::LinkOptions,
) -> Result<MercWorld, LinkError> {
    let mut w = MercWorld::default();
    for (i, _) in &st.input_maps {
        w.in_syms.insert(*i, read_merc_symtab(&inputs[*i])?);
    }
    // Data: every SASS contribution brings its input's twin, in the SASS order.
    let mut by_twin: FxHashMap<SecId, usize> = FxHashMap::default();
    for (id, s) in st.sections.iter().enumerate().skip(1) {
        for n in st.nodes.list(s.nodes()).map(|n| n.record()) {
            if n.input == usize::MAX || n.in_section == u32::MAX {
                continue;
            }
            let obj = &inputs[n.input];
            let in_name = obj
                .elf
                .section_name(n.in_section)
                .map_err(|e| bad(obj, e))?;
            let twin_name = mercury::merc_twin(in_name);
            let Some(m) = same_rank_by_name(obj, n.in_section, in_name, &twin_name) else {
                continue;
            };
            let h = *obj.elf.section(m).map_err(|e| bad(obj, e))?;
            let has_data = h.has_file_data();
            let data = if has_data {
                obj.elf.section_data(m).map_err(|e| bad(obj, e))?
            } else {
                &[][..]
            };
            let k = *by_twin.entry(SecId(id as u32)).or_insert_with(|| {
                w.sections.push(MercSection {
                    name: String::from_utf8_lossy(&mercury::merc_twin(s.name().as_bytes()))
                        .into_owned(),
                    twin: SecId(id as u32),
                    kind: mercury::classify(&twin_name).unwrap_or(MercKind::Other),
                    sh_type: h.sh_type,
                    flags: h.flags,
                    addralign: 0,
                    entsize: h.entsize,
                    size: 0,
                    bytes: Vec::new(),
                    has_data,
                });
                w.sections.len() - 1
            });
            let sec = &mut w.sections[k];
            let align = h.addralign.max(1);
            let offset = sec.size.div_ceil(align) * align;
            sec.addralign = sec.addralign.max(h.addralign);
            if has_data {
                sec.bytes.resize(offset as usize, 0);
                sec.bytes.extend_from_slice(data);
            }
            sec.size = offset + h.size;
            w.place.insert((n.input, m), (k, offset));
        }
    }
    // The reserved shared window holds every variable once (see `shared::layout_reserved`),
    // as laid out without the bytes a final link reserves ahead of them (observed on sm_110a:
    // 0xa0 in Mercury beside 0xe0 in SASS).
    let base = super::shared::reserved_base(st, opts);
    for sec in w
        .sections
        .iter_mut()
        .filter(|m| m.kind == MercKind::SharedReserved)
    {
        sec.size = sec.size.max(st.sec(sec.twin).size().saturating_sub(base));
    }
    // Relocations, input by input.
    // By name and target: local functions of the same name in several inputs have a code
    // section each, and a relocation section each (observed: two `__assert_fail` under -G).
    let mut rela_index: FxHashMap<(String, usize), usize> = FxHashMap::default();
    for (i, maps) in &st.input_maps {
        let obj = &inputs[*i];
        let msyms = &w.in_syms[i];
        for idx in 1..obj.elf.sections().len() as u32 {
            let name = obj.elf.section_name(idx).map_err(|e| bad(obj, e))?;
            if mercury::classify(name) != Some(MercKind::Rela) {
                continue;
            }
            let h = *obj.elf.section(idx).map_err(|e| bad(obj, e))?;
            let Some(&(target, base)) = w.place.get(&(*i, h.info)) else {
                continue;
            };
            let rela_name = String::from_utf8_lossy(name).into_owned();
            let rela = match rela_index.get(&(rela_name.clone(), target)) {
                Some(&r) => r,
                None => {
                    rela_index.insert((rela_name.clone(), target), w.relas.len());
                    w.relas.push(MercRela {
                        name: rela_name,
                        target,
                        resolved: false,
                    });
                    w.relas.len() - 1
                }
            };
            // Against a losing weak copy, the entries that describe code ranges go, as their
            // SASS twins do; `.debug_info` ones stay (observed on sm_100, -G without -g).
            let debug = matches!(
                w.sections[target].name.as_str(),
                ".nv.merc.debug_frame" | ".nv.merc.debug_line" | ".nv.merc.nv_debug_line_sass"
            );
            // For a capsule, the SASS twin relocations say which instruction each entry is
            // about: the k-th entry against a symbol pairs with the k-th SASS one.
            let mut sass: Vec<(u32, u64, bool)> = Vec::new();
            if w.sections[target].kind == MercKind::Capsule {
                let twin =
                    mercury::sass_twin(name).and_then(|t| same_rank_by_name(obj, idx, name, &t));
                if let Some(list) = twin.and_then(|t| obj.elf.relocations(t).ok()) {
                    sass = list.map(|r| (r.sym, r.offset, false)).collect();
                }
            }
            // Entries inside a lost weak data copy go, as their SASS twins do.
            let lost_ranges: Vec<(u64, u64)> = obj
                .elf
                .section_name(h.info)
                .ok()
                .and_then(mercury::sass_twin)
                .and_then(|t| obj.elf.section_by_name(&t))
                .map(|t| {
                    maps.lost_data
                        .iter()
                        .filter(|&&(sec, _, _)| sec == t)
                        .map(|&(_, start, end)| (start, end))
                        .collect()
                })
                .unwrap_or_default();
            // `-lineinfo` line tables: a header field the SASS twin leaves unrelocated.
            let header = if w.sections[target].name == ".nv.merc.debug_line" {
                line_headers(obj, maps, h.info)
            } else {
                None
            };
            let d = obj.elf.section_data(idx).map_err(|e| bad(obj, e))?;
            // Mercury line table → (its units, its SASS twin's units), parsed once.
            let mut line_units: FxHashMap<u32, (Vec<mercury::LineUnit>, Vec<mercury::LineUnit>)> =
                FxHashMap::default();
            for e in d.chunks_exact(24) {
                let at = u64_at(e, 0);
                if lost_ranges
                    .iter()
                    .any(|&(start, end)| (start..end).contains(&at))
                {
                    continue;
                }
                let info = u64_at(e, 8);
                let in_sym = (info >> 32) as usize;
                let raw = u64_at(e, 16) as i64;
                let mut addend = raw;
                let mut sass_addend = raw;
                let sym = maps.sym.get(in_sym).copied().flatten();
                if let Some(ms) = msyms.get(in_sym) {
                    if ms.info & 0xf == STT_SECTION {
                        // Section-relative: where this input's Mercury section went, and
                        // where its SASS twin went.
                        if let Some(&(_, off)) = w.place.get(&(*i, ms.shndx)) {
                            addend += off as i64;
                        }
                        let twin = obj
                            .elf
                            .section_name(ms.shndx)
                            .ok()
                            .and_then(mercury::sass_twin)
                            .and_then(|t| obj.elf.section_by_name(&t));
                        if let Some(t) = twin {
                            // An offset into a Mercury line table (a `-r` input's later unit)
                            // names the same unit of the SASS one.
                            if let Some(at) = usize::try_from(raw).ok().filter(|&a| a > 0) {
                                if obj.elf.section_name(t).ok() == Some(&b".debug_line"[..]) {
                                    let (m, s) = line_units.entry(ms.shndx).or_insert_with(|| {
                                        let units = |sec: u32| {
                                            obj.elf
                                                .section_data(sec)
                                                .map(mercury::line_units)
                                                .unwrap_or_default()
                                        };
                                        (units(ms.shndx), units(t))
                                    });
                                    let k = m.iter().position(|u| u.start == at);
                                    if let Some(u) = k.and_then(|k| s.get(k)) {
                                        sass_addend = u.start as i64;
                                    }
                                }
                            }
                            if let Some(&off) = maps.offset.get(t as usize) {
                                sass_addend += off as i64;
                            }
                            // Into a pruned SASS line table: where those bytes went.
                            if let Some(&Some(out)) = maps.sec.get(t as usize) {
                                sass_addend = st.line_offset(out, sass_addend as u64) as i64;
                            }
                        }
                    }
                }
                let lost = maps.lost.get(in_sym).copied().unwrap_or(false)
                    || sym.is_some_and(|s| st.replaced_with_relocations.contains(&(*i, s)));
                let slot = sass
                    .iter_mut()
                    .find(|x| x.0 as usize == in_sym && !x.2)
                    .map(|x| {
                        x.2 = true;
                        (x.1 / 16) as u32
                    });
                // `-r`: a kernel's code names its `externsharedinstance`, not the
                // `extern __shared__` names (as its SASS twin does).
                let sym = match sym {
                    Some(s) if st.dynamic_names.contains(&s) => st
                        .shared_instances
                        .get(&w.sections[target].twin)
                        .copied()
                        .or(sym),
                    _ => sym,
                };
                w.relocs.push(MercReloc {
                    rela,
                    offset: base.wrapping_add(u64_at(e, 0)),
                    r_type: info as u32,
                    sym,
                    addend,
                    sass_addend,
                    slot,
                    dropped: lost && debug,
                    sass_header: header
                        .as_ref()
                        .and_then(|h| h.twin_of(at))
                        .map(|(sec, o)| (sec, st.line_offset(sec, o))),
                });
            }
        }
    }
    let _ = u32_at;
    Ok(w)
}

/// Where the unit headers of an input's Mercury `.debug_line` sit in its SASS `.debug_line`.
///
/// A `-lineinfo` line table's header ends with `.debug_str` offsets (the names of inlined
/// functions). ptxas relocates them only in the Mercury copy; nvlink's image has the resolved
/// offsets in the SASS copy too, without a relocation (observed, sm_100 and sm_120: the second
/// TU's header reads 0xa, where its `.debug_str` went). The programs of the two copies
/// differ, so only offsets inside headers that are byte-identical in both are mirrored.
struct LineHeaders {
    /// Per unit: Mercury header start, SASS header start, header length (from the unit start).
    units: Vec<(u64, u64, u64)>,
    /// Offsets the SASS relocations already cover.
    sass_relocated: Vec<u64>,
    /// The SASS `.debug_line` and where this input's contribution starts in it.
    sass: (SecId, u64),
}

impl LineHeaders {
    /// The SASS place of a Mercury relocation at `at`, when it is a header field that the SASS
    /// relocations leave out.
    fn twin_of(&self, at: u64) -> Option<(SecId, u64)> {
        let &(m, s, _) = self
            .units
            .iter()
            .find(|&&(m, _, len)| (m..m + len).contains(&at))?;
        let in_sass = s + (at - m);
        (!self.sass_relocated.contains(&in_sass)).then_some((self.sass.0, self.sass.1 + in_sass))
    }
}

/// The matching unit headers of input `obj`'s Mercury line table (section `merc`) and its
/// SASS twin, or `None` when the SASS twin is not part of the link.
fn line_headers(
    obj: &InputObject<'_>,
    maps: &super::merge::InputMaps,
    merc: u32,
) -> Option<LineHeaders> {
    let twin = obj.elf.section_by_name(b".debug_line")?;
    let sass_sec = maps.sec.get(twin as usize).copied().flatten()?;
    let base = *maps.offset.get(twin as usize)?;
    let m = obj.elf.section_data(merc).ok()?;
    let s = obj.elf.section_data(twin).ok()?;
    let mut units = Vec::new();
    for (mu, su) in mercury::line_units(m)
        .into_iter()
        .zip(mercury::line_units(s))
    {
        let (mh, sh) = (mu.program - mu.start, su.program - su.start);
        if mh == sh && m[mu.start + 4..mu.program] == s[su.start + 4..su.program] {
            units.push((mu.start as u64, su.start as u64, mh as u64));
        }
    }
    let rela = obj.elf.section_by_name(b".rela.debug_line");
    let sass_relocated = rela
        .and_then(|r| obj.elf.relocations(r).ok())
        .map(|list| list.map(|r| r.offset).collect())
        .unwrap_or_default();
    Some(LineHeaders {
        units,
        sass_relocated,
        sass: (sass_sec, base),
    })
}

/// Decides and applies the Mercury relocations (as the SASS ones: same targets, `R_MERCURY_*`
/// types), then marks the SASS relocation sections whose Mercury twin keeps entries: nvlink
/// writes those even when they end up empty.
pub fn relocate(
    w: &mut MercWorld,
    st: &mut State<'_>,
    patched: &mut super::relocate::Patched,
    opts: &LinkOptions,
) {
    let mut resolved = Vec::new();
    let mut headers = Vec::new();
    for k in 0..w.relocs.len() {
        let r = w.relocs[k];
        if r.dropped {
            continue;
        }
        let target = w.relas[r.rela].target;
        if st.sec(w.sections[target].twin).removed() {
            w.relocs[k].dropped = true;
            continue;
        }
        let Some(sym) = r.sym else {
            w.relocs[k].dropped = true;
            continue;
        };
        let s = st.sym(sym);
        // A final link's references to texture/surface slots: the capsule reads the slot's
        // place in the Mercury bank (observed, sm_100: 4 and 8 for a kernel's second and third
        // slots), and nothing is left for the driver.
        if !opts.relocatable && super::bindless::is_bindless_type(s.sym_type()) {
            let twin = w.sections[target].twin;
            if let Some(value) = super::bindless::mercury_slot_value(st, twin, sym) {
                if w.sections[target].kind == MercKind::Capsule {
                    patch_capsule(&mut w.sections[target].bytes, &r, value);
                }
                w.relocs[k].dropped = true;
                continue;
            }
        }
        let class = super::relocate::target_class(&super::relocate::View::of(st), s, opts);
        let Ok(mut disposition) = elfw_reloc::disposition(r.r_type, class) else {
            continue;
        };
        // `-r`: `.debug_info`'s references into `.debug_line` stay unapplied, as on the SASS
        // side (see `relocate`).
        if opts.relocatable
            && s.sym_type() == STT_SECTION
            && matches!(s.section(), SymSection::Section(l) if st.sec(l).name() == ".debug_line")
            && w.sections[target].name == ".nv.merc.debug_info"
        {
            disposition = Disposition::Keep;
        }
        // A final link leaves the Mercury references to variables of the reserved shared
        // window (tcgen05's `__nv_reservedSMEM_tcgen05_partition`) for the finalizer, as those
        // to the undefined `.nv.reservedSmem.cap`; the SASS ones are settled (observed, sm_100a).
        if !opts.relocatable
            && disposition == Disposition::Apply
            && s.name().starts_with("__nv_reservedSMEM")
        {
            disposition = Disposition::Keep;
        }
        let apply = matches!(disposition, Disposition::Apply | Disposition::ApplyAndKeep);
        let keep = matches!(disposition, Disposition::Keep | Disposition::ApplyAndKeep);
        if apply {
            // Debug info naming dynamic shared memory, or a kernel's variable whose window
            // went, resolves it to -1 without `-g`, as in the SASS world (observed, sm_100 `-G`
            // objects linked without `-g` and with `-g -suppress-debug-info`: 0x3ff in both
            // worlds' `.debug_info`; the windows `--kernels-used` leaves out on sm_100/sm_120).
            let twin = w.sections[target].twin;
            let dynamic_in_debug = !opts.debug
                && s.shared()
                    .is_some_and(|v| st.shared_vars[v].kind == SharedKind::Dynamic)
                && super::relocate::is_debug_target(st.sec(twin).name());
            let view = super::relocate::View::of(st);
            let symbol = if s.sym_type() == STT_SECTION {
                0
            } else if dynamic_in_debug
                || super::relocate::removed_shared_in_debug(&view, s, twin, opts)
            {
                u64::MAX
            } else {
                super::relocate::symbol_value_in(&view, s, opts, twin)
            };
            let addend = if disposition == Disposition::ApplyAndKeep {
                r.sass_addend
            } else {
                r.addend
            };
            let value = (symbol as i64).wrapping_add(addend) as u64;
            let capsule = w.sections[target].kind == MercKind::Capsule;
            let bytes = &mut w.sections[target].bytes;
            if capsule {
                // Only constant-bank offsets were seen patched; a shared-memory offset in the
                // Mercury world leaves the window's reserved bytes out and stays as ptxas
                // wrote it (observed).
                // (`-r` settles references to an undefined constant too: see `relocate`.)
                let constant = match s.section() {
                    SymSection::Section(id) => super::merge::is_constant_bank(st.sec(id).sh_type()),
                    SymSection::Undef => {
                        opts.relocatable && s.other() & super::relocate::STO_CUDA_CONSTANT != 0
                    }
                    _ => false,
                };
                if constant {
                    patch_capsule(bytes, &r, value);
                }
            } else {
                let _ = elfw_reloc::apply(r.r_type, bytes, r.offset, value);
                if let Some((sass, at)) = r.sass_header {
                    let value = (symbol as i64).wrapping_add(r.sass_addend) as u64;
                    headers.push((sass, at, r.r_type, value));
                }
            }
        }
        if keep {
            // A relocatable image keeps the compiler's types, as on sm_90.
            if !opts.relocatable {
                w.relocs[k].r_type = elfw_reloc::driver_type(r.r_type);
            }
        } else {
            w.relocs[k].dropped = true;
            // `--preserve-relocs`: what resolved against shared memory is written down, without
            // `-g` not against dynamic shared memory (observed, sm_100 and sm_120).
            let recorded = s
                .shared()
                .is_some_and(|v| opts.debug || st.shared_vars[v].kind != SharedKind::Dynamic);
            // Nor anything in a debug section (as in the SASS world).
            let in_debug = w
                .sections
                .get(w.relas[r.rela].target)
                .is_some_and(|t| super::relocate::is_debug_target(st.sec(t.twin).name()));
            if apply && opts.preserve_relocs && recorded && !in_debug {
                let name =
                    w.relas[r.rela]
                        .name
                        .replacen(".nv.merc.rela", ".nv.merc.nv.resolvedrela", 1);
                let rela = match w.relas.iter().rposition(|x| x.resolved && x.name == name) {
                    Some(x) => x,
                    None => {
                        w.relas.push(MercRela {
                            name,
                            target,
                            resolved: true,
                        });
                        w.relas.len() - 1
                    }
                };
                resolved.push(MercReloc {
                    rela,
                    dropped: false,
                    ..r
                });
            }
        }
        let _ = class == Target::LinkTime;
    }
    w.relocs.extend(resolved);
    patched.add(headers);
    // Relocation sections come in pairs: the SASS one exists when its Mercury twin keeps
    // entries, even if every SASS entry was resolved.
    let mut keeps = vec![false; w.relas.len()];
    for r in w.relocs.iter().filter(|r| !r.dropped) {
        keeps[r.rela] = true;
    }
    for (j, rela) in w.relas.iter().enumerate() {
        let kept = !rela.resolved && keeps[j];
        if !kept {
            continue;
        }
        let Some(sass) = mercury::sass_twin(rela.name.as_bytes()) else {
            continue;
        };
        if let Some(id) = st.section_by_name(&String::from_utf8_lossy(&sass)) {
            *st.sec_mut(id).keep_empty() = true;
        }
    }
}

/// Adds the Mercury banks of the kernels' texture, sampler and surface slots
/// (`.nv.merc.nv.constant.entry_image_header_indices.<k>`, zeros, and their
/// `R_MERCURY_*_HEADER_INDEX` relocations; see `bindless::SlotBank`).
pub fn add_slot_banks(w: &mut MercWorld, st: &State<'_>) {
    for b in &st.slot_banks {
        let s = st.sec(b.bank);
        let Some(kernel) = s.name().strip_prefix(mercury::SLOT_CONSTANT.0) else {
            continue;
        };
        let size = s.size() - b.start;
        w.sections.push(MercSection {
            name: format!(".nv.merc{}{kernel}", mercury::SLOT_CONSTANT.1),
            twin: b.bank,
            kind: MercKind::Constant,
            sh_type: mercury::SHT_MERC_SLOT_CONSTANT,
            flags: SHF_MERCURY | SHF_ALLOC | SHF_INFO_LINK,
            addralign: 4,
            entsize: 0,
            size,
            bytes: vec![0; size as usize],
            has_data: true,
        });
        w.relas.push(MercRela {
            name: format!(".nv.merc.rela{}{kernel}", mercury::SLOT_CONSTANT.1),
            target: w.sections.len() - 1,
            resolved: false,
        });
        let rela = w.relas.len() - 1;
        for &(sym, offset) in &b.slots {
            w.relocs.push(MercReloc {
                rela,
                offset: offset - b.start,
                r_type: super::bindless::SlotBank::mercury_type(st, sym),
                sym: Some(sym),
                addend: 0,
                sass_addend: 0,
                slot: None,
                dropped: false,
                sass_header: None,
            });
        }
    }
}

/// Adds the Mercury twins of the kernels' compiler-constants banks a final link assembled
/// (`.nv.merc.nv.constant.optimizer.<k>` and its relocations, see `const_bank2`), once the
/// finalizer has made the banks of kernels that had none.
pub fn add_constant_banks(w: &mut MercWorld, st: &State<'_>) {
    for m in &st.merc_bank2 {
        let Some(bank) = m.bank.filter(|&b| !st.sec(b).removed()) else {
            continue;
        };
        let s = st.sec(bank);
        let name = String::from_utf8_lossy(&mercury::merc_twin(s.name().as_bytes())).into_owned();
        w.sections.push(MercSection {
            name,
            twin: bank,
            kind: MercKind::Constant,
            sh_type: mercury::SHT_MERC_OPTIMIZER_CONSTANT,
            flags: SHF_MERCURY | s.flags(),
            addralign: s.addralign(),
            entsize: 0,
            size: m.bytes.len() as u64,
            bytes: m.bytes.clone(),
            has_data: true,
        });
        if m.relocs.is_empty() {
            continue;
        }
        let rela_name = format!(".rela{}", s.name());
        w.relas.push(MercRela {
            name: String::from_utf8_lossy(&mercury::merc_twin(rela_name.as_bytes())).into_owned(),
            target: w.sections.len() - 1,
            resolved: false,
        });
        let rela = w.relas.len() - 1;
        // (The writer lists a section's relocations newest first.)
        for &(offset, r_type, sym, addend) in m.relocs.iter().rev() {
            w.relocs.push(MercReloc {
                rela,
                offset,
                r_type,
                sym,
                addend,
                sass_addend: addend,
                slot: None,
                dropped: false,
                sass_header: None,
            });
        }
    }
}

/// Writes a link-time value into a capsule, when the instruction it belongs to is stored
/// there (otherwise the driver rebuilds the instruction from the SASS, which has the value).
/// Observed (sm_100/sm_120 `__constant__` offsets): a 32-byte instruction takes the value in
/// its second half at the same position the relocation has within its 16 bytes; the rest of
/// the capsule is the instruction stream's verbatim.
fn patch_capsule(capsule: &mut [u8], r: &MercReloc, value: u64) {
    let Some(slot) = r.slot else {
        return;
    };
    let Some((start, len)) = mercury::capsule_record(capsule, slot) else {
        return;
    };
    let within = (r.offset & 0xf) as usize + if len == 32 { 16 } else { 0 };
    let _ = elfw_reloc::apply(
        r.r_type,
        &mut capsule[start..start + len],
        within as u64,
        value,
    );
}

/// One section of the output as the Mercury writer sees it.
struct OutSection<'a> {
    name: String,
    sh_type: u32,
    flags: u64,
    link: u32,
    info: u32,
    addralign: u64,
    entsize: u64,
    size: u64,
    bytes: std::borrow::Cow<'a, [u8]>,
    has_data: bool,
    /// For Mercury sections: the SASS twin's output position.
    twin_pos: Option<usize>,
}

/// Writes a final or `-r` sm_100+ image: the SASS sections as finalized, then the Mercury
/// world, with the Mercury writer's string tables, layout and program headers.
pub fn emit(
    st: &State<'_>,
    fin: &Finalized,
    patched: &super::relocate::Patched,
    w: &MercWorld,
    inputs: &[InputObject<'_>],
    opts: &LinkOptions,
) -> Vec<u8> {
    let nums = &fin.symbols;
    // SASS sections in their final order (position 0 is the null section).
    let mut out: Vec<OutSection<'_>> = vec![OutSection {
        name: String::new(),
        sh_type: 0,
        flags: 0,
        link: 0,
        info: 0,
        addralign: 0,
        entsize: 0,
        size: 0,
        bytes: Vec::new().into(),
        has_data: false,
        twin_pos: None,
    }];
    for &id in &fin.order {
        let s = st.sec(id);
        let (link, info) = fin.link_info[id.index()];
        let sh_type = fin.out_type[id.index()];
        let has_data = !super::emit::is_nobits(sh_type);
        // Zero-filled sections have no bytes to build (their size may be anything).
        let bytes: std::borrow::Cow<'_, [u8]> = match fin.contents.get(&id) {
            Some(b) => b.as_slice().into(),
            None if !has_data => Vec::new().into(),
            None => patched.section(st, id).into(),
        };
        out.push(OutSection {
            name: s.name().to_owned(),
            sh_type,
            flags: s.flags(),
            link,
            info,
            addralign: s.addralign(),
            entsize: s.entsize(),
            size: s.size(),
            bytes: if has_data { bytes } else { Vec::new().into() },
            has_data,
            twin_pos: None,
        });
    }
    let sass_count = out.len();
    let pos_of = |id: SecId| fin.out_index[id.index()] as usize;

    // The Mercury sections, before ordering: (name, section).
    let mut merc: Vec<OutSection<'_>> = Vec::new();
    // Which Mercury section mirrors each SASS position.
    let mut data_index: FxHashMap<SecId, usize> = FxHashMap::default();
    let sym_tab = OutSection {
        name: ".nv.merc.symtab".into(),
        sh_type: mercury::SHT_MERC_SYMTAB,
        flags: SHF_MERCURY,
        link: 2,
        info: 0,
        addralign: 8,
        entsize: 24,
        size: 0,
        bytes: Vec::new().into(),
        has_data: true,
        twin_pos: None,
    };
    merc.push(sym_tab);
    for (k, m) in w.sections.iter().enumerate() {
        if st.sec(m.twin).removed() {
            continue;
        }
        data_index.insert(m.twin, merc.len());
        let _ = k;
        merc.push(OutSection {
            name: m.name.clone(),
            sh_type: m.sh_type,
            flags: m.flags,
            link: 0,
            info: 0,
            addralign: m.addralign,
            entsize: m.entsize,
            size: m.size,
            bytes: m.bytes.as_slice().into(),
            has_data: m.has_data,
            twin_pos: Some(pos_of(m.twin)),
        });
    }
    // `.nv.merc.nv.info`, callgraph and prototype: copies of the SASS ones.
    for (name, t) in [
        (".nv.info", mercury::SHT_MERC_INFO),
        (".nv.callgraph", mercury::SHT_MERC_CALLGRAPH),
        (".nv.prototype", mercury::SHT_MERC_PROTOTYPE),
    ] {
        let Some(id) = st.section_by_name(name).filter(|&id| !st.sec(id).removed()) else {
            continue;
        };
        let p = pos_of(id);
        data_index.insert(id, merc.len());
        let mut bytes = out[p].bytes.clone();
        if name == ".nv.info" && !st.merc_frame_sizes.is_empty() {
            own_frame_sizes(st, nums, bytes.to_mut());
        }
        merc.push(OutSection {
            name: format!(".nv.merc{name}"),
            sh_type: t,
            flags: SHF_MERCURY,
            link: 0,
            info: 0,
            addralign: out[p].addralign,
            entsize: out[p].entsize,
            size: out[p].size,
            bytes,
            has_data: true,
            twin_pos: Some(p),
        });
    }
    // `.nv.merc.nv.info.<f>`: the Mercury records, treated as the SASS ones are.
    let empty = Vec::new();
    let mut info_sections: Vec<(usize, SecId)> = Vec::new();
    for (&sec, records) in &st.merc_section_info {
        if st.sec(sec).removed() {
            continue;
        }
        let tail = st.section_info_tail.get(&sec).unwrap_or(&empty);
        let bytes = info_bytes(
            st.symbol_view(),
            records.iter().rev().chain(tail.iter()),
            nums,
        );
        info_sections.push((merc.len(), sec));
        merc.push(OutSection {
            name: format!(".nv.merc{}", st.sec(sec).name()),
            sh_type: mercury::SHT_MERC_INFO,
            flags: SHF_MERCURY | SHF_INFO_LINK,
            link: 0,
            info: 0,
            addralign: 4,
            entsize: 0,
            size: bytes.len() as u64,
            bytes: bytes.into(),
            has_data: true,
            twin_pos: Some(pos_of(sec)),
        });
    }
    // `.nv.merc.rela<X>` with what they keep, in the SASS order (newest input first).
    let mut rela_sections: Vec<(usize, usize)> = Vec::new();
    let mut sass_relas: FxHashMap<SecId, Vec<SecId>> = FxHashMap::default();
    for i in 1..st.sections.len() {
        if let Some(t) = st.sections.reloc_target[i] {
            sass_relas.entry(t).or_default().push(SecId(i as u32));
        }
    }
    let mut per_rela: Vec<Vec<&MercReloc>> = vec![Vec::new(); w.relas.len()];
    for r in w.relocs.iter().rev().filter(|r| !r.dropped) {
        per_rela[r.rela].push(r);
    }
    for (j, rela) in w.relas.iter().enumerate() {
        let mut bytes = Vec::new();
        for r in &per_rela[j] {
            let sym = r.sym.map_or(0, |s| nums.get(s)) as u64;
            bytes.extend_from_slice(&r.offset.to_le_bytes());
            bytes.extend_from_slice(&((sym << 32) | r.r_type as u64).to_le_bytes());
            bytes.extend_from_slice(&r.addend.to_le_bytes());
        }
        if bytes.is_empty() || st.sec(w.sections[rela.target].twin).removed() {
            continue;
        }
        // The SASS relocation section of the same name for the same code: local functions
        // of one name have one each.
        let sass_target = w.sections[rela.target].twin;
        let named = mercury::sass_twin(rela.name.as_bytes()).and_then(|t| {
            let name = String::from_utf8_lossy(&t).into_owned();
            sass_relas
                .get(&sass_target)
                .and_then(|list| list.iter().copied().find(|&id| st.sec(id).name() == name))
                .or_else(|| st.section_by_name(&name))
        });
        let twin = match named {
            Some(id) => (!st.sec(id).removed()).then(|| pos_of(id)),
            // Without a twin of its name (`.nv.merc.rela.nv.constant.user`, the user
            // constants' function addresses, whose SASS bank is `.nv.constant3`) it takes the
            // place of the SASS relocations of the same section (observed, sm_100: between
            // `.nv.merc.rela.text.<k>` and `.nv.merc.rela.debug_frame`, as `.rela.nv.constant3`),
            // else goes right before the section it relocates.
            None => Some(
                sass_relas
                    .get(&sass_target)
                    .and_then(|list| list.iter().copied().find(|&id| !st.sec(id).removed()))
                    .map_or_else(|| pos_of(sass_target), pos_of),
            ),
        };
        rela_sections.push((merc.len(), rela.target));
        merc.push(OutSection {
            name: rela.name.clone(),
            sh_type: if rela.resolved {
                mercury::SHT_MERC_RESOLVED_RELA
            } else {
                mercury::SHT_MERC_RELA
            },
            flags: SHF_MERCURY | SHF_INFO_LINK,
            link: 0,
            info: 0,
            addralign: 8,
            entsize: 24,
            size: bytes.len() as u64,
            bytes: bytes.into(),
            has_data: true,
            twin_pos: twin,
        });
    }

    // Order: `.nv.merc.symtab`, then each at its twin's position.
    let sass_names: Vec<&[u8]> = out.iter().map(|s| s.name.as_bytes()).collect();
    let merc_names: Vec<&[u8]> = merc.iter().map(|s| s.name.as_bytes()).collect();
    let twins: Vec<Option<usize>> = merc.iter().map(|s| s.twin_pos).collect();
    let order = mercury::merc_output_order(&sass_names, &merc_names, &twins);
    let mut final_pos = vec![0usize; merc.len()];
    for (n, &k) in order.iter().enumerate() {
        final_pos[k] = sass_count + n;
    }
    let merc_symtab_pos = final_pos[0];
    // Header links now that positions are known.
    let capsule_of =
        |text: SecId| -> Option<usize> { data_index.get(&text).map(|&k| final_pos[k]) };
    for (k, m) in merc.iter_mut().enumerate() {
        let _ = k;
        match mercury::classify(m.name.as_bytes()) {
            Some(MercKind::Symtab) => {
                m.info = nums.first_global;
            }
            Some(MercKind::Capsule) => {
                m.link = merc_symtab_pos as u32;
                if let Some(p) = m.twin_pos {
                    m.info = out[p].info;
                }
            }
            Some(MercKind::Info | MercKind::Callgraph | MercKind::Prototype) => {
                m.link = merc_symtab_pos as u32;
            }
            _ => {}
        }
    }
    // The compiler's constants name their function's capsule, as the SASS bank its `.text`.
    for m in &w.sections {
        if m.kind != MercKind::Constant || st.sec(m.twin).removed() {
            continue;
        }
        if let (Link::Section(text), Some(&k)) = (st.sec(m.twin).info(), data_index.get(&m.twin)) {
            merc[k].info = capsule_of(text).unwrap_or(0) as u32;
        }
    }
    for &(k, sec) in &info_sections {
        merc[k].link = merc_symtab_pos as u32;
        if let Link::Section(text) = st.sec(sec).info() {
            merc[k].info = capsule_of(text).unwrap_or(0) as u32;
        }
    }
    for &(k, target) in &rela_sections {
        merc[k].link = merc_symtab_pos as u32;
        merc[k].info = data_index
            .get(&w.sections[target].twin)
            .map_or(0, |&t| final_pos[t]) as u32;
    }
    // Capsules: word 0 names the SASS `.text`.
    for m in merc.iter_mut() {
        if mercury::classify(m.name.as_bytes()) == Some(MercKind::Capsule) {
            if let Some(p) = m.twin_pos {
                let mut b = m.bytes.to_vec();
                let _ = mercury::set_capsule_text_index(&mut b, p as u32);
                m.bytes = b.into();
            }
        }
    }
    // `.nv.merc.symtab`: `.symtab` again, with the Mercury inputs' types, sizes and st_other,
    // and the Mercury twins as sections.
    merc[0].bytes = merc_symtab(st, fin, w, &data_index, &final_pos, opts).into();
    merc[0].size = merc[0].bytes.len() as u64;

    let mut all: Vec<OutSection<'_>> = out;
    let mut merc_sorted: Vec<Option<OutSection<'_>>> = merc.into_iter().map(Some).collect();
    for &k in &order {
        if let Some(s) = merc_sorted[k].take() {
            all.push(s);
        }
    }
    // `.shstrtab` in section order.
    let names: Vec<&[u8]> = all.iter().map(|s| s.name.as_bytes()).collect();
    let shstr = mercury::section_name_table(&names);
    let shstr_offsets = shstr.offsets.clone();
    all[1].bytes = shstr.bytes.into();
    all[1].size = all[1].bytes.len() as u64;

    // Layout: a Mercury section with the same bytes as its SASS twin shares them.
    let items: Vec<mercury::LayoutItem> = all
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let shares_with = if i >= sass_count {
                s.twin_pos.filter(|&p| {
                    all[p].has_data
                        && s.has_data
                        && mercury::shares_file_bytes(s.name.as_bytes(), &s.bytes, &all[p].bytes)
                })
            } else {
                None
            };
            mercury::LayoutItem {
                size: s.size,
                align: s.addralign,
                has_file_data: s.has_data,
                shares_with,
            }
        })
        .collect();
    let segments_wanted = !opts.relocatable;
    // Program headers depend on offsets; lay out once to find them, then count them.
    let probe = mercury::layout(&items, 0).unwrap_or_default();
    let segs: Vec<mercury::SegmentSection> = all
        .iter()
        .enumerate()
        .map(|(i, s)| mercury::SegmentSection {
            offset: probe.offsets.get(i).copied().unwrap_or(0),
            size: s.size,
            flags: s.flags,
            has_file_data: s.has_data,
            align: s.addralign,
        })
        .collect();
    let phnum = if segments_wanted {
        mercury::program_headers(&segs, 0).len()
    } else {
        0
    };
    let layout = mercury::layout(&items, phnum).unwrap_or_default();
    let phdrs = if segments_wanted {
        mercury::program_headers(&segs, layout.program_headers)
    } else {
        Vec::new()
    };

    let mut image = vec![0u8; layout.file_size as usize];
    image[..4].copy_from_slice(b"\x7fELF");
    image[4] = ELFCLASS64;
    image[5] = ELFDATA2LSB;
    image[6] = 1;
    image[7] = ELFOSABI_CUDA;
    image[8] = 8;
    let e_type = if opts.relocatable { ET_REL } else { ET_EXEC };
    put16(&mut image, 16, e_type);
    put16(&mut image, 18, EM_CUDA);
    put32(&mut image, 20, 1);
    put64(&mut image, 32, layout.program_headers);
    put64(&mut image, 40, layout.section_headers);
    let input_flags: Vec<u32> = st
        .merged_inputs
        .iter()
        .map(|&i| inputs[i].elf.header().flags)
        .collect();
    // The top byte holds the section index of `.note.nv.cuinfo`, as on older targets
    // (observed on every sm_100+ image in the corpus, and on a -lineinfo link where the
    // inputs' debug flags alone would say one less).
    let mut flags = mercury::e_flags(opts.target.sm, &input_flags);
    if let Some(cuinfo) = all.iter().position(|s| s.name == ".note.nv.cuinfo") {
        flags = (flags & 0x00ff_ffff) | ((cuinfo.min(0xff) as u32) << 24);
    }
    put32(&mut image, 48, flags);
    put16(&mut image, 52, EHDR64_SIZE as u16);
    put16(
        &mut image,
        54,
        if phdrs.is_empty() {
            0
        } else {
            PHDR64_SIZE as u16
        },
    );
    put16(&mut image, 56, phdrs.len() as u16);
    put16(&mut image, 58, SHDR64_SIZE as u16);
    put16(&mut image, 60, all.len() as u16);
    put16(&mut image, 62, 1);
    for (i, s) in all.iter().enumerate().skip(1) {
        if s.has_data && items[i].shares_with.is_none() {
            let o = layout.offsets[i] as usize;
            image[o..o + s.bytes.len()].copy_from_slice(&s.bytes);
        }
    }
    let shoff = layout.section_headers as usize;
    for (i, s) in all.iter().enumerate().skip(1) {
        let h = shoff + i * SHDR64_SIZE;
        put32(&mut image, h, shstr_offsets[i]);
        put32(&mut image, h + 4, s.sh_type);
        put64(&mut image, h + 8, s.flags);
        put64(&mut image, h + 24, layout.offsets[i]);
        put64(&mut image, h + 32, s.size);
        put32(&mut image, h + 40, s.link);
        put32(&mut image, h + 44, s.info);
        put64(&mut image, h + 48, s.addralign);
        put64(&mut image, h + 56, s.entsize);
    }
    for (k, p) in phdrs.iter().enumerate() {
        let h = layout.program_headers as usize + k * PHDR64_SIZE;
        put32(&mut image, h, p.p_type);
        put32(&mut image, h + 4, p.flags);
        put64(&mut image, h + 8, p.offset);
        put64(&mut image, h + 16, p.vaddr);
        put64(&mut image, h + 24, p.paddr);
        put64(&mut image, h + 32, p.filesz);
        put64(&mut image, h + 40, p.memsz);
        put64(&mut image, h + 48, p.align);
    }
    image
}

/// `.nv.merc.symtab` (spec Y3).
fn merc_symtab(
    st: &State<'_>,
    fin: &Finalized,
    w: &MercWorld,
    data_index: &FxHashMap<SecId, usize>,
    final_pos: &[usize],
    opts: &LinkOptions,
) -> Vec<u8> {
    let nums = &fin.symbols;
    // Each output symbol's record in its input's `.nv.merc.symtab`: the defining input's,
    // else the first input that names it.
    let mut origin: FxHashMap<SymIdx, MercSym> = FxHashMap::default();
    for (i, maps) in &st.input_maps {
        let Some(msyms) = w.in_syms.get(i) else {
            continue;
        };
        for (j, s) in maps.sym.iter().enumerate() {
            let (Some(s), Some(m)) = (*s, msyms.get(j)) else {
                continue;
            };
            let defining = st.sym(s).input() == *i;
            if defining || !origin.contains_key(&s) {
                if defining {
                    origin.insert(s, *m);
                } else {
                    origin.entry(s).or_insert(*m);
                }
            }
        }
    }
    let mut out = vec![0u8; 24];
    // The null entry's value quirk shows in both tables (see `const_bank2`).
    out[8..16].copy_from_slice(&st.null_symbol_value.to_le_bytes());
    for (k, &idx) in nums.order[..nums.mirrored].iter().enumerate() {
        let s = st.sym(idx);
        let m = origin.get(&idx).copied();
        // Undefined objects are CUDA objects in both tables (spec Y2).
        let sym_type = match m {
            Some(m) if s.is_defined() => m.info & 0xf,
            _ => s.sym_type(),
        };
        let info = (s.info() & 0xf0) | sym_type;
        // A shared variable's visibility (`--preserve-relocs` makes it STV_INTERNAL) shows in
        // both tables (observed: 0x40 | 1).
        let other = match (m, s.shared()) {
            (Some(m), Some(_)) => m.other | (s.other() & 0x3),
            (Some(m), None) => m.other,
            (None, _) => s.other(),
        };
        let size = m.map_or(s.size(), |m| m.size);
        let reserved =
            s.name().starts_with(".nv.reservedSmem") || s.name().starts_with("__nv_reservedSMEM");
        // The reserved shared-memory symbols are 0 in the Mercury world of a final link (spec
        // Y2/Y3) but for the window's variables; a relocatable one keeps the input's Mercury value (observed on sm_110: the
        // workaround variable stays at 0x10). Shared variables sit at their offset, without
        // the window's reserved bytes.
        let value = match s.shared() {
            _ if reserved && opts.relocatable => m.map_or(0, |m| m.value),
            // (A variable of the window sits at its offset in it: observed on sm_110a, the
            // tcgen05 partition at 0x80 after the 128-byte workaround variable.)
            _ if reserved && s.is_defined() => s
                .value()
                .saturating_sub(super::shared::reserved_base(st, opts)),
            _ if reserved => 0,
            Some(v) => st.shared_vars[v].offset.unwrap_or(0),
            // A function inside another's code (an `-ewp` kernel's internal function, placed
            // in the kernel's `.text`) keeps its Mercury offset, not its SASS one (observed,
            // sm_100/sm_120: `$k$helper` 0x140 in Mercury, 0xd0 in SASS).
            None if sym_type == STT_FUNC && s.is_defined() && s.value() != 0 => {
                m.filter(|m| m.shndx != 0).map_or(s.value(), |m| m.value)
            }
            None => s.value(),
        };
        let shndx: u32 = match s.section() {
            SymSection::Undef => 0,
            SymSection::Abs => SHN_ABS as u32,
            SymSection::Common => SHN_COMMON as u32,
            SymSection::Section(id) => match data_index.get(&id) {
                Some(&k) => final_pos[k] as u32,
                None => fin.out_index[id.index()],
            },
        };
        let shndx = if (SHN_LORESERVE as u32..0x10000).contains(&shndx) {
            shndx as u16
        } else if shndx >= 0x10000 {
            SHN_XINDEX
        } else {
            shndx as u16
        };
        out.extend_from_slice(&fin.merc_names.get(k).copied().unwrap_or(0).to_le_bytes());
        out.push(info);
        out.push(other);
        out.extend_from_slice(&shndx.to_le_bytes());
        out.extend_from_slice(&value.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
    }
    out
}

/// `.nv.merc.nv.info` (a copy of the SASS `.nv.info`, `bytes`): each `EIATTR_FRAME_SIZE`
/// record gets its function's own Mercury value (`State::merc_frame_sizes`), where the SASS
/// record may carry another function's of the same section.
fn own_frame_sizes(st: &State<'_>, nums: &super::finalize::SymbolNumbers, bytes: &mut [u8]) {
    let by_number: FxHashMap<u32, u32> = st
        .merc_frame_sizes
        .iter()
        .map(|(&sym, &v)| (nums.get(sym), v))
        .filter(|&(n, _)| n != 0)
        .collect();
    let mut p = 0;
    while p + 4 <= bytes.len() {
        let (format, attr) = (bytes[p], bytes[p + 1]);
        if format != crate::nvinfo::EIFMT_SVAL {
            p += 4;
            continue;
        }
        let len = u16::from_le_bytes([bytes[p + 2], bytes[p + 3]]) as usize;
        let body = p + 4;
        p = body + len;
        if attr != super::merge::EIATTR_FRAME_SIZE || len < 8 || p > bytes.len() {
            continue;
        }
        let n = u32::from_le_bytes(bytes[body..body + 4].try_into().unwrap_or([0; 4]));
        if let Some(v) = by_number.get(&n) {
            bytes[body + 4..body + 8].copy_from_slice(&v.to_le_bytes());
        }
    }
}
