//! Just enough ELF64 reading for the golden tests: sections, symbols, relocations.
//! (elfw-core's reader cannot be used here: elfw-core depends on this crate.)

use std::collections::HashMap;

pub const SHT_SYMTAB: u32 = 2;
pub const SHT_RELA: u32 = 4;
pub const SHT_NOBITS: u32 = 8;
pub const SHT_REL: u32 = 9;
/// `.nv.merc.rela*`: Mercury relocations, laid out as Elf64_Rela.
pub const SHT_CUDA_MERC_RELA: u32 = 0x7000_0082;
/// `.nv.merc.symtab`.
pub const SHT_CUDA_MERC_SYMTAB: u32 = 0x7000_0085;
pub const SHF_ALLOC: u64 = 2;
pub const STT_SECTION: u8 = 3;
pub const STT_FUNC: u8 = 2;

#[derive(Clone, Debug)]
pub struct Section {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub offset: u64,
    pub size: u64,
    pub link: u32,
    pub info: u32,
    pub align: u64,
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub info: u8,
    pub other: u8,
    pub shndx: u16,
    pub value: u64,
}

impl Symbol {
    pub fn st_type(&self) -> u8 {
        self.info & 0xf
    }
}

#[derive(Clone, Debug)]
pub struct Reloc {
    pub offset: u64,
    pub r_type: u32,
    pub sym: u32,
    /// `None` for SHT_REL.
    pub addend: Option<i64>,
}

pub struct Elf {
    pub path: String,
    pub e_flags: u32,
    pub data: Vec<u8>,
    pub sections: Vec<Section>,
    /// Symbol tables by the index of their section.
    pub symtabs: HashMap<usize, Vec<Symbol>>,
}

fn u16_at(d: &[u8], o: usize) -> Result<u16, String> {
    d.get(o..o + 2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .ok_or_else(|| format!("truncated at {o:#x}"))
}
fn u32_at(d: &[u8], o: usize) -> Result<u32, String> {
    d.get(o..o + 4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .ok_or_else(|| format!("truncated at {o:#x}"))
}
fn u64_at(d: &[u8], o: usize) -> Result<u64, String> {
    d.get(o..o + 8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap()))
        .ok_or_else(|| format!("truncated at {o:#x}"))
}
fn cstr(d: &[u8], o: usize) -> String {
    let tail = d.get(o..).unwrap_or(&[]);
    let end = tail.iter().position(|&c| c == 0).unwrap_or(tail.len());
    String::from_utf8_lossy(&tail[..end]).into_owned()
}

impl Elf {
    pub fn read(path: &std::path::Path) -> Result<Elf, String> {
        let data = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Elf::parse(path.display().to_string(), data)
    }

    pub fn parse(path: String, data: Vec<u8>) -> Result<Elf, String> {
        if data.get(0..4) != Some(b"\x7fELF") || data.get(4) != Some(&2) {
            return Err(format!("{path}: not an ELF64 file"));
        }
        let shoff = u64_at(&data, 0x28)? as usize;
        let shnum = u16_at(&data, 0x3c)? as usize;
        let shstrndx = u16_at(&data, 0x3e)? as usize;
        let mut raw = Vec::new();
        for i in 0..shnum {
            let o = shoff + i * 64;
            raw.push((
                u32_at(&data, o)?,
                Section {
                    name: String::new(),
                    sh_type: u32_at(&data, o + 4)?,
                    flags: u64_at(&data, o + 8)?,
                    offset: u64_at(&data, o + 0x18)?,
                    size: u64_at(&data, o + 0x20)?,
                    link: u32_at(&data, o + 0x28)?,
                    info: u32_at(&data, o + 0x2c)?,
                    align: u64_at(&data, o + 0x30)?,
                },
            ));
        }
        let strtab_off = raw.get(shstrndx).map(|s| s.1.offset as usize).unwrap_or(0);
        let sections: Vec<Section> = raw
            .into_iter()
            .map(|(n, mut s)| {
                s.name = cstr(&data, strtab_off + n as usize);
                s
            })
            .collect();
        let mut symtabs = HashMap::new();
        for (i, s) in sections.iter().enumerate() {
            if s.sh_type != SHT_SYMTAB && s.sh_type != SHT_CUDA_MERC_SYMTAB {
                continue;
            }
            let names = sections
                .get(s.link as usize)
                .map(|t| t.offset as usize)
                .unwrap_or(0);
            let mut syms = Vec::new();
            for j in 0..(s.size / 24) as usize {
                let o = s.offset as usize + j * 24;
                syms.push(Symbol {
                    name: cstr(&data, names + u32_at(&data, o)? as usize),
                    info: data[o + 4],
                    other: data[o + 5],
                    shndx: u16_at(&data, o + 6)?,
                    value: u64_at(&data, o + 8)?,
                });
            }
            symtabs.insert(i, syms);
        }
        let e_flags = u32_at(&data, 0x30)?;
        Ok(Elf {
            path,
            e_flags,
            data,
            sections,
            symtabs,
        })
    }

    pub fn section_data(&self, i: usize) -> &[u8] {
        let s = &self.sections[i];
        if s.sh_type == SHT_NOBITS {
            return &[];
        }
        self.data
            .get(s.offset as usize..(s.offset + s.size) as usize)
            .unwrap_or(&[])
    }

    pub fn section_index(&self, name: &str) -> Option<usize> {
        self.sections.iter().position(|s| s.name == name)
    }

    pub fn is_reloc_section(&self, i: usize) -> bool {
        matches!(
            self.sections[i].sh_type,
            SHT_REL | SHT_RELA | SHT_CUDA_MERC_RELA
        )
    }

    pub fn relocs(&self, i: usize) -> Result<Vec<Reloc>, String> {
        let s = &self.sections[i];
        let rela = s.sh_type != SHT_REL;
        let ent = if rela { 24 } else { 16 };
        let mut out = Vec::new();
        for j in 0..(s.size / ent) as usize {
            let o = s.offset as usize + j * ent as usize;
            let info = u64_at(&self.data, o + 8)?;
            out.push(Reloc {
                offset: u64_at(&self.data, o)?,
                r_type: info as u32,
                sym: (info >> 32) as u32,
                addend: if rela {
                    Some(u64_at(&self.data, o + 16)? as i64)
                } else {
                    None
                },
            });
        }
        Ok(out)
    }

    pub fn symbols_of(&self, reloc_section: usize) -> &[Symbol] {
        let link = self.sections[reloc_section].link as usize;
        self.symtabs.get(&link).map(Vec::as_slice).unwrap_or(&[])
    }
}
