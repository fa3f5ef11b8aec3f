//! `link_to` (the image streamed to a writer a window at a time) writes exactly the bytes
//! `link` returns, whatever the window size.

use elfw_core::elf::ElfFile;
use elfw_core::link::{link, link_to, InputObject, LinkOptions};
use elfw_core::target::Target;
use std::path::Path;

/// The corpus cases whose inputs are all cubins, with their arch.
fn cubin_cases() -> Vec<(String, String, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&root).unwrap() {
        let dir = e.unwrap().path();
        let Ok(args) = std::fs::read_to_string(dir.join("args")) else {
            continue;
        };
        if !dir.join("expected.cubin").exists() {
            continue;
        }
        let args: Vec<&str> = args.lines().collect();
        let Some(arch) = args.iter().find_map(|a| a.strip_prefix("-arch=")) else {
            continue;
        };
        let inputs: Vec<String> = args
            .iter()
            .filter(|a| !a.starts_with('-') && **a != "out.cubin")
            .map(|a| a.to_string())
            .collect();
        let plain = args.iter().all(|a| {
            matches!(*a, "-o" | "out.cubin") || a.starts_with("-arch=") || a.ends_with(".cubin")
        });
        if plain && !inputs.is_empty() {
            out.push((dir.display().to_string(), arch.to_string(), inputs));
        }
    }
    out.sort();
    out
}

#[test]
fn streamed_image_is_the_same_image() {
    let mut checked = 0;
    for (dir, arch, names) in cubin_cases() {
        let bytes: Vec<Vec<u8>> = names
            .iter()
            .map(|n| std::fs::read(Path::new(&dir).join(n)).unwrap())
            .collect();
        let Ok(inputs) = names
            .iter()
            .zip(&bytes)
            .map(|(n, b)| {
                ElfFile::parse(b).map(|elf| InputObject {
                    name: n.clone(),
                    elf,
                })
            })
            .collect::<Result<Vec<_>, _>>()
        else {
            continue;
        };
        let mut opts = LinkOptions::new(Target::parse(&arch).unwrap());
        opts.input_names = names.clone();
        let Ok(whole) = link(&inputs, &opts) else {
            continue;
        };
        // Windows of one byte upward: every section edge crosses a window edge somewhere.
        for window in ["1", "100", "4096"] {
            std::env::set_var("ELFW_EMIT_WINDOW", window);
            let mut streamed = Vec::new();
            let out = link_to(&inputs, &opts, &mut streamed).unwrap();
            assert!(out.image.is_empty());
            assert_eq!(streamed, whole.image, "{dir} with a {window}-byte window");
        }
        std::env::remove_var("ELFW_EMIT_WINDOW");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} cases linked");
}
