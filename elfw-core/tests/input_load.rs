//! Input loading against what nvlink 13.5.37 did with the same files (tests/data, built by
//! nvcc/ptxas/fatbinary 13.5.37; every expected message and choice below was printed or made
//! by nvlink on these inputs).

use elfw_core::elf::SmArch;
use elfw_core::input::{
    fatbin, load, IgnoreReason, InputErrorKind, InputSource, InputStore, LoadOptions, Origin,
    Severity, WarningKind,
};
use std::path::PathBuf;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(name),
    )
    .unwrap()
}

fn opts(target: &str) -> LoadOptions {
    LoadOptions {
        target: SmArch::parse(target).unwrap(),
        lto: false,
        debug: false,
        ptxas: None,
        ptxas_options: Vec::new(),
    }
}

fn bytes(name: &str, d: Vec<u8>) -> InputSource {
    InputSource::Bytes {
        name: name.into(),
        data: d,
    }
}

fn nvlink_lines(e: &elfw_core::input::InputError) -> Vec<String> {
    e.nvlink_diagnostics()
        .into_iter()
        .map(|(s, m)| {
            let sev = match s {
                Severity::Warning => "warning",
                Severity::Error => "error  ",
                Severity::Fatal => "fatal  ",
                Severity::Verbatim => return m,
            };
            format!("nvlink {sev} : {m}")
        })
        .collect()
}

fn load_one(name: &str, d: Vec<u8>, target: &str) -> Result<(usize, Vec<String>), Vec<String>> {
    let store = InputStore::new();
    match load(&store, &[bytes(name, d)], &opts(target)) {
        Ok(l) => Ok((
            l.cubins.len(),
            l.warnings.iter().map(|w| w.to_string()).collect(),
        )),
        Err(e) => Err(nvlink_lines(&e)),
    }
}

#[test]
fn host_object_fatbin_is_found_and_decompressed() {
    let store = InputStore::new();
    let l = load(
        &store,
        &[bytes("a.o", data("kernel_sm90_host.o"))],
        &opts("sm_90"),
    )
    .unwrap();
    assert_eq!(l.cubins.len(), 1);
    assert_eq!(l.cubins[0].name, "a.o");
    assert!(matches!(l.cubins[0].origin, Origin::FatbinCubin { .. }));
    assert_eq!(l.module_ids.len(), 1);
    assert!(l.warnings.is_empty());
}

#[test]
fn archives_load_every_host_member_with_nvlink_names() {
    let store = InputStore::new();
    let l = load(&store, &[bytes("libm.a", data("libm.a"))], &opts("sm_90")).unwrap();
    let names: Vec<_> = l.cubins.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["libm.a:m1.o", "libm.a:m2.o"]);
    assert!(l.cubins.iter().all(|c| !c.system_library));
    let l = load(
        &store,
        &[bytes("libcudadevrt.a", data("libm.a"))],
        &opts("sm_90"),
    )
    .unwrap();
    assert!(l.cubins.iter().all(|c| c.system_library));
}

#[test]
fn cubins_in_archives_are_skipped() {
    let cubin = data("bar_sm90.cubin");
    let mut a = b"!<arch>\n".to_vec();
    a.extend(
        format!(
            "{:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n",
            "bar.cubin/",
            0,
            0,
            0,
            644,
            cubin.len()
        )
        .into_bytes(),
    );
    a.extend(&cubin);
    let store = InputStore::new();
    let l = load(&store, &[bytes("libc.a", a)], &opts("sm_90")).unwrap();
    assert!(l.cubins.is_empty());
    assert_eq!(
        l.warnings[0].kind,
        WarningKind::Ignored(IgnoreReason::ArchiveMemberNotHostObject)
    );
    assert_eq!(l.warnings[0].name, "libc.a:bar.cubin");
}

#[test]
fn fatbin_choice_matches_nvlink() {
    // Entries sm_100, sm_100f, sm_103: nvlink took 100f for sm_100 and sm_100f, 103 for
    // sm_103 and sm_103f.
    let d = data("kern_100_100f_103.fatbin");
    let fb = fatbin::Fatbin::parse(&d).unwrap();
    let chosen = |t: &str| {
        fb.entries[fatbin::select(&fb, SmArch::parse(t).unwrap()).unwrap()]
            .arch()
            .to_string()
    };
    assert_eq!(chosen("sm_100"), "sm_100f");
    assert_eq!(chosen("sm_100f"), "sm_100f");
    assert_eq!(chosen("sm_103"), "sm_103");
    assert_eq!(chosen("sm_103f"), "sm_103");
    assert_eq!(fatbin::select(&fb, SmArch::parse("sm_110").unwrap()), None);
}

#[test]
fn compressed_and_concatenated_fatbins() {
    for f in ["kern_sm90_lz4.fatbin", "kern_sm90_zstd.fatbin"] {
        assert_eq!(
            load_one("k.fatbin", data(f), "sm_90").map(|r| r.0),
            Ok(1),
            "{f}"
        );
    }
    // --concat: members sm_80 and sm_86 cubins plus compute_80 PTX; nvlink took the sm_86
    // cubin for sm_89.
    let d = data("kern_concat.fatbin");
    let fb = fatbin::Fatbin::parse(&d).unwrap();
    let i = fatbin::select(&fb, SmArch::parse("sm_89").unwrap()).unwrap();
    assert_eq!(
        (fb.entries[i].kind, fb.entries[i].sm),
        (fatbin::KIND_CUBIN, 86)
    );
    assert_eq!(load_one("cc.fatbin", d, "sm_89").map(|r| r.0), Ok(1));
}

#[test]
fn nvlink_warnings_and_silent_skips() {
    assert_eq!(
        load_one("f1_32.fatbin", data("kern_32bit.fatbin"), "sm_86"),
        Ok((
            0,
            vec!["SM Arch ('sm_86') not found in 'f1_32.fatbin'".to_string()]
        ))
    );
    let (n, w) = load_one("wp.o", data("wholeprogram_host.o"), "sm_90").unwrap();
    assert_eq!(n, 0);
    assert!(w[0].contains("ignoring 'wp.o'"), "{w:?}");
    let cubin = data("bar_sm90.cubin");
    for cut in [63, 64, 200, 2000, 2496, 2559] {
        let (n, w) = load_one("tr.cubin", cubin[..cut].to_vec(), "sm_90").unwrap();
        assert_eq!((n, w.len()), (0, 1), "cut at {cut}");
    }
    for (name, content) in [
        ("x.foo", cubin.clone()),
        ("noext", cubin.clone()),
        ("t.o", vec![b'x'; 200]),
        ("e.o", vec![]),
    ] {
        let (n, w) = load_one(name, content, "sm_90").unwrap();
        assert_eq!((n, w.len()), (0, 1), "{name}");
    }
}

#[test]
fn nvlink_fatal_messages() {
    let cubin = data("bar_sm90.cubin");
    let host = data("kernel_sm90_host.o");
    let f = |name: &str, d: Vec<u8>, t: &str| load_one(name, d, t).unwrap_err();
    assert_eq!(
        f("t.cubin", vec![b'x'; 200], "sm_90"),
        ["nvlink fatal   : cubin not an elf?"]
    );
    assert_eq!(
        f("h.cubin", host.clone(), "sm_90"),
        ["nvlink fatal   : cubin not a device elf?"]
    );
    assert_eq!(
        f("h.fatbin", host.clone(), "sm_90"),
        ["nvlink fatal   : fatbin wrong format?"]
    );
    assert_eq!(
        f("t.o", b"hello\n".to_vec(), "sm_90"),
        ["nvlink fatal   : Could not open input file 't.o'"]
    );
    assert_eq!(
        f("h.ptx", host.clone(), "sm_90"),
        [
            "nvlink error   : Can't load this binary kind, as it's not recognized",
            "nvlink fatal   : elfLink fatbinary error"
        ]
    );
    assert_eq!(
        f("trh.o", host[..3000].to_vec(), "sm_90"),
        [
            "nvlink fatal   : Could not find fatbin in 'trh.o'",
            "nvlink fatal   : elfLink internal error"
        ]
    );
    assert_eq!(
        f("k.cubin", cubin.clone(), "sm_89"),
        ["nvlink fatal   : Input file 'k.cubin' arch does not match target 'sm_89'"]
    );
    assert_eq!(
        f("k.cubin", cubin.clone(), "sm_100"),
        ["nvlink fatal   : Input file 'k.cubin' arch does not match target 'sm_100'"]
    );
    assert_eq!(
        f("a.cubin", data("bar_sm90a.cubin"), "sm_90"),
        ["nvlink fatal   : cannot link accelerated arch to non-accelerated"]
    );
    assert_eq!(
        f("l.o", data("lto_only_host.o"), "sm_90"),
        ["nvlink fatal   : LTO objects found, use -dlto"]
    );
    let patched = |at: usize, bytes: &[u8]| {
        let mut c = cubin.clone();
        c[at..at + bytes.len()].copy_from_slice(bytes);
        c
    };
    assert_eq!(
        f("m.cubin", patched(8, &[9]), "sm_90"),
        ["nvlink fatal   : Input file 'm.cubin' abi does not match"]
    );
    assert_eq!(
        f("m.cubin", patched(7, &[0x33]), "sm_90"),
        [
            "nvlink warning : expected 64bit object 'm.cubin' to have EF_CUDA_64BIT_ADDRESS set",
            "nvlink fatal   : Input file 'm.cubin' abi does not match"
        ]
    );
    assert_eq!(
        f(
            "m.cubin",
            patched(48, &0x0700_5a04u32.to_le_bytes()),
            "sm_90"
        ),
        ["nvlink fatal   : Input file 'm.cubin' must be recompiled with toolkit >= Cuda 12.0"]
    );
    // The toolkit version of .note.nv.cuinfo sits 28 bytes into the section.
    let elf = elfw_core::elf::ElfFile::parse(&cubin).unwrap();
    let cu = elf.section_by_name(b".note.nv.cuinfo").unwrap();
    let at = elf.section(cu).unwrap().offset as usize + 28;
    assert_eq!(
        f("m.cubin", patched(at, &[0x88]), "sm_90"),
        ["nvlink fatal   : Input file 'm.cubin' newer than toolkit (136 vs 135)"]
    );
    assert_eq!(
        f("m.cubin", patched(at, &[0x77]), "sm_90"),
        ["nvlink fatal   : Input file 'm.cubin' must be recompiled with toolkit >= Cuda 12.0"]
    );
}

#[test]
fn missing_files_and_directories() {
    let store = InputStore::new();
    let dir = std::env::temp_dir();
    for p in [dir.join("elfw-no-such-file.o"), dir.clone()] {
        let e = load(&store, &[InputSource::Path(p.clone())], &opts("sm_90")).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::CouldNotOpen(_)));
        assert_eq!(
            nvlink_lines(&e),
            [format!(
                "nvlink fatal   : Could not open input file '{}'",
                p.display()
            )]
        );
    }
}

#[test]
fn ptx_without_ptxas_names_the_file_and_the_fix() {
    let text = b"//\n// comment\n.version 9.5\n.target sm_90\n.address_size 64\n".to_vec();
    let mut padded = text.clone();
    padded.resize(80, b'\n');
    let store = InputStore::new();
    let e = load(&store, &[bytes("k.ptx", padded)], &opts("sm_90")).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.starts_with("k.ptx: ") && msg.contains("ptxas") && msg.contains("install"),
        "{msg}"
    );
}
