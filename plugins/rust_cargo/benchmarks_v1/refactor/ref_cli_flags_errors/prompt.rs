// Task: `parse_args` panics on bad arguments. Make it return
// `Result<Options, ArgError>` with the enum (derive Debug, PartialEq):
//   UnknownFlag(String)          the flag as written
//   MissingValue(String)         a flag that needs a value came last
//   InvalidPort(String)          the value given to --port
//   Repeated(String)             a flag given twice (the flag as written)
// Arguments are checked from left to right; the first problem is returned.

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub host: String,
    pub port: u16,
    pub verbose: bool,
}

/// Accepts `--host NAME`, `--port N` (1..=65535) and `--verbose`.
/// Defaults: host "localhost", port 8080, not verbose.
pub fn parse_args(args: &[&str]) -> Options {
    let mut host: Option<String> = None;
    let mut port: Option<u16> = None;
    let mut verbose = false;
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            "--host" => {
                assert!(host.is_none(), "--host given twice");
                host = Some(args.get(i + 1).expect("--host needs a value").to_string());
                i += 1;
            }
            "--port" => {
                assert!(port.is_none(), "--port given twice");
                let v = args.get(i + 1).expect("--port needs a value");
                let p: u16 = v.parse().expect("invalid port");
                assert!(p != 0, "invalid port");
                port = Some(p);
                i += 1;
            }
            "--verbose" => {
                assert!(!verbose, "--verbose given twice");
                verbose = true;
            }
            other => panic!("unknown flag {}", other),
        }
        i += 1;
    }
    Options { host: host.unwrap_or_else(|| "localhost".to_string()), port: port.unwrap_or(8080), verbose }
}
