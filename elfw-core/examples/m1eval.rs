//! Evaluates the scoreboard pass on pairs of images: `m1eval LIST`, LIST lines
//! `<label> <nvlink.cubin> <elfw.cubin>` where the elfw image holds the input control words.
use elfw_core::link::fence_pads;
use elfw_core::link::sass::scoreboard::{reallocate, triggered};
use elfw_core::link::sass::{def_use, mnemonic};
use std::collections::BTreeMap;

fn texts(path: &str) -> BTreeMap<String, Vec<u8>> {
    let d = std::fs::read(path).unwrap_or_default();
    let mut out = BTreeMap::new();
    if d.len() < 64 || &d[..4] != b"\x7fELF" {
        return out;
    }
    let u16_at = |o: usize| u16::from_le_bytes([d[o], d[o + 1]]) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(d[o..o + 4].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(d[o..o + 8].try_into().unwrap()) as usize;
    let shoff = u64_at(0x28);
    let (ent, num, stri) = (u16_at(0x3a), u16_at(0x3c), u16_at(0x3e));
    let sh = |k: usize| shoff + k * ent;
    let stroff = u64_at(sh(stri) + 0x18);
    for k in 0..num {
        let h = sh(k);
        let name_off = stroff + u32_at(h);
        let end = d[name_off..].iter().position(|&c| c == 0).unwrap() + name_off;
        let name = String::from_utf8_lossy(&d[name_off..end]).into_owned();
        if name.starts_with(".text.") {
            let (off, size) = (u64_at(h + 0x18), u64_at(h + 0x20));
            out.insert(name, d[off..off + size].to_vec());
        }
    }
    out
}

fn ctl_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len()
        && a.chunks(16)
            .zip(b.chunks(16))
            .all(|(x, y)| x[8..] == y[8..] && x[..8] == y[..8])
}

fn main() {
    let list = std::env::args().nth(1).expect("list");
    let verbose = std::env::var("V").is_ok();
    let (mut links, mut eq_links, mut secs, mut trig, mut exact, mut gave_up, mut broken) =
        (0, 0, 0, 0, 0, 0, 0);
    for line in std::fs::read_to_string(list).unwrap().lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 3 {
            continue;
        }
        let (r, e) = (texts(f[1]), texts(f[2]));
        // The link's gate: a 4th column `g` (-g or a -G input) or a relocatable output.
        let relocatable = std::fs::read(f[2]).is_ok_and(|d| d.get(16) == Some(&1));
        let gated = f.get(3) != Some(&"g") && (!relocatable || std::env::var("NOGATE").is_ok());
        let mut ok_all = true;
        let mut notes = Vec::new();
        for (n, y) in &r {
            let Some(x) = e.get(n) else {
                ok_all = false;
                continue;
            };
            secs += 1;
            let t = gated && triggered(x);
            // The fence placeholders go first, as in the link (the images listed may be
            // older elfw's, with them).
            let dropped = t
                .then(|| fence_pads::plan(x).and_then(|p| fence_pads::rewrite_code(x, &p)))
                .flatten()
                .map(|n| n.bytes);
            let out = if t {
                reallocate(dropped.as_ref().unwrap_or(x))
            } else {
                None
            };
            // `DUMPBIN=<section>`: the pass's bytes to a file; `DUMP=<section>`: a table.
            if let (Ok(d), Some(o)) = (std::env::var("DUMPBIN"), &out) {
                if n.contains(d.as_str()) {
                    std::fs::write(format!("/tmp/m1eval-{}.bin", n.trim_start_matches('.')), o)
                        .ok();
                }
            }
            if !t && std::env::var("WHY").is_ok() {
                for (k, c) in x.chunks(16).enumerate().skip(1) {
                    let lo = u64::from_le_bytes(c[..8].try_into().unwrap());
                    let hi = u64::from_le_bytes(c[8..].try_into().unwrap());
                    if def_use(lo, hi).is_none() {
                        println!(
                            "  WHY {} 0x{:x} {:016x} {:016x} {:?}",
                            &n[..n.len().min(40)],
                            k * 16,
                            lo,
                            hi,
                            mnemonic(lo)
                        );
                        break;
                    }
                }
            }
            if t {
                trig += 1;
                if out.is_none() {
                    gave_up += 1;
                }
            }
            if let Ok(pat) = std::env::var("DUMP") {
                if n.contains(&pat) {
                    let show = |c: &[u8]| {
                        let h = u64::from_le_bytes(c[8..16].try_into().unwrap()) >> 41;
                        let sb = |v: u64| {
                            if v == 7 {
                                "-".to_string()
                            } else {
                                v.to_string()
                            }
                        };
                        format!(
                            "st{:2} w{} r{} wt{:02x}",
                            h & 0xf,
                            sb(h >> 5 & 7),
                            sb(h >> 8 & 7),
                            h >> 11 & 0x3f
                        )
                    };
                    println!("DUMP {} {} trig={} out={}", f[0], n, t, out.is_some());
                    // (The input as the pass saw it: its fence placeholders gone.)
                    let seen = dropped.as_ref().unwrap_or(x);
                    for (k, c) in seen.chunks(16).enumerate() {
                        let o = out
                            .as_ref()
                            .and_then(|o| o.get(k * 16..k * 16 + 16).map(show))
                            .unwrap_or_default();
                        let yy = y.get(k * 16..k * 16 + 16).map(show).unwrap_or_default();
                        let lo = u64::from_le_bytes(c[..8].try_into().unwrap());
                        println!(
                            "  {:5x} {:8} {} | {} | {} {}",
                            k * 16,
                            mnemonic(lo).unwrap_or("?"),
                            show(c),
                            yy,
                            o,
                            if !o.is_empty() && o != yy { "*" } else { "" }
                        );
                        if std::env::var("DU").is_ok() {
                            let hi = u64::from_le_bytes(c[8..].try_into().unwrap());
                            let r = elfw_core::link::sass::reg_list;
                            match def_use(lo, hi) {
                                Some(d) => println!(
                                    "        du d={} u={} a={} desc={} g={:?}",
                                    r(&d.defs),
                                    r(&d.uses),
                                    r(&d.address),
                                    r(&d.desc),
                                    d.guard
                                ),
                                None => println!("        du None {:016x} {:016x}", lo, hi),
                            }
                        }
                    }
                }
            }
            let img = out.clone().unwrap_or_else(|| x.clone());
            let ok = ctl_eq(&img, y);
            if ok && t {
                exact += 1;
            }
            if !ok && ctl_eq(x, y) {
                broken += 1;
            }
            if !ok {
                ok_all = false;
                let first = img
                    .chunks(16)
                    .zip(y.chunks(16))
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                notes.push(format!(
                    "    {} trig={} gaveup={} first=0x{:x}",
                    &n[..n.len().min(90)],
                    t,
                    t && out.is_none(),
                    first * 16
                ));
            }
        }
        links += 1;
        if ok_all {
            eq_links += 1;
        }
        println!("{} {}", f[0], if ok_all { "EQUAL" } else { "DIFF" });
        if verbose || !ok_all {
            for n in notes {
                println!("{n}");
            }
        }
    }
    println!("links {links} equal {eq_links}; sections {secs} triggered {trig} exact {exact} gave-up {gave_up} broken {broken}");
}
