//! `elfw dump`: a readable listing of any input nvlink takes — what readelf shows of a device
//! ELF (sections, symbols, relocations) plus what it cannot decode (R_CUDA names, `.nv.info`
//! attributes by EIATTR name, `.nv.compat`, callgraph and prototype records, NVIDIA notes),
//! fatbin entries and archive members, recursively.
//!
//! Section and symbol rows carry every field as a number, so a test can hold them against
//! `readelf -W`:
//! `section <nr> <name> type=<hex> flags=<hex> addr=<hex> off=<hex> size=<hex> link=<n> info=<n> align=<n> entsize=<hex>`
//! and `symbol <num> <name> value=<hex> size=<n> type=<n> bind=<n> other=<hex> shndx=<n>`.

use crate::elf::consts::*;
use crate::elf::ElfFile;
use crate::input::{archive, fatbin, host, ptx};
use crate::nvinfo;
use std::fmt::Write;

/// Nesting deeper than this (a fatbin in a host object in an archive is depth 3) is not
/// followed, so hostile nesting cannot recurse without bound.
const MAX_DEPTH: usize = 4;

/// Dumps `data` (shown as `name`) to text. Never fails: problems are written into the listing.
pub fn dump(name: &str, data: &[u8]) -> String {
    let mut out = String::new();
    dump_into(&mut out, name, data, 0);
    out
}

fn dump_into(out: &mut String, name: &str, data: &[u8], depth: usize) {
    if depth > MAX_DEPTH {
        let _ = writeln!(out, "{name}: nested too deeply, not shown");
        return;
    }
    if archive::is_archive(data) {
        dump_archive(out, name, data, depth);
    } else if fatbin::is_fatbin(data) {
        dump_fatbin(out, name, data, depth);
    } else if ElfFile::is_elf(data) {
        dump_elf(out, name, data, depth);
    } else if ptx::is_ptx(data) {
        let target = ptx::ptx_target(data).map_or("unknown".to_string(), |t| t.to_string());
        let _ = writeln!(
            out,
            "{name}: PTX text, {} bytes, .target {target}",
            data.len()
        );
    } else {
        let _ = writeln!(
            out,
            "{name}: not a kind nvlink reads ({} bytes)",
            data.len()
        );
    }
}

fn dump_archive(out: &mut String, name: &str, data: &[u8], depth: usize) {
    let _ = writeln!(
        out,
        "{name}: archive{}",
        if data.starts_with(archive::THIN_MAGIC) {
            " (thin)"
        } else {
            ""
        }
    );
    match archive::members(data) {
        Err(e) => {
            let _ = writeln!(out, "  error: {e}");
        }
        Ok(members) => {
            for m in members {
                let member = format!("{name}:{}", String::from_utf8_lossy(m.name));
                match m.data {
                    archive::MemberData::Inline(b) => {
                        let _ = writeln!(
                            out,
                            "member {member} offset={:#x} size={:#x}",
                            m.offset,
                            b.len()
                        );
                        dump_into(out, &member, b, depth + 1);
                    }
                    archive::MemberData::External => {
                        let _ = writeln!(
                            out,
                            "member {member} offset={:#x} (thin: stored outside)",
                            m.offset
                        );
                    }
                }
            }
        }
    }
}

fn dump_fatbin(out: &mut String, name: &str, data: &[u8], depth: usize) {
    let fb = match fatbin::Fatbin::parse(data) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(out, "{name}: fatbin, error: {e}");
            return;
        }
    };
    let _ = writeln!(
        out,
        "{name}: fatbin version {} with {} entries",
        fb.version,
        fb.entries.len()
    );
    for (i, e) in fb.entries.iter().enumerate() {
        let compression = match e.flags & (fatbin::FLAG_LZ4 | fatbin::FLAG_ZSTD) {
            0 => "stored",
            fatbin::FLAG_LZ4 => "lz4",
            _ => "zstd",
        };
        let place = match e.location {
            fatbin::Location::Direct => String::new(),
            fatbin::Location::InGroup { group, offset, .. } => {
                format!(" in-group={group}@{offset:#x}")
            }
        };
        let _ = writeln!(
            out,
            "entry {i} kind={} arch={} code-version={}.{} flags={:#x} {compression} stored={:#x} size={:#x}{place} options=\"{}\"",
            e.kind_name(),
            e.arch(),
            e.code_version.0,
            e.code_version.1,
            e.flags,
            e.stored.len(),
            e.uncompressed_size,
            String::from_utf8_lossy(e.options),
        );
        if e.kind == fatbin::KIND_CUBIN {
            match fb.payload(i) {
                Ok(p) => dump_into(out, &format!("{name}[{i}]"), &p, depth + 1),
                Err(err) => {
                    let _ = writeln!(out, "  error: {err}");
                }
            }
        }
    }
}

fn dump_elf(out: &mut String, name: &str, data: &[u8], depth: usize) {
    let elf = match ElfFile::parse(data) {
        Ok(e) => e,
        Err(e) => {
            let _ = writeln!(out, "{name}: ELF, error: {e}");
            return;
        }
    };
    let h = *elf.header();
    let _ = writeln!(
        out,
        "{name}: ELF64 type={} machine={} osabi={:#x} abiversion={} flags={:#x} shnum={} shstrndx={}",
        h.e_type,
        h.machine,
        h.osabi(),
        h.abi_version(),
        h.flags,
        h.shnum,
        h.shstrndx
    );
    if elf.is_device() {
        if let Ok(a) = elf.device_arch() {
            let _ = write!(
                out,
                "device arch={} e_flags-sm={} low-bits={:#x}",
                a.arch,
                a.flags.sm(),
                a.flags.low_bits()
            );
            if let Some(c) = a.cuda_info {
                let _ = write!(
                    out,
                    " virtual-sm={} toolkit={}",
                    c.virtual_sm, c.toolkit_version
                );
            }
            out.push('\n');
        }
    } else {
        dump_host(out, name, data, depth);
    }
    dump_sections(out, &elf);
    dump_symbols(out, &elf);
    if elf.is_device() {
        dump_device_sections(out, &elf);
    }
}

fn dump_host(out: &mut String, name: &str, data: &[u8], depth: usize) {
    match host::scan(data) {
        Ok(host::HostContent::Fatbin {
            fatbin, module_id, ..
        }) => {
            if let Some(id) = module_id {
                let _ = writeln!(out, "module-id {}", String::from_utf8_lossy(id));
            }
            dump_into(out, &format!("{name}:__nv_relfatbin"), fatbin, depth + 1);
        }
        Ok(host::HostContent::NoDeviceCode(why)) => {
            let _ = writeln!(out, "host object without relocatable device code ({why:?})");
        }
        Err(e) => {
            let _ = writeln!(out, "host object: {e}");
        }
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn dump_sections(out: &mut String, elf: &ElfFile<'_>) {
    for (i, s) in elf.sections().iter().enumerate() {
        let name = elf
            .section_name(i as u32)
            .map(lossy)
            .unwrap_or_else(|e| format!("<{e}>"));
        let _ = writeln!(
            out,
            "section {i} {name} type={:#x} flags={:#x} addr={:#x} off={:#x} size={:#x} link={} info={} align={} entsize={:#x}",
            s.sh_type, s.flags, s.addr, s.offset, s.size, s.link, s.info, s.addralign, s.entsize
        );
    }
}

fn dump_symbols(out: &mut String, elf: &ElfFile<'_>) {
    let count = match elf.symbol_count() {
        Ok(n) => n,
        Err(e) => {
            let _ = writeln!(out, "symbols: {e}");
            return;
        }
    };
    for i in 0..count {
        match elf.symbol(i) {
            Ok(s) => {
                let _ = writeln!(
                    out,
                    "symbol {i} {} value={:#x} size={} type={} bind={} other={:#x} shndx={}",
                    s.name_lossy(),
                    s.value,
                    s.size,
                    s.sym_type(),
                    s.binding(),
                    s.other,
                    s.shndx
                );
            }
            Err(e) => {
                let _ = writeln!(out, "symbol {i} <{e}>");
            }
        }
    }
}

fn symbol_name(elf: &ElfFile<'_>, index: u32) -> String {
    elf.symbol(index)
        .map(|s| s.name_lossy().into_owned())
        .unwrap_or_else(|_| format!("#{index}"))
}

fn dump_device_sections(out: &mut String, elf: &ElfFile<'_>) {
    for (i, s) in elf.sections().iter().enumerate() {
        let i = i as u32;
        let name = elf.section_name(i).map(lossy).unwrap_or_default();
        let Ok(data) = elf.section_data(i) else {
            continue;
        };
        match s.sh_type {
            SHT_REL | SHT_RELA => match elf.relocations(i) {
                Ok(relocs) => {
                    let _ = writeln!(out, "relocations {name}");
                    for r in relocs {
                        let rname = elfw_reloc::table::name(r.r_type).unwrap_or("R_CUDA_<unknown>");
                        let _ = writeln!(
                            out,
                            "  offset={:#x} type={rname} ({:#x}) symbol={} addend={:#x}",
                            r.offset,
                            r.r_type,
                            symbol_name(elf, r.sym),
                            r.addend
                        );
                    }
                }
                Err(e) => {
                    let _ = writeln!(out, "relocations {name}: {e}");
                }
            },
            SHT_CUDA_INFO => dump_records(out, elf, &name, data, false),
            SHT_CUDA_COMPAT => dump_records(out, elf, &name, data, true),
            SHT_CUDA_CALLGRAPH => {
                let _ = writeln!(out, "callgraph {name}");
                for pair in data.chunks_exact(8) {
                    let a = u32::from_le_bytes(pair[0..4].try_into().unwrap());
                    let b = u32::from_le_bytes(pair[4..8].try_into().unwrap()) as i32;
                    let callee = if b < 0 {
                        format!("<{b}>")
                    } else {
                        symbol_name(elf, b as u32)
                    };
                    let caller = if a == 0 {
                        "<0>".to_string()
                    } else {
                        symbol_name(elf, a)
                    };
                    let _ = writeln!(out, "  {caller} -> {callee}");
                }
            }
            SHT_CUDA_PROTOTYPE => {
                let _ = writeln!(out, "prototypes {name}");
                for pair in data.chunks_exact(8) {
                    let a = u32::from_le_bytes(pair[0..4].try_into().unwrap());
                    let b = u32::from_le_bytes(pair[4..8].try_into().unwrap());
                    let _ = writeln!(
                        out,
                        "  {} prototype={}",
                        symbol_name(elf, a),
                        symbol_name(elf, b)
                    );
                }
            }
            SHT_NOTE => dump_notes(out, &name, data),
            _ => {}
        }
    }
}

fn dump_records(out: &mut String, elf: &ElfFile<'_>, name: &str, data: &[u8], compat: bool) {
    let _ = writeln!(out, "records {name}");
    for r in nvinfo::records(data) {
        let r = match r {
            Ok(r) => r,
            Err(e) => {
                let _ = writeln!(out, "  error: {e}");
                break;
            }
        };
        let info = if compat {
            nvinfo::compat_attribute(r.attribute)
        } else {
            nvinfo::attribute(r.attribute)
        };
        let attr = info.map_or_else(
            || format!("attribute {:#x}", r.attribute),
            |a| a.name.to_string(),
        );
        let fmt = nvinfo::format_name(r.format).unwrap_or("?");
        let value = match r.value {
            nvinfo::Value::None => String::new(),
            nvinfo::Value::Byte(b) => format!("{b:#x}"),
            nvinfo::Value::Half(h) => format!("{h:#x}"),
            nvinfo::Value::Sized(p) => match r.symbol_and_value() {
                Some((sym, v)) if !compat && sym != 0 => {
                    format!("function {} value {v:#x}", symbol_name(elf, sym))
                }
                _ => p
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            },
        };
        let _ = writeln!(out, "  {attr} {fmt} {value}");
    }
}

fn dump_notes(out: &mut String, name: &str, data: &[u8]) {
    use crate::elf::note::*;
    let _ = writeln!(out, "notes {name}");
    for n in notes(data) {
        let n = match n {
            Ok(n) => n,
            Err(e) => {
                let _ = writeln!(out, "  error: {e}");
                break;
            }
        };
        match n.n_type {
            NT_CUDA_INFO => match CudaInfo::parse(n.desc) {
                Ok(c) => {
                    let _ = writeln!(
                        out,
                        "  cuinfo version={} virtual-sm=sm_{} toolkit={}.{}",
                        c.version,
                        c.virtual_sm,
                        c.toolkit_version / 10,
                        c.toolkit_version % 10
                    );
                }
                Err(e) => {
                    let _ = writeln!(out, "  cuinfo: {e}");
                }
            },
            NT_CUDA_TOOLKIT_INFO => match ToolkitInfo::parse(n.desc) {
                Ok(t) => {
                    let _ = writeln!(
                        out,
                        "  tkinfo version={} tool={} version=\"{}\" branch=\"{}\" arguments=\"{}\"",
                        t.version,
                        lossy(t.tool_name),
                        lossy(t.tool_version),
                        lossy(t.tool_branch),
                        lossy(t.arguments)
                    );
                }
                Err(e) => {
                    let _ = writeln!(out, "  tkinfo: {e}");
                }
            },
            t => {
                let _ = writeln!(
                    out,
                    "  note owner={} type={t} size={}",
                    lossy(n.name),
                    n.desc.len()
                );
            }
        }
    }
}
