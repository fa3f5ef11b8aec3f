//! Links the cubins named on the command line: `link_files sm_90 out.cubin a.cubin b.cubin`.

use elfw_core::elf::ElfFile;
use elfw_core::link::{link, InputObject, LinkOptions};
use elfw_core::target::Target;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: link_files <sm_XX> <output> <input>...");
        std::process::exit(2);
    }
    let target = Target::parse(&args[0]).expect("unknown target");
    let datas: Vec<Vec<u8>> = args[2..]
        .iter()
        .map(|p| std::fs::read(p).expect("read input"))
        .collect();
    let mut inputs = Vec::new();
    for (p, d) in args[2..].iter().zip(&datas) {
        inputs.push(InputObject {
            name: p.clone(),
            elf: ElfFile::parse(d).expect("parse input"),
        });
    }
    let mut opts = LinkOptions::new(target);
    opts.input_names = args[2..].to_vec();
    match link(&inputs, &opts) {
        Ok(out) => std::fs::write(&args[1], out.image).expect("write output"),
        Err(f) => {
            for d in f.diagnostics.iter() {
                eprintln!("{d}");
            }
            std::process::exit(1);
        }
    }
}
