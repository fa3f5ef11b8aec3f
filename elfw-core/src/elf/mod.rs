//! ELF at the byte level: constants and a zero-copy reader. Raw `st_shndx`/`SHN_XINDEX`
//! encodings exist only here and in the writer; the rest of elfw works with typed indices.

pub mod consts;
pub mod read;

pub use read::{ElfError, ElfFile, FileHeader, ProgramHeader, Relocation, SectionHeader, Symbol};
