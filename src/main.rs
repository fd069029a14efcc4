//! The `qiyi` binary: the command line of [`qiyi::cli`].

fn main() -> std::process::ExitCode {
    qiyi::cli::main()
}
