#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instr {
    /// Pushes a constant.
    Push(i64),
    /// Pops b, then a; pushes a + b.
    Add,
    /// Pops b, then a; pushes a - b.
    Sub,
    /// Duplicates the top value.
    Dup,
    /// Pops a value and appends it to the output.
    Print,
    /// Continues at the given instruction index.
    Jump(usize),
    /// Pops a value; jumps to the index if it is zero.
    JumpIfZero(usize),
    /// Stops the program.
    Halt,
}

/// Parses one instruction per line, e.g. "push 3", "jz 7", "halt".
pub fn parse(src: &str) -> Option<Vec<Instr>> {
    src.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|line| {
            let mut parts = line.split_whitespace();
            let op = parts.next()?;
            let arg = parts.next();
            Some(match (op, arg) {
                ("push", Some(n)) => Instr::Push(n.parse().ok()?),
                ("add", None) => Instr::Add,
                ("sub", None) => Instr::Sub,
                ("dup", None) => Instr::Dup,
                ("print", None) => Instr::Print,
                ("jmp", Some(t)) => Instr::Jump(t.parse().ok()?),
                ("jz", Some(t)) => Instr::JumpIfZero(t.parse().ok()?),
                ("halt", None) => Instr::Halt,
                _ => return None,
            })
        })
        .collect()
}
