//! Links the files named on the command line with the `Linker` builder:
//! `cargo run -p elfw-core --example link_files -- sm_90 out.cubin a.cubin b.o libc.a`.
//! Inputs may be cubins, host objects (`nvcc -dc`), fatbins or archives.

use elfw_core::target::Target;
use elfw_core::Linker;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: link_files <sm_XX> <output> <input>...");
        std::process::exit(2);
    }
    let Some(target) = Target::parse(&args[0]) else {
        eprintln!("unknown target '{}'", args[0]);
        std::process::exit(2);
    };
    let mut linker = Linker::new(target);
    for input in &args[2..] {
        linker = linker.input_path(input);
    }
    let linked = linker.link();
    for d in &linked.diagnostics {
        eprintln!("{}", d.render("link_files"));
    }
    match linked.image {
        Some(image) => {
            if let Err(e) = std::fs::write(&args[1], image) {
                eprintln!("cannot write {}: {e}", args[1]);
                std::process::exit(1);
            }
        }
        None => std::process::exit(linked.status()),
    }
}
