//! Fatbin containers (magic 0xBA55ED50): header, entries, decompression, and the choice of the
//! entry nvlink links for a target.
//!
//! Layout (read from fatbinary 13.5.37 output): a 16-byte header (u32 magic, u16 version 1,
//! u16 header size, u64 size of the entries), then entries, each a header of at least 64 bytes
//! followed by its payload:
//!
//! | off | field |
//! |---|---|
//! | 0 | u16 kind: 1 PTX, 2 cubin, 8 LTO-IR, 0x100 concatenated group (`fatbinary --concat`) |
//! | 2 | u16 entry version (0x0101) |
//! | 4 | u32 header size |
//! | 8 | u64 payload size (padded to 8) |
//! | 16 | u32 compressed size (0 when stored) |
//! | 20 | u32 offset of the options area in the header (0 when none) |
//! | 24 | u16 minor, u16 major code version (cubin ELF ABI `[1,8]`, PTX ISA `[9,5]`) |
//! | 28 | u32 SM |
//! | 40 | u64 flags: 0x1 64-bit, 0x2 debug, 0x10 Linux host, 0x2000 LZ4, 0x8000 zstd, 0x10000 compressed payload scrambled, 0x100000 'a', 0x200000 'f', 0x1000000 compat descriptor in the options area |
//! | 48 | u64 scrambling key (LTO-IR; 0 when none) |
//! | 56 | u64 uncompressed size |
//!
//! Compression: nvcc and fatbinary 13.5 compress with zstd (flag 0x8000) by default and with
//! `--compress-mode=size|balance|default`; `--compress-mode=speed` gives an LZ4 raw block
//! (flag 0x2000); `none` or `-no-compress` stores. By default only PTX is compressed
//! unless the cubin shrinks (`--compress-all` forces it). The decoders are pure-Rust crates, so
//! a hostile payload cannot reach C code: `ruzstd` (zstd frames) and `lz4_flex` with its
//! `safe-decode` feature (LZ4 blocks with bounds-checked copies).
//!
//! Scrambling: a compressed LTO-IR entry (what a plain `nvcc -dlto -dc` makes) has flag 0x10000
//! and the key cicc put in the module (module header +40) at entry header +48; the stored bytes
//! are the compressed frame scrambled ([`super::scramble`]), and the module inside has its key
//! zeroed and plain bitcode. nvlink unscrambles and decompresses (flag without compression:
//! the stored bytes are taken as they are; flag with key 0: `Uncompress failed`), all observed.
//! A stored (`-no-compress`) LTO-IR entry holds the module as cicc wrote it: key at +40,
//! bitcode scrambled, for libnvvm to unscramble.
//!
//! A concatenated group (kind 0x100) compresses several members together; its options area
//! holds u32 count, u32 descriptor size, then one 64-byte descriptor per member laid out like
//! an entry header with field 4 giving the member's offset in the decompressed group.

use crate::elf::arch::{ArchVariant, SmArch};
use std::borrow::Cow;

/// The fatbin magic.
pub const FATBIN_MAGIC: u32 = 0xBA55_ED50;
/// Entry kind: PTX text.
pub const KIND_PTX: u16 = 1;
/// Entry kind: device ELF.
pub const KIND_CUBIN: u16 = 2;
/// Entry kind: LTO-IR (NVVM).
pub const KIND_LTO_IR: u16 = 8;
/// Entry kind: a concatenated group of members compressed together.
pub const KIND_CONCAT: u16 = 0x100;

/// Entry flag: 64-bit code. nvlink ignores entries without it.
pub const FLAG_64BIT: u64 = 0x1;
/// Entry flag: debug code.
pub const FLAG_DEBUG: u64 = 0x2;
/// Entry flag: LZ4-compressed payload.
pub const FLAG_LZ4: u64 = 0x2000;
/// Entry flag: zstd-compressed payload.
pub const FLAG_ZSTD: u64 = 0x8000;
/// Entry flag: the compressed payload is scrambled with the key at entry header +48.
pub const FLAG_SCRAMBLED: u64 = 0x1_0000;
/// Entry flag: 'a' architecture.
pub const FLAG_ARCH_A: u64 = 0x10_0000;
/// Entry flag: 'f' architecture.
pub const FLAG_ARCH_F: u64 = 0x20_0000;

const HEADER_SIZE: usize = 16;
const ENTRY_HEADER_SIZE: usize = 64;
/// Decompressed payloads may be at most this many times their compressed size (plus 1 MiB):
/// far above what cubins and PTX reach, low enough that a forged size cannot make us allocate
/// much more than the input justifies.
const MAX_EXPANSION: u64 = 1024;
const MAX_DECOMPRESSED: u64 = 1 << 30;
/// The room reserved for a decompressed payload before decoding: this many times its
/// compressed size (cubins and PTX compress far less), the rest grows as it decodes.
const LIKELY_EXPANSION: usize = 32;

/// What is wrong with a fatbin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FatbinError {
    /// No 0xBA55ED50 magic (nvlink: `fatbin wrong format?`).
    #[error("no fatbin magic")]
    BadMagic,
    /// The header or its declared size runs past the end of the data.
    #[error(
        "fatbin header declares {declared:#x} bytes of entries but only {available:#x} follow"
    )]
    Truncated {
        /// Declared entry bytes.
        declared: u64,
        /// Bytes available.
        available: u64,
    },
    /// An entry header is malformed or runs past the end of the container.
    #[error("entry at offset {offset:#x}: {what}")]
    BadEntry {
        /// Offset of the entry in the container.
        offset: u64,
        /// What is wrong.
        what: &'static str,
    },
    /// A compressed payload could not be decompressed.
    #[error("entry at offset {offset:#x}: {what}")]
    Decompress {
        /// Offset of the entry in the container.
        offset: u64,
        /// What is wrong.
        what: &'static str,
    },
}

/// Where an entry's payload lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// Directly in the container: the stored (maybe compressed) bytes.
    Direct,
    /// Inside concatenated group `group` (an index into [`Fatbin::entries`]) at this offset
    /// and size of the group's decompressed bytes.
    InGroup {
        /// The group entry.
        group: usize,
        /// Offset in the decompressed group.
        offset: u64,
        /// Size.
        size: u64,
    },
}

/// One fatbin entry (or member of a concatenated group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<'d> {
    /// Offset of the entry header in the container.
    pub offset: u64,
    /// The kind ([`KIND_PTX`], [`KIND_CUBIN`], [`KIND_LTO_IR`], [`KIND_CONCAT`], or other).
    pub kind: u16,
    /// The SM the entry was built for.
    pub sm: u32,
    /// `(major, minor)` code version.
    pub code_version: (u16, u16),
    /// The flags word.
    pub flags: u64,
    /// The scrambling key (header +48; 0 when none).
    pub key: u64,
    /// The stored payload (compressed or not; for a group member: empty).
    pub stored: &'d [u8],
    /// Size after decompression (the stored size when not compressed).
    pub uncompressed_size: u64,
    /// The options string (`--compile-only` ...), when the entry has one.
    pub options: &'d [u8],
    /// Where the payload is.
    pub location: Location,
}

impl Entry<'_> {
    /// The entry's architecture with its 'a'/'f' flag.
    pub fn arch(&self) -> SmArch {
        let variant = if self.flags & FLAG_ARCH_A != 0 {
            ArchVariant::Accelerated
        } else if self.flags & FLAG_ARCH_F != 0 {
            ArchVariant::Family
        } else {
            ArchVariant::Plain
        };
        SmArch {
            sm: self.sm,
            variant,
        }
    }
    /// Whether the stored payload is compressed.
    pub fn is_compressed(&self) -> bool {
        self.flags & (FLAG_LZ4 | FLAG_ZSTD) != 0
    }
    /// A short name of the kind.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            KIND_PTX => "ptx",
            KIND_CUBIN => "cubin",
            KIND_LTO_IR => "lto-ir",
            KIND_CONCAT => "group",
            _ => "unknown",
        }
    }
}

/// A parsed fatbin container.
#[derive(Clone, Debug)]
pub struct Fatbin<'d> {
    /// The container bytes (header included).
    pub data: &'d [u8],
    /// Header version.
    pub version: u16,
    /// Entries in file order; members of a concatenated group follow their group.
    pub entries: Vec<Entry<'d>>,
}

fn u16_at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([d[o], d[o + 1]])
}
fn u32_at(d: &[u8], o: usize) -> u32 {
    u32::from_le_bytes(d[o..o + 4].try_into().unwrap())
}
fn u64_at(d: &[u8], o: usize) -> u64 {
    u64::from_le_bytes(d[o..o + 8].try_into().unwrap())
}

/// Whether `data` starts with the fatbin magic.
pub fn is_fatbin(data: &[u8]) -> bool {
    data.len() >= 4 && u32_at(data, 0) == FATBIN_MAGIC
}

/// The size of the fatbin starting at `data` (header plus declared entries), as nvlink takes
/// it from a host object's section.
pub fn container_size(data: &[u8]) -> Option<u64> {
    if !is_fatbin(data) || data.len() < HEADER_SIZE {
        return None;
    }
    (u16_at(data, 6) as u64).checked_add(u64_at(data, 8))
}

impl<'d> Fatbin<'d> {
    /// Parses the container at the start of `data` (bytes after it are not looked at).
    pub fn parse(data: &'d [u8]) -> Result<Fatbin<'d>, FatbinError> {
        if !is_fatbin(data) {
            return Err(FatbinError::BadMagic);
        }
        if data.len() < HEADER_SIZE {
            return Err(FatbinError::Truncated {
                declared: HEADER_SIZE as u64,
                available: data.len() as u64,
            });
        }
        let version = u16_at(data, 4);
        let header_size = u16_at(data, 6) as u64;
        let declared = u64_at(data, 8);
        let available = (data.len() as u64).saturating_sub(header_size);
        if header_size < HEADER_SIZE as u64 || header_size > data.len() as u64 {
            return Err(FatbinError::Truncated {
                declared,
                available,
            });
        }
        // A container cut short is read as far as it goes, the last entry's payload cut with
        // it (nvlink then fails to decompress that entry, says `Uncompress failed` and goes
        // on without it).
        let cut = declared > available;
        let end = (header_size + declared.min(available)) as usize;
        let mut entries = Vec::new();
        let mut pos = header_size as usize;
        // Every step advances by at least one entry header, so the loop is linear in the input.
        while pos < end {
            let bad = |what| FatbinError::BadEntry {
                offset: pos as u64,
                what,
            };
            if end - pos < ENTRY_HEADER_SIZE {
                if cut {
                    break;
                }
                return Err(bad("entry header runs past the end of the container"));
            }
            let h = &data[pos..end];
            let hsize = u32_at(h, 4) as u64;
            let mut psize = u64_at(h, 8);
            if hsize < ENTRY_HEADER_SIZE as u64 || hsize > h.len() as u64 {
                return Err(bad("entry header size out of range"));
            }
            if psize > h.len() as u64 - hsize {
                if !cut {
                    return Err(bad("entry payload runs past the end of the container"));
                }
                psize = h.len() as u64 - hsize;
            }
            let header = &h[..hsize as usize];
            let payload = &h[hsize as usize..(hsize + psize) as usize];
            let compressed = u32_at(h, 16) as u64;
            let flags = u64_at(h, 40);
            let is_compressed = flags & (FLAG_LZ4 | FLAG_ZSTD) != 0;
            let stored = if is_compressed {
                match payload.get(..compressed as usize) {
                    Some(stored) => stored,
                    None if cut => payload,
                    None => return Err(bad("compressed size exceeds the payload")),
                }
            } else {
                payload
            };
            let options = options_of(header);
            let entry = Entry {
                offset: pos as u64,
                kind: u16_at(h, 0),
                sm: u32_at(h, 28),
                code_version: (u16_at(h, 26), u16_at(h, 24)),
                flags,
                key: u64_at(h, 48),
                stored,
                uncompressed_size: if is_compressed {
                    u64_at(h, 56)
                } else {
                    stored.len() as u64
                },
                options: if u16_at(h, 0) == KIND_CONCAT {
                    &[]
                } else {
                    options
                },
                location: Location::Direct,
            };
            let group = entries.len();
            entries.push(entry);
            if entry.kind == KIND_CONCAT {
                push_group_members(&mut entries, group, header, &entry).map_err(bad)?;
            }
            pos += (hsize + psize) as usize;
        }
        Ok(Fatbin {
            data,
            version,
            entries,
        })
    }

    /// The payload of entry `index`, decompressed when needed: borrowed when stored plainly.
    pub fn payload(&self, index: usize) -> Result<Cow<'d, [u8]>, FatbinError> {
        let e = &self.entries[index];
        match e.location {
            Location::Direct => decompress(e),
            Location::InGroup {
                group,
                offset,
                size,
            } => {
                let all = decompress(&self.entries[group])?;
                let bad = FatbinError::BadEntry {
                    offset: e.offset,
                    what: "group member outside the group",
                };
                let end = offset.checked_add(size).ok_or(bad)?;
                if end > all.len() as u64 {
                    return Err(bad);
                }
                Ok(match all {
                    Cow::Borrowed(b) => Cow::Borrowed(&b[offset as usize..end as usize]),
                    Cow::Owned(v) => Cow::Owned(v[offset as usize..end as usize].to_vec()),
                })
            }
        }
    }
}

fn options_of(header: &[u8]) -> &[u8] {
    let area = u32_at(header, 20) as usize;
    if area == 0 || area.saturating_add(8) > header.len() {
        return &[];
    }
    let (off, len) = (
        u32_at(header, area) as usize,
        u32_at(header, area + 4) as usize,
    );
    let Some(s) = header.get(off..off.saturating_add(len)) else {
        return &[];
    };
    let end = s.iter().position(|&b| b == 0).unwrap_or(s.len());
    &s[..end]
}

fn push_group_members<'d>(
    entries: &mut Vec<Entry<'d>>,
    group: usize,
    header: &'d [u8],
    entry: &Entry<'d>,
) -> Result<(), &'static str> {
    let area = u32_at(header, 20) as usize;
    if area == 0 || area.saturating_add(8) > header.len() {
        return Err("concatenated group without member descriptors");
    }
    let count = u32_at(header, area) as usize;
    let table = &header[area + 8..];
    if count > table.len() / ENTRY_HEADER_SIZE {
        return Err("concatenated group declares more members than its header holds");
    }
    for d in table.chunks_exact(ENTRY_HEADER_SIZE).take(count) {
        entries.push(Entry {
            offset: entry.offset,
            kind: u16_at(d, 0),
            sm: u32_at(d, 28),
            code_version: (u16_at(d, 26), u16_at(d, 24)),
            flags: u64_at(d, 40) | (entry.flags & FLAG_64BIT),
            key: 0,
            stored: &[],
            uncompressed_size: u64_at(d, 8),
            options: &[],
            location: Location::InGroup {
                group,
                offset: u32_at(d, 4) as u64,
                size: u64_at(d, 8),
            },
        });
    }
    Ok(())
}

fn decompress<'d>(e: &Entry<'d>) -> Result<Cow<'d, [u8]>, FatbinError> {
    if !e.is_compressed() {
        return Ok(Cow::Borrowed(e.stored));
    }
    let bad = |what| FatbinError::Decompress {
        offset: e.offset,
        what,
    };
    let limit = (e.stored.len() as u64)
        .saturating_mul(MAX_EXPANSION)
        .saturating_add(1 << 20)
        .min(MAX_DECOMPRESSED);
    if e.uncompressed_size > limit {
        return Err(bad("declared uncompressed size is implausibly large"));
    }
    let unscrambled;
    let stored = if e.flags & FLAG_SCRAMBLED != 0 {
        if e.key as u32 == 0 {
            return Err(bad("scrambled payload without a key"));
        }
        unscrambled = super::scramble::descramble(e.stored, e.key);
        &unscrambled[..]
    } else {
        e.stored
    };
    let size = e.uncompressed_size as usize;
    // Memory grows with what the payload really decodes to, not with the declared size (a
    // forged size alone must not make us allocate): room for a usual ratio up front, at most
    // one byte past the declared size decoded.
    let usual = stored
        .len()
        .saturating_mul(LIKELY_EXPANSION)
        .saturating_add(4096);
    let mut out = Vec::with_capacity(size.min(usual));
    if e.flags & FLAG_ZSTD != 0 {
        use std::io::Read;
        let decoder = ruzstd::decoding::StreamingDecoder::new(stored)
            .map_err(|_| bad("corrupt zstd data"))?;
        decoder
            .take(size as u64 + 1)
            .read_to_end(&mut out)
            .map_err(|_| bad("corrupt zstd data"))?;
    } else {
        // An LZ4 block expands at most 255 times (each length byte adds at most 255 bytes).
        if size > stored.len().saturating_mul(255).saturating_add(16) {
            return Err(bad("declared uncompressed size is implausibly large"));
        }
        out.resize(size, 0);
        let written = lz4_flex::block::decompress_into(stored, &mut out)
            .map_err(|_| bad("corrupt LZ4 data"))?;
        out.truncate(written);
    }
    if out.len() != size {
        return Err(bad("decompressed size differs from the declared size"));
    }
    Ok(Cow::Owned(out))
}

/// The entry nvlink links for `target`, if any (non-LTO links).
///
/// Observed with nvlink 13.5.37 on fatbins built by fatbinary (see the crate's input tests):
/// candidates are 64-bit cubin entries that [`SmArch::cubin_links_into`] the target and 64-bit
/// PTX entries whose `.target` compiles for it ([`SmArch::ptx_compiles_for`]); LTO-IR is not a
/// candidate. The highest SM wins whatever the kind (PTX for sm_86 beats a cubin for sm_80 on
/// sm_89); at equal SM a cubin beats PTX, and 'a' beats 'f' beats plain (100f is taken over
/// 100 on sm_100 and sm_103, in either order); entry order decides nothing else.
pub fn select(fatbin: &Fatbin<'_>, target: SmArch) -> Option<usize> {
    let rank = |e: &Entry<'_>| {
        let kind = u8::from(e.kind == KIND_CUBIN);
        let variant = match e.arch().variant {
            ArchVariant::Plain => 0u8,
            ArchVariant::Family => 1,
            ArchVariant::Accelerated => 2,
        };
        (e.sm, kind, variant)
    };
    let mut best: Option<usize> = None;
    for (i, e) in fatbin.entries.iter().enumerate() {
        if e.flags & FLAG_64BIT == 0 {
            continue;
        }
        let ok = match e.kind {
            KIND_CUBIN => e.arch().cubin_links_into(target).is_ok(),
            KIND_PTX => e.arch().ptx_compiles_for(target),
            _ => false,
        };
        if ok && best.is_none_or(|b| rank(e) > rank(&fatbin.entries[b])) {
            best = Some(i);
        }
    }
    best
}

/// The LTO-IR entry a `-dlto` link takes for `target`: of the entries whose architecture
/// compiles for it (as PTX would, [`SmArch::ptx_compiles_for`]: nvlink links `lto_80` IR into
/// an sm_90 link, observed), the newest.
pub fn select_lto_ir(fatbin: &Fatbin<'_>, target: SmArch) -> Option<usize> {
    fatbin
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == KIND_LTO_IR && e.arch().ptx_compiles_for(target))
        .max_by_key(|(i, e)| (e.sm, usize::MAX - i))
        .map(|(i, _)| i)
}

/// Whether the fatbin holds LTO-IR entries.
pub fn has_lto_ir(fatbin: &Fatbin<'_>) -> bool {
    fatbin.entries.iter().any(|e| e.kind == KIND_LTO_IR)
}
