//! A zero-copy reader for little-endian ELF64 files: device cubins and host objects.
//!
//! Every offset and size is checked against the input before use; a malformed file yields an
//! [`ElfError`], never a panic. Nothing is allocated beyond the section header table (bounded
//! by the file size), so hostile counts cannot make the reader allocate more than the input
//! justifies.

use super::consts::*;
use std::fmt;

/// What is wrong with an ELF file. Cheap to build: no allocation on the parsing path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElfError {
    /// Fewer bytes than an ELF header, or no `\x7fELF` magic.
    NotElf,
    /// A 32-bit ELF file (nvlink accepts 64-bit device code only).
    Class32,
    /// Not little-endian, or an unknown class.
    UnsupportedEncoding,
    /// A header field has an impossible value.
    BadHeader(&'static str),
    /// A structure lies (partly) outside the file.
    OutOfBounds {
        /// What was being read.
        what: &'static str,
        /// Its offset.
        offset: u64,
        /// Its size.
        size: u64,
    },
    /// A section index that does not exist.
    BadSectionIndex(u32),
    /// A string-table offset past the end of the table, or a name without its NUL.
    BadStringOffset {
        /// Section index of the string table.
        strtab: u32,
        /// The offending offset.
        offset: u32,
    },
    /// A symbol index past the end of the symbol table.
    BadSymbolIndex(u32),
    /// A relocation naming a symbol past the end of the symbol table.
    BadRelocationSymbol {
        /// The relocation section.
        section: u32,
        /// The relocation's index in it.
        index: u32,
        /// The symbol index it names.
        sym: u32,
    },
    /// A section whose `sh_entsize` does not match its kind.
    BadEntrySize {
        /// The section.
        section: u32,
        /// Its `sh_entsize`.
        entsize: u64,
    },
}

impl fmt::Display for ElfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ElfError::NotElf => f.write_str("not an ELF file"),
            ElfError::Class32 => f.write_str("32-bit ELF is not supported"),
            ElfError::UnsupportedEncoding => f.write_str("not a little-endian ELF64 file"),
            ElfError::BadHeader(what) => write!(f, "bad ELF header: {what}"),
            ElfError::OutOfBounds { what, offset, size } => write!(
                f,
                "{what} at offset {offset:#x} with size {size:#x} lies outside the file"
            ),
            ElfError::BadSectionIndex(i) => write!(f, "section index {i} does not exist"),
            ElfError::BadStringOffset { strtab, offset } => {
                write!(f, "string offset {offset:#x} is outside string table [{strtab}]")
            }
            ElfError::BadSymbolIndex(i) => write!(f, "symbol index {i} is out of range"),
            ElfError::BadRelocationSymbol { section, index, sym } => write!(
                f,
                "relocation {index} of section [{section}] names symbol {sym}, past the end of the symbol table"
            ),
            ElfError::BadEntrySize { section, entsize } => {
                write!(f, "section [{section}] has unexpected entry size {entsize}")
            }
        }
    }
}

impl std::error::Error for ElfError {}

/// Result of ELF parsing.
pub type Result<T> = std::result::Result<T, ElfError>;

#[inline]
fn u16_at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([d[o], d[o + 1]])
}
#[inline]
fn u32_at(d: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(d[o..o + 4].try_into().unwrap())
}
#[inline]
fn u64_at(d: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(d[o..o + 8].try_into().unwrap())
}

/// Returns `data[offset..offset + size]`, or an [`ElfError::OutOfBounds`] naming `what`.
pub fn slice_at<'d>(
    data: &'d [u8],
    offset: u64,
    size: u64,
    what: &'static str,
) -> Result<&'d [u8]> {
    let oob = ElfError::OutOfBounds { what, offset, size };
    let end = offset.checked_add(size).ok_or(oob)?;
    if end > data.len() as u64 {
        return Err(oob);
    }
    Ok(&data[offset as usize..end as usize])
}

/// The ELF file header, fields as stored (after `SHN_XINDEX` escapes are resolved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileHeader {
    /// `e_ident` bytes.
    pub ident: [u8; 16],
    /// `e_type`.
    pub e_type: u16,
    /// `e_machine`.
    pub machine: u16,
    /// `e_version`.
    pub version: u32,
    /// `e_entry`.
    pub entry: u64,
    /// `e_phoff`.
    pub phoff: u64,
    /// `e_shoff`.
    pub shoff: u64,
    /// `e_flags`.
    pub flags: u32,
    /// `e_ehsize`.
    pub ehsize: u16,
    /// `e_phentsize`.
    pub phentsize: u16,
    /// `e_phnum`.
    pub phnum: u16,
    /// `e_shentsize`.
    pub shentsize: u16,
    /// Number of sections: `e_shnum`, or section 0's `sh_size` when `e_shnum` is 0.
    pub shnum: u32,
    /// Section-name string table: `e_shstrndx`, or section 0's `sh_link` when it is `SHN_XINDEX`.
    pub shstrndx: u32,
    /// The raw `e_shnum` field.
    pub raw_shnum: u16,
    /// The raw `e_shstrndx` field.
    pub raw_shstrndx: u16,
}

impl FileHeader {
    /// `EI_OSABI`.
    pub fn osabi(&self) -> u8 {
        self.ident[7]
    }
    /// `EI_ABIVERSION`.
    pub fn abi_version(&self) -> u8 {
        self.ident[8]
    }
}

/// One section header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SectionHeader {
    /// `sh_name`.
    pub name: u32,
    /// `sh_type`.
    pub sh_type: u32,
    /// `sh_flags`.
    pub flags: u64,
    /// `sh_addr`.
    pub addr: u64,
    /// `sh_offset`.
    pub offset: u64,
    /// `sh_size`.
    pub size: u64,
    /// `sh_link`.
    pub link: u32,
    /// `sh_info`.
    pub info: u32,
    /// `sh_addralign`.
    pub addralign: u64,
    /// `sh_entsize`.
    pub entsize: u64,
}

impl SectionHeader {
    fn parse(d: &[u8]) -> SectionHeader {
        SectionHeader {
            name: u32_at(d, 0),
            sh_type: u32_at(d, 4),
            flags: u64_at(d, 8),
            addr: u64_at(d, 16),
            offset: u64_at(d, 24),
            size: u64_at(d, 32),
            link: u32_at(d, 40),
            info: u32_at(d, 44),
            addralign: u64_at(d, 48),
            entsize: u64_at(d, 56),
        }
    }
    /// Whether the section occupies bytes in the file: not `SHT_NULL`, `SHT_NOBITS`, nor one of
    /// the CUDA types nvlink treats as NOBITS (global, local, shared, shared.reserved; seed 04's
    /// 0x400D mask).
    pub fn has_file_data(&self) -> bool {
        self.sh_type != SHT_NULL && !super::classify::has_no_data(self.sh_type)
    }
}

/// One program header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProgramHeader {
    /// `p_type`.
    pub p_type: u32,
    /// `p_flags`.
    pub flags: u32,
    /// `p_offset`.
    pub offset: u64,
    /// `p_vaddr`.
    pub vaddr: u64,
    /// `p_paddr`.
    pub paddr: u64,
    /// `p_filesz`.
    pub filesz: u64,
    /// `p_memsz`.
    pub memsz: u64,
    /// `p_align`.
    pub align: u64,
}

/// One symbol, with `st_shndx` kept raw and the `.symtab_shndx` value resolved alongside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Symbol<'d> {
    /// The name bytes (without NUL).
    pub name: &'d [u8],
    /// `st_name`.
    pub name_offset: u32,
    /// `st_info`.
    pub info: u8,
    /// `st_other`.
    pub other: u8,
    /// `st_shndx` as stored.
    pub raw_shndx: u16,
    /// The section index: `st_shndx`, or the `.symtab_shndx` entry when `st_shndx` is `SHN_XINDEX`.
    /// Reserved values (`SHN_ABS`, `SHN_COMMON`) are kept as they are.
    pub shndx: u32,
    /// `st_value`.
    pub value: u64,
    /// `st_size`.
    pub size: u64,
}

impl Symbol<'_> {
    /// `ELF64_ST_BIND`.
    pub fn binding(&self) -> u8 {
        self.info >> 4
    }
    /// `ELF64_ST_TYPE`.
    pub fn sym_type(&self) -> u8 {
        self.info & 0xf
    }
    /// The name as UTF-8, lossily.
    pub fn name_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.name)
    }
}

/// One relocation; `addend` is 0 for `SHT_REL` entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relocation {
    /// `r_offset`.
    pub offset: u64,
    /// Symbol index (`ELF64_R_SYM`).
    pub sym: u32,
    /// Relocation type (`ELF64_R_TYPE`).
    pub r_type: u32,
    /// `r_addend`.
    pub addend: i64,
}

/// A parsed ELF64 little-endian file over borrowed bytes.
#[derive(Clone, Debug)]
pub struct ElfFile<'d> {
    data: &'d [u8],
    header: FileHeader,
    sections: Vec<SectionHeader>,
    symtab: Option<u32>,
    symtab_shndx: Option<u32>,
    /// The section-name string table's bytes (or the error reading them), located once:
    /// [`section_name`](Self::section_name) is asked for every section, more than once.
    section_names: Result<&'d [u8]>,
}

/// A name as text: `bytes`, read at `offset` of a string table whose text (when all of it is
/// UTF-8) is `table`, is a slice of it when it starts on a character boundary, else checked on
/// its own. The same as `std::str::from_utf8(bytes).ok()`, without validating every name of a
/// table separately.
pub fn name_text<'d>(table: Option<&'d str>, offset: u32, bytes: &'d [u8]) -> Option<&'d str> {
    if bytes.is_empty() {
        return Some("");
    }
    let start = offset as usize;
    match table.and_then(|t| t.get(start..start.checked_add(bytes.len())?)) {
        Some(t) => {
            debug_assert_eq!(t.as_bytes(), bytes);
            Some(t)
        }
        None => std::str::from_utf8(bytes).ok(),
    }
}

/// `.symtab` of an [`ElfFile`], located once (see [`ElfFile::symbol_table`]).
#[derive(Clone, Copy)]
pub struct SymbolTable<'e, 'd> {
    elf: &'e ElfFile<'d>,
    /// Whether the file has a symbol table at all.
    present: bool,
    /// The table's bytes, or the error reading them.
    table: Result<&'d [u8]>,
    /// Its string table's index (`sh_link`).
    strtab: u32,
    /// The string table's bytes, or the error reading them (reported only for a symbol with a
    /// name).
    strings: Result<&'d [u8]>,
}

impl<'d> SymbolTable<'_, 'd> {
    /// The string table as text, when all of it is UTF-8 (see [`name_text`]).
    pub fn strings_text(&self) -> Option<&'d str> {
        self.strings.ok().and_then(|t| std::str::from_utf8(t).ok())
    }

    /// Symbol `index`, as [`ElfFile::symbol`] reads it.
    pub fn get(&self, index: u32) -> Result<Symbol<'d>> {
        if !self.present {
            return Err(ElfError::BadSymbolIndex(index));
        }
        let table = self.table?;
        let o = index as usize * SYM64_SIZE;
        if o + SYM64_SIZE > table.len() {
            return Err(ElfError::BadSymbolIndex(index));
        }
        let d = &table[o..o + SYM64_SIZE];
        let name_offset = u32_at(d, 0);
        let raw_shndx = u16_at(d, 6);
        let shndx = if raw_shndx == SHN_XINDEX {
            self.elf.extended_index(index)?
        } else {
            raw_shndx as u32
        };
        let name = if name_offset == 0 {
            &b""[..]
        } else {
            let bad = ElfError::BadStringOffset {
                strtab: self.strtab,
                offset: name_offset,
            };
            let rest = self.strings?.get(name_offset as usize..).ok_or(bad)?;
            let len = memchr::memchr(0, rest).ok_or(bad)?;
            &rest[..len]
        };
        Ok(Symbol {
            name,
            name_offset,
            info: d[4],
            other: d[5],
            raw_shndx,
            shndx,
            value: u64_at(d, 8),
            size: u64_at(d, 16),
        })
    }
}

impl<'d> ElfFile<'d> {
    /// Whether `data` starts with the ELF magic.
    pub fn is_elf(data: &[u8]) -> bool {
        data.len() >= 4 && &data[..4] == b"\x7fELF"
    }

    /// Parses the file header and the section header table.
    pub fn parse(data: &'d [u8]) -> Result<ElfFile<'d>> {
        if !Self::is_elf(data) || data.len() < 16 {
            return Err(ElfError::NotElf);
        }
        match data[4] {
            ELFCLASS64 => {}
            ELFCLASS32 => return Err(ElfError::Class32),
            _ => return Err(ElfError::UnsupportedEncoding),
        }
        if data[5] != ELFDATA2LSB {
            return Err(ElfError::UnsupportedEncoding);
        }
        if data.len() < EHDR64_SIZE {
            return Err(ElfError::OutOfBounds {
                what: "ELF header",
                offset: 0,
                size: EHDR64_SIZE as u64,
            });
        }
        let mut header = FileHeader {
            ident: data[..16].try_into().unwrap(),
            e_type: u16_at(data, 16),
            machine: u16_at(data, 18),
            version: u32_at(data, 20),
            entry: u64_at(data, 24),
            phoff: u64_at(data, 32),
            shoff: u64_at(data, 40),
            flags: u32_at(data, 48),
            ehsize: u16_at(data, 52),
            phentsize: u16_at(data, 54),
            phnum: u16_at(data, 56),
            shentsize: u16_at(data, 58),
            raw_shnum: u16_at(data, 60),
            raw_shstrndx: u16_at(data, 62),
            shnum: 0,
            shstrndx: 0,
        };
        let mut sections = Vec::new();
        if header.shoff != 0 {
            if header.shentsize as usize != SHDR64_SIZE {
                return Err(ElfError::BadHeader("e_shentsize is not 64"));
            }
            let first = slice_at(
                data,
                header.shoff,
                SHDR64_SIZE as u64,
                "section header table",
            )?;
            let sec0 = SectionHeader::parse(first);
            let shnum = if header.raw_shnum == 0 {
                sec0.size
            } else {
                header.raw_shnum as u64
            };
            let table_size = shnum
                .checked_mul(SHDR64_SIZE as u64)
                .ok_or(ElfError::BadHeader("section count overflows"))?;
            let table = slice_at(data, header.shoff, table_size, "section header table")?;
            // Bounded by the file size through `slice_at` above.
            sections = table
                .chunks_exact(SHDR64_SIZE)
                .map(SectionHeader::parse)
                .collect();
            header.shnum = shnum as u32;
            header.shstrndx = if header.raw_shstrndx == SHN_XINDEX {
                sec0.link
            } else {
                header.raw_shstrndx as u32
            };
            if header.shstrndx != 0 && header.shstrndx >= header.shnum {
                return Err(ElfError::BadSectionIndex(header.shstrndx));
            }
        }
        let mut symtab = None;
        let mut symtab_shndx = None;
        for (i, s) in sections.iter().enumerate() {
            match s.sh_type {
                SHT_SYMTAB if symtab.is_none() => symtab = Some(i as u32),
                SHT_SYMTAB_SHNDX if symtab_shndx.is_none() => symtab_shndx = Some(i as u32),
                _ => {}
            }
        }
        let mut elf = ElfFile {
            data,
            header,
            sections,
            symtab,
            symtab_shndx,
            section_names: Ok(&[]),
        };
        elf.section_names = elf.section_data(elf.header.shstrndx);
        Ok(elf)
    }

    /// The whole file.
    pub fn data(&self) -> &'d [u8] {
        self.data
    }
    /// The file header.
    pub fn header(&self) -> &FileHeader {
        &self.header
    }
    /// All section headers, index 0 included.
    pub fn sections(&self) -> &[SectionHeader] {
        &self.sections
    }
    /// The header of section `index`.
    pub fn section(&self, index: u32) -> Result<&SectionHeader> {
        self.sections
            .get(index as usize)
            .ok_or(ElfError::BadSectionIndex(index))
    }
    /// The file bytes of section `index` (empty for `SHT_NOBITS`).
    pub fn section_data(&self, index: u32) -> Result<&'d [u8]> {
        let s = self.section(index)?;
        if !s.has_file_data() {
            return Ok(&[]);
        }
        slice_at(self.data, s.offset, s.size, "section data")
    }
    /// The NUL-terminated string at `offset` in string table `strtab`.
    pub fn string(&self, strtab: u32, offset: u32) -> Result<&'d [u8]> {
        let table = self.section_data(strtab)?;
        let bad = ElfError::BadStringOffset { strtab, offset };
        let rest = table.get(offset as usize..).ok_or(bad)?;
        let len = memchr::memchr(0, rest).ok_or(bad)?;
        Ok(&rest[..len])
    }
    /// The name of section `index`.
    pub fn section_name(&self, index: u32) -> Result<&'d [u8]> {
        let s = self.section(index)?;
        if self.header.shstrndx == 0 {
            return Ok(b"");
        }
        // (As `string(shstrndx, s.name)`, the table already read.)
        let bad = ElfError::BadStringOffset {
            strtab: self.header.shstrndx,
            offset: s.name,
        };
        let rest = self.section_names?.get(s.name as usize..).ok_or(bad)?;
        let len = memchr::memchr(0, rest).ok_or(bad)?;
        Ok(&rest[..len])
    }
    /// The section-name string table as text, when all of it is UTF-8 (see [`name_text`]).
    pub fn section_names_text(&self) -> Option<&'d str> {
        self.section_names
            .ok()
            .and_then(|t| std::str::from_utf8(t).ok())
    }
    /// Index of the symbol table, if any.
    pub fn symtab_index(&self) -> Option<u32> {
        self.symtab
    }
    /// Number of symbols in `.symtab` (including the null symbol).
    pub fn symbol_count(&self) -> Result<u32> {
        let Some(st) = self.symtab else { return Ok(0) };
        let s = self.section(st)?;
        if s.entsize != SYM64_SIZE as u64 {
            return Err(ElfError::BadEntrySize {
                section: st,
                entsize: s.entsize,
            });
        }
        slice_at(self.data, s.offset, s.size, "symbol table")?;
        Ok((s.size / SYM64_SIZE as u64) as u32)
    }
    /// Symbol `index` of `.symtab`.
    pub fn symbol(&self, index: u32) -> Result<Symbol<'d>> {
        self.symbol_table().get(index)
    }
    /// `.symtab` and its string table located once, for reading many symbols: each
    /// [`SymbolTable::get`] is what [`symbol`](Self::symbol) gives, errors included, without
    /// looking the two sections up again.
    pub fn symbol_table(&self) -> SymbolTable<'_, 'd> {
        let (table, strtab) = match self.symtab {
            None => (Err(ElfError::BadHeader("no symbol table")), 0),
            Some(st) => match self.section(st) {
                Err(e) => (Err(e), 0),
                Ok(sec) => (self.section_data(st), sec.link),
            },
        };
        SymbolTable {
            elf: self,
            present: self.symtab.is_some(),
            table,
            strtab,
            strings: self.section_data(strtab),
        }
    }
    fn extended_index(&self, index: u32) -> Result<u32> {
        let x = self
            .symtab_shndx
            .ok_or(ElfError::BadHeader("SHN_XINDEX without .symtab_shndx"))?;
        let table = self.section_data(x)?;
        let o = index as usize * 4;
        table
            .get(o..o + 4)
            .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
            .ok_or(ElfError::BadSymbolIndex(index))
    }
    /// All symbols of `.symtab` in order (the null symbol first).
    pub fn symbols(&self) -> impl Iterator<Item = Result<Symbol<'d>>> + '_ {
        let n = self.symbol_count().unwrap_or(0);
        let table = self.symbol_table();
        (0..n).map(move |i| table.get(i))
    }
    /// The relocations of a `SHT_REL` or `SHT_RELA` section.
    pub fn relocations(&self, index: u32) -> Result<impl Iterator<Item = Relocation> + 'd> {
        let s = *self.section(index)?;
        let rela = match s.sh_type {
            SHT_RELA => true,
            SHT_REL => false,
            _ => return Err(ElfError::BadHeader("not a relocation section")),
        };
        let size = if rela { RELA64_SIZE } else { REL64_SIZE };
        if s.entsize != size as u64 {
            return Err(ElfError::BadEntrySize {
                section: index,
                entsize: s.entsize,
            });
        }
        let data = self.section_data(index)?;
        Ok(data.chunks_exact(size).map(move |d| {
            let info = u64_at(d, 8);
            Relocation {
                offset: u64_at(d, 0),
                sym: (info >> 32) as u32,
                r_type: info as u32,
                addend: if rela { u64_at(d, 16) as i64 } else { 0 },
            }
        }))
    }
    /// The program headers.
    pub fn program_headers(&self) -> Result<Vec<ProgramHeader>> {
        let h = &self.header;
        if h.phnum == 0 {
            return Ok(Vec::new());
        }
        if h.phentsize as usize != PHDR64_SIZE {
            return Err(ElfError::BadHeader("e_phentsize is not 56"));
        }
        let table = slice_at(
            self.data,
            h.phoff,
            h.phnum as u64 * PHDR64_SIZE as u64,
            "program header table",
        )?;
        Ok(table
            .chunks_exact(PHDR64_SIZE)
            .map(|d| ProgramHeader {
                p_type: u32_at(d, 0),
                flags: u32_at(d, 4),
                offset: u64_at(d, 8),
                vaddr: u64_at(d, 16),
                paddr: u64_at(d, 24),
                filesz: u64_at(d, 32),
                memsz: u64_at(d, 40),
                align: u64_at(d, 48),
            })
            .collect())
    }
    /// Checks what nvlink checks before it takes a device ELF: the section header table and the
    /// bytes of every section with file data lie inside the file. nvlink silently skips a cubin
    /// that fails this (observed with truncated cubins); [`ElfFile::parse`] already checked the
    /// table itself.
    pub fn check_layout(&self) -> Result<()> {
        for i in 0..self.sections.len() as u32 {
            self.section_data(i)?;
        }
        Ok(())
    }

    /// Checks everything later phases index by: [`check_layout`](Self::check_layout), section
    /// names, the symbol table (entry size, names, section indices, `.symtab_shndx` size) and
    /// every relocation section (entry size, linked symbol table, symbol indices). Linear in the
    /// file size; after it succeeds the accessors cannot fail on this file.
    pub fn validate(&self) -> Result<()> {
        self.check_layout()?;
        let shnum = self.sections.len() as u32;
        for i in 0..shnum {
            self.section_name(i)?;
        }
        let nsyms = self.symbol_count()?;
        if let Some(st) = self.symtab {
            let link = self.section(st)?.link;
            if link >= shnum {
                return Err(ElfError::BadSectionIndex(link));
            }
            if let Some(x) = self.symtab_shndx {
                if self.section_data(x)?.len() / 4 < nsyms as usize {
                    return Err(ElfError::BadHeader(".symtab_shndx is shorter than .symtab"));
                }
            }
            for sym in self.symbols() {
                let sym = sym?;
                let reserved = sym.raw_shndx >= SHN_LORESERVE && sym.raw_shndx != SHN_XINDEX;
                if !reserved && sym.shndx >= shnum {
                    return Err(ElfError::BadSectionIndex(sym.shndx));
                }
            }
        }
        for (i, s) in self.sections.iter().enumerate() {
            if s.sh_type != SHT_REL && s.sh_type != SHT_RELA {
                continue;
            }
            let i = i as u32;
            if s.link >= shnum {
                return Err(ElfError::BadSectionIndex(s.link));
            }
            for (n, r) in self.relocations(i)?.enumerate() {
                if r.sym >= nsyms.max(1) {
                    return Err(ElfError::BadRelocationSymbol {
                        section: i,
                        index: n as u32,
                        sym: r.sym,
                    });
                }
            }
        }
        Ok(())
    }

    /// Finds a section by name.
    pub fn section_by_name(&self, name: &[u8]) -> Option<u32> {
        (0..self.sections.len() as u32).find(|&i| self.section_name(i).ok() == Some(name))
    }
}

#[cfg(test)]
mod tests {
    use super::name_text;

    /// A name sliced out of its table's text is the name validated on its own, whatever the
    /// table holds.
    #[test]
    fn name_text_is_from_utf8() {
        let tables: [&[u8]; 4] = [
            b"\0.text.f\0g\0",
            "\0caf\u{e9}\0x\u{e9}y\0".as_bytes(),
            b"\0ok\0bad\xff\0",
            b"",
        ];
        for table in tables {
            let text = std::str::from_utf8(table).ok();
            for start in 0..table.len() {
                let len = table[start..].iter().position(|&b| b == 0).unwrap_or(0);
                let bytes = &table[start..start + len];
                assert_eq!(
                    name_text(text, start as u32, bytes),
                    std::str::from_utf8(bytes).ok(),
                    "{table:?} at {start}"
                );
            }
        }
    }
}
