//! ELF at the byte level: constants and a zero-copy reader. Raw `st_shndx`/`SHN_XINDEX`
//! encodings exist only here and in the writer; the rest of elfw works with typed indices.

pub mod arch;
pub mod classify;
pub mod consts;
pub mod device;
pub mod note;
pub mod read;

pub use arch::{ArchVariant, DeviceFlags, SmArch};
pub use device::DeviceArch;
pub use note::{CudaInfo, Note, ToolkitInfo};
pub use read::{
    ElfError, ElfFile, FileHeader, ProgramHeader, Relocation, SectionHeader, Symbol, SymbolTable,
};
