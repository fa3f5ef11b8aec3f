use std::io::Write;

fn main() {
    let mut args = std::env::args();
    let program = args.next().unwrap_or_else(|| "elfw".into());
    let program_name = std::path::Path::new(&program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "elfw".into());
    let argv: Vec<String> = args.collect();
    let env = elfw_cli::RunEnv {
        cwd: std::env::current_dir().unwrap_or_default(),
        program_name,
    };
    let out = elfw_cli::run_then_exit(&argv, &env);
    let _ = std::io::stdout().write_all(&out.stdout);
    let _ = std::io::stderr().write_all(&out.stderr);
    std::process::exit(out.status);
}
