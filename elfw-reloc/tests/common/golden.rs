//! Checks elfw-reloc against one nvlink link: for every relocation of the inputs, what nvlink
//! did to the output bytes (applied, kept for the driver, dropped) must be what
//! `elfw_reloc::disposition` says, and where it applied one, `elfw_reloc::apply` on the input
//! bytes with the symbol's value from the output must give the output bytes exactly.

use super::elf::*;
use elfw_reloc::{
    apply_with_bank, disposition, driver_type, field_mask, implicit_addend, Disposition, Family,
    Target, ValueKind,
};
use std::collections::{BTreeMap, HashMap};

/// What happened to the relocations of one type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Applied by nvlink; our engine with the symbol's output value gives nvlink's bytes.
    pub exact: usize,
    /// Applied by nvlink to a symbol the output no longer names (shared variables,
    /// `__UFT_OFFSET`): only the changed bits were checked to lie inside the fields, and the
    /// value read back to agree between all relocations against the same symbol.
    pub inferred: usize,
    /// Left in the output for the driver, bytes untouched.
    pub kept: usize,
    /// Dropped, bytes untouched.
    pub dropped: usize,
}

#[derive(Default)]
pub struct Report {
    pub by_type: BTreeMap<u32, Tally>,
    /// (input type, output type) of kept relocations whose type nvlink changed.
    pub renamed: BTreeMap<(u32, u32), usize>,
    pub failures: Vec<String>,
    /// Relocations not checked, by target section: the Mercury capsule (`.nv.capmerc*`, whose
    /// relocation offsets address the expanded code, not the file) and sections not found in
    /// the output.
    pub skipped: BTreeMap<String, usize>,
    /// (symbol, value nvlink relocated with, st_value in the output) for applied relocations
    /// against shared variables the output still names.
    pub shared_offsets: Vec<(String, u64, u64)>,
}

impl Report {
    pub fn merge(&mut self, other: Report) {
        for (t, c) in other.by_type {
            let e = self.by_type.entry(t).or_default();
            e.exact += c.exact;
            e.inferred += c.inferred;
            e.kept += c.kept;
            e.dropped += c.dropped;
        }
        for (k, n) in other.renamed {
            *self.renamed.entry(k).or_default() += n;
        }
        self.failures.extend(other.failures);
        for (k, n) in other.skipped {
            *self.skipped.entry(k).or_default() += n;
        }
        self.shared_offsets.extend(other.shared_offsets);
    }
}

/// Sections whose relocation offsets do not address bytes of the file: the Mercury capsule
/// holds compressed code, its relocations address the expanded stream.
fn unplaceable(name: &str) -> bool {
    name.starts_with(".nv.capmerc")
}

fn family_of(section: &Section) -> Family {
    if section.sh_type == SHT_CUDA_MERC_RELA {
        Family::Mercury
    } else {
        Family::Cuda
    }
}

/// The constant bank number N of `.nv.constantN[.suffix]`.
fn bank_of(section_name: &str) -> Option<u32> {
    let rest = section_name.strip_prefix(".nv.constant")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

struct Link<'a> {
    /// The target, from the output's e_flags.
    sm: u32,
    inputs: &'a [Elf],
    out: &'a Elf,
    /// (input, section index) -> offset of that input section inside the output section of the
    /// same name.
    placement: HashMap<(usize, usize), u64>,
    /// (output target section name, offset) -> output relocations there (type, symbol name).
    out_relocs: HashMap<(String, u64), Vec<(u32, String)>>,
}

impl<'a> Link<'a> {
    fn new(inputs: &'a [Elf], out: &'a Elf, report: &mut Report) -> Link<'a> {
        let mut out_relocs: HashMap<(String, u64), Vec<(u32, String)>> = HashMap::new();
        for i in 0..out.sections.len() {
            if !out.is_reloc_section(i) {
                continue;
            }
            let target = out.sections[out.sections[i].info as usize].name.clone();
            let syms = out.symbols_of(i);
            match out.relocs(i) {
                Ok(rs) => {
                    for r in rs {
                        let name = syms.get(r.sym as usize).map(|s| s.name.clone());
                        out_relocs
                            .entry((target.clone(), r.offset))
                            .or_default()
                            .push((r.r_type, name.unwrap_or_default()));
                    }
                }
                Err(e) => report.failures.push(format!("{}: {e}", out.path)),
            }
        }
        let mut link = Link {
            sm: (out.e_flags >> 8) & 0xff,
            inputs,
            out,
            placement: HashMap::new(),
            out_relocs,
        };
        link.place();
        link
    }

    /// Bytes of input section `sec` that relocations may change.
    fn reloc_bytes(&self, input: usize, sec: usize) -> Vec<bool> {
        let elf = &self.inputs[input];
        let mut mask = vec![false; elf.section_data(sec).len()];
        for rs in 0..elf.sections.len() {
            if !elf.is_reloc_section(rs) || elf.sections[rs].info as usize != sec {
                continue;
            }
            for r in elf.relocs(rs).unwrap_or_default() {
                let Ok(m) = field_mask(r.r_type) else {
                    continue;
                };
                for b in 0..16u64 {
                    if (m >> (b * 8)) & 0xff != 0 {
                        if let Some(x) = mask.get_mut((r.offset + b) as usize) {
                            *x = true;
                        }
                    }
                }
            }
        }
        mask
    }

    /// Finds where each input section landed in the output section of the same name: the first
    /// suitably aligned offset, at or after the previous input's block, where every byte no
    /// relocation may touch is equal.
    fn place(&mut self) {
        let mut by_name: BTreeMap<&str, Vec<(usize, usize)>> = BTreeMap::new();
        for (ii, elf) in self.inputs.iter().enumerate() {
            for (si, s) in elf.sections.iter().enumerate() {
                if si == 0 || s.sh_type == SHT_NOBITS || unplaceable(&s.name) {
                    continue;
                }
                by_name.entry(s.name.as_str()).or_default().push((ii, si));
            }
        }
        for (name, parts) in by_name {
            let Some(oi) = self.out.section_index(name) else {
                continue;
            };
            let out_data = self.out.section_data(oi);
            let mut cursor = 0u64;
            for (ii, si) in parts {
                let elf = &self.inputs[ii];
                let data = elf.section_data(si);
                let mask = self.reloc_bytes(ii, si);
                let align = elf.sections[si].align.max(1);
                let fits = |base: u64| {
                    let b = base as usize;
                    b + data.len() <= out_data.len()
                        && data
                            .iter()
                            .zip(&out_data[b..b + data.len()])
                            .zip(&mask)
                            .all(|((x, y), m)| *m || x == y)
                };
                let last = (out_data.len() as u64).saturating_sub(data.len() as u64);
                let from_cursor = (cursor.div_ceil(align) * align..=last)
                    .step_by(align as usize)
                    .find(|&b| fits(b));
                let found =
                    from_cursor.or_else(|| (0..=last).step_by(align as usize).find(|&b| fits(b)));
                // Rewritten sections (.nv.info*, notes, symbol tables) are not found; that only
                // matters if a relocation targets them, and then it is counted as skipped.
                if let Some(base) = found.filter(|_| data.len() <= out_data.len()) {
                    self.placement.insert((ii, si), base);
                    cursor = base + data.len() as u64;
                }
            }
        }
    }

    /// The link-time knowledge about a relocation's symbol.
    fn target_of(&self, input: usize, sym: &Symbol) -> Target {
        let elf = &self.inputs[input];
        let sec = elf.sections.get(sym.shndx as usize);
        let sec_name = sec.map(|s| s.name.as_str()).unwrap_or("");
        if sym.st_type() == STT_SECTION {
            let alloc = sec.map(|s| s.flags & SHF_ALLOC != 0).unwrap_or(false);
            return if !alloc
                || sec_name.starts_with(".nv.shared")
                || sec_name.starts_with(".nv.constant")
            {
                Target::LinkTime
            } else {
                Target::LoadTime
            };
        }
        // STT_CUDA_TEXTURE (10), STT_CUDA_SURFACE (12), and samplers (11): a constant-bank slot.
        if matches!(sym.st_type(), 10..=12)
            || sym.name.starts_with("__UFT")
            || sym.name.starts_with("__UDT")
            || sym.name.starts_with(".nv.reservedSmem")
            || sym.other & 0xc0 != 0
            || sec_name.starts_with(".nv.shared")
            || sec_name.starts_with(".nv.constant")
        {
            return Target::LinkTime;
        }
        if sym.st_type() == STT_FUNC && !self.out_has_name(&sym.name) {
            return Target::Removed;
        }
        Target::LoadTime
    }

    /// True if the output's symbol table has the name at all (undefined entries included).
    fn out_has_name(&self, name: &str) -> bool {
        self.out
            .symtabs
            .values()
            .any(|syms| syms.iter().any(|s| s.name == name))
    }

    fn out_symbols<'b>(
        &'b self,
        name: &'b str,
    ) -> impl Iterator<Item = (&'b Symbol, &'b str)> + 'b {
        let out = self.out;
        out.symtabs
            .iter()
            .filter(|(i, _)| out.sections[**i].sh_type == SHT_SYMTAB)
            .flat_map(|(_, syms)| syms.iter())
            .filter(move |s| s.name == name && s.shndx != 0)
            .map(move |s| {
                let sec = out
                    .sections
                    .get(s.shndx as usize)
                    .map(|x| x.name.as_str())
                    .unwrap_or("");
                (s, sec)
            })
    }

    /// The symbol's value in the output, if the output says it: a section symbol's input block
    /// offset, a named symbol's st_value, or a texture/surface's constant-bank slot (the offset
    /// of the header-index relocation nvlink emits for it in `.nv.constant0.<kernel>`).
    fn value_of(&self, input: usize, sym: &Symbol, patched: &str) -> Option<u64> {
        let elf = &self.inputs[input];
        if sym.st_type() == STT_SECTION {
            return self.placement.get(&(input, sym.shndx as usize)).copied();
        }
        if matches!(sym.st_type(), 10..=12) {
            let kernel = patched.strip_prefix(".text.")?;
            let bank = format!(".nv.constant0.{kernel}");
            let mut slots = self
                .out_relocs
                .iter()
                .filter(|((sec, _), rs)| *sec == bank && rs.iter().any(|(_, n)| *n == sym.name))
                .map(|((_, off), _)| *off);
            let slot = slots.next()?;
            return if slots.next().is_none() {
                Some(slot)
            } else {
                None
            };
        }
        let in_sec = elf
            .sections
            .get(sym.shndx as usize)
            .map(|s| s.name.as_str());
        if is_shared(sym, in_sec.unwrap_or("")) {
            // The output's st_value of a shared variable is not the value nvlink relocates
            // with (on sm_90+ it includes the 0x400 reserved bytes); see shared_offsets.
            return None;
        }
        let candidates: Vec<_> = self.out_symbols(&sym.name).collect();
        match candidates.as_slice() {
            [] => None,
            [(s, _)] => Some(s.value),
            many => many
                .iter()
                .find(|(_, sec)| Some(*sec) == in_sec)
                .map(|(s, _)| s.value),
        }
    }

    /// For a section symbol of a `.nv.merc.X` section: where the SASS section X of the same
    /// input landed. nvlink writes that (not the `.nv.merc.X` placement) into the fields of the
    /// Mercury finalizer relocations it applies and keeps; the kept relocation's addend gets the
    /// `.nv.merc.X` placement instead (seen for R_MERCURY_PROG_REL32 in `.nv.merc.debug_info`
    /// against `.debug_line`, sm_100 -G).
    fn sass_twin_placement(&self, input: usize, sym: &Symbol) -> Option<u64> {
        let elf = &self.inputs[input];
        let name = elf
            .sections
            .get(sym.shndx as usize)?
            .name
            .strip_prefix(".nv.merc")?;
        let twin = elf.section_index(name)?;
        self.placement.get(&(input, twin)).copied()
    }

    /// True if the section symbol names a `.debug_frame` (or its Mercury copy).
    fn is_frame(&self, input: usize, sym: &Symbol) -> bool {
        let elf = &self.inputs[input];
        elf.sections
            .get(sym.shndx as usize)
            .is_some_and(|s| s.name.ends_with("debug_frame"))
    }

    fn bank_for(&self, input: usize, sym: &Symbol) -> u32 {
        let elf = &self.inputs[input];
        if matches!(sym.st_type(), 10..=12) {
            return 0;
        }
        let in_sec = elf
            .sections
            .get(sym.shndx as usize)
            .map(|s| s.name.as_str())
            .unwrap_or("");
        bank_of(in_sec)
            .or_else(|| {
                self.out_symbols(&sym.name)
                    .find_map(|(_, sec)| bank_of(sec))
            })
            .unwrap_or(0)
    }
}

/// A shared-memory variable (STO_CUDA_SHARED, or defined in `.nv.shared*`).
fn is_shared(sym: &Symbol, section: &str) -> bool {
    sym.st_type() != STT_SECTION && sym.other & 0x40 != 0
        || section.starts_with(".nv.shared")
        || sym.name.starts_with(".nv.reservedSmem")
}

/// The start of the DWARF call-frame record of `frame` (a `.debug_frame`) containing `at`.
fn frame_record_start(frame: &[u8], at: u64) -> Option<u64> {
    let mut pos = 0u64;
    while (pos as usize) + 4 <= frame.len() {
        let p = pos as usize;
        let len32 = u32::from_le_bytes(frame[p..p + 4].try_into().ok()?);
        let end = if len32 == 0xffff_ffff {
            let len = u64::from_le_bytes(frame.get(p + 4..p + 12)?.try_into().ok()?);
            pos + 12 + len
        } else {
            pos + 4 + len32 as u64
        };
        if at < end {
            return Some(pos);
        }
        pos = end;
    }
    None
}

fn window(data: &[u8], at: u64, span: usize) -> Option<&[u8]> {
    data.get(at as usize..(at as usize).checked_add(span)?)
}

/// Checks every relocation of `inputs` against nvlink's `out`.
pub fn check_link(case: &str, inputs: &[Elf], out: &Elf) -> Report {
    let mut report = Report::default();
    let link = Link::new(inputs, out, &mut report);
    // (input, symtab, symbol) -> value read back from nvlink's bytes, for the inferred checks.
    let mut inferred: HashMap<(usize, usize, u32), (u64, String)> = HashMap::new();

    for (ii, elf) in inputs.iter().enumerate() {
        for rs in 0..elf.sections.len() {
            if !elf.is_reloc_section(rs) {
                continue;
            }
            let target = elf.sections[rs].info as usize;
            let tname = elf.sections[target].name.clone();
            let relocs = match elf.relocs(rs) {
                Ok(r) => r,
                Err(e) => {
                    report.failures.push(format!("{case}: {e}"));
                    continue;
                }
            };
            let Some(&base) = link.placement.get(&(ii, target)) else {
                let kind = if unplaceable(&tname) {
                    ".nv.capmerc.*".to_string()
                } else {
                    format!(
                        "{tname} ({case} {})",
                        elf.path.rsplit('/').next().unwrap_or("")
                    )
                };
                *report.skipped.entry(kind).or_default() += relocs.len();
                continue;
            };
            let oi = out
                .section_index(&tname)
                .expect("placed sections exist in the output");
            let out_data = out.section_data(oi);
            let in_data = elf.section_data(target);
            let family = family_of(&elf.sections[rs]);
            for r in relocs {
                let at = format!(
                    "{case}: {} {}+{:#x} {}",
                    elf.path.rsplit('/').next().unwrap_or(""),
                    tname,
                    r.offset,
                    elfw_reloc::name(r.r_type).unwrap_or("?")
                );
                let Ok(t) = elfw_reloc::check_family(r.r_type, family) else {
                    report
                        .failures
                        .push(format!("{at}: type {:#x} refused", r.r_type));
                    continue;
                };
                let span = t.span_bytes();
                let p = base + r.offset;
                let (Some(before), Some(after)) =
                    (window(in_data, r.offset, span), window(out_data, p, span))
                else {
                    report
                        .failures
                        .push(format!("{at}: word outside the section"));
                    continue;
                };
                let syms = elf.symbols_of(rs);
                let Some(sym) = syms.get(r.sym as usize) else {
                    report
                        .failures
                        .push(format!("{at}: bad symbol index {}", r.sym));
                    continue;
                };
                let target_kind = link.target_of(ii, sym);
                let expected = match disposition(r.r_type, target_kind) {
                    Ok(d) => d,
                    Err(e) => {
                        report.failures.push(format!("{at}: {e}"));
                        continue;
                    }
                };
                let kept = link.out_relocs.get(&(tname.clone(), p));
                let at = format!("{at} against {} ({target_kind:?})", sym.name);
                let tally = report.by_type.entry(r.r_type).or_default();
                let keeps = matches!(expected, Disposition::Keep | Disposition::ApplyAndKeep);
                let applies = matches!(expected, Disposition::Apply | Disposition::ApplyAndKeep);

                match (kept, keeps) {
                    (Some(kept), true) => {
                        let want = driver_type(r.r_type);
                        if !kept.iter().any(|(ty, n)| *ty == want && *n == sym.name) {
                            report
                                .failures
                                .push(format!("{at}: kept as {kept:?}, elfw says type {want:#x}"));
                        }
                        if want != r.r_type {
                            *report.renamed.entry((r.r_type, want)).or_default() += 1;
                        }
                    }
                    (Some(_), false) => {
                        report
                            .failures
                            .push(format!("{at}: nvlink kept it, elfw would {expected:?}"));
                        continue;
                    }
                    (None, true) => {
                        report
                            .failures
                            .push(format!("{at}: elfw would keep it, nvlink did not"));
                        continue;
                    }
                    (None, false) => {}
                }
                if !applies {
                    // Kept or dropped: nvlink leaves the bytes exactly as in the input.
                    if before != after {
                        report.failures.push(format!(
                            "{at}: elfw would {expected:?} it untouched, nvlink wrote {} -> {}",
                            hex(before),
                            hex(after)
                        ));
                    } else if kept.is_some() {
                        tally.kept += 1;
                    } else {
                        tally.dropped += 1;
                    }
                    continue;
                }

                let mut addend = match r.addend {
                    Some(a) => a as u64,
                    None => match implicit_addend(r.r_type, in_data, r.offset) {
                        Ok(a) => a,
                        Err(e) => {
                            report.failures.push(format!("{at}: {e}"));
                            continue;
                        }
                    },
                };
                let pc = if t.is_pc_relative() { p } else { 0 };
                let value = if t.value == ValueKind::Clear {
                    Some(0)
                } else {
                    let twin = (expected == Disposition::ApplyAndKeep)
                        .then(|| link.sass_twin_placement(ii, sym))
                        .flatten();
                    twin.or_else(|| link.value_of(ii, sym, &tname))
                };
                if sym.st_type() == STT_SECTION && link.is_frame(ii, sym) && link.sm >= 100 {
                    // A CIE pointer: for sm_100+ nvlink writes where the CIE record holding
                    // S+A starts (for sm_75..sm_90 it writes S+A as given).
                    let frame = elf.section_data(sym.shndx as usize);
                    addend = frame_record_start(frame, addend).unwrap_or(addend);
                }
                match value {
                    Some(s) => {
                        let value = s.wrapping_add(addend).wrapping_sub(pc);
                        let mut mine = before.to_vec();
                        let bank = link.bank_for(ii, sym);
                        if let Err(e) = apply_with_bank(r.r_type, &mut mine, 0, value, bank) {
                            report.failures.push(format!("{at}: {e}"));
                        } else if mine == after {
                            tally.exact += 1;
                        } else {
                            report.failures.push(format!(
                                "{at}: S={s:#x} A={addend:#x}: elfw {} nvlink {} (input {})",
                                hex(&mine),
                                hex(after),
                                hex(before)
                            ));
                        }
                    }
                    None => {
                        let mask = field_mask(r.r_type).unwrap_or(0);
                        let diff = to_u128(before) ^ to_u128(after);
                        if diff & !mask != 0 {
                            report.failures.push(format!(
                                "{at}: nvlink changed bits outside the fields: {} -> {}",
                                hex(before),
                                hex(after)
                            ));
                            continue;
                        }
                        // Read nvlink's value back; it must be the same for every relocation
                        // against this symbol.
                        let Ok(v) = implicit_addend(r.r_type, after, 0) else {
                            continue;
                        };
                        let s = v.wrapping_add(pc).wrapping_sub(addend);
                        let key = (ii, elf.sections[rs].link as usize, r.sym);
                        match inferred.get(&key) {
                            Some((prev, where_)) if *prev != s => {
                                report.failures.push(format!(
                                    "{at}: value read back {s:#x}, but {prev:#x} at {where_}"
                                ));
                            }
                            _ => {
                                inferred.insert(key, (s, at.clone()));
                            }
                        }
                        if let Some(out_value) =
                            link.out_symbols(&sym.name).map(|(o, _)| o.value).next()
                        {
                            report.shared_offsets.push((sym.name.clone(), s, out_value));
                        }
                        tally.inferred += 1;
                    }
                }
            }
        }
    }
    report
}

fn to_u128(b: &[u8]) -> u128 {
    let mut buf = [0u8; 16];
    let n = b.len().min(16);
    buf[..n].copy_from_slice(&b[..n]);
    u128::from_le_bytes(buf)
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
