//! The field layout of instruction relocations, checked through nvdisasm.
//!
//! nvlink leaves most instruction relocations to the driver, so a link never shows what their
//! fields mean. Here each one found in the committed inputs is patched by `apply` with a known
//! value and the instruction is disassembled with nvdisasm (`-b SMxx`, raw instructions): the
//! operand nvdisasm prints must be that value (a call target, a 32-bit immediate, half of a
//! 64-bit address, a shared-memory or constant-bank offset).
//!
//! With the toolchain present, `decode_with_nvdisasm` runs nvdisasm; with `ELFW_RELOC_BLESS=1`
//! it rewrites `fixtures/nvdisasm-decodes.txt`, the record `recorded_decodes` checks offline:
//! every recorded input word patched with the recorded value must give the recorded word whose
//! disassembly showed the value.

mod common;

use common::elf::{Elf, STT_SECTION};
use elfw_reloc::{apply_with_bank, types::*};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const RECORD: &str = "nvdisasm-decodes.txt";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// What to patch in for a type and what nvdisasm must then print.
struct Expect {
    /// The relocation value given to `apply_with_bank`.
    value: u64,
    /// The constant bank for `CONST_FIELD` types.
    bank: u32,
    /// The number nvdisasm prints for the operand, and its width in bits: nvdisasm prints
    /// signed operands as `-0x...`, so either spelling of that many bits is accepted.
    printed: u64,
    bits: u32,
    /// Text right before the number (`c[0x11][` for a constant operand).
    before: &'static str,
    /// Text that must also be on the line.
    mnemonic: &'static str,
}

/// The probe for a type: values that fill each field up to its top bit.
fn probe(r_type: u32) -> Option<Expect> {
    const ADDR: u64 = 0xdead_beef_1234_5670;
    let e = |value, bank, printed, bits, before, mnemonic| Expect {
        value,
        bank,
        printed,
        bits,
        before,
        mnemonic,
    };
    Some(match r_type {
        R_CUDA_ABS32_LO_32 | R_CUDA_UNIFIED32_LO_32 | R_CUDA_FUNC_DESC32_LO_32 => {
            e(ADDR, 0, 0x1234_5670, 32, "", "MOV")
        }
        R_CUDA_ABS32_HI_32 | R_CUDA_UNIFIED32_HI_32 | R_CUDA_FUNC_DESC32_HI_32 => {
            e(ADDR, 0, 0xdead_beef, 32, "", "MOV")
        }
        R_CUDA_ABS32_32 => e(0x89ab_cdef, 0, 0x89ab_cdef, 32, "", ""),
        R_CUDA_ABS16_32 => e(0xfedc, 0, 0xfedc, 16, "", ""),
        // The shared-memory offset of LDS/STS/ATOMS, [Rn+off] or [off].
        R_CUDA_ABS24_40 => e(0xab_cde0, 0, 0xab_cde0, 24, "", "S"),
        // Call targets: the low 2 bits are not encoded, the fields hold 47, 55 and 56 more.
        R_CUDA_ABS47_34 => e(
            0x1_2345_6789_abc0,
            0,
            0x1_2345_6789_abc0,
            49,
            "",
            "CALL.ABS",
        ),
        R_CUDA_ABS55_16_34 => e(
            0x0123_4567_89ab_cdc0,
            0,
            0x0123_4567_89ab_cdc0,
            57,
            "",
            "CALL.ABS",
        ),
        R_CUDA_ABS56_16_34 => e(
            0x0323_4567_89ab_cdc0,
            0,
            0x0323_4567_89ab_cdc0,
            58,
            "",
            "CALL.ABS",
        ),
        // Constant-bank operands c[bank][offset]: 16-bit (19_40: 14 bits of words), 17-bit.
        0x40 | R_CUDA_CONST_FIELD21_38 => e(0xbeec, 0x11, 0xbeec, 16, "c[0x11][", ""),
        R_CUDA_CONST_FIELD22_37 => e(0x1_beec, 0x11, 0x1_beec, 17, "c[0x11][", ""),
        // The bindless slot is printed in words: 0xbeec >> 2.
        R_CUDA_BINDLESSOFF14_40 => e(0xbeec, 0, 0x2fbb, 14, "", ""),
        _ => return None,
    })
}

/// True if `line` shows the expected operand: `before` then the number, unsigned or as a
/// negative `bits`-bit value, not followed by more hex digits.
fn operand_ok(line: &str, x: &Expect) -> bool {
    let negative = (1u128 << x.bits) - x.printed as u128;
    let spellings = [
        format!("{}0x{:x}", x.before, x.printed),
        format!("{}-0x{negative:x}", x.before),
    ];
    line.contains(x.mnemonic)
        && spellings.iter().any(|want| {
            line.match_indices(want.as_str()).any(|(i, m)| {
                !line[i + m.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_hexdigit())
            })
        })
}

struct Probe {
    sm: u32,
    r_type: u32,
    input: [u8; 16],
    value: u64,
    bank: u32,
    patched: [u8; 16],
}

/// One probe per distinct (target, type, instruction word) among the committed inputs.
fn probes() -> Vec<Probe> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(fixtures().join("links"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some(sm) = name
            .rsplit("-sm")
            .next()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "cubin"))
            .filter(|p| p.file_name().is_some_and(|n| n != "out.cubin"))
            .collect();
        files.sort();
        for f in files {
            let elf = Elf::read(&f).unwrap();
            for rs in 0..elf.sections.len() {
                if !elf.is_reloc_section(rs) {
                    continue;
                }
                let target = elf.sections[rs].info as usize;
                if !elf.sections[target].name.starts_with(".text.") {
                    continue;
                }
                let syms = elf.symbols_of(rs);
                for r in elf.relocs(rs).unwrap() {
                    let Some(Expect { value, bank, .. }) = probe(r.r_type) else {
                        continue;
                    };
                    // Section-relative references carry meaning in their addend; skip them.
                    if syms
                        .get(r.sym as usize)
                        .is_some_and(|s| s.st_type() == STT_SECTION)
                    {
                        continue;
                    }
                    let data = elf.section_data(target);
                    let Some(word) = data.get(r.offset as usize..r.offset as usize + 16) else {
                        continue;
                    };
                    let input: [u8; 16] = word.try_into().unwrap();
                    if !seen.insert((sm, r.r_type, input)) {
                        continue;
                    }
                    let mut patched = input;
                    apply_with_bank(r.r_type, &mut patched, 0, value, bank).unwrap();
                    out.push(Probe {
                        sm,
                        r_type: r.r_type,
                        input,
                        value,
                        bank,
                        patched,
                    });
                }
            }
        }
    }
    out
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn recorded_decodes() {
    let text = std::fs::read_to_string(fixtures().join(RECORD)).unwrap();
    let mut checked = BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        // sm type input value bank patched | nvdisasm line
        let (fields, disasm) = line.split_once(" | ").unwrap();
        let f: Vec<&str> = fields.split_whitespace().collect();
        let (sm, r_type) = (f[0], elfw_reloc::number(f[1]).unwrap());
        let input: [u8; 16] = unhex(f[2]).try_into().unwrap();
        let value = u64::from_str_radix(f[3].trim_start_matches("0x"), 16).unwrap();
        let bank: u32 = f[4].parse().unwrap();
        let mut mine = input;
        apply_with_bank(r_type, &mut mine, 0, value, bank).unwrap();
        assert_eq!(hex(&mine), f[5], "sm_{sm} {}", f[1]);
        let want = probe(r_type).unwrap();
        assert!(operand_ok(disasm, &want), "record says {disasm}");
        checked.insert(f[1].to_string());
    }
    println!("recorded nvdisasm decodes checked for: {checked:?}");
    assert!(
        checked.len() >= 15,
        "the record covers {} types",
        checked.len()
    );
}

fn nvdisasm() -> Option<PathBuf> {
    let root = std::env::var_os("CUDA_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/root/.cache/elfw/cuda-13.5.37/root/nvidia/cu13"));
    let bin = root.join("bin/nvdisasm");
    bin.exists().then_some(bin)
}

#[test]
fn decode_with_nvdisasm() {
    let Some(nvdisasm) = nvdisasm() else {
        println!("decode_with_nvdisasm: skipped, no CUDA 13.5 toolchain (set CUDA_ROOT)");
        return;
    };
    let probes = probes();
    let sms: BTreeSet<u32> = probes.iter().map(|p| p.sm).collect();
    let mut record = String::from(
        "# Instruction words from the committed inputs, patched by elfw_reloc::apply_with_bank with\n\
         # a probe value, and nvdisasm 13.5.37's reading of the patched word (-b SMxx).\n\
         # sm type input value bank patched | nvdisasm\n",
    );
    let mut failures = Vec::new();
    let tmp = std::env::temp_dir().join(format!("elfw-reloc-dis-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for sm in sms {
        let these: Vec<&Probe> = probes.iter().filter(|p| p.sm == sm).collect();
        let raw: Vec<u8> = these.iter().flat_map(|p| p.patched).collect();
        let file = tmp.join(format!("sm{sm}.bin"));
        std::fs::write(&file, &raw).unwrap();
        let out = std::process::Command::new(&nvdisasm)
            .arg("-b")
            .arg(format!("SM{sm}"))
            .arg(&file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        for (i, p) in these.iter().enumerate() {
            let tag = format!("/*{:04x}*/", i * 16);
            let line = text
                .lines()
                .find(|l| l.contains(&tag))
                .map(|l| l.trim().to_string())
                .unwrap_or_default();
            let want = probe(p.r_type).unwrap();
            let name = elfw_reloc::name(p.r_type).unwrap();
            if operand_ok(&line, &want) {
                writeln!(
                    record,
                    "{sm} {name} {} {:#x} {} {} | {line}",
                    hex(&p.input),
                    p.value,
                    p.bank,
                    hex(&p.patched)
                )
                .unwrap();
            } else {
                failures.push(format!(
                    "sm_{sm} {name}: wanted {:#x}, nvdisasm: {line:?}",
                    want.printed
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    if std::env::var_os("ELFW_RELOC_BLESS").is_some() {
        std::fs::write(fixtures().join(RECORD), record).unwrap();
    }
}
