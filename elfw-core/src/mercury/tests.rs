//! Checks against nvlink 13.5's images in `tests/corpus` (the expected values are nvlink's
//! bytes, read back from its output).

use super::*;
use crate::elf::ElfFile;

use crate::corpus_file as corpus;

/// Final and relocatable Mercury images of the corpus, one per target and mode.
const GOLDENS: &[&str] = &[
    "sm100_verbose",
    "sm100_clusters",
    "sm100_relocatable_link",
    "sm100_constant",
    "sm100_cross_tu_dce",
    "sm100_debug_G",
    "sm100_device_globals",
    "sm100_dynamic_parallelism",
    "sm100_printf",
    "sm100a_basic",
    "sm100f_basic",
    "sm103_basic",
    "sm110_basic",
    "sm120_basic",
    "sm120_clusters",
    "sm121_basic",
    "arch_sm100f_cubin_into_sm103",
];

fn names<'d>(e: &ElfFile<'d>) -> Vec<&'d [u8]> {
    (0..e.sections().len() as u32)
        .map(|i| e.section_name(i).unwrap())
        .collect()
}

fn index_of(e: &ElfFile<'_>, name: &[u8]) -> Option<usize> {
    e.section_by_name(name).map(|i| i as usize)
}

/// One `.nv.merc.symtab` entry: (name, info, other, shndx, value, size).
type MercSymbol<'d> = (&'d [u8], u8, u8, u16, u64, u64);

/// The entries of `.nv.merc.symtab`.
fn merc_symbols<'d>(e: &ElfFile<'d>) -> Vec<MercSymbol<'d>> {
    let i = e.section_by_name(MERC_SYMTAB).unwrap();
    let sh = *e.section(i).unwrap();
    let d = e.section_data(i).unwrap();
    d.chunks_exact(24)
        .map(|s| {
            let name = u32::from_le_bytes(s[0..4].try_into().unwrap());
            (
                e.string(sh.link, name).unwrap(),
                s[4],
                s[5],
                u16::from_le_bytes(s[6..8].try_into().unwrap()),
                u64::from_le_bytes(s[8..16].try_into().unwrap()),
                u64::from_le_bytes(s[16..24].try_into().unwrap()),
            )
        })
        .collect()
}

fn pairs(d: &[u8]) -> Vec<(i32, i32)> {
    d.chunks_exact(8)
        .map(|c| {
            (
                i32::from_le_bytes(c[0..4].try_into().unwrap()),
                i32::from_le_bytes(c[4..8].try_into().unwrap()),
            )
        })
        .collect()
}

#[test]
fn twins_and_kinds() {
    assert_eq!(classify(b".nv.merc.symtab"), Some(MercKind::Symtab));
    assert_eq!(classify(b".nv.capmerc.text._Z1kv"), Some(MercKind::Capsule));
    assert_eq!(classify(b".nv.merc.rela.debug_frame"), Some(MercKind::Rela));
    assert_eq!(
        classify(b".nv.merc.nv.info._Z1kv"),
        Some(MercKind::FunctionInfo)
    );
    assert_eq!(classify(b".nv.merc.nv.info"), Some(MercKind::Info));
    assert_eq!(
        classify(b".nv.merc.nv_debug_ptx_txt.918001833"),
        Some(MercKind::Debug)
    );
    assert_eq!(
        classify(b".nv.merc.nv.shared.reserved.0"),
        Some(MercKind::SharedReserved)
    );
    assert_eq!(
        classify(b".nv.merc.nv.constant.user"),
        Some(MercKind::Constant)
    );
    assert_eq!(classify(b".text._Z1kv"), None);
    assert_eq!(classify(b".nv.mercury"), None);
    assert_eq!(
        sass_twin(b".nv.capmerc.text._Z1kv").unwrap(),
        b".text._Z1kv"
    );
    assert_eq!(
        sass_twin(b".nv.merc.nv.constant.user").unwrap(),
        b".nv.constant3"
    );
    assert_eq!(sass_twin(b".nv.merc.rela.text.f").unwrap(), b".rela.text.f");
    assert_eq!(sass_twin(b".nv.merc.symtab"), None);
    assert_eq!(
        sass_twin(b".nv.merc.rela.nv.constant.optimizer._Z1fv").unwrap(),
        b".rela.nv.constant2._Z1fv"
    );
    assert_eq!(
        merc_twin(b".nv.constant2._Z1fv"),
        b".nv.merc.nv.constant.optimizer._Z1fv"
    );
    for n in [
        &b".nv.constant2.f"[..],
        b".rela.nv.constant2.f",
        b".text.f",
        b".nv.constant3",
        b".debug_frame",
        b".nv.info.f",
        b".rela.text.f",
    ] {
        assert_eq!(sass_twin(&merc_twin(n)).unwrap(), n);
    }
}

#[test]
fn shstrtab_as_nvlink_writes_it() {
    for case in GOLDENS {
        let img = corpus(case, "expected.cubin");
        let e = ElfFile::parse(&img).unwrap();
        let t = section_name_table(&names(&e));
        let shstrndx = e.header().shstrndx;
        assert_eq!(t.bytes, e.section_data(shstrndx).unwrap(), "{case}");
        let got: Vec<u32> = e.sections().iter().map(|s| s.name).collect();
        assert_eq!(t.offsets, got, "{case}");
    }
}

#[test]
fn strtab_as_nvlink_writes_it() {
    for case in GOLDENS {
        let img = corpus(case, "expected.cubin");
        let e = ElfFile::parse(&img).unwrap();
        let symtab = e.symtab_index().unwrap();
        let strtab = e.section(symtab).unwrap().link;
        let syms: Vec<_> = e.symbols().map(|s| s.unwrap()).collect();
        let msyms = merc_symbols(&e);
        // Prototype strings: in the order .nv.callgraph's -2/-3 lists and then .nv.prototype
        // name them.
        let mut protos: Vec<u32> = Vec::new();
        if let Some(i) = e.section_by_name(b".nv.callgraph") {
            let mut list = 0;
            for (a, b) in pairs(e.section_data(i).unwrap()) {
                if a == 0 && b < 0 {
                    list = -b;
                } else if (list == 2 || list == 3) && b > 0 {
                    protos.push(b as u32);
                }
            }
        }
        if let Some(i) = e.section_by_name(b".nv.prototype") {
            protos.extend(pairs(e.section_data(i).unwrap()).iter().map(|p| p.1 as u32));
        }
        let proto_names: Vec<&[u8]> = protos
            .iter()
            .map(|&o| e.string(strtab, o).unwrap())
            .collect();
        let t = symbol_name_table(
            &syms.iter().map(|s| s.name).collect::<Vec<_>>(),
            &msyms.iter().map(|s| s.0).collect::<Vec<_>>(),
            &proto_names,
        );
        assert_eq!(t.bytes, e.section_data(strtab).unwrap(), "{case}");
        let got: Vec<u32> = syms.iter().map(|s| s.name_offset).collect();
        assert_eq!(t.symtab, got, "{case}");
        assert_eq!(t.prototypes, protos, "{case}");
    }
}

/// Layout items of a golden, shares decided by [`shares_file_bytes`].
fn items(e: &ElfFile<'_>) -> Vec<LayoutItem> {
    let n = names(e);
    e.sections()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let shares_with = sass_twin(n[i]).and_then(|t| index_of(e, &t)).filter(|&t| {
                s.has_file_data()
                    && shares_file_bytes(
                        n[i],
                        e.section_data(i as u32).unwrap(),
                        e.section_data(t as u32).unwrap(),
                    )
            });
            LayoutItem {
                size: s.size,
                align: s.addralign,
                has_file_data: s.has_file_data(),
                shares_with,
            }
        })
        .collect()
}

#[test]
fn layout_as_nvlink_writes_it() {
    for case in GOLDENS {
        let img = corpus(case, "expected.cubin");
        let e = ElfFile::parse(&img).unwrap();
        let h = e.header();
        let l = layout(&items(&e), h.phnum as usize).unwrap();
        let got: Vec<u64> = e.sections().iter().map(|s| s.offset).collect();
        assert_eq!(l.offsets, got, "{case}");
        assert_eq!(l.section_headers, h.shoff, "{case}");
        assert_eq!(l.program_headers, h.phoff, "{case}");
        assert_eq!(l.file_size, img.len() as u64, "{case}");
    }
}

#[test]
fn shared_bytes_seen_in_goldens() {
    let img = corpus("sm100_debug_G", "expected.cubin");
    let e = ElfFile::parse(&img).unwrap();
    let shared: Vec<&[u8]> = items(&e)
        .iter()
        .zip(names(&e))
        .filter(|(it, _)| it.shares_with.is_some())
        .map(|(_, n)| n)
        .collect();
    assert!(shared.contains(&&b".nv.merc.nv.global.init"[..]));
    assert!(shared.contains(&&b".nv.merc.debug_info"[..]));
    assert!(shared.contains(&&b".nv.merc.debug_abbrev"[..]));
    assert!(shared.contains(&&b".nv.merc.nv.constant.user"[..]));
    // Same bytes, yet rebuilt by the finalizer: never shared.
    assert!(!shared.contains(&&b".nv.merc.nv.info"[..]));
    assert!(!shared.contains(&&b".nv.merc.nv.callgraph"[..]));
}

#[test]
fn program_headers_as_nvlink_writes_them() {
    for case in GOLDENS {
        let img = corpus(case, "expected.cubin");
        let e = ElfFile::parse(&img).unwrap();
        let secs: Vec<SegmentSection> = e
            .sections()
            .iter()
            .map(|s| SegmentSection {
                offset: s.offset,
                size: s.size,
                flags: s.flags,
                has_file_data: s.has_file_data(),
                align: s.addralign,
            })
            .collect();
        let want = e.program_headers().unwrap();
        if want.is_empty() {
            assert_eq!(e.header().e_type, 1, "{case}: only -r images have none");
            continue;
        }
        assert_eq!(program_headers(&secs, e.header().phoff), want, "{case}");
    }
}

#[test]
fn merc_sections_follow_their_twins() {
    for case in GOLDENS {
        let img = corpus(case, "expected.cubin");
        let e = ElfFile::parse(&img).unwrap();
        let n = names(&e);
        let first = n.iter().position(|s| classify(s).is_some()).unwrap();
        assert_eq!(n[first], MERC_SYMTAB, "{case}");
        let (sass, merc) = n.split_at(first);
        assert!(merc.iter().all(|s| classify(s).is_some()), "{case}");
        // Hand the Mercury sections over in reverse; the writer's order must come back.
        let shuffled: Vec<&[u8]> = merc.iter().rev().copied().collect();
        let order = merc_output_order(sass, &shuffled, &[]);
        let got: Vec<&[u8]> = order.iter().map(|&i| shuffled[i]).collect();
        assert_eq!(got, merc, "{case}");
    }
}

#[test]
fn merc_symtab_mirrors_symtab() {
    for case in GOLDENS {
        let img = corpus(case, "expected.cubin");
        let e = ElfFile::parse(&img).unwrap();
        let syms: Vec<_> = e.symbols().map(|s| s.unwrap()).collect();
        let msyms = merc_symbols(&e);
        let n = names(&e);
        // The SASS table = the Mercury one + the kernels' .nv.constant0 section symbols.
        assert!(syms.len() >= msyms.len(), "{case}");
        for s in &syms[msyms.len()..] {
            assert!(s.name.starts_with(b".nv.constant0."), "{case}");
            assert_eq!((s.binding(), s.sym_type()), (0, 3), "{case}");
        }
        for (s, m) in syms.iter().zip(&msyms).skip(1) {
            assert_eq!(s.info >> 4, m.1 >> 4, "{case}: binding");
            let (ss, ms) = (s.shndx as usize, m.3 as usize);
            if ss != 0 && ss < n.len() && ms != ss {
                assert_eq!(sass_twin(n[ms]).as_deref(), Some(n[ss]), "{case}");
            }
        }
        let msh = e.section(e.section_by_name(MERC_SYMTAB).unwrap()).unwrap();
        let first_global = msyms
            .iter()
            .position(|m| m.1 >> 4 != 0)
            .unwrap_or(msyms.len());
        assert_eq!(msh.info as usize, first_global, "{case}");
        // .symtab's sh_info is one past the last local, which is the last symbol when kernels
        // have parameter banks.
        let last_local = syms.iter().rposition(|s| s.binding() == 0).unwrap();
        assert_eq!(
            e.section(e.symtab_index().unwrap()).unwrap().info as usize,
            last_local + 1
        );
    }
}

#[test]
fn capsule_first_word_is_the_text_section() {
    // sm100_verbose: no link-time value lands in a stored instruction, so only word 0 changes.
    let out = corpus("sm100_verbose", "expected.cubin");
    let o = ElfFile::parse(&out).unwrap();
    let inputs = [
        corpus("sm100_verbose", "main.cubin"),
        corpus("sm100_verbose", "lib.cubin"),
    ];
    let inputs: Vec<ElfFile<'_>> = inputs.iter().map(|d| ElfFile::parse(d).unwrap()).collect();
    let mut seen = 0;
    for (i, name) in names(&o).into_iter().enumerate() {
        if classify(name) != Some(MercKind::Capsule) {
            continue;
        }
        let text = index_of(&o, &sass_twin(name).unwrap()).unwrap() as u32;
        let want = o.section_data(i as u32).unwrap();
        assert_eq!(capsule_header(want).unwrap().text_index, text);
        assert_eq!(capsule_header(want).unwrap().flags, 0xc000_0001);
        let src = inputs
            .iter()
            .find_map(|e| e.section_by_name(name).map(|j| (e, j)))
            .unwrap();
        let mut got = src.0.section_data(src.1).unwrap().to_vec();
        assert_eq!(
            capsule_header(&got).unwrap().text_index,
            index_of(src.0, &sass_twin(name).unwrap()).unwrap() as u32
        );
        set_capsule_text_index(&mut got, text).unwrap();
        assert_eq!(got, want);
        seen += 1;
    }
    assert_eq!(seen, 6);
}

fn info_attrs(d: &[u8]) -> Vec<u8> {
    info_records(d).unwrap().iter().map(|r| r.3).collect()
}

#[test]
fn sass_info_is_mirrored_head_then_finalizer_tail() {
    let out = corpus("sm100_verbose", "expected.cubin");
    let o = ElfFile::parse(&out).unwrap();
    let inputs = [
        corpus("sm100_verbose", "main.cubin"),
        corpus("sm100_verbose", "lib.cubin"),
    ];
    let mut checked = 0;
    for d in &inputs {
        let e = ElfFile::parse(d).unwrap();
        for name in names(&e) {
            if !name.starts_with(b".nv.info.") {
                continue;
            }
            let sass = e.section_data(e.section_by_name(name).unwrap()).unwrap();
            let merc_name = merc_twin(name);
            let merc = e
                .section_data(e.section_by_name(&merc_name).unwrap())
                .unwrap();
            let split = sass_info_split(sass, merc).unwrap();
            let tail = info_attrs(&sass[split..]);
            assert!(
                tail.iter().all(|a| SASS_ONLY_INFO_ATTRIBUTES.contains(a)),
                "{tail:?}"
            );
            let Some(oi) = o.section_by_name(name) else {
                continue; // a function removed as dead code
            };
            let mut want: Vec<u8> = info_attrs(&sass[..split])
                .into_iter()
                .rev()
                .filter(|&a| a != 0x0f)
                .collect();
            want.extend(tail);
            assert_eq!(info_attrs(o.section_data(oi).unwrap()), want);
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
}

#[test]
fn sass_debug_frame_drops_functions_not_linked() {
    let out = corpus("sm100_verbose", "expected.cubin");
    let o = ElfFile::parse(&out).unwrap();
    let live: Vec<Vec<u8>> = o
        .symbols()
        .map(|s| s.unwrap())
        .filter(|s| s.sym_type() == 2 && s.shndx != 0)
        .map(|s| s.name.to_vec())
        .collect();
    let mut built = Vec::new();
    for file in ["main.cubin", "lib.cubin"] {
        let d = corpus("sm100_verbose", file);
        let e = ElfFile::parse(&d).unwrap();
        let frame = e.section_by_name(b".debug_frame").unwrap();
        let rela = e.section_by_name(b".rela.debug_frame").unwrap();
        // An FDE's function: the R_CUDA_64 on its initial location (FDE + 20).
        let fde_fn: Vec<(u64, Vec<u8>)> = e
            .relocations(rela)
            .unwrap()
            .filter(|r| r.r_type == 2)
            .map(|r| (r.offset, e.symbol(r.sym).unwrap()))
            .filter(|(_, s)| s.sym_type() == 2)
            .map(|(off, s)| (off - 20, s.name.to_vec()))
            .collect();
        let pruned = prune_debug_frame(e.section_data(frame).unwrap(), built.len() as u64, |off| {
            fde_fn
                .iter()
                .find(|(o, _)| *o == off as u64)
                .is_some_and(|(_, f)| live.contains(f))
        })
        .unwrap();
        built.extend(pruned.bytes);
    }
    let want = o
        .section_data(o.section_by_name(b".debug_frame").unwrap())
        .unwrap();
    assert_eq!(built, want);
}

#[test]
fn e_flags_of_goldens() {
    const PLAIN_100: u32 = 0x0600_6402;
    for (case, sm, inputs) in [
        ("sm100_verbose", 100, &[PLAIN_100, PLAIN_100][..]),
        ("sm100f_basic", 100, &[PLAIN_100, PLAIN_100]),
        ("sm103_basic", 103, &[0x0600_6702, 0x0600_6702]),
        ("arch_sm100f_cubin_into_sm103", 103, &[PLAIN_100]),
        ("sm110_basic", 110, &[0x0600_6e02, 0x0600_6e02]),
        ("sm120_basic", 120, &[0x0600_7802, 0x0600_7802]),
        ("sm121_basic", 121, &[0x0600_7902, 0x0600_7902]),
        ("sm100_relocatable_link", 100, &[PLAIN_100, PLAIN_100]),
        // Two -G objects (their cubins carry 0x0d006402).
        ("sm100_debug_G", 100, &[0x0d00_6402, 0x0d00_6402]),
    ] {
        let img = corpus(case, "expected.cubin");
        let e = ElfFile::parse(&img).unwrap();
        assert_eq!(e.header().flags, e_flags(sm, inputs), "{case}");
    }
    // nvlink 13.5 on one to six -G cubins, and on -lineinfo / mixed inputs.
    let g = 0x0d00_6402;
    assert_eq!(e_flags(100, &[g]), 0x0d00_6402);
    assert_eq!(e_flags(100, &[g, g, g]), 0x0f00_6402);
    assert_eq!(e_flags(100, &[g, g, g, g]), 0x1000_6402);
    assert_eq!(e_flags(100, &[g; 6]), 0x1200_6402);
    assert_eq!(e_flags(100, &[PLAIN_100, g]), 0x0d00_6402);
    assert_eq!(e_flags(100, &[0x0900_6402, 0x0900_6402]), 0x0a00_6402);
    assert_eq!(e_flags(100, &[0x0900_6402, PLAIN_100]), 0x0900_6402);
    // sm_90 follows the same sum (sm90_debug_G: two 0x0e005a04 objects give 0x0f005a04).
    assert_eq!(
        e_flags(90, &[0x0e00_5a04, 0x0e00_5a04]) & 0xff00_0000,
        0x0f00_0000
    );
}

#[test]
fn fastpath_record_after_link() {
    // Values read from nvlink 13.5 outputs of one-kernel links (spec, rule H4).
    assert_eq!(fastpath_after_link(0x09, 100, false, 100, false), 0x09);
    assert_eq!(fastpath_after_link(0x09, 100, false, 103, false), 0);
    assert_eq!(fastpath_after_link(0x09, 100, false, 103, true), 0);
    assert_eq!(fastpath_after_link(0x09, 100, false, 100, true), 0x01);
    assert_eq!(fastpath_after_link(0x09, 100, true, 100, true), 0x09);
    assert_eq!(fastpath_after_link(0x50, 120, false, 120, true), 0x10);
    assert_eq!(fastpath_after_link(0x50, 120, false, 121, false), 0);
    assert_eq!(fastpath_after_link(0, 110, false, 110, true), 0);
    // The golden of arch_sm100f_cubin_into_sm103 agrees.
    let img = corpus("arch_sm100f_cubin_into_sm103", "expected.cubin");
    let e = ElfFile::parse(&img).unwrap();
    let c = e
        .section_data(e.section_by_name(b".nv.compat").unwrap())
        .unwrap();
    let at = c.windows(2).position(|w| w == [0x04, 0x0b]).unwrap();
    assert_eq!(&c[at + 4..at + 12], &0u64.to_le_bytes());
}

#[test]
fn bad_bytes_are_errors() {
    assert_eq!(
        capsule_header(&[1, 2, 3]),
        Err(MercuryError::ShortCapsule(3))
    );
    assert_eq!(
        set_capsule_text_index(&mut [0; 8], 1),
        Err(MercuryError::ShortCapsule(8))
    );
    assert!(frame_entries(&[0xff, 0xff, 0xff, 0xff, 0x40]).is_err());
    assert!(frame_entries(&[0x08, 0, 0, 0, 1, 2]).is_err());
    // An FDE pointing nowhere.
    let mut fde = vec![0xff, 0xff, 0xff, 0xff, 16, 0, 0, 0, 0, 0, 0, 0];
    fde.extend_from_slice(&0x40u64.to_le_bytes());
    fde.extend_from_slice(&[0; 8]);
    assert_eq!(
        prune_debug_frame(&fde, 0, |_| true),
        Err(MercuryError::OrphanFde(0))
    );
    assert_eq!(
        sass_info_split(&[4, 0x2f, 8, 0], &[]),
        Err(MercuryError::BadInfoRecord(0))
    );
    assert_eq!(
        sass_info_split(&[3, 0x5f, 1, 1], &[3, 0x50, 0, 0]),
        Err(MercuryError::InfoMismatch(0))
    );
    assert_eq!(
        layout(
            &[
                LayoutItem::default(),
                LayoutItem {
                    shares_with: Some(1),
                    ..Default::default()
                }
            ],
            0
        ),
        Err(MercuryError::BadTwin(1))
    );
}

/// A `-lineinfo` sequence (k_li_exits, `.debug_line`) and nvlink 13.5's after `-g` put the
/// exit fence before its three `EXIT`s (0x40, 0xc0 and the last one): rows move, changed
/// steps become `advance_pc` with a signed-LEB operand, unchanged ones keep their bytes.
#[test]
fn line_rows_follow_grown_code() {
    let header = [
        0xcc, 0, 0, 0, 3, 0, 0x27, 0, 0, 0, 1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1,
    ];
    let open = [
        0, 9, 2, 0, 0, 0, 0, 0, 0, 0, 0, 4, 1, 3, 3, 1, 0x0a, 0xf3, 0xf3,
    ];
    let seq: Vec<u8> = open
        .iter()
        .chain(&[
            3, 1, 2, 0x30, 1, 3, 1, 2, 0xd0, 0, 1, 0xf1, 0xf3, 0xf3, 3, 1, 2, 0x20, 1, 2, 0x90, 2,
            0, 1, 1,
        ])
        .copied()
        .collect();
    let want: Vec<u8> = open
        .iter()
        .chain(&[
            3, 1, 2, 0xe0, 0, 1, 3, 1, 2, 0xd0, 0, 1, 0xf1, 0xf3, 3, 1, 2, 0xc0, 0, 1, 3, 1, 2,
            0x20, 1, 2, 0xb0, 2, 0, 1, 1,
        ])
        .copied()
        .collect();
    let map = |a: u64| {
        Some(match a {
            0..=0x40 => a,
            0x50..=0xc0 => a + 0x30,
            0xd0..=0x1f0 => a + 0x60,
            0x200 => 0x280,
            _ => return None,
        })
    };
    assert_eq!(move_line_rows(&header, &seq, map), Some(want));
    // Nothing moves: the same bytes.
    assert_eq!(move_line_rows(&header, &seq, Some), Some(seq.clone()));
    // An address that does not map.
    assert_eq!(
        move_line_rows(&header, &seq, |a| (a < 0x100).then_some(a)),
        None
    );
}

/// sm100_weak_ptx_target: the later copy of `shared_weak` (sm_90 target) won. nvlink writes
/// the function's frame at the earlier copy's FDE (rows of both copies, the loser's Mercury row
/// at 0x20 read in the winner's code as SASS 0x10) and the winner's own entries as Mercury had
/// them.
#[test]
fn weak_winner_frame_as_nvlink_writes_it() {
    let section = |file: &str, name: &str| {
        let bytes = corpus("sm100_weak_ptx_target", file);
        let e = ElfFile::parse(&bytes).unwrap();
        let s = e.section_by_name(name.as_bytes()).unwrap();
        e.section_data(s).unwrap().to_vec()
    };
    let entry = |d: &[u8], i: usize| {
        let e = frame_entries(d).unwrap()[i];
        d[e.offset..e.offset + e.size].to_vec()
    };
    let out = section("expected.cubin", ".debug_frame");
    let (t80_merc, t90) = (
        section("t80.cubin", ".nv.merc.debug_frame"),
        section("t90.cubin", ".debug_frame"),
    );
    let t90_merc = section("t90.cubin", ".nv.merc.debug_frame");
    assert_eq!(cie_code_align(&entry(&t90, 0)), Some(4));
    assert_eq!(cie_code_align(&entry(&t90_merc, 0)), Some(1));
    // The winner's rows, then the loser's Mercury rows: def_cfa at 0, ends at 0x20 and 0x40.
    let winner = frame_rows(fde_program(&entry(&t90, 1)), 4).unwrap();
    let loser = frame_rows(fde_program(&entry(&t80_merc, 1)), 1).unwrap();
    assert_eq!(winner.iter().map(|r| r.loc).collect::<Vec<_>>(), [0, 0x20]);
    assert_eq!(loser.iter().map(|r| r.loc).collect::<Vec<_>>(), [0, 0x20]);
    assert_eq!(loser[0].ops, winner[0].ops);
    let merged = [
        winner[0].clone(),
        FrameRow {
            loc: 0x10,
            ops: Vec::new(),
        },
        winner[1].clone(),
    ];
    let first = entry(&out, 1);
    let program = frame_program(&merged, 4);
    assert_eq!(
        fde_entry(&first, fde_range(&entry(&t90, 1)).unwrap(), &program),
        Some(first.clone())
    );
    // The winner's own CIE and FDE: Mercury's CIE, Mercury's range, no rows.
    assert_eq!(entry(&out, 4), entry(&t90_merc, 0));
    let own = entry(&out, 5);
    assert_eq!(fde_range(&own), fde_range(&entry(&t90_merc, 1)));
    assert_eq!(fde_program(&own), [0, 0, 0, 0]);
    assert_eq!(
        fde_entry(&own, fde_range(&own).unwrap(), &[]),
        Some(own.clone())
    );
}
