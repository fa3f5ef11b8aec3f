//! One side of a comparison, fully loaded and checked: every section's bytes, every symbol table
//! (`.symtab` and the Mercury `.nv.merc.symtab`), every relocation table, with the stable keys
//! (names) that the canonical comparison matches on.

use super::formats::{
    SHT_CUDA_MERC_CALLGRAPH, SHT_CUDA_MERC_INFO, SHT_CUDA_MERC_PROTOTYPE, SHT_CUDA_MERC_RELA,
    SHT_CUDA_MERC_SYMTAB,
};
use crate::elf::consts::*;
use crate::elf::{ElfFile, FileHeader, ProgramHeader, Relocation, SectionHeader, Symbol};
use rustc_hash::FxHashMap;

/// How a section's contents are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Section 0.
    Null,
    /// No file bytes (`SHT_NOBITS` and the CUDA types nvlink treats alike).
    NoBits,
    /// A symbol table; compared symbol by symbol.
    SymbolTable,
    /// `.symtab_shndx`; compared through the symbols' section indices.
    ExtendedIndices,
    /// The section-name table or a symbol table's string table.
    Names,
    /// `SHT_REL`, `SHT_RELA` or the Mercury relocation type.
    Relocations,
    /// `.nv.info` and `.nv.info.<f>` (and their Mercury mirrors).
    NvInfo,
    /// `.nv.callgraph` (and its Mercury mirror).
    CallGraph,
    /// `.nv.prototype` (and its Mercury mirror).
    Prototype,
    /// `.note.nv.tkinfo`.
    ToolkitNotes,
    /// Anything else: compared byte for byte.
    Bytes,
}

/// One section.
pub(crate) struct Sec<'d> {
    pub index: u32,
    pub hdr: SectionHeader,
    /// The name, lossily decoded.
    pub name: String,
    /// The name, made unique with `#2`, `#3` ... for repeated names.
    pub key: String,
    pub data: &'d [u8],
    pub kind: Kind,
    /// The relocations, for [`Kind::Relocations`].
    pub relocs: Vec<Relocation>,
}

/// One symbol table.
pub(crate) struct SymTable<'d> {
    /// Its section index.
    pub section: u32,
    pub symbols: Vec<Symbol<'d>>,
    /// Unique keys, parallel to `symbols`.
    pub keys: Vec<String>,
    pub by_key: FxHashMap<String, u32>,
}

/// A file loaded for comparison.
pub(crate) struct Image<'d> {
    /// The whole file.
    pub file: &'d [u8],
    pub header: FileHeader,
    pub sections: Vec<Sec<'d>>,
    pub by_key: FxHashMap<String, u32>,
    pub symtabs: Vec<SymTable<'d>>,
    pub segments: Vec<ProgramHeader>,
}

/// One thing a segment spans: a section or one of the file's header tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Covered {
    /// Section key, or `[ELF header]`, `[program headers]`, `[section headers]`.
    pub name: String,
    /// Start relative to `p_offset` (negative when the item starts before the segment).
    pub rel: i64,
    /// Bytes of the item inside the segment.
    pub len: u64,
    /// Whether the item has no file bytes (it is covered by `p_memsz` only).
    pub nobits: bool,
    /// Whether only part of the item is inside the segment.
    pub partial: bool,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Makes every key unique: a key already taken gets the first free `#2`, `#3` ... suffix, so
/// the first of several same-named sections or symbols keeps its plain name.
fn uniquify(keys: &mut [String]) -> FxHashMap<String, u32> {
    let mut map = FxHashMap::default();
    for (i, k) in keys.iter_mut().enumerate() {
        if map.contains_key(k.as_str()) {
            let mut n = 2u32;
            while map.contains_key(&format!("{k}#{n}")) {
                n += 1;
            }
            *k = format!("{k}#{n}");
        }
        map.insert(k.clone(), i as u32);
    }
    map
}

fn is_symtab_type(t: u32) -> bool {
    t == SHT_SYMTAB || t == SHT_CUDA_MERC_SYMTAB
}

impl<'d> Image<'d> {
    /// Parses and checks everything the comparison reads. The error says what is wrong, with
    /// the section or symbol it concerns.
    pub fn load(data: &'d [u8]) -> Result<Image<'d>, String> {
        let elf = ElfFile::parse(data).map_err(|e| e.to_string())?;
        let header = *elf.header();
        let n = elf.sections().len() as u32;
        let shstrndx = header.shstrndx;
        let string_tables: Vec<u32> = elf
            .sections()
            .iter()
            .filter(|s| is_symtab_type(s.sh_type))
            .map(|s| s.link)
            .chain(std::iter::once(shstrndx))
            .collect();
        let mut sections = Vec::with_capacity(n as usize);
        let mut keys = Vec::with_capacity(n as usize);
        for index in 0..n {
            let hdr = *elf.section(index).map_err(|e| e.to_string())?;
            let name = lossy(
                elf.section_name(index)
                    .map_err(|e| format!("section [{index}]: name: {e}"))?,
            );
            let data = elf
                .section_data(index)
                .map_err(|e| format!("section [{index}] {name}: {e}"))?;
            let kind = if index == 0 || hdr.sh_type == SHT_NULL {
                Kind::Null
            } else if !hdr.has_file_data() {
                Kind::NoBits
            } else {
                match hdr.sh_type {
                    t if is_symtab_type(t) => Kind::SymbolTable,
                    SHT_SYMTAB_SHNDX => Kind::ExtendedIndices,
                    SHT_STRTAB if string_tables.contains(&index) => Kind::Names,
                    SHT_REL | SHT_RELA | SHT_CUDA_MERC_RELA => Kind::Relocations,
                    SHT_CUDA_INFO | SHT_CUDA_MERC_INFO => Kind::NvInfo,
                    SHT_CUDA_CALLGRAPH | SHT_CUDA_MERC_CALLGRAPH => Kind::CallGraph,
                    SHT_CUDA_PROTOTYPE | SHT_CUDA_MERC_PROTOTYPE => Kind::Prototype,
                    SHT_NOTE if name == ".note.nv.tkinfo" => Kind::ToolkitNotes,
                    _ => Kind::Bytes,
                }
            };
            let relocs = if kind == Kind::Relocations {
                load_relocations(&elf, index, &hdr, data)
                    .map_err(|e| format!("section [{index}] {name}: {e}"))?
            } else {
                Vec::new()
            };
            keys.push(name.clone());
            sections.push(Sec {
                index,
                hdr,
                name,
                key: String::new(),
                data,
                kind,
                relocs,
            });
        }
        let by_key = uniquify(&mut keys);
        for (s, k) in sections.iter_mut().zip(keys) {
            s.key = k;
        }
        let mut symtabs = Vec::new();
        for s in sections.iter().filter(|s| s.kind == Kind::SymbolTable) {
            let symbols = if Some(s.index) == elf.symtab_index() {
                elf.symbols()
                    .enumerate()
                    .map(|(i, r)| {
                        r.map_err(|e| format!("section [{}] {}: symbol {i}: {e}", s.index, s.name))
                    })
                    .collect::<Result<Vec<_>, _>>()?
            } else {
                load_symbols(&elf, s)
                    .map_err(|e| format!("section [{}] {}: {e}", s.index, s.name))?
            };
            symtabs.push(SymTable {
                section: s.index,
                symbols,
                keys: Vec::new(),
                by_key: FxHashMap::default(),
            });
        }
        let segments = elf.program_headers().map_err(|e| e.to_string())?;
        let mut image = Image {
            file: data,
            header,
            sections,
            by_key,
            symtabs,
            segments,
        };
        for t in 0..image.symtabs.len() {
            let mut keys: Vec<String> = (0..image.symtabs[t].symbols.len())
                .map(|i| image.raw_symbol_key(&image.symtabs[t].symbols[i], i))
                .collect();
            let map = uniquify(&mut keys);
            image.symtabs[t].keys = keys;
            image.symtabs[t].by_key = map;
        }
        Ok(image)
    }

    fn raw_symbol_key(&self, s: &Symbol<'_>, index: usize) -> String {
        if !s.name.is_empty() {
            lossy(s.name)
        } else if index == 0 {
            "[null symbol]".into()
        } else if s.sym_type() == STT_SECTION {
            format!("[section {}]", self.section_key(s.shndx))
        } else {
            "[unnamed]".into()
        }
    }

    /// The key of section `index`, or a description of a reserved or bad index.
    pub fn section_key(&self, index: u32) -> String {
        match index {
            0 => "UNDEF".into(),
            i if i == SHN_ABS as u32 => "ABS".into(),
            i if i == SHN_COMMON as u32 => "COMMON".into(),
            i => match self.sections.get(i as usize) {
                Some(s) => s.key.clone(),
                None => format!("#{i} (no such section)"),
            },
        }
    }

    /// `index` followed by the section's name, for reports.
    pub fn section_label(&self, index: u32) -> String {
        match self.sections.get(index as usize) {
            Some(s) if index != 0 => format!("{index} ({})", s.name),
            _ => format!("{index}"),
        }
    }

    /// The symbol table a section's symbol indices refer to: its `sh_link` when that is a
    /// symbol table, else `.symtab`.
    pub fn symtab_for(&self, sec: &Sec<'_>) -> Option<&SymTable<'d>> {
        self.symtabs
            .iter()
            .find(|t| t.section == sec.hdr.link)
            .or_else(|| self.symtabs.first())
    }

    /// Whether `sh_info` of this section holds a section index, a symbol index, or neither.
    pub fn info_meaning(&self, sec: &Sec<'_>) -> InfoMeaning {
        let h = &sec.hdr;
        if sec.kind == Kind::Relocations || h.flags & SHF_INFO_LINK != 0 {
            InfoMeaning::Section
        } else if sec.kind != Kind::SymbolTable
            && h.info != 0
            && self.symtabs.iter().any(|t| t.section == h.link)
        {
            // `.text.<f>` and `.nv.capmerc.text.<f>` name their function this way.
            InfoMeaning::Symbol
        } else {
            InfoMeaning::Number
        }
    }

    /// The program header table's file range.
    fn phdr_range(&self) -> (u64, u64) {
        let h = &self.header;
        (h.phoff, h.phnum as u64 * h.phentsize as u64)
    }

    /// What segment `ph` spans, in file order: file-backed items inside
    /// `[p_offset, p_offset + p_filesz)`, items without file bytes inside the memory-only tail
    /// `[p_offset + p_filesz, p_offset + p_memsz)` (device images have all addresses 0, so
    /// offsets are the only layout there is). Empty sections are not counted.
    pub fn coverage(&self, ph: &ProgramHeader) -> Vec<Covered> {
        let h = &self.header;
        let mut items: Vec<(String, u64, u64, bool)> = Vec::new();
        items.push(("[ELF header]".into(), 0, h.ehsize as u64, false));
        let (po, ps) = self.phdr_range();
        if h.phnum != 0 {
            items.push(("[program headers]".into(), po, ps, false));
        }
        if h.shoff != 0 {
            items.push((
                "[section headers]".into(),
                h.shoff,
                h.shnum as u64 * h.shentsize as u64,
                false,
            ));
        }
        for s in &self.sections {
            match s.kind {
                Kind::Null => {}
                Kind::NoBits => items.push((s.key.clone(), s.hdr.offset, s.hdr.size, true)),
                _ => items.push((s.key.clone(), s.hdr.offset, s.hdr.size, false)),
            }
        }
        let mut out = Vec::new();
        let file_end = ph.offset.saturating_add(ph.filesz);
        for (name, off, size, nobits) in items {
            // Sections without file bytes belong to the memory-only tail of a segment; their
            // offsets elsewhere are only where the writer happened to be.
            let (seg_start, seg_end) = if nobits {
                (file_end, ph.offset.saturating_add(ph.memsz))
            } else {
                (ph.offset, file_end)
            };
            let end = off.saturating_add(size);
            if size == 0 || end <= seg_start || off >= seg_end {
                continue;
            }
            let start = off.max(seg_start);
            let stop = end.min(seg_end);
            // A memory-only section whose stale offset reaches past a segment without a
            // memory-only tail touches none of its bytes.
            if stop <= start {
                continue;
            }
            out.push(Covered {
                name,
                rel: off as i64 - ph.offset as i64,
                len: stop - start,
                nobits,
                partial: start != off || stop != end,
            });
        }
        out.sort_by(|a, b| (a.rel, a.nobits, &a.name).cmp(&(b.rel, b.nobits, &b.name)));
        out
    }
}

/// What a section's `sh_info` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InfoMeaning {
    /// A section index.
    Section,
    /// A symbol index in the section's linked symbol table.
    Symbol,
    /// A plain number.
    Number,
}

fn u64_at(d: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(d[o..o + 8].try_into().expect("8 bytes"))
}

/// Relocations of any relocation section; the Mercury type is read like `SHT_RELA` (or
/// `SHT_REL` when its entries are 16 bytes), which the reader does not do.
fn load_relocations(
    elf: &ElfFile<'_>,
    index: u32,
    hdr: &SectionHeader,
    data: &[u8],
) -> Result<Vec<Relocation>, String> {
    if hdr.sh_type != SHT_CUDA_MERC_RELA {
        return Ok(elf.relocations(index).map_err(|e| e.to_string())?.collect());
    }
    let rela = match hdr.entsize as usize {
        RELA64_SIZE => true,
        REL64_SIZE => false,
        other => return Err(format!("unexpected entry size {other}")),
    };
    let size = if rela { RELA64_SIZE } else { REL64_SIZE };
    Ok(data
        .chunks_exact(size)
        .map(|d| {
            let info = u64_at(d, 8);
            Relocation {
                offset: u64_at(d, 0),
                sym: (info >> 32) as u32,
                r_type: info as u32,
                addend: if rela { u64_at(d, 16) as i64 } else { 0 },
            }
        })
        .collect())
}

/// Symbols of a symbol table other than the one [`ElfFile`] reads (`.nv.merc.symtab`).
/// `SHN_XINDEX` is not resolved there.
fn load_symbols<'d>(elf: &ElfFile<'d>, s: &Sec<'d>) -> Result<Vec<Symbol<'d>>, String> {
    if s.hdr.entsize != SYM64_SIZE as u64 {
        return Err(format!("unexpected entry size {}", s.hdr.entsize));
    }
    s.data
        .chunks_exact(SYM64_SIZE)
        .enumerate()
        .map(|(i, d)| {
            let name_offset = u32::from_le_bytes(d[0..4].try_into().expect("4 bytes"));
            let name = if name_offset == 0 {
                &b""[..]
            } else {
                elf.string(s.hdr.link, name_offset)
                    .map_err(|e| format!("symbol {i}: {e}"))?
            };
            let raw_shndx = u16::from_le_bytes([d[6], d[7]]);
            Ok(Symbol {
                name,
                name_offset,
                info: d[4],
                other: d[5],
                raw_shndx,
                shndx: raw_shndx as u32,
                value: u64_at(d, 8),
                size: u64_at(d, 16),
            })
        })
        .collect()
}
