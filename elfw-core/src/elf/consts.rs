//! ELF constants used by CUDA device images, including NVIDIA's processor-specific values.
//!
//! The CUDA names (`SHT_CUDA_*`, `STT_CUDA_*`) are not published by NVIDIA; they follow
//! seed 05 ("NVIDIA Section Types") and seed 04 ("Section Types Reference").

/// `e_machine` of CUDA device ELF files.
pub const EM_CUDA: u16 = 190;
/// `e_machine` of x86-64 host objects.
pub const EM_X86_64: u16 = 62;
/// `e_machine` of AArch64 host objects.
pub const EM_AARCH64: u16 = 183;
/// `e_machine` of PowerPC 64 host objects.
pub const EM_PPC64: u16 = 21;
/// `EI_OSABI` of 64-bit CUDA device ELF files.
pub const ELFOSABI_CUDA: u8 = 0x41;
/// `EI_OSABI` of 32-bit CUDA device ELF files.
pub const ELFOSABI_CUDA32: u8 = 0x33;

/// `EI_CLASS` value for 32-bit ELF.
pub const ELFCLASS32: u8 = 1;
/// `EI_CLASS` value for 64-bit ELF.
pub const ELFCLASS64: u8 = 2;
/// `EI_DATA` value for little-endian ELF.
pub const ELFDATA2LSB: u8 = 1;

/// Relocatable file.
pub const ET_REL: u16 = 1;
/// Executable file.
pub const ET_EXEC: u16 = 2;

/// Undefined section index.
pub const SHN_UNDEF: u16 = 0;
/// First reserved section index; indices from here on do not fit `st_shndx`.
pub const SHN_LORESERVE: u16 = 0xff00;
/// Absolute symbol.
pub const SHN_ABS: u16 = 0xfff1;
/// Common symbol.
pub const SHN_COMMON: u16 = 0xfff2;
/// The real index is elsewhere (section 0, or `.symtab_shndx`).
pub const SHN_XINDEX: u16 = 0xffff;

/// Inactive section header.
pub const SHT_NULL: u32 = 0;
/// Program data.
pub const SHT_PROGBITS: u32 = 1;
/// Symbol table.
pub const SHT_SYMTAB: u32 = 2;
/// String table.
pub const SHT_STRTAB: u32 = 3;
/// Relocations with addends.
pub const SHT_RELA: u32 = 4;
/// Note.
pub const SHT_NOTE: u32 = 7;
/// Zero-filled data without file bytes.
pub const SHT_NOBITS: u32 = 8;
/// Relocations without addends.
pub const SHT_REL: u32 = 9;
/// Extended section indices of `.symtab`.
pub const SHT_SYMTAB_SHNDX: u32 = 18;

/// `.nv.info` and `.nv.info.<function>`.
pub const SHT_CUDA_INFO: u32 = 0x7000_0000;
/// `.nv.callgraph`.
pub const SHT_CUDA_CALLGRAPH: u32 = 0x7000_0001;
/// `.nv.prototype`.
pub const SHT_CUDA_PROTOTYPE: u32 = 0x7000_0002;
/// `.nv.resolvedrela<section>` (written with `--preserve-relocs`).
pub const SHT_CUDA_RESOLVED_RELA: u32 = 0x7000_0003;
/// `.nv.metadata`.
pub const SHT_CUDA_METADATA: u32 = 0x7000_0004;
/// Generic constant bank, before the bank number is parsed from the name.
pub const SHT_CUDA_CONSTANT: u32 = 0x7000_0006;
/// `.nv.global`.
pub const SHT_CUDA_GLOBAL: u32 = 0x7000_0007;
/// `.nv.global.init`.
pub const SHT_CUDA_GLOBAL_INIT: u32 = 0x7000_0008;
/// `.nv.local.<function>`.
pub const SHT_CUDA_LOCAL: u32 = 0x7000_0009;
/// `.nv.shared.<function>`.
pub const SHT_CUDA_SHARED: u32 = 0x7000_000a;
/// `.nv.rel.action`.
pub const SHT_CUDA_RELOCINFO: u32 = 0x7000_000b;
/// `.nv.uft`.
pub const SHT_CUDA_UFT: u32 = 0x7000_000e;
/// `.nv.uft.entry`.
pub const SHT_CUDA_UFT_ENTRY: u32 = 0x7000_0011;
/// `.nv.udt`.
pub const SHT_CUDA_UDT: u32 = 0x7000_0012;
/// `.nv.udt.entry`.
pub const SHT_CUDA_UDT_ENTRY: u32 = 0x7000_0014;
/// `.nv.shared.reserved.*` and `.nv.reservedSmem*`.
pub const SHT_CUDA_SHARED_RESERVED: u32 = 0x7000_0015;
/// Constant bank 0; bank N is `SHT_CUDA_CONSTANT0 + N`.
pub const SHT_CUDA_CONSTANT0: u32 = 0x7000_0064;
/// `.nv.compat`.
pub const SHT_CUDA_COMPAT: u32 = 0x7000_0086;
/// `.nv.host`.
pub const SHT_CUDA_HOST: u32 = 0x7000_0087;

/// Writable section.
pub const SHF_WRITE: u64 = 0x1;
/// Occupies memory at run time.
pub const SHF_ALLOC: u64 = 0x2;
/// Executable instructions.
pub const SHF_EXECINSTR: u64 = 0x4;
/// `sh_info` holds a section index.
pub const SHF_INFO_LINK: u64 = 0x40;
/// Mercury-format section (sm_100 and later).
pub const SHF_CUDA_MERCURY: u64 = 0x1000_0000;

/// Local binding.
pub const STB_LOCAL: u8 = 0;
/// Global binding.
pub const STB_GLOBAL: u8 = 1;
/// Weak binding.
pub const STB_WEAK: u8 = 2;

/// No type.
pub const STT_NOTYPE: u8 = 0;
/// Data object.
pub const STT_OBJECT: u8 = 1;
/// Function.
pub const STT_FUNC: u8 = 2;
/// Section.
pub const STT_SECTION: u8 = 3;
/// File.
pub const STT_FILE: u8 = 4;
/// CUDA data object in a relocatable cubin (texture, surface, sampler, managed ...).
pub const STT_CUDA_OBJECT: u8 = 13;

/// Loadable program segment.
pub const PT_LOAD: u32 = 1;
/// The program header table itself.
pub const PT_PHDR: u32 = 6;

/// Size of an ELF64 file header.
pub const EHDR64_SIZE: usize = 64;
/// Size of an ELF64 section header.
pub const SHDR64_SIZE: usize = 64;
/// Size of an ELF64 symbol.
pub const SYM64_SIZE: usize = 24;
/// Size of an ELF64 `Rela`.
pub const RELA64_SIZE: usize = 24;
/// Size of an ELF64 `Rel`.
pub const REL64_SIZE: usize = 16;
/// Size of an ELF64 program header.
pub const PHDR64_SIZE: usize = 56;
