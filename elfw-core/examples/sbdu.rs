//! Prints the decoder's def/use of `lo hi text` lines (hex words) read from a file.
use elfw_core::link::sass::def_use;
fn main() {
    let path = std::env::args().nth(1).expect("file");
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let mut it = line.splitn(3, ' ');
        let lo = u64::from_str_radix(it.next().unwrap(), 16).unwrap();
        let hi = u64::from_str_radix(it.next().unwrap(), 16).unwrap();
        let t = it.next().unwrap_or("");
        let r = elfw_core::link::sass::reg_list;
        match def_use(lo, hi) {
            Some(d) => println!(
                "{t:60} d={} u={} a={} g={:?}",
                r(&d.defs),
                r(&d.uses),
                r(&d.address),
                d.guard.map(|g| g.num)
            ),
            None => println!("{t:60} None"),
        }
    }
}
